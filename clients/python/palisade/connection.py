"""Calls to a set of node endpoints.

One gRPC channel per endpoint, a preferred endpoint (the last one that answered, or the
leader a node named in ``palisade-leader``), and retries on the answers that mean "try
again elsewhere" (UNAVAILABLE, DEADLINE_EXCEEDED) until a retry budget runs out. Each
attempt has its own deadline. A write that never got an answer ends in
OutcomeUnknownError, a read in UnavailableError.
"""
from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Generic, List, Literal, Optional, Sequence, Tuple, Type, TypeVar

import grpc

from .clock import PROCESS_CLOCK, SessionClock
from .errors import OutcomeUnknownError, UnavailableError
from .v1 import admin_pb2_grpc, lock_pb2_grpc
from .wire import LEADER_METADATA_KEY, call_code, call_details, call_metadata, error_from_rpc, metadata_value, reason_of

Service = Literal["lock", "admin"]
Kind = Literal["write", "read"]
R = TypeVar("R")

RETRIABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})

CHANNEL_OPTIONS: List[Tuple[str, int]] = [
    # Reconnect quickly to a node that restarts; gRPC's default backoff starts at 1 s.
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1_000),
    ("grpc.max_receive_message_length", 4 * 1024 * 1024),
]

# The generated stubs carry no annotations.
_LOCK_STUB: Any = lock_pb2_grpc.LockServiceStub
_ADMIN_STUB: Any = admin_pb2_grpc.AdminServiceStub

# How often a waiting call looks at its cancel event (and lets Ctrl-C through).
_POLL_SECONDS = 0.05
_HOST_PORT = re.compile(r"^\S+:\d+$")


class Cancelled(Exception):
    """The caller's cancel event was set while a call was in progress (the call was cancelled)."""


class _Closed(Exception):
    """The client was closed while a call was in progress (the call was cancelled)."""


@dataclass(frozen=True)
class Answered(Generic[R]):
    response: R
    #: Session-clock time the first attempt was sent (a write may have taken effect from it).
    first_sent_at: float
    #: Session-clock time the answered attempt was sent.
    sent_at: float
    endpoint: str


