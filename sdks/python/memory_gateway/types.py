"""The shapes the API answers with (the `data` of its envelope) and those some calls take, as TypedDicts.

Field names are the API's (snake_case, except `pageSize` and `totalPages` in `pagination`).
"""

from __future__ import annotations

import sys
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Dict, Generic, List, Literal, Mapping, Optional, TypedDict, TypeVar, Union

__all__ = [
    "DateLike",
    "MetadataValue",
    "Metadata",
    "Scopes",
    "ErrorDetail",
    "Pagination",
    "CursorPagination",
    "Page",
    "CursorPage",
    "Namespace",
    "Grant",
    "Deleted",
    "Memory",
    "MemoryVersion",
    "ChangedBy",
    "MemoryInput",
    "MessageInput",
    "Match",
    "ContextTurn",
    "EntityRef",
    "DocumentRef",
    "Source",
    "AskResult",
    "ForgetResult",
    "NamespaceDeletion",
    "ExportRecord",
    "ImportResult",
    "Document",
    "DocumentBlock",
    "DocumentText",
    "DeletedDocument",
    "Event",
    "EventFeed",
    "Entity",
    "CoOccurrence",
    "EntityDetail",
    "Health",
]

T = TypeVar("T")

DateLike = Union[str, datetime, date]
"""A date the client sends: an ISO 8601 string, a `date`, or a timezone-aware `datetime` (a naive one, without
tzinfo, raises ValueError before anything is sent: use `datetime.now(timezone.utc)`)."""

MetadataValue = Union[str, int, float, bool, None]
Metadata = Dict[str, MetadataValue]
Scopes = Dict[str, str]


class ErrorDetail(TypedDict):
    field: str
    message: str


class Pagination(TypedDict):
    page: int
    pageSize: int
    total: int
    totalPages: int


class CursorPagination(Pagination):
    nextCursor: Optional[str]


# A TypedDict can be generic from Python 3.11 on; before it, the runtime class is a plain dict subclass that
# still takes a subscript (`Page[Namespace]`), while type checkers read the TypedDict.
if TYPE_CHECKING or sys.version_info >= (3, 11):

    class Page(TypedDict, Generic[T]):
        """One page of a list paged by number (`GET /namespaces`, `GET /documents`, a memory's history)."""

        data: List[T]
        pagination: Pagination

    class CursorPage(TypedDict, Generic[T]):
        """One page of a list paged by cursor (`GET /memories`, `GET /entities`): `pagination.nextCursor`."""

        data: List[T]
        pagination: CursorPagination

else:

    class Page(Dict[str, Any], Generic[T]):
        """One page of a list paged by number (`GET /namespaces`, `GET /documents`, a memory's history)."""

    class CursorPage(Dict[str, Any], Generic[T]):
        """One page of a list paged by cursor (`GET /memories`, `GET /entities`): `pagination.nextCursor`."""


class Namespace(TypedDict):
    id: str
    org_id: str
    name: str
    description: Optional[str]
    external_reference_id: Optional[str]
    mcp_endpoint_url: str
    created_at: str
    updated_at: str


class Grant(TypedDict):
    id: str
    namespace_id: str
    api_key_id: Optional[str]
    user_id: Optional[str]
    created_at: str


class Deleted(TypedDict):
    id: str
    deleted: bool


class _MemoryOptional(TypedDict, total=False):
    deduplicated: bool
    """Only in the answer of `remember`: True when an identical memory was returned instead of stored."""


class Memory(_MemoryOptional):
    id: str
    namespace_id: str
    content: str
    metadata: Metadata
    scopes: Scopes
    identity_id: Optional[str]
    chunk_count: int
    session_id: Optional[str]
    position: Optional[int]
    role: Optional[str]
    occurred_at: str
    expires_at: Optional[str]
    version: int
    created_at: str
    updated_at: str


class ChangedBy(TypedDict, total=False):
    kind: str
    id: str
    name: str
    email: str
    provider: str


class MemoryVersion(TypedDict):
    version: int
    content: str
    metadata: Metadata
    scopes: Scopes
    identity_id: Optional[str]
    occurred_at: str
    expires_at: Optional[str]
    changed_fields: List[str]
    changed_by: Optional[ChangedBy]
    changed_at: str


