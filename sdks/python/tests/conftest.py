"""A real Memory Gateway for the tests: the one named by MEMGW_TEST_BASE_URL and MEMGW_TEST_API_KEY (the vitest
harness, tests/sdk-python.test.ts, starts it), or else a production server started here with `npm start`."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from fault_proxy import FaultProxy
from helpers import REPO_ROOT, Gateway, unique
from memory_gateway import MemoryGateway

INIT_API_KEY = "mgw_pythonSdkTestsBootstrapKey0123456789"
# Low enough that a fresh key reaches a real 429 in a few seconds of cheap requests.
RATE_LIMIT_PER_MINUTE = 600
# The first start builds the production bundle: minutes on a busy machine.
START_TIMEOUT_SECONDS = 900


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_until_ready(process: "subprocess.Popen[bytes]", log_path: Path, base_url: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        log = log_path.read_text(errors="replace")
        if "Memory Gateway is ready at" in log:
            if httpx.get(f"{base_url}/api/v1/health", timeout=30).status_code == 200:
                return
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{log}")
        time.sleep(0.5)
    raise RuntimeError(f"the server was not ready within {START_TIMEOUT_SECONDS} s:\n{log_path.read_text()}")


def _start_server() -> Iterator[Gateway]:
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    data_dir = tempfile.mkdtemp(prefix="memgw-sdk-python-")
    log_path = Path(data_dir + ".log")
    env = {
        **os.environ,
        "DATA_DIR": data_dir,
        "PORT": str(port),
        "PUBLIC_URL": base_url,
        "MEMGW_INIT_ORG_NAME": "Python SDK Tests",
        "MEMGW_INIT_USER_EMAIL": "sdk@python.example",
        "MEMGW_INIT_USER_PASSWORD": "a long test password",
        "MEMGW_INIT_API_KEY": INIT_API_KEY,
        "API_RATE_LIMIT_PER_MINUTE": str(RATE_LIMIT_PER_MINUTE),
        # Documents are fetched from a page these tests serve on 127.0.0.1.
        "ALLOW_PRIVATE_OUTBOUND": "true",
    }
    # The build the vitest suite's production servers share, never a developer's .next.
    env.setdefault("MEMGW_DIST_DIR", ".next-test-server")
    env.pop("MEMGW_PROCESS_ROLE", None)
    env.pop("DATABASE_URL", None)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            ["node", str(REPO_ROOT / "scripts/start.mjs")], cwd=REPO_ROOT, env=env, stdout=log, stderr=log
        )
    try:
        _wait_until_ready(process, log_path, base_url)
        with MemoryGateway(api_key=INIT_API_KEY, base_url=base_url) as client:
            org = client.namespaces.create(f"org-probe-{uuid.uuid4().hex[:8]}")["org_id"]
        yield Gateway(base_url=base_url, api_key=INIT_API_KEY, data_dir=data_dir, org=org)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(data_dir, ignore_errors=True)
        log_path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def gateway() -> Iterator[Gateway]:
    base_url = os.environ.get("MEMGW_TEST_BASE_URL")
    api_key = os.environ.get("MEMGW_TEST_API_KEY")
    if base_url and api_key:
        yield Gateway(
            base_url=base_url,
            api_key=api_key,
            data_dir=os.environ["MEMGW_TEST_DATA_DIR"],
            org=os.environ["MEMGW_TEST_ORG"],
        )
    else:
        yield from _start_server()


@pytest.fixture
def client(gateway: Gateway) -> Iterator[MemoryGateway]:
    with gateway.client() as opened:
        yield opened


@pytest.fixture
def namespace(client: MemoryGateway) -> Iterator[str]:
    """A namespace of its own for the test, deleted after it."""
    created = client.namespaces.create(unique("ns"))
    yield created["id"]
    client.namespaces.delete(created["id"])


@pytest.fixture
def proxy(gateway: Gateway) -> Iterator[FaultProxy]:
    with FaultProxy(gateway.base_url) as started:
        yield started


@pytest.fixture
def proxied_client(gateway: Gateway, proxy: FaultProxy) -> Iterator[MemoryGateway]:
    with MemoryGateway(api_key=gateway.api_key, base_url=proxy.base_url) as opened:
        yield opened

