// NodeMetrics: scrape-time gauges, counters and histograms in the exposition text, and
// the storage writes and the proposal wrapper that feed the latency histograms.
import { describe, expect, it } from "vitest";
import type { StateStats } from "../../../node/lock/index.ts";
import type { Role } from "../../../node/raft/types.ts";
import { NodeMetrics, timeProposals, type MetricsSource } from "../../../node/ops/metrics.ts";

const stats: StateStats = {
  sessions: 3,
  lockEntries: 5,
  heldLocks: 2,
  waiters: 4,
  historyRecords: 9,
  rememberedRequestIds: 3,
  rememberedClosedSessions: 0,
};

function source(role: Role, lag: Map<number, number> = new Map()): MetricsSource {
  return {
    raft: () => ({
      role,
      term: 7,
      leader: 2,
      commit: 40,
      applied: 39,
      lastIndex: 41,
      followerLag: lag,
    }),
    lockStats: () => stats,
  };
}

/** The value of one sample line, e.g. value(text, 'palisade_raft_term{cluster="c",node="2"}'). */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const L = 'cluster="c",node="2"';

describe("NodeMetrics", () => {
  it("reports Raft and lock state read at scrape time, labelled with cluster and node", async () => {
    const m = new NodeMetrics(
      { cluster: "c", node: 2 },
      source(
        "leader",
        new Map([
          [1, 0],
          [3, 12],
        ]),
      ),
    );
    const text = await m.text();
    expect(value(text, `palisade_raft_role{role="leader",${L}}`)).toBe(1);
    expect(value(text, `palisade_raft_role{role="follower",${L}}`)).toBe(0);
    expect(value(text, `palisade_raft_term{${L}}`)).toBe(7);
    expect(value(text, `palisade_raft_leader_id{${L}}`)).toBe(2);
    expect(value(text, `palisade_raft_commit_index{${L}}`)).toBe(40);
    expect(value(text, `palisade_raft_applied_index{${L}}`)).toBe(39);
    expect(value(text, `palisade_raft_last_index{${L}}`)).toBe(41);
    expect(value(text, `palisade_raft_follower_lag_entries{follower="3",${L}}`)).toBe(12);
    expect(value(text, `palisade_sessions{${L}}`)).toBe(3);
    expect(value(text, `palisade_locks_held{${L}}`)).toBe(2);
    expect(value(text, `palisade_lock_waiters{${L}}`)).toBe(4);
    // Event-loop delay comes with prom-client's default metrics.
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{/m);
  });

  it("counts leader changes, proposals, expiries and rejections", async () => {
    const m = new NodeMetrics({ cluster: "c", node: 2 }, source("follower"));
    m.leaderChanged();
    m.leaderChanged();
    m.proposalCommitted(0.003);
    m.proposalFailed();
    m.appendSent(5);
    m.storageWrite({ seconds: 0.0007, sync: true, saves: 1 });
    m.requestRejected("Acquire", "rate_limited");
    m.requestRejected("Acquire", "rate_limited");
    const expiry = {
      index: 9,
      result: { kind: "sessionExpired" },
      completions: [],
      events: [
        { type: "sessionExpired", index: 9, lock: "a", sessionId: 1n, token: 3n, wallMs: 0 },
        { type: "acquired", index: 9, lock: "a", sessionId: 2n, token: 9n, wallMs: 0 },
      ],
      timers: { sessionsOpened: [], sessionsEnded: [1n], waitsStarted: [], waitsEnded: [] },
    } as const;
    m.applied(expiry as unknown as Parameters<NodeMetrics["applied"]>[0]);
    const text = await m.text();
    expect(value(text, `palisade_raft_leader_changes_total{${L}}`)).toBe(2);
    expect(value(text, `palisade_proposals_total{result="committed",${L}}`)).toBe(1);
    expect(value(text, `palisade_proposals_total{result="failed",${L}}`)).toBe(1);
    expect(value(text, `palisade_proposal_commit_seconds_bucket{le="0.005",${L}}`)).toBe(1);
    expect(value(text, `palisade_proposal_commit_seconds_bucket{le="0.002",${L}}`)).toBe(0);
    expect(value(text, `palisade_raft_append_entries_batch_size_bucket{le="8",${L}}`)).toBe(1);
    expect(value(text, `palisade_raft_append_entries_batch_size_bucket{le="4",${L}}`)).toBe(0);
    expect(value(text, `palisade_storage_fsync_seconds_count{${L}}`)).toBe(1);
    expect(
      value(text, `palisade_requests_rejected_total{method="Acquire",reason="rate_limited",${L}}`),
    ).toBe(2);
    expect(value(text, `palisade_session_expiries_total{${L}}`)).toBe(1);
    expect(value(text, `palisade_lock_expiries_total{${L}}`)).toBe(1);
  });

  it("keeps the series of two nodes in one process apart", async () => {
    const a = new NodeMetrics({ cluster: "c", node: 1 }, source("leader"));
    const b = new NodeMetrics({ cluster: "c", node: 2 }, source("follower"));
    a.leaderChanged();
    expect(value(await a.text(), 'palisade_raft_leader_changes_total{cluster="c",node="1"}')).toBe(
      1,
    );
    expect(value(await b.text(), `palisade_raft_leader_changes_total{${L}}`)).toBe(0);
  });
});

