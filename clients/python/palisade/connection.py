"""Calls to a set of node endpoints.

One gRPC channel per endpoint, a preferred endpoint (the last one that answered, or the
leader a node named in ``palisade-leader``), and retries on the answers that mean "try
again elsewhere" (UNAVAILABLE, DEADLINE_EXCEEDED) until a retry budget runs out. Each
attempt has its own deadline. A write that never got an answer ends in
OutcomeUnknownError, a read in UnavailableError. With a bearer token, every call (a
stream's too) carries it in its ``authorization`` metadata.
"""
from __future__ import annotations

import math
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Generic, Iterator, List, Literal, Optional, Protocol, Sequence, Set, Tuple, Type, TypeVar, Union

import grpc

from .clock import PROCESS_CLOCK, SessionClock
from .errors import OutcomeUnknownError, UnavailableError
from .v1 import admin_pb2_grpc, lock_pb2_grpc
from .wire import LEADER_METADATA_KEY, call_code, call_details, call_metadata, error_from_rpc, metadata_value, reason_of

Service = Literal["lock", "admin"]
Kind = Literal["write", "read"]
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

RETRIABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
# Refusals the log keeps no answer for: the node turned the request away before it was
# logged, or the state machine refused it without recording it. After an earlier attempt of
# the same write that may have been logged (it went unanswered, or was lost with a leader),
# such a refusal says nothing of the write's outcome, so the write is sent again.
UNRECORDED = frozenset(
    {
        "ERROR_REASON_TOO_MANY_IN_FLIGHT",
        "ERROR_REASON_RATE_LIMITED",
        "ERROR_REASON_DISK_RESERVE",
        "ERROR_REASON_TOO_MANY_WAITS_ON_STREAM",
    }
)
# Longest pause (seconds) before a write refused as above is sent again.
UNRECORDED_PAUSE_MAX = 1.0

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
#: The metadata key a node reads a caller's bearer token from ("Bearer pal_...").
AUTHORIZATION_METADATA_KEY = "authorization"


class Cancelled(Exception):
    """The caller's cancel event was set while a call was in progress (the call was cancelled)."""


class _Closed(Exception):
    """The client was closed while a call was in progress (the call was cancelled)."""


class _Moved(Exception):
    """Another call found the node of this attempt silent; the attempt was cancelled to try another."""


# An attempt on a node that answers promptly gives up after PATIENCE_FACTOR times its usual
# answer time, never sooner than PATIENCE_FLOOR seconds, rather than at the call timeout.
PATIENCE_FACTOR = 10
PATIENCE_FLOOR = 1.0
# Weight of the newest answer time in the smoothed one.
ANSWER_SMOOTHING = 0.25

# Reasons with which a node that answered says no leader could serve the call.
_LEADERLESS = frozenset({"ERROR_REASON_NOT_LEADER", "ERROR_REASON_NO_LEADER", "ERROR_REASON_READ_NOT_CONFIRMED"})


def _short_detail(detail: str) -> str:
    """A transport's failure text without what the endpoint's name already says, times and empty notes."""
    detail = re.sub(r"^the stream to \S+ broke: ", "", detail)
    detail = re.sub(r" \(\d{4}-\d\d-\d\dT[^)]*\)", "", detail)
    detail = re.sub(r"\.? ?Resolution note: ?$", "", detail)
    return detail.strip()


def endpoint_state(err: grpc.RpcError) -> Tuple[bool, bool, str]:
    """What an endpoint's last failure says of it: (answered, no leader known there, in a few words)."""
    metadata = call_metadata(err)
    reason = reason_of(metadata)
    hint = metadata_value(metadata, LEADER_METADATA_KEY)
    if hint:
        return True, False, f"says {hint} leads"
    if reason in _LEADERLESS:
        return True, True, "no leader known there"
    detail = call_details(err)
    if reason is not None:
        return True, False, detail
    if call_code(err) == grpc.StatusCode.DEADLINE_EXCEEDED:
        return False, False, "no answer"
    if re.search(r"ECONNREFUSED|Connection refused", detail):
        return False, False, "refused"
    if re.search(r"ENOTFOUND|EAI_AGAIN|DNS resolution failed|Name resolution failed", detail, re.I):
        return False, False, "name not found"
    if re.search(r"EHOSTUNREACH|ENETUNREACH|No route to host", detail):
        return False, False, "unreachable"
    if re.search(r"self[- ]signed|unable to (?:verify|get local issuer)|CERTIFICATE_VERIFY_FAILED|certificate verify failed", detail, re.I):
        return False, False, "certificate signed by an unknown CA"
    if re.search(r"wrong version number|WRONG_VERSION_NUMBER|packet length too long", detail, re.I):
        return False, False, "the server does not use TLS (connect without TLS)"
    if re.search(r"Failed to connect|Socket closed|Connection reset|ECONNRESET", detail, re.I):
        return False, False, f"connection failed (does the server require TLS?): {_short_detail(detail)}"
    return False, False, _short_detail(detail)


