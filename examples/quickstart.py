"""The shortest useful program: run one prompt, print what came back.

    python examples/quickstart.py "What does this repo do?"

``run_sync`` blocks until the agent has finished and returns a ``RunResult``. With the
fake agent, put ``scenario:cart`` in the prompt to see a tool call.
"""

from __future__ import annotations

import sys

from _agent import default_options

from agent_sdk import AgentError, run_sync


def main() -> int:
    prompt = " ".join(sys.argv[1:]) or "What does this repo do?"
    options = default_options()  # the real cursor-agent if installed, else the fake

    try:
        result = run_sync(prompt, options=options)
    except AgentError as exc:  # every failure is an AgentError, with what the CLI said
        print(f"error: {exc}", file=sys.stderr)
        return 1

    # The agent's reply (result.final_text is the CLI's own, its messages glued).
    print(result.text)
    print()
    print(f"session:  {result.session_id}  (AgentOptions(resume=...) continues the chat)")
    print(f"duration: {result.duration_ms} ms")
    if result.usage is not None:  # older CLIs send no token counts
        u = result.usage
        print(f"usage:    {u.input_tokens} input + {u.output_tokens} output tokens")
    # Tool calls: each `started` event paired with its `completed` one.
    print(f"tool calls: {len(result.tool_calls)}")
    for call in result.tool_calls:
        print(f"  {call.kind}: {call.outcome} in {call.duration_ms} ms, args={call.args}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
