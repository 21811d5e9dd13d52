"""Every method of the sync client once, against the real server."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest
from helpers import Gateway, unique, wait_for

from memory_gateway import MemoryGateway, NotFoundError
from memory_gateway.types import Document

HANDBOOK = "# Handbook\n\n## Leave\n\nEvery employee gets twenty weeks of parental leave.\n"


def test_health(client: MemoryGateway) -> None:
    assert client.health()["status"] == "ok"


def test_the_environment_configures_the_client(gateway: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGW_API_KEY", gateway.api_key)
    monkeypatch.setenv("MEMGW_BASE_URL", gateway.base_url + "/")
    with MemoryGateway() as client:
        assert client.base_url == gateway.base_url + "/api/v1"
        assert client.namespaces.list(page_size=1)["pagination"]["page"] == 1


def test_namespaces(client: MemoryGateway) -> None:
    name = unique("crud")
    created = client.namespaces.create(name, description="Made by the SDK", external_reference_id=unique("ref"))
    assert created["name"] == name
    assert created["mcp_endpoint_url"].endswith(f"/api/v1/mcp/{created['id']}")
    assert client.namespaces.get(created["id"]) == created

    listed = client.namespaces.list(page=1, page_size=100)
    assert listed["pagination"]["page"] == 1 and listed["pagination"]["pageSize"] == 100
    assert created["id"] in [namespace["id"] for namespace in client.namespaces.iter(page_size=100)]

    updated = client.namespaces.update(created["id"], name=name + "-renamed", description=None)
    assert updated["name"] == name + "-renamed"
    assert updated["description"] is None
    assert updated["external_reference_id"] == created["external_reference_id"]

    assert client.namespaces.delete(created["id"]) == {"id": created["id"], "deleted": True}
    with pytest.raises(NotFoundError):
        client.namespaces.get(created["id"])


def test_grants(gateway: Gateway, client: MemoryGateway, namespace: str) -> None:
    reader = gateway.create_key(unique("grantee"), ["NAMESPACE_READ"])
    grant = client.namespaces.grants.create(namespace, api_key_id=reader["id"])
    assert grant["namespace_id"] == namespace and grant["api_key_id"] == reader["id"]
    assert grant["id"] in [listed["id"] for listed in client.namespaces.grants.list(namespace)]
    with gateway.client(api_key=reader["secret"]) as as_reader:
        assert as_reader.namespaces.get(namespace)["id"] == namespace
    assert client.namespaces.grants.delete(namespace, grant["id"]) == {"id": grant["id"], "deleted": True}
    assert grant["id"] not in [listed["id"] for listed in client.namespaces.grants.list(namespace)]


def test_remember_recall_ask_forget(client: MemoryGateway, namespace: str) -> None:
    one = client.remember(
        namespace_id=namespace,
        content="Ada adopted a golden retriever named Max last spring.",
        metadata={"source": "chat", "turn": 3},
        identity_id="user-ada",
        occurred_at="2024-03-01T09:30:00Z",
    )
    assert one["deduplicated"] is False and one["metadata"] == {"source": "chat", "turn": 3}
    again = client.remember(namespace_id=namespace, content=one["content"], identity_id="user-ada")
    assert again["id"] == one["id"] and again["deduplicated"] is True

    batch = client.remember(
        namespace_id=namespace,
        identity_id="user-ada",
        memories=[{"content": "Ada works at a bakery in Lyon."}, {"content": "Ada prefers email over calls."}],
    )
    assert [memory["identity_id"] for memory in batch] == ["user-ada", "user-ada"]

    turns = client.remember(
        namespace_id=namespace,
        session_id="chat-1",
        identity_id="user-ada",
        messages=[
            {"role": "user", "content": "My sister Grace lives in Porto."},
            {"role": "assistant", "content": "Noted: Grace lives in Porto."},
        ],
    )
    assert [(turn["session_id"], turn["position"], turn["role"]) for turn in turns] == [
        ("chat-1", 0, "user"),
        ("chat-1", 1, "assistant"),
    ]

    matches = client.recall("Ada's golden retriever", namespace_id=namespace, top_k=3, identity_id="user-ada")
    assert matches[0]["memory_id"] == one["id"]
    assert 0 <= matches[0]["score"] <= 1

    answer = client.ask("What is the name of the dog?", namespace_id=namespace)
    assert "Max" in answer["answer"]
    assert answer["model"] == "extractive"
    assert answer["sources"][0]["memory_id"] == one["id"]

    forgotten = client.forget(namespace_id=namespace, memory_ids=[batch[0]["id"]])
    assert forgotten["deleted"] == 1 and forgotten["memory_ids"] == [batch[0]["id"]]
    assert forgotten["erasure_id"].startswith("era_")
    with pytest.raises(NotFoundError):
        client.memories.get(batch[0]["id"])
    assert client.forget(namespace_id=namespace, all=True)["deleted"] == 4


def test_memories(client: MemoryGateway, namespace: str) -> None:
    stored = client.remember(namespace_id=namespace, content="The standup is at 9:00.", scopes={"team": "core"})
    assert client.memories.get(stored["id"])["content"] == "The standup is at 9:00."

    updated = client.memories.update(stored["id"], content="The standup moved to 9:30.", identity_id="user-1")
    assert updated["version"] == 2 and updated["identity_id"] == "user-1"
    cleared = client.memories.update(stored["id"], identity_id=None)
    assert cleared["identity_id"] is None and cleared["version"] == 3

    history = client.memories.history(stored["id"], page_size=2)
    assert [version["version"] for version in history["data"]] == [3, 2]
    assert history["pagination"]["total"] == 3
    assert sorted(history["data"][1]["changed_fields"]) == ["content", "identity_id"]

    client.remember(namespace_id=namespace, content="Lunch is at noon.", identity_id="user-2")
    first = client.memories.list(namespace_id=namespace, page_size=1)
    assert first["data"][0]["content"] == "Lunch is at noon."
    cursor = first["pagination"]["nextCursor"]
    assert cursor is not None
    second = client.memories.list(namespace_id=namespace, page_size=1, cursor=cursor)
    assert second["data"][0]["id"] == stored["id"]
    assert second["pagination"]["nextCursor"] is None

    scoped = client.memories.list(namespace_id=namespace, scopes={"team": "core"})
    assert [memory["id"] for memory in scoped["data"]] == [stored["id"]]
    by_identity = list(client.memories.iter(namespace_id=namespace, identity_id="user-2", page_size=1))
    assert [memory["content"] for memory in by_identity] == ["Lunch is at noon."]


@pytest.fixture
def web_page() -> Iterator[str]:
    """A page on 127.0.0.1 that a URL document is fetched from (the server allows private addresses here)."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<html><head><title>Office</title></head><body><article><h1>Office</h1>"
            body += b"<p>The office opens at eight in the morning on weekdays.</p></article></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/office.html"
    server.shutdown()
    server.server_close()


