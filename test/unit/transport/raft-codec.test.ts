import Long from "long";
import { describe, expect, it } from "vitest";
import { palisade } from "../../../proto/gen/palisade.js";
import {
  decodeMessage,
  decodeRaftBatch,
  decodeRaftMessage,
  encodeRaftBatch,
  encodeRaftMessage,
  fromWireMessage,
  toWireMessage,
} from "../../../node/transport/raft-codec.ts";
import { CodecError, MAX_U64, toU64, u64, u64ToNumber, u64s } from "../../../proto/wire.ts";
import type { Message } from "../../../node/raft/types.ts";
import { SeededRandom } from "../../../node/util/rng.ts";

const MAX = Number.MAX_SAFE_INTEGER;
const bytes = (...values: number[]) => new Uint8Array(values);

/** One message of every kind, with values at the edges of what a number can hold. */
const samples: Message[] = [
  {
    type: "vote",
    from: 1,
    to: 2,
    term: MAX,
    pre: true,
    lastIndex: MAX,
    lastTerm: MAX - 1,
    transfer: true,
  },
  { type: "vote", from: 1, to: 2, term: 1, pre: false, lastIndex: 0, lastTerm: 0, transfer: false },
  { type: "voteResp", from: 2, to: 1, term: 7, pre: true, granted: true },
  {
    // The last entry sits at the highest index a token can carry (2^48 - 1).
    type: "append",
    from: 1,
    to: 3,
    term: MAX,
    prevIndex: 2 ** 48 - 4,
    prevTerm: 2 ** 31,
    commit: MAX,
    entries: [
      { term: 2 ** 31, index: 2 ** 48 - 3, kind: "normal", data: bytes(1, 2, 3) },
      { term: 2 ** 32, index: 2 ** 48 - 2, kind: "noop", data: bytes() },
      { term: MAX, index: 2 ** 48 - 1, kind: "config", data: bytes(255, 0) },
    ],
  },
  { type: "append", from: 1, to: 3, term: 3, prevIndex: 0, prevTerm: 0, commit: 0, entries: [] },
  {
    type: "appendResp",
    from: 3,
    to: 1,
    term: 3,
    success: false,
    index: 10,
    hintIndex: 4,
    hintTerm: 2,
  },
  { type: "heartbeat", from: 1, to: 2, term: 5, commit: 99, round: 2 ** 40 },
  { type: "heartbeatResp", from: 2, to: 1, term: 5, round: MAX },
  { type: "timeoutNow", from: 1, to: 2, term: 9 },
  { type: "readIndex", from: 2, to: 1, term: 4, requestId: 12345 },
  { type: "readIndexResp", from: 1, to: 2, term: 4, requestId: 12345, index: 0 },
  {
    type: "snapshot",
    from: 1,
    to: 3,
    term: 6,
    snapshot: {
      meta: { index: 2 ** 48 - 1, term: 6, membership: { voters: [1, 2, 3], learners: [MAX] } },
      data: bytes(9, 8, 7),
    },
  },
];

/** Whether a value holds a Long anywhere (a Long must never leave the codec). */
function containsLong(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Long.isLong(value)) return true;
  if (value instanceof Uint8Array) return false;
  return Object.values(value).some(containsLong);
}

