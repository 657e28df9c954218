"""The clock session deadlines are kept on.

time.monotonic() (CLOCK_MONOTONIC) does not advance while the host is suspended, so a
client that wakes up after a suspend longer than its TTL would still believe in a session
the cluster has expired. This clock adds up, between two readings, the larger of the
monotonic and the wall-clock elapsed time: a suspend counts (the wall clock ran), a
backward step of the wall clock does not stop it (the monotonic clock ran), and a forward
step only makes the client give up sooner, which is the safe side.
"""
from __future__ import annotations

import threading
import time
from typing import Callable


class SessionClock:
    """Seconds since the clock was made; never slower than the monotonic clock."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> None:
        self._monotonic = monotonic
        self._wall = wall
        self._lock = threading.Lock()
        self._last_monotonic = monotonic()
        self._last_wall = wall()
        self._value = 0.0

    def now(self) -> float:
        with self._lock:
            mono = self._monotonic()
            wall = self._wall()
            step = max(mono - self._last_monotonic, wall - self._last_wall, 0.0)
            self._last_monotonic = mono
            self._last_wall = wall
            self._value += step
            return self._value


#: The clock every session of this process uses unless it is given another.
PROCESS_CLOCK = SessionClock()
