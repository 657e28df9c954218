import { describe, expect, it } from "vitest";
import { palisade } from "../../proto/gen/palisade.js";
import { DEFAULT_LOCK_LIMITS, resolveLimits } from "../../node/lock/index.ts";
import {
  DEFAULT_TTL_MS, LIST_PAGE_BYTES, parseAcquire, parseCancelWait, parseCloseSession, parseGetLock, parseListLocks, parseOpenSession, parseRelease,
  parseRevoke, parseValidateToken, parseWatch, RequestError, sessionIdField,
} from "../../node/server/requests.ts";
import { toU64 } from "../../proto/wire.ts";
import Long from "long";

const pb = palisade.v1;
const limits = DEFAULT_LOCK_LIMITS;

function acquire(fields: Partial<palisade.v1.AcquireRequest.$Properties>): palisade.v1.AcquireRequest {
  return pb.AcquireRequest.create({ sessionId: toU64(7n), lock: "orders/1", seq: toU64(1), ...fields });
}

function rejects(fn: () => unknown, message: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(RequestError);
  expect((caught as Error).message).toMatch(message);
}

describe("request validation", () => {
  it("turns a well-formed Acquire into a command", () => {
    const cmd = parseAcquire(acquire({ waitMs: toU64(1500), seq: toU64(5), ackedUpTo: toU64(3), held: [toU64(4)] }), limits, 123);
    expect(cmd).toEqual({
      type: "acquire", sessionId: 7n, seq: 5, ackedUpTo: 3, held: [4], lock: "orders/1", waitMs: 1500, wallMs: 123,
    });
  });

  it("rejects bad lock names with a message naming the field", () => {
    rejects(() => parseAcquire(acquire({ lock: "" }), limits, 0), /^lock: lock name is empty/);
    rejects(() => parseAcquire(acquire({ lock: "a\u0000b" }), limits, 0), /control character at position 1/);
    rejects(() => parseAcquire(acquire({ lock: "x\u0085" }), limits, 0), /control character/);
    rejects(() => parseAcquire(acquire({ lock: "é".repeat(129) }), limits, 0), /258 bytes, more than 256/);
    expect(parseAcquire(acquire({ lock: "é".repeat(128) }), limits, 0).lock).toHaveLength(128);
  });

  it("rejects missing ids and seqs", () => {
    rejects(() => parseAcquire(acquire({ sessionId: toU64(0) }), limits, 0), /session_id is missing/);
    rejects(() => parseAcquire(acquire({ seq: toU64(0) }), limits, 0), /seq must be at least 1/);
    rejects(() => sessionIdField(Long.fromBits(-1, -1, false)), /negative/);
    rejects(() => parseRelease(pb.ReleaseRequest.create({ sessionId: toU64(1), lock: "a", seq: toU64(1) }), limits, 0), /token is missing/);
    rejects(() => parseCancelWait(pb.CancelWaitRequest.create({ sessionId: toU64(1), lock: "a" }), 0), /acquire_seq/);
  });

  it("rejects seqs beyond 2^53 instead of rounding them", () => {
    rejects(() => parseAcquire(acquire({ seq: toU64(1n << 60n) }), limits, 0), /seq: \d+ is too large/);
  });

  it("bounds wait_ms and the acknowledged-seq bookkeeping", () => {
    rejects(() => parseAcquire(acquire({ waitMs: toU64(3_600_001) }), limits, 0), /wait_ms 3600001 is outside 0..3600000/);
    rejects(() => parseAcquire(acquire({ seq: toU64(3), ackedUpTo: toU64(3) }), limits, 0), /acked_up_to 3 must be in 0..seq-1/);
    rejects(() => parseAcquire(acquire({ seq: toU64(5), ackedUpTo: toU64(1), held: [toU64(1)] }), limits, 0), /held seq 1/);
    const many = Array.from({ length: 65 }, (_, i) => toU64(i + 2));
    rejects(() => parseAcquire(acquire({ seq: toU64(100), ackedUpTo: toU64(1), held: many }), limits, 0), /held lists 65 seqs; at most 64/);
    const tight = resolveLimits({ maxWaitMs: 1000 });
    rejects(() => parseAcquire(acquire({ waitMs: toU64(1001) }), tight, 0), /outside 0..1000/);
  });

  it("defaults an OpenSession TTL of 0 and never clamps one out of bounds", () => {
    expect(parseOpenSession(pb.OpenSessionRequest.create({}), limits)).toEqual({ ttlMs: DEFAULT_TTL_MS, clientName: "", requestId: "" });
    rejects(() => parseOpenSession(pb.OpenSessionRequest.create({ ttlMs: toU64(999) }), limits), /ttl_ms 999 is outside 1000..3600000/);
    rejects(() => parseOpenSession(pb.OpenSessionRequest.create({ ttlMs: toU64(3_600_001) }), limits), /outside/);
    rejects(() => parseOpenSession(pb.OpenSessionRequest.create({ requestId: "x".repeat(129) }), limits), /request_id/);
    rejects(() => parseOpenSession(pb.OpenSessionRequest.create({ clientName: "bad\nname" }), limits), /client_name/);
  });

  it("validates the other writes and reads", () => {
    expect(parseCloseSession(pb.CloseSessionRequest.create({ sessionId: toU64(9), seq: toU64(2), ackedUpTo: toU64(1) }), limits, 5))
      .toEqual({ type: "closeSession", sessionId: 9n, seq: 2, ackedUpTo: 1, held: [], wallMs: 5 });
    expect(parseRevoke(pb.RevokeLockRequest.create({ lock: "a", token: toU64(12) }), 1)).toEqual({ type: "revoke", lock: "a", token: 12n, wallMs: 1 });
    expect(parseValidateToken(pb.ValidateTokenRequest.create({ lock: "a", token: toU64((1n << 48n) + 3n) }))).toEqual({ lock: "a", token: (1n << 48n) + 3n });
    expect(parseListLocks(pb.ListLocksRequest.create({ prefix: "orders/" }))).toEqual({ prefix: "orders/", after: undefined, limit: 100 });
    rejects(() => parseListLocks(pb.ListLocksRequest.create({ limit: 5000 })), /largest page, 1000/);
    expect(parseWatch(pb.WatchRequest.create({ fromIndex: toU64(17) }))).toEqual({ prefix: "", fromIndex: 17 });
    rejects(() => parseWatch(pb.WatchRequest.create({ prefix: "\u0007" })), /prefix/);
  });

  it("reads a GetLock's pages: the first 100 of each list by default, none when a limit is 0, and refuses a bad page field by name", () => {
    /** As the node decodes it: through the bytes, so unset and 0 differ as they do on the wire. */
    const getLock = (fields: Partial<palisade.v1.GetLockRequest.$Properties>): palisade.v1.GetLockRequest =>
      pb.GetLockRequest.decode(pb.GetLockRequest.encode(pb.GetLockRequest.create({ lock: "a", ...fields })).finish());
    expect(parseGetLock(getLock({}))).toEqual({
      lock: "a",
      bounds: { holders: { limit: 100, maxBytes: LIST_PAGE_BYTES, after: undefined }, waiters: { limit: 100, maxBytes: LIST_PAGE_BYTES, afterIndex: 0 } },
    });
    const next = parseGetLock(getLock({ holderLimit: 0, waiterLimit: 1_000, holdersAfter: { token: toU64(9n), sessionId: toU64(4n) }, waitersAfterIndex: toU64(12) }));
    expect(next.bounds.holders).toMatchObject({ limit: 0, after: { token: 9n, sessionId: 4n } });
    expect(next.bounds.waiters).toMatchObject({ limit: 1_000, afterIndex: 12 });
    rejects(() => parseGetLock(getLock({ holderLimit: 1_001 })), /^holder_limit: 1001 is above the largest page, 1000/);
    rejects(() => parseGetLock(getLock({ waiterLimit: 5_000 })), /^waiter_limit: /);
    rejects(() => parseGetLock(getLock({ waitersAfterIndex: toU64(2n ** 60n) })), /^waiters_after_index: \d+ is too large/);
    rejects(() => parseGetLock(getLock({ lock: "" })), /lock/);
  });
});