describe("storageWrite", () => {
  it("times synced writes only, and counts the batches each write carried", async () => {
    const m = new NodeMetrics({ cluster: "c", node: 2 }, source("leader"));
    m.storageWrite({ seconds: 0.004, sync: true, saves: 3 });
    m.storageWrite({ seconds: 0.5, sync: false, saves: 1 });
    const text = await m.text();
    expect(value(text, `palisade_storage_fsync_seconds_count{${L}}`)).toBe(1);
    expect(value(text, `palisade_storage_fsync_seconds_sum{${L}}`)).toBe(0.004);
    expect(value(text, `palisade_storage_batches_per_write_sum{${L}}`)).toBe(4);
    expect(value(text, `palisade_storage_batches_per_write_count{${L}}`)).toBe(2);
  });
});

describe("peerRoundTrip", () => {
  it("observes round trips by peer", async () => {
    const m = new NodeMetrics({ cluster: "c", node: 2 }, source("leader"));
    m.peerRoundTrip(1, 0.0003);
    m.peerRoundTrip(1, 0.004);
    m.peerRoundTrip(3, 0.0002);
    const text = await m.text();
    expect(value(text, `palisade_raft_peer_rtt_seconds_count{${L},peer="1"}`)).toBe(2);
    expect(value(text, `palisade_raft_peer_rtt_seconds_bucket{le="0.0005",${L},peer="1"}`)).toBe(1);
    expect(value(text, `palisade_raft_peer_rtt_seconds_count{${L},peer="3"}`)).toBe(1);
  });
});

describe("timeProposals", () => {
  it("observes each proposal once, committed or failed, and returns the same promises", async () => {
    const m = new NodeMetrics({ cluster: "c", node: 2 }, source("leader"));
    let clock = 0;
    const ok = Promise.resolve(1);
    const bad = Promise.reject(new Error("lost"));
    bad.catch(() => undefined);
    const propose = timeProposals(
      () => [ok, bad],
      m,
      () => clock,
    );
    const out = propose([new Uint8Array(1), new Uint8Array(1)]);
    clock = 20;
    expect(out[0]).toBe(ok);
    expect(out[1]).toBe(bad);
    await Promise.allSettled(out);
    await new Promise((r) => setTimeout(r, 0));
    const text = await m.text();
    expect(value(text, `palisade_proposals_total{result="committed",${L}}`)).toBe(1);
    expect(value(text, `palisade_proposals_total{result="failed",${L}}`)).toBe(1);
    expect(value(text, `palisade_proposal_commit_seconds_sum{${L}}`)).toBe(0.02);
  });

  it("counts stream frames and calls as they pass, the same on every read", async () => {
    const m = new NodeMetrics({ cluster: "c", node: 2 }, source("leader"));
    m.streams.frameIn(3);
    m.streams.frameIn(1);
    m.streams.frameOut(4);
    m.proposalCommitted(0.001);
    for (let read = 0; read < 2; read++) {
      const text = await m.text();
      expect(value(text, `palisade_client_stream_frames_total{direction="in",${L}}`)).toBe(2);
      expect(value(text, `palisade_client_stream_calls_total{direction="in",${L}}`)).toBe(4);
      expect(value(text, `palisade_client_stream_frames_total{direction="out",${L}}`)).toBe(1);
      expect(value(text, `palisade_client_stream_calls_total{direction="out",${L}}`)).toBe(4);
      expect(value(text, `palisade_proposals_total{result="committed",${L}}`)).toBe(1);
    }
    m.streams.frameOut(2);
    const text = await m.text();
    expect(value(text, `palisade_client_stream_calls_total{direction="out",${L}}`)).toBe(6);
  });
});
