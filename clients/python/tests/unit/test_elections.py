"""Elections without a cluster: Campaign, Proclaim and Resign are numbered writes as Acquire
and Release are (seq, acknowledgements, the same seq when retried), a withdrawn campaign is
settled through CancelWait and a lead that arrived anyway resigned, a campaign without a
wait campaigns again, handoffs name their successor, and Observe resumes where it broke."""
from __future__ import annotations

import threading
import unittest
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import grpc

from palisade import (
    CAMPAIGN_WAIT,
    ElectionEvent,
    FailedPreconditionError,
    InvalidArgumentError,
    Leader,
    LockBusyError,
    LockNotAcquiredError,
    OutcomeUnknownError,
    PalisadeClient,
    ServerError,
    WaitCancelledError,
)
from palisade.connection import Cancelled
from palisade.errors import PalisadeError
from palisade.session import Session
from palisade.v1 import lock_pb2
from palisade.wire import REASON_METADATA_KEY, error_from_status

from .fakes import Call, FakeConnection, FakeRpcError, ManualTime, StreamHandler, open_fake_session, wait_for


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


def fake_client(handlers: Dict[str, Any], endpoints: Sequence[str] = ("fake:1",), streams: Optional[Dict[str, StreamHandler]] = None) -> Tuple[PalisadeClient, FakeConnection]:
    """A client whose calls the test answers: its session is 7, opened on first use."""
    client = PalisadeClient(["127.0.0.1:1"])
    client._connection.close()
    fake = FakeConnection(ManualTime().clock(), {
        "OpenSession": lambda call: lock_pb2.OpenSessionResponse(session_id=7, ttl_ms=30_000),
        "KeepAlive": idle_keepalive,
        "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
        "Resign": lambda call: lock_pb2.ResignResponse(),
        "Release": lambda call: lock_pb2.ReleaseResponse(),
        **handlers,
    }, endpoints=endpoints, streams=streams)
    client._connection = fake
    return client, fake