class _MemoryInputRequired(TypedDict):
    content: str


class MemoryInput(_MemoryInputRequired, total=False):
    """One item of a `remember` batch."""

    metadata: Mapping[str, MetadataValue]
    scopes: Mapping[str, str]
    identity_id: str
    occurred_at: DateLike
    expires_at: DateLike
    ttl_seconds: int


class _MessageInputRequired(TypedDict):
    role: str
    content: str


class MessageInput(_MessageInputRequired, total=False):
    """One turn of a conversation given to `remember` with `session_id`."""

    occurred_at: DateLike
    metadata: Mapping[str, MetadataValue]


class ContextTurn(TypedDict):
    memory_id: str
    position: int
    role: Optional[str]
    content: str
    truncated: bool
    occurred_at: str


class EntityRef(TypedDict):
    id: str
    kind: str
    name: str


class DocumentRef(TypedDict):
    id: str
    title: Optional[str]
    source_url: Optional[str]
    page: Optional[int]
    section: Optional[str]


class Match(TypedDict, total=False):
    memory_id: str
    chunk_id: str
    content: str
    score: float
    metadata: Metadata
    scopes: Scopes
    identity_id: Optional[str]
    session_id: Optional[str]
    position: Optional[int]
    role: Optional[str]
    occurred_at: str
    created_at: str
    context: List[ContextTurn]
    match_reasons: List[str]
    entities: List[EntityRef]
    document: Optional[DocumentRef]


class Source(TypedDict, total=False):
    index: int
    memory_id: str
    chunk_id: str
    content: str
    score: float
    session_id: Optional[str]
    position: Optional[int]
    role: Optional[str]
    occurred_at: str
    context: List[ContextTurn]
    document: Optional[DocumentRef]


class AskResult(TypedDict):
    answer: str
    sources: List[Source]
    model: str


class NamespaceDeletion(TypedDict):
    namespace_id: str
    deleted: int


class ForgetResult(TypedDict):
    deleted: int
    memory_ids: List[str]
    namespaces: List[NamespaceDeletion]
    erasure_id: str


ExportRecord = Dict[str, Any]
"""One line of an export: the header (`type: "header"`), a document (`"document"`) or a memory (`"memory"`)."""


class _ImportResultOptional(TypedDict, total=False):
    document_ids: List[str]


class ImportResult(_ImportResultOptional):
    imported: int
    skipped_expired: int
    memory_ids: List[str]


class Document(TypedDict):
    id: str
    namespace_id: str
    status: Literal["queued", "processing", "ready", "failed"]
    title: Optional[str]
    content_type: Optional[str]
    source_url: Optional[str]
    filename: Optional[str]
    size_bytes: Optional[int]
    pages: Optional[int]
    chunk_count: int
    error: Optional[str]
    identity_id: Optional[str]
    scopes: Scopes
    metadata: Dict[str, Any]
    created_at: str
    updated_at: str
    processed_at: Optional[str]


class DocumentBlock(TypedDict):
    page: Optional[int]
    section: List[str]
    text: str


class DocumentText(TypedDict):
    id: str
    pages: Optional[int]
    blocks: List[DocumentBlock]


class DeletedDocument(TypedDict):
    id: str
    deleted: bool
    memories_deleted: int


class _EventOptional(TypedDict, total=False):
    content: Optional[str]
    """Only with `include_content=True`, only on a memory's events."""


class Event(_EventOptional):
    id: str
    type: str
    created_at: str
    namespace_id: Optional[str]
    identity_id: Optional[str]
    scopes: Scopes
    data: Dict[str, Any]


class EventFeed(TypedDict):
    events: List[Event]
    next_cursor: str
    has_more: bool


class Entity(TypedDict):
    id: str
    namespace_id: str
    kind: str
    name: str
    aliases: List[str]
    memory_count: int
    mention_count: int
    first_mentioned_at: Optional[str]
    last_mentioned_at: Optional[str]


class CoOccurrence(TypedDict):
    entity: EntityRef
    shared_memories: int


class EntityDetail(Entity):
    co_occurring: List[CoOccurrence]


class Health(TypedDict):
    status: str
    database: str
    embeddings: str
