// Chunked snapshots without a network: the sender's transfer resumes from what was
// acknowledged, and the receiver's assembler keeps, skips or drops chunks by their offsets.
import { describe, expect, it } from "vitest";
import type { InstallSnapshot } from "../../../node/raft/types.ts";
import type { SnapshotChunkMessage } from "../../../node/transport/raft-codec.ts";
import { SnapshotAssembler, SnapshotTransfer } from "../../../node/transport/snapshot-chunks.ts";
import { crc32 } from "../../../node/util/crc32.ts";

function snapshot(size: number, index = 10, term = 2, from = 1): InstallSnapshot {
  const data = new Uint8Array(size).map((_, i) => (i * 7 + index) & 0xff);
  const membership = { voters: [1, 2, 3], learners: [] };
  return {
    type: "snapshot",
    from,
    to: 2,
    term,
    snapshot: { meta: { index, term, membership }, data },
  };
}

/** The chunk a sender would encode for bytes [offset, offset + length) of `m`. */
function chunk(m: InstallSnapshot, offset: number, length: number): SnapshotChunkMessage {
  const data = m.snapshot.data;
  return {
    ...m,
    snapshot: { meta: m.snapshot.meta, data: data.subarray(offset, offset + length) },
    chunk: { offset, total: data.length, crc: crc32(data) },
  };
}

describe("SnapshotTransfer", () => {
  it("hands out chunks in order and rewinds to the acknowledged mark, or to 0 when the peer is gone", () => {
    const t = new SnapshotTransfer(snapshot(10));
    expect([t.nextChunk(4), t.nextChunk(4)]).toEqual([
      { offset: 0, length: 4 },
      { offset: 4, length: 4 },
    ]);
    expect(t.acknowledge(4)).toBe(true);
    expect(t.acknowledge(4)).toBe(false);
    t.rewind(false);
    expect(t.nextChunk(4)).toEqual({ offset: 4, length: 4 });
    expect(t.nextChunk(4)).toEqual({ offset: 8, length: 2 });
    expect(t.nextChunk(4)).toBeNull();
    t.rewind(true);
    expect(t.acknowledged).toBe(0);
    expect(t.nextChunk(100)).toEqual({ offset: 0, length: 10 });
    expect(t.done).toBe(false);
    t.acknowledge(10);
    expect(t.done).toBe(true);
  });

  it.each([
    ["the same message", (m: InstallSnapshot) => m, true],
    ["an equal copy of the body", (m: InstallSnapshot) => snapshot(m.snapshot.data.length), true],
    ["another index", () => snapshot(10, 11), false],
    ["another term", () => snapshot(10, 10, 3), false],
    ["another length", () => snapshot(11), false],
    [
      "another body of the same length",
      (m: InstallSnapshot) => ({
        ...m,
        snapshot: { ...m.snapshot, data: m.snapshot.data.map((b) => b ^ 1) },
      }),
      false,
    ],
  ])("is the same snapshot as %s: %s", (_what, other, same) => {
    const m = snapshot(10);
    expect(new SnapshotTransfer(m).sameAs(other(m))).toBe(same);
  });
});

describe("SnapshotAssembler", () => {
  it("gathers chunks into the whole snapshot and checks its CRC-32", () => {
    const m = snapshot(10);
    const a = new SnapshotAssembler(1_000);
    expect(a.add(chunk(m, 0, 4)).kind).toBe("partial");
    expect(a.add(chunk(m, 4, 4)).kind).toBe("partial");
    const out = a.add(chunk(m, 8, 2));
    expect(out.kind).toBe("whole");
    if (out.kind === "whole") expect(out.message.snapshot.data).toEqual(m.snapshot.data);
  });

  it("skips chunks already held, so a resend continues, and overlapping ones add only the new bytes", () => {
    const m = snapshot(10);
    const a = new SnapshotAssembler(1_000);
    a.add(chunk(m, 0, 6));
    expect(a.add(chunk(m, 0, 4)).kind).toBe("partial");
    expect(a.add(chunk(m, 4, 6)).kind).toBe("whole");
  });

  it("drops what it gathered at a gap, and waits for offset 0 of a snapshot it has not started", () => {
    const m = snapshot(10);
    const a = new SnapshotAssembler(1_000);
    a.add(chunk(m, 0, 4));
    expect(a.add(chunk(m, 6, 4)).kind).toBe("partial");
    expect(a.add(chunk(m, 4, 6)).kind).toBe("partial");
    expect(a.add(chunk(m, 0, 10)).kind).toBe("whole");
  });

  it("starts over on a chunk of a newer snapshot, keeps senders apart, and refuses oversized or corrupt ones", () => {
    const a = new SnapshotAssembler(16);
    const old = snapshot(10, 10);
    const next = snapshot(10, 20);
    a.add(chunk(old, 0, 5));
    a.add(chunk(snapshot(10, 10, 2, 3), 0, 5));
    expect(a.add(chunk(next, 0, 5)).kind).toBe("partial");
    expect(a.add(chunk(old, 5, 5)).kind).toBe("partial");
    expect(a.add(chunk(next, 5, 5)).kind).toBe("whole");
    expect(a.add(chunk(snapshot(10, 10, 2, 3), 5, 5)).kind).toBe("whole");
    expect(a.add(chunk(snapshot(17), 0, 5)).kind).toBe("oversized");
    const bad = chunk(snapshot(4), 0, 4);
    expect(a.add({ ...bad, chunk: { ...bad.chunk, crc: bad.chunk.crc ^ 1 } }).kind).toBe("corrupt");
  });
});
