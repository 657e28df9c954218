// Public API of the Palisade client library.
export { PalisadeClient } from "./client.ts";
export type { ListLocksOptions, OpenSessionOptions, PalisadeClientOptions } from "./client.ts";
export { Session, MAX_IN_FLIGHT } from "./session.ts";
export type { AcquireOptions, PendingAcquire } from "./session.ts";
export * from "./errors.ts";
export type {
  AcquireResult, CancelWaitResult, EndReason, HistoryRecordInfo, LockHolderInfo, LockInfo, LockPage,
  LockSummaryInfo, LockWaiterInfo, MemberInfo, NodeRoleName, NodeStatus, SessionInfo,
} from "./types.ts";
