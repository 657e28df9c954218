"""Session bookkeeping over a connection whose answers the test decides: the deadline, the
keepalive's bounds, and which seqs count as answered."""
from __future__ import annotations

import threading
import unittest
from typing import Any, Callable, List, Optional

import grpc

from palisade import LimitError, MAX_IN_FLIGHT, OutcomeUnknownError, SessionLostError, WaitCancelledError
from palisade.connection import Cancelled
from palisade.errors import PalisadeError
from palisade.v1 import lock_pb2
from palisade.wire import REASON_METADATA_KEY, error_from_status

from .fakes import Call, FakeConnection, ManualTime, open_fake_session, wait_for


def kept_alive(ttl_ms: Optional[int], session_id: int = 7) -> lock_pb2.KeepAliveResponse:
    """A KeepAlive answer for the fake session: its TTL, or not found (None)."""
    found = ttl_ms is not None
    return lock_pb2.KeepAliveResponse(sessions=[lock_pb2.SessionKeptAlive(session_id=session_id, ttl_ms=ttl_ms or 0, not_found=not found)])


class Gate:
    """Holds calls until the test lets each one through with an answer."""

    def __init__(self) -> None:
        self.waiting: List[Call] = []
        self._answers: dict[int, Any] = {}
        self._cond = threading.Condition()

    def __call__(self, call: Call) -> Any:
        with self._cond:
            self.waiting.append(call)
            self._cond.notify_all()
            while id(call) not in self._answers:
                self._cond.wait()
            answer = self._answers.pop(id(call))
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def next(self, count: int = 1, timeout: float = 5.0) -> Call:
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.waiting) >= count, timeout):
                raise AssertionError(f"no call #{count} arrived")
            return self.waiting[count - 1]

    def answer(self, call: Call, answer: Any) -> None:
        with self._cond:
            self._answers[id(call)] = answer
            self._cond.notify_all()


