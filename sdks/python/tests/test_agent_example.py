"""examples/python-agent/agent.py run as a user would run it: what a user says in one run is known in the next."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import REPO_ROOT, Gateway

AGENT = REPO_ROOT / "examples/python-agent/agent.py"


def run_agent(gateway: Gateway, namespace: str, user_id: str, message: str) -> str:
    env = {
        **os.environ,
        "MEMGW_BASE_URL": gateway.base_url,
        "MEMGW_API_KEY": gateway.api_key,
        "MEMGW_NAMESPACE_ID": namespace,
        "PYTHONPATH": str(REPO_ROOT / "sdks/python"),
    }
    done = subprocess.run(
        [sys.executable, str(AGENT), user_id, message, "--show-prompt"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fact_told_in_one_run_is_answered_in_the_next(gateway: Gateway, namespace: str) -> None:
    first = run_agent(gateway, namespace, "user-ada", "My favourite colour is teal.")
    assert "What you remember about the user:\n- (nothing yet)" in first

    second = run_agent(gateway, namespace, "user-ada", "What is my favourite colour?")
    prompt, reply = second.split("Assistant: ", 1)[0], second.rsplit("Assistant: ", 1)[1]
    assert "- My favourite colour is teal." in prompt
    assert "teal" in reply

    other_user = run_agent(gateway, namespace, "user-bob", "What is my favourite colour?")
    assert "teal" not in other_user
