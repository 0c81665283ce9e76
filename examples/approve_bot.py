"""A bot that asks a person before the agent runs a shell command (a live agent, ACP mode).

    python examples/approve_bot.py "Run the tests"
    python examples/approve_bot.py "scenario:permission Run the tests" "Now run them again"
    python examples/approve_bot.py --yes "Run the tests"       # allow once, never ask

Every prompt is a turn of one session on one long-lived ``cursor-agent acp`` process
(docs/live.md). When the agent wants to run something its allowlist does not cover, the
bot shows the command and the agent's reason and asks ``Allow once? [y/N/always]``:

* ``y`` allows this one call;
* ``always`` allows it and every later call of that command: the CLI writes the rule into
  your **global** ``~/.cursor/cli-config.json`` (docs/acp.md §3.11), so it is never the
  default;
* anything else (Enter included) rejects it; the agent then explains in its reply.

The reply streams while the bot waits for you: the answer is read in a worker thread.
Answers come from stdin, a terminal or a pipe (``printf 'y\\nn\\n' | python ...``); once
stdin has ended (``</dev/null``, a pipe with no answers left) every request is rejected,
with a message, and so is one left unanswered for ``decision_timeout`` (5 minutes by
default). ``--yes`` allows each request once without asking. With the fake agent,
``scenario:permission`` in a prompt plays the turn that asks. Exit status: 0 when every
turn ended ``end_turn``, 1 otherwise (an error, a cancelled turn), 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys

import anyio
from _agent import default_options

from agent_sdk import AgentError, AssistantEvent, ToolCallCompleted, ToolCallStarted
from agent_sdk.live import LiveAgent, LiveSession, PermissionDecision, RequestPermissionParams

ANSWERS: dict[str, PermissionDecision] = {
    "y": "allow_once",
    "yes": "allow_once",
    "always": "allow_always",
}
SAID = {
    "allow_once": "[allowed once]",
    "allow_always": "[allowed always: a rule in ~/.cursor/cli-config.json]",
    "reject": "[rejected]",
}


def say(text: str, end: str = "\n") -> None:
    """The dialogue goes to stderr: stdout holds only the agent's reply."""
    print(text, end=end, file=sys.stderr, flush=True)


def read_answer() -> str | None:
    """One line of stdin, or ``None`` once stdin has ended (no one is there to answer)."""
    if sys.stdin is None:
        return None
    line = sys.stdin.readline()
    return line.strip().lower() if line else None


def describe(request: RequestPermissionParams) -> tuple[str, str]:
    """The command and the agent's reason. The request's ``rawInput`` is often empty and
    the title is the command in backticks; the reason is the first content text (§3.11)."""
    call = request.tool_call
    raw = call.raw_input if isinstance(call.raw_input, dict) else {}
    command = raw.get("command") or (call.title or call.tool_call_id).strip("`")
    reasons = [
        block["content"].get("text", "")
        for block in call.content or []
        if isinstance(block, dict) and isinstance(block.get("content"), dict)
    ]
    return str(command), (reasons[0] if reasons else "")


class ApproveBot:
    """The permission callback and the turn printer of one run of the bot."""

    def __init__(self, *, yes: bool) -> None:
        self.yes = yes
        self.stdin_ended = False
        self.lock = anyio.Lock()  # one question at a time, answers in order
        self.shown: dict[str, anyio.Event] = {}  # tool calls printed, by id

    def _shown(self, call_id: str) -> anyio.Event:
        return self.shown.setdefault(call_id, anyio.Event())

    async def decide(self, request: RequestPermissionParams) -> PermissionDecision:
        """``LiveAgent(permission=...)``: called for every ``session/request_permission``."""
        command, reason = describe(request)
        # The request may overtake the printing of the events before it (the tool call
        # comes first, §2): let the reply catch up, so the question comes after it.
        with anyio.move_on_after(1):
            await self._shown(request.tool_call.tool_call_id).wait()
        async with self.lock:
            say(f"\n[the agent wants to run: {command}]" + (f"  ({reason})" if reason else ""))
            if self.yes:
                say("[allowed once: --yes]")
                return "allow_once"
            if self.stdin_ended:
                say("[rejected: no one to ask, stdin has ended]")
                return "reject"
            say("Allow once? [y/N/always] ", end="")
            # A thread, so the event loop (and the agent's other messages) keeps going;
            # abandoned if the turn is cancelled or decision_timeout passes meanwhile.
            try:
                answer = await anyio.to_thread.run_sync(read_answer, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                say("\n[no answer in time, or the turn was cancelled: rejected]")
                raise
            if answer is None:
                self.stdin_ended = True
                say("[rejected: no one to ask, stdin has ended]")
                return "reject"
            if not sys.stdin.isatty():
                say(answer)  # a terminal echoed it already
            decision = ANSWERS.get(answer, "reject")
            say(SAID[decision])
            return decision

    async def turn(self, session: LiveSession, prompt: str) -> str:
        """Stream one turn's reply to stdout; its stop reason."""
        turn = session.run(prompt)
        async for event in turn:
            if isinstance(event, AssistantEvent):
                print(event.new_text, end="", flush=True)
            elif isinstance(event, ToolCallStarted):
                print(f"\n  → {event.extras.get('title', event.kind)}", flush=True)
                self._shown(event.call_id).set()
            elif isinstance(event, ToolCallCompleted):
                print(f"  ← {event.status}", flush=True)  # "blocked" when rejected
        print(f"\n[{turn.result.stop_reason} in {turn.result.duration_ms} ms]", flush=True)
        return turn.result.stop_reason


async def run(prompts: list[str], yes: bool) -> bool:
    """Every prompt as a turn of one session; whether they all ended ``end_turn``."""
    bot = ApproveBot(yes=yes)
    async with LiveAgent(default_options(), permission=bot.decide) as agent:
        session = await agent.new_session()
        stops = [await bot.turn(session, prompt) for prompt in prompts]
    return all(stop == "end_turn" for stop in stops)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prompts", nargs="*", default=["Run the tests"])
    parser.add_argument("--yes", action="store_true", help="allow every request once, unasked")
    args = parser.parse_args()
    try:
        return 0 if anyio.run(run, args.prompts, args.yes) else 1
    except AgentError as exc:
        print(f"\nerror: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # The agent is already ended; a worker thread may still wait in readline():
        # leave without joining it.
        say("\n[interrupted]")
        sys.stdout.flush()
        os._exit(130)


if __name__ == "__main__":
    sys.exit(main())