class Connection:
    def __init__(
        self,
        endpoints: Sequence[str],
        *,
        call_timeout: float,
        retry_budget: float,
        credentials: Optional[grpc.ChannelCredentials] = None,
        interceptors: Sequence[Any] = (),
        clock: SessionClock = PROCESS_CLOCK,
    ) -> None:
        if len(endpoints) == 0:
            raise ValueError("at least one endpoint is needed")
        self._endpoints: List[str] = list(endpoints)
        self.call_timeout = call_timeout
        self.retry_budget = retry_budget
        self.clock = clock
        self._credentials = credentials
        self._interceptors = tuple(interceptors)
        self._lock = threading.Lock()
        self._preferred = 0
        self._channels: Dict[str, Tuple[grpc.Channel, Any, Any]] = {}
        self._closed = threading.Event()

    @property
    def endpoints(self) -> Tuple[str, ...]:
        with self._lock:
            return tuple(self._endpoints)

    @property
    def current(self) -> str:
        """The endpoint requests go to first."""
        with self._lock:
            return self._endpoints[self._preferred]

    def _stub(self, endpoint: str, service: Service) -> Any:
        with self._lock:
            entry = self._channels.get(endpoint)
            if entry is None:
                if self._credentials is None:
                    channel = grpc.insecure_channel(endpoint, options=CHANNEL_OPTIONS)
                else:
                    channel = grpc.secure_channel(endpoint, self._credentials, options=CHANNEL_OPTIONS)
                if self._interceptors:
                    channel = grpc.intercept_channel(channel, *self._interceptors)
                entry = (channel, _LOCK_STUB(channel), _ADMIN_STUB(channel))
                self._channels[endpoint] = entry
        return entry[1] if service == "lock" else entry[2]

    def call_once(
        self,
        endpoint: str,
        service: Service,
        method: str,
        request: object,
        response_type: Type[R],
        timeout: float,
        cancel: Optional[threading.Event] = None,
    ) -> R:
        """One attempt on one endpoint; raises the grpc.RpcError, Cancelled, or _Closed.

        The call runs as a future so that a cancel event, a closed client or Ctrl-C (which
        Event.wait lets through) stops it; gRPC cancels the call on the wire then.
        """
        if self._closed.is_set():
            raise _Closed()
        future = getattr(self._stub(endpoint, service), method).future(request, timeout=timeout)
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        try:
            while not done.wait(_POLL_SECONDS):
                if cancel is not None and cancel.is_set():
                    raise Cancelled()
                if self._closed.is_set():
                    raise _Closed()
        except BaseException:
            future.cancel()
            raise
        response = future.result()
        if not isinstance(response, response_type):
            raise UnavailableError(f"{method}: unexpected answer {type(response).__name__} from {endpoint}")
        return response

    def invoke(
        self,
        service: Service,
        method: str,
        build: Callable[[], object],
        response_type: Type[R],
        *,
        kind: Kind,
        attempt_timeout: Optional[float] = None,
        budget: Optional[float] = None,
        cancel: Optional[threading.Event] = None,
    ) -> Answered[R]:
        """Sends a request, following leader hints and retrying on UNAVAILABLE and
        DEADLINE_EXCEEDED until the budget runs out.

        `build` is called per attempt so a write carries its latest acknowledgements; the
        caller keeps the seq, so a retry is the same write. Each attempt's deadline is
        `attempt_timeout` (default: call_timeout), cut to what is left of the budget.
        """
        per_attempt = self.call_timeout if attempt_timeout is None else attempt_timeout
        give_up_at = time.monotonic() + (self.retry_budget if budget is None else budget)
        failures_in_row = 0
        first_sent_at: Optional[float] = None
        last_error: Optional[grpc.RpcError] = None
        while True:
            endpoint = self.current
            request = build()
            timeout = max(0.001, min(per_attempt, give_up_at - time.monotonic()))
            sent_at = self.clock.now()
            if first_sent_at is None:
                first_sent_at = sent_at
            try:
                response = self.call_once(endpoint, service, method, request, response_type, timeout, cancel)
                return Answered(response, first_sent_at, sent_at, endpoint)
            except _Closed:
                # Sent or not, its answer will never be read here.
                what = f"{method}: the client was closed before an answer came"
                raise (OutcomeUnknownError(what) if kind == "write" else UnavailableError(what)) from None
            except grpc.RpcError as err:
                if call_code(err) not in RETRIABLE:
                    raise error_from_rpc(err) from None
                last_error = err
                failures_in_row += 1
                self._move_on(endpoint, err)
            if self._closed.is_set() or time.monotonic() >= give_up_at:
                break
            # Once every endpoint failed in a row, back off: an election is probably under way.
            if failures_in_row >= len(self.endpoints):
                rounds = failures_in_row // len(self.endpoints)
                pause = min(0.05 * 2 ** (rounds - 1), 0.5, max(0.0, give_up_at - time.monotonic()))
                if (cancel or self._closed).wait(pause) and cancel is not None and cancel.is_set():
                    raise Cancelled()
        detail = call_details(last_error) if last_error is not None else "client is closed"
        reason = reason_of(call_metadata(last_error)) if last_error is not None else None
        code = call_code(last_error) if last_error is not None else None
        what = f"{method}: no answer after retrying for the whole budget (last: {detail})"
        if kind == "write":
            raise OutcomeUnknownError(what, code, reason)
        raise UnavailableError(what, code, reason)

    def _move_on(self, endpoint: str, err: grpc.RpcError) -> None:
        """After a retriable failure at `endpoint`: the hinted leader next, else the next endpoint."""
        hint = metadata_value(call_metadata(err), LEADER_METADATA_KEY)
        with self._lock:
            if hint and _HOST_PORT.match(hint) and hint != endpoint:
                if hint not in self._endpoints:
                    self._endpoints.append(hint)
                self._preferred = self._endpoints.index(hint)
            elif self._endpoints[self._preferred] == endpoint:
                # Only if no other call moved on meanwhile.
                self._preferred = (self._preferred + 1) % len(self._endpoints)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            channels = [entry[0] for entry in self._channels.values()]
            self._channels.clear()
        for channel in channels:
            channel.close()
