"""The asynchronous client, over httpx.AsyncClient: the same surface as MemoryGateway, awaited."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import (
    Any,
    AsyncGenerator,  # unasync: remove
    AsyncIterable,  # unasync: remove
    AsyncIterator,  # unasync: remove
    Callable,
    # unasync: sync-only Generator,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Type,
    Union,
    cast,
    overload,
)
from urllib.parse import quote

import httpx

from . import _base
from ._base import NDJSON, NOT_GIVEN, DateLike, NotGiven, RequestSpec, Retry, Timeout
from .errors import APIConnectionError, APITimeoutError, MemoryGatewayError, error_from_response
from .types import (
    AskResult,
    CursorPage,
    Deleted,
    DeletedDocument,
    Document,
    DocumentText,
    Entity,
    EntityDetail,
    Event,
    EventFeed,
    ExportRecord,
    ForgetResult,
    Grant,
    Health,
    ImportResult,
    Match,
    Memory,
    MemoryInput,
    MemoryVersion,
    MessageInput,
    MetadataValue,
    Namespace,
    Page,
)

__all__ = ["AsyncMemoryGateway"]

ImportLine = Union[Mapping[str, Any], bytes]


def _id(value: str) -> str:
    return quote(value, safe="")


# unasync: async-only-begin
def _next_item(iterator: Iterator[ImportLine]) -> List[ImportLine]:
    """The iterator's next item as a one-item list, or an empty list when it is exhausted."""
    for item in iterator:
        return [item]
    return []


async def _encoded(lines: Union[Iterable[ImportLine], AsyncIterable[ImportLine]]) -> AsyncIterator[bytes]:
    """NDJSON bytes for the async client, which streams a request body only from an async iterator.

    A list or tuple is in memory and read in place. Any other sync iterable (a file object, a generator that
    reads one) may block, so each of its items is taken in a worker thread, never on the event loop."""
    if isinstance(lines, AsyncIterable):
        async for item in lines:
            yield _base.ndjson_line(item)
    elif isinstance(lines, (list, tuple)):
        for item in lines:
            yield _base.ndjson_line(item)
    else:
        iterator = iter(lines)
        while True:
            taken = await asyncio.to_thread(_next_item, iterator)
            if not taken:
                return
            yield _base.ndjson_line(taken[0])


