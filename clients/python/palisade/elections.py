"""Elections through PalisadeClient.elections: campaign for a name and get a Leadership (a
fencing token, an event set when the lead can no longer be trusted, proclaim, resign, hand
over), read the leader, and observe the changes. A lead is a grant of the election's name
held by the client's session, so it is lost exactly as a lock is: the session's deadline
passes (a pause, a partition) or the session ends."""
from __future__ import annotations

import logging
import threading
from types import TracebackType
from typing import TYPE_CHECKING, Optional, Type

from . import _values
from .errors import PalisadeError
from .lock import LockHandle
from .observe import ElectionObserver
from .session import Session
from .types import LeaderInfo, leader_info_from
from .v1 import lock_pb2

if TYPE_CHECKING:
    from .client import PalisadeClient

log = logging.getLogger("palisade")

#: The longest one Campaign waits, seconds; a campaign without a wait of its own campaigns again after it.
CAMPAIGN_WAIT = 3_600.0


class Leadership:
    """This client's lead of an election: lead while `lost` is not set (and `held` is true).
    A context manager: leaving the block resigns."""

    def __init__(self, handle: LockHandle, value: str) -> None:
        self._handle = handle
        self._value = value
        self._mutex = threading.Lock()

    @property
    def election(self) -> str:
        return self._handle.lock

    @property
    def token(self) -> int:
        """The fencing token: the log index (with the epoch) of the entry that made this leader.
        Pass it to the resource with every write the leader makes."""
        return self._handle.token

    @property
    def session_id(self) -> int:
        return self._handle.session_id

    @property
    def session(self) -> Session:
        """The session that leads (its deadline, time_left())."""
        return self._handle.session

    @property
    def value(self) -> str:
        """The value as last proclaimed (or campaigned with)."""
        with self._mutex:
            return self._value

    @property
    def lost(self) -> threading.Event:
        """Set when the lead is lost: the session's deadline passed (before the cluster can
        elect anyone else), the cluster ended the session, or it was closed while leading."""
        return self._handle.lost

    @property
    def held(self) -> bool:
        """Whether this client still leads, checked against the session deadline now (false once resigned)."""
        return self._handle.held

    def proclaim(self, value: str) -> None:
        """A new value, accepted only while this token leads (StaleTokenError or NotHolderError otherwise)."""
        text = _values.text(value, "value")
        self._handle.session.proclaim(self.election, self.token, text)
        with self._mutex:
            self._value = text

    def resign(self, to: Optional[int] = None) -> None:
        """Steps down (a no-op once the lead was lost or resigned); the next candidate leads.
        With `to` (a waiting candidate's session id, see Elections.session_id) the lead goes
        to that candidate in one log entry, with a new token and no moment without a leader.
        A candidate that is not waiting is refused (FailedPreconditionError, reason
        ERROR_REASON_SUCCESSOR_NOT_WAITING) and this client still leads."""
        self._handle.release(successor=to)

    def __enter__(self) -> "Leadership":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        if exc_type is None:
            self.resign()
            return
        # A resign error must not hide the body's own error.
        try:
            self.resign()
        except PalisadeError as err:
            log.warning("resign of %r after an error in the with block: %s", self.election, err)

    def __repr__(self) -> str:
        return (
            f"Leadership(election={self.election!r}, token={self.token}, session_id={self.session_id}, "
            f"value={self.value!r}, lost={self.lost.is_set()})"
        )


class Elections:
    """Leader election on one PalisadeClient (``client.elections``)."""

    def __init__(self, client: "PalisadeClient") -> None:
        self._client = client

    def campaign(self, election: str, value: str = "", wait: Optional[float] = None, cancel: Optional[threading.Event] = None) -> Leadership:
        """Waits among the candidates of `election` (FIFO) on this client's session and returns
        once this client leads, with `value` as the leader's value.

        `wait` (seconds): None waits until elected (campaigning again after each
        CAMPAIGN_WAIT); otherwise LockNotAcquiredError once that wait ends unelected (at
        once for 0). Setting `cancel` (or Ctrl-C) withdraws the candidacy with CancelWait
        and raises WaitCancelledError; a lead that arrives anyway is resigned. A client
        campaigns at most once per name at a time, and not for a name it holds as a lock
        (LockBusyError, nothing sent)."""
        return self._client._campaign(election, value, wait, cancel)

    def leader(self, election: str, timeout: Optional[float] = None) -> LeaderInfo:
        """The leader (None: none) and the number of candidates waiting: a linearizable read."""
        name = _values.text(election, "election")
        response = self._client._read("Leader", lambda: lock_pb2.LeaderRequest(election=name), lock_pb2.LeaderResponse, timeout)
        return leader_info_from(response)

    def observe(self, election: str, from_index: Optional[int] = None, cancel: Optional[threading.Event] = None) -> ElectionObserver:
        """The election's changes in log order, as an iterator (see ElectionObserver). Without
        `from_index` it begins with the state of the moment; with it (a previous event's
        index + 1, or a token's index) it resumes there. Ends when `cancel` is set, on
        close() or at the end of a ``with`` block."""
        name = _values.text(election, "election")
        start = 0 if from_index is None else _values.u64(from_index, "from_index", positive=True)
        return ElectionObserver(self._client._connection, name, start, cancel)

    def session_id(self) -> int:
        """The id of the session this client campaigns with (the one lock() uses, opened if
        need be): what a leader names in resign(to=...) to hand over to this client."""
        return self._client._session_for_locks().id
