"""Plain values the client hands out: ids, tokens and indexes as int, enums as words."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Literal, Optional

from .v1 import lock_pb2

EndReason = Literal[
    "current", "released", "session_closed", "session_expired", "revoked", "handed_off", "upgraded", "downgraded", "unknown",
]
CancelOutcome = Literal["cancelled", "granted", "not_acquired"]
#: How a lock is acquired: alone, beside shared holders, or upgradeable (beside shared
#: holders, never beside another upgradeable or an exclusive one, and made exclusive in
#: place by an upgrade).
LockMode = Literal["exclusive", "shared", "upgradeable"]
#: What an exclusive grant is downgraded to.
DowngradeMode = Literal["shared", "upgradeable"]

_END_REASONS: Dict[int, EndReason] = {
    lock_pb2.END_REASON_UNSPECIFIED: "current",
    lock_pb2.END_REASON_RELEASED: "released",
    lock_pb2.END_REASON_SESSION_CLOSED: "session_closed",
    lock_pb2.END_REASON_SESSION_EXPIRED: "session_expired",
    lock_pb2.END_REASON_REVOKED: "revoked",
    lock_pb2.END_REASON_HANDED_OFF: "handed_off",
    lock_pb2.END_REASON_UPGRADED: "upgraded",
    lock_pb2.END_REASON_DOWNGRADED: "downgraded",
}


@dataclass(frozen=True)
class LockHolder:
    session_id: int
    client_name: str
    token: int
    granted_index: int
    #: "exclusive", "shared", "upgradeable", "permit" (one permit of a semaphore, in `slot`)
    #: or "leader" (an election's).
    mode: str = "exclusive"
    slot: Optional[int] = None
    #: The holder data the Acquire carried ("" when none).
    data: str = ""
    #: An upgradeable holder whose upgrade waits for the other holders to leave: the log
    #: index it began waiting at (it goes before every queued request); None otherwise.
    upgrading_since_index: Optional[int] = None


@dataclass(frozen=True)
class LockWaiter:
    session_id: int
    client_name: str
    waiting_since_index: int


@dataclass(frozen=True)
class HolderCursor:
    """A place in a lock's holder list (oldest first): just after the grant of `token` to `session_id`."""
    token: int
    session_id: int


@dataclass(frozen=True)
class LockInfo:
    """A lock with one page of its holders and one of its waiters, both totals, and where each list goes on."""
    lock: str
    #: None when the lock is free; the oldest grant when there are several.
    holder: Optional[LockHolder]
    #: This page of the queue, FIFO order.
    waiters: List[LockWaiter] = field(default_factory=list)
    #: This page of the current grants, oldest first, when there are several (shared holders, permits).
    holders: List[LockHolder] = field(default_factory=list)
    #: Every current grant and every waiter, listed or not.
    holder_count: int = 0
    waiter_count: int = 0
    #: Pass as `holders_after` for the next page of holders; None when this page ends the list (or listed none).
    next_holders_after: Optional[HolderCursor] = None
    #: Pass as `waiters_after` for the next page of waiters; 0 when this page ends the queue (or listed none).
    next_waiters_after: int = 0


@dataclass(frozen=True)
class LockSummary:
    lock: str
    holder: Optional[LockHolder]
    waiter_count: int
    #: The oldest few grants when there are several (get_lock with holders_after reads the rest).
    holders: List[LockHolder] = field(default_factory=list)
    #: Every current grant, listed or not.
    holder_count: int = 0
    next_holders_after: Optional[HolderCursor] = None


@dataclass(frozen=True)
class LockPage:
    locks: List[LockSummary]
    #: Pass as `after` for the next page; "" after the last page.
    next_after: str


@dataclass(frozen=True)
class SessionInfo:
    session_id: int
    client_name: str
    ttl: float
    opened_index: int
    held_locks: List[str]
    waiting_locks: List[str]


@dataclass(frozen=True)
class SessionPage:
    sessions: List[SessionInfo]
    #: Pass as `after` for the next page; 0 after the last page.
    next_after: int


@dataclass(frozen=True)
class HistoryRecord:
    token: int
    session_id: int
    client_name: str
    granted_index: int
    waited_from_index: int
    #: 0 while the grant is current.
    ended_index: int
    reason: EndReason
    #: Proposers' wall-clock milliseconds, display only.
    granted_at_ms: int
    ended_at_ms: int


