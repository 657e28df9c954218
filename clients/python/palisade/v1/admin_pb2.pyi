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
    __slots__ = ["applied_index", "cluster_id", "commit_index", "epoch", "last_index", "leader_id", "members", "node_id", "role", "snapshot_index", "term"]
    APPLIED_INDEX_FIELD_NUMBER: _ClassVar[int]
    CLUSTER_ID_FIELD_NUMBER: _ClassVar[int]
    COMMIT_INDEX_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    LAST_INDEX_FIELD_NUMBER: _ClassVar[int]
    LEADER_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
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
    node_id: int
    role: NodeRole
    snapshot_index: int
    term: int
    def __init__(self, node_id: _Optional[int] = ..., role: _Optional[_Union[NodeRole, str]] = ..., term: _Optional[int] = ..., leader_id: _Optional[int] = ..., commit_index: _Optional[int] = ..., applied_index: _Optional[int] = ..., last_index: _Optional[int] = ..., snapshot_index: _Optional[int] = ..., members: _Optional[_Iterable[_Union[Member, _Mapping]]] = ..., cluster_id: _Optional[str] = ..., epoch: _Optional[int] = ...) -> None: ...

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

class NodeRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class MemberKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
