"""Elections without a cluster: Campaign, Proclaim and Resign are numbered writes as Acquire
and Release are (seq, acknowledgements, the same seq when retried), a withdrawn campaign is
settled through CancelWait and a lead that arrived anyway resigned, and handoffs name their
successor."""
from __future__ import annotations

import threading
import unittest
from typing import Any, Callable, List, Tuple

import grpc

from palisade import FailedPreconditionError, InvalidArgumentError, OutcomeUnknownError, WaitCancelledError
from palisade.connection import Cancelled
from palisade.errors import PalisadeError
from palisade.session import Session
from palisade.types import Leader
from palisade.v1 import lock_pb2
from palisade.wire import REASON_METADATA_KEY, error_from_status

from .fakes import Call, FakeConnection, ManualTime, open_fake_session, wait_for


def node_error(code: grpc.StatusCode, reason: str) -> PalisadeError:
    """The error a node's status with `reason` becomes, as the connection raises it."""
    return error_from_status(code, reason.lower(), [(REASON_METADATA_KEY, reason)])


def raise_(error: BaseException) -> Any:
    raise error


def idle_keepalive(call: Call) -> lock_pb2.KeepAliveResponse:
    return lock_pb2.KeepAliveResponse(sessions=[lock_pb2.SessionKeptAlive(session_id=7, ttl_ms=30_000)])


def leadership(session_id: int, token: int, value: str = "") -> lock_pb2.Leadership:
    return lock_pb2.Leadership(session_id=session_id, client_name=f"c{session_id}", token=token, since_index=token, value=value.encode())


def elected(call: Call) -> lock_pb2.CampaignResponse:
    token = 100 + call.request.seq
    return lock_pb2.CampaignResponse(elected=True, token=token, leader=leadership(7, token, call.request.value.decode()))


def not_elected(call: Call) -> lock_pb2.CampaignResponse:
    return lock_pb2.CampaignResponse(elected=False, leader=leadership(3, 50))


class SessionElectionWritesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.connection = FakeConnection(ManualTime().clock(), {
            "KeepAlive": idle_keepalive,
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
            "Campaign": elected,
            "Proclaim": lambda call: lock_pb2.ProclaimResponse(),
            "Resign": lambda call: lock_pb2.ResignResponse(),
            "Release": lambda call: lock_pb2.ReleaseResponse(),
            "Acquire": lambda call: lock_pb2.AcquireResponse(acquired=True, token=100 + call.request.seq),
        })
        self.session = open_fake_session(self.connection)
        self.addCleanup(self.session.close)

    def test_campaign_proclaim_and_resign_are_numbered_writes_with_the_acknowledgements(self) -> None:
        result = self.session.campaign("e", "host-a", wait=2.5)
        self.assertEqual((result.elected, result.seq, result.token), (True, 1, 101))
        self.assertEqual(result.leader, Leader(7, "c7", 101, 101, "host-a"))
        self.session.proclaim("e", 101, "host-a2")
        self.session.resign("e", 101, successor=9)
        campaign, = (c.request for c in self.connection.of("Campaign"))
        proclaim, = (c.request for c in self.connection.of("Proclaim"))
        resign, = (c.request for c in self.connection.of("Resign"))
        self.assertEqual((campaign.election, campaign.value, campaign.wait_ms, campaign.seq), ("e", b"host-a", 2_500, 1))
        self.assertEqual((proclaim.election, proclaim.token, proclaim.value, proclaim.seq, proclaim.acked_up_to), ("e", 101, b"host-a2", 2, 1))
        self.assertEqual((resign.election, resign.token, resign.successor_session_id, resign.seq, resign.acked_up_to), ("e", 101, 9, 3, 2))
        # A campaign that may wait is an attempt as long as its wait plus the call timeout.
        self.assertEqual(self.connection.of("Campaign")[0].attempt_timeout, 2.5 + 3.0)
        self.assertEqual(self.session.acknowledgements(), (3, []))

    def test_release_and_resign_name_a_successor_only_when_given_one(self) -> None:
        self.session.release("l", 5)
        self.session.release("l", 6, successor=12)
        self.session.resign("e", 7)
        plain, handed = (c.request for c in self.connection.of("Release"))
        self.assertEqual((plain.successor_session_id, handed.successor_session_id), (0, 12))
        self.assertEqual(self.connection.of("Resign")[0].request.successor_session_id, 0)

    def test_a_campaign_not_elected_names_the_leader(self) -> None:
        self.connection.handlers["Campaign"] = not_elected
        result = self.session.campaign("e", wait=0)
        self.assertFalse(result.elected)
        self.assertIsNone(result.token)
        self.assertEqual(result.leader, Leader(3, "c3", 50, 50, ""))
        self.assertEqual(self.session.in_flight, 0)

    def test_a_refused_handoff_counts_its_seq_as_answered(self) -> None:
        self.connection.handlers["Resign"] = lambda call: raise_(node_error(grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_SUCCESSOR_NOT_WAITING"))
        with self.assertRaises(FailedPreconditionError) as refused:
            self.session.resign("e", 101, successor=9)
        self.assertEqual(refused.exception.reason, "ERROR_REASON_SUCCESSOR_NOT_WAITING")
        self.assertEqual((self.session.in_flight, self.session.acknowledgements()), (0, (1, [])))

    def test_a_resign_or_proclaim_without_an_answer_goes_on_with_its_seq_until_answered(self) -> None:
        for method, write in (("Resign", lambda: self.session.resign("e", 5)), ("Proclaim", lambda: self.session.proclaim("e", 5, "v"))):
            with self.subTest(method=method):
                answers: List[Any] = [OutcomeUnknownError("no answer"), OutcomeUnknownError("still none"), "answered"]
                self.connection.handlers[method] = lambda call: raise_(answers.pop(0)) if answers[0] != "answered" else answers[0]
                seq = self.session.next_seq
                with self.assertRaises(OutcomeUnknownError):
                    write()
                settled = threading.Event()
                self.session.after_settled("e", settled.set)
                self.assertTrue(settled.wait(10))
                sent = self.connection.of(method)[-3:]
                self.assertEqual([c.request.seq for c in sent], [seq] * 3)
                self.assertEqual(self.session.in_flight, 0)

    def test_a_bad_value_is_refused_before_a_seq_is_used(self) -> None:
        bad_calls: List[Callable[[], object]] = [
            lambda: self.session.campaign("e", 7),  # type: ignore[arg-type]
            lambda: self.session.campaign("e", "\ud800"),
            lambda: self.session.campaign(3),  # type: ignore[arg-type]
            lambda: self.session.campaign("e", wait=-1.0),
            lambda: self.session.proclaim("e", 0, "v"),
            lambda: self.session.proclaim("e", 5, b"v"),  # type: ignore[arg-type]
            lambda: self.session.resign("e", 5, successor=0),
            lambda: self.session.resign("e", 5, successor=-2),
            lambda: self.session.release("l", 5, successor=0),
        ]
        for bad in bad_calls:
            with self.assertRaises(InvalidArgumentError):
                bad()
        self.assertEqual(self.session.next_seq, 1)
        self.assertEqual([c.method for c in self.connection.calls if c.method != "KeepAlive"], [])


#: How the caller loses a Campaign's answer: it gives up the wait, or no answer comes in time.
ABANDONS = {
    "cancelled by the caller": (lambda: Cancelled(), WaitCancelledError),
    "outcome unknown": (lambda: OutcomeUnknownError("no answer within the budget"), OutcomeUnknownError),
}


class AbandonedCampaignTest(unittest.TestCase):
    """A Campaign whose answer the caller did not get is settled through CancelWait(election,
    campaign seq), and a lead that won the race is resigned."""

    def start(self, abandon: str, cancel_answer: lock_pb2.CancelWaitResponse) -> Tuple[FakeConnection, Session]:
        make_error, raised = ABANDONS[abandon]
        connection = FakeConnection(ManualTime().clock(), {
            "KeepAlive": idle_keepalive,
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
            "Campaign": lambda call: raise_(make_error()),
            "CancelWait": lambda call: cancel_answer,
            "Resign": lambda call: lock_pb2.ResignResponse(),
            "Release": lambda call: lock_pb2.ReleaseResponse(),
        })
        session = open_fake_session(connection)
        self.addCleanup(session.close)
        with self.assertRaises(raised):
            session.campaign("e", "v", wait=10.0)
        settled = threading.Event()
        session.after_settled("e", settled.set)
        self.assertTrue(settled.wait(10))
        return connection, session

    def test_a_lead_that_arrives_after_the_campaign_was_given_up_is_resigned(self) -> None:
        granted = lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_GRANTED, token=90)
        for abandon in ABANDONS:
            with self.subTest(abandon=abandon):
                connection, session = self.start(abandon, granted)
                self.assertEqual([(c.request.lock, c.request.acquire_seq) for c in connection.of("CancelWait")], [("e", 1)])
                # Stepped down as a lead, with the next seq; nothing was released as a lock.
                self.assertEqual([(c.request.election, c.request.token, c.request.seq) for c in connection.of("Resign")], [("e", 90, 2)])
                self.assertEqual(connection.of("Release"), [])
                self.assertTrue(wait_for(lambda: session.in_flight == 0))
                self.assertEqual(session.acknowledgements(), (2, []))

    def test_a_campaign_withdrawn_before_it_led_resigns_nothing(self) -> None:
        cancelled = lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_CANCELLED)
        for abandon in ABANDONS:
            with self.subTest(abandon=abandon):
                connection, session = self.start(abandon, cancelled)
                self.assertEqual(len(connection.of("CancelWait")), 1)
                self.assertEqual(connection.of("Resign"), [])
                self.assertEqual(session.acknowledgements(), (1, []))


if __name__ == "__main__":
    unittest.main()
