// AdminService handlers: Status (local view, no ReadIndex: it reports this node as it is)
// RevokeLock, leadership transfer and membership changes, and consistent snapshots for backups.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import type { AdminServiceHandlers } from "../../proto/grpc.ts";
import { MembershipError, type MemberAddress, type MembershipChange } from "../raft/membership.ts";
import type { Role } from "../raft/types.ts";
import { parseHostPort } from "../config/address.ts";
import { toU64 } from "../../proto/wire.ts";
import type { NodeContext } from "./context.ts";
import { expectOk, fail, linearizable, propose, requireLeader, toStatus, unary, unexpected } from "./handler.ts";
import { numberField, parseRevoke } from "./requests.ts";

const pb = palisade.v1;

const ROLES: Readonly<Record<Role, palisade.v1.NodeRole>> = {
  follower: pb.NodeRole.NODE_ROLE_FOLLOWER,
  precandidate: pb.NodeRole.NODE_ROLE_PRECANDIDATE,
  candidate: pb.NodeRole.NODE_ROLE_CANDIDATE,
  leader: pb.NodeRole.NODE_ROLE_LEADER,
};

export function statusResponse(ctx: NodeContext): palisade.v1.StatusResponse {
  const core = ctx.driver.core;
  const leader = core.role === "leader";
  const unreachable = new Set(leader ? ctx.unreachablePeers() : []);
  const members: palisade.v1.Member.$Properties[] = [];
  const add = (id: number, kind: palisade.v1.MemberKind): void => {
    const progress = leader && id !== core.id ? core.progressOf(id) : undefined;
    members.push({
      nodeId: toU64(id),
      address: ctx.peerAddresses.get(id) ?? "",
      kind,
      reachable: leader && (id === core.id || !unreachable.has(id)),
      matchIndex: toU64(leader ? (id === core.id ? core.log.lastIndex() : (progress?.match ?? 0)) : 0),
    });
  };
  for (const id of core.membership.voters) add(id, pb.MemberKind.MEMBER_KIND_VOTER);
  for (const id of core.membership.learners) add(id, pb.MemberKind.MEMBER_KIND_LEARNER);
  return pb.StatusResponse.create({
    nodeId: toU64(core.id),
    role: ROLES[core.role],
    term: toU64(core.term),
    leaderId: toU64(core.leader),
    commitIndex: toU64(core.log.committed),
    appliedIndex: toU64(ctx.driver.applied),
    lastIndex: toU64(core.log.lastIndex()),
    snapshotIndex: toU64(core.log.offset),
    members,
    clusterId: ctx.clusterId,
    epoch: toU64(ctx.machine.epoch),
  });
}

/** The voter other than this leader with the highest replicated index. */
function mostCaughtUpVoter(ctx: NodeContext): number {
  const core = ctx.driver.core;
  let best = 0;
  let bestMatch = -1;
  for (const id of core.membership.voters) {
    if (id === core.id) continue;
    const match = core.progressOf(id)?.match ?? 0;
    if (match > bestMatch) {
      best = id;
      bestMatch = match;
    }
  }
  if (best === 0) fail("ERROR_REASON_NO_TRANSFER_TARGET", "there is no other voting member to transfer leadership to");
  return best;
}

/** One membership change through this leader; resolves once it is applied here (the core refuses reused ids). */
async function changeMembers(ctx: NodeContext, change: MembershipChange, address?: MemberAddress): Promise<void> {
  requireLeader(ctx);
  if (change.node <= 0) fail("ERROR_REASON_INVALID_ARGUMENT", "node_id must be a positive integer");
  if (change.type === "promote") {
    // Like etcd: a learner becomes a voter only once it has caught up, so the quorum never
    // waits for a node that is still copying the log.
    const core = ctx.driver.core;
    const match = core.progressOf(change.node)?.match ?? 0;
    if (core.membership.learners.includes(change.node) && match < core.log.committed) {
      fail("ERROR_REASON_LEARNER_BEHIND", `learner ${change.node} has not caught up yet (it has index ${match} of ${core.log.committed}); retry when \`member list\` shows its match index at the leader's`);
    }
  }
  try {
    await ctx.driver.proposeMembershipChange(change, address);
  } catch (error) {
    if (error instanceof MembershipError) fail("ERROR_REASON_MEMBERSHIP_REFUSED", error.message);
    throw error;
  }
}

/** Body bytes per Backup chunk, well below the 4 MiB message limit. */
const BACKUP_CHUNK_BYTES = 256 * 1024;

/**
 * The whole lock state at a linearizable point: after a ReadIndex this node has applied
 * everything committed when the call began, and the snapshot is taken synchronously, so it
 * is the state at one committed, applied index.
 */
async function consistentSnapshot(ctx: NodeContext): Promise<{ index: number; term: number; epoch: number; data: Uint8Array }> {
  await linearizable(ctx);
  const machine = ctx.machine;
  const index = machine.appliedIndex;
  const term = ctx.driver.core.log.term(index);
  if (term === undefined) fail("ERROR_REASON_NODE_BUSY", `the term of applied entry ${index} is not known here; retry`);
  return { index, term, epoch: machine.epoch, data: machine.snapshot() };
}

