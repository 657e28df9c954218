"""The error contract between nodes and clients, as proto/wire.ts states it.

Every error status a node sends names its ErrorReason in the trailing metadata
``palisade-reason`` (the enum value's name); an UNAVAILABLE from a node that knows the
leader names the leader's client address in ``palisade-leader``. This module holds the one
table of reason, status code and error class on the Python side (a unit test checks it
against proto/wire.ts), and maps a status to its typed error by the reason, never by the
wording of the message.
"""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Type

import grpc

from .errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    LimitError,
    NotHolderError,
    PalisadeError,
    PermissionDeniedError,
    RequestTooOldError,
    ServerError,
    SessionNotFoundError,
    StaleTokenError,
    UnauthenticatedError,
    UnavailableError,
)

REASON_METADATA_KEY = "palisade-reason"
LEADER_METADATA_KEY = "palisade-leader"

Code = grpc.StatusCode
ErrorClass = Type[PalisadeError]

_I, _N, _F, _R, _U = Code.INVALID_ARGUMENT, Code.NOT_FOUND, Code.FAILED_PRECONDITION, Code.RESOURCE_EXHAUSTED, Code.UNAVAILABLE

#: Every reason a node sends, with its status code and the error class it becomes.
WIRE_ERRORS: Mapping[str, Tuple[grpc.StatusCode, ErrorClass]] = {
    "ERROR_REASON_INVALID_ARGUMENT": (_I, InvalidArgumentError),
    "ERROR_REASON_MALFORMED_REQUEST": (_I, InvalidArgumentError),
    "ERROR_REASON_NOT_AN_ACQUIRE": (_I, InvalidArgumentError),
    "ERROR_REASON_SESSION_NOT_FOUND": (_N, SessionNotFoundError),
    "ERROR_REASON_SESSION_ENDED": (_N, SessionNotFoundError),
    # Not about the session: a client that saw it must not take its session for lost.
    "ERROR_REASON_NO_SUCH_WAIT": (_N, ServerError),
    "ERROR_REASON_STALE_TOKEN": (_F, StaleTokenError),
    "ERROR_REASON_NOT_HOLDER": (_F, NotHolderError),
    "ERROR_REASON_REQUEST_TOO_OLD": (_F, RequestTooOldError),
    "ERROR_REASON_NO_TRANSFER_TARGET": (_F, FailedPreconditionError),
    "ERROR_REASON_LEARNER_BEHIND": (_F, FailedPreconditionError),
    "ERROR_REASON_MEMBERSHIP_REFUSED": (_F, FailedPreconditionError),
    "ERROR_REASON_TOO_MANY_SESSIONS": (_R, LimitError),
    "ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION": (_R, LimitError),
    "ERROR_REASON_TOO_MANY_WAITERS": (_R, LimitError),
    "ERROR_REASON_TOO_MANY_IN_FLIGHT": (_R, LimitError),
    "ERROR_REASON_RATE_LIMITED": (_R, LimitError),
    "ERROR_REASON_DISK_RESERVE": (_R, LimitError),
    "ERROR_REASON_WATCH_TOO_SLOW": (_R, LimitError),
    "ERROR_REASON_TOO_MANY_WAITS_ON_STREAM": (_R, LimitError),
    "ERROR_REASON_NOT_LEADER": (_U, UnavailableError),
    "ERROR_REASON_NO_LEADER": (_U, UnavailableError),
    "ERROR_REASON_PROPOSAL_DROPPED": (_U, UnavailableError),
    "ERROR_REASON_LEADERSHIP_CHANGED": (_U, UnavailableError),
    "ERROR_REASON_READ_NOT_CONFIRMED": (_U, UnavailableError),
    "ERROR_REASON_SHUTTING_DOWN": (_U, UnavailableError),
    "ERROR_REASON_WAIT_DETACHED": (_U, UnavailableError),
    "ERROR_REASON_NODE_BUSY": (_U, UnavailableError),
    "ERROR_REASON_BELOW_RETENTION": (Code.OUT_OF_RANGE, ServerError),
    "ERROR_REASON_SNAPSHOT_INSTALLED": (Code.OUT_OF_RANGE, ServerError),
    "ERROR_REASON_TRANSFER_TIMED_OUT": (Code.DEADLINE_EXCEEDED, ServerError),
    "ERROR_REASON_CERTIFICATE_REQUIRED": (Code.UNAUTHENTICATED, UnauthenticatedError),
    "ERROR_REASON_PERMISSION_DENIED": (Code.PERMISSION_DENIED, PermissionDeniedError),
    "ERROR_REASON_UNSUPPORTED": (Code.UNIMPLEMENTED, ServerError),
    "ERROR_REASON_INTERNAL": (Code.INTERNAL, ServerError),
    "ERROR_REASON_HELD_IN_ANOTHER_MODE": (_F, FailedPreconditionError),
    "ERROR_REASON_KIND_MISMATCH": (_F, FailedPreconditionError),
    "ERROR_REASON_PERMITS_MISMATCH": (_F, FailedPreconditionError),
    "ERROR_REASON_SET_PARTLY_HELD": (_F, FailedPreconditionError),
    "ERROR_REASON_WAITS_IN_ANOTHER_REQUEST": (_F, FailedPreconditionError),
    "ERROR_REASON_SUCCESSOR_NOT_WAITING": (_F, FailedPreconditionError),
    "ERROR_REASON_UNAUTHENTICATED": (Code.UNAUTHENTICATED, UnauthenticatedError),
    "ERROR_REASON_QUOTA_EXCEEDED": (_R, LimitError),
}

