"""The Python client under an access policy on a real cluster.

Run by test/integration/python-access.test.ts, one test per child process, which starts a
cluster, creates a bearer token for each of two teams and applies a policy that grants
team-a the prefix a/ and team-b the prefix b/. Each process gets its team's bearer token in
PALISADE_AUTH_TOKEN (none for the anonymous test); the process of team-b tells the
runner its session id ("holding ID") and keeps the session until team-a's process, which
asks for it ("holder"), has finished.
"""
from __future__ import annotations

import os
import unittest
from typing import Optional, Tuple

import grpc

from palisade import LockNotAcquiredError, PalisadeClient, ServerError, SessionLostError
from palisade.connection import AUTHORIZATION_METADATA_KEY
from palisade.session import Session, SessionSettings
from palisade.v1 import lock_pb2, lock_pb2_grpc
from palisade.wire import LEADER_METADATA_KEY, call_code, call_metadata, error_from_rpc, metadata_value

from . import control
from .test_cluster import wait_until

ENDPOINTS: list[str] = []

DENIED = "ERROR_REASON_PERMISSION_DENIED"


def setUpModule() -> None:
    ENDPOINTS.extend(control.endpoints())


class AccessTest(unittest.TestCase):
    def client(self, token: Optional[str] = None) -> PalisadeClient:
        client = PalisadeClient(ENDPOINTS, call_timeout=2.0, retry_budget=15.0, client_name=self._testMethodName, token=token)
        self.addCleanup(client.close)
        return client

    def token(self) -> str:
        value = os.environ.get("PALISADE_AUTH_TOKEN", "")
        if not value:
            raise RuntimeError("this test runs with its team's bearer token in PALISADE_AUTH_TOKEN")
        return value

    def assert_denied(self, err: BaseException, *words: str) -> None:
        self.assertIsInstance(err, ServerError)
        assert isinstance(err, ServerError)
        self.assertEqual((err.code, err.reason), (grpc.StatusCode.PERMISSION_DENIED, DENIED), err.message)
        for word in words:
            self.assertIn(word, err.message)

    def test_team_b_holds_a_lock_on_its_prefix_while_team_a_is_refused_its_session(self) -> None:
        client = self.client(self.token())
        with client.lock("b/ledger", wait=5.0) as lock:
            control.ask("holding", str(lock.session_id))
            # Team a's keepalives and writes naming this session changed nothing of it.
            self.assertTrue(lock.held)
            self.assertTrue(client.validate_token("b/ledger", lock.token))
            info = client.get_lock("b/ledger")
            self.assertEqual(info.holder.session_id if info.holder else None, lock.session_id)

    def test_team_a_acquires_on_its_prefix_only_and_team_b_s_session_is_refused_to_it(self) -> None:
        token = self.token()
        client = self.client(token)
        with client.lock("a/orders", wait=5.0) as lock:
            self.assertGreater(lock.token, 0)
            self.assertTrue(client.validate_token("a/orders", lock.token))

        # Another team's prefix: refused by the action it lacks, in every mode and for reads.
        with self.assertRaises(ServerError) as exclusive:
            client.lock("b/ledger", wait=1.0)
        self.assert_denied(exclusive.exception, "identity team-a", "acquire:exclusive", "b/ledger")
        with self.assertRaises(ServerError) as shared:
            client.lock("b/ledger", mode="shared")
        self.assert_denied(shared.exception, "acquire:shared")
        with self.assertRaises(ServerError) as read:
            client.get_lock("b/ledger")
        self.assert_denied(read.exception, "read")
        # The refusals left this client's own session as it was.
        with client.lock("a/orders") as again:
            self.assertTrue(again.held)

        b_session = int(control.ask("holder")[0])
        # A raw Acquire naming team-b's session, sent with team-a's bearer token: seq 1 is
        # the seq of team-b's own first Acquire, whose answer must not come back to team-a.
        with self.assertRaises(grpc.RpcError) as raw:
            self.acquire_on_leader(token, lock_pb2.AcquireRequest(session_id=b_session, lock="a/raw", seq=1))
        self.assert_denied(error_from_rpc(raw.exception), f"session {b_session} is not a session of identity team-a")
        with self.assertRaises(ServerError) as foreign:
            client.get_session(b_session)
        self.assert_denied(foreign.exception)

        # The client taking team-b's id for a session of its own: its first keepalive is
        # answered permission denied, and the session is lost with that reason.
        session = Session(client._connection, SessionSettings(
            session_id=b_session, ttl=10.0, client_name="not-mine", opened_sent_at=client._connection.clock.now(),
            call_timeout=2.0, retry_budget=15.0, drift_bound=0.01, deadline_tick=0.05,
        ))
        wait_until("the session refused", session.lost.is_set)
        self.assertIn("permission denied", session.reason)
        lost = session.lost_error
        assert lost is not None
        self.assertEqual((lost.code, lost.reason), (grpc.StatusCode.PERMISSION_DENIED, DENIED))
        with self.assertRaises(SessionLostError) as write:
            session.acquire("a/orders")
        self.assertEqual(write.exception.reason, DENIED)

    def acquire_on_leader(self, token: str, request: lock_pb2.AcquireRequest) -> None:
        """Sends a raw Acquire with `token`, following the leader a node names while the
        answer is UNAVAILABLE; raises the grpc.RpcError of any other failure."""
        metadata: Tuple[Tuple[str, str], ...] = ((AUTHORIZATION_METADATA_KEY, f"Bearer {token}"),)
        endpoint = ENDPOINTS[0]
        for _ in range(20):
            channel = grpc.insecure_channel(endpoint)
            self.addCleanup(channel.close)
            try:
                lock_pb2_grpc.LockServiceStub(channel).Acquire(request, timeout=2.0, metadata=metadata)
                return
            except grpc.RpcError as err:
                if call_code(err) != grpc.StatusCode.UNAVAILABLE:
                    raise
                endpoint = metadata_value(call_metadata(err), LEADER_METADATA_KEY) or endpoint
        self.fail("no leader answered")

    def test_without_a_bearer_token_open_session_is_refused(self) -> None:
        client = self.client()
        with self.assertRaises(ServerError) as opened:
            client.open_session()
        self.assert_denied(opened.exception, "an anonymous caller", "acquire")
        with self.assertRaises(ServerError) as locked:
            client.lock("a/orders")
        self.assert_denied(locked.exception)
        self.assertNotIsInstance(locked.exception, LockNotAcquiredError)
