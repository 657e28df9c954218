// How the driver talks to its peers. Implementations: gRPC (node/transport/grpc-transport.ts)
// and the simulator's network (test/sim/cluster.ts).
import type { Message, NodeId } from "../raft/types.ts";

export type SnapshotStatus = "progress" | "failure";

export interface Transport {
  /**
   * Fire-and-forget. May drop (Raft retransmits); never blocks; bounded per peer, so a slow
   * or dead peer cannot make the sender's memory grow.
   */
  send(messages: readonly Message[]): void;
  /** Called for every message from a peer of this cluster (messages of another cluster are dropped). */
  onMessage(handler: (message: Message) => void): void;
  /**
   * Called when the connection to a peer was closed or refused by the peer's host (its
   * process is probably gone), as opposed to timing out. A hint for a faster election only.
   */
  onPeerDown?(handler: (peer: NodeId) => void): void;
  /**
   * Called as a snapshot sent in chunks moves: "progress" when the peer acknowledged more of
   * it, "failure" when the transfer broke off (the leader probes again; the same snapshot
   * sent again resumes where the peer is). Small snapshots, sent whole, report nothing.
   */
  onSnapshotStatus?(handler: (peer: NodeId, status: SnapshotStatus) => void): void;
  /** A member was added (or its address changed): send to it at `address` from now on. */
  addPeer?(id: NodeId, address: string): void;
  /** A member was removed: stop sending to it. */
  removePeer?(id: NodeId): void;
  /** Peers the transport currently cannot reach, for diagnostics. */
  unreachable?(): NodeId[];
  close(): Promise<void>;
}
