"""Retries through the fault-injecting proxy: what is sent again, after what, how long the client waits, and
that a write the client did not hear about is done once."""

from __future__ import annotations

import socket
import time

import pytest
from fault_proxy import (
    FORWARD_THEN_503,
    REJECT_429,
    REJECT_429_LONG,
    REJECT_500,
    REJECT_503,
    STALL,
    FaultProxy,
)
from helpers import Gateway, unique

from memory_gateway import (
    APIConnectionError,
    APITimeoutError,
    InternalServerError,
    MemoryGateway,
    RateLimitError,
    ServiceUnavailableError,
)


def test_a_read_is_retried_after_a_503(proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("GET", f"/namespaces/{namespace}", REJECT_503)
    assert proxied_client.namespaces.get(namespace)["id"] == namespace
    assert [seen.action for seen in proxy.requests_to("GET", f"/namespaces/{namespace}")] == [REJECT_503, "forward"]


def test_recall_is_retried_until_max_retries(proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("POST", "/recall", REJECT_503, REJECT_503, REJECT_503)
    with pytest.raises(ServiceUnavailableError):
        proxied_client.recall("anything", namespace_id=namespace)
    assert len(proxy.requests_to("POST", "/recall")) == 3  # the call and its two retries
    proxy.plan("POST", "/recall", REJECT_503, REJECT_503)
    assert proxied_client.recall("anything", namespace_id=namespace, max_retries=3) == []


def test_a_429_waits_for_retry_after(proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("POST", "/ask", REJECT_429)
    started = time.monotonic()
    answer = proxied_client.ask("Anything there?", namespace_id=namespace)
    assert time.monotonic() - started >= 1.0
    assert answer["sources"] == []
    assert len(proxy.requests_to("POST", "/ask")) == 2


def test_a_429_with_a_long_retry_after_is_raised_at_once(
    proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str
) -> None:
    proxy.plan("GET", f"/namespaces/{namespace}", REJECT_429_LONG)
    started = time.monotonic()
    with pytest.raises(RateLimitError) as raised:
        proxied_client.namespaces.get(namespace)
    assert time.monotonic() - started < 1.0
    assert raised.value.retry_after == 120
    assert len(proxy.requests_to("GET", f"/namespaces/{namespace}")) == 1


def test_a_write_whose_answer_was_lost_is_done_once(
    proxied_client: MemoryGateway, client: MemoryGateway, proxy: FaultProxy, namespace: str
) -> None:
    proxy.plan("POST", "/remember", FORWARD_THEN_503)
    content = f"Stored exactly once ({unique('fact')})."
    stored = proxied_client.remember(namespace_id=namespace, content=content)

    attempts = proxy.requests_to("POST", "/remember")
    assert [seen.action for seen in attempts] == [FORWARD_THEN_503, "forward"]
    keys = {seen.idempotency_key for seen in attempts}
    assert len(keys) == 1 and None not in keys
    assert attempts[1].upstream_headers.get("idempotent-replayed") == "true"
    memories = client.memories.list(namespace_id=namespace)["data"]
    assert [memory["id"] for memory in memories] == [stored["id"]]
    assert [match["memory_id"] for match in client.recall(content, namespace_id=namespace)] == [stored["id"]]


def test_each_call_gets_its_own_key_or_the_callers(
    proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str
) -> None:
    first = proxied_client.remember(namespace_id=namespace, content="First fact.")
    proxied_client.remember(namespace_id=namespace, content="Second fact.")
    proxied_client.memories.update(first["id"], content="First fact, amended.", idempotency_key="patch-1")
    proxy.plan("POST", "/forget", FORWARD_THEN_503)
    forgotten = proxied_client.forget(namespace_id=namespace, memory_ids=[first["id"]], idempotency_key="forget-1")
    assert forgotten["deleted"] == 1  # the first attempt's answer, replayed: the retry deleted nothing more

    remember_keys = [seen.idempotency_key for seen in proxy.requests_to("POST", "/remember")]
    assert len(set(remember_keys)) == 2
    assert [seen.idempotency_key for seen in proxy.requests_to("PATCH", f"/memories/{first['id']}")] == ["patch-1"]
    assert [seen.idempotency_key for seen in proxy.requests_to("POST", "/forget")] == ["forget-1", "forget-1"]


def test_a_namespace_create_is_retried_with_its_key(
    proxied_client: MemoryGateway, client: MemoryGateway, proxy: FaultProxy
) -> None:
    proxy.plan("POST", "/namespaces", FORWARD_THEN_503)
    name = unique("retried")
    created = proxied_client.namespaces.create(name)
    try:
        assert created["name"] == name
        assert len({seen.idempotency_key for seen in proxy.requests_to("POST", "/namespaces")}) == 1
        assert [ns["id"] for ns in client.namespaces.iter() if ns["name"] == name] == [created["id"]]
    finally:
        client.namespaces.delete(created["id"])


def test_a_write_without_an_idempotency_key_is_not_retried_after_a_503(
    gateway: Gateway, proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str
) -> None:
    other = gateway.create_key(unique("other"), ["NAMESPACE_READ"])
    proxy.plan("POST", f"/namespaces/{namespace}/grants", REJECT_503)
    with pytest.raises(ServiceUnavailableError):
        proxied_client.namespaces.grants.create(namespace, api_key_id=other["id"])
    assert len(proxy.requests_to("POST", f"/namespaces/{namespace}/grants")) == 1

    proxy.plan("POST", f"/namespaces/{namespace}/grants", REJECT_429)
    grant = proxied_client.namespaces.grants.create(namespace, api_key_id=other["id"])
    assert grant["api_key_id"] == other["id"]
    assert len(proxy.requests_to("POST", f"/namespaces/{namespace}/grants")) == 3


def test_a_500_is_not_retried(proxied_client: MemoryGateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("GET", f"/namespaces/{namespace}", REJECT_500)
    with pytest.raises(InternalServerError) as raised:
        proxied_client.namespaces.get(namespace)
    assert not isinstance(raised.value, ServiceUnavailableError)
    assert (raised.value.status, raised.value.code, raised.value.request_id) == (
        500,
        "INTERNAL_SERVER_ERROR",
        "req_proxy500",
    )
    assert len(proxy.requests_to("GET", f"/namespaces/{namespace}")) == 1

    proxy.plan("POST", "/remember", REJECT_500)
    with pytest.raises(InternalServerError):
        proxied_client.remember(namespace_id=namespace, content="Not stored.")
    assert len(proxy.requests_to("POST", "/remember")) == 1


def test_a_timeout_raises_api_timeout_error(gateway: Gateway, proxy: FaultProxy, namespace: str) -> None:
    proxy.plan("GET", f"/namespaces/{namespace}", STALL)
    with MemoryGateway(api_key=gateway.api_key, base_url=proxy.base_url, timeout=0.5, max_retries=0) as client:
        started = time.monotonic()
        with pytest.raises(APITimeoutError) as raised:
            client.namespaces.get(namespace)
        assert time.monotonic() - started < 2.5
        assert raised.value.status is None
        assert client.namespaces.get(namespace)["id"] == namespace

    proxy.plan("GET", f"/namespaces/{namespace}", STALL)
    with MemoryGateway(api_key=gateway.api_key, base_url=proxy.base_url, max_retries=0) as client:
        with pytest.raises(APITimeoutError):
            client.namespaces.get(namespace, timeout=0.5)


def test_a_refused_connection_is_retried_then_raised(gateway: Gateway) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    with MemoryGateway(api_key=gateway.api_key, base_url=f"http://127.0.0.1:{closed_port}", max_retries=1) as client:
        started = time.monotonic()
        with pytest.raises(APIConnectionError) as raised:
            client.health()
        assert time.monotonic() - started >= 0.375  # one backoff: 0.5 s less its jitter
    assert not isinstance(raised.value, APITimeoutError)