# unasync: async-only-end
class AsyncMemoryGateway:
    """A client of the Memory Gateway API (asynchronous: every call is awaited, iterators are `async for`).

    `api_key` defaults to the environment's MEMGW_API_KEY, `base_url` to MEMGW_BASE_URL, then
    http://localhost:3000 (the client adds `/api/v1`). `timeout` (seconds) and `max_retries` apply to every
    call unless the call passes its own. A given `http_client` is used as it is and left open by close().
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: Timeout = _base.DEFAULT_TIMEOUT,
        max_retries: int = _base.DEFAULT_MAX_RETRIES,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        self.api_key = _base.resolve_api_key(api_key)
        self.base_url = _base.resolve_base_url(base_url)
        self.timeout = timeout
        self.max_retries = max_retries
        self._owns_http_client = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient()
        self._headers = _base.default_headers(self.api_key)
        self.namespaces = Namespaces(self)
        self.memories = Memories(self)
        self.documents = Documents(self)
        self.events = Events(self)
        self.entities = Entities(self)

    async def close(self) -> None:
        if self._owns_http_client:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncMemoryGateway:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        await self.close()

    # The memory operations.

    @overload
    async def remember(
        self,
        *,
        content: str,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        occurred_at: Optional[DateLike] = None,
        expires_at: Optional[DateLike] = None,
        ttl_seconds: Optional[int] = None,
        allow_duplicate: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Memory: ...

    @overload
    async def remember(
        self,
        *,
        memories: Sequence[MemoryInput],
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        occurred_at: Optional[DateLike] = None,
        expires_at: Optional[DateLike] = None,
        ttl_seconds: Optional[int] = None,
        allow_duplicate: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> List[Memory]: ...

    @overload
    async def remember(
        self,
        *,
        messages: Sequence[MessageInput],
        session_id: str,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        occurred_at: Optional[DateLike] = None,
        expires_at: Optional[DateLike] = None,
        ttl_seconds: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> List[Memory]: ...

    async def remember(
        self,
        *,
        content: Optional[str] = None,
        memories: Optional[Sequence[MemoryInput]] = None,
        messages: Optional[Sequence[MessageInput]] = None,
        session_id: Optional[str] = None,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        occurred_at: Optional[DateLike] = None,
        expires_at: Optional[DateLike] = None,
        ttl_seconds: Optional[int] = None,
        allow_duplicate: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Union[Memory, List[Memory]]:
        """Store one memory (`content`), a batch (`memories`, 1 to 100) or conversation turns (`messages`
        with `session_id`). Sent with an Idempotency-Key (yours, or one made for the call), so a retry stores
        it once."""
        json = _base.body(
            namespace_id=namespace_id,
            external_reference_id=external_reference_id,
            content=content,
            memories=memories,
            messages=messages,
            session_id=session_id,
            metadata=metadata,
            scopes=scopes,
            identity_id=identity_id,
            occurred_at=occurred_at,
            expires_at=expires_at,
            ttl_seconds=ttl_seconds,
            allow_duplicate=allow_duplicate,
        )
        spec = RequestSpec(
            "POST",
            "/remember",
            json=json,
            idempotent=True,
            idempotency_key=idempotency_key,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Union[Memory, List[Memory]], _base.unwrap(await self._send(spec)))

    async def recall(
        self,
        query: str,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        top_k: Optional[int] = None,
        min_score: Optional[float] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        session_id: Optional[str] = None,
        occurred_after: Optional[DateLike] = None,
        occurred_before: Optional[DateLike] = None,
        entities: Optional[Sequence[str]] = None,
        context: Optional[int] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> List[Match]:
        """The memories that best match `query`, best first (a read: retried)."""
        json = _base.body(
            query=query,
            namespace_id=namespace_id,
            external_reference_id=external_reference_id,
            top_k=top_k,
            min_score=min_score,
            scopes=scopes,
            identity_id=identity_id,
            metadata=metadata,
            session_id=session_id,
            occurred_after=occurred_after,
            occurred_before=occurred_before,
            entities=entities,
            context=context,
        )
        spec = RequestSpec("POST", "/recall", json=json, timeout=timeout, max_retries=max_retries)
        return cast(List[Match], _base.unwrap(await self._send(spec)))

    async def ask(
        self,
        query: str,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        top_k: Optional[int] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        session_id: Optional[str] = None,
        occurred_after: Optional[DateLike] = None,
        occurred_before: Optional[DateLike] = None,
        entities: Optional[Sequence[str]] = None,
        context: Optional[int] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> AskResult:
        """An answer to `query` from the namespace's memories, citing them as [n] (a read: retried)."""
        json = _base.body(
            query=query,
            namespace_id=namespace_id,
            external_reference_id=external_reference_id,
            top_k=top_k,
            scopes=scopes,
            identity_id=identity_id,
            session_id=session_id,
            occurred_after=occurred_after,
            occurred_before=occurred_before,
            entities=entities,
            context=context,
        )
        spec = RequestSpec("POST", "/ask", json=json, timeout=timeout, max_retries=max_retries)
        return cast(AskResult, _base.unwrap(await self._send(spec)))

    async def forget(
        self,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        memory_ids: Optional[Sequence[str]] = None,
        identity_id: Optional[str] = None,
        scopes: Optional[Mapping[str, str]] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        all: Optional[bool] = None,
        all_namespaces: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> ForgetResult:
        """Delete, irreversibly, the memories matching every selector given (or `all=True`)."""
        json = _base.body(
            namespace_id=namespace_id,
            external_reference_id=external_reference_id,
            memory_ids=memory_ids,
            identity_id=identity_id,
            scopes=scopes,
            metadata=metadata,
            all=all,
            all_namespaces=all_namespaces,
        )
        spec = RequestSpec(
            "POST",
            "/forget",
            json=json,
            idempotent=True,
            idempotency_key=idempotency_key,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(ForgetResult, _base.unwrap(await self._send(spec)))

    async def health(
        self, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> Health:
        spec = RequestSpec("GET", "/health", timeout=timeout, max_retries=max_retries)
        return cast(Health, _base.unwrap(await self._send(spec)))

    # Sending.

    async def _send(
        self,
        spec: RequestSpec,
        *,
        stream: bool = False,
        content: Optional[Callable[[], AsyncIterable[bytes]]] = None,
        replayable: bool = True,
    ) -> httpx.Response:
        """The answer to `spec` (a 2xx), after the retries its rules allow; a typed error otherwise. With
        `stream`, the body is left unread for the caller, who must close the response."""
        max_retries = spec.max_retries if spec.max_retries is not None else self.max_retries
        if not replayable:
            max_retries = 0
        timeout = self.timeout if isinstance(spec.timeout, NotGiven) else spec.timeout
        headers = {**self._headers, **spec.call_headers()}
        retry_number = 0
        while True:
            request = self._http.build_request(
                spec.method,
                self.base_url + spec.path,
                params=tuple(spec.params) or None,
                json=spec.json,
                content=content() if content is not None else None,
                files=spec.files,
                data=spec.form,
                headers=headers,
                timeout=timeout,
            )
            error: MemoryGatewayError
            try:
                response = await self._http.send(request, stream=True)
                if not stream or not response.is_success:
                    try:
                        await response.aread()
                    finally:
                        await response.aclose()
            except httpx.TimeoutException as cause:
                error = APITimeoutError(f"No answer to {spec.method} {spec.path} within the timeout.")
                error.__cause__ = cause
            except httpx.TransportError as cause:
                error = APIConnectionError(f"No complete answer to {spec.method} {spec.path}: {cause}")
                error.__cause__ = cause
            else:
                if response.is_success:
                    return response
                error = error_from_response(response)
            delay = _base.retry_delay(error, retry_number, max_retries, spec.retry)
            if delay is None:
                raise error
            await asyncio.sleep(delay)
            retry_number += 1

    async def _stream_ndjson(self, spec: RequestSpec) -> AsyncGenerator[ExportRecord, None]:
        response = await self._send(spec, stream=True)
        try:
            # Bytes split at b"\n" only: aiter_lines() would also cut at U+2028, U+2029 and U+0085 in strings.
            reader = _base.NDJSONReader()
            async for chunk in response.aiter_bytes():
                for record in reader.feed(chunk):
                    yield record
            for record in reader.finish():
                yield record
        except httpx.TimeoutException as cause:
            raise APITimeoutError(f"The stream of {spec.path} stopped coming in time.") from cause
        except httpx.TransportError as cause:
            raise APIConnectionError(f"The stream of {spec.path} was cut short: {cause}") from cause
        finally:
            await response.aclose()


class _Resource:
    def __init__(self, client: AsyncMemoryGateway) -> None:
        self._client = client


class Grants(_Resource):
    """Which API keys and users may use a namespace."""

    async def list(
        self, namespace_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> List[Grant]:
        spec = RequestSpec(
            "GET", f"/namespaces/{_id(namespace_id)}/grants", timeout=timeout, max_retries=max_retries
        )
        return cast(List[Grant], _base.unwrap(await self._client._send(spec)))

    async def create(
        self,
        namespace_id: str,
        *,
        api_key_id: Optional[str] = None,
        user_id: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Grant:
        """Grant the namespace to one API key or one user (exactly one of the two)."""
        spec = RequestSpec(
            "POST",
            f"/namespaces/{_id(namespace_id)}/grants",
            json=_base.body(api_key_id=api_key_id, user_id=user_id),
            retry=Retry.RATE_LIMIT_ONLY,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Grant, _base.unwrap(await self._client._send(spec)))

    async def delete(
        self,
        namespace_id: str,
        grant_id: str,
        *,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Deleted:
        spec = RequestSpec(
            "DELETE",
            f"/namespaces/{_id(namespace_id)}/grants/{_id(grant_id)}",
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Deleted, _base.unwrap(await self._client._send(spec)))


class Namespaces(_Resource):
    def __init__(self, client: AsyncMemoryGateway) -> None:
        super().__init__(client)
        self.grants = Grants(client)

    async def list(
        self,
        *,
        page: Optional[int] = None,
        page_size: Optional[int] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Page[Namespace]:
        """One page of the namespaces granted to the key, oldest first."""
        spec = RequestSpec(
            "GET",
            "/namespaces",
            params=_base.query(page=page, page_size=page_size),
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast("Page[Namespace]", _base.unwrap_page(await self._client._send(spec)))

    async def iter(
        self,
        *,
        page_size: int = 100,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> AsyncIterator[Namespace]:
        """Every namespace granted to the key, oldest first, a page at a time."""
        page_number = 1
        while True:
            page = await self.list(page=page_number, page_size=page_size, timeout=timeout, max_retries=max_retries)
            for item in page["data"]:
                yield item
            if not page["data"] or page_number >= page["pagination"]["totalPages"]:
                return
            page_number += 1

    async def create(
        self,
        name: str,
        *,
        description: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Namespace:
        spec = RequestSpec(
            "POST",
            "/namespaces",
            json=_base.body(name=name, description=description, external_reference_id=external_reference_id),
            idempotent=True,
            idempotency_key=idempotency_key,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Namespace, _base.unwrap(await self._client._send(spec)))

    async def get(
        self, namespace_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> Namespace:
        spec = RequestSpec("GET", f"/namespaces/{_id(namespace_id)}", timeout=timeout, max_retries=max_retries)
        return cast(Namespace, _base.unwrap(await self._client._send(spec)))

    async def update(
        self,
        namespace_id: str,
        *,
        name: Union[str, NotGiven] = NOT_GIVEN,
        description: Union[str, None, NotGiven] = NOT_GIVEN,
        external_reference_id: Union[str, None, NotGiven] = NOT_GIVEN,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Namespace:
        """Change what is given; `None` clears `description` or `external_reference_id`."""
        spec = RequestSpec(
            "PATCH",
            f"/namespaces/{_id(namespace_id)}",
            json=_base.patch_body(name=name, description=description, external_reference_id=external_reference_id),
            retry=Retry.RATE_LIMIT_ONLY,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Namespace, _base.unwrap(await self._client._send(spec)))

    async def delete(
        self, namespace_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> Deleted:
        """Delete the namespace with its memories, documents and grants (irreversible)."""
        spec = RequestSpec("DELETE", f"/namespaces/{_id(namespace_id)}", timeout=timeout, max_retries=max_retries)
        return cast(Deleted, _base.unwrap(await self._client._send(spec)))

    def export(
        self,
        namespace_id: str,
        *,
        include_vectors: bool = False,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> AsyncGenerator[ExportRecord, None]:
        """The namespace's export, one dict per NDJSON line as the lines arrive: the header, documents, then
        memories. The request is sent when iteration starts; closing the iterator early ends the transfer."""
        spec = RequestSpec(
            "GET",
            f"/namespaces/{_id(namespace_id)}/export",
            params=_base.query(include_vectors=include_vectors),
            headers={"Accept": NDJSON},
            timeout=timeout,
            max_retries=max_retries,
        )
        return self._client._stream_ndjson(spec)

    async def import_(
        self,
        namespace_id: str,
        lines: Union[Iterable[ImportLine], AsyncIterable[ImportLine]],  # unasync: remove
        # unasync: sync-only lines: Iterable[ImportLine],
        *,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> ImportResult:
        """Import memories: an export's lines (dicts as `export` yields them), memories from elsewhere
        (`{"content": ...}`), or raw NDJSON bytes, from an iterable or an async iterable, streamed as they are
        read. All or nothing. Retried only after a 429, and only when `lines` is a list or tuple (it is read
        again)."""
        replay = _base.replayable_lines(lines)
        spec = RequestSpec(
            "POST",
            f"/namespaces/{_id(namespace_id)}/import",
            headers={"Content-Type": NDJSON},
            retry=Retry.RATE_LIMIT_ONLY,
            timeout=timeout,
            max_retries=max_retries,
        )
        # A list or tuple is encoded again for each attempt; any other iterable is read once, never retried.
        content = lambda: _encoded(lines)  # unasync: remove
        # unasync: sync-only content = replay or (lambda: (_base.ndjson_line(item) for item in lines))
        response = await self._client._send(spec, content=content, replayable=replay is not None)
        return cast(ImportResult, _base.unwrap(response))

    import_memories = import_


class Memories(_Resource):
    async def get(
        self, memory_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> Memory:
        spec = RequestSpec("GET", f"/memories/{_id(memory_id)}", timeout=timeout, max_retries=max_retries)
        return cast(Memory, _base.unwrap(await self._client._send(spec)))

    async def update(
        self,
        memory_id: str,
        *,
        content: Union[str, NotGiven] = NOT_GIVEN,
        metadata: Union[Mapping[str, MetadataValue], NotGiven] = NOT_GIVEN,
        scopes: Union[Mapping[str, str], NotGiven] = NOT_GIVEN,
        identity_id: Union[str, None, NotGiven] = NOT_GIVEN,
        occurred_at: Union[DateLike, NotGiven] = NOT_GIVEN,
        expires_at: Union[DateLike, None, NotGiven] = NOT_GIVEN,
        ttl_seconds: Union[int, NotGiven] = NOT_GIVEN,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Memory:
        """Change a memory in place (a new version); `None` clears `identity_id` or `expires_at`."""
        spec = RequestSpec(
            "PATCH",
            f"/memories/{_id(memory_id)}",
            json=_base.patch_body(
                content=content,
                metadata=metadata,
                scopes=scopes,
                identity_id=identity_id,
                occurred_at=occurred_at,
                expires_at=expires_at,
                ttl_seconds=ttl_seconds,
            ),
            idempotent=True,
            idempotency_key=idempotency_key,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Memory, _base.unwrap(await self._client._send(spec)))

    async def history(
        self,
        memory_id: str,
        *,
        page: Optional[int] = None,
        page_size: Optional[int] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Page[MemoryVersion]:
        """The memory's versions, newest first."""
        spec = RequestSpec(
            "GET",
            f"/memories/{_id(memory_id)}/history",
            params=_base.query(page=page, page_size=page_size),
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast("Page[MemoryVersion]", _base.unwrap_page(await self._client._send(spec)))

    async def list(
        self,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        cursor: Optional[str] = None,
        page_size: Optional[int] = None,
        identity_id: Optional[str] = None,
        session_id: Optional[str] = None,
        scopes: Optional[Mapping[str, str]] = None,
        metadata: Optional[Mapping[str, str]] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> CursorPage[Memory]:
        """One page of a namespace's memories, newest first; pass `pagination["nextCursor"]` as `cursor`."""
        params = _base.query(
            namespace_id=namespace_id,
            external_reference_id=external_reference_id,
            identity_id=identity_id,
            session_id=session_id,
            page_size=page_size,
            cursor=cursor,
        )
        params += _base.pairs("scope", scopes) + _base.pairs("metadata", metadata)
        spec = RequestSpec("GET", "/memories", params=params, timeout=timeout, max_retries=max_retries)
        return cast("CursorPage[Memory]", _base.unwrap_page(await self._client._send(spec)))

    async def iter(
        self,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        page_size: int = 100,
        identity_id: Optional[str] = None,
        session_id: Optional[str] = None,
        scopes: Optional[Mapping[str, str]] = None,
        metadata: Optional[Mapping[str, str]] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> AsyncIterator[Memory]:
        """Every memory the filters match, newest first, following the cursor from page to page."""
        cursor: Optional[str] = None
        while True:
            page = await self.list(
                namespace_id=namespace_id,
                external_reference_id=external_reference_id,
                cursor=cursor,
                page_size=page_size,
                identity_id=identity_id,
                session_id=session_id,
                scopes=scopes,
                metadata=metadata,
                timeout=timeout,
                max_retries=max_retries,
            )
            for item in page["data"]:
                yield item
            cursor = page["pagination"].get("nextCursor")
            if not cursor:
                return


class Documents(_Resource):
    async def create(
        self,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        file: Union[bytes, Any, None] = None,
        url: Optional[str] = None,
        content: Optional[str] = None,
        content_type: Optional[str] = None,
        content_encoding: Optional[str] = None,
        title: Optional[str] = None,
        filename: Optional[str] = None,
        metadata: Optional[Mapping[str, MetadataValue]] = None,
        scopes: Optional[Mapping[str, str]] = None,
        identity_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Document:
        """Add a document from exactly one of `file` (bytes, a binary file object or a path; uploaded as
        multipart, `content_type` its type), `url`, or `content` with `content_type`. Answers it `queued`."""
        target = {"namespace_id": namespace_id, "external_reference_id": external_reference_id}
        spec = RequestSpec(
            "POST",
            "/documents",
            idempotent=True,
            idempotency_key=idempotency_key,
            timeout=timeout,
            max_retries=max_retries,
        )
        if file is not None:
            # Reading a path or a file object blocks: done in a worker thread, off the event loop.  # unasync: remove
            part = await asyncio.to_thread(_base.file_part, file, filename, content_type)
            spec.files = {"file": part}
            spec.form = _base.form_fields(
                **target, title=title, filename=filename, metadata=metadata, scopes=scopes, identity_id=identity_id
            )
        else:
            spec.json = _base.body(
                **target,
                url=url,
                content=content,
                content_type=content_type,
                content_encoding=content_encoding,
                title=title,
                filename=filename,
                metadata=metadata,
                scopes=scopes,
                identity_id=identity_id,
            )
        return cast(Document, _base.unwrap(await self._client._send(spec)))

    async def list(
        self,
        *,
        namespace_id: str,
        status: Optional[str] = None,
        page: Optional[int] = None,
        page_size: Optional[int] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> Page[Document]:
        """One page of a namespace's documents, newest first."""
        spec = RequestSpec(
            "GET",
            "/documents",
            params=_base.query(namespace_id=namespace_id, status=status, page=page, page_size=page_size),
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast("Page[Document]", _base.unwrap_page(await self._client._send(spec)))

    async def iter(
        self,
        *,
        namespace_id: str,
        status: Optional[str] = None,
        page_size: int = 100,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> AsyncIterator[Document]:
        page_number = 1
        while True:
            page = await self.list(
                namespace_id=namespace_id,
                status=status,
                page=page_number,
                page_size=page_size,
                timeout=timeout,
                max_retries=max_retries,
            )
            for item in page["data"]:
                yield item
            if not page["data"] or page_number >= page["pagination"]["totalPages"]:
                return
            page_number += 1

    async def get(
        self, document_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> Document:
        spec = RequestSpec("GET", f"/documents/{_id(document_id)}", timeout=timeout, max_retries=max_retries)
        return cast(Document, _base.unwrap(await self._client._send(spec)))

    async def text(
        self, document_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> DocumentText:
        """What was read from the document, by page and heading."""
        spec = RequestSpec("GET", f"/documents/{_id(document_id)}/text", timeout=timeout, max_retries=max_retries)
        return cast(DocumentText, _base.unwrap(await self._client._send(spec)))

    async def content(
        self, document_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> bytes:
        """The document's original bytes."""
        spec = RequestSpec(
            "GET",
            f"/documents/{_id(document_id)}/content",
            headers={"Accept": "*/*"},
            timeout=timeout,
            max_retries=max_retries,
        )
        return (await self._client._send(spec)).content

    async def refresh(
        self, document_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> Document:
        """Fetch a URL's document again and replace its passages."""
        spec = RequestSpec(
            "POST",
            f"/documents/{_id(document_id)}/refresh",
            retry=Retry.RATE_LIMIT_ONLY,
            timeout=timeout,
            max_retries=max_retries,
        )
        return cast(Document, _base.unwrap(await self._client._send(spec)))

    async def delete(
        self, document_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> DeletedDocument:
        """Delete the document, its original and its passages' memories."""
        spec = RequestSpec("DELETE", f"/documents/{_id(document_id)}", timeout=timeout, max_retries=max_retries)
        return cast(DeletedDocument, _base.unwrap(await self._client._send(spec)))


class Events(_Resource):
    async def list(
        self,
        *,
        namespace_id: Optional[str] = None,
        type: Union[str, Sequence[str], None] = None,
        after: Optional[str] = None,
        limit: Optional[int] = None,
        include_content: Optional[bool] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> EventFeed:
        """The events after the cursor `after` (from the oldest kept without it), oldest first."""
        params = _base.query(
            namespace_id=namespace_id,
            type=_base.comma_list(type),
            after=after,
            limit=limit,
            include_content=include_content,
        )
        spec = RequestSpec("GET", "/events", params=params, timeout=timeout, max_retries=max_retries)
        return cast(EventFeed, _base.unwrap(await self._client._send(spec)))

    async def iter(
        self,
        *,
        namespace_id: Optional[str] = None,
        type: Union[str, Sequence[str], None] = None,
        after: Optional[str] = None,
        limit: Optional[int] = None,
        include_content: Optional[bool] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> AsyncIterator[Event]:
        """Every event after `after` that is there now, following `next_cursor` while `has_more`. To poll
        on later, keep the `next_cursor` of `list`."""
        while True:
            feed = await self.list(
                namespace_id=namespace_id,
                type=type,
                after=after,
                limit=limit,
                include_content=include_content,
                timeout=timeout,
                max_retries=max_retries,
            )
            for event in feed["events"]:
                yield event
            after = feed["next_cursor"]
            if not feed["has_more"]:
                return


class Entities(_Resource):
    async def list(
        self,
        *,
        namespace_id: Optional[str] = None,
        external_reference_id: Optional[str] = None,
        kind: Optional[str] = None,
        q: Optional[str] = None,
        cursor: Optional[str] = None,
        page_size: Optional[int] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        max_retries: Optional[int] = None,
    ) -> CursorPage[Entity]:
        """One page of a namespace's entities, the most mentioned first."""
        params = _base.query(
            namespace_id=namespace_id,
            external_reference_id=external_reference_id,
            kind=kind,
            q=q,
            cursor=cursor,
            page_size=page_size,
        )
        spec = RequestSpec("GET", "/entities", params=params, timeout=timeout, max_retries=max_retries)
        return cast("CursorPage[Entity]", _base.unwrap_page(await self._client._send(spec)))

    async def get(
        self, entity_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN, max_retries: Optional[int] = None
    ) -> EntityDetail:
        """The entity and those mentioned in the same memories."""
        spec = RequestSpec("GET", f"/entities/{_id(entity_id)}", timeout=timeout, max_retries=max_retries)
        return cast(EntityDetail, _base.unwrap(await self._client._send(spec)))
