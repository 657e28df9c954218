// Requests through the codec as a node decodes them, and the node's checks of a write
// against the replicated limits: each bad field is refused with a message naming it.
import { describe, expect, it } from "vitest";
import Long from "long";
import { palisade } from "../../../proto/gen/palisade.js";
import { numberField, sessionIdField } from "../../../proto/codec/fields.ts";
import {
  decodeRequest,
  encodeRequest,
  type CallName,
  type RequestOf,
  type WireRequestOf,
} from "../../../proto/lock-calls.ts";
import { CodecError, toU64, u64, u64ToNumber } from "../../../proto/wire.ts";
import { RequestFailure } from "../../../node/host/failures.ts";
import { getLockBounds, LIST_PAGE_BYTES } from "../../../node/host/read-answers.ts";
import { checkAcquire, checkOpenSession } from "../../../node/host/request-checks.ts";
import { DEFAULT_LOCK_LIMITS, resolveLimits } from "../../../node/lock/index.ts";

const pb = palisade.v1;
const limits = DEFAULT_LOCK_LIMITS;

/** As the node decodes it: through the bytes, so unset and 0 differ as they do on the wire. */
function decoded<N extends CallName>(
  name: N,
  type: { encode(m: object): { finish(): Uint8Array }; decode(b: Uint8Array): unknown },
  fields: object,
): RequestOf<N> {
  return decodeRequest(name, type.decode(type.encode(fields).finish()) as WireRequestOf<N>);
}

const acquire = (fields: Partial<palisade.v1.AcquireRequest.$Properties>): RequestOf<"Acquire"> =>
  decoded("Acquire", pb.AcquireRequest, {
    sessionId: toU64(7n),
    lock: "orders/1",
    seq: toU64(1),
    ...fields,
  });

function rejects(
  fn: () => unknown,
  message: RegExp,
  type: new (...args: never[]) => Error = CodecError,
): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(type);
  expect((caught as Error).message).toMatch(message);
}

describe("request decoding", () => {
  it("decodes a well-formed Acquire into its domain value, and encodes it back", () => {
    const req = acquire({
      waitMs: toU64(1500),
      seq: toU64(5),
      ackedUpTo: toU64(3),
      held: [toU64(4)],
    });
    expect(req).toEqual({
      sessionId: 7n,
      seq: 5,
      ackedUpTo: 3,
      held: [4],
      lock: "orders/1",
      waitMs: 1500,
    });
    expect(decodeRequest("Acquire", encodeRequest("Acquire", req))).toEqual(req);
  });

  it("rejects bad lock names with a message naming the field", () => {
    rejects(() => acquire({ lock: "" }), /^lock: lock name is empty/);
    rejects(() => acquire({ lock: "a\u0000b" }), /control character at position 1/);
    rejects(() => acquire({ lock: "x\u0085" }), /control character/);
    rejects(() => acquire({ lock: "é".repeat(129) }), /258 bytes, more than 256/);
    expect(acquire({ lock: "é".repeat(128) }).lock).toHaveLength(128);
  });

  it("rejects missing ids and seqs", () => {
    rejects(() => acquire({ sessionId: toU64(0) }), /session_id is missing/);
    rejects(() => acquire({ seq: toU64(0) }), /seq must be at least 1/);
    rejects(() => sessionIdField(Long.fromBits(-1, -1, false)), /negative/);
    rejects(
      () =>
        decoded("Release", pb.ReleaseRequest, { sessionId: toU64(1), lock: "a", seq: toU64(1) }),
      /token is missing/,
    );
    rejects(
      () => decoded("CancelWait", pb.CancelWaitRequest, { sessionId: toU64(1), lock: "a" }),
      /acquire_seq/,
    );
  });

  it("rejects seqs beyond 2^53 instead of rounding them", () => {
    rejects(() => acquire({ seq: toU64(1n << 60n) }), /seq: \d+ is too large/);
  });

  it("checks OpenSession's names and leaves a TTL of 0 to the node's default", () => {
    expect(decoded("OpenSession", pb.OpenSessionRequest, {})).toEqual({
      ttlMs: 0,
      clientName: "",
      requestId: "",
    });
    rejects(
      () => decoded("OpenSession", pb.OpenSessionRequest, { requestId: "x".repeat(129) }),
      /request_id/,
    );
    rejects(
      () => decoded("OpenSession", pb.OpenSessionRequest, { clientName: "bad\nname" }),
      /client_name/,
    );
  });

  it("decodes the other writes and reads", () => {
    expect(
      decoded("CloseSession", pb.CloseSessionRequest, {
        sessionId: toU64(9),
        seq: toU64(2),
        ackedUpTo: toU64(1),
      }),
    ).toEqual({ sessionId: 9n, seq: 2, ackedUpTo: 1, held: [] });
    expect(
      decoded("ValidateToken", pb.ValidateTokenRequest, {
        lock: "a",
        token: toU64((1n << 48n) + 3n),
      }),
    ).toEqual({ lock: "a", token: (1n << 48n) + 3n });
    expect(decoded("ListLocks", pb.ListLocksRequest, { prefix: "orders/" })).toEqual({
      prefix: "orders/",
      after: "",
      limit: 0,
    });
    rejects(() => decoded("ListLocks", pb.ListLocksRequest, { limit: 5000 }), /largest page, 1000/);
  });

  it("reads a GetLock's pages: the first 100 of each list by default, none when a limit is 0, and refuses a bad page field by name", () => {
    const getLock = (
      fields: Partial<palisade.v1.GetLockRequest.$Properties>,
    ): RequestOf<"GetLock"> => decoded("GetLock", pb.GetLockRequest, { lock: "a", ...fields });
    expect(getLockBounds(getLock({}))).toEqual({
      holders: { limit: 100, maxBytes: LIST_PAGE_BYTES, after: undefined },
      waiters: { limit: 100, maxBytes: LIST_PAGE_BYTES, afterIndex: 0 },
    });
    const next = getLockBounds(
      getLock({
        holderLimit: 0,
        waiterLimit: 1_000,
        holdersAfter: { token: toU64(9n), sessionId: toU64(4n) },
        waitersAfterIndex: toU64(12),
      }),
    );
    expect(next.holders).toMatchObject({ limit: 0, after: { token: 9n, sessionId: 4n } });
    expect(next.waiters).toMatchObject({ limit: 1_000, afterIndex: 12 });
    rejects(
      () => getLock({ holderLimit: 1_001 }),
      /^holder_limit: 1001 is above the largest page, 1000/,
    );
    rejects(() => getLock({ waiterLimit: 5_000 }), /^waiter_limit: /);
    rejects(() => getLock({ lock: "" }), /lock/);
  });
});

