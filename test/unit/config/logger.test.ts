import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { childWithTerm, createLogger } from "../../../node/util/logger.ts";
import { prettyStream } from "../../../node/util/pretty-log.ts";

/** A stream that keeps the text written to it. */
function textSink(): { stream: Writable; text(): string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** A destination that keeps each JSON line it receives. */
function capture(): { write(line: string): void; lines(): Record<string, unknown>[] } {
  const raw: string[] = [];
  return {
    write: (line) => void raw.push(line),
    lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("createLogger", () => {
  it("puts the node id and cluster id on every line", () => {
    const out = capture();
    const log = createLogger({ nodeId: 2, clusterId: "c1", level: "info", destination: out });
    log.info("one");
    log.warn({ peer: 3 }, "two");
    const lines = out.lines();
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatchObject({ nodeId: 2, clusterId: "c1" });
    expect(lines[1]).toMatchObject({ msg: "two", peer: 3 });
  });

  it("adds the current term to every line when given a term source", () => {
    const out = capture();
    let term: bigint | undefined;
    const log = createLogger({ nodeId: 1, level: "info", destination: out, term: () => term });
    log.info("before any term");
    term = 4n;
    log.info("in term 4");
    term = 5n;
    log.info("in term 5");
    const [first, second, third] = out.lines();
    expect(first).not.toHaveProperty("term");
    expect(second.term).toBe("4");
    expect(third.term).toBe("5");
  });

  it("writes bigint fields as decimal strings", () => {
    const out = capture();
    const log = createLogger({ nodeId: 1, level: "info", destination: out });
    log.info({ token: 2n ** 60n + 1n, index: 7n }, "granted");
    expect(out.lines()[0]).toMatchObject({ token: "1152921504606846977", index: "7" });
  });

  it("drops lines below the level", () => {
    const out = capture();
    const log = createLogger({ nodeId: 1, level: "warn", destination: out });
    log.info("quiet");
    log.error("loud");
    expect(out.lines().map((l) => l.msg)).toEqual(["loud"]);
  });
});

describe("childWithTerm", () => {
  it("binds the term once, derived from the base logger", () => {
    const out = capture();
    const base = createLogger({ nodeId: 3, level: "info", destination: out });
    childWithTerm(base, 8n).info("became leader");
    childWithTerm(base, 9).info("stepped down");
    const raw = out.lines();
    expect(raw[0]).toMatchObject({ nodeId: 3, term: "8", msg: "became leader" });
    expect(raw[1]).toMatchObject({ nodeId: 3, term: "9", msg: "stepped down" });
  });
});

describe("pretty logs", () => {
  it("write one line per event that starts with the node id, then time, level, term, message and fields", () => {
    const sink = textSink();
    const raft: { term: bigint | undefined } = { term: undefined };
    const log = createLogger({
      nodeId: 2,
      level: "info",
      term: () => raft.term,
      destination: prettyStream({ color: false, destination: sink.stream }),
    });
    log.info("recovered durable state");
    raft.term = 3n;
    log.warn({ role: "leader", token: 2n ** 60n }, "now leader in term 3");
    const lines = sink
      .text()
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^node 2 \d\d:\d\d:\d\d\.\d{3} INFO {2}recovered durable state$/);
    expect(lines[1]).toMatch(
      /^node 2 \d\d:\d\d:\d\d\.\d{3} WARN {2}term 3 now leader in term 3 \{"role":"leader","token":"1152921504606846976"\}$/,
    );
  });

  it("colour the node id and the level only when asked", () => {
    const plain = textSink();
    createLogger({
      nodeId: 1,
      level: "info",
      destination: prettyStream({ color: false, destination: plain.stream }),
    }).info("x");
    const coloured = textSink();
    createLogger({
      nodeId: 1,
      level: "info",
      destination: prettyStream({ color: true, destination: coloured.stream }),
    }).info("x");
    expect(plain.text()).not.toContain("\u001b[");
    // Node 1's colour is magenta (ESC [35m).
    expect(coloured.text()).toContain("\u001b[35mnode 1\u001b[39m");
  });
});
