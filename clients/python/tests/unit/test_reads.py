"""The lock reads without a cluster: get_lock answers one page of holders and of waiters with
the totals and where each list goes on, sends the place it is given, and lock_pages reads
every page of the lists that go on; list_locks entries carry their holder count."""
import unittest
from typing import Dict, List

from palisade import PalisadeClient
from palisade.client import PalisadeClient as _Client
from palisade.types import HolderCursor
from palisade.v1 import lock_pb2

from .fakes import Call, FakeConnection, ManualTime


def holder(session_id: int, token: int) -> lock_pb2.LockHolder:
    return lock_pb2.LockHolder(session_id=session_id, client_name=f"c{session_id}", token=token, granted_index=token, permits=9, slot=session_id)


class LockReadsTest(unittest.TestCase):
    def client(self, pages: Dict[int, lock_pb2.GetLockResponse]) -> "tuple[_Client, FakeConnection]":
        """A client whose GetLock answers the page that starts after the holder of the given session (0: the first)."""
        client = PalisadeClient(["127.0.0.1:1"])
        client._connection.close()

        def get_lock(call: Call) -> lock_pb2.GetLockResponse:
            request: lock_pb2.GetLockRequest = call.request
            return pages[request.holders_after.session_id if request.HasField("holders_after") else 0]

        fake = FakeConnection(ManualTime().clock(), {"GetLock": get_lock})
        client._connection = fake
        return client, fake

    def test_get_lock_answers_one_page_with_the_totals_and_where_each_list_goes_on(self) -> None:
        first = lock_pb2.GetLockResponse(
            lock="pool", holder=holder(1, 10), holders=[holder(1, 10), holder(2, 11)], kind=lock_pb2.LOCK_KIND_SEMAPHORE, permits=9,
            holder_count=3, waiter_count=5, next_holders_after=lock_pb2.HolderCursor(token=11, session_id=2),
            waiters=[lock_pb2.LockWaiter(session_id=7, client_name="w", waiting_since_index=40)], next_waiters_after_index=40,
        )
        client, fake = self.client({0: first, 2: first})
        info = client.get_lock("pool")
        self.assertEqual([h.session_id for h in info.holders], [1, 2])
        self.assertEqual((info.holder_count, info.waiter_count), (3, 5))
        self.assertEqual(info.next_holders_after, HolderCursor(token=11, session_id=2))
        self.assertEqual(info.next_waiters_after, 40)
        self.assertFalse(fake.of("GetLock")[0].request.HasField("holder_limit"))

        client.get_lock("pool", holders_after=HolderCursor(token=11, session_id=2), waiters_after=40, holder_limit=1_000, waiter_limit=0)
        sent: lock_pb2.GetLockRequest = fake.of("GetLock")[1].request
        self.assertEqual((sent.holders_after.token, sent.holders_after.session_id, sent.waiters_after_index), (11, 2, 40))
        self.assertEqual((sent.holder_limit, sent.HasField("waiter_limit"), sent.waiter_limit), (1_000, True, 0))

    def test_lock_pages_reads_every_page_of_the_lists_that_go_on(self) -> None:
        pages = {
            0: lock_pb2.GetLockResponse(lock="pool", holder=holder(1, 10), holders=[holder(1, 10), holder(2, 11)], holder_count=3,
                                        next_holders_after=lock_pb2.HolderCursor(token=11, session_id=2)),
            2: lock_pb2.GetLockResponse(lock="pool", holder=holder(1, 10), holders=[holder(3, 12)], holder_count=3),
        }
        client, fake = self.client(pages)
        seen: List[int] = [h.session_id for page in client.lock_pages("pool") for h in page.holders]
        self.assertEqual(seen, [1, 2, 3])
        sent = [c.request for c in fake.of("GetLock")]
        self.assertEqual(len(sent), 2)
        # The queue ended on the first page: the second asks for no waiters.
        self.assertTrue(sent[1].HasField("waiter_limit"))
        self.assertEqual(sent[1].waiter_limit, 0)

    def test_list_locks_entries_count_every_holder(self) -> None:
        client = PalisadeClient(["127.0.0.1:1"])
        client._connection.close()
        page = lock_pb2.ListLocksResponse(locks=[lock_pb2.LockSummary(
            lock="pool", holder=holder(1, 10), holders=[holder(1, 10), holder(2, 11)], holder_count=40, waiter_count=2,
            next_holders_after=lock_pb2.HolderCursor(token=11, session_id=2),
        )])
        client._connection = FakeConnection(ManualTime().clock(), {"ListLocks": lambda call: page})
        summary = client.list_locks().locks[0]
        self.assertEqual((summary.holder_count, summary.waiter_count, len(summary.holders)), (40, 2, 2))
        self.assertEqual(summary.next_holders_after, HolderCursor(token=11, session_id=2))


if __name__ == "__main__":
    unittest.main()
