"""What the sync and async clients share: configuration, request descriptions, the retry rules, and the envelope."""

from __future__ import annotations

import enum
import json
import mimetypes
import os
import random
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import httpx

from .errors import APIStatusError, ConflictError, MemoryGatewayError, RateLimitError, retry_after_seconds
from .types import DateLike as DateLike  # re-exported for the clients' signatures

VERSION = "0.1.0"
DEFAULT_BASE_URL = "http://localhost:3000"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 2
# A longer wait than this is a quota to plan around, not a hiccup to sleep through.
MAX_RETRY_AFTER_SECONDS = 60.0
INITIAL_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0
NDJSON = "application/x-ndjson"


class NotGiven:
    """The default of parameters where `None` means something (a JSON `null` that clears a field)."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()

Timeout = Union[float, httpx.Timeout, None]
"""Seconds (or an httpx.Timeout); None waits for ever."""

QueryParams = List[Tuple[str, str]]


class Retry(enum.Enum):
    """Which failures a request may be sent again after."""

    SAFE = "safe"
    """Reads, deletes and writes carrying an Idempotency-Key: doing them twice does the work once."""
    RATE_LIMIT_ONLY = "rate_limit_only"
    """Other writes: only a 429, which the server answers before doing anything."""


@dataclass
class RequestSpec:
    method: str
    path: str
    params: QueryParams = field(default_factory=list)
    json: Optional[Mapping[str, Any]] = None
    files: Optional[Dict[str, Tuple[str, bytes, str]]] = None
    form: Optional[Dict[str, str]] = None
    headers: Dict[str, str] = field(default_factory=dict)
    retry: Retry = Retry.SAFE
    # Writes the server deduplicates by Idempotency-Key: one key per call, the same on every attempt.
    idempotent: bool = False
    idempotency_key: Optional[str] = None
    timeout: Union[Timeout, NotGiven] = NOT_GIVEN
    max_retries: Optional[int] = None

    def call_headers(self) -> Dict[str, str]:
        """The headers every attempt of the call sends, its Idempotency-Key made once for all of them."""
        if self.idempotent and self.idempotency_key is None:
            self.idempotency_key = str(uuid.uuid4())
        headers = dict(self.headers)
        if self.idempotency_key is not None:
            headers["Idempotency-Key"] = self.idempotency_key
        return headers


def resolve_api_key(api_key: Optional[str]) -> str:
    key = api_key if api_key is not None else os.environ.get("MEMGW_API_KEY")
    if not key:
        raise MemoryGatewayError("No API key: pass api_key= or set MEMGW_API_KEY.")
    return key


def resolve_base_url(base_url: Optional[str]) -> str:
    """The API's root: the server's address (argument, MEMGW_BASE_URL, localhost:3000) and `/api/v1`."""
    root = (base_url or os.environ.get("MEMGW_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    return root if root.endswith("/api/v1") else f"{root}/api/v1"


def default_headers(api_key: str) -> Dict[str, str]:
    return {
        "Authorization": f"Bearer {api_key}",
        "Accept": "application/json",
        "User-Agent": f"memory-gateway-python/{VERSION}",
    }


def backoff_seconds(retry_number: int) -> float:
    """0.5 s, 1 s, 2 s, … capped at 8 s, each shortened by up to a quarter so that clients do not retry in step."""
    nominal = min(INITIAL_BACKOFF_SECONDS * 2.0**retry_number, MAX_BACKOFF_SECONDS)
    return nominal * random.uniform(0.75, 1.0)


def retry_delay(error: MemoryGatewayError, retry_number: int, max_retries: int, retry: Retry) -> Optional[float]:
    """How long to wait before sending the request again after `error`, or None to raise it."""
    if retry_number >= max_retries:
        return None
    if isinstance(error, APIStatusError) and (isinstance(error, RateLimitError) or _idempotency_in_progress(error)):
        seconds = retry_after_seconds(error.response)
        if seconds is None:
            return backoff_seconds(retry_number)
        return seconds if seconds <= MAX_RETRY_AFTER_SECONDS else None
    if retry is not Retry.SAFE:
        return None
    if error.status is None or error.status in (502, 503, 504):
        return backoff_seconds(retry_number)
    return None


def _idempotency_in_progress(error: MemoryGatewayError) -> bool:
    """A 409 for an Idempotency-Key whose first request still runs (an earlier attempt of this very call)."""
    return isinstance(error, ConflictError) and any(
        detail["message"] == "IDEMPOTENCY_IN_PROGRESS" for detail in error.details
    )


def unwrap(response: httpx.Response) -> Any:
    """The `data` of a success envelope."""
    return _envelope(response).get("data")


def unwrap_page(response: httpx.Response) -> Dict[str, Any]:
    """`{data, pagination}` of a paged success envelope."""
    envelope = _envelope(response)
    return {"data": envelope.get("data", []), "pagination": envelope.get("pagination", {})}


def _envelope(response: httpx.Response) -> Dict[str, Any]:
    try:
        body = response.json()
    except ValueError as error:
        raise MemoryGatewayError(
            f"The server answered {response.status_code} with a body that is not JSON.",
            status=response.status_code,
            request_id=response.headers.get("request-id"),
        ) from error
    if not isinstance(body, dict):
        raise MemoryGatewayError(
            "The server answered with JSON that is not the API's envelope.",
            status=response.status_code,
            request_id=response.headers.get("request-id"),
        )
    return body


def body(**fields: Any) -> Dict[str, Any]:
    """A JSON body of the fields given: None leaves a field out, NOT_GIVEN too; dates become ISO 8601 (those
    of the `memories` and `messages` items too). A naive datetime raises ValueError."""
    return {
        name: _json_value(name, value)
        for name, value in fields.items()
        if value is not None and value is not NOT_GIVEN
    }


def patch_body(**fields: Any) -> Dict[str, Any]:
    """A PATCH body: NOT_GIVEN leaves a field out, None is sent as null (which clears the field)."""
    return {name: _json_value(name, value) for name, value in fields.items() if value is not NOT_GIVEN}


# The body fields whose items are objects with dates of their own (`occurred_at`, `expires_at`).
_ITEM_LIST_FIELDS = ("memories", "messages")


def _json_value(name: str, value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return iso_date(name, value)
    if name in _ITEM_LIST_FIELDS and isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [_json_item(f"{name}.{index}", item) for index, item in enumerate(value)]
    return value


def _json_item(name: str, item: Any) -> Any:
    if not isinstance(item, Mapping):
        return item
    return {
        key: iso_date(f"{name}.{key}", value) if isinstance(value, (datetime, date)) else value
        for key, value in item.items()
    }


def iso_date(name: str, value: Union[datetime, date]) -> str:
    """A date or an aware datetime in ISO 8601. A naive datetime (no tzinfo) is refused with ValueError: the
    server cannot tell which instant it means, and guessing the machine's zone would store a wrong time."""
    if isinstance(value, datetime) and (value.tzinfo is None or value.utcoffset() is None):
        raise ValueError(
            f"{name}: a datetime needs a timezone: use datetime.now(timezone.utc), or "
            f"datetime(..., tzinfo=timezone.utc), instead of the naive {value.isoformat()}"
        )
    return value.isoformat()


