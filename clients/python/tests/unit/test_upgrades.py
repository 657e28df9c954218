"""The upgradeable mode without a cluster: an Acquire asks for it, and reads and history
show it, a pending upgrade and the ends of grants that changed mode."""
from __future__ import annotations

import unittest

from palisade import LockHolder
from palisade.v1 import lock_pb2

from .fakes import Call
from .test_elections import fake_client


def granted(call: Call) -> lock_pb2.AcquireResponse:
    return lock_pb2.AcquireResponse(acquired=True, token=100 + call.request.seq)


def reader(session_id: int, token: int) -> lock_pb2.LockHolder:
    return lock_pb2.LockHolder(session_id=session_id, client_name=f"c{session_id}", token=token, granted_index=token, mode=lock_pb2.LOCK_MODE_SHARED)


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


if __name__ == "__main__":
    unittest.main()
