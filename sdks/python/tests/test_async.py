"""The async client on the main paths: the same surface, awaited, against the real server and the proxy."""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Iterator, List, Optional, TypeVar

import pytest
from fault_proxy import FORWARD_THEN_503, REJECT_429, REJECT_500, REJECT_503, STALL, FaultProxy
from helpers import Gateway, unique

from memory_gateway import (
    APITimeoutError,
    AsyncMemoryGateway,
    AuthenticationError,
    BadRequestError,
    InternalServerError,
    NotFoundError,
)

T = TypeVar("T")


def run(gateway: Gateway, test: Callable[[AsyncMemoryGateway], Awaitable[T]], **options: Any) -> T:
    async def main() -> T:
        options.setdefault("base_url", gateway.base_url)
        async with AsyncMemoryGateway(api_key=options.pop("api_key", gateway.api_key), **options) as client:
            return await test(client)

    return asyncio.run(main())


def test_namespaces_and_grants(gateway: Gateway) -> None:
    reader = gateway.create_key(unique("async-reader"), ["NAMESPACE_READ"])

    async def test(client: AsyncMemoryGateway) -> None:
        name = unique("async")
        created = await client.namespaces.create(name, description="async")
        assert (await client.namespaces.get(created["id"]))["name"] == name
        listed = await client.namespaces.list(page_size=100)
        assert listed["pagination"]["pageSize"] == 100
        assert created["id"] in [namespace["id"] async for namespace in client.namespaces.iter(page_size=2)]
        assert (await client.namespaces.update(created["id"], description=None))["description"] is None
        grant = await client.namespaces.grants.create(created["id"], api_key_id=reader["id"])
        assert grant["id"] in [listed["id"] for listed in await client.namespaces.grants.list(created["id"])]
        assert (await client.namespaces.grants.delete(created["id"], grant["id"]))["deleted"] is True
        assert (await client.namespaces.delete(created["id"]))["deleted"] is True
        with pytest.raises(NotFoundError):
            await client.namespaces.get(created["id"])

    run(gateway, test)


def test_memory_operations(gateway: Gateway, namespace: str) -> None:
    async def test(client: AsyncMemoryGateway) -> None:
        one = await client.remember(namespace_id=namespace, content="Max is a golden retriever.", identity_id="u")
        batch = await client.remember(
            namespace_id=namespace, memories=[{"content": "Ada works in Lyon."}, {"content": "Ada likes tea."}]
        )
        turns = await client.remember(
            namespace_id=namespace,
            session_id="s-1",
            messages=[{"role": "user", "content": "Hi there."}, {"role": "assistant", "content": "Hello!"}],
        )
        assert [turn["position"] for turn in turns] == [0, 1]
        assert (await client.recall("Which dog?", namespace_id=namespace, top_k=1))[0]["memory_id"] == one["id"]
        answer = await client.ask("What breed is Max?", namespace_id=namespace)
        assert "golden retriever" in answer["answer"]

        assert (await client.memories.get(one["id"]))["identity_id"] == "u"
        updated = await client.memories.update(one["id"], metadata={"checked": True})
        assert updated["version"] == 2
        history = await client.memories.history(one["id"])
        assert [version["version"] for version in history["data"]] == [2, 1]
        page = await client.memories.list(namespace_id=namespace, page_size=2)
        assert page["pagination"]["nextCursor"] is not None
        ids = [memory["id"] async for memory in client.memories.iter(namespace_id=namespace, page_size=2)]
        assert sorted(ids) == sorted([one["id"]] + [memory["id"] for memory in batch + turns])

        feed = await client.events.list(namespace_id=namespace, type="memory.created")
        assert {event["data"]["memory_id"] for event in feed["events"]} == set(ids)
        assert len([event async for event in client.events.iter(namespace_id=namespace, limit=1)]) >= 6

        forgotten = await client.forget(namespace_id=namespace, memory_ids=[batch[0]["id"]])
        assert forgotten["deleted"] == 1

    run(gateway, test)


