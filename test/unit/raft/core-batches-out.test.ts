// Several batches out at once (a host writing asynchronously): the core hands each entry out
// for writing once, counts its own log toward commit only as batches are persisted, and
// refuses a completion out of order.
import { describe, expect, it } from "vitest";
import type { RaftCore } from "../../../node/raft/core.ts";
import type { Message } from "../../../node/raft/types.ts";
import { testCore } from "./test-core.ts";

function node(id: number): RaftCore {
  return testCore({ id });
}

/** Node 1 elected leader of term 2, every batch so far persisted. */
function leader(): RaftCore {
  const core = node(1);
  for (let i = 0; i < 30 && core.role !== "candidate"; i++) core.tick();
  core.advance(core.ready());
  core.step({ type: "voteResp", from: 2, to: 1, term: 2, pre: false, granted: true });
  while (core.hasReady()) core.advance(core.ready());
  expect(core.role).toBe("leader");
  return core;
}

const data = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("batches out at once", () => {
  it("hands each entry out for writing once, however many batches are out", () => {
    const core = leader();
    core.propose([data("a")]);
    const first = core.ready();
    core.propose([data("b")]);
    const second = core.ready();
    expect(first.entries.map((e) => e.index)).toEqual([2]);
    expect(second.entries.map((e) => e.index)).toEqual([3]);
    expect(core.batchesOut).toBe(2);
  });

  it("counts its own entries toward commit only as their batch is persisted", () => {
    const core = leader();
    core.propose([data("a")]);
    const first = core.ready();
    core.propose([data("b")]);
    const second = core.ready();
    core.step({
      type: "appendResp",
      from: 2,
      to: 1,
      term: 2,
      success: true,
      index: 3,
      hintIndex: 0,
      hintTerm: 0,
    });
    expect(core.log.committed).toBe(1);
    core.persisted(first);
    expect(core.log.committed).toBe(2);
    core.persisted(second);
    expect(core.log.committed).toBe(3);
  });

  it("refuses a batch persisted before one taken earlier", () => {
    const core = leader();
    core.propose([data("a")]);
    const first = core.ready();
    core.propose([data("b")]);
    const second = core.ready();
    expect(() => core.persisted(second)).toThrow(/order they were taken/);
    core.persisted(first);
    core.persisted(second);
    expect(core.batchesOut).toBe(0);
  });

  it("puts a vote in the batch that writes it, whatever batches are still out", () => {
    const core = node(2);
    core.step({
      type: "append",
      from: 1,
      to: 2,
      term: 1,
      prevIndex: 0,
      prevTerm: 0,
      entries: [{ index: 1, term: 1, kind: "normal", data: data("x") }],
      commit: 0,
    });
    const appendBatch = core.ready();
    core.step({
      type: "vote",
      from: 3,
      to: 2,
      term: 2,
      pre: false,
      lastIndex: 1,
      lastTerm: 1,
      transfer: false,
    });
    const voteBatch = core.ready();
    expect(appendBatch.messages.map((m: Message) => m.type)).toEqual(["appendResp"]);
    expect(voteBatch.hardState).toMatchObject({ term: 2, vote: 3 });
    expect(voteBatch.mustSync).toBe(true);
    expect(voteBatch.messages).toContainEqual(
      expect.objectContaining({ type: "voteResp", granted: true }),
    );
    expect(voteBatch.earlyMessages).toEqual([]);
  });
});
