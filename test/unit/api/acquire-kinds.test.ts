// The lock kinds on the wire, without a cluster: an AcquireRequest's mode, permits, more
// locks, holder data and hold limit become the command's fields, each bad field is refused
// with a message naming it, the answers become AcquireResponse grants and blocked locks,
// refusals of the kinds carry their own reasons, and an exclusive Acquire keeps its bytes.
import { describe, expect, it } from "vitest";
import { palisade } from "../../../proto/gen/palisade.js";
import {
  resolveLimits,
  DEFAULT_LOCK_LIMITS,
  LockStateMachine,
  type AcquireCommand,
} from "../../../node/lock/index.ts";
import { answerFailure, RequestFailure } from "../../../node/host/failures.ts";
import { acquireAnswerOf } from "../../../node/host/lock-requests.ts";
import { checkAcquire } from "../../../node/host/request-checks.ts";
import { decodeRequest, encodeAnswer } from "../../../proto/lock-calls.ts";
import type { AcquireAnswer } from "../../../proto/lock-values.ts";
import { CodecError, toU64 } from "../../../proto/wire.ts";
import type { LockLimits } from "../../../node/lock/index.ts";

const pb = palisade.v1;
const limits = DEFAULT_LOCK_LIMITS;
const MODE = pb.LockMode;

function acquire(
  fields: Partial<palisade.v1.AcquireRequest.$Properties>,
): palisade.v1.AcquireRequest {
  return pb.AcquireRequest.create({
    sessionId: toU64(7n),
    lock: "orders/1",
    seq: toU64(1),
    ...fields,
  });
}

/** As the node decodes it: through the bytes. */
function decoded(
  fields: Partial<palisade.v1.AcquireRequest.$Properties>,
): palisade.v1.AcquireRequest {
  return pb.AcquireRequest.decode(pb.AcquireRequest.encode(acquire(fields)).finish());
}

/** What the node makes of a decoded request: the codec's value, checked against `lim`, as the command it proposes. */
function parseAcquire(
  wire: palisade.v1.AcquireRequest,
  lim: LockLimits,
  wallMs: number,
): AcquireCommand {
  const req = decodeRequest("Acquire", wire);
  checkAcquire(req, lim);
  return { type: "acquire", ...req, wallMs };
}

/** The AcquireResponse the node sends for an answer. */
const acquireResponse = (answer: AcquireAnswer): palisade.v1.AcquireResponse =>
  encodeAnswer("Acquire", answer);

function refusal(fields: Partial<palisade.v1.AcquireRequest.$Properties>, lim = limits): string {
  try {
    parseAcquire(decoded(fields), lim, 0);
  } catch (err) {
    expect(err instanceof CodecError || err instanceof RequestFailure).toBe(true);
    return (err as Error).message;
  }
  throw new Error("expected the request to be refused");
}

