// Public API of the Palisade client library.
export { PalisadeClient } from "./client.ts";
export type {
  ClientEvents, ClientWiring, ListLocksOptions, LockOptions, OpenSessionOptions, PalisadeClientOptions, ReadOptions, SessionPage, TlsOptions,
} from "./client.ts";
export { LockHandle } from "./lock-handle.ts";
export type { LockContext, LockHandleEvents } from "./lock-handle.ts";
export { Session, MAX_IN_FLIGHT } from "./session.ts";
export { GrpcLockApi, isAnswer } from "./lock-api.ts";
export type {
  AcquireAnswer, AcquireCall, CallOptions, CancelWaitCall, CloseSessionCall, LockApi, OpenSessionCall, OpenedSession, ReleaseCall, WriteAcks,
} from "./lock-api.ts";
export { systemClock } from "./clock.ts";
export type { ClientClock, Timer } from "./clock.ts";
export type { AcquireOptions, LateGrantRelease, PendingAcquire } from "./session.ts";
export type { WatchEvent, WatchEventKind, WatchOptions } from "./watch.ts";
export * from "./errors.ts";
export type {
  AcquireResult, CancelWaitResult, EndReason, HistoryRecordInfo, LockHolderInfo, LockInfo, LockPage,
  LockSummaryInfo, LockWaiterInfo, MemberInfo, NodeRoleName, NodeStatus, SessionInfo,
} from "./types.ts";
