// Public API of the Palisade client library.
export { PalisadeClient } from "./client.ts";
export type {
  AcquireHandleOptions,
  ClientEvents,
  ClientWiring,
  ListLocksOptions,
  LockOptions,
  LockPageOptions,
  Semaphore,
  OpenSessionOptions,
  PalisadeClientOptions,
  ReadOptions,
  SessionPage,
  TlsOptions,
} from "./client.ts";
export { LockHandle } from "./lock-handle.ts";
export type { GrantTerms, LockContext, LockHandleEvents } from "./lock-handle.ts";
export { Session, MAX_IN_FLIGHT } from "./session.ts";
export { Connection, tlsCredentials } from "./connection.ts";
export type { TlsFileOptions } from "./connection.ts";
export { isAnswer } from "./lock-api.ts";
export type { AcquireAnswer, AcquireKinds, CallOptions, LockApi, WriteAcks } from "./lock-api.ts";
export { systemClock } from "./clock.ts";
export type { ClientClock, Timer } from "./clock.ts";
export type { AcquireOptions, LateGrantRelease, PendingAcquire } from "./session.ts";
export type { WatchEvent, WatchEventKind, WatchOptions } from "./watch.ts";
export * from "./errors.ts";
export type {
  AcquireResult,
  CancelWaitResult,
  EndReason,
  GrantMode,
  HistoryRecordInfo,
  HoldLimitDeadline,
  HolderCursor,
  KindFields,
  LockGrantInfo,
  LockHolderInfo,
  LockInfo,
  LockKind,
  LockMode,
  LockPage,
  LockSummaryInfo,
  LockTarget,
  LockWaiterInfo,
  MemberInfo,
  NodeRoleName,
  NodeStatus,
  SessionInfo,
} from "./types.ts";
