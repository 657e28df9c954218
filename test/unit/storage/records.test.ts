// Key layout and record encodings of the LevelDB store.
import { describe, expect, it } from "vitest";
import type { Entry } from "../../../node/raft/types.ts";
import { crc32 } from "../../../node/util/crc32.ts";
import { CorruptStoreError } from "../../../node/storage/errors.ts";
import {
  HARD_STATE_KEY,
  SNAPSHOT_META_KEY,
  describeKey,
  entryIndexOf,
  entryKey,
} from "../../../node/storage/keys.ts";
import {
  decodeEntry,
  decodeHardState,
  decodeSnapshotRecord,
  encodeEntry,
  encodeHardState,
  encodeSnapshotRecord,
} from "../../../node/storage/records.ts";

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

describe("storage keys", () => {
  it("orders entry keys by index in byte order", () => {
    const indexes = [1, 2, 255, 256, 65_535, 65_536, 2 ** 32, 2 ** 48];
    const keys = indexes.map(entryKey);
    const sorted = [...keys].sort(compareBytes);
    expect(sorted.map((k) => entryIndexOf(k))).toEqual(indexes);
  });

  it("reads back the index and rejects keys that are not entry keys", () => {
    expect(entryIndexOf(entryKey(123_456_789))).toBe(123_456_789);
    expect(entryIndexOf(HARD_STATE_KEY)).toBeNull();
    expect(entryIndexOf(entryKey(5).subarray(0, 8))).toBeNull();
    expect(describeKey(entryKey(42))).toBe("entry 42");
    expect(describeKey(SNAPSHOT_META_KEY)).toBe("snapshot metadata record");
  });
});

describe("storage records", () => {
  it("computes the standard CRC32", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new TextEncoder().encode("1234"), new TextEncoder().encode("56789"))).toBe(
      0xcbf43926,
    );
  });

  it("lays an entry out as kind, big-endian uint64 term, data, then the CRC32 of key and body", () => {
    const key = entryKey(2 ** 40 + 3);
    expect(Array.from(key)).toEqual([1, 0, 0, 1, 0, 0, 0, 0, 3]);
    const term = 2 ** 33 + 258;
    const value = encodeEntry(key, {
      index: 2 ** 40 + 3,
      term,
      kind: "noop",
      data: Uint8Array.of(9),
    });
    const body = Uint8Array.of(1, 0, 0, 0, 2, 0, 0, 1, 2, 9);
    expect(Array.from(value.subarray(0, body.length))).toEqual(Array.from(body));
    expect(new DataView(value.buffer).getUint32(body.length)).toBe(crc32(key, body));
    expect(value.length).toBe(body.length + 4);
  });

  it("round-trips an entry and detects any flipped byte", () => {
    const key = entryKey(7);
    const entry: Entry = { index: 7, term: 2 ** 40, kind: "config", data: Uint8Array.of(1, 2, 3) };
    const value = encodeEntry(key, entry);
    expect(decodeEntry(key, 7, value)).toEqual(entry);
    for (let i = 0; i < value.length; i++) {
      const damaged = value.slice();
      damaged[i] ^= 0x01;
      expect(() => decodeEntry(key, 7, damaged), `byte ${i}`).toThrow(CorruptStoreError);
    }
  });

  it("refuses a value read under another key", () => {
    const value = encodeEntry(entryKey(7), {
      index: 7,
      term: 1,
      kind: "normal",
      data: new Uint8Array(),
    });
    expect(() => decodeEntry(entryKey(8), 8, value)).toThrow(/entry 8: checksum mismatch/);
  });

  it("round-trips hard state and snapshot records and rejects truncated ones", () => {
    const hs = { term: 9, vote: 3, commit: 2 ** 47 };
    const hsValue = encodeHardState(HARD_STATE_KEY, hs);
    expect(decodeHardState(HARD_STATE_KEY, hsValue)).toEqual(hs);
    expect(() => decodeHardState(HARD_STATE_KEY, hsValue.subarray(0, 3))).toThrow(/too short/);

    const record = {
      index: 10,
      term: 2,
      membership: { voters: [1, 2, 3], learners: [] },
      file: "snapshot-10.bin",
      bodyLength: 99,
      bodyCrc: 0xdeadbeef,
    };
    expect(
      decodeSnapshotRecord(SNAPSHOT_META_KEY, encodeSnapshotRecord(SNAPSHOT_META_KEY, record)),
    ).toEqual(record);
    const badFile = encodeSnapshotRecord(SNAPSHOT_META_KEY, { ...record, file: "../escape" });
    expect(() => decodeSnapshotRecord(SNAPSHOT_META_KEY, badFile)).toThrow(/malformed record/);
  });
});
