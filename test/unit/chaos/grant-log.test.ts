// The chaos suite's grant-log check (chaos/checks.ts) across a gap in the watch: a lock whose
// grant fell in the gap, seen first by its release after it, is not a violation.
import { describe, expect, it } from "vitest";
import { checkGrantLog, type RunRecords } from "../../../chaos/checks.ts";
import type { OpRecord, WatchRecord } from "../../../chaos/protocol.ts";

/** Session `session`'s Acquire of `lock`, granted `token`. */
const acquire = (lock: string, session: string, token: string): OpRecord => ({
  t: "op",
  id: `${session}.${lock}`,
  worker: "w1",
  kind: "acquire",
  lock,
  session,
  call: 1,
  ret: 2,
  out: { kind: "granted", token },
});

function records(watch: WatchRecord[], ops: OpRecord[] = []): RunRecords {
  return {
    ops,
    sessions: [],
    increments: [],
    sharedReads: [],
    admissions: [],
    refusals: [],
    watch,
    final: { t: "final", live: [], call: 0, ret: 0, syncedIndex: "100" },
  };
}

describe("the grant log across a watch gap", () => {
  it("does not take a lock first seen after a gap for unheld: its grant may be in the gap", () => {
    const out: string[] = [];
    checkGrantLog(
      records(
        [
          { t: "watch", kind: "acquired", index: "5", lock: "a", session: "1", token: "5" },
          { t: "watch", kind: "resync", index: "20" },
          { t: "watch", kind: "released", index: "21", lock: "b", session: "2", token: "12" },
          { t: "watch", kind: "acquired", index: "22", lock: "b", session: "3", token: "22" },
        ],
        [acquire("a", "1", "5"), acquire("b", "3", "22")],
      ),
      out,
      {},
    );
    expect(out).toEqual([]);
  });

  it("still finds a release of an unheld lock when the watch had no gap", () => {
    const out: string[] = [];
    checkGrantLog(
      records([
        { t: "watch", kind: "released", index: "21", lock: "b", session: "2", token: "12" },
      ]),
      out,
      {},
    );
    expect(out).toEqual(["log b: released of session 2 token 12 at index 21, but nobody holds it"]);
  });
});