class SessionDeadlineTest(unittest.TestCase):
    def setUp(self) -> None:
        self.time = ManualTime()
        self.keepalives = Gate()
        self.connection = FakeConnection(self.time.clock(), {
            "KeepAlive": self.keepalives,
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
        })
        self.session = open_fake_session(self.connection, ttl=30.0)
        self.addCleanup(self.release_gate)
        self.addCleanup(self.session.close)

    def release_gate(self) -> None:
        for call in list(self.keepalives.waiting):
            self.keepalives.answer(call, kept_alive(30_000))

    def test_the_deadline_is_the_last_acknowledged_send_plus_ttl_minus_the_drift_margin(self) -> None:
        opened = self.session.deadline + 0.65 - 30.0
        margin = 2 * 0.01 * 30.0 + 0.05
        self.assertAlmostEqual(self.session.deadline, opened + 30.0 - margin)
        first = self.keepalives.next(1)
        self.time.advance(10.0)
        self.keepalives.answer(first, kept_alive(30_000))
        second = self.keepalives.next(2)
        self.assertAlmostEqual(second.sent_at - first.sent_at, 10.0)
        self.time.advance(1.0)
        self.keepalives.answer(second, kept_alive(30_000))
        # Moved to the send time of the acknowledged keepalive, not its answer time.
        self.assertTrue(wait_for(lambda: abs(self.session.deadline - (second.sent_at + 30.0 - margin)) < 1e-9))

    def test_each_keepalive_attempt_and_its_failover_are_bounded_by_the_time_left(self) -> None:
        first = self.keepalives.next(1)
        left = self.session.deadline - first.sent_at
        self.assertEqual(first.kind, "read")
        self.assertAlmostEqual(first.budget or 0.0, left)
        self.assertEqual(first.attempt_timeout, 3.0)  # min(call timeout, a third of the time left)
        self.time.advance(25.0)
        self.keepalives.answer(first, OutcomeUnknownError("no answer"))
        late = self.keepalives.next(2)
        left = self.session.deadline - late.sent_at
        self.assertAlmostEqual(late.budget or 0.0, left)
        # A node that does not answer takes at most a third of what is left: there is time to fail over.
        self.assertAlmostEqual(late.attempt_timeout or 99.0, left / 3)

    def test_past_the_deadline_the_session_is_lost_and_a_late_keepalive_answer_does_not_revive_it(self) -> None:
        pending = self.keepalives.next(1)
        self.assertTrue(self.session.live)
        self.time.advance(29.4)  # the deadline is TTL minus 0.65 s after the OpenSession was sent
        self.assertTrue(wait_for(self.session.lost.is_set))
        self.assertEqual(self.session.state, "lost")
        self.keepalives.answer(pending, kept_alive(30_000))
        self.assertFalse(self.session.live)
        with self.assertRaises(SessionLostError):
            self.session.acquire("a")
        self.assertTrue(wait_for(lambda: len(self.connection.of("CloseSession")) == 1), "closed best effort")

    def test_a_keepalive_sent_before_the_deadline_and_answered_after_it_does_not_revive_the_session(self) -> None:
        # A tick far longer than the test: only the keepalive's own answer looks at the deadline.
        # The keepalive leaves later than the OpenSession, so its answer would move the deadline.
        keepalives = Gate()
        connection = FakeConnection(self.connection.clock, {"KeepAlive": keepalives, "CloseSession": lambda call: lock_pb2.CloseSessionResponse()})
        session = open_fake_session(connection, ttl=300.0, tick=60.0, opened_ago=10.0)
        self.addCleanup(session.close)
        pending = keepalives.next(1)
        self.assertGreater(pending.sent_at + 300.0 - 66.0, session.deadline)
        self.time.advance(session.deadline - pending.sent_at + 0.01)
        keepalives.answer(pending, kept_alive(300_000))
        self.assertTrue(wait_for(session.lost.is_set))
        self.assertEqual(session.state, "lost")

    def test_a_suspend_longer_than_the_ttl_loses_the_session_though_the_monotonic_clock_stood_still(self) -> None:
        self.keepalives.next(1)
        self.time.advance(31.0, wall_only=True)
        self.assertFalse(self.session.live)
        self.assertTrue(self.session.lost.is_set())

    def test_a_keepalive_answered_not_found_loses_the_session(self) -> None:
        first = self.keepalives.next(1)
        self.keepalives.answer(first, kept_alive(None))
        self.assertTrue(wait_for(self.session.lost.is_set))
        self.assertIn("ended session 7", self.session.reason)
        lost = self.session.lost_error
        assert lost is not None
        self.assertEqual((lost.code, lost.reason), (grpc.StatusCode.NOT_FOUND, "ERROR_REASON_SESSION_NOT_FOUND"))

    def test_a_keepalive_answered_permission_denied_loses_the_session_with_that_reason(self) -> None:
        ended: List[str] = []
        self.session.add_end_callback(lambda state, reason: ended.append(f"{state}: {reason}"))
        first = self.keepalives.next(1)
        denied = lock_pb2.KeepAliveResponse(sessions=[lock_pb2.SessionKeptAlive(session_id=7, permission_denied=True)])
        self.keepalives.answer(first, denied)
        self.assertTrue(wait_for(self.session.lost.is_set))
        self.assertEqual(self.session.state, "lost")
        self.assertIn("refused session 7: permission denied", self.session.reason)
        self.assertEqual(ended, [f"lost: {self.session.reason}"])
        lost = self.session.lost_error
        assert lost is not None
        self.assertEqual((lost.code, lost.reason), (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_PERMISSION_DENIED"))
        with self.assertRaises(SessionLostError) as raised:
            self.session.acquire("l")
        self.assertEqual(raised.exception.reason, "ERROR_REASON_PERMISSION_DENIED")
        self.assertIn("permission denied", raised.exception.message)
        # Lost for good: no further keepalive, and no CloseSession the cluster would refuse too.
        self.assertEqual(len(self.connection.of("KeepAlive")), 1)
        self.assertEqual(self.connection.of("CloseSession"), [])

    def test_a_session_past_its_deadline_is_lost_without_a_cluster_reason(self) -> None:
        self.keepalives.next(1)
        self.time.advance(31.0)
        self.assertFalse(self.session.live)
        lost = self.session.lost_error
        assert lost is not None
        self.assertEqual((lost.code, lost.reason), (None, None))


class SessionWritesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.time = ManualTime()
        self.releases = Gate()
        self.acquires: List[Call] = []
        self.connection = FakeConnection(self.time.clock(), {
            "KeepAlive": lambda call: threading.Event().wait(30) or lock_pb2.KeepAliveResponse(),
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
            "Release": self.releases,
            "Acquire": self.acquire,
            "CancelWait": lambda call: lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_CANCELLED),
        })
        self.session = open_fake_session(self.connection, ttl=30.0)
        self.addCleanup(self.session.close)

    def acquire(self, call: Call) -> lock_pb2.AcquireResponse:
        self.acquires.append(call)
        return lock_pb2.AcquireResponse(acquired=True, token=100 + call.request.seq)

    def test_a_release_whose_outcome_is_unknown_is_retried_with_the_same_seq_and_not_counted_as_answered(self) -> None:
        release = threading.Thread(target=self.expect_unknown_release)
        release.start()
        first = self.releases.next(1)
        self.releases.answer(first, OutcomeUnknownError("no answer within the budget"))
        release.join(5)
        self.assertFalse(release.is_alive())
        self.assertEqual(first.request.seq, 1)
        self.assertEqual(self.session.in_flight, 1)
        self.assertEqual(self.session.acknowledgements(), (0, []))
        settled = threading.Event()
        self.session.after_settled("a", settled.set)
        # Later writes carry a mark below the unanswered seq.
        result = self.session.acquire("b")
        self.assertEqual(result.seq, 2)
        self.assertEqual((self.acquires[0].request.acked_up_to, list(self.acquires[0].request.held)), (0, []))
        self.assertEqual(self.session.acknowledgements(), (0, [2]))
        # The session retries the Release itself, with its seq, until an answer comes.
        retry = self.releases.next(2)
        self.assertEqual((retry.request.seq, retry.request.token, retry.request.lock), (1, 55, "a"))
        self.releases.answer(retry, OutcomeUnknownError("still no answer"))
        retry = self.releases.next(3)
        self.assertEqual((retry.request.seq, retry.request.token, retry.request.lock), (1, 55, "a"))
        # Each try carries the latest acknowledgements below its own seq (the node refuses a
        # held seq at or above it); a newer write carries them all.
        self.assertEqual((retry.request.acked_up_to, list(retry.request.held)), (0, []))
        self.session.acquire("c")
        self.assertEqual((self.acquires[1].request.seq, self.acquires[1].request.acked_up_to, list(self.acquires[1].request.held)), (3, 0, [2]))
        self.assertFalse(settled.is_set())
        self.assertEqual(self.session.in_flight, 1)
        self.releases.answer(retry, lock_pb2.ReleaseResponse())
        self.assertTrue(settled.wait(5))
        self.assertEqual(self.session.acknowledgements(), (3, []))
        self.assertEqual(self.session.in_flight, 0)

    def expect_unknown_release(self) -> None:
        try:
            self.session.release("a", 55)
        except OutcomeUnknownError:
            return
        raise AssertionError("expected OutcomeUnknownError")

    def test_an_acquire_carries_a_shared_mode_a_semaphores_permits_and_holder_data_and_an_exclusive_one_none(self) -> None:
        self.session.acquire("r", mode="shared", data="report job")
        self.session.acquire("s", permits=3)
        self.session.acquire("x")
        shared, permit, exclusive = (c.request for c in self.acquires)
        self.assertEqual((shared.mode, shared.holder_data), (lock_pb2.LOCK_MODE_SHARED, "report job".encode()))
        self.assertTrue(permit.HasField("permits"))
        self.assertEqual(permit.permits, 3)
        self.assertFalse(exclusive.HasField("permits"))
        self.assertEqual((exclusive.mode, exclusive.holder_data), (lock_pb2.LOCK_MODE_UNSPECIFIED, b""))

    def test_a_bad_value_is_refused_before_a_seq_is_used(self) -> None:
        from palisade import InvalidArgumentError

        bad_calls: List[Callable[[], object]] = [
            lambda: self.session.acquire("a", wait=-1.0),
            lambda: self.session.acquire("a", wait=float("nan")),
            lambda: self.session.release("a", 0),
            lambda: self.session.release("a", -3),
            lambda: self.session.acquire("\ud800"),
            lambda: self.session.acquire("a", mode="read"),  # type: ignore[arg-type]
            lambda: self.session.acquire("a", permits=0),
            lambda: self.session.acquire("a", permits=2, mode="shared"),
            lambda: self.session.acquire("a", data="\ud800"),
        ]
        for bad in bad_calls:
            with self.assertRaises(InvalidArgumentError):
                bad()
        self.assertEqual(self.session.next_seq, 1)
        self.assertEqual([c.method for c in self.connection.calls if c.method != "KeepAlive"], [])

    def test_the_client_keeps_at_most_64_writes_in_flight(self) -> None:
        def never_answered(call: Call) -> Any:
            raise OutcomeUnknownError("no answer")

        self.connection.handlers["Release"] = never_answered
        for _ in range(MAX_IN_FLIGHT):
            self.expect_unknown_release()
        self.assertEqual(self.session.in_flight, MAX_IN_FLIGHT)
        with self.assertRaises(LimitError):
            self.session.acquire("b")
        self.assertEqual(self.acquires, [])


def node_error(code: grpc.StatusCode, reason: str) -> PalisadeError:
    """The error a node's status with `reason` becomes, as the connection raises it."""
    return error_from_status(code, reason.lower(), [(REASON_METADATA_KEY, reason)])


#: Refusals that record nothing: the cancel never reached the state machine's answer table.
REFUSALS = {
    "rate limited": lambda: node_error(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_RATE_LIMITED"),
    "too many in flight": lambda: node_error(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_TOO_MANY_IN_FLIGHT"),
    "internal error": lambda: node_error(grpc.StatusCode.INTERNAL, "ERROR_REASON_INTERNAL"),
}

#: How the caller loses an Acquire's answer: it gives up the wait, or no answer comes in time.
ABANDONS = {
    "cancelled by the caller": (lambda: Cancelled(), WaitCancelledError),
    "outcome unknown": (lambda: OutcomeUnknownError("no answer within the budget"), OutcomeUnknownError),
}


class AbandonedAcquireTest(unittest.TestCase):
    """An Acquire whose answer the caller did not get is settled through CancelWait, and a
    grant that won the race is released."""

    def start(self, abandon: str, cancel_answers: List[Any]) -> None:
        self.time = ManualTime()
        make_error, self.raised = ABANDONS[abandon]
        self.cancel_answers = list(cancel_answers)
        self.connection = FakeConnection(self.time.clock(), {
            "KeepAlive": lambda call: threading.Event().wait(30) or lock_pb2.KeepAliveResponse(),
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
            "Acquire": lambda call: raise_(make_error()),
            "CancelWait": self.cancel_wait,
            "Release": lambda call: lock_pb2.ReleaseResponse(),
        })
        self.session = open_fake_session(self.connection, ttl=30.0)
        self.addCleanup(self.session.close)

    def cancel_wait(self, call: Call) -> lock_pb2.CancelWaitResponse:
        answer = self.cancel_answers.pop(0) if len(self.cancel_answers) > 1 else self.cancel_answers[0]
        if isinstance(answer, BaseException):
            raise answer
        assert isinstance(answer, lock_pb2.CancelWaitResponse)
        return answer

    def abandon_acquire(self) -> threading.Event:
        """Acquires "a" (seq 1) and loses its answer; answers an event set once it is settled."""
        with self.assertRaises(self.raised):
            self.session.acquire("a", wait=10.0)
        settled = threading.Event()
        self.session.after_settled("a", settled.set)
        return settled

    def test_a_cancel_wait_refused_by_a_limit_or_a_server_error_is_sent_again_until_the_cluster_answers_it(self) -> None:
        granted = lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_GRANTED, token=90)
        for abandon in ABANDONS:
            for refusal, refused in REFUSALS.items():
                with self.subTest(abandon=abandon, refusal=refusal):
                    self.start(abandon, [refused(), refused(), granted])
                    settled = self.abandon_acquire()
                    self.assertTrue(settled.wait(10))
                    cancels = self.connection.of("CancelWait")
                    self.assertEqual([(c.request.lock, c.request.acquire_seq) for c in cancels], [("a", 1)] * 3,
                                     f"a CancelWait refused ({refusal}) was taken for the Acquire's answer")
                    # The grant the wait won is released, with its own seq.
                    self.assertEqual([(c.request.lock, c.request.token, c.request.seq) for c in self.connection.of("Release")], [("a", 90, 2)])
                    self.assertEqual(self.session.in_flight, 0)
                    self.assertEqual(self.session.acknowledgements(), (2, []))
                    self.session.close()

    def test_a_cancel_wait_answered_with_an_error_about_its_seq_settles_the_acquire_at_once(self) -> None:
        answers = {
            "request too old": lambda: node_error(grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_REQUEST_TOO_OLD"),
            "not an acquire of this lock": lambda: node_error(grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_NOT_AN_ACQUIRE"),
        }
        for abandon in ABANDONS:
            for name, answer in answers.items():
                with self.subTest(abandon=abandon, answer=name):
                    self.start(abandon, [answer()])
                    settled = self.abandon_acquire()
                    self.assertTrue(settled.wait(10))
                    self.assertEqual(len(self.connection.of("CancelWait")), 1)
                    self.assertEqual(self.connection.of("Release"), [])
                    self.assertEqual(self.session.in_flight, 0)
                    self.session.close()


def raise_(error: BaseException) -> Any:
    raise error


if __name__ == "__main__":
    unittest.main()
