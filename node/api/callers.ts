// The caller of a gRPC call, as the node's access gate establishes it from the call's
// certificate and its `authorization` metadata (a bearer token).
import type * as grpc from "@grpc/grpc-js";
import type { Caller } from "../auth/caller.ts";
import type { AccessGate } from "../host/access-gate.ts";
import type { NodeHost } from "../host/node-host.ts";
import { RequestFailure } from "../host/failures.ts";
import { identityOf, type AuthContext } from "../ops/tls.ts";

export interface CallWithCredentials {
  getAuthContext(): AuthContext;
  readonly metadata: grpc.Metadata;
}

/** Throws a RequestFailure for a token that is not valid now, or a certificate without an identity. */
export function callerOfCall(gate: AccessGate, call: CallWithCredentials, method: string): Caller {
  const header = call.metadata.get("authorization")[0];
  return gate.callerOf(
    identityOf(call.getAuthContext()),
    typeof header === "string" ? header : undefined,
    method,
  );
}

/**
 * What to wait for before a request that presents `authorization` is authenticated: for a
 * bearer token this node has no record of, a linearizable read point. A token's creator is
 * answered once its entry commits, so a node that has not applied the entry yet (a
 * follower a heartbeat behind, a node catching up) knows the token after that point; one
 * still unknown then (revoked, never created) is refused as before. Null when there is
 * nothing to wait for. The read fails as reads do (no leader: to be retried elsewhere).
 */
export function tokenCatchUp(
  gate: AccessGate,
  host: Pick<NodeHost, "linearizable">,
  authorization: string | undefined,
): Promise<number> | null {
  return gate.unknownToken(authorization) ? host.linearizable() : null;
}

/** Null while `caller` may still read every name under `prefix`; else why not (audited). */
export function stillReads(
  gate: AccessGate,
  caller: Caller,
  prefix: string,
  call = "Watch",
): string | null {
  try {
    gate.require(caller, call, "read", prefix);
    return null;
  } catch (error) {
    if (error instanceof RequestFailure) return error.message;
    throw error;
  }
}
