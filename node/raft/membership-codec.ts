// The one encoding of a membership: the protobuf Membership of raft.proto, carried by config
// entries in the log and by InstallSnapshot on the wire. Everything decoded is validated (node
// ids positive and below 2^53), so the core never meets a malformed membership.
import { palisade } from "../../proto/gen/palisade.js";
import { CodecError, toU64, u64ToNumber, type U64Input } from "../../proto/wire.ts";
import type { Membership, NodeId } from "./types.ts";

const pb = palisade.v1;

/** Thrown by decodeMembership on bytes that are not a valid membership. */
export class MembershipDecodeError extends Error {
  override readonly name = "MembershipDecodeError";
}

function nodeIdFrom(value: U64Input, field: string): NodeId {
  const id = u64ToNumber(value, field);
  if (id === 0) throw new CodecError(`${field}: node id 0`);
  return id;
}

export function membershipToWire(membership: Membership): palisade.v1.Membership.$Properties {
  return {
    voters: membership.voters.map((id) => toU64(id, "voter")),
    learners: membership.learners.map((id) => toU64(id, "learner")),
    addresses: Object.entries(membership.addresses ?? {}).map(([id, a]) => ({
      id: toU64(Number(id), "address.id"),
      peer: a.peer,
      client: a.client,
    })),
    retired: (membership.retired ?? []).map((id) => toU64(id, "retired")),
  };
}

/** The membership of a decoded wire message; throws CodecError on an invalid node id. */
export function membershipFromWire(wire: palisade.v1.Membership.$Properties): Membership {
  let m: Membership = {
    voters: (wire.voters ?? []).map((id) => nodeIdFrom(id, "voter")),
    learners: (wire.learners ?? []).map((id) => nodeIdFrom(id, "learner")),
  };
  const retired = (wire.retired ?? []).map((id) => nodeIdFrom(id, "retired"));
  if (retired.length > 0) m = { ...m, retired };
  const list = wire.addresses ?? [];
  if (list.length === 0) return m;
  const addresses: Record<string, { peer: string; client: string }> = {};
  for (const a of list)
    addresses[String(nodeIdFrom(a.id, "address.id"))] = {
      peer: a.peer ?? "",
      client: a.client ?? "",
    };
  return { ...m, addresses };
}

/** A config entry's data: the whole resulting membership. */
export function encodeMembership(m: Membership): Uint8Array {
  return pb.Membership.encode(membershipToWire(m)).finish();
}

export function decodeMembership(data: Uint8Array): Membership {
  try {
    return membershipFromWire(pb.Membership.decode(data));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MembershipDecodeError(`config entry is not a membership: ${reason}`, {
      cause: error,
    });
  }
}
