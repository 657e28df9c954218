"""A grant held through PalisadeClient.lock() (or an election's lead): its token, an event
set when the grant can no longer be trusted, and a release() that frees this grant only, or
hands it to a waiting session. A context manager: ``with client.lock("name", wait=5.0) as
lock:`` releases on exit."""
from __future__ import annotations

import logging
import threading
from types import TracebackType
from typing import Callable, Optional, Type

from .errors import NotHolderError, OutcomeUnknownError, PalisadeError, SessionLostError, SessionNotFoundError, StaleTokenError
from .session import Session, State

log = logging.getLogger("palisade")


class LockHandle:
    def __init__(
        self, session: Session, lock: str, token: int, on_end: Callable[["LockHandle"], None], *,
        mode: str = "exclusive", slot: Optional[int] = None,
    ) -> None:
        self.lock = lock
        #: The fencing token: pass it to the resource with every access.
        self.token = token
        #: "exclusive", "shared", "permit" or "leader" (an election's lead, ended by Resign).
        self.mode = mode
        #: A semaphore permit's slot (the resource fences per (semaphore, slot)).
        self.slot = slot
        self.session_id = session.id
        #: Set when the grant is lost: the session's deadline passed, the cluster ended the
        #: session, or the session was closed while this grant was held. Stop working then.
        self.lost = threading.Event()
        self._session = session
        self._on_end = on_end
        self._mutex = threading.Lock()
        self._released = False
        self._finished = False
        # Set once this handle's release is over: answered, or its session ended.
        self._release_settled = threading.Event()
        self._remove_callback: Callable[[], None] = lambda: None
        # Called at once if the session has already ended.
        remove = session.add_end_callback(self._session_ended)
        with self._mutex:
            if self._finished:
                remove()
            else:
                self._remove_callback = remove

    @property
    def session(self) -> Session:
        """The session that holds the grant (its deadline, time_left(), lost)."""
        return self._session

    @property
    def held(self) -> bool:
        """Whether this handle still holds its grant, checked against the session deadline now."""
        return not self._released and not self.lost.is_set() and self._session.live

    def release(self, successor: Optional[int] = None) -> None:
        """Release this grant (the request names its token). Releasing twice, or after the
        grant was lost, is a no-op; a grant that already ended (revoked, session gone)
        counts as released. OutcomeUnknownError means the session goes on retrying the
        same Release in the background; this client keeps the name claimed until then, and
        a second release() waits for that retry to be answered (or the session to end).

        With `successor` (the id of a session waiting for this lock alone, exclusive) the
        lock is handed to it by the same log entry, with a new token, ahead of the queue. A
        successor that is not waiting so is refused (FailedPreconditionError with reason
        ERROR_REASON_SUCCESSOR_NOT_WAITING): nothing changed and this handle still holds."""
        with self._mutex:
            if self._released:
                settling = self._release_settled
            else:
                settling = None
        if settling is not None:
            settling.wait()
            return
        with self._mutex:
            if self._released:
                return
            self._released = True
            live = not self.lost.is_set() and self._session.state == "open"
        if not live:
            self._finish()
            return
        try:
            if self.mode == "leader":
                self._session.resign(self.lock, self.token, successor)
            else:
                self._session.release(self.lock, self.token, successor)
        except (StaleTokenError, NotHolderError, SessionNotFoundError, SessionLostError):
            pass  # the grant had ended already
        except OutcomeUnknownError:
            self._session.after_settled(self.lock, self._finish)
            raise
        except PalisadeError:
            # Refused before it was sent (the client's own in-flight bound, a bad successor
            # id) or a handoff the cluster refused: nothing changed, still held.
            with self._mutex:
                self._released = False
            raise
        except BaseException:
            self._session.after_settled(self.lock, self._finish)
            raise
        self._finish()

    def __enter__(self) -> "LockHandle":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        if exc_type is None:
            self.release()
            return
        # A release error must not hide the body's own error.
        try:
            self.release()
        except PalisadeError as err:
            log.warning("release of %r after an error in the with block: %s", self.lock, err)

    def __repr__(self) -> str:
        return f"LockHandle(lock={self.lock!r}, token={self.token}, session_id={self.session_id}, lost={self.lost.is_set()})"

    def _session_ended(self, state: State, reason: str) -> None:
        with self._mutex:
            if self._released:
                return
            self.lost.set()
        self._finish()

    def _finish(self) -> None:
        with self._mutex:
            if self._finished:
                return
            self._finished = True
        self._release_settled.set()
        self._remove_callback()
        self._on_end(self)
