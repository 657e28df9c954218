from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

CANCEL_WAIT_OUTCOME_CANCELLED: CancelWaitOutcome
CANCEL_WAIT_OUTCOME_GRANTED: CancelWaitOutcome
CANCEL_WAIT_OUTCOME_NOT_ACQUIRED: CancelWaitOutcome
CANCEL_WAIT_OUTCOME_UNSPECIFIED: CancelWaitOutcome
DESCRIPTOR: _descriptor.FileDescriptor
ELECTION_EVENT_KIND_LEADER: ElectionEventKind
ELECTION_EVENT_KIND_NO_LEADER: ElectionEventKind
ELECTION_EVENT_KIND_UNSPECIFIED: ElectionEventKind
ELECTION_EVENT_KIND_VALUE: ElectionEventKind
END_REASON_DOWNGRADED: EndReason
END_REASON_HANDED_OFF: EndReason
END_REASON_RELEASED: EndReason
END_REASON_REVOKED: EndReason
END_REASON_SESSION_CLOSED: EndReason
END_REASON_SESSION_EXPIRED: EndReason
END_REASON_UNSPECIFIED: EndReason
END_REASON_UPGRADED: EndReason
ERROR_REASON_BELOW_RETENTION: ErrorReason
ERROR_REASON_CERTIFICATE_REQUIRED: ErrorReason
ERROR_REASON_DISK_RESERVE: ErrorReason
ERROR_REASON_HELD_IN_ANOTHER_MODE: ErrorReason
ERROR_REASON_INTERNAL: ErrorReason
ERROR_REASON_INVALID_ARGUMENT: ErrorReason
ERROR_REASON_KIND_MISMATCH: ErrorReason
ERROR_REASON_LEADERSHIP_CHANGED: ErrorReason
ERROR_REASON_LEARNER_BEHIND: ErrorReason
ERROR_REASON_MALFORMED_REQUEST: ErrorReason
ERROR_REASON_MEMBERSHIP_REFUSED: ErrorReason
ERROR_REASON_NODE_BUSY: ErrorReason
ERROR_REASON_NOT_AN_ACQUIRE: ErrorReason
ERROR_REASON_NOT_HOLDER: ErrorReason
ERROR_REASON_NOT_LEADER: ErrorReason
ERROR_REASON_NO_LEADER: ErrorReason
ERROR_REASON_NO_SUCH_WAIT: ErrorReason
ERROR_REASON_NO_TRANSFER_TARGET: ErrorReason
ERROR_REASON_PERMISSION_DENIED: ErrorReason
ERROR_REASON_PERMITS_MISMATCH: ErrorReason
ERROR_REASON_PROPOSAL_DROPPED: ErrorReason
ERROR_REASON_QUOTA_EXCEEDED: ErrorReason
ERROR_REASON_RATE_LIMITED: ErrorReason
ERROR_REASON_READ_NOT_CONFIRMED: ErrorReason
ERROR_REASON_REQUEST_TOO_OLD: ErrorReason
ERROR_REASON_SESSION_ENDED: ErrorReason
ERROR_REASON_SESSION_NOT_FOUND: ErrorReason
ERROR_REASON_SET_PARTLY_HELD: ErrorReason
ERROR_REASON_SHUTTING_DOWN: ErrorReason
ERROR_REASON_SNAPSHOT_INSTALLED: ErrorReason
ERROR_REASON_STALE_TOKEN: ErrorReason
ERROR_REASON_SUCCESSOR_NOT_WAITING: ErrorReason
ERROR_REASON_TOO_MANY_IN_FLIGHT: ErrorReason
ERROR_REASON_TOO_MANY_LOCKS_IN_SESSION: ErrorReason
ERROR_REASON_TOO_MANY_SESSIONS: ErrorReason
ERROR_REASON_TOO_MANY_WAITERS: ErrorReason
ERROR_REASON_TOO_MANY_WAITS_ON_STREAM: ErrorReason
ERROR_REASON_TRANSFER_TIMED_OUT: ErrorReason
ERROR_REASON_UNAUTHENTICATED: ErrorReason
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_UNSUPPORTED: ErrorReason
ERROR_REASON_WAITS_IN_ANOTHER_REQUEST: ErrorReason
ERROR_REASON_WAIT_DETACHED: ErrorReason
ERROR_REASON_WATCH_TOO_SLOW: ErrorReason
LOCK_KIND_ELECTION: LockKind
LOCK_KIND_SEMAPHORE: LockKind
LOCK_KIND_UNSPECIFIED: LockKind
LOCK_MODE_EXCLUSIVE: LockMode
LOCK_MODE_LEADER: LockMode
LOCK_MODE_SHARED: LockMode
LOCK_MODE_UNSPECIFIED: LockMode
LOCK_MODE_UPGRADEABLE: LockMode
REVOKE_CAUSE_HOLD_LIMIT: RevokeCause
REVOKE_CAUSE_UNSPECIFIED: RevokeCause
WATCH_EVENT_KIND_ACQUIRED: WatchEventKind
WATCH_EVENT_KIND_PROCLAIMED: WatchEventKind
WATCH_EVENT_KIND_RELEASED: WatchEventKind
WATCH_EVENT_KIND_REVOKED: WatchEventKind
WATCH_EVENT_KIND_SESSION_CLOSED: WatchEventKind
WATCH_EVENT_KIND_SESSION_EXPIRED: WatchEventKind
WATCH_EVENT_KIND_UNSPECIFIED: WatchEventKind