def test_documents(gateway: Gateway, namespace: str) -> None:
    async def test(client: AsyncMemoryGateway) -> None:
        document = await client.documents.create(
            namespace_id=namespace, file=b"# Notes\n\nThe wifi password is on the fridge.\n", filename="notes.md"
        )
        deadline = time.monotonic() + 120
        while (await client.documents.get(document["id"]))["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.3)
        assert (await client.documents.get(document["id"]))["status"] == "ready"
        assert any("fridge" in block["text"] for block in (await client.documents.text(document["id"]))["blocks"])
        assert (await client.documents.content(document["id"])).startswith(b"# Notes")
        assert [listed["id"] async for listed in client.documents.iter(namespace_id=namespace)] == [document["id"]]
        assert (await client.documents.list(namespace_id=namespace))["pagination"]["total"] == 1
        with pytest.raises(BadRequestError):
            await client.documents.refresh(document["id"])  # an upload has no URL to fetch again
        assert (await client.documents.delete(document["id"]))["deleted"] is True

        await client.remember(namespace_id=namespace, content="Caroline met Melanie in Boston.")
        entities = await client.entities.list(namespace_id=namespace, q="caroline")
        assert (await client.entities.get(entities["data"][0]["id"]))["name"] == "Caroline"

    run(gateway, test)


async def lines_of(records: AsyncIterator[Dict[str, Any]]) -> AsyncIterator[Dict[str, Any]]:
    async for record in records:
        yield record


def test_export_import_round_trip(gateway: Gateway, namespace: str) -> None:
    async def test(client: AsyncMemoryGateway) -> None:
        await client.remember(
            namespace_id=namespace, memories=[{"content": f"Async export line {index}."} for index in range(20)]
        )
        target = await client.namespaces.create(unique("async-import"))
        try:
            result = await client.namespaces.import_(target["id"], lines_of(client.namespaces.export(namespace)))
            assert result["imported"] == 20
            exported = [record async for record in client.namespaces.export(target["id"])]
            contents = sorted(record["content"] for record in exported if record["type"] == "memory")
            assert contents == sorted(f"Async export line {index}." for index in range(20))
            listed = await client.namespaces.import_memories(target["id"], [{"content": "One more."}])
            assert listed["imported"] == 1
        finally:
            await client.namespaces.delete(target["id"])

    run(gateway, test)


def test_errors(gateway: Gateway, namespace: str) -> None:
    async def unauthorized(client: AsyncMemoryGateway) -> None:
        with pytest.raises(AuthenticationError) as raised:
            await client.namespaces.list()
        assert raised.value.status == 401 and raised.value.request_id

    run(gateway, unauthorized, api_key="mgw_" + "y" * 40)

    async def bad_request(client: AsyncMemoryGateway) -> None:
        with pytest.raises(BadRequestError) as raised:
            await client.recall("", namespace_id=namespace)
        assert [detail["field"] for detail in raised.value.details] == ["body.query"]

    run(gateway, bad_request)


def test_retries_through_the_proxy(gateway: Gateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("GET", f"/namespaces/{namespace}", REJECT_503, REJECT_429)
    proxy.plan("POST", "/remember", FORWARD_THEN_503)
    proxy.plan("POST", "/recall", REJECT_500)

    async def test(client: AsyncMemoryGateway) -> None:
        started = time.monotonic()
        assert (await client.namespaces.get(namespace))["id"] == namespace
        assert time.monotonic() - started >= 1.0
        assert len(proxy.requests_to("GET", f"/namespaces/{namespace}")) == 3

        stored = await client.remember(namespace_id=namespace, content="Said once, heard once.")
        keys = {seen.idempotency_key for seen in proxy.requests_to("POST", "/remember")}
        assert len(keys) == 1 and None not in keys
        listed = await client.memories.list(namespace_id=namespace)
        assert [memory["id"] for memory in listed["data"]] == [stored["id"]]

        with pytest.raises(InternalServerError):
            await client.recall("anything", namespace_id=namespace)
        assert len(proxy.requests_to("POST", "/recall")) == 1

    run(gateway, test, base_url=proxy.base_url)


def test_timeout(gateway: Gateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("GET", f"/namespaces/{namespace}", STALL)

    async def test(client: AsyncMemoryGateway) -> None:
        with pytest.raises(APITimeoutError):
            await client.namespaces.get(namespace, timeout=0.5, max_retries=0)

    run(gateway, test, base_url=proxy.base_url)


class ThreadRecordingFile(io.BytesIO):
    """A binary file object that notes the thread each read() runs in."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name
        self.threads: List[int] = []

    def read(self, size: Optional[int] = -1) -> bytes:
        self.threads.append(threading.get_ident())
        return super().read(size)

    def __iter__(self) -> ThreadRecordingFile:
        return self

    def __next__(self) -> bytes:
        self.threads.append(threading.get_ident())
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def test_blocking_reads_run_off_the_event_loop(gateway: Gateway, namespace: str, tmp_path: Path) -> None:
    """A file (object or path) to upload and a sync iterable to import are read in worker threads."""

    async def test(client: AsyncMemoryGateway) -> None:
        loop_thread = threading.get_ident()
        upload = ThreadRecordingFile(b"# Notes\n\nThe spare key is under the mat.\n", "notes.md")
        document = await client.documents.create(namespace_id=namespace, file=upload)
        assert document["filename"] == "notes.md" and upload.threads and loop_thread not in upload.threads
        path = tmp_path / "path.md"
        path.write_bytes(b"# From a path\n")
        from_path = await client.documents.create(namespace_id=namespace, file=path)
        assert from_path["filename"] == "path.md"

        source = ThreadRecordingFile(
            "".join(json.dumps({"content": f"Line {index} of a file.\u2028"}) + "\n" for index in range(3)).encode(),
            "memories.ndjson",
        )
        assert (await client.namespaces.import_(namespace, source))["imported"] == 3
        assert len(source.threads) == 4 and loop_thread not in source.threads  # 3 lines, then the end

        pulled: List[int] = []

        def generated() -> Iterator[Dict[str, Any]]:
            for index in range(2):
                pulled.append(threading.get_ident())
                yield {"content": f"Generated {index}."}

        assert (await client.namespaces.import_(namespace, generated()))["imported"] == 2
        assert len(pulled) == 2 and loop_thread not in pulled

    run(gateway, test)


def test_export_keeps_line_separators_and_dates_are_checked(gateway: Gateway, namespace: str) -> None:
    content = "One\u2028two\u2029three\u0085four."

    async def test(client: AsyncMemoryGateway) -> None:
        when = datetime(2024, 3, 1, 9, 30, tzinfo=timezone.utc)
        await client.remember(namespace_id=namespace, memories=[{"content": content, "occurred_at": when}])
        exported = [record async for record in client.namespaces.export(namespace)]
        memories = [record for record in exported if record["type"] == "memory"]
        assert [memory["content"] for memory in memories] == [content]
        assert memories[0]["occurred_at"].startswith("2024-03-01T09:30:00")
        with pytest.raises(ValueError, match="a datetime needs a timezone"):
            await client.remember(namespace_id=namespace, content="Naive.", occurred_at=datetime(2024, 3, 1))

    run(gateway, test)
