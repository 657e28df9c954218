// The Python client (clients/python) against a real three-node cluster, locks and
// elections: each test runs one test of clients/python/tests/cluster/test_cluster.py in its
// own Python process, and this side does what that process cannot do itself (kill the
// leader, stop the process with SIGSTOP while another session takes its lock).
import { describe, expect, it } from "vitest";
import type { LockHandle, PalisadeClient } from "../../client/index.ts";
import { clusterForTests, type Cluster } from "./harness.ts";
import { runPythonTest, type ControlHandler } from "./python-process.ts";

let cluster: Cluster;
let tsClient: PalisadeClient;
/** Locks this side took while the Python process was stopped, by name. */
const taken = new Map<string, LockHandle>();

clusterForTests({ nodes: 3 }, (started) => {
  cluster = started;
  tsClient = cluster.client({ clientName: "python-test-peer", sessionTtlMs: 10_000 });
  return async () => {
    await Promise.allSettled([...taken.values()].map((h) => h.release()));
  };
});

const handlers: Readonly<Record<string, ControlHandler>> = {
  async leader() {
    const id = await cluster.leaderId();
    return [cluster.endpoint(id), String(id)];
  },
  // The followers that name the leader: a majority agreeing on a leader does not mean every
  // follower has heard from it yet (one restarted or cut off a moment ago answers NO_LEADER).
  async followers() {
    const leader = await cluster.leaderId();
    let named: number[] = [];
    await cluster.waitFor("a follower that names the leader", async () => {
      const live = cluster.ids.filter((id) => id !== leader && cluster.isRunning(id));
      const statuses = await Promise.all(
        live.map((id) => cluster.status(id).catch(() => undefined)),
      );
      named = live.filter((_, i) => statuses[i]?.leaderId === leader);
      return named.length > 0;
    });
    return named.map((id) => cluster.endpoint(id));
  },
  async "kill-leader"() {
    const id = await cluster.leaderId();
    await cluster.kill(id, "SIGKILL");
    return [String(id)];
  },
  async restart([id]) {
    const node = Number(id);
    await cluster.restart(node);
    await cluster.waitFor(
      `node ${node} back`,
      async () => (await cluster.status(node)).appliedIndex > 0n,
    );
    await cluster.leaderId();
    return [];
  },
  async "pause-until-taken"([lock], child) {
    if (!lock) throw new Error("pause-until-taken needs a lock name");
    process.kill(child.pid, "SIGSTOP");
    try {
      // Granted only once the stopped process's session has expired on the cluster.
      const handle = await tsClient.lock(lock, { waitMs: 20_000 });
      taken.set(lock, handle);
      return [String(handle.token), String(handle.sessionId)];
    } finally {
      process.kill(child.pid, "SIGCONT");
    }
  },
  async "release-taken"([lock]) {
    const handle = lock ? taken.get(lock) : undefined;
    if (!handle) throw new Error(`this side holds no lock ${lock}`);
    taken.delete(lock);
    await handle.release();
    return [];
  },
};

/** Runs one Python test and fails with its report unless it ran and passed. */
async function passes(method: string, signal: AbortSignal): Promise<void> {
  const test = `tests.cluster.test_cluster.ClusterTest.${method}`;
  const run = await runPythonTest(
    test,
    { PALISADE_ENDPOINTS: cluster.endpoints.join(",") },
    handlers,
    signal,
  );
  const report = `python ${test}: exit ${run.code ?? run.signal}\n${run.stderr}\ncontrol:\n${run.requests.join("\n")}\nstdout:\n${run.stdout}`;
  expect(run.code, report).toBe(0);
  expect(run.stderr, report).toMatch(/^Ran 1 test in /m);
  expect(run.stderr, report).toMatch(/^OK$/m);
}

describe("Python client on a real cluster", () => {
  it("an acquire sent to a follower follows the leader hint", async ({ signal }) => {
    await passes("test_an_acquire_sent_to_a_follower_follows_the_leader_hint", signal);
  });

  it("an acquire whose answer is lost with the killed leader is retried with the same seq and takes effect once", async ({
    signal,
  }) => {
    await passes(
      "test_an_acquire_whose_answer_is_lost_with_the_leader_is_retried_with_the_same_seq_and_takes_effect_once",
      signal,
    );
  });

  it("a release whose outcome is unknown goes on with its seq and frees the lock once a node answers, after later writes", async ({
    signal,
  }) => {
    await passes(
      "test_a_release_whose_outcome_is_unknown_goes_on_with_its_seq_and_frees_the_lock_after_later_writes",
      signal,
    );
  });

  it("a process stopped past its session TTL finds its session lost for good and its lock with another session", async ({
    signal,
  }) => {
    await passes(
      "test_a_session_paused_past_its_ttl_is_lost_for_good_and_its_lock_goes_to_another_session",
      signal,
    );
  });

  it("bad input raises the matching error class and changes nothing", async ({ signal }) => {
    await passes("test_bad_input_raises_the_matching_error_and_changes_nothing", signal);
  });

  it("the context manager releases the lock on exit, also when the body raises", async ({
    signal,
  }) => {
    await passes(
      "test_the_context_manager_releases_the_lock_on_exit_also_when_the_body_raises",
      signal,
    );
  });

  it("a wait given up (cancel event, Ctrl-C) sends CancelWait, and a grant that arrives anyway is released", async ({
    signal,
  }) => {
    await passes(
      "test_a_wait_given_up_sends_cancel_wait_and_a_grant_that_arrives_anyway_is_released",
      signal,
    );
  });

  it("a campaign leads, a second client waits, proclaim changes the value, resign elects the waiting one; Observe sees each change in order", async ({
    signal,
  }) => {
    await passes(
      "test_a_campaign_leads_a_second_waits_proclaim_changes_the_value_and_resign_elects_the_next_observed_in_order",
      signal,
    );
  });

  it("resign(to=...) and release(successor=...) hand over to a named waiting session in one entry", async ({
    signal,
  }) => {
    await passes(
      "test_resign_and_release_hand_over_to_a_named_waiting_session_in_one_entry",
      signal,
    );
  });

  it("an Observe stream whose node is killed resumes on another node without a gap", async ({
    signal,
  }) => {
    await passes(
      "test_observe_resumes_on_another_node_when_its_node_is_killed_without_a_gap",
      signal,
    );
  });

  it("election bad input (a non-leader resigns, a successor not waiting) raises the matching error and changes nothing", async ({
    signal,
  }) => {
    await passes("test_election_bad_input_raises_the_matching_error_and_changes_nothing", signal);
  });

  it("an upgrade waits for the readers only and goes before a queued writer; one not granted in time keeps the upgradeable hold", async ({
    signal,
  }) => {
    await passes(
      "test_an_upgrade_waits_for_the_readers_only_and_goes_before_a_queued_writer",
      signal,
    );
  });

  it("a downgrade admits the waiting readers, and every mode change grows the token", async ({
    signal,
  }) => {
    await passes(
      "test_a_downgrade_admits_the_waiting_readers_and_every_mode_change_grows_the_token",
      signal,
    );
  });

  it("an upgrade waiting on a killed leader re-attaches with its seq and takes effect once", async ({
    signal,
  }) => {
    await passes(
      "test_an_upgrade_waiting_on_a_killed_leader_reattaches_with_its_seq_and_takes_effect_once",
      signal,
    );
  });
});
