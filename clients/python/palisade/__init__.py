"""Python client of Palisade, a Raft-replicated lock service with fencing tokens.

    from palisade import PalisadeClient

    with PalisadeClient(["127.0.0.1:7001", "127.0.0.1:7002", "127.0.0.1:7003"]) as client:
        with client.lock("orders/42", wait=5.0) as lock:
            write_order(42, fencing_token=lock.token)   # stop when lock.lost is set

The generated protobuf and gRPC modules are palisade.v1 (scripts/gen-python.sh).
"""
import logging

from .client import PalisadeClient
from .elections import CAMPAIGN_WAIT, Elections, Leadership
from .errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    LimitError,
    LockBusyError,
    LockNotAcquiredError,
    NotHolderError,
    OutcomeUnknownError,
    PalisadeError,
    PermissionDeniedError,
    RequestTooOldError,
    ServerError,
    SessionLostError,
    SessionNotFoundError,
    StaleTokenError,
    UnauthenticatedError,
    UnavailableError,
    WaitCancelledError,
)
from .lock import LockHandle
from .observe import ElectionObserver
from .session import MAX_IN_FLIGHT, Session
from .types import (
    AcquireResult,
    CampaignResult,
    CancelWaitResult,
    DowngradeMode,
    DowngradeResult,
    ElectionEvent,
    HistoryRecord,
    HolderCursor,
    Leader,
    LeaderInfo,
    LockHolder,
    LockInfo,
    LockMode,
    LockPage,
    LockSummary,
    LockWaiter,
    SessionInfo,
    SessionPage,
    UpgradeResult,
)

__all__ = [
    "AcquireResult",
    "CAMPAIGN_WAIT",
    "CampaignResult",
    "CancelWaitResult",
    "DowngradeMode",
    "DowngradeResult",
    "ElectionEvent",
    "ElectionObserver",
    "Elections",
    "FailedPreconditionError",
    "HistoryRecord",
    "HolderCursor",
    "InvalidArgumentError",
    "Leader",
    "LeaderInfo",
    "Leadership",
    "LimitError",
    "LockBusyError",
    "LockHandle",
    "LockHolder",
    "LockInfo",
    "LockMode",
    "LockNotAcquiredError",
    "LockPage",
    "LockSummary",
    "LockWaiter",
    "MAX_IN_FLIGHT",
    "NotHolderError",
    "OutcomeUnknownError",
    "PalisadeClient",
    "PalisadeError",
    "PermissionDeniedError",
    "RequestTooOldError",
    "ServerError",
    "Session",
    "SessionInfo",
    "SessionLostError",
    "SessionNotFoundError",
    "SessionPage",
    "StaleTokenError",
    "UnauthenticatedError",
    "UnavailableError",
    "UpgradeResult",
    "WaitCancelledError",
]

# A library logs only where the application asks it to (logging.getLogger("palisade")).
logging.getLogger("palisade").addHandler(logging.NullHandler())