def wait_until_processed(client: MemoryGateway, document_id: str) -> Document:
    def processed() -> Document | None:
        document = client.documents.get(document_id)
        return document if document["status"] in ("ready", "failed") else None

    document: Document = wait_for(processed)
    assert document["status"] == "ready", document["error"]
    return document


def test_documents(client: MemoryGateway, namespace: str, web_page: str) -> None:
    inline = client.documents.create(
        namespace_id=namespace, content=HANDBOOK, content_type="text/markdown", title="Handbook"
    )
    assert inline["status"] == "queued" and inline["title"] == "Handbook"
    uploaded = client.documents.create(
        namespace_id=namespace,
        file=b"Parking spots are assigned by lottery.\n",
        filename="parking.txt",
        metadata={"kind": "policy"},
    )
    assert uploaded["filename"] == "parking.txt" and uploaded["metadata"] == {"kind": "policy"}
    fetched = client.documents.create(namespace_id=namespace, url=web_page)

    assert wait_until_processed(client, inline["id"])["chunk_count"] >= 1
    wait_until_processed(client, uploaded["id"])
    wait_until_processed(client, fetched["id"])

    text = client.documents.text(inline["id"])
    assert any("twenty weeks" in block["text"] for block in text["blocks"])
    assert client.documents.content(uploaded["id"]) == b"Parking spots are assigned by lottery.\n"
    listed = client.documents.list(namespace_id=namespace, page_size=2)
    assert listed["pagination"]["total"] == 3 and len(listed["data"]) == 2
    assert {document["id"] for document in client.documents.iter(namespace_id=namespace, page_size=2)} == {
        inline["id"],
        uploaded["id"],
        fetched["id"],
    }

    refreshed = client.documents.refresh(fetched["id"])
    assert refreshed["id"] == fetched["id"] and refreshed["status"] in ("queued", "processing")
    wait_until_processed(client, fetched["id"])
    assert "eight in the morning" in client.recall("office opening hours", namespace_id=namespace)[0]["content"]

    deleted = client.documents.delete(inline["id"])
    assert deleted["deleted"] is True and deleted["memories_deleted"] >= 1
    with pytest.raises(NotFoundError):
        client.documents.get(inline["id"])


def test_events(client: MemoryGateway, namespace: str) -> None:
    start = client.events.list(namespace_id=namespace, type="namespace.created")
    assert [event["type"] for event in start["events"]] == ["namespace.created"]
    cursor = start["next_cursor"]

    stored = client.remember(
        namespace_id=namespace, memories=[{"content": f"Event feed fact {index}."} for index in range(5)]
    )
    client.forget(namespace_id=namespace, memory_ids=[stored[0]["id"]])

    feed = client.events.list(namespace_id=namespace, after=cursor, limit=2)
    assert len(feed["events"]) == 2 and feed["has_more"] is True

    events = list(client.events.iter(namespace_id=namespace, after=cursor, limit=2, include_content=True))
    contents = {event["data"]["memory_id"]: event["content"] for event in events if event["type"] == "memory.created"}
    # Events carry a memory's content as it is now: the forgotten one's went with it.
    assert contents == {memory["id"]: None if memory is stored[0] else memory["content"] for memory in stored}
    assert "erasure.completed" in [event["type"] for event in events]
    only_deleted = list(client.events.iter(namespace_id=namespace, after=cursor, type=["memory.deleted"]))
    assert [event["data"]["memory_id"] for event in only_deleted] == [stored[0]["id"]]

def test_entities(client: MemoryGateway, namespace: str) -> None:
    client.remember(
        namespace_id=namespace,
        memories=[
            {"content": "Caroline went to a support group in Boston with Melanie."},
            {"content": "Caroline is researching adoption agencies."},
        ],
    )
    page = client.entities.list(namespace_id=namespace, q="carol", page_size=10)
    caroline = next(entity for entity in page["data"] if entity["name"] == "Caroline")
    assert caroline["memory_count"] == 2
    detail = client.entities.get(caroline["id"])
    assert detail["id"] == caroline["id"]
    assert "Melanie" in [shared["entity"]["name"] for shared in detail["co_occurring"]]