/** A response as the client decodes it. */
const wire = (r: palisade.v1.AcquireResponse): palisade.v1.AcquireResponse =>
  pb.AcquireResponse.decode(pb.AcquireResponse.encode(r).finish());

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("Acquire of the lock kinds on the wire", () => {
  it("turns mode, permits, more locks, holder data and hold limit into the command's fields", () => {
    expect(parseAcquire(decoded({ mode: MODE.LOCK_MODE_SHARED }), limits, 5)).toEqual({
      type: "acquire",
      sessionId: 7n,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      lock: "orders/1",
      waitMs: 0,
      wallMs: 5,
      mode: "shared",
    });
    expect(parseAcquire(decoded({ lock: "pool", permits: toU64(3) }), limits, 0)).toMatchObject({
      lock: "pool",
      permits: 3,
    });
    expect(parseAcquire(decoded({ permits: toU64(3) }), limits, 0)).not.toHaveProperty("mode");
    const set = parseAcquire(
      decoded({
        mode: MODE.LOCK_MODE_EXCLUSIVE,
        moreLocks: [
          { lock: "b", mode: MODE.LOCK_MODE_SHARED },
          { lock: "c" },
          { lock: "pool", permits: toU64(2) },
        ],
        holderData: utf8("job 42 on host-a"),
        holdMs: toU64(30_000),
      }),
      limits,
      0,
    );
    expect(set).toMatchObject({
      mode: "exclusive",
      more: [{ lock: "b", mode: "shared" }, { lock: "c" }, { lock: "pool", permits: 2 }],
      holderData: "job 42 on host-a",
      holdMs: 30_000,
    });
    expect(set.more?.[1]).toEqual({ lock: "c" });
  });

  it("leaves an exclusive Acquire without the kinds' fields as it was", () => {
    const cmd = parseAcquire(decoded({ waitMs: toU64(100) }), limits, 0);
    expect(cmd).toEqual({
      type: "acquire",
      sessionId: 7n,
      seq: 1,
      ackedUpTo: 0,
      held: [],
      lock: "orders/1",
      waitMs: 100,
      wallMs: 0,
    });
    // A request of a client that predates the kinds is the same bytes as before them.
    const bytes = pb.AcquireRequest.encode(acquire({ waitMs: toU64(100), held: [] })).finish();
    expect(Buffer.from(bytes).toString("hex")).toBe("080712086f72646572732f3118642001");
  });

  it("refuses each bad field of the kinds with a message naming it", () => {
    expect(refusal({ mode: 7 as palisade.v1.LockMode })).toMatch(/^mode: 7 is not a lock mode/);
    expect(refusal({ permits: toU64(0) })).toMatch(/^permits: 0 is outside 1\.\.10000/);
    expect(refusal({ permits: toU64(10_001) })).toMatch(/^permits: 10001 is outside 1\.\.10000/);
    expect(refusal({ permits: toU64(2n ** 60n) })).toMatch(/^permits: \d+ is too large/);
    expect(refusal({ permits: toU64(2), mode: MODE.LOCK_MODE_SHARED })).toMatch(
      /^mode: .*semaphore/,
    );
    expect(refusal({ moreLocks: [{ lock: "" }] })).toMatch(
      /^more_locks\[0\]\.lock: lock name is empty/,
    );
    expect(refusal({ moreLocks: [{ lock: "b", mode: 9 as palisade.v1.LockMode }] })).toMatch(
      /^more_locks\[0\]\.mode: 9 is not a lock mode/,
    );
    expect(refusal({ moreLocks: [{ lock: "b", permits: toU64(0) }] })).toMatch(
      /^more_locks\[0\]\.permits: 0 is outside/,
    );
    expect(refusal({ moreLocks: [{ lock: "b" }, { lock: "orders/1" }] })).toMatch(
      /^more_locks\[1\]\.lock: orders\/1 is named twice/,
    );
    const many = Array.from({ length: 64 }, (_, i) => ({ lock: `m${i}` }));
    expect(refusal({ moreLocks: many })).toMatch(
      /^more_locks: 65 locks in one Acquire, more than 64/,
    );
    expect(refusal({ holderData: new Uint8Array(1_025) })).toMatch(
      /^holder_data: 1025 bytes, more than 1024/,
    );
    expect(refusal({ holderData: new Uint8Array([0xff, 0xfe]) })).toMatch(
      /^holder_data: not valid UTF-8/,
    );
    expect(refusal({ holdMs: toU64(999) })).toMatch(/^hold_ms: 999 is outside 1000\.\.86400000/);
    expect(refusal({ holdMs: toU64(86_400_001) })).toMatch(/^hold_ms: 86400001 is outside/);
  });

  it("checks the kinds' fields against the limits it is given", () => {
    const tight = resolveLimits({
      maxPermits: 4,
      maxLocksPerAcquire: 2,
      maxHolderDataBytes: 8,
      minHoldMs: 10,
      maxHoldMs: 20,
    });
    expect(refusal({ permits: toU64(5) }, tight)).toMatch(/^permits: 5 is outside 1\.\.4/);
    expect(refusal({ moreLocks: [{ lock: "b" }, { lock: "c" }] }, tight)).toMatch(
      /^more_locks: 3 locks in one Acquire, more than 2/,
    );
    expect(refusal({ holderData: utf8("123456789") }, tight)).toMatch(
      /^holder_data: 9 bytes, more than 8/,
    );
    expect(refusal({ holdMs: toU64(21) }, tight)).toMatch(/^hold_ms: 21 is outside 10\.\.20/);
    expect(parseAcquire(decoded({ permits: toU64(4), holdMs: toU64(10) }), tight, 0)).toMatchObject(
      { permits: 4, holdMs: 10 },
    );
  });
});

