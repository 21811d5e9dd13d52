"""Each refusal of the real server as its typed error, with its status, code, details and request id."""

from __future__ import annotations

import base64
import re

import pytest
from fault_proxy import REJECT_503, FaultProxy
from helpers import Gateway, unique

from memory_gateway import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MemoryGateway,
    MemoryGatewayError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    UnsupportedMediaTypeError,
)

REQUEST_ID = re.compile(r"^req_[A-Za-z0-9_-]+$")


def assert_error(error: MemoryGatewayError, status: int, code: str) -> None:
    assert error.status == status
    assert error.code == code
    assert error.message
    assert error.request_id is not None and REQUEST_ID.match(error.request_id), error.request_id
    assert isinstance(error, APIStatusError) and error.response.headers["request-id"] == error.request_id


def test_400_names_the_fields(client: MemoryGateway, namespace: str) -> None:
    with pytest.raises(BadRequestError) as raised:
        client.remember(namespace_id=namespace, memories=[{"content": "fine"}, {"content": "   "}])
    assert_error(raised.value, 400, "BAD_REQUEST")
    assert [detail["field"] for detail in raised.value.details] == ["body.memories.1.content"]
    assert raised.value.details[0]["message"]


def test_401_for_an_unknown_key(gateway: Gateway) -> None:
    with gateway.client(api_key="mgw_" + "x" * 40) as client:
        with pytest.raises(AuthenticationError) as raised:
            client.namespaces.list()
    assert_error(raised.value, 401, "UNAUTHORIZED")
    assert raised.value.details == []


def test_403_for_a_read_only_key(gateway: Gateway, namespace: str) -> None:
    reader = gateway.create_key(unique("reader"), ["NAMESPACE_READ"], grants=[namespace])
    with gateway.client(api_key=reader["secret"]) as client:
        assert client.namespaces.get(namespace)["id"] == namespace
        with pytest.raises(PermissionDeniedError) as raised:
            client.remember(namespace_id=namespace, content="Not allowed to write this.")
    assert_error(raised.value, 403, "FORBIDDEN")
    assert raised.value.details == []


def test_404_for_a_namespace_not_granted(client: MemoryGateway) -> None:
    with pytest.raises(NotFoundError) as raised:
        client.namespaces.get("ns_doesNotExist0000000000")
    assert_error(raised.value, 404, "NOT_FOUND")
    assert raised.value.details == []


def test_409_names_the_field_taken(client: MemoryGateway) -> None:
    name = unique("taken")
    created = client.namespaces.create(name)
    try:
        with pytest.raises(ConflictError) as raised:
            client.namespaces.create(name)
        assert_error(raised.value, 409, "CONFLICT")
        assert [detail["field"] for detail in raised.value.details] == ["body.name"]
    finally:
        client.namespaces.delete(created["id"])


def test_413_for_a_body_over_5_mib(client: MemoryGateway, namespace: str) -> None:
    with pytest.raises(PayloadTooLargeError) as raised:
        client.remember(namespace_id=namespace, content="x" * (5 * 1024 * 1024 + 1))
    assert_error(raised.value, 413, "PAYLOAD_TOO_LARGE")
    assert raised.value.details == []


def test_415_for_a_document_type_the_gateway_does_not_read(client: MemoryGateway, namespace: str) -> None:
    zip_file = base64.b64encode(b"PK\x03\x04" + bytes(range(256))).decode()
    with pytest.raises(UnsupportedMediaTypeError) as raised:
        client.documents.create(
            namespace_id=namespace, content=zip_file, content_type="application/zip", content_encoding="base64"
        )
    assert_error(raised.value, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_429_from_the_real_rate_limit(gateway: Gateway) -> None:
    fresh = gateway.create_key(unique("limited"), ["NAMESPACE_READ"])
    with gateway.client(api_key=fresh["secret"], max_retries=0) as client:
        with pytest.raises(RateLimitError) as raised:
            # 600 a minute (the test server's limit); more, in case a minute's window ends meanwhile.
            for _ in range(2000):
                client.namespaces.list(page_size=1)
    assert_error(raised.value, 429, "RATE_LIMITED")
    assert raised.value.details == []
    assert raised.value.retry_after is not None and 0 < raised.value.retry_after <= 60


def test_an_error_body_that_is_not_json_is_still_typed(gateway: Gateway, proxy: FaultProxy) -> None:
    proxy.plan("GET", "/namespaces", REJECT_503)
    with MemoryGateway(api_key=gateway.api_key, base_url=proxy.base_url, max_retries=0) as client:
        with pytest.raises(ServiceUnavailableError) as raised:
            client.namespaces.list()
    assert raised.value.status == 503
    assert raised.value.code == "SERVICE_UNAVAILABLE"
    assert "503 Service Unavailable" in raised.value.message
    assert raised.value.details == [] and raised.value.request_id is None
