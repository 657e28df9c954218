// Lock metrics from applied outcomes: hold and wait times between applies, grants and
// ends by kind and reason counted by the leader, queue lengths, and lock names kept out
// of the labels unless an allow-listed prefix names them.
import { describe, expect, it } from "vitest";
import type {
  ApplyOutcome,
  GrantMode,
  LockEvent,
  LockInfo,
  TimerChanges,
} from "../../../node/lock/index.ts";
import type { Role } from "../../../node/raft/types.ts";
import { NodeMetrics, type MetricsSource } from "../../../node/ops/metrics.ts";

const source: MetricsSource = {
  raft: () => ({
    role: "leader" as Role,
    term: 1,
    leader: 1,
    commit: 0,
    applied: 0,
    lastIndex: 0,
    followerLag: new Map(),
  }),
  lockStats: () => ({
    sessions: 0,
    lockEntries: 0,
    heldLocks: 0,
    waiters: 0,
    historyRecords: 0,
    rememberedRequestIds: 0,
    rememberedClosedSessions: 0,
  }),
};

function harness(lockPrefixes: string[] = []) {
  const clock = { now: 1_000, leader: true };
  const metrics = new NodeMetrics({ cluster: "c", node: 1 }, source, {
    lockPrefixes,
    locks: { now: () => clock.now, isLeader: () => clock.leader },
  });
  let index = 0;
  const apply = (
    events: Array<Omit<LockEvent, "index" | "wallMs">>,
    timers: Partial<TimerChanges> = {},
    result: ApplyOutcome["result"] = { kind: "released" },
    endedModes?: GrantMode[],
  ): void => {
    index++;
    const outcome: ApplyOutcome = {
      index,
      result,
      completions: [],
      events: events.map((e) => ({ ...e, index, wallMs: 0 })),
      ...(endedModes ? { endedModes } : {}),
      timers: {
        sessionsOpened: [],
        sessionsEnded: [],
        waitsStarted: [],
        waitsEnded: [],
        ...timers,
      },
    };
    metrics.applied(outcome);
  };
  return { clock, metrics, apply };
}

/** Label pairs of a series written `name{a="1",b="2"}`, in any order. */
function parseSeries(series: string): { name: string; labels: string[] } {
  const open = series.indexOf("{");
  if (open < 0) return { name: series, labels: [] };
  const labels = series.slice(open + 1, -1).match(/[a-z_]+="[^"]*"/g) ?? [];
  return { name: series.slice(0, open), labels: [...labels].sort() };
}

/** The value of one sample, whatever order prom-client wrote its labels in. */
function value(text: string, series: string): number | undefined {
  const want = parseSeries(series);
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line === "") continue;
    const space = line.lastIndexOf(" ");
    const got = parseSeries(line.slice(0, space));
    if (got.name === want.name && got.labels.join(",") === want.labels.join(","))
      return Number(line.slice(space + 1));
  }
  return undefined;
}

const L = 'cluster="c",node="1"';

