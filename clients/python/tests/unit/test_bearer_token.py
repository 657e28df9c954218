"""The bearer token against a small in-process gRPC server that records each call's
metadata: every call of the client carries it (a session's writes, its keepalives, a
stream), and none does without one."""
from __future__ import annotations

import threading
import unittest
from concurrent import futures
from typing import Any, Dict, Iterator, List, Optional, Tuple

import grpc

from palisade import InvalidArgumentError, PalisadeClient
from palisade.connection import Connection
from palisade.v1 import lock_pb2, lock_pb2_grpc

from .fakes import wait_for

TOKEN = "pal_0123456789abcdef_" + "A" * 43


class Node(lock_pb2_grpc.LockServiceServicer):
    """Answers a session's calls and Observe (an empty stream), recording the
    authorization metadata of each call as (method, value or None), and the rest of its
    metadata by method."""

    def __init__(self) -> None:
        self.seen: List[Tuple[str, Optional[str]]] = []
        self.other: Dict[str, Dict[str, str]] = {}
        self._lock = threading.Lock()
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        lock_pb2_grpc.add_LockServiceServicer_to_server(self, self.server)
        self.endpoint = f"127.0.0.1:{self.server.add_insecure_port('127.0.0.1:0')}"
        self.server.start()

    def record(self, method: str, context: Any) -> None:
        metadata = {str(k): str(v) for k, v in context.invocation_metadata()}
        with self._lock:
            self.seen.append((method, metadata.pop("authorization", None)))
            self.other[method] = metadata

    def methods(self) -> List[str]:
        with self._lock:
            return [method for method, _ in self.seen]

    def OpenSession(self, request: lock_pb2.OpenSessionRequest, context: Any) -> lock_pb2.OpenSessionResponse:
        self.record("OpenSession", context)
        return lock_pb2.OpenSessionResponse(session_id=7, ttl_ms=30_000)

    def KeepAlive(self, request: lock_pb2.KeepAliveRequest, context: Any) -> lock_pb2.KeepAliveResponse:
        self.record("KeepAlive", context)
        return lock_pb2.KeepAliveResponse(sessions=[lock_pb2.SessionKeptAlive(session_id=sid, ttl_ms=30_000) for sid in request.session_ids])

    def CloseSession(self, request: lock_pb2.CloseSessionRequest, context: Any) -> lock_pb2.CloseSessionResponse:
        self.record("CloseSession", context)
        return lock_pb2.CloseSessionResponse()

    def Observe(self, request: lock_pb2.ObserveRequest, context: Any) -> Iterator[lock_pb2.ElectionEvent]:
        self.record("Observe", context)
        return iter(())

    def stop(self) -> None:
        self.server.stop(0)


class BearerTokenTest(unittest.TestCase):
    def setUp(self) -> None:
        self.node = Node()
        self.addCleanup(self.node.stop)

    def session_calls(self, client: PalisadeClient) -> None:
        """Opens a session, lets its first keepalive through and closes it."""
        session = client.open_session(ttl=30.0)
        self.assertTrue(wait_for(lambda: "KeepAlive" in self.node.methods()))
        session.close()

    def test_every_call_of_a_session_carries_the_token_as_bearer_authorization(self) -> None:
        with PalisadeClient([self.node.endpoint], token=TOKEN) as client:
            self.session_calls(client)
        self.assertEqual(self.node.methods()[:1], ["OpenSession"])
        self.assertEqual({"OpenSession", "KeepAlive", "CloseSession"}, set(self.node.methods()))
        self.assertEqual({value for _, value in self.node.seen}, {f"Bearer {TOKEN}"})

    def test_a_stream_carries_the_token_too(self) -> None:
        connection = Connection([self.node.endpoint], call_timeout=5.0, retry_budget=5.0, token=TOKEN)
        self.addCleanup(connection.close)
        stream = connection.open_stream(self.node.endpoint, "Observe", lock_pb2.ObserveRequest(election="e"))
        self.assertEqual(list(stream), [])
        self.assertEqual(self.node.seen, [("Observe", f"Bearer {TOKEN}")])

    def test_without_a_token_no_call_carries_authorization(self) -> None:
        with PalisadeClient([self.node.endpoint]) as client:
            self.session_calls(client)
        self.assertEqual({value for _, value in self.node.seen}, {None})

    def test_the_token_goes_beside_the_metadata_of_an_interceptor(self) -> None:
        class AddsMetadata(grpc.UnaryUnaryClientInterceptor):
            def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
                metadata = list(details.metadata or ()) + [("x-trace", "t1")]
                return continuation(details._replace(metadata=metadata), request)

        with PalisadeClient([self.node.endpoint], token=TOKEN, interceptors=[AddsMetadata()]) as client:
            self.session_calls(client)
        self.assertEqual({value for _, value in self.node.seen}, {f"Bearer {TOKEN}"})
        self.assertEqual(self.node.other["OpenSession"].get("x-trace"), "t1")

    def test_a_token_metadata_cannot_carry_is_refused_before_anything_is_sent_without_repeating_it(self) -> None:
        for bad in ("", "pal_secret with space", "pal_secret\n", "pal_sécret", 42):
            with self.assertRaises(InvalidArgumentError) as raised:
                PalisadeClient([self.node.endpoint], token=bad)  # type: ignore[arg-type]
            if isinstance(bad, str) and bad:
                self.assertNotIn(bad.strip(), raised.exception.message)
        self.assertEqual(self.node.seen, [])


if __name__ == "__main__":
    unittest.main()