describe("Acquire answers of the lock kinds on the wire", () => {
  /** A state machine with sessions 1 and 2 (ids are the opening indexes). */
  function machine(): { sm: LockStateMachine; next: () => number } {
    const sm = new LockStateMachine();
    let index = 0;
    const next = (): number => ++index;
    sm.apply(next(), {
      type: "openSession",
      requestId: "a",
      ttlMs: 10_000,
      clientName: "a",
      wallMs: 0,
    });
    sm.apply(next(), {
      type: "openSession",
      requestId: "b",
      ttlMs: 10_000,
      clientName: "b",
      wallMs: 0,
    });
    return { sm, next };
  }
  const acq = (
    sessionId: bigint,
    seq: number,
    fields: Partial<AcquireCommand>,
  ): AcquireCommand => ({
    type: "acquire",
    sessionId,
    seq,
    ackedUpTo: 0,
    held: [],
    lock: "a",
    waitMs: 0,
    wallMs: 0,
    ...fields,
  });

  it("a multi-lock grant lists every lock's token, mode and slot in the order the request named them", () => {
    const { sm, next } = machine();
    const cmd = acq(1n, 1, {
      lock: "a",
      mode: "shared",
      more: [{ lock: "pool", permits: 3 }, { lock: "c" }],
    });
    const index = next();
    const answer = sm.apply(index, cmd).result;
    const response = wire(acquireResponse(acquireAnswerOf(answer)));
    expect(response.acquired).toBe(true);
    expect(response.token.toString()).toBe(String(index));
    expect(
      response.grants.map((g) => ({
        lock: g.lock,
        token: String(g.token),
        mode: g.mode,
        permits: g.permits,
        slot: g.slot,
      })),
    ).toEqual([
      { lock: "a", token: String(index), mode: MODE.LOCK_MODE_SHARED, permits: 0, slot: 0 },
      { lock: "pool", token: String(index), mode: MODE.LOCK_MODE_UNSPECIFIED, permits: 3, slot: 0 },
      { lock: "c", token: String(index), mode: MODE.LOCK_MODE_EXCLUSIVE, permits: 0, slot: 0 },
    ]);
  });

  it("a semaphore permit's grant carries its slot; a set left out names the lock that kept it out", () => {
    const { sm, next } = machine();
    sm.apply(next(), acq(1n, 1, { lock: "pool", permits: 2 }));
    const cmd = acq(2n, 1, { lock: "pool", permits: 2 });
    const second = sm.apply(next(), cmd).result;
    const granted = wire(acquireResponse(acquireAnswerOf(second)));
    expect(granted.grants.map((g) => [g.lock, g.permits, g.slot])).toEqual([["pool", 2, 1]]);

    sm.apply(next(), acq(1n, 2, { lock: "x" }));
    const set = acq(2n, 2, { lock: "y", more: [{ lock: "x" }] });
    const left = wire(acquireResponse(acquireAnswerOf(sm.apply(next(), set).result)));
    expect(left.acquired).toBe(false);
    expect(left.blockedLock).toBe("x");
    expect(left.holder?.sessionId?.toString()).toBe("1");
  });

  it("an exclusive grant lists its one grant, and names the holder with its client name", () => {
    const { sm, next } = machine();
    const cmd = acq(1n, 1, { lock: "plain" });
    const index = next();
    const response = acquireResponse(acquireAnswerOf(sm.apply(index, cmd).result));
    const expected = pb.AcquireResponse.create({
      acquired: true,
      token: toU64(index),
      holder: {
        sessionId: toU64(1n),
        clientName: "a",
        token: toU64(index),
        grantedIndex: toU64(index),
      },
      grants: [{ lock: "plain", token: toU64(index), mode: MODE.LOCK_MODE_EXCLUSIVE }],
    });
    expect(Buffer.from(pb.AcquireResponse.encode(response).finish())).toEqual(
      Buffer.from(pb.AcquireResponse.encode(expected).finish()),
    );
  });

  it("each refusal of the kinds reaches the client with its own reason, not as not holder", () => {
    const { sm, next } = machine();
    sm.apply(next(), acq(1n, 1, { lock: "pool", permits: 2 }));
    sm.apply(next(), acq(1n, 2, { lock: "rw", mode: "shared" }));
    const reasonOf = (cmd: AcquireCommand): string => {
      const answer = sm.apply(next(), cmd).result;
      if (answer.kind !== "error") throw new Error(`expected a refusal, got ${answer.kind}`);
      return answerFailure(answer).reason;
    };
    expect(reasonOf(acq(2n, 1, { lock: "pool" }))).toBe("ERROR_REASON_KIND_MISMATCH");
    expect(reasonOf(acq(2n, 2, { lock: "pool", permits: 3 }))).toBe(
      "ERROR_REASON_PERMITS_MISMATCH",
    );
    expect(reasonOf(acq(1n, 3, { lock: "rw" }))).toBe("ERROR_REASON_HELD_IN_ANOTHER_MODE");
    expect(reasonOf(acq(1n, 4, { lock: "rw", mode: "shared", more: [{ lock: "z" }] }))).toBe(
      "ERROR_REASON_SET_PARTLY_HELD",
    );
    sm.apply(next(), acq(1n, 5, { lock: "q" }));
    sm.apply(next(), acq(2n, 3, { lock: "q", waitMs: 1_000 }));
    expect(reasonOf(acq(2n, 4, { lock: "q", more: [{ lock: "r" }], waitMs: 1_000 }))).toBe(
      "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST",
    );
  });
});
