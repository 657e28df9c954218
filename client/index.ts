// Public API of the Palisade client library (palisade-lock/client): the client, lock and
// session handles, their options, what reads answer, and the errors. The seams a simulator
// or a test drives it through (transports, the lock API, clocks) are palisade-lock/client/testing.
export { PalisadeClient } from "./client.ts";
export type {
  AcquireHandleOptions,
  ClientEvents,
  LockOptions,
  Semaphore,
  OpenSessionOptions,
  PalisadeClientOptions,
  SessionPage,
  TlsOptions,
} from "./client.ts";
export type { ClusterAdmin } from "./admin.ts";
export type { ListLocksOptions, LockPageOptions, LockReads, ReadOptions } from "./reads.ts";
export { LockHandle } from "./lock-handle.ts";
export type { GrantTerms, LockContext, LockHandleEvents } from "./lock-handle.ts";
export { Session, MAX_IN_FLIGHT } from "./session.ts";
export { tlsCredentials } from "./connection.ts";
export type { TlsFileOptions } from "./connection.ts";
export type {
  AcquireOptions,
  LateGrantRelease,
  PendingAcquire,
  PendingModeChange,
  UpgradeOptions,
} from "./session.ts";
export type { WatchEvent, WatchEventKind, WatchOptions } from "./watch.ts";
export type {
  Elections,
  Leadership,
  CampaignOptions,
  ElectionEvent,
  LeaderInfo,
  LeaderValue,
  ObserveOptions,
  ObservedEvent,
} from "./elections.ts";
export * from "./errors.ts";
export type {
  AccessAction,
  AccessDecision,
  AccessPolicy,
  AcquireResult,
  CallerRights,
  CreatedToken,
  CancelWaitResult,
  DowngradeAnswer,
  DowngradeMode,
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
  PrefixAction,
  SessionInfo,
  TokenInfo,
  UpgradeAnswer,
} from "./types.ts";
