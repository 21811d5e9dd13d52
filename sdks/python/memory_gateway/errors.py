"""The exceptions the clients raise: one class per kind of refusal, and two for requests that got no answer."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Dict, List, Mapping, Optional, Type

import httpx

from .types import ErrorDetail

__all__ = [
    "MemoryGatewayError",
    "APIConnectionError",
    "APITimeoutError",
    "APIStatusError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "PayloadTooLargeError",
    "UnsupportedMediaTypeError",
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
]


class MemoryGatewayError(Exception):
    """Every error of the SDK. `status` is None when no answer came (see APIConnectionError)."""

    status: Optional[int]
    code: Optional[str]
    message: str
    details: List[ErrorDetail]
    request_id: Optional[str]

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        details: Optional[List[ErrorDetail]] = None,
        request_id: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details if details is not None else []
        self.request_id = request_id

    def __str__(self) -> str:
        prefix = f"{self.status} {self.code}: " if self.status is not None else ""
        suffix = f" (request {self.request_id})" if self.request_id else ""
        return f"{prefix}{self.message}{suffix}"


class APIConnectionError(MemoryGatewayError):
    """The request got no answer: the connection failed or was cut before the response was complete."""


class APITimeoutError(APIConnectionError):
    """The request got no answer within its timeout."""


class APIStatusError(MemoryGatewayError):
    """The server answered with an error status. Subclasses name the statuses the API documents."""

    status: int
    response: httpx.Response

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: Optional[str],
        details: Optional[List[ErrorDetail]],
        request_id: Optional[str],
        response: httpx.Response,
    ) -> None:
        super().__init__(message, status=status, code=code, details=details, request_id=request_id)
        self.response = response


class BadRequestError(APIStatusError):
    """400: an invalid field, parameter or body; `details` says where."""


class AuthenticationError(APIStatusError):
    """401: no API key, or a malformed, unknown, revoked or expired one."""


class PermissionDeniedError(APIStatusError):
    """403: the key lacks the operation's permission, or the request contradicts its scopes."""


class NotFoundError(APIStatusError):
    """404: no such resource visible to the key."""


class ConflictError(APIStatusError):
    """409: a name or reference already used, a grant that exists, or an Idempotency-Key conflict."""


class PayloadTooLargeError(APIStatusError):
    """413: a body over 5 MiB, or a document or import over its limits."""


class UnsupportedMediaTypeError(APIStatusError):
    """415: a document of a type the gateway does not read."""


class RateLimitError(APIStatusError):
    """429: the key's requests for this minute are used up; `retry_after` is the server's wait in seconds."""

    retry_after: Optional[float]

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: Optional[str],
        details: Optional[List[ErrorDetail]],
        request_id: Optional[str],
        response: httpx.Response,
    ) -> None:
        super().__init__(
            message, status=status, code=code, details=details, request_id=request_id, response=response
        )
        self.retry_after = retry_after_seconds(response)


class InternalServerError(APIStatusError):
    """A 5xx other than 503: an unexpected error (500) or a failing upstream model (502)."""


class ServiceUnavailableError(InternalServerError):
    """503: the service cannot answer now (the local embedding model could not load, or a proxy in front)."""


_ERROR_CLASSES: Dict[int, Type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}

# The codes the API gives each status, for answers that do not come in the envelope (a proxy's HTML page).
_DEFAULT_CODES: Dict[int, str] = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    408: "REQUEST_TIMEOUT",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    429: "RATE_LIMITED",
    431: "REQUEST_HEADERS_TOO_LARGE",
    500: "INTERNAL_SERVER_ERROR",
    502: "UPSTREAM_ERROR",
    503: "SERVICE_UNAVAILABLE",
    504: "GATEWAY_TIMEOUT",
}


def retry_after_seconds(response: httpx.Response, *, now: Optional[datetime] = None) -> Optional[float]:
    """The `Retry-After` header in seconds: a number of seconds, or an HTTP date (RFC 9110, such as
    `Wed, 21 Oct 2015 07:28:00 GMT`) counted from `now` (a date already past is 0). None when absent or
    neither."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return seconds if seconds >= 0 else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):  # not a date (Python < 3.10 raises TypeError)
        return None
    if when.tzinfo is None:  # "-0000" in the date: UTC, as RFC 9110 dates are
        when = when.replace(tzinfo=timezone.utc)
    current = now if now is not None else datetime.now(timezone.utc)
    return max(0.0, (when - current).total_seconds())


def error_from_response(response: httpx.Response) -> APIStatusError:
    """The typed error for an answer with an error status (its body must have been read)."""
    status = response.status_code
    envelope = _error_envelope(response)
    code = _string(envelope.get("code")) or _DEFAULT_CODES.get(status)
    message = _string(envelope.get("message")) or _fallback_message(response)
    request_id = response.headers.get("request-id") or _string(envelope.get("request_id"))
    if status in _ERROR_CLASSES:
        error_class = _ERROR_CLASSES[status]
    elif status >= 500:
        error_class = InternalServerError
    else:
        error_class = APIStatusError
    return error_class(
        message,
        status=status,
        code=code,
        details=_details(envelope.get("details")),
        request_id=request_id,
        response=response,
    )


def _error_envelope(response: httpx.Response) -> Mapping[str, Any]:
    try:
        body = json.loads(response.content)
    except ValueError:
        return {}
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else {}


def _details(value: Any) -> List[ErrorDetail]:
    if not isinstance(value, list):
        return []
    return [
        {"field": str(item.get("field", "")), "message": str(item.get("message", ""))}
        for item in value
        if isinstance(item, dict)
    ]


def _string(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _fallback_message(response: httpx.Response) -> str:
    text = response.text.strip()
    reason = response.reason_phrase or "error"
    if not text:
        return f"HTTP {response.status_code} {reason}"
    return f"HTTP {response.status_code} {reason}: {text[:500]}"
