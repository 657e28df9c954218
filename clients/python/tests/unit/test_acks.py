import unittest

from palisade.acks import MAX_HELD, AckTracker


class AckTrackerTest(unittest.TestCase):
    def test_the_mark_counts_only_answers_held_for_every_seq_below_it(self) -> None:
        acks = AckTracker()
        seqs = [acks.allocate() for _ in range(4)]
        self.assertEqual(seqs, [1, 2, 3, 4])
        self.assertEqual(acks.acks(), (0, []))
        acks.answered(2)
        acks.answered(4)
        self.assertEqual(acks.acks(), (0, [2, 4]))
        self.assertEqual(acks.outstanding, 2)
        acks.answered(1)
        self.assertEqual(acks.acks(), (2, [4]))
        acks.answered(3)
        self.assertEqual(acks.acks(), (4, []))
        self.assertEqual(acks.outstanding, 0)
        acks.answered(2)  # an answer at or below the mark changes nothing
        self.assertEqual(acks.acks(), (4, []))

    def test_a_retry_of_an_older_write_lists_only_held_seqs_below_its_own(self) -> None:
        acks = AckTracker()
        for _ in range(5):
            acks.allocate()
        for seq in (1, 3, 5):
            acks.answered(seq)
        self.assertEqual(acks.acks(below=2), (1, []))
        self.assertEqual(acks.acks(below=4), (1, [3]))
        self.assertEqual(acks.acks(), (1, [3, 5]))

    def test_a_writes_acknowledgements_never_cover_its_own_seq_even_once_its_answer_came_another_way(self) -> None:
        acks = AckTracker()
        for _ in range(3):
            acks.allocate()
        # Seq 2 (an Acquire) was answered through CancelWait, and 1 and 3 by their own answers.
        for seq in (1, 2, 3):
            acks.answered(seq)
        self.assertEqual(acks.acks(), (3, []))
        # Sent again, seq 2 must still be a valid request: its mark stays below its own seq.
        self.assertEqual(acks.acks(below=2), (1, []))
        self.assertEqual(acks.acks(below=3), (2, []))
        self.assertEqual(acks.acks(below=4), (3, []))

    def test_a_request_lists_at_most_64_held_seqs(self) -> None:
        acks = AckTracker()
        for _ in range(MAX_HELD + 10):
            acks.allocate()
        for seq in range(2, MAX_HELD + 11):
            acks.answered(seq)
        mark, held = acks.acks()
        self.assertEqual(mark, 0)
        self.assertEqual(held, list(range(2, MAX_HELD + 2)))


if __name__ == "__main__":
    unittest.main()
