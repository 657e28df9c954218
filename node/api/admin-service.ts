// AdminService handlers: each checks and converts its request, asks the node's host
// (node/host/admin-requests.ts) and converts the answer back: Status (this node as it is),
// RevokeLock, leadership transfer, membership changes, snapshots and backups.
import { encodeCaller } from "../auth/caller.ts";
import { RequestFailure } from "../host/failures.ts";
import { accessAdminHandlers } from "./access-admin.ts";
import { callerOfCall } from "./callers.ts";
import * as grpc from "@grpc/grpc-js";
import { palisade } from "../../proto/gen/palisade.js";
import type { AdminServiceHandlers } from "../../proto/grpc.ts";
import type { Role } from "../raft/types.ts";
import { parseHostPort } from "../config/address.ts";
import { toU64 } from "../../proto/wire.ts";
import type { ServiceContext } from "./context.ts";
import { fail, toStatus, unary } from "./handler.ts";
import { lockField, numberField, tokenField } from "../../proto/codec/fields.ts";

const pb = palisade.v1;

const ROLES: Readonly<Record<Role, palisade.v1.NodeRole>> = {
  follower: pb.NodeRole.NODE_ROLE_FOLLOWER,
  precandidate: pb.NodeRole.NODE_ROLE_PRECANDIDATE,
  candidate: pb.NodeRole.NODE_ROLE_CANDIDATE,
  leader: pb.NodeRole.NODE_ROLE_LEADER,
};

const KINDS = {
  voter: pb.MemberKind.MEMBER_KIND_VOTER,
  learner: pb.MemberKind.MEMBER_KIND_LEARNER,
} as const;

export function statusResponse(ctx: ServiceContext): palisade.v1.StatusResponse {
  const s = ctx.admin.status();
  return pb.StatusResponse.create({
    nodeId: toU64(s.id),
    role: ROLES[s.role],
    term: toU64(s.term),
    leaderId: toU64(s.leader),
    commitIndex: toU64(s.commitIndex),
    appliedIndex: toU64(s.appliedIndex),
    lastIndex: toU64(s.lastIndex),
    snapshotIndex: toU64(s.snapshotIndex),
    members: s.members.map((m) => ({
      nodeId: toU64(m.id),
      address: m.peerAddress,
      clientAddress: m.clientAddress,
      kind: KINDS[m.kind],
      reachable: m.reachable,
      matchIndex: toU64(m.matchIndex),
    })),
    clusterId: s.clusterId,
    epoch: toU64(s.epoch),
    metricsAddress: ctx.metricsAddress ?? "",
  });
}

/** Body bytes per Backup chunk, well below the 4 MiB message limit. */
const BACKUP_CHUNK_BYTES = 256 * 1024;

/** Backup: the first chunk carries the metadata; the data pieces concatenate to the snapshot body. */
async function streamBackup(
  ctx: ServiceContext,
  call: grpc.ServerWritableStream<palisade.v1.BackupRequest, palisade.v1.BackupChunk>,
): Promise<void> {
  try {
    const point = await ctx.admin.backup();
    const total = point.data.byteLength;
    for (let offset = 0; offset === 0 || offset < total; offset += BACKUP_CHUNK_BYTES) {
      const end = Math.min(total, offset + BACKUP_CHUNK_BYTES);
      const chunk = pb.BackupChunk.create({
        index: toU64(point.index),
        term: toU64(point.term),
        clusterId: ctx.host.clusterId,
        epoch: toU64(point.epoch),
        data: point.data.subarray(offset, end),
        last: end === total,
      });
      if (!call.write(chunk))
        await new Promise<void>((resolve) => call.once("drain", () => resolve()));
      if (call.cancelled) return;
    }
    call.end();
  } catch (error) {
    call.emit("error", toStatus(ctx, "Backup", error));
  }
}

export function adminServiceHandlers(ctx: ServiceContext): AdminServiceHandlers {
  const { admin, host } = ctx;
  const members = (): palisade.v1.Member.$Properties[] => statusResponse(ctx).members;
  const gate = ctx.locks.gate;
  /** A call that needs the admin role (checked before the call's own work). */
  const adminUnary = <Req, Res>(
    name: string,
    body: (call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>,
  ): grpc.handleUnaryCall<Req, Res> =>
    unary(ctx, name, async (call) => {
      gate.requireAdmin(callerOfCall(gate, call, name), name);
      return body(call);
    });
  return {
    Status: adminUnary("Status", async () => statusResponse(ctx)),

    // The revoke permission on the lock's name is checked where the revoke applies.
    RevokeLock: unary(ctx, "RevokeLock", async (call) => {
      const caller = callerOfCall(gate, call, "RevokeLock");
      const lock = lockField(call.request.lock);
      const cmd = {
        type: "revoke",
        lock,
        token: tokenField(call.request.token),
        wallMs: host.wallMs(),
      } as const;
      try {
        const index = await admin.revoke(cmd, encodeCaller(caller));
        return pb.RevokeLockResponse.create({ index: toU64(index) });
      } catch (error) {
        if (error instanceof RequestFailure)
          gate.audit(caller, "RevokeLock", lock, error.reason, error.message);
        throw error;
      }
    }),

    TransferLeader: adminUnary("TransferLeader", async (call) => {
      const { leader, term } = await admin.transferLeader(
        numberField(call.request.toNodeId, "to_node_id"),
      );
      return pb.TransferLeaderResponse.create({ leaderId: toU64(leader), term: toU64(term) });
    }),
    // Reachability and match indexes are the leader's knowledge: a follower's list would
    // show every member unreachable at index 0, so the list is the leader's (as etcd's
    // member list is), and a follower names the leader.
    MemberList: adminUnary("MemberList", async () => {
      ctx.host.requireLeader();
      return pb.MemberListResponse.create({ members: members() });
    }),
    MemberAdd: adminUnary("MemberAdd", async (call) => {
      const node = numberField(call.request.nodeId, "node_id");
      const peer = call.request.address ?? "";
      const client = call.request.clientAddress ?? "";
      if (!parseHostPort(peer))
        fail(
          "ERROR_REASON_INVALID_ARGUMENT",
          `address must be the new node's peer host:port, got "${peer}"`,
        );
      if (!parseHostPort(client))
        fail(
          "ERROR_REASON_INVALID_ARGUMENT",
          `client_address must be the new node's client host:port, got "${client}"`,
        );
      await admin.changeMembers({ type: "addLearner", node }, { peer, client });
      return pb.MemberAddResponse.create({ members: members() });
    }),
    MemberPromote: adminUnary("MemberPromote", async (call) => {
      await admin.changeMembers({
        type: "promote",
        node: numberField(call.request.nodeId, "node_id"),
      });
      return pb.MemberPromoteResponse.create({ members: members() });
    }),
    MemberRemove: adminUnary("MemberRemove", async (call) => {
      await admin.changeMembers({
        type: "remove",
        node: numberField(call.request.nodeId, "node_id"),
      });
      return pb.MemberRemoveResponse.create({ members: members() });
    }),
    SnapshotSave: adminUnary("SnapshotSave", async () => {
      const taken = await admin.snapshotNow();
      return pb.SnapshotSaveResponse.create({
        index: toU64(taken.index),
        term: toU64(taken.term),
        sizeBytes: toU64(taken.bytes),
      });
    }),
    Backup: (call) => {
      try {
        gate.requireAdmin(callerOfCall(gate, call, "Backup"), "Backup");
      } catch (error) {
        call.emit("error", toStatus(ctx, "Backup", error));
        return;
      }
      void streamBackup(ctx, call);
    },
    ...accessAdminHandlers(ctx),
  };
}
