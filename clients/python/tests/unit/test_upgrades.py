"""The upgradeable mode without a cluster: an Acquire asks for it, reads and history show it,
Upgrade and Downgrade are numbered writes as Acquire and Release are (seq, acknowledgements,
the same seq when retried), an Upgrade the caller gave up is settled through CancelWait and
an exclusive grant that won the race is made upgradeable again, and a lock handle follows
each mode change to the new grant, release() included."""
from __future__ import annotations

import threading
import unittest
from typing import Any, Callable, Dict, List, Tuple

import grpc

from palisade import (
    DowngradeResult,
    FailedPreconditionError,
    InvalidArgumentError,
    LockHandle,
    LockHolder,
    NotHolderError,
    OutcomeUnknownError,
    PalisadeClient,
    SessionLostError,
    WaitCancelledError,
)
from palisade.connection import Cancelled
from palisade.session import Session
from palisade.v1 import lock_pb2

from .fakes import Call, FakeConnection, ManualTime, open_fake_session, wait_for
from .test_elections import ABANDONS, fake_client, idle_keepalive, node_error, raise_


def granted(call: Call) -> lock_pb2.AcquireResponse:
    return lock_pb2.AcquireResponse(acquired=True, token=100 + call.request.seq)


def upgraded(call: Call) -> lock_pb2.UpgradeResponse:
    return lock_pb2.UpgradeResponse(upgraded=True, token=200 + call.request.seq)


def downgraded(call: Call) -> lock_pb2.DowngradeResponse:
    return lock_pb2.DowngradeResponse(token=300 + call.request.seq, mode=call.request.mode)


def reader(session_id: int, token: int) -> lock_pb2.LockHolder:
    return lock_pb2.LockHolder(session_id=session_id, client_name=f"c{session_id}", token=token, granted_index=token, mode=lock_pb2.LOCK_MODE_SHARED)


def not_upgraded(call: Call) -> lock_pb2.UpgradeResponse:
    return lock_pb2.UpgradeResponse(upgraded=False, holder=reader(3, 50))


class UpgradeableModeTest(unittest.TestCase):
    def test_an_acquire_asks_for_the_upgradeable_mode_and_the_handle_holds_it(self) -> None:
        client, fake = fake_client({"Acquire": granted})
        self.addCleanup(client.close)
        handle = client.lock("u", mode="upgradeable")
        session = handle.session
        session.acquire("s", mode="shared")
        session.acquire("x", mode="exclusive")
        upgradeable, shared, exclusive = (c.request for c in fake.of("Acquire"))
        self.assertEqual((upgradeable.mode, shared.mode, exclusive.mode), (lock_pb2.LOCK_MODE_UPGRADEABLE, lock_pb2.LOCK_MODE_SHARED, lock_pb2.LOCK_MODE_UNSPECIFIED))
        self.assertEqual((handle.mode, handle.token), ("upgradeable", 101))

    def test_reads_show_the_upgradeable_holder_its_pending_upgrade_and_history_the_mode_change_ends(self) -> None:
        holders = [
            lock_pb2.LockHolder(session_id=7, client_name="c7", token=40, granted_index=40, mode=lock_pb2.LOCK_MODE_UPGRADEABLE, upgrading_since_index=52),
            reader(3, 41),
        ]
        records = [
            lock_pb2.HistoryRecord(token=40, session_id=7, reason=lock_pb2.END_REASON_UPGRADED),
            lock_pb2.HistoryRecord(token=60, session_id=7, reason=lock_pb2.END_REASON_DOWNGRADED),
            lock_pb2.HistoryRecord(token=61, session_id=7),
        ]
        client, fake = fake_client({
            "GetLock": lambda call: lock_pb2.GetLockResponse(lock="u", holder=holders[0], holders=holders, holder_count=2),
            "GetLockHistory": lambda call: lock_pb2.GetLockHistoryResponse(records=records),
        })
        self.addCleanup(client.close)
        info = client.get_lock("u")
        self.assertEqual(info.holders, [
            LockHolder(7, "c7", 40, 40, "upgradeable", None, "", upgrading_since_index=52),
            LockHolder(3, "c3", 41, 41, "shared", None, "", upgrading_since_index=None),
        ])
        self.assertEqual([(r.token, r.reason) for r in client.history("u")], [(40, "upgraded"), (60, "downgraded"), (61, "current")])