@dataclass(frozen=True)
class AcquireResult:
    acquired: bool
    #: The seq the Acquire was sent with (what CancelWait names).
    seq: int
    #: The caller's token when acquired.
    token: Optional[int] = None
    #: The caller when acquired, otherwise the current holder (if any).
    holder: Optional[LockHolder] = None
    #: A semaphore permit's slot (0 to permits - 1) when acquired.
    slot: Optional[int] = None


@dataclass(frozen=True)
class UpgradeResult:
    """The answer of an Upgrade: the caller's upgradeable grant made exclusive (a new grant,
    `token`), or not, its upgradeable grant going on with the token it had."""
    upgraded: bool
    #: The seq the Upgrade was sent with (what CancelWait names).
    seq: int
    #: The new exclusive grant's token when upgraded.
    token: Optional[int] = None
    #: Not upgraded: the oldest other holder (None when the answer names none).
    holder: Optional[LockHolder] = None
    #: Not upgraded because a CancelWait of this Upgrade came first: it took no effect.
    cancelled: bool = False


@dataclass(frozen=True)
class DowngradeResult:
    """The new grant a Downgrade made: its token and mode ("shared" or "upgradeable")."""
    token: int
    mode: DowngradeMode


@dataclass(frozen=True)
class CancelWaitResult:
    outcome: CancelOutcome
    #: The grant's token when outcome is "granted".
    token: Optional[int] = None


_HOLDER_MODES: Dict[int, str] = {
    lock_pb2.LOCK_MODE_SHARED: "shared",
    lock_pb2.LOCK_MODE_UPGRADEABLE: "upgradeable",
    lock_pb2.LOCK_MODE_LEADER: "leader",
}


def mode_from(value: int) -> str:
    """A grant's mode from its wire value: unset (and EXCLUSIVE) is "exclusive"."""
    return _HOLDER_MODES.get(value, "exclusive")


def holder_from(message: lock_pb2.LockHolder) -> LockHolder:
    mode = "permit" if message.permits > 0 else mode_from(message.mode)
    return LockHolder(
        message.session_id, message.client_name, message.token, message.granted_index,
        mode, message.slot if mode == "permit" else None, message.holder_data.decode("utf-8", errors="replace"),
        message.upgrading_since_index or None,
    )


def upgrade_result_from(message: lock_pb2.UpgradeResponse, seq: int) -> UpgradeResult:
    if message.upgraded:
        return UpgradeResult(True, seq, message.token)
    holder = holder_from(message.holder) if message.HasField("holder") else None
    return UpgradeResult(False, seq, None, holder, cancelled=message.cancelled)


def downgrade_result_from(message: lock_pb2.DowngradeResponse, asked: DowngradeMode) -> DowngradeResult:
    """The new grant; a node that leaves the mode unset made the one asked for."""
    mode: DowngradeMode = (
        "upgradeable" if message.mode == lock_pb2.LOCK_MODE_UPGRADEABLE else "shared" if message.mode == lock_pb2.LOCK_MODE_SHARED else asked
    )
    return DowngradeResult(message.token, mode)


def _cursor_from(message: lock_pb2.HolderCursor) -> HolderCursor:
    return HolderCursor(message.token, message.session_id)


def _holder_count(count: int, holders: List[LockHolder], holder: Optional[LockHolder]) -> int:
    # A node that predates the pages sends no count but lists every grant.
    return max(count, len(holders) if holders else 1 if holder is not None else 0)


def lock_info_from(message: lock_pb2.GetLockResponse) -> LockInfo:
    holder = holder_from(message.holder) if message.HasField("holder") else None
    holders = [holder_from(h) for h in message.holders]
    waiters = [LockWaiter(w.session_id, w.client_name, w.waiting_since_index) for w in message.waiters]
    return LockInfo(
        message.lock, holder, waiters, holders, _holder_count(message.holder_count, holders, holder), max(message.waiter_count, len(waiters)),
        _cursor_from(message.next_holders_after) if message.HasField("next_holders_after") else None, message.next_waiters_after_index,
    )


def _summary_from(message: lock_pb2.LockSummary) -> LockSummary:
    holder = holder_from(message.holder) if message.HasField("holder") else None
    holders = [holder_from(h) for h in message.holders]
    return LockSummary(
        message.lock, holder, message.waiter_count, holders, _holder_count(message.holder_count, holders, holder),
        _cursor_from(message.next_holders_after) if message.HasField("next_holders_after") else None,
    )


def lock_page_from(message: lock_pb2.ListLocksResponse) -> LockPage:
    return LockPage([_summary_from(s) for s in message.locks], message.next_after)