def query(**fields: Any) -> QueryParams:
    """Query parameters of the fields given (None left out); booleans as `true`/`false`."""
    params: QueryParams = []
    for name, value in fields.items():
        if value is None:
            continue
        if isinstance(value, bool):
            params.append((name, "true" if value else "false"))
        elif isinstance(value, (datetime, date)):
            params.append((name, iso_date(name, value)))
        else:
            params.append((name, str(value)))
    return params


def pairs(name: str, values: Optional[Mapping[str, Any]]) -> QueryParams:
    """A repeated `name=key:value` parameter per pair (the `scope` and `metadata` filters of list calls)."""
    return [(name, f"{key}:{value}") for key, value in (values or {}).items()]


def comma_list(values: Union[str, Sequence[str], None]) -> Optional[str]:
    if values is None or isinstance(values, str):
        return values
    return ",".join(values)


def ndjson_line(item: Union[Mapping[str, Any], bytes]) -> bytes:
    """A dict as one NDJSON line; bytes are sent as they are (raw NDJSON, such as a file's lines)."""
    if isinstance(item, (bytes, bytearray, memoryview)):
        return bytes(item)
    return json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class LineSplitter:
    """Cuts a byte stream into lines at b"\n" only, whatever the chunks' boundaries.

    Not `str.splitlines()`: the server writes U+2028, U+2029 and U+0085 unescaped inside JSON strings (valid
    JSON), and splitting there would cut a record in two. Only the new chunk is searched for b"\n"; the
    partial tail is kept as a list of pieces joined once when its line ends, so a long line (a document's
    base64, tens of MB) costs time linear in its length.
    """

    def __init__(self) -> None:
        self._tail: List[bytes] = []

    def feed(self, chunk: bytes) -> List[bytes]:
        """The lines `chunk` completes (without their b"\n"); the rest is kept for the next chunk."""
        lines: List[bytes] = []
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            if self._tail:
                self._tail.append(chunk[start:end])
                lines.append(b"".join(self._tail))
                self._tail = []
            else:
                lines.append(chunk[start:end])
            start = end + 1
        if start < len(chunk):
            self._tail.append(chunk[start:])
        return lines

    def finish(self) -> List[bytes]:
        """The last line, when the stream does not end with b"\n"."""
        tail = b"".join(self._tail)
        self._tail = []
        return [tail] if tail else []