class SessionModeChangeTest(unittest.TestCase):
    def setUp(self) -> None:
        self.connection = FakeConnection(ManualTime().clock(), {
            "KeepAlive": idle_keepalive,
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
            "Upgrade": upgraded,
            "Downgrade": downgraded,
            "CancelWait": lambda call: lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_CANCELLED),
        })
        self.session = open_fake_session(self.connection)
        self.addCleanup(self.session.close)

    def test_upgrade_and_downgrade_are_numbered_writes_with_the_acknowledgements(self) -> None:
        result = self.session.upgrade("l", 101, wait=2.5)
        self.assertEqual((result.upgraded, result.seq, result.token, result.holder, result.cancelled), (True, 1, 201, None, False))
        self.assertEqual(self.session.downgrade("l", 201, "shared"), DowngradeResult(302, "shared"))
        self.assertEqual(self.session.downgrade("l", 302, "upgradeable"), DowngradeResult(303, "upgradeable"))
        upgrade, = (c.request for c in self.connection.of("Upgrade"))
        to_shared, to_upgradeable = (c.request for c in self.connection.of("Downgrade"))
        self.assertEqual((upgrade.session_id, upgrade.lock, upgrade.token, upgrade.wait_ms, upgrade.seq, upgrade.acked_up_to), (7, "l", 101, 2_500, 1, 0))
        self.assertEqual((to_shared.token, to_shared.mode, to_shared.seq, to_shared.acked_up_to), (201, lock_pb2.LOCK_MODE_SHARED, 2, 1))
        self.assertEqual((to_upgradeable.token, to_upgradeable.mode, to_upgradeable.seq, to_upgradeable.acked_up_to), (302, lock_pb2.LOCK_MODE_UPGRADEABLE, 3, 2))
        # An upgrade that may wait is an attempt as long as its wait plus the call timeout.
        self.assertEqual(self.connection.of("Upgrade")[0].attempt_timeout, 2.5 + 3.0)
        self.assertEqual(self.session.acknowledgements(), (3, []))

    def test_an_upgrade_not_granted_names_the_other_holder_and_one_cancelled_first_says_so(self) -> None:
        self.connection.handlers["Upgrade"] = not_upgraded
        result = self.session.upgrade("l", 101)
        self.assertEqual((result.upgraded, result.token, result.cancelled), (False, None, False))
        self.assertEqual(result.holder, LockHolder(3, "c3", 50, 50, "shared"))
        self.connection.handlers["Upgrade"] = lambda call: lock_pb2.UpgradeResponse(cancelled=True)
        result = self.session.upgrade("l", 101, wait=1.0)
        self.assertEqual((result.upgraded, result.cancelled, result.seq), (False, True, 2))
        self.assertEqual(self.session.in_flight, 0)

    def test_an_upgrade_whose_grant_ended_while_it_waited_is_refused_and_its_seq_answered(self) -> None:
        self.connection.handlers["Upgrade"] = lambda call: raise_(node_error(grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_NOT_HOLDER"))
        with self.assertRaises(NotHolderError):
            self.session.upgrade("l", 101, wait=5.0)
        self.assertEqual((self.session.in_flight, self.session.acknowledgements()), (0, (1, [])))

    def test_a_downgrade_without_an_answer_goes_on_with_its_seq_and_tells_the_new_grant_once_answered(self) -> None:
        answers: List[Any] = [OutcomeUnknownError("no answer"), OutcomeUnknownError("still none")]
        self.connection.handlers["Downgrade"] = lambda call: raise_(answers.pop(0)) if answers else downgraded(call)
        told: List[Tuple[int, str]] = []
        with self.assertRaises(OutcomeUnknownError):
            self.session.downgrade("l", 201, "upgradeable", on_change=lambda token, mode: told.append((token, mode)))
        settled = threading.Event()
        self.session.after_settled("l", settled.set)
        self.assertTrue(settled.wait(10))
        self.assertEqual([c.request.seq for c in self.connection.of("Downgrade")], [1, 1, 1])
        self.assertEqual(told, [(301, "upgradeable")])
        self.assertEqual(self.session.in_flight, 0)

    def test_a_bad_value_is_refused_before_a_seq_is_used(self) -> None:
        bad_calls: List[Callable[[], object]] = [
            lambda: self.session.upgrade("l", 0),
            lambda: self.session.upgrade("l", 5, wait=-1.0),
            lambda: self.session.upgrade(3, 5),  # type: ignore[arg-type]
            lambda: self.session.downgrade("l", 5, "exclusive"),  # type: ignore[arg-type]
            lambda: self.session.downgrade("l", 5, "read"),  # type: ignore[arg-type]
            lambda: self.session.downgrade("l", 0, "shared"),
        ]
        for bad in bad_calls:
            with self.assertRaises(InvalidArgumentError):
                bad()
        self.assertEqual(self.session.next_seq, 1)
        self.assertEqual([c.method for c in self.connection.calls if c.method != "KeepAlive"], [])


class AbandonedUpgradeTest(unittest.TestCase):
    """An Upgrade whose answer the caller did not get is settled through CancelWait(lock,
    upgrade seq); an exclusive grant that won the race is downgraded back to upgradeable,
    and the caller told the grant it holds now."""

    def start(self, abandon: str, cancel_answer: lock_pb2.CancelWaitResponse) -> Tuple[FakeConnection, Session, List[Tuple[int, str]]]:
        make_error, raised = ABANDONS[abandon]
        connection = FakeConnection(ManualTime().clock(), {
            "KeepAlive": idle_keepalive,
            "CloseSession": lambda call: lock_pb2.CloseSessionResponse(),
            "Upgrade": lambda call: raise_(make_error()),
            "CancelWait": lambda call: cancel_answer,
            "Downgrade": downgraded,
            "Release": lambda call: lock_pb2.ReleaseResponse(),
        })
        session = open_fake_session(connection)
        self.addCleanup(session.close)
        told: List[Tuple[int, str]] = []
        with self.assertRaises(raised):
            session.upgrade("l", 40, wait=10.0, on_change=lambda token, mode: told.append((token, mode)))
        settled = threading.Event()
        session.after_settled("l", settled.set)
        self.assertTrue(settled.wait(10))
        return connection, session, told

    def test_an_exclusive_grant_that_arrives_after_the_upgrade_was_given_up_is_made_upgradeable_again(self) -> None:
        won = lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_GRANTED, token=90)
        for abandon in ABANDONS:
            with self.subTest(abandon=abandon):
                connection, session, told = self.start(abandon, won)
                self.assertEqual([(c.request.lock, c.request.acquire_seq) for c in connection.of("CancelWait")], [("l", 1)])
                # The hold is kept, in the mode the caller holds it: nothing is released.
                self.assertEqual(
                    [(c.request.token, c.request.mode, c.request.seq) for c in connection.of("Downgrade")], [(90, lock_pb2.LOCK_MODE_UPGRADEABLE, 2)],
                )
                self.assertEqual(connection.of("Release"), [])
                self.assertEqual(told, [(302, "upgradeable")])
                self.assertTrue(wait_for(lambda: session.in_flight == 0))

    def test_an_upgrade_withdrawn_before_it_was_granted_changes_nothing(self) -> None:
        for outcome in (lock_pb2.CANCEL_WAIT_OUTCOME_CANCELLED, lock_pb2.CANCEL_WAIT_OUTCOME_NOT_ACQUIRED):
            for abandon in ABANDONS:
                with self.subTest(abandon=abandon, outcome=outcome):
                    connection, session, told = self.start(abandon, lock_pb2.CancelWaitResponse(outcome=outcome))
                    self.assertEqual(len(connection.of("CancelWait")), 1)
                    self.assertEqual((connection.of("Downgrade"), told), ([], []))
                    self.assertEqual(session.acknowledgements(), (1, []))


class HandleModeChangeTest(unittest.TestCase):
    def client(self, handlers: Dict[str, Any]) -> Tuple[PalisadeClient, FakeConnection]:
        client, fake = fake_client({"Acquire": granted, "Upgrade": upgraded, "Downgrade": downgraded, **handlers})
        self.addCleanup(client.close)
        return client, fake

    def test_an_upgrade_makes_the_handle_exclusive_under_the_new_token_which_a_release_names(self) -> None:
        client, fake = self.client({})
        handle = client.lock("l", mode="upgradeable")
        self.assertTrue(handle.upgrade(wait=4.0))
        self.assertEqual((handle.mode, handle.token), ("exclusive", 202))
        upgrade = fake.of("Upgrade")[0].request
        self.assertEqual((upgrade.lock, upgrade.token, upgrade.wait_ms), ("l", 101, 4_000))
        handle.release()
        self.assertEqual([c.request.token for c in fake.of("Release")], [202])

    def test_an_upgrade_not_granted_in_time_answers_false_and_the_upgradeable_hold_goes_on(self) -> None:
        client, fake = self.client({"Upgrade": not_upgraded})
        handle = client.lock("l", mode="upgradeable")
        self.assertFalse(handle.upgrade(wait=0.5))
        self.assertEqual((handle.mode, handle.token, handle.held), ("upgradeable", 101, True))
        self.assertEqual(fake.of("CancelWait"), [])
        # An upgrade cancelled on the cluster before it applied: the hold goes on too.
        fake.handlers["Upgrade"] = lambda call: lock_pb2.UpgradeResponse(cancelled=True)
        with self.assertRaises(WaitCancelledError):
            handle.upgrade(wait=0.5)
        self.assertEqual((handle.mode, handle.token, handle.held), ("upgradeable", 101, True))
        fake.handlers["Upgrade"] = upgraded
        self.assertTrue(handle.upgrade())
        self.assertEqual((handle.mode, handle.token), ("exclusive", 204))

    def test_downgrade_makes_the_handle_shared_or_upgradeable_and_each_change_names_the_grant_before_it(self) -> None:
        client, fake = self.client({})
        handle = client.lock("l")
        tokens = [handle.token]
        handle.downgrade("upgradeable")
        self.assertEqual(handle.mode, "upgradeable")
        tokens.append(handle.token)
        handle.upgrade()
        tokens.append(handle.token)
        handle.downgrade()
        self.assertEqual(handle.mode, "shared")
        tokens.append(handle.token)
        self.assertEqual(tokens, [101, 302, 203, 304])
        sent = [(c.method, c.request.token, c.request.seq) for c in fake.calls if c.method in ("Upgrade", "Downgrade")]
        self.assertEqual(sent, [("Downgrade", 101, 2), ("Upgrade", 302, 3), ("Downgrade", 203, 4)])
        self.assertEqual([c.request.mode for c in fake.of("Downgrade")], [lock_pb2.LOCK_MODE_UPGRADEABLE, lock_pb2.LOCK_MODE_SHARED])

    def test_a_mode_change_the_handle_cannot_make_is_refused_before_anything_is_sent(self) -> None:
        client, fake = self.client({})
        shared = client.lock("s", mode="shared")
        exclusive = client.lock("x")
        upgradeable = client.lock("u", mode="upgradeable")
        wrong_modes: List[Callable[[], object]] = [shared.upgrade, exclusive.upgrade, upgradeable.downgrade, shared.downgrade]
        for wrong_mode in wrong_modes:
            with self.assertRaises(FailedPreconditionError) as refused:
                wrong_mode()
            self.assertEqual(refused.exception.reason, "ERROR_REASON_HELD_IN_ANOTHER_MODE")
        bad_values: List[Callable[[], object]] = [
            lambda: exclusive.downgrade("exclusive"),  # type: ignore[arg-type]
            lambda: upgradeable.upgrade(wait=-1),
        ]
        for bad in bad_values:
            with self.assertRaises(InvalidArgumentError):
                bad()
        upgradeable.release()
        with self.assertRaises(NotHolderError):
            upgradeable.upgrade()
        self.assertEqual([c.method for c in fake.calls if c.method in ("Upgrade", "Downgrade")], [])
        self.assertEqual((shared.mode, exclusive.mode, exclusive.token), ("shared", "exclusive", 102))

    def test_a_handle_of_a_lost_session_changes_no_mode(self) -> None:
        ended = threading.Event()

        def keepalive(call: Call) -> lock_pb2.KeepAliveResponse:
            ended.wait(10)
            return lock_pb2.KeepAliveResponse(sessions=[lock_pb2.SessionKeptAlive(session_id=7, not_found=True)])

        client, fake = self.client({"KeepAlive": keepalive})
        handle = client.lock("u", mode="upgradeable")
        ended.set()
        self.assertTrue(handle.lost.wait(5))
        with self.assertRaises(SessionLostError):
            handle.upgrade()
        self.assertEqual(fake.of("Upgrade"), [])

    def test_an_upgrade_given_up_keeps_the_hold_upgradeable_under_the_grant_a_late_upgrade_was_downgraded_to(self) -> None:
        cancel_answers = {
            "cancelled": lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_CANCELLED),
            "granted": lock_pb2.CancelWaitResponse(outcome=lock_pb2.CANCEL_WAIT_OUTCOME_GRANTED, token=150),
        }
        for outcome, answer in cancel_answers.items():
            with self.subTest(outcome=outcome):
                client, fake = self.client({"Upgrade": lambda call: raise_(Cancelled()), "CancelWait": lambda call, a=answer: a})
                handle = client.lock("l", mode="upgradeable")
                with self.assertRaises(WaitCancelledError):
                    handle.upgrade(wait=30.0, cancel=threading.Event())
                self.assertEqual([c.request.acquire_seq for c in fake.of("CancelWait")], [2])
                expected = (101, []) if outcome == "cancelled" else (303, [(150, lock_pb2.LOCK_MODE_UPGRADEABLE)])
                self.assertEqual((handle.token, [(c.request.token, c.request.mode) for c in fake.of("Downgrade")]), expected)
                self.assertEqual((handle.mode, handle.held), ("upgradeable", True))
                handle.release()
                self.assertEqual([c.request.token for c in fake.of("Release")], [expected[0]])

    def test_a_downgrade_whose_answer_was_lost_is_taken_by_the_handle_once_settled(self) -> None:
        answers: List[Any] = [OutcomeUnknownError("no answer")]
        client, fake = self.client({"Downgrade": lambda call: raise_(answers.pop(0)) if answers else downgraded(call)})
        handle = client.lock("l")
        with self.assertRaises(OutcomeUnknownError):
            handle.downgrade("shared")
        # The next change waits for the lost one's outcome: the grant is shared now.
        with self.assertRaises(FailedPreconditionError):
            handle.downgrade("upgradeable")
        self.assertEqual((handle.mode, handle.token), ("shared", 302))
        self.assertEqual([c.request.seq for c in fake.of("Downgrade")], [2, 2])

    def test_a_release_that_meets_a_mode_change_follows_it_to_the_new_grant(self) -> None:
        go = threading.Event()

        def upgrade(call: Call) -> lock_pb2.UpgradeResponse:
            self.assertTrue(go.wait(10))
            return upgraded(call)

        def release(call: Call) -> lock_pb2.ReleaseResponse:
            if call.request.token == 101:
                # The upgrade applied first: the old token is stale, and its answer is on its way.
                go.set()
                raise node_error(grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_STALE_TOKEN")
            return lock_pb2.ReleaseResponse()

        client, fake = self.client({"Upgrade": upgrade, "Release": release})
        handle = client.lock("l", mode="upgradeable")
        outcome: List[object] = []
        upgrading = threading.Thread(target=lambda: outcome.append(handle.upgrade(wait=10.0)), daemon=True)
        upgrading.start()
        self.assertTrue(wait_for(lambda: len(fake.of("Upgrade")) == 1))
        handle.release()
        upgrading.join(10)
        self.assertEqual(outcome, [True])
        self.assertEqual([c.request.token for c in fake.of("Release")], [101, 202])
        self.assertFalse(handle.held)
        # Released: the name is free for this client again.
        self.assertIsInstance(client.lock("l"), LockHandle)


if __name__ == "__main__":
    unittest.main()
