"""A session on the cluster: its writes (Acquire, Release, CloseSession, a held lock's
Upgrade and Downgrade, and an election's Campaign, Proclaim and Resign) with the
exactly-once bookkeeping, its keepalive thread and its own expiry deadline.

Threads, not asyncio: the API is synchronous (what most Python code calls), and gRPC's
blocking calls release the GIL, so a keepalive thread keeps the session alive while the
caller's thread does its work, however that work is written. Each session has two daemon
threads: the keepalive loop (blocking calls, TTL/3 apart) and the deadline check (every
tick), so a keepalive stuck in failover never delays the loss.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Literal, Optional, Tuple, Type, TypeVar

import grpc

from . import _values
from .acks import AckTracker
from .connection import Cancelled, Connection
from .errors import (
    LimitError,
    OutcomeUnknownError,
    PalisadeError,
    ServerError,
    SessionLostError,
    SessionNotFoundError,
    UnavailableError,
    WaitCancelledError,
)
from .types import (
    AcquireResult,
    CampaignResult,
    CancelWaitResult,
    DowngradeMode,
    DowngradeResult,
    LockMode,
    UpgradeResult,
    campaign_result_from,
    cancel_wait_from,
    downgrade_result_from,
    holder_from,
    upgrade_result_from,
)
from .v1 import lock_pb2

#: Writes a session keeps in flight at most (SPEC "Exactly-once").
MAX_IN_FLIGHT = 64

State = Literal["open", "closed", "lost"]
EndCallback = Callable[[State, str], None]
#: Told a grant's new token and mode when a mode change the caller did not see the end of
#: (an Upgrade given up, a write whose answer was lost) made a new grant.
GrantChanged = Callable[[int, str], None]
R = TypeVar("R")

log = logging.getLogger("palisade")

# Pause between two tries of a background settlement whose answer did not come.
_SETTLE_PAUSE_SECONDS = 0.2

# CancelWait failures that say nothing about the Acquire's seq: no answer came, or the
# cancel was refused before anything was recorded (a limit, a server error). The wait may
# go on, or a delayed Acquire still apply, so the CancelWait is sent again.
_NOT_A_CANCEL_ANSWER = (OutcomeUnknownError, UnavailableError, SessionLostError, LimitError, ServerError)


@dataclass(frozen=True)
class SessionSettings:
    session_id: int
    #: Seconds, as the cluster answered OpenSession.
    ttl: float
    client_name: str
    #: Session-clock time the OpenSession request was first sent.
    opened_sent_at: float
    call_timeout: float
    retry_budget: float
    #: Bound ρ on clock-rate drift; the client gives up 2·ρ·TTL + one tick before the cluster would.
    drift_bound: float
    #: Interval of the deadline check, seconds.
    deadline_tick: float


class Session:
    def __init__(self, connection: Connection, settings: SessionSettings) -> None:
        self.id = settings.session_id
        self.ttl = settings.ttl
        self.client_name = settings.client_name
        #: Set once the session is lost: its deadline passed or the cluster ended it. Final.
        self.lost = threading.Event()
        self._connection = connection
        self._settings = settings
        self._clock = connection.clock
        self._mutex = threading.RLock()
        self._acks = AckTracker()
        self._state: State = "open"
        self._reason = ""
        # The status of the cluster's answer that ended the session: its code and reason.
        self._end_code: Optional[grpc.StatusCode] = None
        self._end_error_reason: Optional[str] = None
        self._ended = threading.Event()
        self._last_ack_sent_at = settings.opened_sent_at
        self._end_callbacks: Dict[int, EndCallback] = {}
        self._next_callback_id = 0
        self._unsettled: Dict[str, int] = {}
        self._after_settled: Dict[str, List[Callable[[], None]]] = {}
        self._keepalive_thread = threading.Thread(target=self._keepalive_loop, name=f"palisade-keepalive-{self.id}", daemon=True)
        self._deadline_thread = threading.Thread(target=self._deadline_loop, name=f"palisade-deadline-{self.id}", daemon=True)
        self._keepalive_thread.start()
        self._deadline_thread.start()

    # ---- state ---------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self._state

    @property
    def reason(self) -> str:
        """Why the session ended ("" while open)."""
        return self._reason

    @property
    def lost_error(self) -> Optional[SessionLostError]:
        """What a write of this lost session raises (None while open or once closed). Its
        code and reason are those of the cluster's answer that ended the session
        (ERROR_REASON_SESSION_NOT_FOUND, ERROR_REASON_PERMISSION_DENIED), None when the
        session's own deadline passed."""
        with self._mutex:
            return self._ended_error_locked() if self._state == "lost" else None

    @property
    def deadline(self) -> float:
        """The session-clock time after which the client treats the session as lost."""
        with self._mutex:
            return self._deadline_locked()

    def time_left(self) -> float:
        """Seconds to the deadline (negative once past it)."""
        return self.deadline - self._clock.now()

    @property
    def live(self) -> bool:
        """True while the session is open and its deadline has not passed, checked now."""
        self._check_deadline()
        return self._state == "open"

    @property
    def next_seq(self) -> int:
        """The seq the next write of this session will carry."""
        with self._mutex:
            return self._acks.peek()

    def acknowledgements(self, seq: Optional[int] = None) -> Tuple[int, List[int]]:
        """What a write carries now: (acked_up_to, held); with `seq`, what the write of that
        seq carries (only held seqs below it)."""
        with self._mutex:
            return self._acks.acks(below=seq)

    @property
    def in_flight(self) -> int:
        """Writes sent (or being settled) whose final answer has not arrived."""
        with self._mutex:
            return self._acks.outstanding

    def add_end_callback(self, callback: EndCallback) -> Callable[[], None]:
        """Calls `callback(state, reason)` once when the session is closed or lost (at once if
        it already is); returns a function that removes it."""
        with self._mutex:
            if self._state == "open":
                key = self._next_callback_id
                self._next_callback_id += 1
                self._end_callbacks[key] = callback
                return lambda: self._remove_end_callback(key)
            state, reason = self._state, self._reason
        callback(state, reason)
        return lambda: None

    def after_settled(self, lock: str, callback: Callable[[], None]) -> None:
        """Calls `callback` once no write of `lock` is being settled in the background (at
        once when none is): an Acquire whose outcome the caller did not get, or a Release
        whose outcome was unknown."""
        with self._mutex:
            if self._unsettled.get(lock, 0) > 0:
                self._after_settled.setdefault(lock, []).append(callback)
                return
        callback()

    # ---- writes ----------------------------------------------------------------------------

    def acquire(
        self, lock: str, wait: float = 0.0, cancel: Optional[threading.Event] = None, *,
        mode: Optional[LockMode] = None, permits: Optional[int] = None, data: Optional[str] = None,
    ) -> AcquireResult:
        """Acquire `lock`, waiting in its FIFO queue up to `wait` seconds (0: answer at once).

        `mode` is "exclusive" (default), "shared" or "upgradeable" (beside shared holders,
        never beside another upgradeable or an exclusive one; see upgrade()); `permits` makes `lock` a semaphore of
        that many permits and asks for one (the result's `slot` is the permit's); `data` is
        holder data shown with the grant. Setting `cancel` (or Ctrl-C) while it waits sends
        CancelWait; a grant that won the race is released. WaitCancelledError (or the
        KeyboardInterrupt) follows.
        """
        name = _values.lock_name(lock)
        wait_ms = _values.milliseconds(wait, "wait")
        kinds = _values.acquire_kinds(mode, permits, data)
        seq = self._start_write()

        def build() -> lock_pb2.AcquireRequest:
            acked_up_to, held = self.acknowledgements(seq)
            request = lock_pb2.AcquireRequest(session_id=self.id, lock=name, wait_ms=wait_ms, seq=seq, acked_up_to=acked_up_to, held=held)
            kinds(request)
            return request

        response = self._waiting_write(
            name, seq, "Acquire", build, lock_pb2.AcquireResponse, wait_ms, cancel,
            what=f"the wait for lock {name!r}", late=lambda token: self._release_late_grant(name, seq, token, election=False),
        )
        holder = holder_from(response.holder) if response.HasField("holder") else None
        slot = next((g.slot for g in response.grants if g.lock == name and g.permits > 0), None) if response.acquired else None
        return AcquireResult(response.acquired, seq, response.token if response.acquired else None, holder, slot)

    def campaign(self, election: str, value: str = "", wait: float = 0.0, cancel: Optional[threading.Event] = None) -> CampaignResult:
        """Campaign for `election` with `value` (the leader's value once elected), waiting
        among its candidates (FIFO) up to `wait` seconds (0: answer at once).

        A numbered write, as acquire(): setting `cancel` (or Ctrl-C) while it waits
        withdraws the candidacy with CancelWait(election, campaign seq), and a lead that won
        the race is resigned; WaitCancelledError (or the KeyboardInterrupt) follows. A
        Campaign by the leader answers its own lead.
        """
        name = _values.text(election, "election")
        encoded = _values.text(value, "value").encode("utf-8")
        wait_ms = _values.milliseconds(wait, "wait")
        seq = self._start_write()

        def build() -> lock_pb2.CampaignRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.CampaignRequest(
                session_id=self.id, election=name, value=encoded, wait_ms=wait_ms, seq=seq, acked_up_to=acked_up_to, held=held,
            )

        response = self._waiting_write(
            name, seq, "Campaign", build, lock_pb2.CampaignResponse, wait_ms, cancel,
            what=f"the wait for election {name!r}", late=lambda token: self._release_late_grant(name, seq, token, election=True),
        )
        return campaign_result_from(response, seq)

    def upgrade(
        self, lock: str, token: int, wait: float = 0.0, cancel: Optional[threading.Event] = None, *,
        on_change: Optional[GrantChanged] = None,
    ) -> UpgradeResult:
        """Make this session's upgradeable grant of `lock` (`token`) exclusive, waiting up to
        `wait` seconds (0: answer at once) for the other holders to leave. The wait goes
        before every queued request and keeps new shared ones out. Upgraded: a new grant, the
        result's `token`; not upgraded: the upgradeable grant goes on with `token`.

        A numbered write that may wait, as acquire(): the same seq through failovers, and
        setting `cancel` (or Ctrl-C) while it waits sends CancelWait(lock, upgrade seq) and
        raises WaitCancelledError (or lets the KeyboardInterrupt through), the hold left as
        it was. An Upgrade whose answer the caller did not get (that, or
        OutcomeUnknownError) is settled through CancelWait; an exclusive grant that won the
        race is downgraded back to upgradeable, and `on_change` told the new grant's token
        and mode. NotHolderError: the grant ended (while the Upgrade waited, too);
        StaleTokenError: `token` is not its current grant; FailedPreconditionError
        (ERROR_REASON_HELD_IN_ANOTHER_MODE): the grant is not upgradeable.
        """
        name = _values.lock_name(lock)
        checked_token = _values.u64(token, "token", positive=True)
        wait_ms = _values.milliseconds(wait, "wait")
        seq = self._start_write()

        def build() -> lock_pb2.UpgradeRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.UpgradeRequest(
                session_id=self.id, lock=name, token=checked_token, wait_ms=wait_ms, seq=seq, acked_up_to=acked_up_to, held=held,
            )

        response = self._waiting_write(
            name, seq, "Upgrade", build, lock_pb2.UpgradeResponse, wait_ms, cancel,
            what=f"the upgrade of lock {name!r}", late=lambda new_token: self._undo_late_upgrade(name, seq, new_token, on_change),
        )
        return upgrade_result_from(response, seq)

    def downgrade(self, lock: str, token: int, mode: DowngradeMode, *, on_change: Optional[GrantChanged] = None) -> DowngradeResult:
        """Make this session's exclusive grant of `lock` (`token`) "shared" or "upgradeable":
        a new grant, with the token of its entry, which also grants the queued requests the
        new mode admits. Without an answer in time: OutcomeUnknownError, retried with its
        seq in the background as release() is, and `on_change` told the new grant's token
        and mode once answered. StaleTokenError, NotHolderError: not the current grant;
        FailedPreconditionError: the grant is not exclusive."""
        name = _values.lock_name(lock)
        checked_token = _values.u64(token, "token", positive=True)
        wire_mode = _values.downgrade_mode(mode)
        asked: DowngradeMode = "upgradeable" if wire_mode == lock_pb2.LOCK_MODE_UPGRADEABLE else "shared"
        seq = self._start_write()

        def build() -> lock_pb2.DowngradeRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.DowngradeRequest(
                session_id=self.id, lock=name, token=checked_token, mode=wire_mode, seq=seq, acked_up_to=acked_up_to, held=held,
            )

        def answered_late(response: lock_pb2.DowngradeResponse) -> None:
            if on_change is not None:
                result = downgrade_result_from(response, asked)
                on_change(result.token, result.mode)

        response = self._numbered_write(name, seq, "Downgrade", build, lock_pb2.DowngradeResponse, late=answered_late)
        return downgrade_result_from(response, asked)

    def _waiting_write(
        self, name: str, seq: int, method: str, build: Callable[[], object], response_type: Type[R], wait_ms: int,
        cancel: Optional[threading.Event], *, what: str, late: Callable[[int], None],
    ) -> R:
        """Sends an Acquire, a Campaign or an Upgrade that may wait `wait_ms` for its answer;
        an answer the caller does not get is settled through CancelWait, and `late` handed
        the token of a grant that won the race."""
        wait_s = wait_ms / 1000
        try:
            answered = self._connection.invoke(
                "lock", method, build, response_type, kind="write",
                attempt_timeout=wait_s + self._settings.call_timeout, budget=wait_s + self._settings.retry_budget, cancel=cancel,
                may_wait=wait_s > 0,
            )
        except Cancelled:
            self._cancel_after_abort(name, seq, late)
            raise WaitCancelledError(f"{what} was cancelled") from None
        except OutcomeUnknownError:
            # Learn the final answer through CancelWait, undo a grant nobody will use.
            self._settle_in_background(name, lambda: self._settle_acquire(name, seq, late))
            raise
        except PalisadeError as err:
            self._answered(seq, err)
            raise
        except BaseException:
            # Ctrl-C (or another exit) while the answer was on its way: the caller gives up.
            self._cancel_after_abort(name, seq, late)
            raise
        self._answered(seq)
        return answered.response

    def cancel_wait(self, lock: str, acquire_seq: int) -> CancelWaitResult:
        """Cancel the wait of the Acquire sent with `acquire_seq`. Idempotent; answers the
        final answer recorded for that seq. Sent before its Acquire, it makes that Acquire
        take no effect."""
        name = _values.lock_name(lock)
        seq = _values.u64(acquire_seq, "acquire_seq", positive=True)
        answered = self._connection.invoke(
            "lock", "CancelWait", lambda: lock_pb2.CancelWaitRequest(session_id=self.id, lock=name, acquire_seq=seq),
            lock_pb2.CancelWaitResponse, kind="write",
        )
        return cancel_wait_from(answered.response)

    def release(self, lock: str, token: int, successor: Optional[int] = None) -> None:
        """Release `lock`, held by this session with `token`; with `successor` (a session
        waiting for this lock alone, exclusive) hand it over: the same log entry grants it
        to that session, with a new token, ahead of the queue. A successor that is not
        waiting so is refused (FailedPreconditionError, ERROR_REASON_SUCCESSOR_NOT_WAITING)
        and the grant stays.

        If no answer comes within the retry budget, OutcomeUnknownError is raised and the
        session goes on retrying the same seq in the background until it is answered or
        the session ends (after_settled tells when).
        """
        name = _values.lock_name(lock)
        checked_token = _values.u64(token, "token", positive=True)
        heir = _successor(successor)
        seq = self._start_write()

        def build() -> lock_pb2.ReleaseRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.ReleaseRequest(
                session_id=self.id, lock=name, token=checked_token, seq=seq, acked_up_to=acked_up_to, held=held, successor_session_id=heir,
            )

        self._numbered_write(name, seq, "Release", build, lock_pb2.ReleaseResponse)

    def resign(self, election: str, token: int, successor: Optional[int] = None) -> None:
        """Step down from `election`, led by this session with `token`; the next candidate
        leads. With `successor` (a waiting candidate's session) the lead goes to that one in
        the same entry, with a new token; one that is not waiting is refused
        (FailedPreconditionError, ERROR_REASON_SUCCESSOR_NOT_WAITING) and this session still
        leads. Without an answer in time: OutcomeUnknownError, retried as release() is."""
        name = _values.text(election, "election")
        checked_token = _values.u64(token, "token", positive=True)
        heir = _successor(successor)
        seq = self._start_write()

        def build() -> lock_pb2.ResignRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.ResignRequest(
                session_id=self.id, election=name, token=checked_token, seq=seq, acked_up_to=acked_up_to, held=held, successor_session_id=heir,
            )

        self._numbered_write(name, seq, "Resign", build, lock_pb2.ResignResponse)

    def proclaim(self, election: str, token: int, value: str) -> None:
        """A new value for `election`, led by this session with `token` (StaleTokenError for
        another token of this session, NotHolderError when it does not lead). Without an
        answer in time: OutcomeUnknownError, retried as release() is."""
        name = _values.text(election, "election")
        checked_token = _values.u64(token, "token", positive=True)
        encoded = _values.text(value, "value").encode("utf-8")
        seq = self._start_write()

        def build() -> lock_pb2.ProclaimRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.ProclaimRequest(
                session_id=self.id, election=name, token=checked_token, value=encoded, seq=seq, acked_up_to=acked_up_to, held=held,
            )

        self._numbered_write(name, seq, "Proclaim", build, lock_pb2.ProclaimResponse)

    def _numbered_write(
        self, name: str, seq: int, method: str, build: Callable[[], object], response_type: Type[R], *,
        late: Optional[Callable[[R], None]] = None,
    ) -> R:
        """Sends a write that answers at once; without an answer it goes on in the background
        with the same seq (registered under `name` for after_settled), and `late` is handed
        the answer that comes then."""
        try:
            answered = self._connection.invoke("lock", method, build, response_type, kind="write")
        except PalisadeError as err:
            if isinstance(err, OutcomeUnknownError):
                self._settle_in_background(name, lambda: self._settle_write(method, build, response_type, seq, late))
            else:
                self._answered(seq, err)
            raise
        except BaseException:
            self._settle_in_background(name, lambda: self._settle_write(method, build, response_type, seq, late))
            raise
        self._answered(seq)
        return answered.response

    def close(self) -> None:
        """Close the session, releasing its locks and cancelling its waits. Closing twice,
        or a lost session, is a no-op."""
        self._check_deadline()
        with self._mutex:
            if self._state != "open":
                return
            seq = self._acks.allocate()
            callbacks = self._end_locked("closed", "session closed by the client")
        self._run_callbacks(callbacks, "closed")
        try:
            self._send_close(seq, self._settings.retry_budget)
        except SessionNotFoundError:
            pass  # already gone on the cluster: what the caller wanted

    # ---- background settlement ---------------------------------------------------------------

    def _cancel_after_abort(self, lock: str, seq: int, late: Callable[[int], None]) -> None:
        """The caller gave up on an Acquire (or Campaign, or Upgrade): cancel its wait, and
        hand a grant that won the race to `late`."""
        if self._state != "open":
            self._answered(seq)
            return
        try:
            result = self.cancel_wait(lock, seq)
        except _NOT_A_CANCEL_ANSWER:
            self._settle_in_background(lock, lambda: self._settle_acquire(lock, seq, late))
            return
        except PalisadeError as err:
            self._answered(seq, err)
            return
        except BaseException:
            # A second Ctrl-C: finish in the background.
            self._settle_in_background(lock, lambda: self._settle_acquire(lock, seq, late))
            raise
        self._answered(seq)
        if result.outcome == "granted" and result.token is not None:
            late(result.token)

    def _settle_acquire(self, lock: str, seq: int, late: Callable[[int], None]) -> None:
        """Sends CancelWait for `seq` until an answer about that seq comes (or the session
        ends), and hands a grant that won the race to `late`."""
        while self._state == "open":
            try:
                result = self.cancel_wait(lock, seq)
            except _NOT_A_CANCEL_ANSWER:
                self._ended.wait(_SETTLE_PAUSE_SECONDS)
                continue
            except PalisadeError as err:
                self._answered(seq, err)
                return
            self._answered(seq)
            if result.outcome == "granted" and result.token is not None:
                late(result.token)
            return

    def _settle_write(
        self, method: str, build: Callable[[], object], response_type: Type[R], seq: int, late: Optional[Callable[[R], None]] = None,
    ) -> None:
        """Retries one write with its own seq until it is answered or the session ends."""
        while self._state == "open":
            try:
                answered = self._connection.invoke("lock", method, build, response_type, kind="write")
            except OutcomeUnknownError:
                self._ended.wait(_SETTLE_PAUSE_SECONDS)
                continue
            except PalisadeError as err:
                self._answered(seq, err)
                return
            self._answered(seq)
            if late is not None:
                late(answered.response)
            return

    def _release_late_grant(self, lock: str, acquire_seq: int, token: int, election: bool) -> None:
        if election:
            log.info("session %d: resigning election %r (token %d), led after Campaign seq %d gave up", self.id, lock, token, acquire_seq)
        else:
            log.info("session %d: releasing lock %r (token %d), granted to Acquire seq %d after its caller gave up", self.id, lock, token, acquire_seq)
        try:
            if election:
                self.resign(lock, token)
            else:
                self.release(lock, token)
        except PalisadeError as err:
            # Unknown: the release goes on in the background; otherwise the grant had already ended.
            log.info("session %d: release of the late grant of %r: %s", self.id, lock, err)

    def _undo_late_upgrade(self, lock: str, upgrade_seq: int, token: int, on_change: Optional[GrantChanged]) -> None:
        """An Upgrade whose caller gave up made the grant exclusive (`token`): make it
        upgradeable again, as the caller holds it, and tell `on_change` the new grant."""
        log.info(
            "session %d: downgrading lock %r (token %d) back to upgradeable, upgraded by Upgrade seq %d after its caller gave up",
            self.id, lock, token, upgrade_seq,
        )
        try:
            result = self.downgrade(lock, token, "upgradeable", on_change=on_change)
        except PalisadeError as err:
            # Unknown: the downgrade goes on in the background (on_change is told then);
            # otherwise the grant had already ended.
            log.info("session %d: downgrade of the late upgrade of %r: %s", self.id, lock, err)
            return
        if on_change is not None:
            on_change(result.token, result.mode)

    def _settle_in_background(self, lock: str, work: Callable[[], None]) -> None:
        with self._mutex:
            self._unsettled[lock] = self._unsettled.get(lock, 0) + 1

        def run() -> None:
            try:
                work()
            except Exception:  # noqa: BLE001 - a settlement must never kill its thread silently
                log.exception("session %d: settling a write of lock %r failed", self.id, lock)
            finally:
                with self._mutex:
                    left = self._unsettled.get(lock, 1) - 1
                    callbacks: List[Callable[[], None]] = []
                    if left > 0:
                        self._unsettled[lock] = left
                    else:
                        self._unsettled.pop(lock, None)
                        callbacks = self._after_settled.pop(lock, [])
                for callback in callbacks:
                    callback()

        threading.Thread(target=run, name=f"palisade-settle-{self.id}", daemon=True).start()

    # ---- keepalive and deadline --------------------------------------------------------------

    def _deadline_loop(self) -> None:
        while not self._ended.wait(self._settings.deadline_tick):
            self._check_deadline()

    def _keepalive_loop(self) -> None:
        period = max(0.001, self.ttl / 3)
        while not self._ended.is_set():
            started = self._clock.now()
            left = self.deadline - started
            if left <= 0:
                self._check_deadline()
                return
            try:
                # The failover is bounded by the time left, and each attempt by a third of
                # what is left when it starts, so a node that does not answer (a stopped
                # leader) leaves time for the others.
                answered = self._connection.invoke(
                    "lock", "KeepAlive", lambda: lock_pb2.KeepAliveRequest(session_ids=[self.id]), lock_pb2.KeepAliveResponse,
                    kind="read", attempt_timeout=lambda: min(self._settings.call_timeout, max(0.001, self.time_left()) / 3),
                    budget=left, cancel=self._ended,
                )
            except Cancelled:
                return
            except PalisadeError:
                pass  # try again next period; the deadline decides when to give up
            else:
                kept = answered.response.sessions
                if len(kept) != 1 or kept[0].session_id != self.id:
                    pass  # not an answer about this session: try again next period
                elif kept[0].permission_denied:
                    # Not this caller's session (the token or certificate is another
                    # identity's), or its identity lost every right the session uses:
                    # nothing it holds can be trusted any longer.
                    self._lose(
                        f"the cluster refused session {self.id}: permission denied (a session of another identity, "
                        "or its identity lost the rights it uses)",
                        grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_PERMISSION_DENIED",
                    )
                    return
                elif kept[0].not_found:
                    self._lose(
                        f"the cluster ended session {self.id}: not found (unknown, closed or expired)",
                        grpc.StatusCode.NOT_FOUND, "ERROR_REASON_SESSION_NOT_FOUND",
                    )
                    return
                else:
                    self._acknowledged(answered.sent_at)
            pause = started + period - self._clock.now()
            if pause > 0:
                self._ended.wait(pause)

    def _acknowledged(self, sent_at: float) -> None:
        """A keepalive sent at `sent_at` was acknowledged: the cluster restarted the TTL when
        it arrived, which was after it was sent. An answer after the deadline revives nothing."""
        with self._mutex:
            callbacks = self._expire_if_due_locked()
            if callbacks is None and self._state == "open" and sent_at > self._last_ack_sent_at:
                self._last_ack_sent_at = sent_at
        if callbacks is not None:
            self._after_expiry(callbacks)

    def _check_deadline(self) -> None:
        with self._mutex:
            callbacks = self._expire_if_due_locked()
        if callbacks is not None:
            self._after_expiry(callbacks)

    def _expire_if_due_locked(self) -> Optional[List[EndCallback]]:
        if self._state != "open" or self._clock.now() <= self._deadline_locked():
            return None
        reason = f"session {self.id}: no keepalive acknowledged within its TTL ({self.ttl:g} s) minus the drift margin"
        return self._end_locked("lost", reason)

    def _deadline_locked(self) -> float:
        margin = 2 * self._settings.drift_bound * self.ttl + self._settings.deadline_tick
        return self._last_ack_sent_at + self.ttl - margin

    def _after_expiry(self, callbacks: List[EndCallback]) -> None:
        self._run_callbacks(callbacks, "lost")
        # Best effort: tell the cluster, so its locks go to the next waiter sooner.
        with self._mutex:
            seq = self._acks.allocate()
        threading.Thread(target=self._close_quietly, args=(seq,), name=f"palisade-close-{self.id}", daemon=True).start()

    def _close_quietly(self, seq: int) -> None:
        try:
            self._send_close(seq, self._settings.call_timeout)
        except PalisadeError:
            pass

    def _send_close(self, seq: int, budget: float) -> None:
        def build() -> lock_pb2.CloseSessionRequest:
            acked_up_to, held = self.acknowledgements(seq)
            return lock_pb2.CloseSessionRequest(session_id=self.id, seq=seq, acked_up_to=acked_up_to, held=held)

        try:
            self._connection.invoke("lock", "CloseSession", build, lock_pb2.CloseSessionResponse, kind="write", budget=budget)
        finally:
            # The session is over on this side: nothing of it is sent again.
            with self._mutex:
                self._acks.answered(seq)

    def _lose(self, reason: str, code: Optional[grpc.StatusCode] = None, error_reason: Optional[str] = None) -> None:
        """Ends the session as lost; `code` and `error_reason` are those of the cluster's
        answer that ended it, when one did."""
        with self._mutex:
            if self._state != "open":
                return
            self._end_code = code
            self._end_error_reason = error_reason
            callbacks = self._end_locked("lost", reason)
        self._run_callbacks(callbacks, "lost")

    def _end_locked(self, state: State, reason: str) -> List[EndCallback]:
        self._state = state
        self._reason = reason
        if state == "lost":
            self.lost.set()
        self._ended.set()
        callbacks = list(self._end_callbacks.values())
        self._end_callbacks.clear()
        return callbacks

    def _run_callbacks(self, callbacks: List[EndCallback], state: State) -> None:
        if state == "lost":
            log.warning("%s", self._reason)
        for callback in callbacks:
            try:
                callback(state, self._reason)
            except Exception:  # noqa: BLE001 - one listener must not keep the others from hearing
                log.exception("session %d: an end callback failed", self.id)

    def _remove_end_callback(self, key: int) -> None:
        with self._mutex:
            self._end_callbacks.pop(key, None)

    # ---- helpers -----------------------------------------------------------------------------

    def _start_write(self) -> int:
        self._check_deadline()
        with self._mutex:
            if self._state != "open":
                raise self._ended_error_locked()
            if self._acks.outstanding >= MAX_IN_FLIGHT:
                raise LimitError(f"session {self.id} already has {MAX_IN_FLIGHT} writes in flight")
            return self._acks.allocate()

    def _answered(self, seq: int, error: Optional[PalisadeError] = None) -> None:
        """The final answer to `seq` arrived (an error answer too)."""
        with self._mutex:
            self._acks.answered(seq)
        if isinstance(error, SessionNotFoundError):
            self._lose(f"the cluster ended session {self.id}: {error.message}", error.code, error.reason)

    def _ended_error_locked(self) -> SessionLostError:
        return SessionLostError(f"session {self.id} is {self._state}: {self._reason}", self._end_code, self._end_error_reason)


def _successor(value: Optional[int]) -> int:
    """A handoff's successor session on the wire: 0 names none."""
    return 0 if value is None else _values.u64(value, "successor", positive=True)
