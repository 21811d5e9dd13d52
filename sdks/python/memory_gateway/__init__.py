"""Memory Gateway's Python SDK: `MemoryGateway` (sync) and `AsyncMemoryGateway` (async) over httpx."""

from ._async_client import AsyncMemoryGateway
from ._base import NOT_GIVEN, VERSION, NotGiven
from ._client import MemoryGateway
from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    MemoryGatewayError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    UnsupportedMediaTypeError,
)
from .types import (
    AskResult,
    CursorPage,
    Document,
    Event,
    ImportResult,
    Match,
    Memory,
    Namespace,
    Page,
    Source,
)

__version__ = VERSION

__all__ = [
    "MemoryGateway",
    "AsyncMemoryGateway",
    "NOT_GIVEN",
    "NotGiven",
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
    "AskResult",
    "CursorPage",
    "Document",
    "Event",
    "ImportResult",
    "Match",
    "Memory",
    "Namespace",
    "Page",
    "Source",
]
