"""Unit tests of the shared pieces that need no server: NDJSON splitting, dates in bodies, Retry-After."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from email.utils import format_datetime
from typing import Any, Dict, List

import httpx
import pytest

from memory_gateway import RateLimitError, _base
from memory_gateway.errors import error_from_response, retry_after_seconds

# Characters str.splitlines() (and so the line readers of current httpx versions) treats as line ends; the
# server writes them unescaped inside JSON strings, as JSON allows.
SEPARATORS = "\u2028 \u2029 \u0085 \x1c\x1d\x1e \x0b\x0c"
RECORDS: List[Dict[str, Any]] = [
    {"type": "header", "format": "memory-gateway-export"},
    {"type": "memory", "content": f"before{SEPARATORS}after, café ☕ 𝄞"},
    {"type": "document", "content_base64": "QUJD" * 5000},
    {"type": "memory", "content": "last\u2028line"},
]


def ndjson() -> bytes:
    lines = [json.dumps(record, ensure_ascii=False).encode("utf-8") for record in RECORDS]
    return b"\n".join(lines[:2]) + b"\r\n\n" + b"\n".join(lines[2:]) + b"\n"


def read(chunks: List[bytes]) -> List[Dict[str, Any]]:
    reader = _base.NDJSONReader()
    records = [record for chunk in chunks for record in reader.feed(chunk)]
    return records + reader.finish()


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64, 4096, 1 << 20])
def test_ndjson_reader_across_chunks_cut_anywhere(size: int) -> None:
    data = ndjson()
    chunks = [data[start : start + size] for start in range(0, len(data), size)]
    # Small sizes cut inside lines and inside multibyte characters (é, ☕, 𝄞, U+2028 are 2 to 4 bytes).
    assert read(chunks) == RECORDS


def test_ndjson_reader_keeps_the_last_line_without_newline_and_skips_blank_lines() -> None:
    assert read([b'\n\n{"a": 1}\r\n  \n{"b"', b": 2}"]) == [{"a": 1}, {"b": 2}]
    assert read([]) == [] and read([b"", b"\n"]) == []


def test_line_splitter_splits_at_newline_only() -> None:
    splitter = _base.LineSplitter()
    assert splitter.feed("a\u2028b".encode()) == []
    assert splitter.feed("\u0085c\nd".encode()) == ["a\u2028b\u0085c".encode()]
    assert splitter.feed(b"e\n\nf") == [b"de", b""]
    assert splitter.finish() == [b"f"] and splitter.finish() == []


def test_a_splitlines_reader_breaks_on_the_same_stream() -> None:
    """What the old path (httpx's iter_lines on versions that use str.splitlines) did with such a stream."""
    lines = [line for line in ndjson().decode("utf-8").splitlines() if line.strip()]
    assert len(lines) > len(RECORDS)
    with pytest.raises(json.JSONDecodeError):
        [json.loads(line) for line in lines]


UTC = timezone.utc


def test_body_converts_dates_inside_memories_and_messages() -> None:
    when = datetime(2024, 3, 1, 9, 30, tzinfo=UTC)
    paris = datetime(2024, 3, 1, 10, 30, tzinfo=timezone(timedelta(hours=1)))
    sent = _base.body(
        memories=[{"content": "a", "occurred_at": when, "expires_at": date(2030, 1, 2)}, {"content": "b"}],
        messages=[{"role": "user", "content": "hi", "occurred_at": paris}],
        occurred_at=when,
        content=None,
    )
    assert sent == {
        "memories": [
            {"content": "a", "occurred_at": "2024-03-01T09:30:00+00:00", "expires_at": "2030-01-02"},
            {"content": "b"},
        ],
        "messages": [{"role": "user", "content": "hi", "occurred_at": "2024-03-01T10:30:00+01:00"}],
        "occurred_at": "2024-03-01T09:30:00+00:00",
    }
    json.dumps(sent)  # no datetime left for json to choke on


def test_naive_datetimes_are_refused_client_side() -> None:
    naive = datetime(2024, 3, 1, 9, 30)
    hint = r"^occurred_at: a datetime needs a timezone: use datetime.now\(timezone.utc\)"
    with pytest.raises(ValueError, match=hint):
        _base.body(occurred_at=naive)
    with pytest.raises(ValueError, match=r"^memories.1.expires_at: a datetime needs a timezone"):
        _base.body(memories=[{"content": "a"}, {"content": "b", "expires_at": naive}])
    with pytest.raises(ValueError, match="needs a timezone"):
        _base.patch_body(expires_at=naive)
    with pytest.raises(ValueError, match="needs a timezone"):
        _base.query(occurred_after=naive)
    assert _base.query(occurred_after=naive.replace(tzinfo=UTC)) == [("occurred_after", "2024-03-01T09:30:00+00:00")]


def response(retry_after: str) -> httpx.Response:
    request = httpx.Request("GET", "http://gateway.test/api/v1/health")
    return httpx.Response(429, headers={"Retry-After": retry_after}, content=b"{}", request=request)


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    now = datetime(2015, 10, 21, 7, 27, 30, tzinfo=UTC)
    assert retry_after_seconds(response("5")) == 5.0
    assert retry_after_seconds(response("1.5")) == 1.5
    assert retry_after_seconds(response("Wed, 21 Oct 2015 07:28:00 GMT"), now=now) == 30.0
    assert retry_after_seconds(response("Wed, 21 Oct 2015 07:28:00 -0000"), now=now) == 30.0
    assert retry_after_seconds(response("Wed, 21 Oct 2015 07:20:00 GMT"), now=now) == 0.0  # already past
    assert retry_after_seconds(response("soon")) is None
    assert retry_after_seconds(response("-3")) is None
    assert retry_after_seconds(response("")) is None


def test_a_429_with_an_http_date_is_waited_for() -> None:
    in_ten_seconds = format_datetime(datetime.now(UTC) + timedelta(seconds=10), usegmt=True)
    error = error_from_response(response(in_ten_seconds))
    assert isinstance(error, RateLimitError)
    assert error.retry_after is not None and 7.0 < error.retry_after <= 10.0
    delay = _base.retry_delay(error, 0, 2, _base.Retry.RATE_LIMIT_ONLY)
    assert delay is not None and 7.0 < delay <= 10.0
    in_an_hour = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    assert _base.retry_delay(error_from_response(response(in_an_hour)), 0, 2, _base.Retry.SAFE) is None