def session_info_from(message: lock_pb2.SessionInfo) -> SessionInfo:
    return SessionInfo(
        message.session_id, message.client_name, message.ttl_ms / 1000, message.opened_index,
        list(message.held_locks), list(message.waiting_locks),
    )


def history_from(message: lock_pb2.GetLockHistoryResponse) -> List[HistoryRecord]:
    return [
        HistoryRecord(
            r.token, r.session_id, r.client_name, r.granted_index, r.waited_from_index, r.ended_index,
            _end_reason(r.reason), r.granted_at_ms, r.ended_at_ms,
        )
        for r in message.records
    ]


def _end_reason(value: int) -> EndReason:
    return _END_REASONS.get(value, "unknown")


def cancel_wait_from(message: lock_pb2.CancelWaitResponse) -> CancelWaitResult:
    if message.outcome == lock_pb2.CANCEL_WAIT_OUTCOME_GRANTED:
        return CancelWaitResult("granted", message.token)
    if message.outcome == lock_pb2.CANCEL_WAIT_OUTCOME_CANCELLED:
        return CancelWaitResult("cancelled")
    return CancelWaitResult("not_acquired")


# ---- elections -------------------------------------------------------------------------------

ElectionEventKind = Literal["leader", "value", "no_leader"]


@dataclass(frozen=True)
class Leader:
    """An election's leader: a session, its fencing token, the log index that made it leader, its value."""
    session_id: int
    client_name: str
    token: int
    since_index: int
    #: The value it campaigned with or last proclaimed ("" when none, or when a
    #: Campaign's answer names the leader without it).
    value: str


@dataclass(frozen=True)
class LeaderInfo:
    """A Leader read: the leader (None: none) and how many candidates wait."""
    leader: Optional[Leader]
    candidate_count: int


@dataclass(frozen=True)
class CampaignResult:
    elected: bool
    #: The seq the Campaign was sent with (what CancelWait names).
    seq: int
    #: The caller's token when elected.
    token: Optional[int] = None
    #: The caller when elected, else the current leader without its value (None: none).
    leader: Optional[Leader] = None
    #: Not elected because a CancelWait of this Campaign came first: it took no effect.
    cancelled: bool = False


@dataclass(frozen=True)
class ElectionEvent:
    """One change of an election, at the log index that made it: a new leader ("leader"), a
    new value ("value", `leader` with it) or no leader ("no_leader", with how the last lead
    ended unless it is a stream's first event, which reports the state rather than a change)."""
    kind: ElectionEventKind
    index: int
    leader: Optional[Leader] = None
    #: "no_leader": how the last lead ended ("released", "handed_off", "session_expired", ...),
    #: and its token; None in a stream's first event.
    ended: Optional[EndReason] = None
    ended_token: Optional[int] = None
    #: The events before this one were let go of by every node (a jump): this is the state now.
    resync: bool = False


def leader_from(message: lock_pb2.Leadership) -> Leader:
    return Leader(
        message.session_id, message.client_name, message.token, message.since_index,
        message.value.decode("utf-8", errors="replace"),
    )


def leader_info_from(message: lock_pb2.LeaderResponse) -> LeaderInfo:
    return LeaderInfo(leader_from(message.leader) if message.HasField("leader") else None, message.candidate_count)


def campaign_result_from(message: lock_pb2.CampaignResponse, seq: int) -> CampaignResult:
    leader = leader_from(message.leader) if message.HasField("leader") else None
    if message.elected:
        return CampaignResult(True, seq, message.token, leader)
    return CampaignResult(False, seq, None, leader, cancelled=message.cancelled)


def election_event_from(message: lock_pb2.ElectionEvent) -> ElectionEvent:
    """Raises ValueError for an event this client cannot read (an unknown kind, a leader event without its leader)."""
    if message.kind in (lock_pb2.ELECTION_EVENT_KIND_LEADER, lock_pb2.ELECTION_EVENT_KIND_VALUE):
        if not message.HasField("leader"):
            raise ValueError(f"a leader event at index {message.index} names no leader")
        kind: ElectionEventKind = "leader" if message.kind == lock_pb2.ELECTION_EVENT_KIND_LEADER else "value"
        return ElectionEvent(kind, message.index, leader_from(message.leader))
    if message.kind == lock_pb2.ELECTION_EVENT_KIND_NO_LEADER:
        if message.ended == lock_pb2.END_REASON_UNSPECIFIED:
            return ElectionEvent("no_leader", message.index)
        return ElectionEvent("no_leader", message.index, None, _end_reason(message.ended), message.ended_token)
    raise ValueError(f"{message.kind} is not an election event kind")
