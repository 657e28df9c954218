"""The connection against small in-process gRPC servers that answer as nodes do:
leader hints, failover, the retry budget and per-attempt deadlines."""
from __future__ import annotations

import socket
import threading
import time
import unittest
from concurrent import futures
from typing import Any, Callable, List, Tuple

import grpc

from palisade import InvalidArgumentError, OutcomeUnknownError, UnavailableError
from palisade.connection import Connection
from palisade.v1 import lock_pb2, lock_pb2_grpc

Behaviour = Callable[[lock_pb2.AcquireRequest, Any], lock_pb2.AcquireResponse]


class Node(lock_pb2_grpc.LockServiceServicer):
    """A LockService whose Acquire does what the test says, recording each request."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.requests: List[lock_pb2.AcquireRequest] = []
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        lock_pb2_grpc.add_LockServiceServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.endpoint = f"127.0.0.1:{self.port}"
        self.server.start()

    def Acquire(self, request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
        self.requests.append(request)
        return self.behaviour(request, context)

    def stop(self) -> None:
        self.server.stop(0)


def refuse(code: grpc.StatusCode, reason: str, leader: str = "") -> Behaviour:
    def answer(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
        metadata: List[Tuple[str, str]] = [("palisade-reason", reason)]
        if leader:
            metadata.append(("palisade-leader", leader))
        context.set_trailing_metadata(tuple(metadata))
        context.abort(code, f"refused: {reason}")
        raise AssertionError("abort returns only by raising")

    return answer


def grant(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
    return lock_pb2.AcquireResponse(acquired=True, token=1000 + request.seq)


def dead_endpoint() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


def acquire_request() -> lock_pb2.AcquireRequest:
    return lock_pb2.AcquireRequest(session_id=5, lock="l", seq=3, acked_up_to=2)


class ConnectionTest(unittest.TestCase):
    def node(self, behaviour: Behaviour) -> Node:
        node = Node(behaviour)
        self.addCleanup(node.stop)
        return node

    def connection(self, endpoints: List[str], **options: float) -> Connection:
        # Tests of deadlines and budgets give their own. Elsewhere an attempt that ran out
        # would be a loaded machine's slow first connection, not what the test is about, and
        # would change which node is asked next (counts the tests assert).
        connection = Connection(endpoints, call_timeout=options.get("call_timeout", 30.0), retry_budget=options.get("retry_budget", 60.0))
        self.addCleanup(connection.close)
        return connection

    def test_a_node_that_is_not_the_leader_is_followed_to_the_leader_it_names(self) -> None:
        leader = self.node(grant)
        follower = self.node(refuse(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_NOT_LEADER", leader.endpoint))
        other = self.node(refuse(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_NOT_LEADER", leader.endpoint))
        connection = self.connection([follower.endpoint, other.endpoint])
        answered = connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(answered.response.token, 1003)
        self.assertEqual(answered.endpoint, leader.endpoint)
        # Straight to the named leader (not the next endpoint in the list), which it learnt.
        self.assertEqual((len(follower.requests), len(other.requests), len(leader.requests)), (1, 0, 1))
        self.assertEqual(connection.endpoints, (follower.endpoint, other.endpoint, leader.endpoint))
        self.assertEqual(connection.current, leader.endpoint)

    def test_a_write_retried_after_failover_is_the_same_request(self) -> None:
        leader = self.node(grant)
        connection = self.connection([dead_endpoint(), leader.endpoint])
        answered = connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(answered.endpoint, leader.endpoint)
        self.assertEqual([(r.seq, r.acked_up_to) for r in leader.requests], [(3, 2)])
        self.assertLessEqual(answered.first_sent_at, answered.sent_at)

    def test_an_attempt_without_an_answer_ends_at_its_deadline_and_the_next_node_is_tried(self) -> None:
        def hang(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
            time.sleep(3.0)
            return grant(request, context)

        slow = self.node(hang)
        leader = self.node(grant)
        connection = self.connection([slow.endpoint, leader.endpoint], call_timeout=0.5)
        answered = connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        # Without its own deadline the first attempt would have waited for the slow node's grant.
        self.assertEqual(answered.endpoint, leader.endpoint)
        self.assertEqual([r.seq for r in slow.requests + leader.requests], [3, 3])

    def test_a_node_that_let_an_attempt_run_out_is_passed_over_and_a_waiting_call_on_it_moves_on(self) -> None:
        release = threading.Event()
        self.addCleanup(release.set)

        def hang(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
            release.wait(10)  # a stopped leader: it answers only when it is let go
            return grant(request, context)

        stopped = self.node(hang)
        leader = self.node(grant)
        connection = self.connection([stopped.endpoint, leader.endpoint], call_timeout=10.0, retry_budget=20.0)
        waiting: List[Any] = []

        def waiting_acquire() -> None:
            waiting.append(connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write"))

        waiter = threading.Thread(target=waiting_acquire)
        waiter.start()
        wait_until = time.monotonic() + 5
        while len(stopped.requests) < 1 and time.monotonic() < wait_until:
            time.sleep(0.01)
        self.assertEqual(len(stopped.requests), 1)
        # A short call (a keepalive) runs out on the stopped node: it is passed over ...
        short = connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write", attempt_timeout=0.3)
        self.assertEqual(short.endpoint, leader.endpoint)
        # ... and the long call waiting on it moves on too, with the same request.
        waiter.join(5)
        self.assertFalse(waiter.is_alive(), "the waiting call is still on the stopped node")
        self.assertEqual(waiting[0].endpoint, leader.endpoint)
        self.assertEqual([r.seq for r in leader.requests], [3, 3])
        self.assertEqual(len(stopped.requests), 2)
        self.assertEqual(connection.current, leader.endpoint)

    def test_a_write_never_answered_within_the_budget_has_an_unknown_outcome_and_a_read_is_unavailable(self) -> None:
        busy = self.node(refuse(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_NO_LEADER"))
        connection = self.connection([busy.endpoint], retry_budget=0.5)
        with self.assertRaises(OutcomeUnknownError) as unknown:
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        # The last attempt's status: the node's refusal, or its deadline cut short by the budget.
        if unknown.exception.code == grpc.StatusCode.UNAVAILABLE:
            self.assertEqual(unknown.exception.reason, "ERROR_REASON_NO_LEADER")
        else:
            self.assertEqual(unknown.exception.code, grpc.StatusCode.DEADLINE_EXCEEDED)
        self.assertGreater(len(busy.requests), 1)
        self.assertEqual({r.seq for r in busy.requests}, {3})
        with self.assertRaises(UnavailableError):
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="read")

    def test_a_node_that_answered_promptly_and_then_stops_gets_one_short_attempt_before_the_next_node(self) -> None:
        stopped = threading.Event()
        release = threading.Event()
        self.addCleanup(release.set)

        def prompt_then_stopped(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
            if stopped.is_set():
                release.wait(60)  # a SIGSTOPped leader: the connection stays open, nothing answers
            return grant(request, context)

        leader = self.node(prompt_then_stopped)
        other = self.node(grant)
        # The budget is shorter than the call timeout: waiting the call timeout on the stopped
        # node would end the call unanswered, so only an attempt cut short lets it succeed.
        connection = self.connection([leader.endpoint, other.endpoint], call_timeout=30.0, retry_budget=20.0)
        for _ in range(3):
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        stopped.set()
        answered = connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(answered.endpoint, other.endpoint)
        self.assertEqual(len(leader.requests), 4)  # three answered, then one attempt on the stopped node

    def test_a_call_that_got_no_answer_names_each_endpoint_s_cause(self) -> None:
        leaderless = self.node(refuse(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_NO_LEADER"))
        dead = dead_endpoint()
        connection = self.connection([leaderless.endpoint, dead], retry_budget=0.5)
        with self.assertRaises(OutcomeUnknownError) as unknown:
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(
            str(unknown.exception),
            f"Acquire: no leader: 1 of 2 members reachable ({leaderless.endpoint} no leader known there, {dead} refused)",
        )

    def test_an_answer_that_is_not_retriable_is_raised_at_once_as_its_typed_error(self) -> None:
        node = self.node(refuse(grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_ARGUMENT"))
        connection = self.connection([node.endpoint])
        with self.assertRaises(InvalidArgumentError) as refused:
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(refused.exception.reason, "ERROR_REASON_INVALID_ARGUMENT")
        self.assertEqual(len(node.requests), 1)

    def test_a_write_refused_unrecorded_after_an_unanswered_attempt_is_sent_again(self) -> None:
        # The first attempt goes unanswered (that copy may be logged later); a refusal the log
        # keeps no answer for says nothing of the write then, so it is sent again with its seq.
        answers = [
            refuse(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_LEADERSHIP_CHANGED"),
            refuse(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_TOO_MANY_IN_FLIGHT"),
            refuse(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_TOO_MANY_IN_FLIGHT"),
            grant,
        ]

        def in_turn(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
            return answers[min(len(node.requests), len(answers)) - 1](request, context)

        node = self.node(in_turn)
        connection = self.connection([node.endpoint])
        answered = connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(answered.response.token, 1003)
        self.assertEqual([r.seq for r in node.requests], [3, 3, 3, 3])

    def test_a_write_refused_unrecorded_at_its_first_attempt_is_final(self) -> None:
        from palisade import LimitError

        node = self.node(refuse(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_TOO_MANY_IN_FLIGHT"))
        connection = self.connection([node.endpoint])
        with self.assertRaises(LimitError):
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual(len(node.requests), 1)

    def test_a_write_refused_unrecorded_after_not_leader_answers_is_final(self) -> None:
        # A node that said it does not lead took nothing: no copy of the write can be logged.
        from palisade import LimitError

        leader = self.node(refuse(grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_DISK_RESERVE"))
        follower = self.node(refuse(grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_NOT_LEADER", leader.endpoint))
        connection = self.connection([follower.endpoint])
        with self.assertRaises(LimitError):
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write")
        self.assertEqual((len(follower.requests), len(leader.requests)), (1, 1))

    def test_a_cancel_event_stops_a_call_in_progress(self) -> None:
        from palisade.connection import Cancelled

        release = threading.Event()
        self.addCleanup(release.set)

        def wait_long(request: lock_pb2.AcquireRequest, context: Any) -> lock_pb2.AcquireResponse:
            release.wait(5)
            return grant(request, context)

        node = self.node(wait_long)
        connection = self.connection([node.endpoint], call_timeout=5.0)
        cancel = threading.Event()
        threading.Timer(0.2, cancel.set).start()
        with self.assertRaises(Cancelled):
            connection.invoke("lock", "Acquire", acquire_request, lock_pb2.AcquireResponse, kind="write", cancel=cancel)


if __name__ == "__main__":
    unittest.main()
