// Server interceptors in front of every handler: certificate roles (under TLS), a wait for
// the log to catch up with a bearer token the node does not know yet, the per-client
// request rate limit (with what a request costs of it), and counting of the requests
// answered with an error.
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import type { ErrorReasonName } from "../../proto/wire.ts";
import { callFailureOf, statusError, statusOf } from "./status.ts";
import type { RateLimiter } from "../host/rate-limiter.ts";
import { RequestFailure } from "../host/failures.ts";
import {
  accessRefusal,
  identityOf,
  senderRefusal,
  type PeerIdentity,
  type Refusal,
} from "../ops/tls.ts";

const { Reader } = protobuf;

export interface ClientInterceptorOptions {
  /** Certificates are required and carry roles. */
  readonly tls: boolean;
  readonly limiter: RateLimiter;
  /** A request answered with an error: method name and reason (status code name, or rate_limited). */
  readonly onRejected?: (method: string, reason: string) => void;
  /**
   * What to wait for before a request with this authorization metadata is handled (null:
   * nothing), so that a token created before it is known (see tokenCatchUp in callers.ts).
   */
  readonly tokenCatchUp?: (authorization: string | undefined) => Promise<unknown> | null;
}

const HEALTH_PREFIX = "/grpc.health.v1.";
const STREAM_PATH = "/palisade.v1.LockService/Stream";

function methodName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A status code as the rejected-requests metric names it ("resource_exhausted"). */
export function codeName(code: grpc.status): string {
  return (grpc.status[code] ?? String(code)).toLowerCase();
}

/**
 * The connection a peer string names, in one form ("ipv4:1.2.3.4:5" and "1.2.3.4:5" alike).
 * Without a certificate or a session, a client is its connection: two processes on one host
 * (or behind one NAT) are two clients, so one flooding the node cannot use up the budget
 * another's keepalives need.
 */
export function peerConnection(peer: string): string {
  return peer.replace(/^ipv[46]:/, "");
}

/** The session a request names, if any (session calls carry a uint64 sessionId). */
function sessionOf(message: unknown): string | null {
  if (typeof message !== "object" || message === null || !("sessionId" in message)) return null;
  const id = String((message as { sessionId: unknown }).sessionId ?? "");
  return id === "" || id === "0" ? null : id;
}

/**
 * Whose budget a request spends: the certificate subject under mTLS, else the session
 * for session calls, else the caller's connection.
 */
export function rateKey(who: PeerIdentity | null, message: unknown, peer: string): string {
  if (who) return `cert:${who.subject}`;
  const session = sessionOf(message);
  return session !== null ? `session:${session}` : `peer:${peerConnection(peer)}`;
}

/**
 * Session ids of a keepalive that one token of the request budget pays for: an id
 * costs the node a small part of what a whole request does, and a client keeping thousands
 * of sessions alive must stay well within the rate that one sending as many requests would.
 */
export const KEEPALIVE_IDS_PER_TOKEN = 10;

/** Budget tokens a request costs: one, or for a KeepAlive one per KEEPALIVE_IDS_PER_TOKEN ids. */
export function requestCost(keepAliveIds: number): number {
  return Math.max(1, Math.ceil(keepAliveIds / KEEPALIVE_IDS_PER_TOKEN));
}

/** Session ids a decoded request carries as a KeepAlive (0 for any other). */
export function keepAliveIdsOf(message: unknown): number {
  if (typeof message !== "object" || message === null || !("sessionIds" in message)) return 0;
  const ids = (message as { sessionIds: unknown }).sessionIds;
  return Array.isArray(ids) ? ids.length : 0;
}

/** The reason of a certificate refusal: no certificate at all, or one whose role may not call. */
function refusalReason(refusal: Refusal): ErrorReasonName {
  return refusal.code === grpc.status.UNAUTHENTICATED
    ? "ERROR_REASON_CERTIFICATE_REQUIRED"
    : "ERROR_REASON_PERMISSION_DENIED";
}

