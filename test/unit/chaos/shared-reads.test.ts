// The chaos suite's checks of the read-heavy task (chaos/shared-reads.ts, through
// runChecks) on synthetic records of one counter: writers increment it under exclusive
// grants, readers read it under shared grants, and the store's admission log says in what
// order the fence let them in.
import { describe, expect, it } from "vitest";
import { checkGrantLog, runChecks, type RunRecords } from "../../../chaos/checks.ts";
import type {
  AdmissionRecord,
  IncrementRecord,
  OpRecord,
  RefusalRecord,
  SharedReadRecord,
  WatchRecord,
} from "../../../chaos/protocol.ts";

const KEY = "a.g0";

function read(
  token: number,
  session: string,
  value: number,
  req: string,
  shared = true,
): AdmissionRecord {
  return {
    t: "admit",
    key: KEY,
    token: String(token),
    session,
    access: "read",
    ...(shared ? { mode: "shared" as const } : {}),
    value,
    req,
  };
}

function write(
  token: number,
  session: string,
  basedOn: number,
  req: string,
  before = basedOn,
): AdmissionRecord {
  return {
    t: "admit",
    key: KEY,
    token: String(token),
    session,
    access: "write",
    value: basedOn + 1,
    basedOn,
    before,
    req,
  };
}

function increment(
  token: number,
  session: string,
  read: number,
  req: string,
  ret: number,
): IncrementRecord {
  return {
    t: "incr",
    worker: "w1",
    key: KEY,
    session,
    token: String(token),
    read,
    status: 204,
    req,
    ret,
  };
}

function sharedRead(
  token: number,
  session: string,
  req: string,
  acquireCall: number,
  value?: number,
): SharedReadRecord {
  return {
    t: "sread",
    worker: "w2",
    key: KEY,
    session,
    token: String(token),
    status: value === undefined ? 409 : 200,
    req,
    acquireCall,
    ...(value !== undefined ? { value } : {}),
  };
}

function records(parts: Partial<RunRecords>): RunRecords {
  return {
    ops: [],
    sessions: [],
    watch: [],
    increments: [],
    sharedReads: [],
    admissions: [],
    refusals: [],
    final: { t: "final", live: [], call: 90_000, ret: 91_000, syncedIndex: "100" },
    ...parts,
  };
}

/**
 * Session 1 increments under token 5; sessions 2 and 3 read under token 7 (one entry's
 * shared grants), session 4 under token 8; session 1 increments again under token 9; then
 * session 5, paused since its shared grant of token 6, reads and is refused.
 */
function cleanRun(): RunRecords {
  const admissions = [
    read(5, "1", 0, "w1.1", false),
    write(5, "1", 0, "w1.2"),
    read(7, "2", 1, "w2.1"),
    read(7, "3", 1, "w3.1"),
    read(8, "4", 1, "w4.1"),
    read(9, "1", 1, "w1.3", false),
    write(9, "1", 1, "w1.4"),
  ];
  const refusals: RefusalRecord[] = [
    {
      t: "refuse",
      key: KEY,
      token: "6",
      session: "5",
      access: "read",
      mode: "shared",
      highest: "9",
    },
  ];
  return records({
    admissions,
    refusals,
    increments: [increment(5, "1", 0, "w1.2", 100), increment(9, "1", 1, "w1.4", 400)],
    sharedReads: [
      sharedRead(7, "2", "w2.1", 150, 1),
      sharedRead(7, "3", "w3.1", 160, 1),
      sharedRead(8, "4", "w4.1", 200, 1),
      sharedRead(6, "5", "w5.1", 50),
    ],
  });
}

