"""Checks of the values a caller hands in, before anything is sent: a bad value raises
InvalidArgumentError and uses no seq. The node checks the rest (lock name rules, TTL and
wait bounds) and answers INVALID_ARGUMENT, which arrives as the same error."""
from __future__ import annotations

import math

from .errors import InvalidArgumentError

_U64_LIMIT = 2**64


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
