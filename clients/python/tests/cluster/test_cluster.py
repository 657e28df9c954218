"""The Python client against a real three-node cluster.

Run by test/integration/python-client.test.ts, one test per child process, which starts
the cluster, passes its endpoints in PALISADE_ENDPOINTS and answers the requests in
tests/cluster/control.py (kill the leader, pause this process).
"""
from __future__ import annotations

import os
import signal
import threading
import time
import unittest
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, List, Optional

import grpc

from palisade import (
    ElectionEvent,
    ElectionObserver,
    FailedPreconditionError,
    InvalidArgumentError,
    LockBusyError,
    LockNotAcquiredError,
    NotHolderError,
    OutcomeUnknownError,
    PalisadeClient,
    PalisadeError,
    RequestTooOldError,
    SessionLostError,
    StaleTokenError,
    WaitCancelledError,
)
from palisade.v1 import lock_pb2, lock_pb2_grpc
from palisade.wire import error_from_rpc

from . import control
from .interceptors import LoseAnswer, Recorder, RefuseWhile, WithholdAnswer

ENDPOINTS: list[str] = []


def setUpModule() -> None:
    ENDPOINTS.extend(control.endpoints())


def wait_until(what: str, check: Callable[[], bool], timeout: float = 10.0) -> None:
    give_up_at = time.monotonic() + timeout
    while not check():
        if time.monotonic() > give_up_at:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def summary(e: ElectionEvent) -> str:
    if e.kind == "no_leader":
        return f"none({e.ended or '-'})"
    assert e.leader is not None
    return f"{e.kind}:{e.leader.value}@{e.leader.token}"