# The class of a status that names no reason this table knows (one made by gRPC itself,
# such as a message over the size limit, or from a node older or newer than this table).
_CLASS_BY_CODE: Dict[grpc.StatusCode, ErrorClass] = {
    _I: InvalidArgumentError,
    _N: SessionNotFoundError,
    _F: FailedPreconditionError,
    _R: LimitError,
    _U: UnavailableError,
}

Metadata = Optional[Sequence[Tuple[str, object]]]


def metadata_value(metadata: Metadata, key: str) -> Optional[str]:
    """The first value of `key` in gRPC metadata (a sequence of key/value pairs), as text."""
    for entry_key, value in metadata or ():
        if entry_key == key:
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return None


def reason_of(metadata: Metadata) -> Optional[str]:
    """The reason a status names in its metadata, if it names one this table knows."""
    value = metadata_value(metadata, REASON_METADATA_KEY)
    return value if value in WIRE_ERRORS else None


def error_class_of(code: grpc.StatusCode, reason: Optional[str]) -> ErrorClass:
    """The class of a status: its reason's when the reason goes with this code, else the code's.

    A reason sent with another code is a node's mistake, and the code is what every gRPC
    layer on the way agreed on.
    """
    known = WIRE_ERRORS.get(reason) if reason is not None else None
    if known is not None and known[0] == code:
        return known[1]
    return _CLASS_BY_CODE.get(code, ServerError)


def error_from_status(code: grpc.StatusCode, details: str, metadata: Metadata) -> PalisadeError:
    """The typed error for a non-OK status; without a known reason its code decides."""
    reason = reason_of(metadata)
    cls = error_class_of(code, reason)
    # A ServerError's message says which status it was; the others' class says it.
    message = f"{code.name}: {details}" if cls is ServerError else details
    return cls(message, code, reason)


def error_from_rpc(err: grpc.RpcError) -> PalisadeError:
    """The typed error of a failed call (its code, details and trailing metadata)."""
    code = call_code(err)
    if code is None:
        return ServerError(f"call failed: {err!r}")
    return error_from_status(code, call_details(err) or code.name, call_metadata(err))


def call_code(err: grpc.RpcError) -> Optional[grpc.StatusCode]:
    """The status code of a failed call, when it has one."""
    read = getattr(err, "code", None)
    code = read() if callable(read) else None
    return code if isinstance(code, grpc.StatusCode) else None


def call_details(err: grpc.RpcError) -> str:
    """The status message of a failed call."""
    read = getattr(err, "details", None)
    value = read() if callable(read) else None
    return value if isinstance(value, str) else ""


def call_metadata(err: grpc.RpcError) -> Metadata:
    """Trailing metadata of a failed call, then its initial metadata (a trailers-only
    answer may arrive as either)."""
    pairs: List[Tuple[str, object]] = []
    for attr in ("trailing_metadata", "initial_metadata"):
        read = getattr(err, attr, None)
        value = read() if callable(read) else None
        if value:
            pairs.extend((str(k), v) for k, v in value)
    return pairs
