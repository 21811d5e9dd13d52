"""The synchronous client is generated from the asynchronous one (scripts/unasync.py): no server needed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "unasync.py"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_unasync_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_client_is_generated_from_async_client() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, (
        "memory_gateway/_client.py is stale: run /usr/bin/python3 sdks/python/scripts/unasync.py\n"
        + result.stdout
        + result.stderr
    )


def test_generated_client_says_it_is_generated() -> None:
    unasync = _load_script()
    text = unasync.TARGET.read_text(encoding="utf-8")
    assert text.startswith("# GENERATED from _async_client.py by sdks/python/scripts/unasync.py")


def test_markers() -> None:
    unasync = _load_script()
    source = [
        "class AsyncThing:",
        "    async def run(self) -> None:  # unasync: remove",
        "    # unasync: sync-only def run(self) -> int:",
        "        pass",
        "# unasync: async-only-begin",
        "async def helper() -> None:",
        "    pass",
        "# unasync: async-only-end",
        "x = 1",
    ]
    assert unasync._apply_markers(source) == ["class AsyncThing:", "    def run(self) -> int:", "        pass", "x = 1"]


def test_rules() -> None:
    unasync = _load_script()
    cases = {
        "import asyncio": "import time",
        "class AsyncMemoryGateway:": "class MemoryGateway:",
        "    async def __aenter__(self) -> AsyncMemoryGateway:": "    def __enter__(self) -> MemoryGateway:",
        "        async for chunk in response.aiter_bytes():": "        for chunk in response.iter_bytes():",
        "        await asyncio.sleep(delay)": "        time.sleep(delay)",
        "        return (await self._client._send(spec)).content": "        return self._client._send(spec).content",
        "        return cast(Memory, _base.unwrap(await self._send(spec)))": (
            "        return cast(Memory, _base.unwrap(self._send(spec)))"
        ),
        "        part = await asyncio.to_thread(_base.file_part, file, name)": "        part = _base.file_part(file, name)",
        "    ) -> AsyncGenerator[ExportRecord, None]:": "    ) -> Generator[ExportRecord, None, None]:",
        "        self._http = httpx.AsyncClient()": "        self._http = httpx.Client()",
        "            await self._http.aclose()": "            self._http.close()",
    }
    for source, expected in cases.items():
        assert unasync.unasync_line(source) == expected


def test_unknown_marker_is_refused() -> None:
    unasync = _load_script()
    try:
        unasync._apply_markers(["x = 1  # unasync: sync-onyl"])
    except unasync.UnasyncError:
        return
    raise AssertionError("an unknown marker was accepted")