class ClientElectionsTest(unittest.TestCase):
    def client(self, handlers: Dict[str, Any]) -> Tuple[PalisadeClient, FakeConnection]:
        client, fake = fake_client(handlers)
        self.addCleanup(client.close)
        return client, fake

    def test_a_campaign_without_a_wait_campaigns_again_after_each_wait_that_ends_unelected(self) -> None:
        answers = [not_elected, not_elected, elected]
        client, fake = self.client({"Campaign": lambda call: answers.pop(0)(call)})
        lead = client.elections.campaign("e", "host-a")
        sent = [c.request for c in fake.of("Campaign")]
        self.assertEqual([(r.seq, r.wait_ms, r.value) for r in sent], [(1, 3_600_000, b"host-a"), (2, 3_600_000, b"host-a"), (3, 3_600_000, b"host-a")])
        self.assertEqual(CAMPAIGN_WAIT, 3_600.0)
        self.assertEqual((lead.election, lead.token, lead.session_id, lead.value), ("e", 103, 7, "host-a"))
        self.assertTrue(lead.held)
        self.assertFalse(lead.lost.is_set())

    def test_a_campaign_with_a_wait_raises_the_not_acquired_error_naming_the_leader(self) -> None:
        client, fake = self.client({"Campaign": not_elected})
        with self.assertRaises(LockNotAcquiredError) as refused:
            client.elections.campaign("e", wait=0)
        self.assertEqual((refused.exception.lock, refused.exception.holder_session_id, refused.exception.holder_token), ("e", 3, 50))
        self.assertEqual([c.request.wait_ms for c in fake.of("Campaign")], [0])
        # The name is free again for this client.
        with self.assertRaises(LockNotAcquiredError):
            client.elections.campaign("e", wait=1.5)
        self.assertEqual([c.request.wait_ms for c in fake.of("Campaign")], [0, 1_500])

    def test_a_name_this_client_leads_or_holds_is_refused_at_once(self) -> None:
        client, fake = self.client({
            "Campaign": elected, "Acquire": lambda call: lock_pb2.AcquireResponse(acquired=True, token=100 + call.request.seq),
        })
        client.elections.campaign("e")
        client.lock("l")
        with self.assertRaises(LockBusyError):
            client.elections.campaign("e")
        with self.assertRaises(LockBusyError):
            client.elections.campaign("l")
        with self.assertRaises(LockBusyError):
            client.lock("e")
        self.assertEqual(len(fake.of("Campaign")), 1)

    def test_proclaim_sends_the_leads_token_and_keeps_the_new_value(self) -> None:
        client, fake = self.client({"Campaign": elected, "Proclaim": lambda call: lock_pb2.ProclaimResponse()})
        lead = client.elections.campaign("e", "v1")
        lead.proclaim("v2")
        proclaim = fake.of("Proclaim")[0].request
        self.assertEqual((proclaim.election, proclaim.token, proclaim.value, proclaim.seq), ("e", lead.token, b"v2", 2))
        self.assertEqual(lead.value, "v2")

    def test_resign_sends_resign_and_a_refused_handoff_leaves_the_lead_held(self) -> None:
        answers: List[Any] = [node_error(grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_SUCCESSOR_NOT_WAITING")]
        client, fake = self.client({"Campaign": elected, "Resign": lambda call: raise_(answers.pop(0)) if answers and isinstance(answers[0], Exception) else lock_pb2.ResignResponse()})
        lead = client.elections.campaign("e")
        with self.assertRaises(FailedPreconditionError) as refused:
            lead.resign(to=9)
        self.assertEqual(refused.exception.reason, "ERROR_REASON_SUCCESSOR_NOT_WAITING")
        self.assertTrue(lead.held)
        self.assertFalse(lead.lost.is_set())
        with self.assertRaises(LockBusyError):
            client.elections.campaign("e")
        lead.resign(to=9)
        self.assertFalse(lead.held)
        resigns = [c.request for c in fake.of("Resign")]
        self.assertEqual([(r.election, r.token, r.successor_session_id) for r in resigns], [("e", lead.token, 9)] * 2)
        self.assertEqual(fake.of("Release"), [])
        # Once resigned the name is free, and resigning again sends nothing.
        lead.resign()
        self.assertEqual(len(fake.of("Resign")), 2)
        client.elections.campaign("e")

    def test_leaving_the_with_block_resigns(self) -> None:
        client, fake = self.client({"Campaign": elected})
        with client.elections.campaign("e") as lead:
            self.assertEqual(fake.of("Resign"), [])
        self.assertEqual([c.request.token for c in fake.of("Resign")], [lead.token])

    def test_a_lock_handle_hands_its_lock_to_a_named_session(self) -> None:
        client, fake = self.client({"Acquire": lambda call: lock_pb2.AcquireResponse(acquired=True, token=100 + call.request.seq)})
        handle = client.lock("l")
        handle.release(successor=12)
        release = fake.of("Release")[0].request
        self.assertEqual((release.lock, release.token, release.successor_session_id), ("l", handle.token, 12))
        self.assertEqual(fake.of("Resign"), [])

    def test_the_lead_is_lost_with_its_session(self) -> None:
        ended = threading.Event()

        def keepalive(call: Call) -> lock_pb2.KeepAliveResponse:
            ended.wait(10)
            return lock_pb2.KeepAliveResponse(sessions=[lock_pb2.SessionKeptAlive(session_id=7, not_found=True)])

        client, fake = self.client({"Campaign": elected, "KeepAlive": keepalive})
        lead = client.elections.campaign("e")
        self.assertTrue(lead.held)
        ended.set()  # the cluster answers the session's keepalive: not found
        self.assertTrue(lead.lost.wait(5))
        self.assertFalse(lead.held)
        # Nothing to resign: the lead went with the session.
        lead.resign()
        self.assertEqual(fake.of("Resign"), [])

    def test_leader_reads_the_leader_and_the_candidate_count_and_session_id_is_the_campaigns_session(self) -> None:
        answers = [lock_pb2.LeaderResponse(leader=leadership(3, 50, "host-c"), candidate_count=2), lock_pb2.LeaderResponse()]
        client, fake = self.client({"Leader": lambda call: answers.pop(0), "Campaign": elected})
        info = client.elections.leader("e")
        self.assertEqual((info.leader, info.candidate_count), (Leader(3, "c3", 50, 50, "host-c"), 2))
        self.assertEqual(fake.of("Leader")[0].request.election, "e")
        self.assertEqual(fake.of("Leader")[0].kind, "read")
        self.assertIsNone(client.elections.leader("e").leader)
        self.assertEqual(client.elections.session_id(), 7)
        self.assertEqual(client.elections.campaign("e").session_id, 7)
        self.assertEqual(len(fake.of("OpenSession")), 1)


def event(index: int, kind: str = "leader", token: int = 0, value: str = "", ended: Optional[lock_pb2.EndReason] = None) -> lock_pb2.ElectionEvent:
    kinds = {"leader": lock_pb2.ELECTION_EVENT_KIND_LEADER, "value": lock_pb2.ELECTION_EVENT_KIND_VALUE, "none": lock_pb2.ELECTION_EVENT_KIND_NO_LEADER}
    message = lock_pb2.ElectionEvent(index=index, kind=kinds[kind], ended=ended, ended_token=token if kind == "none" else 0)
    if kind != "none":
        message.leader.CopyFrom(leadership(4, token or index, value))
    return message


def summary(e: ElectionEvent) -> str:
    if e.kind == "no_leader":
        return f"{e.index} none({e.ended or '-'}{'@' + str(e.ended_token) if e.ended_token else ''}){' resync' if e.resync else ''}"
    assert e.leader is not None
    return f"{e.index} {e.kind}:{e.leader.value}@{e.leader.token}{' resync' if e.resync else ''}"


ENDPOINTS = ("n1:1", "n2:1", "n3:1")


def next_within(observer: Iterator[ElectionEvent], seconds: float = 10.0) -> ElectionEvent:
    """next(observer), failing rather than hanging when it does not return in time."""
    outcome: List[Any] = []

    def take() -> None:
        try:
            outcome.append(next(observer))
        except BaseException as err:  # noqa: BLE001 - handed to the test's thread
            outcome.append(err)

    worker = threading.Thread(target=take, daemon=True)
    worker.start()
    worker.join(seconds)
    if not outcome:
        raise AssertionError(f"the observer yielded nothing within {seconds} s")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    assert isinstance(outcome[0], ElectionEvent)
    return outcome[0]


class ObserveTest(unittest.TestCase):
    def observe(self, script: Callable[[str, lock_pb2.ObserveRequest], Sequence[Any]], from_index: Optional[int] = None,
                cancel: Optional[threading.Event] = None) -> Tuple[Any, FakeConnection]:
        client, fake = fake_client({}, endpoints=ENDPOINTS, streams={"Observe": script})
        self.addCleanup(client.close)
        observer = client.elections.observe("e", from_index=from_index, cancel=cancel)
        self.addCleanup(observer.close)
        return observer, fake

    def opened(self, fake: FakeConnection) -> List[Tuple[str, int]]:
        return [(s.endpoint, s.request.from_index) for s in fake.opened]

    def test_a_broken_stream_resumes_on_the_next_node_from_the_index_after_the_last_event(self) -> None:
        def script(endpoint: str, request: lock_pb2.ObserveRequest) -> Sequence[Any]:
            if endpoint == "n1:1":
                return [event(10, "none"), event(11, "leader", 11, "a"), FakeRpcError(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_SHUTTING_DOWN")]
            # A node may send again what came before the resume point: it is not delivered twice.
            return [event(11, "leader", 11, "a"), event(12, "value", 11, "a2"), event(13, "none", 11, ended=lock_pb2.END_REASON_HANDED_OFF)]

        observer, fake = self.observe(script)
        seen = [summary(next_within(observer)) for _ in range(4)]
        self.assertEqual(seen, ["10 none(-)", "11 leader:a@11", "12 value:a2@11", "13 none(handed_off@11)"])
        self.assertEqual(self.opened(fake), [("n1:1", 0), ("n2:1", 12)])
        self.assertEqual(observer.next_index, 14)

    def test_a_resume_point_no_node_retains_raises_out_of_range_before_anything_is_yielded(self) -> None:
        observer, fake = self.observe(lambda endpoint, request: [FakeRpcError(grpc.StatusCode.OUT_OF_RANGE, "ERROR_REASON_BELOW_RETENTION")], from_index=5)
        with self.assertRaises(ServerError) as refused:
            next_within(observer)
        self.assertEqual((refused.exception.code, refused.exception.reason), (grpc.StatusCode.OUT_OF_RANGE, "ERROR_REASON_BELOW_RETENTION"))
        # Every node was asked: one that restarted recently retains less than the others.
        self.assertEqual(self.opened(fake), [("n1:1", 5), ("n2:1", 5), ("n3:1", 5)])
        with self.assertRaises(StopIteration):
            next_within(observer)

    def test_after_events_were_delivered_a_resume_point_no_node_retains_is_a_jump_to_now_marked_resync(self) -> None:
        opened: List[int] = []

        def script(endpoint: str, request: lock_pb2.ObserveRequest) -> Sequence[Any]:
            opened.append(request.from_index)
            if len(opened) == 1:
                return [event(20, "leader", 20, "a"), FakeRpcError(grpc.StatusCode.INTERNAL)]
            if request.from_index == 21:
                return [FakeRpcError(grpc.StatusCode.OUT_OF_RANGE, "ERROR_REASON_SNAPSHOT_INSTALLED")]
            return [event(90, "leader", 85, "b"), event(91, "value", 85, "b2")]

        observer, fake = self.observe(script)
        seen = [summary(next_within(observer)) for _ in range(3)]
        self.assertEqual(opened, [0, 21, 21, 21, 0])
        self.assertEqual(seen, ["20 leader:a@20", "90 leader:b@85 resync", "91 value:b2@85"])
        self.assertEqual([i for _, i in self.opened(fake)], [0, 21, 21, 21, 0])

    def test_a_refusal_that_is_not_a_broken_stream_is_raised_and_ends_the_iteration(self) -> None:
        observer, fake = self.observe(lambda endpoint, request: [FakeRpcError(grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_KIND_MISMATCH")])
        with self.assertRaises(FailedPreconditionError) as refused:
            next_within(observer)
        self.assertEqual(refused.exception.reason, "ERROR_REASON_KIND_MISMATCH")
        self.assertEqual(len(fake.opened), 1)
        with self.assertRaises(StopIteration):
            next_within(observer)

    def test_close_or_the_cancel_event_ends_an_iteration_blocked_in_another_thread(self) -> None:
        for how in ("close", "cancel"):
            with self.subTest(how=how):
                cancel = threading.Event()
                observer, fake = self.observe(lambda endpoint, request: [event(3, "none")], cancel=cancel)
                seen: List[ElectionEvent] = []
                done = threading.Event()

                def iterate() -> None:
                    seen.extend(observer)
                    done.set()

                threading.Thread(target=iterate, daemon=True).start()
                self.assertTrue(wait_for(lambda: len(seen) == 1))
                self.assertFalse(done.wait(0.3), "the stream waits for the next change")
                if how == "close":
                    observer.close()
                else:
                    cancel.set()
                self.assertTrue(done.wait(5))
                self.assertTrue(fake.opened[0].cancelled.is_set())
                # Ended for good: nothing was opened again.
                self.assertEqual(len(fake.opened), 1)

    def test_from_index_is_checked_before_anything_is_opened(self) -> None:
        client, fake = fake_client({}, endpoints=ENDPOINTS, streams={"Observe": lambda endpoint, request: []})
        self.addCleanup(client.close)
        for bad in (0, -1, "5"):
            with self.assertRaises(InvalidArgumentError):
                client.elections.observe("e", from_index=bad)  # type: ignore[arg-type]
        self.assertEqual(fake.opened, [])


if __name__ == "__main__":
    unittest.main()
