"""Typed errors of the Python client, one per answer a caller may want to handle.

They mirror the TypeScript client's classes (client/errors.ts). Each keeps the gRPC status
code it came from (when it came from one) and the node's ErrorReason name; which class a
status becomes is decided by palisade.wire, from the reason, never from the message.
"""
from __future__ import annotations

from typing import Optional

import grpc


class PalisadeError(Exception):
    """Base of every error the client raises."""

    def __init__(self, message: str, code: Optional[grpc.StatusCode] = None, reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        #: gRPC status code of the answer, when the error came from a node.
        self.code = code
        #: The node's reason, an ErrorReason name such as "ERROR_REASON_TOO_MANY_WAITERS".
        self.reason = reason


class SessionNotFoundError(PalisadeError):
    """The session is unknown, closed or expired (NOT_FOUND).

    A write answered so may still have taken effect on an earlier attempt, before the
    session ended; nothing of it is still held.
    """


class StaleTokenError(PalisadeError):
    """The token is not the lock's current grant (FAILED_PRECONDITION)."""


class NotHolderError(PalisadeError):
    """The session does not hold the lock (FAILED_PRECONDITION)."""


class RequestTooOldError(PalisadeError):
    """The request's seq is at or below the acknowledged mark (FAILED_PRECONDITION)."""


class FailedPreconditionError(PalisadeError):
    """Another FAILED_PRECONDITION answer (such as a membership change refused now)."""


class LimitError(PalisadeError):
    """A configured limit was reached (RESOURCE_EXHAUSTED), or the client's own 64 writes in flight."""


class InvalidArgumentError(PalisadeError):
    """The request was malformed (INVALID_ARGUMENT), or refused by the client before sending."""


class UnavailableError(PalisadeError):
    """No node could answer a read within the retry budget, or a node answered UNAVAILABLE; nothing changed."""


class OutcomeUnknownError(PalisadeError):
    """A write got no answer within the retry budget: it took effect once or not at all, never twice."""


class SessionLostError(PalisadeError):
    """The session was closed or lost (its own deadline passed, or the cluster ended it)."""


class WaitCancelledError(PalisadeError):
    """The caller gave up a wait (its cancel event was set); the wait was cancelled on the cluster."""


class LockBusyError(PalisadeError):
    """This client already holds the lock, or has an Acquire of it outstanding.

    Refused before anything is sent, so two threads never share one grant.
    """

    def __init__(self, lock: str) -> None:
        super().__init__(f"lock {lock!r} is already held or being acquired by this client; release that handle first")
        self.lock = lock


class LockNotAcquiredError(PalisadeError):
    """The lock was held by another session and the wait ended (or wait was 0)."""

    def __init__(self, lock: str, holder_session_id: Optional[int], holder_token: Optional[int]) -> None:
        if holder_session_id is not None:
            text = f"lock {lock!r} not acquired: held by session {holder_session_id} with token {holder_token}"
        else:
            text = f"lock {lock!r} not acquired"
        super().__init__(text)
        self.lock = lock
        self.holder_session_id = holder_session_id
        self.holder_token = holder_token


class ServerError(PalisadeError):
    """An answer that fits none of the above (OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, ...)."""


class PermissionDeniedError(ServerError):
    """The caller may not do this (PERMISSION_DENIED); the message names what it lacks.

    A subclass of ServerError, which such answers were before access control.
    """


class UnauthenticatedError(ServerError):
    """The caller's credential was refused (UNAUTHENTICATED).

    A bearer token that is malformed, unknown, revoked or expired, or no client certificate
    where mutual TLS requires one. A subclass of ServerError, as PermissionDeniedError is.
    """
