"""A namespace exported as a stream and imported into another, streamed too: the same memories come back."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, Iterator, List, Tuple

import pytest
from helpers import unique

from memory_gateway import BadRequestError, MemoryGateway

KEPT_FIELDS = ("content", "metadata", "scopes", "identity_id", "session_id", "position", "role", "occurred_at")


def memory_lines(records: List[Dict[str, Any]]) -> List[Tuple[Any, ...]]:
    """What an import keeps of each exported memory, in a comparable order (the ids are new)."""
    memories = [record for record in records if record["type"] == "memory"]
    return sorted(
        tuple(json.dumps(memory[field], sort_keys=True) for field in KEPT_FIELDS)
        + (memory["version"], len(memory["history"]))
        for memory in memories
    )


@pytest.fixture
def second_namespace(client: MemoryGateway) -> Iterator[str]:
    created = client.namespaces.create(unique("imported"))
    yield created["id"]
    client.namespaces.delete(created["id"])


def fill(client: MemoryGateway, namespace: str) -> None:
    client.remember(
        namespace_id=namespace,
        identity_id="user-42",
        memories=[
            {"content": "Ada prefers jasmine tea.", "metadata": {"source": "crm"}},
            {"content": "Ada moved to Lisbon.", "occurred_at": "2024-03-01T09:30:00Z", "scopes": {"team": "sales"}},
        ],
    )
    client.remember(
        namespace_id=namespace,
        session_id="chat-7",
        messages=[
            {"role": "user", "content": "Can we move the call to Friday?"},
            {"role": "assistant", "content": "Friday at 10 works."},
            {"role": "user", "content": "Great, thanks."},
        ],
    )
    tea = client.memories.list(namespace_id=namespace, identity_id="user-42", metadata={"source": "crm"})
    client.memories.update(tea["data"][0]["id"], content="Ada prefers green tea now.")


def test_export_streams_then_imports_into_a_new_namespace(
    client: MemoryGateway, namespace: str, second_namespace: str
) -> None:
    fill(client, namespace)
    exported = list(client.namespaces.export(namespace))
    header = exported[0]
    assert header["type"] == "header" and header["format"] == "memory-gateway-export"
    assert header["namespace"]["id"] == namespace and header["vectors"] is False
    assert len([record for record in exported if record["type"] == "memory"]) == 5

    # The export read as it arrives, each line handed to the import as it is read: neither is held whole.
    result = client.namespaces.import_(second_namespace, client.namespaces.export(namespace))
    assert result["imported"] == 5 and result["skipped_expired"] == 0 and len(result["memory_ids"]) == 5

    reimported = list(client.namespaces.export(second_namespace))
    assert reimported[0]["namespace"]["id"] == second_namespace
    assert memory_lines(reimported) == memory_lines(exported)
    assert {line["id"] for line in reimported[1:]}.isdisjoint(line["id"] for line in exported[1:])
    assert client.recall("Which tea?", namespace_id=second_namespace)[0]["content"] == "Ada prefers green tea now."


def test_export_with_vectors_and_closing_early(client: MemoryGateway, namespace: str) -> None:
    fill(client, namespace)
    with_vectors = [record for record in client.namespaces.export(namespace, include_vectors=True)]
    chunk = with_vectors[1]["chunks"][0]
    assert len(chunk["vector"]) == 512

    stream = client.namespaces.export(namespace)
    assert next(stream)["type"] == "header"
    stream.close()
    assert client.namespaces.get(namespace)["id"] == namespace


def test_import_of_raw_lines_and_of_memories_from_elsewhere(client: MemoryGateway, namespace: str) -> None:
    raw = [b'{"content": "Imported from a file."}\n', b'{"content": "And its second line.", "identity_id": "u-1"}\n']
    assert client.namespaces.import_memories(namespace, raw)["imported"] == 2
    dicts = ({"content": f"Generated line {index}."} for index in range(3))
    assert client.namespaces.import_(namespace, dicts)["imported"] == 3
    assert client.memories.list(namespace_id=namespace)["pagination"]["total"] == 5

    with pytest.raises(BadRequestError) as raised:
        client.namespaces.import_(namespace, [{"content": "fine"}, {"memory": "a field of another tool"}])
    assert raised.value.details[0]["field"].startswith("line.2")
    assert client.memories.list(namespace_id=namespace)["pagination"]["total"] == 5


def test_line_separators_inside_content_survive_export_and_import(
    client: MemoryGateway, namespace: str, second_namespace: str
) -> None:
    """The server writes U+2028, U+2029 and U+0085 unescaped in its JSON lines: only "\\n" ends a line."""
    content = "First\u2028second\u2029third\u0085fourth, and \u2028\u2029\u0085 together."
    client.remember(namespace_id=namespace, content=content)
    exported = list(client.namespaces.export(namespace))
    assert [record["content"] for record in exported if record["type"] == "memory"] == [content]

    assert client.namespaces.import_(second_namespace, client.namespaces.export(namespace))["imported"] == 1
    reimported = list(client.namespaces.export(second_namespace))
    assert [record["content"] for record in reimported if record["type"] == "memory"] == [content]
    assert client.memories.list(namespace_id=second_namespace)["data"][0]["content"] == content


def test_datetimes_in_items_are_sent_and_naive_ones_refused(client: MemoryGateway, namespace: str) -> None:
    when = datetime(2024, 3, 1, 9, 30, tzinfo=timezone.utc)
    expires = datetime.now(timezone.utc) + timedelta(days=30)
    stored = client.remember(
        namespace_id=namespace,
        memories=[{"content": "Dated by a datetime.", "occurred_at": when, "expires_at": expires}],
    )
    assert stored[0]["occurred_at"].startswith("2024-03-01T09:30:00")
    assert stored[0]["expires_at"] is not None and stored[0]["expires_at"].startswith(expires.strftime("%Y-%m-%dT"))
    turns = client.remember(
        namespace_id=namespace,
        session_id="chat-dates",
        messages=[{"role": "user", "content": "Dated turn.", "occurred_at": when}],
    )
    assert turns[0]["occurred_at"].startswith("2024-03-01T09:30:00")

    with pytest.raises(ValueError, match="a datetime needs a timezone: use datetime.now"):
        client.remember(namespace_id=namespace, content="Naive.", occurred_at=datetime(2024, 3, 1, 9, 30))
    with pytest.raises(ValueError, match="memories.0.occurred_at: a datetime needs a timezone"):
        client.remember(namespace_id=namespace, memories=[{"content": "Naive.", "occurred_at": datetime.now()}])
    with pytest.raises(ValueError, match="needs a timezone"):
        client.recall("anything", namespace_id=namespace, occurred_after=datetime.now())
    assert client.memories.list(namespace_id=namespace)["pagination"]["total"] == 2
