"""Stand-ins for the unit tests: a clock the test moves by hand, a connection whose calls
are answered by functions the test gives, and server streams the test scripts (no network)."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import grpc

from palisade.clock import SessionClock
from palisade.connection import Answered, Connection, ServerStream
from palisade.wire import REASON_METADATA_KEY
from palisade.session import Session, SessionSettings


class ManualTime:
    """A monotonic and a wall clock that move only when the test says."""

    def __init__(self) -> None:
        self.monotonic = 1_000.0
        self.wall = 1_700_000_000.0
        self._lock = threading.Lock()

    def advance(self, seconds: float, *, wall_only: bool = False) -> None:
        with self._lock:
            if not wall_only:
                self.monotonic += seconds
            self.wall += seconds

    def step_wall(self, seconds: float) -> None:
        with self._lock:
            self.wall += seconds

    def read_monotonic(self) -> float:
        with self._lock:
            return self.monotonic

    def read_wall(self) -> float:
        with self._lock:
            return self.wall

    def clock(self) -> SessionClock:
        return SessionClock(monotonic=self.read_monotonic, wall=self.read_wall)


@dataclass
class Call:
    method: str
    request: Any
    kind: str
    attempt_timeout: Optional[float]
    budget: Optional[float]
    sent_at: float


Handler = Callable[[Call], Any]


class FakeRpcError(grpc.RpcError):
    """A failed call as gRPC raises it: a status code, details and the node's reason."""

    def __init__(self, code: grpc.StatusCode, reason: Optional[str] = None) -> None:
        super().__init__(f"{code.name} {reason or ''}")
        self._code = code
        self._reason = reason

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return f"{self._code.name.lower()}: {self._reason or 'no reason'}"

    def trailing_metadata(self) -> Tuple[Tuple[str, str], ...]:
        return ((REASON_METADATA_KEY, self._reason),) if self._reason else ()

    def initial_metadata(self) -> Tuple[Tuple[str, str], ...]:
        return ()


class FakeStream:
    """A server stream that yields `items` in turn (an exception item is raised, ending the
    stream); after the last it waits until cancelled, then fails as CANCELLED, as gRPC does."""

    def __init__(self, endpoint: str, request: Any, items: Sequence[Any]) -> None:
        self.endpoint = endpoint
        self.request = request
        self._items = list(items)
        self.cancelled = threading.Event()

    def __iter__(self) -> "FakeStream":
        return self

    def __next__(self) -> Any:
        if self.cancelled.is_set():
            raise FakeRpcError(grpc.StatusCode.CANCELLED)
        if self._items:
            item = self._items.pop(0)
            if isinstance(item, BaseException):
                raise item
            return item
        self.cancelled.wait(30)
        raise FakeRpcError(grpc.StatusCode.CANCELLED)

    def cancel(self) -> bool:
        self.cancelled.set()
        return True


#: Answers a stream opened on (endpoint, request) with the items it yields.
StreamHandler = Callable[[str, Any], Sequence[Any]]


class FakeConnection(Connection):
    """Answers each invoke() with handlers[method](call): its return value is the response,
    what it raises is what the caller sees. A stream of `method` yields what
    streams[method](endpoint, request) gives (see FakeStream)."""

    def __init__(self, clock: SessionClock, handlers: Dict[str, Handler], *, endpoints: Sequence[str] = ("fake:1",),
                 streams: Optional[Dict[str, StreamHandler]] = None) -> None:
        super().__init__(list(endpoints), call_timeout=3.0, retry_budget=15.0, clock=clock)
        self.handlers = handlers
        self.streams: Dict[str, StreamHandler] = streams or {}
        self.calls: List[Call] = []
        self.opened: List[FakeStream] = []
        self._calls_lock = threading.Lock()

    def open_stream(self, endpoint: str, method: str, request: object) -> ServerStream[Any]:
        stream = FakeStream(endpoint, request, self.streams[method](endpoint, request))
        with self._calls_lock:
            self.opened.append(stream)
        return stream

    def of(self, method: str) -> List[Call]:
        with self._calls_lock:
            return [c for c in self.calls if c.method == method]

    def invoke(self, service: Any, method: str, build: Callable[[], object], response_type: Any, *, kind: Any,
               attempt_timeout: Union[None, float, Callable[[], float]] = None, budget: Optional[float] = None,
               cancel: Optional[threading.Event] = None, may_wait: bool = False) -> Answered[Any]:
        timeout = attempt_timeout() if callable(attempt_timeout) else attempt_timeout
        call = Call(method, build(), kind, timeout, budget, self.clock.now())
        with self._calls_lock:
            self.calls.append(call)
        response = self.handlers[method](call)
        return Answered(response, call.sent_at, call.sent_at, "fake:1")


def open_fake_session(connection: FakeConnection, ttl: float = 30.0, tick: float = 0.05, opened_ago: float = 0.0) -> Session:
    return Session(connection, SessionSettings(
        session_id=7, ttl=ttl, client_name="unit", opened_sent_at=connection.clock.now() - opened_ago,
        call_timeout=3.0, retry_budget=15.0, drift_bound=0.01, deadline_tick=tick,
    ))


def wait_for(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    event = threading.Event()
    give_up = threading.Timer(timeout, event.set)
    give_up.start()
    try:
        while not check():
            if event.wait(0.01):
                return check()
        return True
    finally:
        give_up.cancel()
