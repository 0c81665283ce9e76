"""Stream a prompt's events to the terminal, on trio.

    python examples/stream_trio.py "Add a test for cart totals"

agent_sdk is written on anyio, so the very same ``run()`` works under ``trio.run``: no
adapter, no extra thread. (``trio`` is not a dependency of agent_sdk: ``pip install trio``.)
Uses the real ``cursor-agent`` when it is installed, else the bundled fake agent (put
``scenario:tools`` in the prompt to see tool calls).
"""

from __future__ import annotations

import sys

import trio
from _agent import default_options

from agent_sdk import (
    AgentError,
    AgentOptions,
    AssistantEvent,
    ResultEvent,
    ToolCallCompleted,
    ToolCallStarted,
    run,
)


async def main_async(prompt: str, options: AgentOptions) -> None:
    calls = 0
    async with run(prompt, options=options) as events:
        async for event in events:
            if isinstance(event, AssistantEvent):
                print(event.new_text, end="", flush=True)  # the reply, exactly once
            elif isinstance(event, ToolCallStarted):
                calls += 1
                print(f"\n  → {event.label}")
            elif isinstance(event, ToolCallCompleted):
                # ok: it did what was asked (a command that exited 1 ran, but is not ok).
                code = f" exit {event.exit_code}" if event.exit_code else ""
                print(f"  {'✓' if event.ok else '✗'} {event.label}{code}")
            elif isinstance(event, ResultEvent):
                print(f"\n[done in {event.duration_ms} ms]")
    # After the block the run is over: its RunResult has the session, usage and final
    # text. A streamed run keeps no events (memory stays flat): count what you need.
    result = events.result
    print(f"[session {result.session_id}, {calls} tool calls]")


def main() -> int:
    prompt = " ".join(sys.argv[1:]) or "Add a test for cart totals"
    options = default_options(stream_partial_output=True)
    try:
        trio.run(main_async, prompt, options)
    except AgentError as exc:
        print(f"\nerror: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
