// AdminService handlers: Status (local view, no ReadIndex: it reports this node as it is)
// and RevokeLock. Membership, transfer, snapshot and backup are not served yet.
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import type { AdminServiceHandlers } from "../../proto/grpc.ts";
import type { Role } from "../raft/types.ts";
import { toU64 } from "../transport/codec.ts";
import type { NodeContext } from "./context.ts";
import { expectOk, fail, propose, requireLeader, unary, unexpected } from "./handler.ts";
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
  if (best === 0) fail(grpc.status.FAILED_PRECONDITION, "there is no other voting member to transfer leadership to");
  return best;
}

function unimplemented(what: string): never {
  fail(grpc.status.UNIMPLEMENTED, `${what} is not supported by this version of the node`);
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
      if (!core.membership.voters.includes(to)) fail(grpc.status.INVALID_ARGUMENT, `node ${to} is not a voting member`);
      ctx.driver.transferLeadership(to);
      // Wait for the handover (or its failure) for up to two election timeouts.
      const deadline = ctx.now() + 2 * ctx.electionTimeoutMs;
      const handedOver = (): boolean => !(core.role === "leader" && core.term === term) && core.leader !== 0;
      while (!handedOver() && ctx.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (core.role === "leader" && core.term === term) {
        fail(grpc.status.DEADLINE_EXCEEDED, `node ${to} did not take over within ${2 * ctx.electionTimeoutMs} ms; this node still leads`);
      }
      return pb.TransferLeaderResponse.create({ leaderId: toU64(core.leader), term: toU64(core.term) });
    }),
    MemberList: unary(ctx, "MemberList", async () => pb.MemberListResponse.create({ members: statusResponse(ctx).members })),
    MemberAdd: unary(ctx, "MemberAdd", async () => unimplemented("MemberAdd")),
    MemberPromote: unary(ctx, "MemberPromote", async () => unimplemented("MemberPromote")),
    MemberRemove: unary(ctx, "MemberRemove", async () => unimplemented("MemberRemove")),
    SnapshotSave: unary(ctx, "SnapshotSave", async () => unimplemented("SnapshotSave")),
    Backup: (call) => {
      call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "Backup is not supported by this version of the node" });
    },
  };
}
