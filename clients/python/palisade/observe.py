"""Observe streams that survive failover: an election's events carry their log index (one
event per index), so after a broken stream the observer resumes on another node from the
index after the last one it delivered. A stream that starts "now" begins with the state of
the moment (a leader, or no leader); so does one whose resume point every node has let go
of, which is reported as a jump (``resync``) rather than hidden."""
from __future__ import annotations

import dataclasses
import threading
from types import TracebackType
from typing import Any, Iterator, Optional, Type

import grpc

from .connection import Connection, ServerStream
from .errors import ServerError
from .types import ElectionEvent, election_event_from
from .v1 import lock_pb2
from .wire import call_code, error_from_rpc

#: Statuses after which the stream moves to another node and resumes.
RESUMABLE = frozenset({
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.ABORTED,
})

# Pause before resuming after a failed stream (an election of the cluster is probably under way).
_RETRY_PAUSE_SECONDS = 0.2
# How often a cancel event given to observe() is looked at.
_POLL_SECONDS = 0.05


class ElectionObserver(Iterator[ElectionEvent]):
    """The changes of one election in log order, as an iterator: gap-free from the start (or
    from `from_index`), never an older leader after a newer one. Iteration ends once close()
    is called (from any thread), the cancel event is set, or the client is closed; leaving
    a ``with`` block closes it.

    A `from_index` that no node retains any more raises ServerError (code OUT_OF_RANGE)
    before anything is yielded; later, the same is a jump to the state of the moment, whose
    event has ``resync`` set. Any other refusal (an election name in use as a lock:
    FailedPreconditionError, KIND_MISMATCH) is raised and ends the iteration.
    """

    def __init__(self, connection: Connection, election: str, from_index: int, cancel: Optional[threading.Event] = None) -> None:
        self.election = election
        self._connection = connection
        self._next = from_index
        self._yielded = False
        self._resync = False
        self._out_of_range_in_row = 0
        endpoints = connection.endpoints
        # First the endpoint calls go to (the last that answered), then the others in turn.
        self._endpoint_index = endpoints.index(connection.current) if connection.current in endpoints else 0
        self._mutex = threading.Lock()
        self._closed = threading.Event()
        self._call: Optional[ServerStream[Any]] = None
        if cancel is not None:
            threading.Thread(target=self._close_on, args=(cancel,), name=f"palisade-observe-{election}", daemon=True).start()

    @property
    def next_index(self) -> int:
        """Where a new observer would resume: the index after the last event delivered (0 before any)."""
        return self._next

    def close(self) -> None:
        """Ends the stream; a next() blocked in another thread returns (StopIteration)."""
        with self._mutex:
            self._closed.set()
            call, self._call = self._call, None
        if call is not None:
            call.cancel()

    def __iter__(self) -> "ElectionObserver":
        return self

    def __next__(self) -> ElectionEvent:
        while True:
            call = self._open()
            try:
                message = next(call)
            except StopIteration:
                # The node ended the stream (shutting down): go on at the next one.
                self._drop(call)
                self._endpoint_index += 1
                continue
            except grpc.RpcError as err:
                self._drop(call)
                if self._closed.is_set():
                    raise StopIteration from None
                self._after_failure(err)
                continue
            try:
                event = election_event_from(message)
            except ValueError as err:
                self.close()
                raise ServerError(f"Observe of {self.election!r}: {err}") from None
            if self._next > 0 and event.index < self._next:
                continue  # delivered before the stream broke
            self._next = event.index + 1
            self._out_of_range_in_row = 0
            self._yielded = True
            if self._resync:
                self._resync = False
                return dataclasses.replace(event, resync=True)
            return event

    def __enter__(self) -> "ElectionObserver":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()

    def _open(self) -> ServerStream[Any]:
        """The current stream, or a new one on the current endpoint from the next index."""
        with self._mutex:
            if self._closed.is_set() or self._connection.closed:
                self._closed.set()
                raise StopIteration
            if self._call is None:
                endpoints = self._connection.endpoints
                endpoint = endpoints[self._endpoint_index % len(endpoints)]
                request = lock_pb2.ObserveRequest(election=self.election, from_index=self._next)
                self._call = self._connection.open_stream(endpoint, "Observe", request)
            return self._call

    def _drop(self, call: ServerStream[Any]) -> None:
        with self._mutex:
            if self._call is call:
                self._call = None
        call.cancel()

    def _after_failure(self, err: grpc.RpcError) -> None:
        """Decides what a failed stream means: resume elsewhere (after a pause), jump to now, or raise."""
        code = call_code(err)
        if code == grpc.StatusCode.OUT_OF_RANGE:
            # A node that restarted recently retains less; another may still have the events.
            self._out_of_range_in_row += 1
            if self._out_of_range_in_row < len(self._connection.endpoints):
                self._endpoint_index += 1
                return
            if not self._yielded:
                self.close()
                raise error_from_rpc(err) from None
            # Start again from the state of now, marked as a jump.
            self._out_of_range_in_row = 0
            self._next = 0
            self._resync = True
            return
        if code not in RESUMABLE:
            self.close()
            raise error_from_rpc(err) from None
        self._endpoint_index += 1
        self._closed.wait(_RETRY_PAUSE_SECONDS)

    def _close_on(self, cancel: threading.Event) -> None:
        while not self._closed.wait(_POLL_SECONDS):
            if cancel.is_set():
                self.close()
                return