class ClusterTest(unittest.TestCase):
    def client(self, **options: object) -> PalisadeClient:
        settings: dict[str, object] = {"call_timeout": 2.0, "retry_budget": 15.0, "client_name": self._testMethodName}
        settings.update(options)
        endpoints = settings.pop("endpoints", ENDPOINTS)
        client = PalisadeClient(endpoints, **settings)  # type: ignore[arg-type]
        self.addCleanup(client.close)
        return client

    def background(self) -> ThreadPoolExecutor:
        """Threads for campaigns that wait; shut down after the clients closed (which ends their waits)."""
        pool = ThreadPoolExecutor(max_workers=4)
        self.addCleanup(pool.shutdown, wait=False, cancel_futures=True)
        return pool

    def observe_into(self, client: PalisadeClient, election: str, events: List[ElectionEvent], from_index: Optional[int] = None) -> ElectionObserver:
        """Collects an election's events in a thread until the observer is closed."""
        observer = client.elections.observe(election, from_index=from_index)
        self.addCleanup(observer.close)
        failed: List[PalisadeError] = []

        def run() -> None:
            try:
                events.extend(observer)
            except PalisadeError as err:
                failed.append(err)

        threading.Thread(target=run, name=f"observe-{election}", daemon=True).start()
        self.addCleanup(lambda: self.assertEqual(failed, []))
        return observer

    def test_an_acquire_sent_to_a_follower_follows_the_leader_hint(self) -> None:
        leader = control.ask("leader")[0]
        follower = control.ask("followers")[0]
        recorder = Recorder()
        # Only a follower's address: the leader can be reached only through its hint.
        client = self.client(endpoints=[follower], interceptors=[recorder])
        with client.lock("py/hint") as lock:
            self.assertGreater(lock.token, 0)
            self.assertEqual(client.get_lock("py/hint").holder.token, lock.token)  # type: ignore[union-attr]
        opens = recorder.of("OpenSession")
        # The leader's answer last, after the follower's redirect naming it: the client knew
        # no other way there. On a loaded machine any attempt may also fail as retryable
        # (UNAVAILABLE: a connection not ready in time) and be sent again.
        self.assertEqual(opens[-1].code, grpc.StatusCode.OK)
        self.assertEqual([a.code for a in opens[:-1]], [grpc.StatusCode.UNAVAILABLE] * (len(opens) - 1), [a.reason for a in opens])
        redirects = [a for a in opens[:-1] if a.reason == "ERROR_REASON_NOT_LEADER"]
        self.assertGreaterEqual(len(redirects), 1, [a.reason for a in opens])
        self.assertEqual({a.leader_hint for a in redirects}, {leader})
        # Every later write went straight to the leader.
        self.assertEqual([a.code for a in recorder.of("Acquire")], [grpc.StatusCode.OK])
        self.assertEqual([a.code for a in recorder.of("Release")], [grpc.StatusCode.OK])
        self.assertEqual(list(client.endpoints), [follower, leader])
        self.assertEqual(client.current_endpoint, leader)

    def test_an_acquire_whose_answer_is_lost_with_the_leader_is_retried_with_the_same_seq_and_takes_effect_once(self) -> None:
        killed: list[str] = []
        loser = LoseAnswer("Acquire", after=lambda: killed.extend(control.ask("kill-leader")))
        recorder = Recorder()
        client = self.client(interceptors=[recorder, loser])
        try:
            session = client.open_session(ttl=10.0)
            result = session.acquire("py/once")
            self.assertEqual(len(killed), 1, "the leader was killed after the first answer")
            self.assertEqual(len(loser.lost_answers), 1)
            first_answer = loser.lost_answers[0]
            # The retry got the first answer: the same grant, not a second one.
            self.assertTrue(first_answer.acquired)
            self.assertTrue(result.acquired)
            self.assertEqual(result.token, first_answer.token)
            attempts = recorder.of("Acquire")
            self.assertGreaterEqual(len(attempts), 2)
            self.assertEqual({a.request.seq for a in attempts}, {result.seq})
            self.assertEqual(session.acknowledgements(), (result.seq, []))
            history = client.history("py/once")
            self.assertEqual([(r.token, r.session_id, r.reason) for r in history], [(result.token, session.id, "current")])
            # The session and its grant survived the failover; the next write takes the next seq.
            assert result.token is not None
            session.release("py/once", result.token)
            releases = recorder.of("Release")
            self.assertEqual({a.request.seq for a in releases}, {result.seq + 1})
            self.assertEqual([r.reason for r in client.history("py/once")], ["released"])
        finally:
            if killed:
                control.ask("restart", killed[0])

    def test_a_release_whose_outcome_is_unknown_goes_on_with_its_seq_and_frees_the_lock_after_later_writes(self) -> None:
        unreachable = threading.Event()
        unreachable.set()
        refuser = RefuseWhile("Release", unreachable)
        recorder = Recorder()
        # The refused release gives up once the budget is spent; the budget is also every other
        # call's, which a loaded machine's cluster must be able to answer within.
        client = self.client(retry_budget=5.0, interceptors=[recorder, refuser])
        with self.assertRaises(OutcomeUnknownError):
            with client.lock("py/unknown-release") as lock:
                pass
        session = lock.session
        release_seq = recorder.of("Release")[0].request.seq
        self.assertEqual(session.in_flight, 1)
        # The name stays claimed while its release is unsettled.
        with self.assertRaises(LockBusyError):
            client.lock("py/unknown-release")
        # A later write is answered meanwhile: the release's seq must not be counted with it.
        later = session.acquire("py/unknown-release-later")
        self.assertEqual(later.seq, release_seq + 1)
        self.assertEqual(session.acknowledgements(), (release_seq - 1, [later.seq]))
        unreachable.clear()
        # A second release() waits until the one going on in the background is answered.
        lock.release()
        self.assertIsNone(client.get_lock("py/unknown-release").holder)
        self.assertEqual([(r.token, r.reason) for r in client.history("py/unknown-release")], [(lock.token, "released")])
        self.assertEqual({a.request.seq for a in recorder.of("Release")}, {release_seq})
        self.assertGreater(refuser.refused, 1)
        wait_until("the release to be settled", lambda: session.in_flight == 0)
        self.assertEqual(session.acknowledgements(), (later.seq, []))
        with client.lock("py/unknown-release") as again:
            self.assertGreater(again.token, lock.token)

    def test_a_session_paused_past_its_ttl_is_lost_for_good_and_its_lock_goes_to_another_session(self) -> None:
        # A TTL that only the pause outlasts, not this process's own stalls on a loaded machine.
        client = self.client(session_ttl=3.0)
        lock = client.lock("py/paused")
        session = lock.session
        self.assertTrue(lock.held)
        # The runner stops this process (SIGSTOP) until another session has been granted the lock.
        token_text, holder_text = control.ask("pause-until-taken", "py/paused")
        other_token, other_session = int(token_text), int(holder_text)
        self.assertFalse(lock.held)  # checked against the deadline now, before any thread ran
        self.assertTrue(lock.lost.wait(1.0))
        self.assertTrue(session.lost.is_set())
        self.assertEqual(session.state, "lost")
        self.assertNotEqual(other_session, session.id)
        self.assertGreater(other_token, lock.token)
        holder = client.get_lock("py/paused").holder
        assert holder is not None
        self.assertEqual((holder.session_id, holder.token), (other_session, other_token))
        # Lost for good: keepalives of later periods (a third of the TTL) do not revive it.
        time.sleep(1.5)
        self.assertTrue(session.lost.is_set())
        self.assertFalse(session.live)
        with self.assertRaises(SessionLostError):
            session.acquire("py/paused-other")
        lock.release()  # a no-op on a lost grant
        control.ask("release-taken", "py/paused")
        # The client's next lock() opens a new session.
        with client.lock("py/paused", wait=5.0) as again:
            self.assertNotEqual(again.session_id, session.id)
            self.assertGreater(again.token, other_token)

    def test_bad_input_raises_the_matching_error_and_changes_nothing(self) -> None:
        client = self.client()
        session = client.open_session(ttl=10.0)
        held = session.acquire("py/bad")
        assert held.token is not None
        for name in ["", "x" * 257, "bell\x07"]:
            with self.subTest(name=name), self.assertRaises(InvalidArgumentError) as caught:
                session.acquire(name)
            self.assertEqual(caught.exception.reason, "ERROR_REASON_INVALID_ARGUMENT")
            self.assertEqual(caught.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        for ttl in [0.1, 7200.0]:
            with self.subTest(ttl=ttl), self.assertRaises(InvalidArgumentError) as caught:
                client.open_session(ttl=ttl)
            self.assertEqual(caught.exception.reason, "ERROR_REASON_INVALID_ARGUMENT")
        with self.assertRaises(InvalidArgumentError) as caught:
            session.acquire("py/bad-wait", wait=7200.0)
        self.assertEqual(caught.exception.reason, "ERROR_REASON_INVALID_ARGUMENT")
        # Refused before sending: no seq is used.
        before = session.next_seq
        refused_here: list[Callable[[], object]] = [
            lambda: session.acquire("py/bad", wait=-1),
            lambda: session.release("py/bad", 0),
            lambda: session.acquire(7),  # type: ignore[arg-type]
        ]
        for bad in refused_here:
            with self.assertRaises(InvalidArgumentError) as caught:
                bad()
            self.assertIsNone(caught.exception.reason)
        self.assertEqual(session.next_seq, before)
        with self.assertRaises(StaleTokenError) as stale:
            session.release("py/bad", held.token + 1)
        self.assertEqual(stale.exception.reason, "ERROR_REASON_STALE_TOKEN")
        with self.assertRaises(NotHolderError) as not_holder:
            session.release("py/never-held", held.token)
        self.assertEqual(not_holder.exception.reason, "ERROR_REASON_NOT_HOLDER")
        # A delayed duplicate of an answered write (its seq at or below the mark) is refused.
        leader = control.ask("leader")[0]
        with grpc.insecure_channel(leader) as channel:
            stub = lock_pb2_grpc.LockServiceStub(channel)
            self.assertGreater(session.acknowledgements()[0], held.seq)
            duplicate = lock_pb2.ReleaseRequest(session_id=session.id, lock="py/bad", token=held.token, seq=held.seq, acked_up_to=0)
            with self.assertRaises(grpc.RpcError) as raw:
                stub.Release(duplicate, timeout=5)
        too_old = error_from_rpc(raw.exception)
        self.assertIsInstance(too_old, RequestTooOldError)
        self.assertEqual(too_old.reason, "ERROR_REASON_REQUEST_TOO_OLD")
        # Nothing changed: the grant is still current, and every write was answered.
        holder = client.get_lock("py/bad").holder
        assert holder is not None
        self.assertEqual((holder.session_id, holder.token), (session.id, held.token))
        self.assertEqual(session.in_flight, 0)
        self.assertTrue(session.live)
        session.release("py/bad", held.token)
        self.assertIsNone(client.get_lock("py/bad").holder)
        session.close()
        self.assertIsNone(client.get_session(session.id))
        with self.assertRaises(SessionLostError):
            session.acquire("py/bad")

    def test_the_context_manager_releases_the_lock_on_exit_also_when_the_body_raises(self) -> None:
        client = self.client()
        other = self.client()
        with client.lock("py/with") as lock:
            holder = client.get_lock("py/with").holder
            assert holder is not None
            self.assertEqual((holder.session_id, holder.token), (lock.session_id, lock.token))
            self.assertTrue(lock.held)
            with self.assertRaises(LockBusyError):
                client.lock("py/with")
            with self.assertRaises(LockNotAcquiredError) as refused:
                other.lock("py/with")
            self.assertEqual(refused.exception.holder_token, lock.token)
            self.assertEqual([s.lock for s in client.list_locks(prefix="py/with").locks], ["py/with"])
        self.assertFalse(lock.held)
        self.assertIsNone(client.get_lock("py/with").holder)
        with self.assertRaises(ValueError):
            with client.lock("py/with") as second:
                raise ValueError("the body failed")
        self.assertIsNone(client.get_lock("py/with").holder)
        history = client.history("py/with")
        self.assertEqual([(r.token, r.reason) for r in history], [(lock.token, "released"), (second.token, "released")])

    def test_a_wait_given_up_sends_cancel_wait_and_a_grant_that_arrives_anyway_is_released(self) -> None:
        holder = self.client()
        held = holder.lock("py/cancel")

        def waiters() -> int:
            return len(holder.get_lock("py/cancel").waiters)

        # 1. The caller's cancel event.
        waiter = self.client()
        cancel = threading.Event()

        def cancel_once_queued() -> None:
            wait_until("a waiter", lambda: waiters() == 1)
            cancel.set()

        threading.Thread(target=cancel_once_queued, daemon=True).start()
        with self.assertRaises(WaitCancelledError):
            waiter.lock("py/cancel", wait=30.0, cancel=cancel)
        self.assertEqual(waiters(), 0)
        # The name is free again for this client (not LockBusyError).
        with self.assertRaises(LockNotAcquiredError):
            waiter.lock("py/cancel")

        # 2. Ctrl-C while waiting.
        def interrupt_once_queued() -> None:
            wait_until("a waiter", lambda: waiters() == 1)
            os.kill(os.getpid(), signal.SIGINT)

        threading.Thread(target=interrupt_once_queued, daemon=True).start()
        with self.assertRaises(KeyboardInterrupt):
            waiter.lock("py/cancel", wait=30.0)
        self.assertEqual(waiters(), 0)

        # 3. The grant comes, but its answer never reaches the caller; the caller gives up.
        withhold = WithholdAnswer("Acquire")
        late = self.client(interceptors=[withhold])
        give_up = threading.Event()

        def grant_then_give_up() -> None:
            wait_until("a waiter", lambda: waiters() == 1)
            held.release()
            wait_until("the waiter's grant", lambda: holder.get_lock("py/cancel").holder is not None)
            give_up.set()

        threading.Thread(target=grant_then_give_up, daemon=True).start()
        with self.assertRaises(WaitCancelledError):
            late.lock("py/cancel", wait=30.0, cancel=give_up)
        self.assertEqual(len(withhold.withheld), 1)
        self.assertTrue(withhold.withheld[0].result(timeout=5).acquired, "the withheld answer was a grant")
        # The late grant was released before lock() returned.
        self.assertIsNone(holder.get_lock("py/cancel").holder)
        history = holder.history("py/cancel")
        self.assertEqual([r.reason for r in history], ["released", "released"])
        self.assertEqual(history[1].token, withhold.withheld[0].result().token)

    def test_a_campaign_leads_a_second_waits_proclaim_changes_the_value_and_resign_elects_the_next_observed_in_order(self) -> None:
        a, b, c = self.client(client_name="a"), self.client(client_name="b"), self.client(client_name="c")
        pool = self.background()
        events: List[ElectionEvent] = []
        # Observed from the start: the first event is the state (no leader yet).
        observer = self.observe_into(c, "py/e-basic", events)
        wait_until("the first observed event", lambda: len(events) >= 1)

        lead_a = a.elections.campaign("py/e-basic", "host-a")
        self.assertGreater(lead_a.token, 0)
        self.assertTrue(lead_a.held)
        read = c.elections.leader("py/e-basic")
        assert read.leader is not None
        self.assertEqual(
            (read.leader.token, read.leader.value, read.leader.client_name, read.leader.session_id),
            (lead_a.token, "host-a", "a", lead_a.session_id),
        )
        self.assertEqual(read.candidate_count, 0)

        leading_b = pool.submit(b.elections.campaign, "py/e-basic", "host-b")
        wait_until("b to be a candidate", lambda: c.elections.leader("py/e-basic").candidate_count == 1)
        self.assertFalse(leading_b.done())
        lead_a.proclaim("host-a2")
        self.assertEqual(lead_a.value, "host-a2")
        self.assertEqual(getattr(c.elections.leader("py/e-basic").leader, "value", None), "host-a2")

        lead_a.resign()
        self.assertFalse(lead_a.held)
        lead_b = leading_b.result(timeout=30)
        self.assertGreater(lead_b.token, lead_a.token)
        read = c.elections.leader("py/e-basic")
        assert read.leader is not None
        self.assertEqual((read.leader.token, read.leader.value, read.candidate_count), (lead_b.token, "host-b", 0))
        lead_b.resign()
        wait_until("every change observed", lambda: len(events) >= 5)
        observer.close()
        self.assertEqual([summary(e) for e in events], [
            "none(-)",
            f"leader:host-a@{lead_a.token}",
            f"value:host-a2@{lead_a.token}",
            # The resign and b's lead are one entry: no moment without a leader between them.
            f"leader:host-b@{lead_b.token}",
            "none(released)",
        ])
        indexes = [e.index for e in events]
        self.assertEqual(indexes, sorted(set(indexes)))

        # Resumed from an index: exactly the changes from there on.
        resumed: List[ElectionEvent] = []
        again = self.observe_into(c, "py/e-basic", resumed, from_index=lead_a.token + 1)
        wait_until("the resumed events", lambda: len(resumed) >= 3)
        again.close()
        self.assertEqual([summary(e) for e in resumed], [summary(e) for e in events[2:]])

    def test_resign_and_release_hand_over_to_a_named_waiting_session_in_one_entry(self) -> None:
        a, b, c = self.client(client_name="a"), self.client(client_name="b"), self.client(client_name="c")
        pool = self.background()
        lead = a.elections.campaign("py/e-handoff", "a")
        first = pool.submit(b.elections.campaign, "py/e-handoff", "b")
        wait_until("b to wait", lambda: a.elections.leader("py/e-handoff").candidate_count == 1)
        named = pool.submit(c.elections.campaign, "py/e-handoff", "c")
        wait_until("c to wait", lambda: a.elections.leader("py/e-handoff").candidate_count == 2)
        events: List[ElectionEvent] = []
        observer = self.observe_into(a, "py/e-handoff", events, from_index=lead.token)
        successor = c.elections.session_id()
        lead.resign(to=successor)
        lead_c = named.result(timeout=30)
        self.assertGreater(lead_c.token, lead.token)
        self.assertEqual(lead_c.session_id, successor)
        self.assertFalse(first.done(), "b still waits: the named candidate went ahead of it")
        wait_until("the handoff observed", lambda: len(events) >= 2)
        observer.close()
        self.assertEqual([summary(e) for e in events], [f"leader:a@{lead.token}", f"leader:c@{lead_c.token}"])
        self.assertEqual([(r.token, r.reason) for r in a.history("py/e-handoff")], [(lead.token, "handed_off"), (lead_c.token, "current")])
        lead_c.resign()
        lead_b = first.result(timeout=30)
        self.assertGreater(lead_b.token, lead_c.token)
        lead_b.resign()

        # An exclusive lock is handed over the same way.
        held = a.lock("py/e-lock-handoff")
        waiting = pool.submit(b.lock, "py/e-lock-handoff", 30.0)
        wait_until("b to wait for the lock", lambda: a.get_lock("py/e-lock-handoff").waiter_count == 1)
        held.release(successor=b.elections.session_id())
        handed = waiting.result(timeout=30)
        self.assertGreater(handed.token, held.token)
        self.assertEqual([r.reason for r in a.history("py/e-lock-handoff")], ["handed_off", "current"])
        handed.release()

    def test_observe_resumes_on_another_node_when_its_node_is_killed_without_a_gap(self) -> None:
        leader, leader_id = control.ask("leader")
        # The leader first: a new client's first stream goes there.
        watcher = self.client(endpoints=[leader, *[e for e in ENDPOINTS if e != leader]])
        a = self.client(client_name="a")
        events: List[ElectionEvent] = []
        observer = self.observe_into(watcher, "py/e-failover", events)
        wait_until("the first observed event", lambda: len(events) >= 1)
        lead = a.elections.campaign("py/e-failover", "v1")
        wait_until("the lead observed", lambda: len(events) >= 2)
        killed = control.ask("kill-leader")
        try:
            self.assertEqual(killed[0], leader_id, "the node the stream was on was killed")
            lead.proclaim("v2")
            lead.resign()
            wait_until("the changes after the kill observed", lambda: len(events) >= 4, timeout=30.0)
            observer.close()
            self.assertEqual([summary(e) for e in events], ["none(-)", f"leader:v1@{lead.token}", f"value:v2@{lead.token}", "none(released)"])
            indexes = [e.index for e in events]
            self.assertEqual(indexes, sorted(set(indexes)))
            self.assertFalse(any(e.resync for e in events))
        finally:
            control.ask("restart", killed[0])

    def test_election_bad_input_raises_the_matching_error_and_changes_nothing(self) -> None:
        a, b, c = self.client(), self.client(), self.client()
        lead = a.elections.campaign("py/e-bad", "v")
        # Proclaim and Resign by a session that does not lead.
        candidate = b.open_session(ttl=10.0)
        with self.assertRaises(NotHolderError) as not_leader:
            candidate.resign("py/e-bad", lead.token)
        self.assertEqual(not_leader.exception.reason, "ERROR_REASON_NOT_HOLDER")
        with self.assertRaises(NotHolderError):
            candidate.proclaim("py/e-bad", lead.token, "x")
        # Handoff to oneself, and to a session that is not waiting: nothing changes.
        with self.assertRaises(InvalidArgumentError):
            lead.resign(to=lead.session_id)
        idle = c.open_session(ttl=10.0)
        with self.assertRaises(FailedPreconditionError) as refused:
            lead.resign(to=idle.id)
        self.assertEqual(refused.exception.reason, "ERROR_REASON_SUCCESSOR_NOT_WAITING")
        self.assertEqual(refused.exception.code, grpc.StatusCode.FAILED_PRECONDITION)
        self.assertTrue(lead.held)
        # An election and a lock of one name are refused to each other, Observe included.
        with self.assertRaises(FailedPreconditionError) as mismatch:
            b.lock("py/e-bad")
        self.assertEqual(mismatch.exception.reason, "ERROR_REASON_KIND_MISMATCH")
        with b.lock("py/e-bad-lock"):
            with self.assertRaises(FailedPreconditionError) as as_election:
                c.elections.campaign("py/e-bad-lock", wait=0)
            self.assertEqual(as_election.exception.reason, "ERROR_REASON_KIND_MISMATCH")
            with c.elections.observe("py/e-bad-lock") as observer, self.assertRaises(FailedPreconditionError) as observed:
                next(observer)
            self.assertEqual(observed.exception.reason, "ERROR_REASON_KIND_MISMATCH")
        # A campaign that does not wait while another leads is not elected.
        with self.assertRaises(LockNotAcquiredError) as not_elected:
            b.elections.campaign("py/e-bad", wait=0)
        self.assertEqual((not_elected.exception.holder_session_id, not_elected.exception.holder_token), (lead.session_id, lead.token))
        # Nothing changed: a still leads with its value, and every write was answered.
        read = c.elections.leader("py/e-bad")
        assert read.leader is not None
        self.assertEqual((read.leader.token, read.leader.value, read.candidate_count), (lead.token, "v", 0))
        lead.proclaim("w")
        self.assertEqual(lead.session.in_flight, 0)
        # Proclaim with the same session's earlier token.
        lead.resign()
        again = a.elections.campaign("py/e-bad", "again")
        with self.assertRaises(StaleTokenError):
            lead.session.proclaim("py/e-bad", lead.token, "late")
        self.assertEqual(getattr(c.elections.leader("py/e-bad").leader, "value", None), "again")
        again.resign()


    # ---- upgradeable locks -----------------------------------------------------------------

    def upgrading_since(self, client: PalisadeClient, name: str, session_id: int) -> Optional[int]:
        """The index the upgrade of `session_id`'s grant of `name` waits since (None: none waits)."""
        mine = [h for h in client.get_lock(name).holders if h.session_id == session_id]
        return mine[0].upgrading_since_index if mine else None

    def test_an_upgrade_waits_for_the_readers_only_and_goes_before_a_queued_writer(self) -> None:
        name = "py/up-order"
        up, r1, r2, writer_client, other = (self.client(client_name=n) for n in ("up", "r1", "r2", "w", "other"))
        pool = self.background()
        handle = up.lock(name, mode="upgradeable")
        readers = [r1.lock(name, mode="shared"), r2.lock(name, mode="shared")]
        first = handle.token
        # Beside the readers, but a second upgradeable request waits (here until its wait ends).
        with self.assertRaises(LockNotAcquiredError):
            other.lock(name, mode="upgradeable", wait=0.5)
        writer = pool.submit(writer_client.lock, name, 60.0)
        wait_until("the writer to queue", lambda: up.get_lock(name).waiter_count == 1)

        # Not upgraded within its wait: the upgradeable hold goes on under its token.
        self.assertFalse(handle.upgrade(wait=0.5))
        self.assertEqual((handle.mode, handle.token, handle.held), ("upgradeable", first, True))
        self.assertTrue(up.validate_token(name, first))
        info = up.get_lock(name)
        self.assertEqual(
            sorted((h.session_id, h.mode, h.upgrading_since_index) for h in info.holders),
            sorted([(handle.session_id, "upgradeable", None), (readers[0].session_id, "shared", None), (readers[1].session_id, "shared", None)]),
        )

        upgrading = pool.submit(handle.upgrade, 60.0)
        wait_until("the upgrade to wait", lambda: self.upgrading_since(up, name, handle.session_id) is not None)
        # A reader that comes now waits too: the pending upgrade keeps new shared requests out.
        late_reader = pool.submit(other.lock, name, 60.0, None, mode="shared")
        wait_until("the late reader to queue", lambda: up.get_lock(name).waiter_count == 2)
        readers[0].release()
        self.assertIsNotNone(self.upgrading_since(up, name, handle.session_id), "one reader is left")
        self.assertFalse(upgrading.done())
        readers[1].release()
        self.assertTrue(upgrading.result(timeout=30))
        self.assertEqual(handle.mode, "exclusive")
        self.assertGreater(handle.token, first)
        self.assertFalse(up.validate_token(name, first))
        self.assertTrue(up.validate_token(name, handle.token))
        # The writer, queued before the upgrade began, still waits: the upgrade went first.
        info = up.get_lock(name)
        assert info.holder is not None
        self.assertEqual(
            (info.holder.session_id, info.holder.token, info.holder.mode, info.holder.upgrading_since_index, info.holder_count),
            (handle.session_id, handle.token, "exclusive", None, 1),
        )
        self.assertEqual([w.session_id for w in info.waiters], [writer_client.elections.session_id(), other.elections.session_id()])
        self.assertFalse(writer.done())

        handle.release()
        written = writer.result(timeout=30)
        self.assertGreater(written.token, handle.token)
        written.release()
        late_reader.result(timeout=30).release()
        mine = [(r.token, r.reason) for r in up.history(name) if r.session_id == handle.session_id]
        self.assertEqual(mine, [(first, "upgraded"), (handle.token, "released")])

    def test_a_downgrade_admits_the_waiting_readers_and_every_mode_change_grows_the_token(self) -> None:
        name = "py/down"
        owner, r1, r2 = (self.client(client_name=n) for n in ("owner", "r1", "r2"))
        pool = self.background()
        handle = owner.lock(name)
        tokens = [handle.token]
        waiting = [pool.submit(r.lock, name, 60.0, None, mode="shared") for r in (r1, r2)]
        wait_until("both readers to queue", lambda: owner.get_lock(name).waiter_count == 2)

        handle.downgrade("upgradeable")
        tokens.append(handle.token)
        self.assertEqual(handle.mode, "upgradeable")
        readers = [f.result(timeout=30) for f in waiting]
        # The downgrade's log entry granted the readers beside it: its token is theirs.
        self.assertEqual([r.token for r in readers], [handle.token, handle.token])
        info = owner.get_lock(name)
        self.assertEqual((info.holder_count, info.waiter_count), (3, 0))
        self.assertEqual(sorted(h.mode for h in info.holders), ["shared", "shared", "upgradeable"])
        for reader in readers:
            reader.release()

        # The only holder now: upgraded at once.
        self.assertTrue(handle.upgrade())
        tokens.append(handle.token)
        handle.downgrade("shared")
        tokens.append(handle.token)
        self.assertEqual(handle.mode, "shared")
        self.assertEqual(tokens, sorted(set(tokens)), "each mode change makes a grant with a greater token")
        self.assertEqual([owner.validate_token(name, t) for t in tokens], [False, False, False, True])
        mine = [(r.token, r.reason) for r in owner.history(name) if r.session_id == handle.session_id]
        self.assertEqual(mine, [(tokens[0], "downgraded"), (tokens[1], "upgraded"), (tokens[2], "downgraded"), (tokens[3], "current")])
        # A shared grant neither upgrades nor downgrades; the cluster never saw either.
        with self.assertRaises(FailedPreconditionError):
            handle.upgrade()
        with self.assertRaises(FailedPreconditionError):
            handle.downgrade("upgradeable")
        handle.release()
        self.assertIsNone(owner.get_lock(name).holder)
        self.assertEqual(handle.session.in_flight, 0)

    def test_an_upgrade_waiting_on_a_killed_leader_reattaches_with_its_seq_and_takes_effect_once(self) -> None:
        name = "py/up-failover"
        recorder = Recorder()
        up = self.client(client_name="up", interceptors=[recorder])
        other = self.client(client_name="r")
        pool = self.background()
        handle = up.lock(name, mode="upgradeable")
        first = handle.token
        reader = other.lock(name, mode="shared")
        upgrading = pool.submit(handle.upgrade, 60.0)
        wait_until("the upgrade to wait", lambda: self.upgrading_since(other, name, handle.session_id) is not None)
        killed = control.ask("kill-leader")
        try:
            reader.release()
            self.assertTrue(upgrading.result(timeout=60))
            attempts = recorder.of("Upgrade")
            self.assertGreaterEqual(len(attempts), 2, [a.code for a in attempts])
            self.assertEqual(len({a.request.seq for a in attempts}), 1)
            self.assertGreater(handle.token, first)
            mine = [(r.token, r.reason) for r in other.history(name) if r.session_id == handle.session_id]
            self.assertEqual(mine, [(first, "upgraded"), (handle.token, "current")])
            handle.release()
            self.assertEqual(handle.session.in_flight, 0)
        finally:
            control.ask("restart", killed[0])


if __name__ == "__main__":
    unittest.main()