describe("Raft message codec", () => {
  it("round-trips every message kind through a batch", () => {
    const kinds = new Set(samples.map((m) => m.type));
    expect(kinds.size).toBe(10);
    for (const message of samples) {
      const batch = encodeRaftBatch({ clusterId: "c-1", from: message.from, to: message.to }, [
        encodeRaftMessage(message),
      ]);
      const decoded = decodeRaftBatch(batch);
      expect(decoded.clusterId).toBe("c-1");
      expect(decoded.from).toBe(message.from);
      expect(decoded.to).toBe(message.to);
      expect(decoded.messages).toEqual([message]);
      expect(containsLong(decoded)).toBe(false);
    }
  });

  it("keeps several messages of one batch in order", () => {
    const toPeer = samples.filter((m) => m.from === 1 && m.to === 2);
    const decoded = decodeRaftBatch(
      encodeRaftBatch({ clusterId: "c", from: 1, to: 2 }, toPeer.map(encodeRaftMessage)),
    );
    expect(decoded.messages).toEqual(toPeer);
  });

  it("hands out entry and snapshot data as plain Uint8Array, not Buffer", () => {
    const append = samples[3];
    const decoded = decodeRaftMessage(encodeRaftMessage(append), 1, 3);
    expect(decoded.type).toBe("append");
    if (decoded.type !== "append") return;
    expect(Object.getPrototypeOf(decoded.entries[0].data)).toBe(Uint8Array.prototype);
  });

  it("rejects terms and indexes above 2^53 - 1", () => {
    const wire = toWireMessage(samples[6]);
    const tooBig = { ...wire, term: Long.fromString("9007199254740992", true) };
    expect(() => fromWireMessage(tooBig, 1, 2)).toThrow(CodecError);
    const maxU64 = { ...wire, heartbeat: { commit: Long.MAX_UNSIGNED_VALUE, round: Long.UZERO } };
    expect(() => fromWireMessage(maxU64, 1, 2)).toThrow(/above 2\^53/);
    const entryIndex = palisade.v1.RaftMessage.encode({
      term: Long.UONE,
      append: {
        entries: [
          {
            term: Long.UONE,
            index: Long.MAX_UNSIGNED_VALUE,
            kind: palisade.v1.EntryKind.ENTRY_KIND_NORMAL,
          },
        ],
      },
    }).finish();
    expect(() => decodeRaftMessage(entryIndex, 1, 2)).toThrow(CodecError);
  });

  it("rejects missing bodies, several bodies, unknown entry kinds and a snapshot without metadata", () => {
    expect(() => fromWireMessage({ term: Long.UONE }, 1, 2)).toThrow(/no known kind/);
    expect(() =>
      fromWireMessage({ term: Long.UONE, timeoutNow: {}, heartbeatResp: {} }, 1, 2),
    ).toThrow(/several kinds/);
    const unspecifiedKind = {
      term: Long.UONE,
      append: { entries: [{ term: Long.UONE, index: Long.UONE }] },
    };
    expect(() => fromWireMessage(unspecifiedKind, 1, 2)).toThrow(/entry kind/);
    expect(() =>
      fromWireMessage(
        { term: Long.UONE, append: { entries: [{ kind: 42 as palisade.v1.EntryKind }] } },
        1,
        2,
      ),
    ).toThrow(/entry kind/);
    expect(() => fromWireMessage({ term: Long.UONE, snapshot: { data: bytes(1) } }, 1, 2)).toThrow(
      /snapshot.meta/,
    );
    const noMembership = {
      term: Long.UONE,
      snapshot: { meta: { index: Long.UONE, term: Long.UONE } },
    };
    expect(() => fromWireMessage(noMembership, 1, 2)).toThrow(/membership/);
    // A message kind this node does not know (field 99) decodes to no body at all.
    const unknownKind = new palisade.v1.RaftMessage();
    const withUnknownField = new Uint8Array([
      ...palisade.v1.RaftMessage.encode(unknownKind).finish(),
      (99 << 3) | 2,
      0x02,
      0x08,
      0x01,
    ]);
    expect(() => decodeRaftMessage(withUnknownField, 1, 2)).toThrow(CodecError);
  });

  it("rejects an AppendEntries the Raft core could not take, naming what is wrong", () => {
    const append = (
      prevIndex: number,
      prevTerm: number,
      list: Array<[index: number, term: number]>,
      term = 5,
    ): Uint8Array =>
      encodeRaftMessage({
        type: "append",
        from: 1,
        to: 2,
        term,
        prevIndex,
        prevTerm,
        commit: 0,
        entries: list.map(([index, t]) => ({ index, term: t, kind: "normal", data: bytes(1) })),
      });
    const decode = (b: Uint8Array): Message => decodeRaftMessage(b, 1, 2);
    expect(
      decode(
        append(3, 2, [
          [4, 2],
          [5, 3],
          [6, 5],
        ]),
      ).type,
    ).toBe("append");
    // Entries must follow prevIndex one by one: a gap, a repeat or a jump back is refused.
    expect(() => decode(append(0, 0, [[7, 1]]))).toThrow(/entry 1 of 1 has index 7, expected 1/);
    expect(() =>
      decode(
        append(3, 2, [
          [4, 2],
          [6, 2],
        ]),
      ),
    ).toThrow(/entry 2 of 2 has index 6, expected 5/);
    expect(() =>
      decode(
        append(3, 2, [
          [4, 2],
          [4, 2],
        ]),
      ),
    ).toThrow(/expected 5/);
    // Terms never go back along a log, and no entry is newer than the leader's term.
    expect(() =>
      decode(
        append(3, 2, [
          [4, 3],
          [5, 2],
        ]),
      ),
    ).toThrow(/has term 2, below term 3 of entry 4/);
    expect(() => decode(append(3, 4, [[4, 3]]))).toThrow(/has term 3, below term 4 of prevIndex 3/);
    expect(() => decode(append(3, 2, [[4, 6]]))).toThrow(/has term 6, above the message's term 5/);
    expect(() => decode(append(3, 6, []))).toThrow(/prevTerm 6 is above the message's term 5/);
    // Indexes stay within what a fencing token can carry (2^48 - 1).
    expect(() => decode(append(2 ** 48 - 1, 2, [[2 ** 48, 2]]))).toThrow(
      /index 281474976710656 is above 281474976710655/,
    );
    expect(() => decode(append(2 ** 48, 2, []))).toThrow(/prevIndex 281474976710656 is above/);
  });

  it("rejects an InstallSnapshot past the highest index or newer than the message's term", () => {
    const snapshot = (index: number, snapTerm: number): Uint8Array =>
      encodeRaftMessage({
        type: "snapshot",
        from: 1,
        to: 2,
        term: 5,
        snapshot: {
          meta: { index, term: snapTerm, membership: { voters: [1], learners: [] } },
          data: bytes(1),
        },
      });
    expect(decodeRaftMessage(snapshot(10, 5), 1, 2).type).toBe("snapshot");
    expect(() => decodeRaftMessage(snapshot(2 ** 48, 5), 1, 2)).toThrow(
      /snapshot.index 281474976710656 is above/,
    );
    expect(() => decodeRaftMessage(snapshot(10, 6), 1, 2)).toThrow(
      /snapshot.term 6 is above the message's term 5/,
    );
  });

  it("rejects batches without sender or receiver", () => {
    const noFrom = palisade.v1.RaftBatch.encode({ clusterId: "c", to: Long.UONE }).finish();
    expect(() => decodeRaftBatch(noFrom)).toThrow(/node id 0/);
    const noTo = palisade.v1.RaftBatch.encode({ clusterId: "c", from: Long.UONE }).finish();
    expect(() => decodeRaftBatch(noTo)).toThrow(/node id 0/);
  });

  it("refuses to encode numbers that are not non-negative safe integers", () => {
    expect(() => encodeRaftMessage({ type: "timeoutNow", from: 1, to: 2, term: -1 })).toThrow(
      CodecError,
    );
    expect(() => encodeRaftMessage({ type: "timeoutNow", from: 1, to: 2, term: 1.5 })).toThrow(
      CodecError,
    );
    expect(() => encodeRaftMessage({ type: "timeoutNow", from: 1, to: 2, term: 2 ** 53 })).toThrow(
      CodecError,
    );
  });

  it("never crashes on random bytes: it throws CodecError or returns a valid batch", () => {
    const random = new SeededRandom(20240611);
    const valid = encodeRaftBatch(
      { clusterId: "c", from: 1, to: 2 },
      samples.map(encodeRaftMessage),
    );
    let rejected = 0;
    let accepted = 0;
    for (let round = 0; round < 3000; round++) {
      let input: Uint8Array;
      if (round % 2 === 0) {
        input = new Uint8Array(random.int(0, 64));
        for (let i = 0; i < input.length; i++) input[i] = random.int(0, 255);
      } else {
        // Mutations of a valid batch reach much deeper into the decoders than noise.
        input = valid.slice(0, random.int(1, valid.length));
        for (let flips = random.int(1, 4); flips > 0; flips--)
          input[random.int(0, input.length - 1)] = random.int(0, 255);
      }
      try {
        const batch = decodeRaftBatch(input);
        accepted++;
        expect(batch.from).toBeGreaterThan(0);
        expect(batch.to).toBeGreaterThan(0);
        expect(containsLong(batch)).toBe(false);
        for (const message of batch.messages) {
          expect(Number.isSafeInteger(message.term) && message.term >= 0).toBe(true);
          expect(message.from).toBe(batch.from);
        }
      } catch (error) {
        expect(error).toBeInstanceOf(CodecError);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(0);
    expect(rejected + accepted).toBe(3000);
  });

  it("wraps protobufjs errors of any generated type in CodecError", () => {
    expect(() =>
      decodeMessage(palisade.v1.AcquireRequest, bytes(0x12, 0x05, 0x61), "AcquireRequest"),
    ).toThrow(CodecError);
    const ok = decodeMessage(
      palisade.v1.AcquireRequest,
      palisade.v1.AcquireRequest.encode({ lock: "a" }).finish(),
      "AcquireRequest",
    );
    expect(ok.lock).toBe("a");
  });
});

describe("uint64 helpers", () => {
  it("turn every wire form into bigint, never Long", () => {
    const values: unknown[] = [
      u64(Long.MAX_UNSIGNED_VALUE),
      u64(Long.fromString("18446744073709551615", true)),
      u64("18446744073709551615"),
      u64(7),
      u64(7n),
      u64(null),
      u64(undefined),
    ];
    for (const value of values) expect(typeof value).toBe("bigint");
    expect(values).toEqual([MAX_U64, MAX_U64, MAX_U64, 7n, 7n, 0n, 0n]);
  });

  it("round-trip bigints at the uint64 boundaries through the wire", () => {
    const edges = [
      0n,
      1n,
      2n ** 31n,
      2n ** 32n - 1n,
      2n ** 32n,
      2n ** 48n + 33n,
      2n ** 53n,
      2n ** 63n,
      MAX_U64 - 1n,
      MAX_U64,
    ];
    for (const token of edges) {
      const wire = palisade.v1.ValidateTokenRequest.encode({
        lock: "l",
        token: toU64(token),
      }).finish();
      const decoded = palisade.v1.ValidateTokenRequest.decode(wire);
      expect(u64(decoded.token)).toBe(token);
    }
  });

  it("read a token from a Long made by protobufjs's own copy of long.js", () => {
    const wire = palisade.v1.AcquireResponse.encode({
      token: toU64(2n ** 48n * 3n + 34n),
    }).finish();
    const decoded = palisade.v1.AcquireResponse.decode(wire);
    expect(u64(decoded.token)).toBe(2n ** 48n * 3n + 34n);
  });

  it("reject values outside uint64 or not integers", () => {
    expect(() => toU64(MAX_U64 + 1n)).toThrow(CodecError);
    expect(() => toU64(-1n)).toThrow(CodecError);
    expect(() => u64(-1)).toThrow(CodecError);
    expect(() => u64(0.5)).toThrow(CodecError);
    expect(() => u64("18446744073709551616")).toThrow(CodecError);
    expect(() => u64("12abc")).toThrow(CodecError);
    expect(() => u64(Long.fromNumber(-5))).toThrow(CodecError);
  });

  it("convert repeated fields such as held seqs", () => {
    const decoded = palisade.v1.AcquireRequest.decode(
      palisade.v1.AcquireRequest.encode({ held: [toU64(3), toU64(MAX_U64)] }).finish(),
    );
    expect(u64s(decoded.held)).toEqual([3n, MAX_U64]);
    expect(u64s(null)).toEqual([]);
  });

  it("convert to number only below 2^53", () => {
    expect(u64ToNumber(Long.fromNumber(MAX, true))).toBe(MAX);
    expect(() => u64ToNumber(Long.fromString("9007199254740992", true), "index")).toThrow(/index/);
  });
});
