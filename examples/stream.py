"""Stream a prompt's events as they arrive.

    python examples/stream.py "Add a test for cart totals"

Uses the real ``cursor-agent`` when it is installed, else the bundled fake agent (which
plays a scripted scenario: pick one with ``FAKE_AGENT_SCENARIO=tools``).
"""

from __future__ import annotations

import sys
from dataclasses import replace

import anyio

import fake_agent
from agent_sdk import (
    AgentError,
    AgentNotFoundError,
    AgentOptions,
    AssistantEvent,
    ResultEvent,
    SystemInit,
    ToolCallCompleted,
    ToolCallStarted,
    run,
)


async def stream(prompt: str, options: AgentOptions) -> None:
    at_line_start = True  # so tool-call lines never glue onto streamed text

    def line(text: str) -> None:
        nonlocal at_line_start
        print(("" if at_line_start else "\n") + text)
        at_line_start = True

    async with run(prompt, options=options) as events:
        async for event in events:
            if isinstance(event, SystemInit):
                line(f"[session {event.session_id} · {event.model}]")
            elif isinstance(event, AssistantEvent) and event.new_text:
                print(event.new_text, end="", flush=True)
                at_line_start = event.new_text.endswith("\n")
            elif isinstance(event, ToolCallStarted):
                line(f"  → {event.kind} {event.args}")
            elif isinstance(event, ToolCallCompleted):
                line(f"  ← {event.kind}: {event.outcome}")
            elif isinstance(event, ResultEvent):
                usage = event.usage
                tokens = f", {usage.inputTokens}+{usage.outputTokens} tokens" if usage else ""
                line(f"[done in {event.duration_ms} ms{tokens}]")


def main() -> int:
    prompt = " ".join(sys.argv[1:]) or "Add a test for cart totals"
    options = AgentOptions(stream_partial_output=True)
    try:
        try:
            anyio.run(stream, prompt, options)
        except AgentNotFoundError:
            print("[cursor-agent is not installed: running the bundled fake agent]")
            anyio.run(stream, prompt, replace(options, binary=fake_agent.executable()))
    except AgentError as exc:
        print(f"\nerror: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