describe("chaos checks of reads under shared grants", () => {
  it("pass readers that share a token, read every earlier increment and none of a later writer, and count a stale reader fenced off", () => {
    const report = runChecks(cleanRun());
    expect(report.violations).toEqual([]);
    expect(report.counts["shared reads admitted"]).toBe(3);
    expect(report.counts["shared reads fenced off (stale tokens)"]).toBe(1);
    expect(report.counts["shared reads checked against acknowledged increments"]).toBe(3);
    expect(report.counts["shared read violations"]).toBe(0);
  });

  it("fail a stale reader the store admitted after a higher exclusive token, whose value includes that writer's increment", () => {
    const run = cleanRun();
    run.refusals = [];
    run.admissions.push(read(6, "5", 2, "w5.1"));
    run.sharedReads = run.sharedReads.map((r) =>
      r.req === "w5.1" ? sharedRead(6, "5", "w5.1", 50, 2) : r,
    );
    const report = runChecks(run);
    expect(report.violations).toEqual([
      "store a.g0: shared read w5.1 under token 6 (session 5) admitted after exclusive token 9 (session 1): a stale reader not fenced off",
      "store a.g0: shared read w5.1 under token 6 (session 5) read 2, which includes an increment written under exclusive token 9 above it",
    ]);
    expect(report.counts["shared read violations"]).toBe(2);
  });

  it("fail an older writer's increment the store admitted after a read under a higher token, which missed it", () => {
    // Session 1 read under token 5 before the reader, and wrote after it.
    const run = records({
      admissions: [
        read(5, "1", 0, "w1.1", false),
        read(7, "2", 0, "w2.1"),
        write(5, "1", 0, "w1.2"),
      ],
      increments: [increment(5, "1", 0, "w1.2", 300)],
      sharedReads: [sharedRead(7, "2", "w2.1", 150, 0)],
    });
    const report = runChecks(run);
    expect(report.violations).toContain(
      "store a.g0: increment under exclusive token 5 (session 1) admitted after the shared read under the higher token 7 (session 2), " +
        "which read 0 without it: an older writer not fenced off",
    );
    expect(report.violations).toContain("store a.g0: token 5 admitted after 7 (shared)");
  });

  it("fail a read whose value is below the increments acknowledged before its Acquire was sent", () => {
    // The store's log is in order; the reader's token 7 is below the writer's 9 although
    // its Acquire was sent after the writer's increment was acknowledged.
    const run = records({
      admissions: [
        read(7, "2", 0, "w2.1"),
        read(9, "1", 0, "w1.1", false),
        write(9, "1", 0, "w1.2"),
      ],
      increments: [increment(9, "1", 0, "w1.2", 100)],
      sharedReads: [sharedRead(7, "2", "w2.1", 200, 0)],
    });
    expect(runChecks(run).violations).toEqual([
      "shared read w2.1 of a.g0 under token 7 (session 2): read 0, below the 1 increments acknowledged before its Acquire was sent at 200",
    ]);
  });

  it("fail a read of a value no write had made, and a reader answered other than the store admitted", () => {
    const run = cleanRun();
    run.admissions.splice(2, 1, read(7, "2", 3, "w2.1"));
    run.sharedReads = run.sharedReads.map((r) =>
      r.req === "w3.1" ? sharedRead(7, "3", "w3.1", 160, 2) : r,
    );
    const report = runChecks(run);
    expect(report.violations).toEqual([
      "store a.g0: shared read w2.1 under token 7 (session 2) read 3, a value no admitted write had made before it",
      "shared read w2.1 of a.g0 under token 7 (session 2): answered 1, the store admitted 3 under token 7",
      "shared read w3.1 of a.g0 under token 7 (session 3): answered 2, the store admitted 1 under token 7",
    ]);
  });
});

describe("chaos grant log with shared holders", () => {
  const LOCK = "counter/a.g0";
  /** The grant log's violations, each grant with the acknowledged Acquire it answered. */
  const grantLog = (watch: WatchRecord[]): string[] => {
    const ops: OpRecord[] = watch
      .filter((w) => w.kind === "acquired")
      .map((w, i) => ({
        t: "op",
        id: `w.${i}`,
        worker: "w",
        kind: "acquire",
        lock: LOCK,
        session: w.session,
        ...(w.mode ? { mode: w.mode } : {}),
        call: i,
        ret: i + 1,
        out: { kind: "granted", token: w.token ?? "" },
      }));
    const out: string[] = [];
    checkGrantLog(records({ ops, watch }), out, {});
    return out;
  };
  const event = (
    kind: WatchRecord["kind"],
    index: number,
    session: string,
    token: number,
    shared = false,
  ): WatchRecord => ({
    t: "watch",
    kind,
    index: String(index),
    lock: LOCK,
    session,
    token: String(token),
    ...(shared ? { mode: "shared" as const } : {}),
  });

  it("passes readers granted together at one entry (one token) and beside each other, then a writer once they are gone", () => {
    const watch = [
      event("acquired", 7, "2", 7, true),
      event("acquired", 7, "3", 7, true),
      event("acquired", 8, "4", 8, true),
      event("released", 9, "2", 7),
      event("released", 10, "3", 7),
      event("sessionExpired", 11, "4", 8),
      event("acquired", 11, "1", 11),
    ];
    expect(grantLog(watch)).toEqual([]);
  });

  it("fails a reader granted beside a writer, and a writer granted beside a reader", () => {
    const watch = [
      event("acquired", 5, "1", 5),
      event("acquired", 6, "2", 6, true),
      event("released", 7, "1", 5),
      event("acquired", 8, "3", 8),
    ];
    expect(grantLog(watch)).toEqual([
      "log counter/a.g0: granted to session 2 token 6 (shared) at index 6 while session 1 token 5 holds it",
      "log counter/a.g0: granted to session 3 token 8 at index 8 while session 2 token 6 (shared) holds it",
    ]);
  });
});
