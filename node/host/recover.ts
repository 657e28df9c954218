// A node's Raft core and lock state machine, rebuilt from what its store holds: the one
// recipe a node boots with (node-host.ts), which the engine benchmark's in-process nodes
// (bench/engine-cluster.ts) follow too.
import { LockStateMachine } from "../lock/index.ts";
import { RaftCore } from "../raft/core.ts";
import type { Membership } from "../raft/types.ts";
import type { DurableState } from "../storage/log-store.ts";
import type { Random } from "../util/rng.ts";
import type { HostConfig } from "./host-env.ts";

export interface Recovered {
  readonly core: RaftCore;
  readonly sm: LockStateMachine;
}

/** The core and the state machine of `durable`, with this node's Raft settings. */
export function recoverReplica(cfg: HostConfig, durable: DurableState, random: Random): Recovered {
  // Every replica starts from the default limits (or the snapshot's): the cluster file's
  // limits take effect when the leader's setLimits entry applies.
  const sm = durable.snapshot
    ? LockStateMachine.restore(durable.snapshot.data)
    : new LockStateMachine();
  const fresh = durable.entries.length === 0 && !durable.snapshot;
  const membership: Membership =
    durable.snapshot?.meta.membership ??
    (cfg.join && fresh
      ? { voters: [], learners: [] }
      : { voters: cfg.members.map((m) => m.id), learners: [] });
  const core = new RaftCore(
    {
      id: cfg.id,
      electionTicks: cfg.electionTicks,
      heartbeatTicks: cfg.heartbeatTicks,
      maxInflightMsgs: cfg.maxInflightMsgs,
      maxBytesPerAppend: cfg.maxBytesPerAppend,
      preVote: true,
      checkQuorum: true,
      random,
    },
    {
      hardState: durable.hardState,
      membership,
      snapshotIndex: durable.snapshot?.meta.index ?? 0,
      snapshotTerm: durable.snapshot?.meta.term ?? 0,
      entries: durable.entries,
    },
  );
  // A leader must be able to send the recovered snapshot to followers that need it.
  if (durable.snapshot) core.compact(durable.snapshot);
  return { core, sm };
}