/** Backup: the first chunk carries the metadata; the data pieces concatenate to the snapshot body. */
async function streamBackup(ctx: NodeContext, call: grpc.ServerWritableStream<palisade.v1.BackupRequest, palisade.v1.BackupChunk>): Promise<void> {
  try {
    const point = await consistentSnapshot(ctx);
    ctx.logger.info({ index: point.index, bytes: point.data.byteLength }, `backup taken at index ${point.index}`);
    const total = point.data.byteLength;
    for (let offset = 0; offset === 0 || offset < total; offset += BACKUP_CHUNK_BYTES) {
      const end = Math.min(total, offset + BACKUP_CHUNK_BYTES);
      const chunk = pb.BackupChunk.create({
        index: toU64(point.index), term: toU64(point.term), clusterId: ctx.clusterId, epoch: toU64(point.epoch),
        data: point.data.subarray(offset, end), last: end === total,
      });
      if (!call.write(chunk)) await new Promise<void>((resolve) => call.once("drain", () => resolve()));
      if (call.cancelled) return;
    }
    call.end();
  } catch (error) {
    call.emit("error", toStatus(ctx, "Backup", error));
  }
}

export function adminServiceHandlers(ctx: NodeContext): AdminServiceHandlers {
  return {
    Status: unary(ctx, "Status", async () => statusResponse(ctx)),

    RevokeLock: unary(ctx, "RevokeLock", async (call) => {
      const cmd = parseRevoke(call.request, ctx.wallMs());
      const { index, outcome } = await propose(ctx, cmd);
      const ok = expectOk(outcome.result);
      if (ok.kind !== "revoked") unexpected(ok, "RevokeLock");
      // A retry of a revoke that already took effect reports the first revoke's index.
      const record = ctx.machine.history(cmd.lock).find((r) => r.token === cmd.token && r.reason === "revoked");
      return pb.RevokeLockResponse.create({ index: toU64(record?.endedAt ?? index) });
    }),

    TransferLeader: unary(ctx, "TransferLeader", async (call) => {
      const core = ctx.driver.core;
      requireLeader(ctx);
      const term = core.term;
      let to = numberField(call.request.toNodeId, "to_node_id");
      if (to === 0) to = mostCaughtUpVoter(ctx);
      if (to === core.id) return pb.TransferLeaderResponse.create({ leaderId: toU64(core.id), term: toU64(term) });
      if (!core.membership.voters.includes(to)) fail("ERROR_REASON_INVALID_ARGUMENT", `node ${to} is not a voting member`);
      ctx.driver.transferLeadership(to);
      // Wait for the handover (or its failure) for up to two election timeouts.
      const deadline = ctx.now() + 2 * ctx.electionTimeoutMs;
      const handedOver = (): boolean => !(core.role === "leader" && core.term === term) && core.leader !== 0;
      while (!handedOver() && ctx.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (core.role === "leader" && core.term === term) {
        fail("ERROR_REASON_TRANSFER_TIMED_OUT", `node ${to} did not take over within ${2 * ctx.electionTimeoutMs} ms; this node still leads`);
      }
      return pb.TransferLeaderResponse.create({ leaderId: toU64(core.leader), term: toU64(core.term) });
    }),
    MemberList: unary(ctx, "MemberList", async () => pb.MemberListResponse.create({ members: statusResponse(ctx).members })),
    MemberAdd: unary(ctx, "MemberAdd", async (call) => {
      const node = numberField(call.request.nodeId, "node_id");
      const peer = call.request.address ?? "";
      const client = call.request.clientAddress ?? "";
      if (!parseHostPort(peer)) fail("ERROR_REASON_INVALID_ARGUMENT", `address must be the new node's peer host:port, got "${peer}"`);
      if (!parseHostPort(client)) fail("ERROR_REASON_INVALID_ARGUMENT", `client_address must be the new node's client host:port, got "${client}"`);
      await changeMembers(ctx, { type: "addLearner", node }, { peer, client });
      return pb.MemberAddResponse.create({ members: statusResponse(ctx).members });
    }),
    MemberPromote: unary(ctx, "MemberPromote", async (call) => {
      await changeMembers(ctx, { type: "promote", node: numberField(call.request.nodeId, "node_id") });
      return pb.MemberPromoteResponse.create({ members: statusResponse(ctx).members });
    }),
    MemberRemove: unary(ctx, "MemberRemove", async (call) => {
      await changeMembers(ctx, { type: "remove", node: numberField(call.request.nodeId, "node_id") });
      return pb.MemberRemoveResponse.create({ members: statusResponse(ctx).members });
    }),
    SnapshotSave: unary(ctx, "SnapshotSave", async () => {
      if (!ctx.snapshotNow) fail("ERROR_REASON_UNSUPPORTED", "SnapshotSave is not supported by this node");
      // Everything committed when the call arrived is applied first, so the snapshot covers it.
      await linearizable(ctx);
      const taken = await ctx.snapshotNow();
      return pb.SnapshotSaveResponse.create({ index: toU64(taken.index), term: toU64(taken.term), sizeBytes: toU64(taken.bytes) });
    }),
    Backup: (call) => {
      void streamBackup(ctx, call);
    },
  };
}
