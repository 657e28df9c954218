"""A grant held through PalisadeClient.lock() (or an election's lead): its token, an event
set when the grant can no longer be trusted, a release() that frees this grant only, or
hands it to a waiting session, and the mode changes of a lock held upgradeable (upgrade())
or exclusive (downgrade()), after which the handle holds the new grant. A context manager:
``with client.lock("name", wait=5.0) as lock:`` releases on exit."""
from __future__ import annotations

import logging
import threading
from types import TracebackType
from typing import Callable, Optional, Type

from . import _values
from .errors import (
    FailedPreconditionError,
    NotHolderError,
    OutcomeUnknownError,
    PalisadeError,
    SessionLostError,
    SessionNotFoundError,
    StaleTokenError,
    WaitCancelledError,
)
from .session import Session, State
from .types import DowngradeMode

log = logging.getLogger("palisade")


class LockHandle:
    def __init__(
        self, session: Session, lock: str, token: int, on_end: Callable[["LockHandle"], None], *,
        mode: str = "exclusive", slot: Optional[int] = None,
    ) -> None:
        self.lock = lock
        #: The fencing token: pass it to the resource with every access. An upgrade or a
        #: downgrade makes a new grant, and this is then the new grant's token.
        self.token = token
        #: "exclusive", "shared", "upgradeable" (fenced as shared: it reads, until upgraded),
        #: "permit" or "leader" (an election's lead, ended by Resign).
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
        # One mode change at a time; cleared while one is under way or settling in the
        # background, when the grant's token may be changing.
        self._change_mutex = threading.Lock()
        self._grant_settled = threading.Event()
        self._grant_settled.set()
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
            self._release_current(successor)
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

    def _release_current(self, successor: Optional[int]) -> None:
        """Releases (or resigns) the grant under its current token. A token made stale by a
        mode change that was under way is followed to the new grant."""
        while True:
            with self._mutex:
                token = self.token
            try:
                if self.mode == "leader":
                    self._session.resign(self.lock, token, successor)
                else:
                    self._session.release(self.lock, token, successor)
                return
            except StaleTokenError:
                # An upgrade or downgrade may have made a new grant whose answer is on its way.
                self._grant_settled.wait()
                with self._mutex:
                    if self.token == token:
                        return  # the grant had ended already
            except (NotHolderError, SessionNotFoundError, SessionLostError):
                return  # the grant had ended already

    def upgrade(self, wait: float = 0.0, cancel: Optional[threading.Event] = None) -> bool:
        """Makes this upgradeable grant exclusive in place, waiting up to `wait` seconds (0:
        answer at once) for the other holders (shared ones) to leave; the wait goes before
        every queued request, and new shared requests wait behind it. True: upgraded, and
        `token` and `mode` ("exclusive") are the new grant's. False: the wait ended first;
        the upgradeable grant goes on, `token` unchanged.

        Setting `cancel` (or Ctrl-C) while it waits sends CancelWait for this Upgrade and
        raises WaitCancelledError (or lets the KeyboardInterrupt through), the hold kept.
        The same for an Upgrade whose answer did not come (OutcomeUnknownError), settled in
        the background: an exclusive grant that won the race is downgraded back to
        upgradeable, and this handle then holds that grant (a new `token`).

        FailedPreconditionError (ERROR_REASON_HELD_IN_ANOTHER_MODE) for a handle that is
        not upgradeable, NotHolderError once released, SessionLostError once lost: these
        send nothing. NotHolderError also when the grant ended while the Upgrade waited
        (a release() from another thread, a revoke)."""
        _values.seconds(wait, "wait")
        with self._change_mutex:
            # A change whose answer was lost may still be settling: its outcome is the grant.
            self._grant_settled.wait()
            token = self._begin_change("upgradeable", "upgraded")
            try:
                result = self._session.upgrade(self.lock, token, wait=wait, cancel=cancel, on_change=self._changed)
            except BaseException:
                self._session.after_settled(self.lock, self._grant_settled.set)
                raise
            try:
                if result.upgraded and result.token is not None:
                    self._changed(result.token, "exclusive")
                    return True
            finally:
                self._grant_settled.set()
        if result.cancelled:
            raise WaitCancelledError(f"the upgrade of lock {self.lock!r} was cancelled")
        return False

    def downgrade(self, mode: DowngradeMode = "shared") -> None:
        """Makes this exclusive grant "shared" or "upgradeable": a new grant, whose token and
        mode this handle then holds, and the queued requests the new mode admits (readers at
        the head of the queue) are granted by the same log entry.

        OutcomeUnknownError: the Downgrade goes on with its seq in the background, and this
        handle takes the new grant once it is answered (a release() meanwhile follows it).
        FailedPreconditionError for a grant that is not exclusive, NotHolderError once
        released, SessionLostError once lost; these send nothing."""
        _values.downgrade_mode(mode)
        with self._change_mutex:
            self._grant_settled.wait()
            token = self._begin_change("exclusive", "downgraded")
            try:
                result = self._session.downgrade(self.lock, token, mode, on_change=self._changed)
            except BaseException:
                self._session.after_settled(self.lock, self._grant_settled.set)
                raise
            try:
                self._changed(result.token, result.mode)
            finally:
                self._grant_settled.set()

    def _begin_change(self, needs: str, what: str) -> int:
        """The token a mode change names, once this handle holds a grant of mode `needs`;
        marks the grant as changing."""
        with self._mutex:
            if self._released:
                raise NotHolderError(f"lock {self.lock!r}: this handle was released", None, "ERROR_REASON_NOT_HOLDER")
            if self.lost.is_set() or self._session.state != "open":
                ended = self._session.lost_error
                raise SessionLostError(
                    f"lock {self.lock!r}: the grant was lost with session {self.session_id}",
                    ended.code if ended else None, ended.reason if ended else None,
                )
            if self.mode != needs:
                # What the cluster answers: an election's lead is another kind of name.
                reason = "ERROR_REASON_KIND_MISMATCH" if self.mode == "leader" else "ERROR_REASON_HELD_IN_ANOTHER_MODE"
                raise FailedPreconditionError(f"lock {self.lock!r} is held {self.mode}: only a grant held {needs} is {what}", None, reason)
            self._grant_settled.clear()
            return self.token

    def _changed(self, token: int, mode: str) -> None:
        """The grant became a new one (an upgrade, a downgrade, or one of theirs settled late)."""
        with self._mutex:
            if not self._finished:
                self.token = token
                self.mode = mode

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
        return (
            f"LockHandle(lock={self.lock!r}, token={self.token}, mode={self.mode!r}, session_id={self.session_id}, "
            f"lost={self.lost.is_set()})"
        )

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
