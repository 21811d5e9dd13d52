"""Iterating across pages: 250 namespaces by page number, 1,000 memories by cursor."""

from __future__ import annotations

from helpers import Gateway, unique

from memory_gateway import MemoryGateway

FULL_ACCESS = ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE"]


def test_namespaces_iter_reads_250_across_pages(gateway: Gateway) -> None:
    # A key of its own: it sees only the namespaces it creates, and spends its own rate limit.
    key = gateway.create_key(unique("pages"), FULL_ACCESS)
    with gateway.client(api_key=key["secret"]) as client:
        created = [client.namespaces.create(f"page-{index:03d}-{unique('ns')}")["id"] for index in range(250)]
        last = client.namespaces.list(page=3, page_size=100)
        assert len(last["data"]) == 50
        assert last["pagination"] == {"page": 3, "pageSize": 100, "total": 250, "totalPages": 3}
        assert client.namespaces.list(page=4, page_size=100)["data"] == []

        iterated = [namespace["id"] for namespace in client.namespaces.iter(page_size=100)]
        assert iterated == created
        assert [namespace["id"] for namespace in client.namespaces.iter(page_size=7)] == created


def test_memories_iter_follows_the_cursor_over_1000(client: MemoryGateway, namespace: str) -> None:
    stored = []
    for batch in range(10):
        memories = client.remember(
            namespace_id=namespace,
            memories=[{"content": f"Fact {batch * 100 + item} of the cursor test."} for item in range(100)],
        )
        assert len(memories) == 100
        stored += [memory["id"] for memory in memories]
    assert len(set(stored)) == 1000

    pages = 0
    cursor = None
    while True:
        page = client.memories.list(namespace_id=namespace, page_size=100, cursor=cursor)
        pages += 1
        assert page["pagination"]["total"] == 1000
        cursor = page["pagination"]["nextCursor"]
        if cursor is None:
            break
    assert pages == 10

    iterated = [memory["id"] for memory in client.memories.iter(namespace_id=namespace)]
    assert len(iterated) == 1000
    assert set(iterated) == set(stored)
    # Newest first: the last batch stored comes first.
    assert set(iterated[:100]) == set(stored[900:])
