"""The client's side of exactly-once: which seqs of a session it holds answers for.

Every write carries the acknowledged-up-to mark (the highest m such that the answers to
1..m are all held) and the seqs above m whose answers are held, so the node can drop those
answers. A seq counts as answered only once its final answer arrived (or its session has
ended): a write whose outcome is unknown stays in flight and is retried with the same seq.
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple

#: Most seqs above the mark a request lists as held (SPEC "Exactly-once").
MAX_HELD = 64


class AckTracker:
    """Not thread-safe: the session serialises calls to it."""

    def __init__(self) -> None:
        self._mark = 0
        self._held_above: Set[int] = set()
        self._next = 1

    def allocate(self) -> int:
        """The seq for the next write (1, 2, 3, ...)."""
        seq = self._next
        self._next += 1
        return seq

    def peek(self) -> int:
        """The seq the next write will get, without taking it."""
        return self._next

    def answered(self, seq: int) -> None:
        """Records that the final answer to `seq` is held."""
        if seq <= self._mark:
            return
        self._held_above.add(seq)
        while self._mark + 1 in self._held_above:
            self._held_above.discard(self._mark + 1)
            self._mark += 1

    @property
    def outstanding(self) -> int:
        """Seqs allocated whose answers are not held yet."""
        return self._next - 1 - self._mark - len(self._held_above)

    def acks(self, below: Optional[int] = None) -> Tuple[int, List[int]]:
        """What a write carries now: (acked_up_to, held). A write with seq `below` lists only
        held seqs under its own: the node refuses a held seq at or above the request's (a
        retry of an older write, sent after newer ones were answered). Its mark stays under
        its own seq too: a write whose answer came another way (a CancelWait) must still
        be a valid request if it is sent again."""
        held = sorted(self._held_above)
        mark = self._mark
        if below is not None:
            held = [seq for seq in held if seq < below]
            mark = min(mark, below - 1)
        return mark, held[:MAX_HELD]
