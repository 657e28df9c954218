"""gRPC client interceptors the cluster tests put on a client's channels: one records each
attempt (its method, request and outcome), one loses the answer of a chosen call."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

import grpc

from palisade.wire import LEADER_METADATA_KEY, REASON_METADATA_KEY, call_metadata, metadata_value


class FakeStatus(grpc.RpcError):
    """A failed call as the client sees it, made up by an interceptor."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self._code = code
        self._details = details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> Tuple[Tuple[str, str], ...]:
        return ()

    def initial_metadata(self) -> Tuple[Tuple[str, str], ...]:
        return ()


@dataclass
class Attempt:
    method: str
    request: Any
    code: Optional[grpc.StatusCode] = None
    reason: Optional[str] = None
    leader_hint: Optional[str] = None


def _method_name(details: Any) -> str:
    return str(details.method).rsplit("/", 1)[-1]


class Recorder(grpc.UnaryUnaryClientInterceptor):
    """Records every attempt and, once it ends, its status code, reason and leader hint."""

    def __init__(self) -> None:
        self.attempts: List[Attempt] = []
        self._lock = threading.Lock()

    def of(self, method: str) -> List[Attempt]:
        with self._lock:
            return [a for a in self.attempts if a.method == method]

    def intercept_unary_unary(self, continuation: Callable[..., Any], details: Any, request: Any) -> Any:
        attempt = Attempt(_method_name(details), request)
        with self._lock:
            self.attempts.append(attempt)
        outcome = continuation(details, request)

        def done(call: Any) -> None:
            # The error itself: an inner interceptor's made-up status arrives wrapped.
            error = call.exception()
            if error is None:
                attempt.code = grpc.StatusCode.OK
                return
            attempt.code = error.code()
            metadata = call_metadata(error)
            attempt.reason = metadata_value(metadata, REASON_METADATA_KEY)
            attempt.leader_hint = metadata_value(metadata, LEADER_METADATA_KEY)

        outcome.add_done_callback(done)
        return outcome


class LoseAnswer(grpc.UnaryUnaryClientInterceptor):
    """Lets the first call of `method` reach the cluster and waits for its answer, then runs
    `after` (e.g. has the leader killed) and hands the client UNAVAILABLE instead: the
    answer is lost, as when a leader dies between committing a write and answering it."""

    def __init__(self, method: str, after: Callable[[], None]) -> None:
        self.method = method
        self.after = after
        self.lost_answers: List[Any] = []
        self._fired = False

    def intercept_unary_unary(self, continuation: Callable[..., Any], details: Any, request: Any) -> Any:
        outcome = continuation(details, request)
        if self._fired or _method_name(details) != self.method:
            return outcome
        self._fired = True
        self.lost_answers.append(outcome.result())
        self.after()
        raise FakeStatus(grpc.StatusCode.UNAVAILABLE, f"the answer to this {self.method} was lost (test)")


class WithholdAnswer(grpc.UnaryUnaryClientInterceptor):
    """Sends every call of `method` but never hands its answer to the client: the client
    sees a call still in progress until it cancels it."""

    def __init__(self, method: str) -> None:
        self.method = method
        self.withheld: List[Any] = []

    def intercept_unary_unary(self, continuation: Callable[..., Any], details: Any, request: Any) -> Any:
        outcome = continuation(details, request)
        if _method_name(details) != self.method:
            return outcome
        self.withheld.append(outcome)
        return _PendingForever()


class _PendingForever:
    """A call future that completes only when it is cancelled."""

    def __init__(self) -> None:
        self._callbacks: List[Callable[[Any], None]] = []
        self._cancelled = False
        self._lock = threading.Lock()

    def add_done_callback(self, callback: Callable[[Any], None]) -> None:
        with self._lock:
            if not self._cancelled:
                self._callbacks.append(callback)
                return
        callback(self)

    def cancel(self) -> bool:
        with self._lock:
            if self._cancelled:
                return False
            self._cancelled = True
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)
        return True

    def done(self) -> bool:
        return self._cancelled

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.CANCELLED

    def exception(self, timeout: Optional[float] = None) -> FakeStatus:
        return FakeStatus(grpc.StatusCode.CANCELLED, "cancelled")

    def result(self, timeout: Optional[float] = None) -> Any:
        raise self.exception()


class RefuseWhile(grpc.UnaryUnaryClientInterceptor):
    """While `blocked` is set, answers every call of `method` with UNAVAILABLE without
    sending it, as if no node could be reached."""

    def __init__(self, method: str, blocked: threading.Event) -> None:
        self.method = method
        self.blocked = blocked
        self.refused = 0

    def intercept_unary_unary(self, continuation: Callable[..., Any], details: Any, request: Any) -> Any:
        if _method_name(details) == self.method and self.blocked.is_set():
            self.refused += 1
            raise FakeStatus(grpc.StatusCode.UNAVAILABLE, f"no node reachable for {self.method} (test)")
        return continuation(details, request)
