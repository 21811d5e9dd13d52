"""A small agent with long-term memory, on Memory Gateway's Python SDK.

Each run takes one message from one user: it recalls what it remembers about that user, builds the prompt a
chat model would be given, answers, and remembers the exchange as two turns of the user's conversation.
With no chat model offline, the answerer is the gateway's own `ask` (an extractive answer citing memories).

    python agent.py USER_ID "MESSAGE" [--namespace NAMESPACE_ID] [--show-prompt]

Configuration: MEMGW_BASE_URL (default http://localhost:3000), MEMGW_API_KEY, and the namespace as
--namespace or MEMGW_NAMESPACE_ID.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence

from memory_gateway import MemoryGateway, MemoryGatewayError
from memory_gateway.types import Match

SYSTEM_PROMPT = "You are a helpful assistant. Use what you remember about the user when it is relevant."
NOTHING_FOUND = "Nothing in memory answers this question."
MEMORIES_IN_PROMPT = 5


def build_prompt(message: str, memories: List[Match]) -> str:
    remembered = "\n".join(f"- {memory['content']}" for memory in memories) or "- (nothing yet)"
    return f"{SYSTEM_PROMPT}\n\nWhat you remember about the user:\n{remembered}\n\nUser: {message}\nAssistant:"


def answer(client: MemoryGateway, namespace_id: str, user_id: str, message: str) -> str:
    """The reply to `message`. A deployment with a chat model would send it the prompt; offline, `ask` answers
    from the same memories."""
    result = client.ask(message, namespace_id=namespace_id, identity_id=user_id)
    if result["answer"] == NOTHING_FOUND or not result["sources"]:
        return "Thanks, I will remember that."
    return result["answer"]


def run(client: MemoryGateway, namespace_id: str, user_id: str, message: str, show_prompt: bool) -> str:
    memories = client.recall(message, namespace_id=namespace_id, identity_id=user_id, top_k=MEMORIES_IN_PROMPT)
    if show_prompt:
        print(build_prompt(message, memories), end="\n\n")
    reply = answer(client, namespace_id, user_id, message)
    client.remember(
        namespace_id=namespace_id,
        identity_id=user_id,
        session_id=f"agent-{user_id}",
        messages=[{"role": "user", "content": message}, {"role": "assistant", "content": reply}],
    )
    return reply


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Answer a user's message with what the agent remembers of them.")
    parser.add_argument("user_id", help="whose memories to recall and store (the memories' identity_id)")
    parser.add_argument("message", help="what the user says")
    parser.add_argument("--namespace", default=os.environ.get("MEMGW_NAMESPACE_ID"), help="the namespace id")
    parser.add_argument("--show-prompt", action="store_true", help="print the prompt built from the memories")
    args = parser.parse_args(argv)
    if not args.namespace:
        parser.error("give the namespace as --namespace or MEMGW_NAMESPACE_ID")
    try:
        with MemoryGateway() as client:
            reply = run(client, args.namespace, args.user_id, args.message, args.show_prompt)
    except MemoryGatewayError as error:
        print(f"agent: {error}", file=sys.stderr)
        return 1
    print(f"Assistant: {reply}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