describe("a write against the replicated limits", () => {
  it("bounds wait_ms and the acknowledged-seq bookkeeping", () => {
    const refused = (
      fields: Partial<palisade.v1.AcquireRequest.$Properties>,
      message: RegExp,
      lim = limits,
    ): void => rejects(() => checkAcquire(acquire(fields), lim), message, RequestFailure);
    refused({ waitMs: toU64(3_600_001) }, /wait_ms 3600001 is outside 0..3600000/);
    refused({ seq: toU64(3), ackedUpTo: toU64(3) }, /acked_up_to 3 must be in 0..seq-1/);
    refused({ seq: toU64(5), ackedUpTo: toU64(1), held: [toU64(1)] }, /held seq 1/);
    const many = Array.from({ length: 65 }, (_, i) => toU64(i + 2));
    refused({ seq: toU64(100), ackedUpTo: toU64(1), held: many }, /held lists 65 seqs; at most 64/);
    refused({ waitMs: toU64(1001) }, /outside 0..1000/, resolveLimits({ maxWaitMs: 1000 }));
  });

  it("never clamps an OpenSession TTL out of bounds", () => {
    rejects(
      () => checkOpenSession(999, limits),
      /ttl_ms 999 is outside 1000..3600000/,
      RequestFailure,
    );
    rejects(() => checkOpenSession(3_600_001, limits), /outside/, RequestFailure);
  });
});

describe("uint64 fields read without a bigint", () => {
  const longOf = (value: bigint, unsigned = true): Long =>
    Long.fromBits(Number(value & 0xffff_ffffn) | 0, Number(value >> 32n) | 0, unsigned);

  it("read every safe value exactly, as the bigint path does", () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    for (const v of [0n, 1n, 0xffff_ffffn, 0x1_0000_0000n, max - 1n, max]) {
      expect(numberField(longOf(v), "seq")).toBe(Number(v));
      expect(u64ToNumber(longOf(v), "term")).toBe(Number(v));
      expect(u64(longOf(v), "id")).toBe(v);
      // And written back as the same bits, from a number or a bigint.
      expect(toU64(Number(v)).toString()).toBe(v.toString());
      expect(toU64(v).toString()).toBe(v.toString());
      expect(toU64(v).unsigned).toBe(true);
    }
    for (const v of [2n ** 53n, 2n ** 63n + 5n, 2n ** 64n - 1n])
      expect(toU64(v).toString()).toBe(`${v}`);
    expect(() => toU64(-1)).toThrow(CodecError);
    expect(() => toU64(-1n)).toThrow(CodecError);
    expect(() => toU64(0.5)).toThrow(CodecError);
  });

  it("refuse what is above 2^53 - 1 or negative with the field's message", () => {
    const above = BigInt(Number.MAX_SAFE_INTEGER) + 1n;
    expect(() => numberField(longOf(above), "seq")).toThrow(`seq: ${above} is too large`);
    expect(() => u64ToNumber(longOf(above), "term")).toThrow(`term: ${above} is above 2^53 - 1`);
    expect(u64(longOf(2n ** 64n - 1n), "id")).toBe(2n ** 64n - 1n);
    expect(() => numberField(Long.fromInt(-1, false), "seq")).toThrow("seq: negative value");
    expect(() => u64(Long.fromInt(-1, false), "id")).toThrow("id: negative value");
  });
});