def give_up_cause(endpoints: Sequence[str], failed: Dict[str, grpc.RpcError]) -> str:
    """Why a call got no answer, naming each endpoint's last failure, worded as the TypeScript
    client words it: "no leader: 1 of 3 members reachable (...)", "no member reachable (...)",
    or "no answer within the time given (...)"."""
    states = [(e, *endpoint_state(failed[e])) for e in endpoints if e in failed]
    listed = ", ".join(f"{e} {words}" for e, _, _, words in states)
    answered = sum(1 for _, a, _, _ in states if a)
    if any(no_leader for _, _, no_leader, _ in states):
        return f"no leader: {answered} of {len(endpoints)} members reachable ({listed})"
    if answered == 0:
        return f"no member reachable ({listed})"
    return f"no answer within the time given ({listed})"


class ServerStream(Protocol[R_co]):
    """A server-streaming call as gRPC gives it: iterating yields the answers (a failed call
    raises its grpc.RpcError), cancel() ends it from any thread."""

    def __iter__(self) -> Iterator[R_co]: ...

    def __next__(self) -> R_co: ...

    def cancel(self) -> bool: ...


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
        token: Optional[str] = None,
    ) -> None:
        if len(endpoints) == 0:
            raise ValueError("at least one endpoint is needed")
        self._endpoints: List[str] = list(endpoints)
        self.call_timeout = call_timeout
        self.retry_budget = retry_budget
        self.clock = clock
        self._credentials = credentials
        self._interceptors = tuple(interceptors)
        # Plain metadata rather than call credentials, which gRPC sends only over TLS: a
        # cluster without TLS takes tokens too (for a test cluster on loopback).
        self._metadata: Optional[Tuple[Tuple[str, str], ...]] = (
            None if token is None else ((AUTHORIZATION_METADATA_KEY, f"Bearer {token}"),)
        )
        self._lock = threading.Lock()
        self._preferred = 0
        self._channels: Dict[str, Tuple[grpc.Channel, Any, Any]] = {}
        # Attempts in flight per endpoint (each one's "moved" event), and endpoints that let
        # an attempt run out unanswered, passed over until the given monotonic time.
        self._in_flight: Dict[str, Set[threading.Event]] = {}
        self._silent_until: Dict[str, float] = {}
        # How long each endpoint takes to answer, smoothed (seconds).
        self._answer_s: Dict[str, float] = {}
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

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def open_stream(self, endpoint: str, method: str, request: object) -> ServerStream[Any]:
        """Starts a server-streaming call of the lock service on `endpoint` (no deadline: it
        lasts until cancelled or ended); raises UnavailableError once the client is closed."""
        if self._closed.is_set():
            raise UnavailableError(f"{method}: the client is closed")
        stream: ServerStream[Any] = getattr(self._stub(endpoint, "lock"), method)(request, metadata=self._metadata)
        return stream

    def call_once(
        self,
        endpoint: str,
        service: Service,
        method: str,
        request: object,
        response_type: Type[R],
        timeout: float,
        cancel: Optional[threading.Event] = None,
        moved: Optional[threading.Event] = None,
    ) -> R:
        """One attempt on one endpoint; raises the grpc.RpcError, Cancelled, _Closed or _Moved.

        The call runs as a future so that a cancel event, a closed client, another call
        finding the node silent, or Ctrl-C (which Event.wait lets through) stops it; gRPC
        cancels the call on the wire then.
        """
        if self._closed.is_set():
            raise _Closed()
        future = getattr(self._stub(endpoint, service), method).future(request, timeout=timeout, metadata=self._metadata)
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        try:
            while not done.wait(_POLL_SECONDS):
                if cancel is not None and cancel.is_set():
                    raise Cancelled()
                if self._closed.is_set():
                    raise _Closed()
                if moved is not None and moved.is_set():
                    raise _Moved()
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
        attempt_timeout: Union[None, float, Callable[[], float]] = None,
        budget: Optional[float] = None,
        cancel: Optional[threading.Event] = None,
        may_wait: bool = False,
    ) -> Answered[R]:
        """Sends a request, following leader hints and retrying on UNAVAILABLE and
        DEADLINE_EXCEEDED until the budget runs out.

        `build` is called per attempt so a write carries its latest acknowledgements; the
        caller keeps the seq, so a retry is the same write. Each attempt's deadline is
        `attempt_timeout` (default: call_timeout; a function is asked before each attempt),
        cut to what is left of the budget, and on a node that answers promptly to PATIENCE_FACTOR
        times its usual answer time (at least PATIENCE_FLOOR seconds) unless `may_wait` (the node
        may hold the answer on purpose, as for an Acquire with a wait).
        """
        give_up_at = time.monotonic() + (self.retry_budget if budget is None else budget)
        failures_in_row = 0
        # Refusals in a row of a write an earlier attempt may have logged (see UNRECORDED).
        unrecorded_in_row = 0
        # An earlier attempt may have been logged: it was not refused as not led there.
        may_be_logged = False
        first_sent_at: Optional[float] = None
        last_error: Optional[grpc.RpcError] = None
        # Each endpoint's last failure in this call: what the error says when it gives up.
        failed: Dict[str, grpc.RpcError] = {}
        while True:
            endpoint = self.current
            request = build()
            per_attempt = attempt_timeout() if callable(attempt_timeout) else attempt_timeout
            wanted = self.call_timeout if per_attempt is None else per_attempt
            patience = math.inf if may_wait else self._patience(endpoint)
            timeout = max(0.001, min(wanted, give_up_at - time.monotonic(), patience))
            started = time.monotonic()
            sent_at = self.clock.now()
            if first_sent_at is None:
                first_sent_at = sent_at
            moved = threading.Event()
            self._track(endpoint, moved, True)
            try:
                response = self.call_once(endpoint, service, method, request, response_type, timeout, cancel, moved)
                with self._lock:
                    self._silent_until.pop(endpoint, None)
                if not may_wait:
                    self._answered(endpoint, time.monotonic() - started)
                return Answered(response, first_sent_at, sent_at, endpoint)
            except _Closed:
                # Sent or not, its answer will never be read here.
                what = f"{method}: the client was closed before an answer came"
                raise (OutcomeUnknownError(what) if kind == "write" else UnavailableError(what)) from None
            except _Moved:
                # Another call found this node silent: try the next one (a write keeps its seq).
                failures_in_row += 1
                may_be_logged = True
                self._move_on(endpoint, None)
            except grpc.RpcError as err:
                code = call_code(err)
                if self._closed.is_set() or (code == grpc.StatusCode.CANCELLED and reason_of(call_metadata(err)) is None):
                    # Cancelled on this side (the channel closed under it): no answer, not an answer.
                    what = f"{method}: the call was cancelled before an answer came ({call_details(err)})"
                    raise (OutcomeUnknownError(what, code) if kind == "write" else UnavailableError(what, code)) from None
                if code not in RETRIABLE:
                    if not (kind == "write" and may_be_logged and reason_of(call_metadata(err)) in UNRECORDED):
                        raise error_from_rpc(err) from None
                    # The node answered and leads: try it again after a pause, not another node.
                    last_error = err
                    failed[endpoint] = err
                    unrecorded_in_row += 1
                    pause = min(0.05 * 2 ** (unrecorded_in_row - 1), UNRECORDED_PAUSE_MAX, max(0.0, give_up_at - time.monotonic()))
                    if (cancel or self._closed).wait(pause) and cancel is not None and cancel.is_set():
                        raise Cancelled() from None
                    if self._closed.is_set() or time.monotonic() >= give_up_at:
                        break
                    continue
                if reason_of(call_metadata(err)) not in _LEADERLESS:
                    may_be_logged = True
                last_error = err
                earlier = failed.get(endpoint)
                # A node's own answer earlier in the call says more than a later attempt cut short.
                if not (code == grpc.StatusCode.DEADLINE_EXCEEDED and earlier is not None and reason_of(call_metadata(earlier)) is not None):
                    failed[endpoint] = err
                failures_in_row += 1
                if code == grpc.StatusCode.DEADLINE_EXCEEDED:
                    self._silenced(endpoint, timeout)
                else:
                    with self._lock:
                        self._silent_until.pop(endpoint, None)
                    if not may_wait and reason_of(call_metadata(err)) is not None:
                        self._answered(endpoint, time.monotonic() - started)
                self._move_on(endpoint, err)
            finally:
                self._track(endpoint, moved, False)
            if self._closed.is_set() or time.monotonic() >= give_up_at:
                break
            # Once every endpoint failed in a row, back off: an election is probably under way.
            if failures_in_row >= len(self.endpoints):
                rounds = failures_in_row // len(self.endpoints)
                pause = min(0.05 * 2 ** (rounds - 1), 0.5, max(0.0, give_up_at - time.monotonic()))
                if (cancel or self._closed).wait(pause) and cancel is not None and cancel.is_set():
                    raise Cancelled()
        reason = reason_of(call_metadata(last_error)) if last_error is not None else None
        code = call_code(last_error) if last_error is not None else None
        cause = give_up_cause(self.endpoints, failed) if failed else "no answer within the time given (client is closed)"
        what = f"{method}: {cause}"
        if kind == "write":
            raise OutcomeUnknownError(what, code, reason)
        raise UnavailableError(what, code, reason)

    def _track(self, endpoint: str, moved: threading.Event, add: bool) -> None:
        with self._lock:
            attempts = self._in_flight.setdefault(endpoint, set())
            if add:
                attempts.add(moved)
            else:
                attempts.discard(moved)
                if not attempts:
                    del self._in_flight[endpoint]

    def _patience(self, endpoint: str) -> float:
        """How long an attempt on `endpoint` may wait before the node counts as stopped: a
        stopped leader (SIGSTOP, a long pause) keeps its connections open and answers nothing,
        and the cluster elects another within about a second."""
        with self._lock:
            usual = self._answer_s.get(endpoint)
        return math.inf if usual is None else max(PATIENCE_FLOOR, PATIENCE_FACTOR * usual)

    def _answered(self, endpoint: str, seconds: float) -> None:
        """An answer (or an error the node sent) from `endpoint` after `seconds`."""
        with self._lock:
            before = self._answer_s.get(endpoint)
            self._answer_s[endpoint] = seconds if before is None else before + ANSWER_SMOOTHING * (seconds - before)

    def _silenced(self, endpoint: str, seconds: float) -> None:
        """`endpoint` let an attempt of `seconds` run out unanswered (a stopped or hung node):
        pass it over for as long, and move the other attempts waiting on it (a waiting
        Acquire among them) to the next node now."""
        with self._lock:
            self._silent_until[endpoint] = time.monotonic() + seconds
            others = list(self._in_flight.get(endpoint, ()))
        for other in others:
            other.set()

    def _is_silent_locked(self, endpoint: str) -> bool:
        until = self._silent_until.get(endpoint)
        if until is None:
            return False
        if until > time.monotonic():
            return True
        del self._silent_until[endpoint]
        return False

    def _move_on(self, endpoint: str, err: Optional[grpc.RpcError]) -> None:
        """After a retriable failure at `endpoint`: the hinted leader next (unless it went
        silent), else the next endpoint that has not."""
        hint = metadata_value(call_metadata(err), LEADER_METADATA_KEY) if err is not None else None
        with self._lock:
            if hint and _HOST_PORT.match(hint) and hint != endpoint and not self._is_silent_locked(hint):
                if hint not in self._endpoints:
                    self._endpoints.append(hint)
                self._preferred = self._endpoints.index(hint)
            elif self._endpoints[self._preferred] == endpoint:
                # Only if no other call moved on meanwhile.
                self._preferred = self._next_answering_locked(endpoint)

    def _next_answering_locked(self, endpoint: str) -> int:
        """The index of the next endpoint after `endpoint` that is not passed over (the next one if all are)."""
        n = len(self._endpoints)
        start = self._endpoints.index(endpoint) if endpoint in self._endpoints else self._preferred
        for step in range(1, n + 1):
            index = (start + step) % n
            if not self._is_silent_locked(self._endpoints[index]):
                return index
        return (start + 1) % n

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            channels = [entry[0] for entry in self._channels.values()]
            self._channels.clear()
        for channel in channels:
            channel.close()
