"""Checks of the values a caller hands in, before anything is sent: a bad value raises
InvalidArgumentError and uses no seq. The node checks the rest (lock name rules, TTL and
wait bounds) and answers INVALID_ARGUMENT, which arrives as the same error."""
from __future__ import annotations

import math
from typing import Callable, Dict, Optional

from .errors import InvalidArgumentError
from .v1 import lock_pb2

_U64_LIMIT = 2**64

# An exclusive Acquire sends no mode (its bytes stay what they were before modes).
_ACQUIRE_MODES: Dict[str, "lock_pb2.LockMode"] = {
    "exclusive": lock_pb2.LOCK_MODE_UNSPECIFIED,
    "shared": lock_pb2.LOCK_MODE_SHARED,
    "upgradeable": lock_pb2.LOCK_MODE_UPGRADEABLE,
}
_DOWNGRADE_MODES: Dict[str, "lock_pb2.LockMode"] = {
    "shared": lock_pb2.LOCK_MODE_SHARED,
    "upgradeable": lock_pb2.LOCK_MODE_UPGRADEABLE,
}


def lock_name(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"lock: expected a str, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidArgumentError(f"lock: not valid UTF-8 ({err.reason})") from None
    return value


def text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{field}: expected a str, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidArgumentError(f"{field}: not valid UTF-8 ({err.reason})") from None
    return value


def bearer_token(value: object) -> str:
    """A bearer token as CreateToken answered it ("pal_<id>_<secret>"). Its form is the
    node's to judge; this only refuses what gRPC metadata cannot carry, and never repeats
    the value (it is a secret)."""
    if not isinstance(value, str):
        raise InvalidArgumentError(f"token: expected a str, got {type(value).__name__}")
    if value == "" or any(not "!" <= c <= "~" for c in value):
        raise InvalidArgumentError("token: expected printable ASCII without spaces (the token CreateToken answered)")
    return value


def u64(value: object, field: str, *, positive: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{field}: expected an int, got {type(value).__name__}")
    if value < 0 or value >= _U64_LIMIT:
        raise InvalidArgumentError(f"{field}: {value} is not a uint64")
    if positive and value == 0:
        raise InvalidArgumentError(f"{field}: 0 is never a valid {field}")
    return value


def seconds(value: object, field: str) -> float:
    """A duration in seconds (int or float, finite, not negative)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(f"{field}: expected seconds as a number, got {type(value).__name__}")
    result = float(value)
    if not math.isfinite(result) or result < 0:
        raise InvalidArgumentError(f"{field}: {value} is not a duration (finite seconds, at least 0)")
    return result


def milliseconds(value: object, field: str) -> int:
    """A duration in seconds as whole milliseconds on the wire."""
    return u64(round(seconds(value, field) * 1000), field)


def acquire_kinds(mode: object, permits: object, data: object) -> Callable[[lock_pb2.AcquireRequest], None]:
    """Checks a lock's mode, a semaphore's permits and holder data; answers what sets them
    on an AcquireRequest, each only when asked for (an exclusive Acquire keeps its bytes)."""
    if mode is not None and (not isinstance(mode, str) or mode not in _ACQUIRE_MODES):
        raise InvalidArgumentError(f"mode: expected 'exclusive', 'shared' or 'upgradeable', got {mode!r}")
    count: Optional[int] = None
    if permits is not None:
        if mode is not None:
            raise InvalidArgumentError("mode: a semaphore (permits set) takes no mode")
        count = u64(permits, "permits", positive=True)
    encoded = b""
    if data is not None:
        if not isinstance(data, str):
            raise InvalidArgumentError(f"data: expected a str, got {type(data).__name__}")
        try:
            encoded = data.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidArgumentError("data: not encodable as UTF-8") from None
    wire_mode = _ACQUIRE_MODES[mode] if isinstance(mode, str) else lock_pb2.LOCK_MODE_UNSPECIFIED

    def apply(request: lock_pb2.AcquireRequest) -> None:
        if wire_mode != lock_pb2.LOCK_MODE_UNSPECIFIED:
            request.mode = wire_mode
        if count is not None:
            request.permits = count
        if encoded:
            request.holder_data = encoded

    return apply


def downgrade_mode(mode: object) -> "lock_pb2.LockMode":
    """The mode a Downgrade asks for, "shared" or "upgradeable", as its wire value."""
    wire = _DOWNGRADE_MODES.get(mode) if isinstance(mode, str) else None
    if wire is None:
        raise InvalidArgumentError(f"mode: a downgrade is to 'shared' or 'upgradeable', got {mode!r}")
    return wire
