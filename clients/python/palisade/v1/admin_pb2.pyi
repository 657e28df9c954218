from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
MEMBER_KIND_LEARNER: MemberKind
MEMBER_KIND_UNSPECIFIED: MemberKind
MEMBER_KIND_VOTER: MemberKind
NODE_ROLE_CANDIDATE: NodeRole
NODE_ROLE_FOLLOWER: NodeRole
NODE_ROLE_LEADER: NodeRole
NODE_ROLE_PRECANDIDATE: NodeRole
NODE_ROLE_UNSPECIFIED: NodeRole

class ApplyPolicyRequest(_message.Message):
    __slots__ = ["text"]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...

class ApplyPolicyResponse(_message.Message):
    __slots__ = ["version"]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class BackupChunk(_message.Message):
    __slots__ = ["cluster_id", "data", "epoch", "index", "last", "term"]
    CLUSTER_ID_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    TERM_FIELD_NUMBER: _ClassVar[int]
    cluster_id: str
    data: bytes
    epoch: int
    index: int
    last: bool
    term: int
    def __init__(self, index: _Optional[int] = ..., term: _Optional[int] = ..., cluster_id: _Optional[str] = ..., epoch: _Optional[int] = ..., data: _Optional[bytes] = ..., last: bool = ...) -> None: ...

class BackupRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class CanRequest(_message.Message):
    __slots__ = ["action", "identity", "lock"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    action: str
    identity: str
    lock: str
    def __init__(self, identity: _Optional[str] = ..., action: _Optional[str] = ..., lock: _Optional[str] = ...) -> None: ...

class CanResponse(_message.Message):
    __slots__ = ["allowed", "policy_version", "reason"]
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    POLICY_VERSION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    allowed: bool
    policy_version: int
    reason: str
    def __init__(self, allowed: bool = ..., reason: _Optional[str] = ..., policy_version: _Optional[int] = ...) -> None: ...

class CreateTokenRequest(_message.Message):
    __slots__ = ["identity", "roles", "ttl_ms"]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    TTL_MS_FIELD_NUMBER: _ClassVar[int]
    identity: str
    roles: _containers.RepeatedScalarFieldContainer[str]
    ttl_ms: int
    def __init__(self, identity: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ..., ttl_ms: _Optional[int] = ...) -> None: ...

class CreateTokenResponse(_message.Message):
    __slots__ = ["expires_at_ms", "secret", "token_id"]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    expires_at_ms: int
    secret: str
    token_id: str
    def __init__(self, token_id: _Optional[str] = ..., secret: _Optional[str] = ..., expires_at_ms: _Optional[int] = ...) -> None: ...

class GetPolicyRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetPolicyResponse(_message.Message):
    __slots__ = ["text", "version"]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    text: str
    version: int
    def __init__(self, text: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class Grant(_message.Message):
    __slots__ = ["actions", "prefix"]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedScalarFieldContainer[str]
    prefix: str
    def __init__(self, prefix: _Optional[str] = ..., actions: _Optional[_Iterable[str]] = ...) -> None: ...

class ListTokensRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListTokensResponse(_message.Message):
    __slots__ = ["tokens"]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    tokens: _containers.RepeatedCompositeFieldContainer[TokenInfo]
    def __init__(self, tokens: _Optional[_Iterable[_Union[TokenInfo, _Mapping]]] = ...) -> None: ...

class Member(_message.Message):
    __slots__ = ["address", "client_address", "kind", "match_index", "node_id", "reachable"]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MATCH_INDEX_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    REACHABLE_FIELD_NUMBER: _ClassVar[int]
    address: str
    client_address: str
    kind: MemberKind
    match_index: int
    node_id: int
    reachable: bool
    def __init__(self, node_id: _Optional[int] = ..., address: _Optional[str] = ..., kind: _Optional[_Union[MemberKind, str]] = ..., reachable: bool = ..., match_index: _Optional[int] = ..., client_address: _Optional[str] = ...) -> None: ...

class MemberAddRequest(_message.Message):
    __slots__ = ["address", "client_address", "node_id"]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    address: str
    client_address: str
    node_id: int
    def __init__(self, node_id: _Optional[int] = ..., address: _Optional[str] = ..., client_address: _Optional[str] = ...) -> None: ...

class MemberAddResponse(_message.Message):
    __slots__ = ["members"]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[Member]
    def __init__(self, members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ...) -> None: ...

class MemberListRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class MemberListResponse(_message.Message):
    __slots__ = ["members"]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[Member]
    def __init__(self, members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ...) -> None: ...

class MemberPromoteRequest(_message.Message):
    __slots__ = ["node_id"]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    node_id: int
    def __init__(self, node_id: _Optional[int] = ...) -> None: ...

class MemberPromoteResponse(_message.Message):
    __slots__ = ["members"]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[Member]
    def __init__(self, members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ...) -> None: ...

class MemberRemoveRequest(_message.Message):
    __slots__ = ["node_id"]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    node_id: int
    def __init__(self, node_id: _Optional[int] = ...) -> None: ...

class MemberRemoveResponse(_message.Message):
    __slots__ = ["members"]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[Member]
    def __init__(self, members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ...) -> None: ...

class Quota(_message.Message):
    __slots__ = ["limit", "name", "used"]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    limit: int
    name: str
    used: int
    def __init__(self, name: _Optional[str] = ..., limit: _Optional[int] = ..., used: _Optional[int] = ...) -> None: ...

class RevokeLockRequest(_message.Message):
    __slots__ = ["lock", "token"]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    lock: str
    token: int
    def __init__(self, lock: _Optional[str] = ..., token: _Optional[int] = ...) -> None: ...

class RevokeLockResponse(_message.Message):
    __slots__ = ["index"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...

class RevokeTokenRequest(_message.Message):
    __slots__ = ["token_id"]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    token_id: str
    def __init__(self, token_id: _Optional[str] = ...) -> None: ...

class RevokeTokenResponse(_message.Message):
    __slots__ = ["index"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...

class SnapshotSaveRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class SnapshotSaveResponse(_message.Message):
    __slots__ = ["index", "size_bytes", "term"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    TERM_FIELD_NUMBER: _ClassVar[int]
    index: int
    size_bytes: int
    term: int
    def __init__(self, index: _Optional[int] = ..., term: _Optional[int] = ..., size_bytes: _Optional[int] = ...) -> None: ...

class StatusRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class StatusResponse(_message.Message):
    __slots__ = ["applied_index", "cluster_id", "commit_index", "epoch", "last_index", "leader_id", "members", "metrics_address", "node_id", "role", "snapshot_index", "term"]
    APPLIED_INDEX_FIELD_NUMBER: _ClassVar[int]
    CLUSTER_ID_FIELD_NUMBER: _ClassVar[int]
    COMMIT_INDEX_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    LAST_INDEX_FIELD_NUMBER: _ClassVar[int]
    LEADER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    METRICS_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_INDEX_FIELD_NUMBER: _ClassVar[int]
    TERM_FIELD_NUMBER: _ClassVar[int]
    applied_index: int
    cluster_id: str
    commit_index: int
    epoch: int
    last_index: int
    leader_id: int
    members: _containers.RepeatedCompositeFieldContainer[Member]
    metrics_address: str
    node_id: int
    role: NodeRole
    snapshot_index: int
    term: int
    def __init__(self, node_id: _Optional[int] = ..., role: _Optional[_Union[NodeRole, str]] = ..., term: _Optional[int] = ..., leader_id: _Optional[int] = ..., commit_index: _Optional[int] = ..., applied_index: _Optional[int] = ..., last_index: _Optional[int] = ..., snapshot_index: _Optional[int] = ..., members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ..., cluster_id: _Optional[str] = ..., epoch: _Optional[int] = ..., metrics_address: _Optional[str] = ...) -> None: ...

class TokenInfo(_message.Message):
    __slots__ = ["created_index", "created_ms", "expires_at_ms", "identity", "roles", "token_id"]
    CREATED_INDEX_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    created_index: int
    created_ms: int
    expires_at_ms: int
    identity: str
    roles: _containers.RepeatedScalarFieldContainer[str]
    token_id: str
    def __init__(self, token_id: _Optional[str] = ..., identity: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ..., created_index: _Optional[int] = ..., created_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ...) -> None: ...

class TransferLeaderRequest(_message.Message):
    __slots__ = ["to_node_id"]
    TO_NODE_ID_FIELD_NUMBER: _ClassVar[int]
    to_node_id: int
    def __init__(self, to_node_id: _Optional[int] = ...) -> None: ...

class TransferLeaderResponse(_message.Message):
    __slots__ = ["leader_id", "term"]
    LEADER_ID_FIELD_NUMBER: _ClassVar[int]
    TERM_FIELD_NUMBER: _ClassVar[int]
    leader_id: int
    term: int
    def __init__(self, leader_id: _Optional[int] = ..., term: _Optional[int] = ...) -> None: ...

class WhoAmIRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class WhoAmIResponse(_message.Message):
    __slots__ = ["admin", "grants", "identity", "policy_version", "quotas", "roles", "token_id", "via"]
    ADMIN_FIELD_NUMBER: _ClassVar[int]
    GRANTS_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    POLICY_VERSION_FIELD_NUMBER: _ClassVar[int]
    QUOTAS_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    admin: bool
    grants: _containers.RepeatedCompositeFieldContainer[Grant]
    identity: str
    policy_version: int
    quotas: _containers.RepeatedCompositeFieldContainer[Quota]
    roles: _containers.RepeatedScalarFieldContainer[str]
    token_id: str
    via: str
    def __init__(self, identity: _Optional[str] = ..., via: _Optional[str] = ..., token_id: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ..., admin: bool = ..., grants: _Optional[_Iterable[_Union[Grant, _Mapping]]] = ..., quotas: _Optional[_Iterable[_Union[Quota, _Mapping]]] = ..., policy_version: _Optional[int] = ...) -> None: ...

class NodeRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class MemberKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