describe("lock metrics", () => {
  it("grants and their ends are counted and timed by kind: shared holders each, a permit as semaphore, a set's locks as multi, a hold-limit revoke as its own reason", async () => {
    const { clock, metrics, apply } = harness();
    apply([{ type: "acquired", lock: "r", sessionId: 1n, token: 1n, mode: "shared" }]);
    apply([{ type: "acquired", lock: "r", sessionId: 2n, token: 2n, mode: "shared" }]);
    apply([
      {
        type: "acquired",
        lock: "s",
        sessionId: 3n,
        token: 3n,
        mode: "permit",
        slot: 0,
        permits: 2,
      },
    ]);
    apply(
      [
        { type: "acquired", lock: "a", sessionId: 4n, token: 4n },
        { type: "acquired", lock: "b", sessionId: 4n, token: 4n, mode: "shared" },
      ],
      {},
      {
        kind: "granted",
        token: 4n,
        holder: { sessionId: 4n, clientName: "", token: 4n, grantedIndex: 4n },
        grants: [
          { lock: "a", token: 4n, mode: "exclusive" },
          { lock: "b", token: 4n, mode: "shared" },
        ],
      },
    );
    clock.now += 3_000;
    // The first shared holder's release times its own grant, not the second's.
    apply([{ type: "released", lock: "r", sessionId: 1n, token: 1n }], {}, undefined, ["shared"]);
    clock.now += 1_000;
    apply([{ type: "released", lock: "r", sessionId: 2n, token: 2n }], {}, undefined, ["shared"]);
    apply(
      [{ type: "revoked", lock: "s", sessionId: 3n, token: 3n, revokedFor: "holdLimit" }],
      {},
      undefined,
      ["permit"],
    );
    apply(
      [
        { type: "released", lock: "a", sessionId: 4n, token: 4n },
        { type: "released", lock: "b", sessionId: 4n, token: 4n },
      ],
      {},
      undefined,
      ["exclusive", "shared"],
    );
    const text = await metrics.text();
    const grants = (kind: string): number | undefined =>
      value(text, `palisade_lock_grants_total{kind="${kind}",lock_prefix="",${L}}`);
    expect([grants("shared"), grants("semaphore"), grants("multi"), grants("exclusive")]).toEqual([
      2, 1, 2, 0,
    ]);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="shared",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBe(2);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_sum{kind="shared",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBeCloseTo(3 + 4);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="semaphore",reason="hold_limit",lock_prefix="",${L}}`,
      ),
    ).toBe(1);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="semaphore",reason="revoked",lock_prefix="",${L}}`,
      ),
    ).toBe(0);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="multi",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBe(2);
  });

  it("a grant of one lock counts by its own kind, though its answer lists its grants", async () => {
    const { metrics, apply } = harness();
    const holder = { sessionId: 5n, clientName: "c", token: 1n, grantedIndex: 1n };
    apply(
      [{ type: "acquired", lock: "a", sessionId: 5n, token: 1n }],
      {},
      { kind: "granted", token: 1n, holder, grants: [{ lock: "a", token: 1n, mode: "exclusive" }] },
    );
    apply(
      [{ type: "acquired", lock: "s", sessionId: 5n, token: 2n, mode: "shared" }],
      {},
      {
        kind: "granted",
        token: 2n,
        holder: { ...holder, token: 2n, grantedIndex: 2n },
        grants: [{ lock: "s", token: 2n, mode: "shared" }],
      },
    );
    const text = await metrics.text();
    const grants = (kind: string): number | undefined =>
      value(text, `palisade_lock_grants_total{kind="${kind}",lock_prefix="",${L}}`);
    expect([grants("exclusive"), grants("shared"), grants("multi")]).toEqual([1, 1, 0]);
  });

  it("the leader times a hold from the grant's apply to its release and counts the end by reason", async () => {
    const { clock, metrics, apply } = harness();
    apply([{ type: "acquired", lock: "a", sessionId: 5n, token: 1n }]);
    clock.now += 2_500;
    apply([{ type: "released", lock: "a", sessionId: 5n, token: 1n }]);
    apply([{ type: "acquired", lock: "a", sessionId: 6n, token: 3n }]);
    clock.now += 40_000;
    apply([{ type: "sessionExpired", lock: "a", sessionId: 6n, token: 3n }]);
    const text = await metrics.text();
    expect(value(text, `palisade_lock_grants_total{kind="exclusive",lock_prefix="",${L}}`)).toBe(2);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="exclusive",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBe(1);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="exclusive",reason="session_expired",lock_prefix="",${L}}`,
      ),
    ).toBe(1);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_sum{kind="exclusive",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBeCloseTo(2.5);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_bucket{le="1",kind="exclusive",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBe(0);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_bucket{le="5",kind="exclusive",reason="released",lock_prefix="",${L}}`,
      ),
    ).toBe(1);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_sum{kind="exclusive",reason="session_expired",lock_prefix="",${L}}`,
      ),
    ).toBeCloseTo(40);
  });

  it("elections count leader changes by how, and the time without a leader by how the lead ended, with no label per name", async () => {
    const { clock, metrics, apply } = harness();
    const lead = { mode: "leader" as const };
    apply([{ type: "acquired", lock: "e1", sessionId: 5n, token: 1n, ...lead }]);
    // A resign with a candidate waiting: taken over in the same entry.
    apply([
      { type: "released", lock: "e1", sessionId: 5n, token: 1n, ...lead },
      { type: "acquired", lock: "e1", sessionId: 6n, token: 2n, ...lead },
    ]);
    // A handoff to a named successor.
    apply([
      { type: "released", lock: "e1", sessionId: 6n, token: 2n, ended: "handedOff", ...lead },
      { type: "acquired", lock: "e1", sessionId: 7n, token: 3n, ...lead },
    ]);
    // The leader's session expires with nobody waiting: 4 s without a leader.
    apply([{ type: "sessionExpired", lock: "e1", sessionId: 7n, token: 3n, ...lead }]);
    apply([{ type: "proclaimed", lock: "e2", sessionId: 9n, token: 8n, ...lead }]);
    clock.now += 4_000;
    apply([{ type: "acquired", lock: "e1", sessionId: 8n, token: 5n, ...lead }]);
    const text = await metrics.text();
    const changes = (how: string): number | undefined =>
      value(text, `palisade_election_leader_changes_total{how="${how}",${L}}`);
    expect([changes("elected"), changes("succeeded"), changes("handed_off")]).toEqual([2, 1, 1]);
    expect(
      value(text, `palisade_election_leaderless_seconds_total{reason="session_expired",${L}}`),
    ).toBeCloseTo(4);
    expect(value(text, `palisade_election_leaderless_seconds_total{reason="released",${L}}`)).toBe(
      0,
    );
    expect(text).not.toContain("e1");
    expect(value(text, `palisade_lock_grants_total{kind="election",lock_prefix="",${L}}`)).toBe(4);
  });

  it("a queued Acquire's wait is timed from the apply that queued it to its grant, and the longest queue is reported", async () => {
    const { clock, metrics, apply } = harness();
    apply([{ type: "acquired", lock: "q", sessionId: 1n, token: 1n }]);
    apply([], { waitsStarted: [{ sessionId: 2n, lock: "q", acquireSeq: 1, waitMs: 10_000 }] });
    apply([], { waitsStarted: [{ sessionId: 3n, lock: "q", acquireSeq: 4, waitMs: 10_000 }] });
    expect(value(await metrics.text(), `palisade_lock_queue_length_max{lock_prefix="",${L}}`)).toBe(
      2,
    );
    clock.now += 300;
    apply(
      [
        { type: "released", lock: "q", sessionId: 1n, token: 1n },
        { type: "acquired", lock: "q", sessionId: 2n, token: 4n },
      ],
      { waitsEnded: [{ sessionId: 2n, acquireSeq: 1 }] },
    );
    // Session 3's wait times out: it ends without a grant and is not a wait-time sample.
    apply([], { waitsEnded: [{ sessionId: 3n, acquireSeq: 4 }] });
    const text = await metrics.text();
    expect(
      value(text, `palisade_lock_wait_seconds_count{kind="exclusive",lock_prefix="",${L}}`),
    ).toBe(1);
    expect(
      value(text, `palisade_lock_wait_seconds_sum{kind="exclusive",lock_prefix="",${L}}`),
    ).toBeCloseTo(0.3);
    expect(value(text, `palisade_lock_queue_length_max{lock_prefix="",${L}}`)).toBe(0);
  });

  it("a follower counts nothing, and once it leads it times a hold that began before", async () => {
    const { clock, metrics, apply } = harness();
    clock.leader = false;
    apply([{ type: "acquired", lock: "f", sessionId: 1n, token: 1n }]);
    clock.now += 1_000;
    clock.leader = true;
    apply([{ type: "revoked", lock: "f", sessionId: 1n, token: 1n }]);
    const text = await metrics.text();
    expect(value(text, `palisade_lock_grants_total{kind="exclusive",lock_prefix="",${L}}`)).toBe(0);
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="exclusive",reason="revoked",lock_prefix="",${L}}`,
      ),
    ).toBe(1);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_sum{kind="exclusive",reason="revoked",lock_prefix="",${L}}`,
      ),
    ).toBeCloseTo(1);
  });

  it("a grant recovered from the state is counted when it ends but not timed", async () => {
    const { metrics, apply } = harness();
    const recovered: LockInfo = {
      name: "r",
      holder: { sessionId: 1n, clientName: "", token: 9n, grantedAt: 9, waitedFrom: 9 },
      waiters: [],
    };
    metrics.lockStateReplaced([recovered]);
    apply([{ type: "sessionClosed", lock: "r", sessionId: 1n, token: 9n }]);
    const text = await metrics.text();
    expect(
      value(
        text,
        `palisade_lock_grants_ended_total{kind="exclusive",reason="session_closed",lock_prefix="",${L}}`,
      ),
    ).toBe(1);
    expect(
      value(
        text,
        `palisade_lock_hold_seconds_count{kind="exclusive",reason="session_closed",lock_prefix="",${L}}`,
      ),
    ).toBeUndefined();
  });

  it("lock names never appear as labels; an allow-listed prefix does, the longest that matches", async () => {
    const { metrics, apply } = harness(["orders/", "orders/eu/"]);
    apply([{ type: "acquired", lock: "orders/eu/7", sessionId: 1n, token: 1n }]);
    apply([{ type: "acquired", lock: "orders/42", sessionId: 1n, token: 2n }]);
    apply([{ type: "acquired", lock: "secret<script>", sessionId: 1n, token: 3n }]);
    const text = await metrics.text();
    expect(
      value(text, `palisade_lock_grants_total{kind="exclusive",lock_prefix="orders/eu/",${L}}`),
    ).toBe(1);
    expect(
      value(text, `palisade_lock_grants_total{kind="exclusive",lock_prefix="orders/",${L}}`),
    ).toBe(1);
    expect(value(text, `palisade_lock_grants_total{kind="exclusive",lock_prefix="",${L}}`)).toBe(1);
    expect(text).not.toContain("orders/42");
    expect(text).not.toContain("secret");
  });
});