function refuse(
  call: grpc.ServerInterceptingCallInterface,
  reason: ErrorReasonName,
  details: string,
): void {
  call.sendStatus(statusError(reason, details));
}

/** The interceptor of the client port (LockService, AdminService, health). */
export function clientInterceptor(options: ClientInterceptorOptions): grpc.ServerInterceptor {
  return (descriptor, call) => {
    const path = descriptor.path;
    const method = methodName(path);
    const who = options.tls ? identityOf(call.getAuthContext()) : null;
    const rejected = (reason: string): void => options.onRejected?.(method, reason);
    let refused = false;
    return new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, pass) => {
            const refusal = options.tls ? accessRefusal(path, who) : null;
            if (refusal) {
              refused = true;
              rejected(codeName(refusal.code));
              refuse(call, refusalReason(refusal), refusal.details);
              return;
            }
            const header = metadata.get("authorization")[0];
            const catchUp = options.tokenCatchUp?.(typeof header === "string" ? header : undefined);
            if (!catchUp) {
              pass(metadata);
              return;
            }
            catchUp.then(
              () => pass(metadata),
              (error: unknown) => {
                // Only a failure of the read (no leader, say) answers here; the handler
                // refuses a token still unknown after it.
                if (!(error instanceof RequestFailure)) return pass(metadata);
                refused = true;
                const status = statusOf(callFailureOf(error));
                rejected(codeName(status.code));
                call.sendStatus(status);
              },
            );
          },
          onReceiveMessage: (message, pass) => {
            if (refused) return;
            // A Stream frame carries many requests: the stream spends the budget per request.
            if (
              !path.startsWith(HEALTH_PREFIX) &&
              path !== STREAM_PATH &&
              !options.limiter.take(
                rateKey(who, message, call.getPeer()),
                requestCost(keepAliveIdsOf(message)),
              )
            ) {
              refused = true;
              rejected("rate_limited");
              refuse(
                call,
                "ERROR_REASON_RATE_LIMITED",
                "request rate limit of this client exceeded; retry later with backoff",
              );
              return;
            }
            pass(message);
          },
        });
      },
      sendStatus: (status, pass) => {
        if (
          status.code !== undefined &&
          status.code !== grpc.status.OK &&
          !path.startsWith(HEALTH_PREFIX)
        )
          rejected(codeName(status.code));
        pass(status);
      },
    });
  };
}

/**
 * The `from` field of an encoded RaftBatch, read without decoding its messages (they are
 * skipped by length); null when the bytes are not a well-formed batch.
 */
export function batchSender(bytes: Uint8Array): number | null {
  try {
    const reader = Reader.create(bytes);
    let from: number | null = null;
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 === RAFT_BATCH_FROM_FIELD && (tag & 7) === 0) {
        const value = reader.uint64();
        from = typeof value === "number" ? value : Number(value.toString());
      } else {
        reader.skipType(tag & 7);
      }
    }
    return from;
  } catch {
    return null;
  }
}

/** Field number of `from` in palisade.v1.RaftBatch. */
const RAFT_BATCH_FROM_FIELD = 2;

/**
 * The interceptor of the peer port under TLS: only node certificates reach RaftService,
 * and a batch is taken only from the member its certificate names.
 */
export function peerInterceptor(isMember: (id: number) => boolean): grpc.ServerInterceptor {
  return (descriptor, call) => {
    const who = identityOf(call.getAuthContext());
    const refusal = accessRefusal(descriptor.path, who);
    let refused = false;
    return new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, pass) => {
            if (!refusal) return pass(metadata);
            refused = true;
            refuse(call, refusalReason(refusal), refusal.details);
          },
          onReceiveMessage: (message, pass) => {
            if (refused) return;
            const from = message instanceof Uint8Array ? batchSender(message) : null;
            // A batch without a sender is left to the transport, which refuses it as invalid.
            const reason = from === null ? null : senderRefusal(who, from, isMember);
            if (reason === null) return pass(message);
            refused = true;
            refuse(call, "ERROR_REASON_PERMISSION_DENIED", reason);
          },
        });
      },
    });
  };
}
