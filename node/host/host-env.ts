// What a node host is given from outside: its configuration, its clocks, randomness,
// storage and transport, and the observers it reports to. The server passes real ones
// (node/server/node.ts); the simulator passes virtual time, a simulated disk and network.
import type { ApplyOutcome, Command, LockEvent, LockLimits } from "../lock/index.ts";
import type { Entry, Message, NodeId, SoftState } from "../raft/types.ts";
import type { RaftStorage } from "../storage/log-store.ts";
import type { Transport } from "../transport/transport.ts";
import type { Random } from "../util/rng.ts";

export interface MemberAddresses {
  readonly id: NodeId;
  /** Where the other nodes reach its Raft service. */
  readonly peerAddress: string;
  /** Where clients reach its lock and admin services. */
  readonly clientAddress: string;
}

export interface HostConfig {
  readonly id: NodeId;
  readonly clusterId: string;
  readonly tickMs: number;
  readonly electionTicks: number;
  readonly heartbeatTicks: number;
  readonly maxInflightMsgs: number;
  readonly maxBytesPerAppend: number;
  /** Applied entries since the last snapshot that trigger a new one. */
  readonly snapshotEntries: number;
  /** The lock limits this node's cluster file asks for: as leader it proposes them (setLimits). */
  readonly limits: LockLimits;
  /** The members of the cluster file; with `join` and no state, the node starts with none. */
  readonly members: readonly MemberAddresses[];
  readonly join: boolean;
  /** A lease keeper's re-proposal interval for expiries and wait timeouts (default 2 s). */
  readonly reproposeAfterMs?: number;
}

/** The logging a host does (a pino logger fits). */
export interface HostLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object, msg?: string): void;
  fatal(obj: object | string, msg?: string): void;
}

export interface HostEnv {
  /** Monotonic milliseconds: every timing decision uses this clock. */
  readonly now: () => number;
  /** Wall-clock milliseconds: display data in commands only, never compared. */
  readonly wallMs: () => number;
  /** Election jitter. */
  readonly random: Random;
  /** Runs `fn` after this turn's pending I/O (setImmediate on a node). */
  readonly defer: (fn: () => void) => void;
  readonly sleep: (ms: number) => Promise<void>;
  readonly logger: HostLogger;
  readonly storage: RaftStorage;
  readonly transport: Transport;
  /** Why this node takes no proposals now (free disk space below the reserve), or null. */
  readonly writesRefused?: () => string | null;
}

/** Observers of a host; each is optional. */
export interface HostHooks {
  /** A durable write failed: the host stopped; the process must exit and recover from disk. */
  onFatal?(error: unknown): void;
  onSoftState?(soft: SoftState): void;
  /** A command's outcome once applied. */
  onApplied?(outcome: ApplyOutcome): void;
  /** Every entry once applied, with its result (null for a no-op or a membership change). */
  onEntryApplied?(entry: Entry, result: ApplyOutcome | null): void;
  /** A command this node proposes (a client's write as leader, an expiry or a wait's timeout), with its entry's bytes. */
  onCommandProposed?(cmd: Command, entry: Uint8Array): void;
  /** As leader, this node restarted a session's TTL on a keepalive. */
  onKeepAlive?(sessionId: bigint): void;
  /** Lock events of an applied entry, for Watch. */
  onEvents?(events: readonly LockEvent[]): void;
  /** The state was replaced by a snapshot from the leader at `index`. */
  onSnapshotInstalled?(index: number): void;
  /** A snapshot of this node's state was written (seconds: encoding time). */
  onSnapshotTaken?(index: number, bytes: number, encodeSeconds: number): void;
  /** A proposal settled: committed and applied here, or failed; `seconds` since it was proposed. */
  onProposalSettled?(committed: boolean, seconds: number): void;
  /** A message is about to leave. */
  onSend?(message: Message): void;
}