class AcquireRequest(_message.Message):
    __slots__ = ["acked_up_to", "held", "hold_ms", "holder_data", "lock", "mode", "more_locks", "permits", "seq", "session_id", "wait_ms"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    HOLDER_DATA_FIELD_NUMBER: _ClassVar[int]
    HOLD_MS_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MORE_LOCKS_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    WAIT_MS_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    held: _containers.RepeatedScalarFieldContainer[int]
    hold_ms: int
    holder_data: bytes
    lock: str
    mode: LockMode
    more_locks: _containers.RepeatedCompositeFieldContainer[LockTarget]
    permits: int
    seq: int
    session_id: int
    wait_ms: int
    def __init__(self, session_id: _Optional[int] = ..., lock: _Optional[str] = ..., wait_ms: _Optional[int] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permits: _Optional[int] = ..., more_locks: _Optional[_Iterable[_Union[LockTarget, _Mapping]]] = ..., holder_data: _Optional[bytes] = ..., hold_ms: _Optional[int] = ...) -> None: ...

class AcquireResponse(_message.Message):
    __slots__ = ["acquired", "blocked_lock", "cancelled", "grants", "holder", "token"]
    ACQUIRED_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_LOCK_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    GRANTS_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    acquired: bool
    blocked_lock: str
    cancelled: bool
    grants: _containers.RepeatedCompositeFieldContainer[LockGrant]
    holder: LockHolder
    token: int
    def __init__(self, acquired: bool = ..., token: _Optional[int] = ..., holder: _Optional[_Union[LockHolder, _Mapping]] = ..., grants: _Optional[_Iterable[_Union[LockGrant, _Mapping]]] = ..., blocked_lock: _Optional[str] = ..., cancelled: bool = ...) -> None: ...

class CampaignRequest(_message.Message):
    __slots__ = ["acked_up_to", "election", "held", "seq", "session_id", "value", "wait_ms"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    ELECTION_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    WAIT_MS_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    election: str
    held: _containers.RepeatedScalarFieldContainer[int]
    seq: int
    session_id: int
    value: bytes
    wait_ms: int
    def __init__(self, session_id: _Optional[int] = ..., election: _Optional[str] = ..., value: _Optional[bytes] = ..., wait_ms: _Optional[int] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ...) -> None: ...

class CampaignResponse(_message.Message):
    __slots__ = ["cancelled", "elected", "leader", "token"]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    ELECTED_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    cancelled: bool
    elected: bool
    leader: Leadership
    token: int
    def __init__(self, elected: bool = ..., token: _Optional[int] = ..., leader: _Optional[_Union[Leadership, _Mapping]] = ..., cancelled: bool = ...) -> None: ...

class CancelWaitRequest(_message.Message):
    __slots__ = ["acquire_seq", "lock", "session_id"]
    ACQUIRE_SEQ_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    acquire_seq: int
    lock: str
    session_id: int
    def __init__(self, session_id: _Optional[int] = ..., lock: _Optional[str] = ..., acquire_seq: _Optional[int] = ...) -> None: ...

class CancelWaitResponse(_message.Message):
    __slots__ = ["outcome", "token"]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    outcome: CancelWaitOutcome
    token: int
    def __init__(self, outcome: _Optional[_Union[CancelWaitOutcome, str]] = ..., token: _Optional[int] = ...) -> None: ...

class ClientFrame(_message.Message):
    __slots__ = ["requests"]
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    requests: _containers.RepeatedCompositeFieldContainer[StreamRequest]
    def __init__(self, requests: _Optional[_Iterable[_Union[StreamRequest, _Mapping]]] = ...) -> None: ...

class CloseSessionRequest(_message.Message):
    __slots__ = ["acked_up_to", "held", "seq", "session_id"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    held: _containers.RepeatedScalarFieldContainer[int]
    seq: int
    session_id: int
    def __init__(self, session_id: _Optional[int] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ...) -> None: ...

class CloseSessionResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class DowngradeRequest(_message.Message):
    __slots__ = ["acked_up_to", "held", "lock", "mode", "seq", "session_id", "token"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    held: _containers.RepeatedScalarFieldContainer[int]
    lock: str
    mode: LockMode
    seq: int
    session_id: int
    token: int
    def __init__(self, session_id: _Optional[int] = ..., lock: _Optional[str] = ..., token: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ...) -> None: ...

class DowngradeResponse(_message.Message):
    __slots__ = ["mode", "token"]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    mode: LockMode
    token: int
    def __init__(self, token: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ...) -> None: ...

class ElectionEvent(_message.Message):
    __slots__ = ["ended", "ended_token", "index", "kind", "leader"]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    ENDED_TOKEN_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    ended: EndReason
    ended_token: int
    index: int
    kind: ElectionEventKind
    leader: Leadership
    def __init__(self, index: _Optional[int] = ..., kind: _Optional[_Union[ElectionEventKind, str]] = ..., leader: _Optional[_Union[Leadership, _Mapping]] = ..., ended: _Optional[_Union[EndReason, str]] = ..., ended_token: _Optional[int] = ...) -> None: ...

class Forget(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetLockHistoryRequest(_message.Message):
    __slots__ = ["limit", "lock"]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    limit: int
    lock: str
    def __init__(self, lock: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class GetLockHistoryResponse(_message.Message):
    __slots__ = ["records"]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    records: _containers.RepeatedCompositeFieldContainer[HistoryRecord]
    def __init__(self, records: _Optional[_Iterable[_Union[HistoryRecord, _Mapping]]] = ...) -> None: ...

class GetLockRequest(_message.Message):
    __slots__ = ["holder_limit", "holders_after", "lock", "waiter_limit", "waiters_after_index"]
    HOLDERS_AFTER_FIELD_NUMBER: _ClassVar[int]
    HOLDER_LIMIT_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    WAITERS_AFTER_INDEX_FIELD_NUMBER: _ClassVar[int]
    WAITER_LIMIT_FIELD_NUMBER: _ClassVar[int]
    holder_limit: int
    holders_after: HolderCursor
    lock: str
    waiter_limit: int
    waiters_after_index: int
    def __init__(self, lock: _Optional[str] = ..., holder_limit: _Optional[int] = ..., waiter_limit: _Optional[int] = ..., holders_after: _Optional[_Union[HolderCursor, _Mapping]] = ..., waiters_after_index: _Optional[int] = ...) -> None: ...

class GetLockResponse(_message.Message):
    __slots__ = ["holder", "holder_count", "holders", "kind", "lock", "next_holders_after", "next_waiters_after_index", "permits", "waiter_count", "waiters"]
    HOLDERS_FIELD_NUMBER: _ClassVar[int]
    HOLDER_COUNT_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    NEXT_HOLDERS_AFTER_FIELD_NUMBER: _ClassVar[int]
    NEXT_WAITERS_AFTER_INDEX_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    WAITERS_FIELD_NUMBER: _ClassVar[int]
    WAITER_COUNT_FIELD_NUMBER: _ClassVar[int]
    holder: LockHolder
    holder_count: int
    holders: _containers.RepeatedCompositeFieldContainer[LockHolder]
    kind: LockKind
    lock: str
    next_holders_after: HolderCursor
    next_waiters_after_index: int
    permits: int
    waiter_count: int
    waiters: _containers.RepeatedCompositeFieldContainer[LockWaiter]
    def __init__(self, lock: _Optional[str] = ..., holder: _Optional[_Union[LockHolder, _Mapping]] = ..., waiters: _Optional[_Iterable[_Union[LockWaiter, _Mapping]]] = ..., holders: _Optional[_Iterable[_Union[LockHolder, _Mapping]]] = ..., kind: _Optional[_Union[LockKind, str]] = ..., permits: _Optional[int] = ..., holder_count: _Optional[int] = ..., waiter_count: _Optional[int] = ..., next_holders_after: _Optional[_Union[HolderCursor, _Mapping]] = ..., next_waiters_after_index: _Optional[int] = ...) -> None: ...

class GetSessionRequest(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    def __init__(self, session_id: _Optional[int] = ...) -> None: ...

class GetSessionResponse(_message.Message):
    __slots__ = ["session"]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    session: SessionInfo
    def __init__(self, session: _Optional[_Union[SessionInfo, _Mapping]] = ...) -> None: ...

class HistoryRecord(_message.Message):
    __slots__ = ["client_name", "ended_at_ms", "ended_index", "granted_at_ms", "granted_index", "hold_ms", "holder_data", "mode", "permit", "reason", "revoke_cause", "session_id", "slot", "token", "waited_from_index"]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    ENDED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ENDED_INDEX_FIELD_NUMBER: _ClassVar[int]
    GRANTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    GRANTED_INDEX_FIELD_NUMBER: _ClassVar[int]
    HOLDER_DATA_FIELD_NUMBER: _ClassVar[int]
    HOLD_MS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PERMIT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REVOKE_CAUSE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    WAITED_FROM_INDEX_FIELD_NUMBER: _ClassVar[int]
    client_name: str
    ended_at_ms: int
    ended_index: int
    granted_at_ms: int
    granted_index: int
    hold_ms: int
    holder_data: bytes
    mode: LockMode
    permit: bool
    reason: EndReason
    revoke_cause: RevokeCause
    session_id: int
    slot: int
    token: int
    waited_from_index: int
    def __init__(self, token: _Optional[int] = ..., session_id: _Optional[int] = ..., client_name: _Optional[str] = ..., granted_index: _Optional[int] = ..., waited_from_index: _Optional[int] = ..., ended_index: _Optional[int] = ..., reason: _Optional[_Union[EndReason, str]] = ..., granted_at_ms: _Optional[int] = ..., ended_at_ms: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permit: bool = ..., slot: _Optional[int] = ..., holder_data: _Optional[bytes] = ..., hold_ms: _Optional[int] = ..., revoke_cause: _Optional[_Union[RevokeCause, str]] = ...) -> None: ...

class HolderCursor(_message.Message):
    __slots__ = ["session_id", "token"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    token: int
    def __init__(self, token: _Optional[int] = ..., session_id: _Optional[int] = ...) -> None: ...

class KeepAliveRequest(_message.Message):
    __slots__ = ["session_ids"]
    SESSION_IDS_FIELD_NUMBER: _ClassVar[int]
    session_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, session_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class KeepAliveResponse(_message.Message):
    __slots__ = ["sessions"]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[SessionKeptAlive]
    def __init__(self, sessions: _Optional[_Iterable[_Union[SessionKeptAlive, _Mapping]]] = ...) -> None: ...

class LeaderRequest(_message.Message):
    __slots__ = ["election"]
    ELECTION_FIELD_NUMBER: _ClassVar[int]
    election: str
    def __init__(self, election: _Optional[str] = ...) -> None: ...

class LeaderResponse(_message.Message):
    __slots__ = ["candidate_count", "leader"]
    CANDIDATE_COUNT_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    candidate_count: int
    leader: Leadership
    def __init__(self, leader: _Optional[_Union[Leadership, _Mapping]] = ..., candidate_count: _Optional[int] = ...) -> None: ...

class Leadership(_message.Message):
    __slots__ = ["client_name", "session_id", "since_index", "token", "value"]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_INDEX_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    client_name: str
    session_id: int
    since_index: int
    token: int
    value: bytes
    def __init__(self, session_id: _Optional[int] = ..., client_name: _Optional[str] = ..., token: _Optional[int] = ..., since_index: _Optional[int] = ..., value: _Optional[bytes] = ...) -> None: ...

class ListLocksRequest(_message.Message):
    __slots__ = ["after", "limit", "prefix"]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    after: str
    limit: int
    prefix: str
    def __init__(self, prefix: _Optional[str] = ..., after: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListLocksResponse(_message.Message):
    __slots__ = ["locks", "next_after"]
    LOCKS_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_FIELD_NUMBER: _ClassVar[int]
    locks: _containers.RepeatedCompositeFieldContainer[LockSummary]
    next_after: str
    def __init__(self, locks: _Optional[_Iterable[_Union[LockSummary, _Mapping]]] = ..., next_after: _Optional[str] = ...) -> None: ...

class ListSessionsRequest(_message.Message):
    __slots__ = ["after_session_id", "limit"]
    AFTER_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    after_session_id: int
    limit: int
    def __init__(self, after_session_id: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListSessionsResponse(_message.Message):
    __slots__ = ["next_after_session_id", "sessions"]
    NEXT_AFTER_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    next_after_session_id: int
    sessions: _containers.RepeatedCompositeFieldContainer[SessionInfo]
    def __init__(self, sessions: _Optional[_Iterable[_Union[SessionInfo, _Mapping]]] = ..., next_after_session_id: _Optional[int] = ...) -> None: ...

class LockGrant(_message.Message):
    __slots__ = ["lock", "mode", "permits", "slot", "token"]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    lock: str
    mode: LockMode
    permits: int
    slot: int
    token: int
    def __init__(self, lock: _Optional[str] = ..., token: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permits: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...

class LockHolder(_message.Message):
    __slots__ = ["client_name", "granted_index", "hold_ms", "holder_data", "mode", "permits", "session_id", "slot", "token", "upgrading_since_index"]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    GRANTED_INDEX_FIELD_NUMBER: _ClassVar[int]
    HOLDER_DATA_FIELD_NUMBER: _ClassVar[int]
    HOLD_MS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    UPGRADING_SINCE_INDEX_FIELD_NUMBER: _ClassVar[int]
    client_name: str
    granted_index: int
    hold_ms: int
    holder_data: bytes
    mode: LockMode
    permits: int
    session_id: int
    slot: int
    token: int
    upgrading_since_index: int
    def __init__(self, session_id: _Optional[int] = ..., client_name: _Optional[str] = ..., token: _Optional[int] = ..., granted_index: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permits: _Optional[int] = ..., slot: _Optional[int] = ..., holder_data: _Optional[bytes] = ..., hold_ms: _Optional[int] = ..., upgrading_since_index: _Optional[int] = ...) -> None: ...

class LockSummary(_message.Message):
    __slots__ = ["holder", "holder_count", "holders", "kind", "lock", "next_holders_after", "permits", "waiter_count"]
    HOLDERS_FIELD_NUMBER: _ClassVar[int]
    HOLDER_COUNT_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    NEXT_HOLDERS_AFTER_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    WAITER_COUNT_FIELD_NUMBER: _ClassVar[int]
    holder: LockHolder
    holder_count: int
    holders: _containers.RepeatedCompositeFieldContainer[LockHolder]
    kind: LockKind
    lock: str
    next_holders_after: HolderCursor
    permits: int
    waiter_count: int
    def __init__(self, lock: _Optional[str] = ..., holder: _Optional[_Union[LockHolder, _Mapping]] = ..., waiter_count: _Optional[int] = ..., holders: _Optional[_Iterable[_Union[LockHolder, _Mapping]]] = ..., kind: _Optional[_Union[LockKind, str]] = ..., permits: _Optional[int] = ..., holder_count: _Optional[int] = ..., next_holders_after: _Optional[_Union[HolderCursor, _Mapping]] = ...) -> None: ...

class LockTarget(_message.Message):
    __slots__ = ["lock", "mode", "permits"]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    lock: str
    mode: LockMode
    permits: int
    def __init__(self, lock: _Optional[str] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permits: _Optional[int] = ...) -> None: ...

class LockWaiter(_message.Message):
    __slots__ = ["client_name", "hold_ms", "holder_data", "locks", "mode", "permits", "session_id", "waiting_since_index"]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    HOLDER_DATA_FIELD_NUMBER: _ClassVar[int]
    HOLD_MS_FIELD_NUMBER: _ClassVar[int]
    LOCKS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    WAITING_SINCE_INDEX_FIELD_NUMBER: _ClassVar[int]
    client_name: str
    hold_ms: int
    holder_data: bytes
    locks: _containers.RepeatedCompositeFieldContainer[LockTarget]
    mode: LockMode
    permits: int
    session_id: int
    waiting_since_index: int
    def __init__(self, session_id: _Optional[int] = ..., client_name: _Optional[str] = ..., waiting_since_index: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permits: _Optional[int] = ..., locks: _Optional[_Iterable[_Union[LockTarget, _Mapping]]] = ..., holder_data: _Optional[bytes] = ..., hold_ms: _Optional[int] = ...) -> None: ...

class ObserveRequest(_message.Message):
    __slots__ = ["election", "from_index"]
    ELECTION_FIELD_NUMBER: _ClassVar[int]
    FROM_INDEX_FIELD_NUMBER: _ClassVar[int]
    election: str
    from_index: int
    def __init__(self, election: _Optional[str] = ..., from_index: _Optional[int] = ...) -> None: ...

class OpenSessionRequest(_message.Message):
    __slots__ = ["client_name", "request_id", "ttl_ms"]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_MS_FIELD_NUMBER: _ClassVar[int]
    client_name: str
    request_id: str
    ttl_ms: int
    def __init__(self, ttl_ms: _Optional[int] = ..., client_name: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class OpenSessionResponse(_message.Message):
    __slots__ = ["session_id", "ttl_ms"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_MS_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    ttl_ms: int
    def __init__(self, session_id: _Optional[int] = ..., ttl_ms: _Optional[int] = ...) -> None: ...

class ProclaimRequest(_message.Message):
    __slots__ = ["acked_up_to", "election", "held", "seq", "session_id", "token", "value"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    ELECTION_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    election: str
    held: _containers.RepeatedScalarFieldContainer[int]
    seq: int
    session_id: int
    token: int
    value: bytes
    def __init__(self, session_id: _Optional[int] = ..., election: _Optional[str] = ..., token: _Optional[int] = ..., value: _Optional[bytes] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ...) -> None: ...

class ProclaimResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ReleaseRequest(_message.Message):
    __slots__ = ["acked_up_to", "held", "lock", "seq", "session_id", "successor_session_id", "token"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SUCCESSOR_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    held: _containers.RepeatedScalarFieldContainer[int]
    lock: str
    seq: int
    session_id: int
    successor_session_id: int
    token: int
    def __init__(self, session_id: _Optional[int] = ..., lock: _Optional[str] = ..., token: _Optional[int] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ..., successor_session_id: _Optional[int] = ...) -> None: ...

class ReleaseResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ["acked_up_to", "election", "held", "seq", "session_id", "successor_session_id", "token"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    ELECTION_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SUCCESSOR_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    election: str
    held: _containers.RepeatedScalarFieldContainer[int]
    seq: int
    session_id: int
    successor_session_id: int
    token: int
    def __init__(self, session_id: _Optional[int] = ..., election: _Optional[str] = ..., token: _Optional[int] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ..., successor_session_id: _Optional[int] = ...) -> None: ...

class ResignResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ServerFrame(_message.Message):
    __slots__ = ["answers"]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[StreamAnswer]
    def __init__(self, answers: _Optional[_Iterable[_Union[StreamAnswer, _Mapping]]] = ...) -> None: ...

class SessionInfo(_message.Message):
    __slots__ = ["client_name", "held_locks", "opened_index", "session_id", "ttl_ms", "waiting_locks"]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    HELD_LOCKS_FIELD_NUMBER: _ClassVar[int]
    OPENED_INDEX_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_MS_FIELD_NUMBER: _ClassVar[int]
    WAITING_LOCKS_FIELD_NUMBER: _ClassVar[int]
    client_name: str
    held_locks: _containers.RepeatedScalarFieldContainer[str]
    opened_index: int
    session_id: int
    ttl_ms: int
    waiting_locks: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, session_id: _Optional[int] = ..., client_name: _Optional[str] = ..., ttl_ms: _Optional[int] = ..., opened_index: _Optional[int] = ..., held_locks: _Optional[_Iterable[str]] = ..., waiting_locks: _Optional[_Iterable[str]] = ...) -> None: ...

class SessionKeptAlive(_message.Message):
    __slots__ = ["not_found", "permission_denied", "session_id", "ttl_ms"]
    NOT_FOUND_FIELD_NUMBER: _ClassVar[int]
    PERMISSION_DENIED_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_MS_FIELD_NUMBER: _ClassVar[int]
    not_found: bool
    permission_denied: bool
    session_id: int
    ttl_ms: int
    def __init__(self, session_id: _Optional[int] = ..., ttl_ms: _Optional[int] = ..., not_found: bool = ..., permission_denied: bool = ...) -> None: ...

class StreamAnswer(_message.Message):
    __slots__ = ["acquire", "campaign", "cancel_wait", "close_session", "downgrade", "failure", "get_lock", "get_lock_history", "get_session", "id", "keep_alive", "leader", "list_locks", "list_sessions", "open_session", "proclaim", "release", "resign", "upgrade", "validate_token"]
    ACQUIRE_FIELD_NUMBER: _ClassVar[int]
    CAMPAIGN_FIELD_NUMBER: _ClassVar[int]
    CANCEL_WAIT_FIELD_NUMBER: _ClassVar[int]
    CLOSE_SESSION_FIELD_NUMBER: _ClassVar[int]
    DOWNGRADE_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    GET_LOCK_FIELD_NUMBER: _ClassVar[int]
    GET_LOCK_HISTORY_FIELD_NUMBER: _ClassVar[int]
    GET_SESSION_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KEEP_ALIVE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    LIST_LOCKS_FIELD_NUMBER: _ClassVar[int]
    LIST_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SESSION_FIELD_NUMBER: _ClassVar[int]
    PROCLAIM_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    UPGRADE_FIELD_NUMBER: _ClassVar[int]
    VALIDATE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    acquire: AcquireResponse
    campaign: CampaignResponse
    cancel_wait: CancelWaitResponse
    close_session: CloseSessionResponse
    downgrade: DowngradeResponse
    failure: StreamFailure
    get_lock: GetLockResponse
    get_lock_history: GetLockHistoryResponse
    get_session: GetSessionResponse
    id: int
    keep_alive: KeepAliveResponse
    leader: LeaderResponse
    list_locks: ListLocksResponse
    list_sessions: ListSessionsResponse
    open_session: OpenSessionResponse
    proclaim: ProclaimResponse
    release: ReleaseResponse
    resign: ResignResponse
    upgrade: UpgradeResponse
    validate_token: ValidateTokenResponse
    def __init__(self, id: _Optional[int] = ..., open_session: _Optional[_Union[OpenSessionResponse, _Mapping]] = ..., keep_alive: _Optional[_Union[KeepAliveResponse, _Mapping]] = ..., close_session: _Optional[_Union[CloseSessionResponse, _Mapping]] = ..., acquire: _Optional[_Union[AcquireResponse, _Mapping]] = ..., cancel_wait: _Optional[_Union[CancelWaitResponse, _Mapping]] = ..., release: _Optional[_Union[ReleaseResponse, _Mapping]] = ..., get_lock: _Optional[_Union[GetLockResponse, _Mapping]] = ..., list_locks: _Optional[_Union[ListLocksResponse, _Mapping]] = ..., get_session: _Optional[_Union[GetSessionResponse, _Mapping]] = ..., list_sessions: _Optional[_Union[ListSessionsResponse, _Mapping]] = ..., get_lock_history: _Optional[_Union[GetLockHistoryResponse, _Mapping]] = ..., validate_token: _Optional[_Union[ValidateTokenResponse, _Mapping]] = ..., campaign: _Optional[_Union[CampaignResponse, _Mapping]] = ..., proclaim: _Optional[_Union[ProclaimResponse, _Mapping]] = ..., resign: _Optional[_Union[ResignResponse, _Mapping]] = ..., leader: _Optional[_Union[LeaderResponse, _Mapping]] = ..., upgrade: _Optional[_Union[UpgradeResponse, _Mapping]] = ..., downgrade: _Optional[_Union[DowngradeResponse, _Mapping]] = ..., failure: _Optional[_Union[StreamFailure, _Mapping]] = ...) -> None: ...

class StreamFailure(_message.Message):
    __slots__ = ["code", "leader", "message", "reason"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    code: int
    leader: str
    message: str
    reason: ErrorReason
    def __init__(self, code: _Optional[int] = ..., reason: _Optional[_Union[ErrorReason, str]] = ..., message: _Optional[str] = ..., leader: _Optional[str] = ...) -> None: ...

class StreamRequest(_message.Message):
    __slots__ = ["acquire", "campaign", "cancel_wait", "close_session", "downgrade", "forget", "get_lock", "get_lock_history", "get_session", "id", "keep_alive", "leader", "list_locks", "list_sessions", "open_session", "proclaim", "release", "resign", "upgrade", "validate_token"]
    ACQUIRE_FIELD_NUMBER: _ClassVar[int]
    CAMPAIGN_FIELD_NUMBER: _ClassVar[int]
    CANCEL_WAIT_FIELD_NUMBER: _ClassVar[int]
    CLOSE_SESSION_FIELD_NUMBER: _ClassVar[int]
    DOWNGRADE_FIELD_NUMBER: _ClassVar[int]
    FORGET_FIELD_NUMBER: _ClassVar[int]
    GET_LOCK_FIELD_NUMBER: _ClassVar[int]
    GET_LOCK_HISTORY_FIELD_NUMBER: _ClassVar[int]
    GET_SESSION_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KEEP_ALIVE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    LIST_LOCKS_FIELD_NUMBER: _ClassVar[int]
    LIST_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SESSION_FIELD_NUMBER: _ClassVar[int]
    PROCLAIM_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    UPGRADE_FIELD_NUMBER: _ClassVar[int]
    VALIDATE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    acquire: AcquireRequest
    campaign: CampaignRequest
    cancel_wait: CancelWaitRequest
    close_session: CloseSessionRequest
    downgrade: DowngradeRequest
    forget: Forget
    get_lock: GetLockRequest
    get_lock_history: GetLockHistoryRequest
    get_session: GetSessionRequest
    id: int
    keep_alive: KeepAliveRequest
    leader: LeaderRequest
    list_locks: ListLocksRequest
    list_sessions: ListSessionsRequest
    open_session: OpenSessionRequest
    proclaim: ProclaimRequest
    release: ReleaseRequest
    resign: ResignRequest
    upgrade: UpgradeRequest
    validate_token: ValidateTokenRequest
    def __init__(self, id: _Optional[int] = ..., open_session: _Optional[_Union[OpenSessionRequest, _Mapping]] = ..., keep_alive: _Optional[_Union[KeepAliveRequest, _Mapping]] = ..., close_session: _Optional[_Union[CloseSessionRequest, _Mapping]] = ..., acquire: _Optional[_Union[AcquireRequest, _Mapping]] = ..., cancel_wait: _Optional[_Union[CancelWaitRequest, _Mapping]] = ..., release: _Optional[_Union[ReleaseRequest, _Mapping]] = ..., get_lock: _Optional[_Union[GetLockRequest, _Mapping]] = ..., list_locks: _Optional[_Union[ListLocksRequest, _Mapping]] = ..., get_session: _Optional[_Union[GetSessionRequest, _Mapping]] = ..., list_sessions: _Optional[_Union[ListSessionsRequest, _Mapping]] = ..., get_lock_history: _Optional[_Union[GetLockHistoryRequest, _Mapping]] = ..., validate_token: _Optional[_Union[ValidateTokenRequest, _Mapping]] = ..., campaign: _Optional[_Union[CampaignRequest, _Mapping]] = ..., proclaim: _Optional[_Union[ProclaimRequest, _Mapping]] = ..., resign: _Optional[_Union[ResignRequest, _Mapping]] = ..., leader: _Optional[_Union[LeaderRequest, _Mapping]] = ..., upgrade: _Optional[_Union[UpgradeRequest, _Mapping]] = ..., downgrade: _Optional[_Union[DowngradeRequest, _Mapping]] = ..., forget: _Optional[_Union[Forget, _Mapping]] = ...) -> None: ...

class UpgradeRequest(_message.Message):
    __slots__ = ["acked_up_to", "held", "lock", "seq", "session_id", "token", "wait_ms"]
    ACKED_UP_TO_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    WAIT_MS_FIELD_NUMBER: _ClassVar[int]
    acked_up_to: int
    held: _containers.RepeatedScalarFieldContainer[int]
    lock: str
    seq: int
    session_id: int
    token: int
    wait_ms: int
    def __init__(self, session_id: _Optional[int] = ..., lock: _Optional[str] = ..., token: _Optional[int] = ..., wait_ms: _Optional[int] = ..., seq: _Optional[int] = ..., acked_up_to: _Optional[int] = ..., held: _Optional[_Iterable[int]] = ...) -> None: ...

class UpgradeResponse(_message.Message):
    __slots__ = ["cancelled", "holder", "token", "upgraded"]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    UPGRADED_FIELD_NUMBER: _ClassVar[int]
    cancelled: bool
    holder: LockHolder
    token: int
    upgraded: bool
    def __init__(self, upgraded: bool = ..., token: _Optional[int] = ..., holder: _Optional[_Union[LockHolder, _Mapping]] = ..., cancelled: bool = ...) -> None: ...

class ValidateTokenRequest(_message.Message):
    __slots__ = ["lock", "token"]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    lock: str
    token: int
    def __init__(self, lock: _Optional[str] = ..., token: _Optional[int] = ...) -> None: ...

class ValidateTokenResponse(_message.Message):
    __slots__ = ["valid"]
    VALID_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    def __init__(self, valid: bool = ...) -> None: ...

class WatchEvent(_message.Message):
    __slots__ = ["ended", "hold_ms", "holder_data", "index", "kind", "lock", "mode", "permits", "revoke_cause", "session_id", "slot", "token"]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    HOLDER_DATA_FIELD_NUMBER: _ClassVar[int]
    HOLD_MS_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PERMITS_FIELD_NUMBER: _ClassVar[int]
    REVOKE_CAUSE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ended: EndReason
    hold_ms: int
    holder_data: bytes
    index: int
    kind: WatchEventKind
    lock: str
    mode: LockMode
    permits: int
    revoke_cause: RevokeCause
    session_id: int
    slot: int
    token: int
    def __init__(self, index: _Optional[int] = ..., lock: _Optional[str] = ..., kind: _Optional[_Union[WatchEventKind, str]] = ..., session_id: _Optional[int] = ..., token: _Optional[int] = ..., mode: _Optional[_Union[LockMode, str]] = ..., permits: _Optional[int] = ..., slot: _Optional[int] = ..., holder_data: _Optional[bytes] = ..., hold_ms: _Optional[int] = ..., revoke_cause: _Optional[_Union[RevokeCause, str]] = ..., ended: _Optional[_Union[EndReason, str]] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ["from_index", "prefix"]
    FROM_INDEX_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    from_index: int
    prefix: str
    def __init__(self, prefix: _Optional[str] = ..., from_index: _Optional[int] = ...) -> None: ...

class LockMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CancelWaitOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class LockKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class RevokeCause(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class WatchEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ElectionEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
