"""Stream a prompt's events to the terminal as they arrive (asyncio, through anyio).

    python examples/stream.py "Add a test for cart totals"

Uses the real ``cursor-agent`` when it is installed, else the bundled fake agent (which
plays a scripted scenario: put ``scenario:tools`` in the prompt, or set
``FAKE_AGENT_SCENARIO=tools``). ``examples/stream_trio.py`` is the same on trio.
"""

from __future__ import annotations

import sys

import anyio
from _agent import default_options

from agent_sdk import (
    AgentError,
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

    # `async with` ends the CLI's process group the moment the block is left (Ctrl-C,
    # an exception, a `break`); `async for` alone would leave that to the GC.
    async with run(prompt, options=options) as events:
        async for event in events:
            if isinstance(event, SystemInit):
                line(f"[session {event.session_id} · {event.model}]")
            elif isinstance(event, AssistantEvent) and event.new_text:
                # new_text: what this event adds to the reply (partial-output flushes
                # repeat text; their new_text is ""), so the reply shows exactly once.
                print(event.new_text, end="", flush=True)
                at_line_start = event.new_text.endswith("\n")
            elif isinstance(event, ToolCallStarted):
                line(f"  → {event.label}")
            elif isinstance(event, ToolCallCompleted):
                # ok: it did what was asked (a command that exited 1 ran, but is not ok).
                code = f" exit {event.exit_code}" if event.exit_code else ""
                line(f"  {'✓' if event.ok else '✗'} {event.label}{code}")
            elif isinstance(event, ResultEvent):
                usage = event.usage
                tokens = f", {usage.input_tokens}+{usage.output_tokens} tokens" if usage else ""
                line(f"[done in {event.duration_ms} ms{tokens}]")


def main() -> int:
    prompt = " ".join(sys.argv[1:]) or "Add a test for cart totals"
    # stream_partial_output: the reply arrives in small deltas instead of whole messages.
    options = default_options(stream_partial_output=True)
    try:
        anyio.run(stream, prompt, options)  # asyncio by default
    except AgentError as exc:
        print(f"\nerror: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
