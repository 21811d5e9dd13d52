"""Small helpers the test files share."""

from __future__ import annotations

import json
import os
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from memory_gateway import MemoryGateway

REPO_ROOT = Path(__file__).resolve().parents[3]


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def wait_for(check: Callable[[], Any], *, timeout: float = 120.0, interval: float = 0.3) -> Any:
    """The first truthy result of `check`, polled until `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s")
        time.sleep(interval)


@dataclass
class Gateway:
    base_url: str
    api_key: str
    data_dir: str
    org: str

    def client(self, **options: Any) -> MemoryGateway:
        return MemoryGateway(api_key=options.pop("api_key", self.api_key), base_url=self.base_url, **options)

    def create_key(self, name: str, permissions: List[str], grants: Optional[List[str]] = None) -> Dict[str, Any]:
        """A new API key of the test organization, made with the admin CLI (`{id, secret, ...}`)."""
        command = ["node", str(REPO_ROOT / "bin/memgw.mjs"), "key", "create", "--org", self.org, "--name", name]
        command += ["--permissions", ",".join(permissions)]
        for namespace_id in grants or []:
            command += ["--grant", namespace_id]
        env = {**os.environ, "DATA_DIR": self.data_dir}
        env.pop("MEMGW_PROCESS_ROLE", None)
        done = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"memgw key create failed:\n{done.stdout}\n{done.stderr}"
        created: Dict[str, Any] = json.loads(done.stdout)
        return created
