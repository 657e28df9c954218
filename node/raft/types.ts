// Types shared by the Raft core, the driver, storage and transport.
//
// Terms and log indexes are JavaScript numbers inside the node: a lock token is
// epoch × 2^48 + index, so an index never exceeds 2^48 (well inside 2^53). They become
// uint64 on the wire and bigint in tokens (see proto/wire.ts).

/** A node id: a positive integer, never reused within a cluster. 0 means "none". */
export type NodeId = number;
export const NONE: NodeId = 0;

/** What an entry carries. "noop" is the empty entry a new leader appends; "config" a membership change. */
export type EntryKind = "normal" | "noop" | "config";

export interface Entry {
  readonly term: number;
  readonly index: number;
  readonly kind: EntryKind;
  /** State-machine command (kind "normal") or encoded configuration (kind "config"). */
  readonly data: Uint8Array;
}

/** What must be durable before a node answers a vote or an append. */
export interface HardState {
  readonly term: number;
  readonly vote: NodeId;
  readonly commit: number;
}

/** Cluster membership: voters decide elections and commits; learners only receive the log. */
export interface Membership {
  readonly voters: readonly NodeId[];
  readonly learners: readonly NodeId[];
  /** Peer and client addresses of members that joined after the cluster file was written, by node id. */
  readonly addresses?: Readonly<Record<string, { readonly peer: string; readonly client: string }>>;
  /** Ids of members removed so far: node ids are never reused. */
  readonly retired?: readonly NodeId[];
}

export interface SnapshotMeta {
  readonly index: number;
  readonly term: number;
  readonly membership: Membership;
}

export interface Snapshot {
  readonly meta: SnapshotMeta;
  readonly data: Uint8Array;
}

export type Role = "follower" | "precandidate" | "candidate" | "leader";

interface MessageBase {
  readonly from: NodeId;
  readonly to: NodeId;
  readonly term: number;
}

/** RequestVote, or a PreVote when `pre` is set (term is then the term the sender would campaign in). */
export interface VoteRequest extends MessageBase {
  readonly type: "vote";
  readonly pre: boolean;
  readonly lastIndex: number;
  readonly lastTerm: number;
  /** Set when the campaign was started by TimeoutNow: voters ignore their leader lease. */
  readonly transfer: boolean;
}

export interface VoteResponse extends MessageBase {
  readonly type: "voteResp";
  readonly pre: boolean;
  readonly granted: boolean;
}

export interface AppendRequest extends MessageBase {
  readonly type: "append";
  readonly prevIndex: number;
  readonly prevTerm: number;
  readonly entries: readonly Entry[];
  readonly commit: number;
}

export interface AppendResponse extends MessageBase {
  readonly type: "appendResp";
  readonly success: boolean;
  /** On success: the last index the follower now has from this request. On rejection: the rejected prevIndex. */
  readonly index: number;
  /** Rejection hint: the term of the follower's entry at hintIndex (0 if it has none), for fast backtracking. */
  readonly hintIndex: number;
  readonly hintTerm: number;
}

/** Leader heartbeat; `round` > 0 asks for confirmation of a ReadIndex / keepalive quorum round. */
export interface Heartbeat extends MessageBase {
  readonly type: "heartbeat";
  readonly commit: number;
  readonly round: number;
}

export interface HeartbeatResponse extends MessageBase {
  readonly type: "heartbeatResp";
  readonly round: number;
}

/** Leadership transfer: the receiver campaigns at once. */
export interface TimeoutNow extends MessageBase {
  readonly type: "timeoutNow";
}

/** A follower asks the leader for a read index on behalf of its own clients. */
export interface ReadIndexRequest extends MessageBase {
  readonly type: "readIndex";
  readonly requestId: number;
}

export interface ReadIndexResponse extends MessageBase {
  readonly type: "readIndexResp";
  readonly requestId: number;
  /** 0 when the leader could not serve it (it is not leader, or lost leadership). */
  readonly index: number;
}

/** A whole snapshot. The transport chunks the body on the wire. */
export interface InstallSnapshot extends MessageBase {
  readonly type: "snapshot";
  readonly snapshot: Snapshot;
}

export type Message =
  | VoteRequest
  | VoteResponse
  | AppendRequest
  | AppendResponse
  | Heartbeat
  | HeartbeatResponse
  | TimeoutNow
  | ReadIndexRequest
  | ReadIndexResponse
  | InstallSnapshot;

export type MessageType = Message["type"];

/** A read that may be served once the node has applied up to `index`. */
export interface ReadState {
  readonly requestId: number;
  /** 0 when the read failed (leadership lost or unknown): the caller retries or answers UNAVAILABLE. */
  readonly index: number;
}

/** The batch the core hands out after it was stepped. See RaftCore.ready(). */
export interface Ready {
  /** Set when term, vote or commit changed: persist with the entries in one batch. */
  readonly hardState: HardState | null;
  /** Entries to append durably; stored entries at or after entries[0].index are replaced. */
  readonly entries: readonly Entry[];
  /** A snapshot received from the leader, to persist (and restore) before anything else. */
  readonly snapshot: Snapshot | null;
  /** Whether the write must be fsynced before `messages` leave (term, vote or entries changed). */
  readonly mustSync: boolean;
  /** Messages that may leave before the write is durable (a leader's appends and heartbeats). */
  readonly earlyMessages: readonly Message[];
  /** Messages that may leave only after the write is durable (votes, acks). */
  readonly messages: readonly Message[];
  /** Committed entries to apply, in order. Never beyond what is durable once this Ready is persisted. */
  readonly committed: readonly Entry[];
  readonly readStates: readonly ReadState[];
  /** Role and leader after this step, for the host (leader hints, metrics, session timers). */
  readonly soft: SoftState;
}

export interface SoftState {
  readonly role: Role;
  readonly leader: NodeId;
  readonly term: number;
}