class NDJSONReader:
    """The records of an NDJSON byte stream fed chunk by chunk: lines split at b"\n" only, each decoded as
    UTF-8 once complete (so a character cut between chunks is whole), blank lines skipped."""

    def __init__(self) -> None:
        self._lines = LineSplitter()

    def feed(self, chunk: bytes) -> List[Dict[str, Any]]:
        return _records(self._lines.feed(chunk))

    def finish(self) -> List[Dict[str, Any]]:
        return _records(self._lines.finish())


def _records(lines: List[bytes]) -> List[Dict[str, Any]]:
    records: List[Dict[str, Any]] = []
    for line in lines:
        record = ndjson_record(line)
        if record is not None:
            records.append(record)
    return records


def ndjson_record(line: bytes) -> Optional[Dict[str, Any]]:
    """One NDJSON line (UTF-8, without its b"\n") as a dict; None for a blank line."""
    stripped = line.strip()  # ASCII whitespace only (a "\r" before the "\n"), never U+2028 or U+0085
    if not stripped:
        return None
    record: Dict[str, Any] = json.loads(stripped.decode("utf-8"))
    return record


def replayable_lines(lines: Any) -> Optional[Callable[[], Iterable[bytes]]]:
    """For a list or tuple of lines, a way to encode it again for a retry; a one-shot iterator has none."""
    if isinstance(lines, (list, tuple)):
        sequence: Sequence[Union[Mapping[str, Any], bytes]] = lines
        return lambda: (ndjson_line(item) for item in sequence)
    return None


def file_part(
    file: Union[bytes, Any], filename: Optional[str], content_type: Optional[str]
) -> Tuple[str, bytes, str]:
    """The multipart `file` part: the bytes read once (so that a retry sends them again), a name and a type."""
    if isinstance(file, (bytes, bytearray, memoryview)):
        data = bytes(file)
        name = filename or "upload"
    elif isinstance(file, (str, os.PathLike)):
        with open(file, "rb") as handle:
            data = handle.read()
        name = filename or os.path.basename(os.fspath(file))
    else:
        data = file.read()
        name = filename or os.path.basename(str(getattr(file, "name", "") or "upload"))
    part_type = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    return (name, data, part_type)


def form_fields(**fields: Any) -> Dict[str, str]:
    """Multipart form fields beside the file: objects (scopes, metadata) as JSON text, None left out."""
    form: Dict[str, str] = {}
    for name, value in fields.items():
        if value is None:
            continue
        form[name] = json.dumps(dict(value)) if isinstance(value, Mapping) else str(value)
    return form
