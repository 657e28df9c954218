// What the client and admin services need from the node they run on.
import type { ApplyOutcome, LeaseKeeper, LockLimits, LockStateMachine } from "../lock/index.ts";
import type { Logger } from "../util/logger.ts";
import type { AcquireWaiters } from "../host/acquire-waiters.ts";
import type { Driver } from "../host/driver.ts";
import type { WatchHub } from "./watch-hub.ts";

/** The apply result of one entry: the state machine's outcome, or null for a no-op or config entry. */
export type EntryResult = ApplyOutcome | null;

export interface NodeContext {
  /** The applied state (replaced when a snapshot is installed: read it anew each time). */
  readonly machine: LockStateMachine;
  readonly driver: Driver<EntryResult>;
  readonly leaseKeeper: LeaseKeeper;
  readonly waiters: AcquireWaiters;
  readonly watch: WatchHub;
  readonly logger: Logger;
  /** Client address of every member, by node id. */
  readonly clientAddresses: ReadonlyMap<number, string>;
  readonly peerAddresses: ReadonlyMap<number, string>;
  readonly clusterId: string;
  /** Election timeout in milliseconds (ticks × tick length). */
  readonly electionTimeoutMs: number;
  isLeader(): boolean;
  /** The leader's client address, when a leader is known and is not this node. */
  leaderHint(): string | null;
  /** Monotonic milliseconds: every timing decision uses this clock. */
  now(): number;
  /** Wall-clock milliseconds, display data in commands only. */
  wallMs(): number;
  /** A fresh OpenSession request id for clients that sent none. */
  newRequestId(): string;
  /** The lock limits a request is checked with before it is proposed (apply decides). */
  limitsForRequests(): LockLimits;
  /** Node ids the peer transport cannot reach now. */
  unreachablePeers(): readonly number[];
  /** SnapshotSave: writes a snapshot at the applied index now and compacts the log up to it. */
  snapshotNow?(): Promise<{ index: number; term: number; bytes: number }>;
}
