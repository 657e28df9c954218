"""PalisadeClient: the entry point. Opens sessions, takes locks and campaigns in elections
(``client.elections``) on one session of its own, and runs linearizable reads, over one
Connection to every endpoint."""
from __future__ import annotations

import threading
import uuid
from types import TracebackType
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Type, TypeVar, Union

import grpc

from . import _values
from .clock import PROCESS_CLOCK, SessionClock
from .connection import Connection
from .elections import CAMPAIGN_WAIT, Elections, Leadership
from .errors import LockBusyError, LockNotAcquiredError, PalisadeError, SessionLostError, SessionNotFoundError, WaitCancelledError
from .lock import LockHandle
from .session import Session, SessionSettings
from .types import (
    HistoryRecord,
    HolderCursor,
    LockInfo,
    LockMode,
    LockPage,
    LockSummary,
    SessionInfo,
    SessionPage,
    history_from,
    lock_info_from,
    lock_page_from,
    session_info_from,
)
from .v1 import lock_pb2

R = TypeVar("R")


class _Acquiring:
    """The claim of a name whose Acquire is outstanding."""


_ACQUIRING = _Acquiring()


class PalisadeClient:
    """A client of one Palisade cluster. Thread-safe; close it (or use ``with``) when done.

    endpoints: host:port of each node's client address.
    call_timeout: deadline of one call attempt, seconds (a waiting Acquire adds its wait).
    retry_budget: how long a request keeps retrying through failovers, seconds.
    session_ttl: TTL of the session lock() uses, seconds (the cluster allows 1 s to 1 h).
    drift_bound: bound ρ on clock-rate drift for the session deadline.
    deadline_tick: interval of the session deadline check, seconds.
    credentials: channel credentials (grpc.ssl_channel_credentials(...)); plaintext when None.
    interceptors: gRPC client interceptors put on every channel (tracing, auth, tests).
    token: a bearer token ("pal_...", from AdminService.CreateToken): every call acts as
        its identity; without one, calls act as the client certificate's identity (TLS) or
        as an anonymous caller.
    """

    def __init__(
        self,
        endpoints: Sequence[str],
        *,
        client_name: str = "",
        call_timeout: float = 3.0,
        retry_budget: float = 15.0,
        session_ttl: float = 10.0,
        drift_bound: float = 0.01,
        deadline_tick: float = 0.05,
        credentials: Optional[grpc.ChannelCredentials] = None,
        interceptors: Sequence[Any] = (),
        clock: SessionClock = PROCESS_CLOCK,
        token: Optional[str] = None,
    ) -> None:
        if isinstance(endpoints, str):
            raise TypeError("endpoints: a sequence of host:port strings, not one string")
        self.client_name = _values.text(client_name, "client_name")
        self._call_timeout = _values.seconds(call_timeout, "call_timeout")
        self._retry_budget = _values.seconds(retry_budget, "retry_budget")
        self._session_ttl = _values.seconds(session_ttl, "session_ttl")
        self._drift_bound = _values.seconds(drift_bound, "drift_bound")
        self._deadline_tick = _values.seconds(deadline_tick, "deadline_tick")
        self._connection = Connection(
            endpoints, call_timeout=self._call_timeout, retry_budget=self._retry_budget,
            credentials=credentials, interceptors=interceptors, clock=clock,
            token=None if token is None else _values.bearer_token(token),
        )
        self._claims_mutex = threading.Lock()
        self._claims: Dict[str, Union[_Acquiring, LockHandle]] = {}
        self._session_mutex = threading.Lock()
        self._open_mutex = threading.Lock()
        self._lock_session: Optional[Session] = None
        self._sessions: Set[Session] = set()
        #: Leader election: campaign, read the leader, observe, hand over.
        self.elections = Elections(self)

    @property
    def endpoints(self) -> Sequence[str]:
        """The endpoints known, the given ones and any leader a node named since."""
        return self._connection.endpoints

    @property
    def current_endpoint(self) -> str:
        """The endpoint the next request goes to first (the last one that answered)."""
        return self._connection.current

    # ---- sessions ----------------------------------------------------------------------------

    def open_session(self, ttl: Optional[float] = None, client_name: Optional[str] = None) -> Session:
        """Opens a session (TTL in seconds; None: the cluster's default, 10 s). A retry
        reuses its request id, so it never opens two."""
        ttl_ms = 0 if ttl is None else _values.milliseconds(ttl, "ttl")
        name = self.client_name if client_name is None else _values.text(client_name, "client_name")
        request_id = str(uuid.uuid4())
        answered = self._connection.invoke(
            "lock", "OpenSession", lambda: lock_pb2.OpenSessionRequest(ttl_ms=ttl_ms, client_name=name, request_id=request_id),
            lock_pb2.OpenSessionResponse, kind="write",
        )
        session = Session(self._connection, SessionSettings(
            session_id=answered.response.session_id,
            ttl=answered.response.ttl_ms / 1000,
            client_name=name,
            # An earlier attempt may have opened it: its TTL may run from the first send.
            opened_sent_at=answered.first_sent_at,
            call_timeout=self._call_timeout,
            retry_budget=self._retry_budget,
            drift_bound=self._drift_bound,
            deadline_tick=self._deadline_tick,
        ))
        with self._session_mutex:
            self._sessions.add(session)
        session.add_end_callback(lambda _state, _reason: self._forget_session(session))
        return session

    def _forget_session(self, session: Session) -> None:
        with self._session_mutex:
            self._sessions.discard(session)

    def _session_for_locks(self) -> Session:
        """The session lock() uses, opened on first use and again after a loss (a lost
        session stays lost). One OpenSession at a time: concurrent lock() calls share it."""
        with self._open_mutex:
            session = self._lock_session
            if session is None or session.state != "open":
                session = self.open_session(ttl=self._session_ttl)
                self._lock_session = session
            return session

    # ---- locks held by this client -------------------------------------------------------------

    def lock(
        self, name: str, wait: float = 0.0, cancel: Optional[threading.Event] = None, *,
        mode: Optional[LockMode] = None, permits: Optional[int] = None, data: Optional[str] = None,
    ) -> LockHandle:
        """Acquires `name` on this client's session, waiting up to `wait` seconds in its queue:
        exclusive unless `mode` is "shared" or "upgradeable" (a reader that may become the
        writer in place: see LockHandle.upgrade), or one permit of a semaphore of `permits`,
        with holder `data` shown in reads and history.

        Raises LockBusyError at once (sending nothing) when this client already holds the
        name or has an Acquire of it outstanding; LockNotAcquiredError when another
        session holds it and the wait ended (or wait is 0); WaitCancelledError when
        `cancel` was set while waiting (a KeyboardInterrupt goes through the same
        cancellation). Use the handle as a context manager to release it on exit.
        """
        lock = _values.lock_name(name)
        _values.seconds(wait, "wait")

        def send(session: Session) -> Tuple[int, Optional[int]]:
            result = session.acquire(lock, wait=wait, cancel=cancel, mode=mode, permits=permits, data=data)
            if not result.acquired or result.token is None:
                holder = result.holder
                raise LockNotAcquiredError(lock, holder.session_id if holder else None, holder.token if holder else None)
            return result.token, result.slot

        return self._take(lock, "permit" if permits is not None else mode or "exclusive", send)

    def _campaign(self, election: str, value: str, wait: Optional[float], cancel: Optional[threading.Event]) -> Leadership:
        """Campaigns on the session lock() uses; without a wait, again after each wait that
        ends unelected (see Elections.campaign)."""
        name = _values.text(election, "election")
        text = _values.text(value, "value")
        if wait is not None:
            _values.seconds(wait, "wait")

        def send(session: Session) -> Tuple[int, Optional[int]]:
            result = session.campaign(name, text, wait=CAMPAIGN_WAIT if wait is None else wait, cancel=cancel)
            if result.cancelled:
                raise WaitCancelledError(f"the campaign for election {name!r} was cancelled")
            if not result.elected or result.token is None:
                leader = result.leader
                raise LockNotAcquiredError(name, leader.session_id if leader else None, leader.token if leader else None)
            return result.token, None

        while True:
            try:
                return Leadership(self._take(name, "leader", send), text)
            except LockNotAcquiredError:
                if wait is not None:
                    raise

    def _take(self, lock: str, mode: str, send: Callable[[Session], Tuple[int, Optional[int]]]) -> LockHandle:
        """The claim, the write and the handle behind lock() and a campaign: `send` sends the
        Acquire (or Campaign) on this client's session and answers the grant's (token, slot),
        or raises LockNotAcquiredError."""
        with self._claims_mutex:
            if lock in self._claims:
                raise LockBusyError(lock)
            self._claims[lock] = _ACQUIRING
        claim_kept = False
        try:
            session = self._session_for_locks()
            try:
                token, slot = send(session)
            except LockNotAcquiredError:
                raise  # answered: nothing is left to settle
            except BaseException:
                # An Acquire whose answer the caller did not get stays claimed until the
                # session has settled it (cancelled, or its late grant released).
                session.after_settled(lock, lambda: self._drop_claim(lock, _ACQUIRING))
                claim_kept = True
                raise
            if session.state != "open":
                # Lost while the answer travelled: the session's end freed (or will free) the grant.
                ended = session.lost_error
                raise SessionLostError(
                    f"session {session.id} ended before the grant of {lock!r} arrived",
                    ended.code if ended else None, ended.reason if ended else None,
                )
            handle = LockHandle(session, lock, token, lambda h: self._drop_claim(lock, h), mode=mode, slot=slot)
            with self._claims_mutex:
                if not handle.lost.is_set():
                    self._claims[lock] = handle
            return handle
        finally:
            if not claim_kept:
                self._drop_claim(lock, _ACQUIRING)

    def _drop_claim(self, lock: str, claim: Union[_Acquiring, LockHandle]) -> None:
        with self._claims_mutex:
            if self._claims.get(lock) is claim:
                del self._claims[lock]

    # ---- reads (linearizable) ----------------------------------------------------------------

    def get_lock(
        self, name: str, timeout: Optional[float] = None, *, holders_after: Optional[HolderCursor] = None, waiters_after: int = 0,
        holder_limit: Optional[int] = None, waiter_limit: Optional[int] = None,
    ) -> LockInfo:
        """A lock with one page of its holders and one of its waiters: the first of each unless
        `holders_after` / `waiters_after` (a previous answer's next_holders_after /
        next_waiters_after) say where to go on. A limit of None is the cluster's default page
        (100), 0 lists none (the counts only), at most 1,000."""
        lock = _values.lock_name(name)
        after = None if holders_after is None else lock_pb2.HolderCursor(
            token=_values.u64(holders_after.token, "holders_after.token"), session_id=_values.u64(holders_after.session_id, "holders_after.session_id"),
        )
        waiters_index = _values.u64(waiters_after, "waiters_after")
        limits = {
            key: _values.u64(value, key) for key, value in (("holder_limit", holder_limit), ("waiter_limit", waiter_limit)) if value is not None
        }

        def build() -> lock_pb2.GetLockRequest:
            return lock_pb2.GetLockRequest(lock=lock, holders_after=after, waiters_after_index=waiters_index, **limits)

        return lock_info_from(self._read("GetLock", build, lock_pb2.GetLockResponse, timeout))

    def lock_pages(
        self, name: str, timeout: Optional[float] = None, *, holder_limit: Optional[int] = None, waiter_limit: Optional[int] = None,
    ) -> Iterator[LockInfo]:
        """Every page of a lock's holders and waiters: the first as get_lock reads it, then each
        next page of the lists that go on. Each page is a read of its own: a grant or wait that
        ends or begins meanwhile may be missing or new, but no entry comes twice."""
        page = self.get_lock(name, timeout, holder_limit=holder_limit, waiter_limit=waiter_limit)
        yield page
        while page.next_holders_after is not None or page.next_waiters_after != 0:
            holders_next = page.next_holders_after
            waiters_next = page.next_waiters_after
            page = self.get_lock(
                name, timeout, holders_after=holders_next, waiters_after=waiters_next,
                holder_limit=holder_limit if holders_next is not None else 0, waiter_limit=waiter_limit if waiters_next != 0 else 0,
            )
            yield page

    def list_locks(self, prefix: str = "", after: str = "", limit: int = 0, timeout: Optional[float] = None) -> LockPage:
        """One page of locks whose names start with `prefix`, after `after` (limit 0: the cluster's page size)."""
        p = _values.text(prefix, "prefix")
        a = _values.text(after, "after")
        n = _values.u64(limit, "limit")
        response = self._read("ListLocks", lambda: lock_pb2.ListLocksRequest(prefix=p, after=a, limit=n), lock_pb2.ListLocksResponse, timeout)
        return lock_page_from(response)

    def all_locks(self, prefix: str = "", timeout: Optional[float] = None) -> List[LockSummary]:
        """Every lock whose name starts with `prefix`, following pages."""
        found: List[LockSummary] = []
        after = ""
        while True:
            page = self.list_locks(prefix=prefix, after=after, timeout=timeout)
            found.extend(page.locks)
            if page.next_after == "":
                return found
            after = page.next_after

    def get_session(self, session_id: int, timeout: Optional[float] = None) -> Optional[SessionInfo]:
        """The session, or None when it is unknown or ended."""
        sid = _values.u64(session_id, "session_id", positive=True)
        try:
            response = self._read("GetSession", lambda: lock_pb2.GetSessionRequest(session_id=sid), lock_pb2.GetSessionResponse, timeout)
        except SessionNotFoundError:
            return None
        return session_info_from(response.session) if response.HasField("session") else None

    def list_sessions(self, after: int = 0, limit: int = 0, timeout: Optional[float] = None) -> SessionPage:
        a = _values.u64(after, "after")
        n = _values.u64(limit, "limit")
        response = self._read(
            "ListSessions", lambda: lock_pb2.ListSessionsRequest(after_session_id=a, limit=n), lock_pb2.ListSessionsResponse, timeout,
        )
        return SessionPage([session_info_from(s) for s in response.sessions], response.next_after_session_id)

    def history(self, name: str, limit: int = 0, timeout: Optional[float] = None) -> List[HistoryRecord]:
        """Retained grants of a lock, oldest first (limit 0: all)."""
        lock = _values.lock_name(name)
        n = _values.u64(limit, "limit")
        return history_from(self._read("GetLockHistory", lambda: lock_pb2.GetLockHistoryRequest(lock=lock, limit=n), lock_pb2.GetLockHistoryResponse, timeout))

    def validate_token(self, name: str, token: int, timeout: Optional[float] = None) -> bool:
        """Whether `token` is the lock's current grant at the instant of the read (best effort:
        it narrows a window, only a fenced resource closes it)."""
        lock = _values.lock_name(name)
        t = _values.u64(token, "token", positive=True)
        return self._read("ValidateToken", lambda: lock_pb2.ValidateTokenRequest(lock=lock, token=t), lock_pb2.ValidateTokenResponse, timeout).valid

    def _read(self, method: str, build: Callable[[], object], response_type: Type[R], timeout: Optional[float]) -> R:
        budget = None if timeout is None else _values.seconds(timeout, "timeout")
        return self._connection.invoke("lock", method, build, response_type, kind="read", budget=budget).response

    # ---- closing -------------------------------------------------------------------------------

    def close(self) -> None:
        """Releases this client's locks, closes its sessions (best effort) and the channels."""
        with self._claims_mutex:
            handles = [claim for claim in self._claims.values() if isinstance(claim, LockHandle)]
        for handle in handles:
            try:
                handle.release()
            except PalisadeError:
                pass
        with self._session_mutex:
            sessions = list(self._sessions)
        for session in sessions:
            try:
                session.close()
            except PalisadeError:
                pass
        self._connection.close()

    def __enter__(self) -> "PalisadeClient":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()
