"""What ``agent-sdk doctor`` checks of the installed CLI (docs/cli.md, "agent-sdk doctor";
docs/extend.md, "Never silently bypassed"), and what it saw, for a bug report.

In order, each skipped once one before it failed: the binary is found; its version; it is
signed in (``status``, no tokens); the run's own server reaches it through the chosen
``tools_channel`` (the CLI's own ``mcp list-tools agent_sdk`` with the run's setup: no
tokens); and, only when asked (``--probe-run``: a tiny run, it costs tokens), that a run's
tool is called and its hooks fire, with the order of the hooks and their payloads' keys.
"""

from __future__ import annotations

import enum
import os
from typing import Any

import anyio
import msgspec

from .. import queries
from .._transport.discovery import find_binary
from ..errors import AgentError
from ..extend import Decision, Hooks, tool
from ..extend._home import with_run_token, with_tools
from ..options import AgentOptions, build_invocation

__all__ = ["Check", "Outcome", "run_checks"]

PROBE_TOOL = "doctor_probe"
LIST_WAIT = 60.0  # seconds `mcp list-tools` may take (it starts our server)
PROBE_PROMPT = (
    f"Call the tool {PROBE_TOOL} once with the word 'ping', then reply with the single word OK."
)


class Outcome(enum.Enum):
    OK = "ok"
    FAILED = "failed"
    SKIPPED = "skipped"


class Check(msgspec.Struct, frozen=True):
    """One line of the doctor's table."""

    name: str
    outcome: Outcome
    said: str


@tool(name=PROBE_TOOL)
def _probe(word: str) -> str:
    """Answer the doctor's probe: echoes the word."""
    return f"pong: {word}"


async def run_checks(
    options: AgentOptions, *, probe_run: bool, seen: dict[str, Any]
) -> list[Check]:
    """The checks, in order; what they saw goes into ``seen`` (the report's data)."""
    checks: list[Check] = []
    seen["tools_channel"] = options.tools_channel
    steps = [
        ("binary", _binary),
        ("version", _version),
        ("signed in", _signed_in),
        (f"tools channel ({options.tools_channel})", _channel),
    ]
    if probe_run:
        steps.append(("probe run", _probe_run))
    failed = False
    for name, step in steps:
        if failed:
            checks.append(Check(name, Outcome.SKIPPED, "an earlier check failed"))
            continue
        check = await step(options, seen)
        failed = check.outcome is Outcome.FAILED
        checks.append(check)
    if not probe_run:
        checks.append(Check("probe run", Outcome.SKIPPED, "not asked (--probe-run)"))
    return checks


async def _binary(options: AgentOptions, seen: dict[str, Any]) -> Check:
    try:
        path = find_binary(options.binary, {**os.environ, **(options.env or {})})
    except AgentError as exc:
        return Check("binary", Outcome.FAILED, str(exc))
    seen["binary"] = path
    return Check("binary", Outcome.OK, path)


async def _version(options: AgentOptions, seen: dict[str, Any]) -> Check:
    try:
        version = await queries.version(options=options)
    except AgentError as exc:
        return Check("version", Outcome.FAILED, str(exc))
    seen["cli_version"] = version
    return Check("version", Outcome.OK, version)


async def _signed_in(options: AgentOptions, seen: dict[str, Any]) -> Check:
    try:
        status = await queries.status(options=options)
    except AgentError as exc:
        return Check("signed in", Outcome.FAILED, str(exc))
    seen["status"] = status.status
    if not status.is_authenticated:
        said = "not signed in: no hook runs and no server starts (run `cursor-agent login`, or "
        return Check("signed in", Outcome.FAILED, said + "give CURSOR_API_KEY)")
    return Check("signed in", Outcome.OK, status.status or "authenticated")


async def _channel(options: AgentOptions, seen: dict[str, Any]) -> Check:
    """Our server, through the run's channel, listed by the CLI's own ``mcp list-tools``."""
    name = f"tools channel ({options.tools_channel})"
    given = with_run_token(msgspec.structs.replace(options, tools=[_probe]))
    binary = seen["binary"]
    invocation = build_invocation("", given, binary=binary, environ=os.environ)
    try:
        tools, ready = with_tools(invocation, given)
    except AgentError as exc:
        return Check(name, Outcome.FAILED, str(exc))
    try:
        channel = [arg for arg in ready.argv if arg.startswith("--plugin-dir=")]
        argv = [binary, *channel, "mcp", "list-tools", "agent_sdk"]
        with anyio.move_on_after(LIST_WAIT):
            # Its own session, as a run's CLI: the host admits only relays below one (_peers.py).
            done = await anyio.run_process(argv, env=ready.env, check=False, start_new_session=True)
            out = done.stdout.decode(errors="replace")
            err = done.stderr.decode(errors="replace").strip()
            seen["mcp_list_tools"] = {"exit_code": done.returncode, "stdout": out}
            reached = "tools" in tools.host.reached
            seen["server_started"] = reached
            if done.returncode == 0 and PROBE_TOOL in out and reached:
                return Check(name, Outcome.OK, "the CLI started our server and listed its tool")
            why = err.splitlines()[-1] if err else f"exit {done.returncode}"
            hint = (
                "try --tools-channel home"
                if options.tools_channel == "plugin"
                else "check that the CLI is signed in under the run's own HOME"
            )
            return Check(name, Outcome.FAILED, f"our server was not listed ({why}): {hint}")
        return Check(name, Outcome.FAILED, f"`mcp list-tools` did not answer in {LIST_WAIT:.0f} s")
    finally:
        tools.release()


async def _probe_run(options: AgentOptions, seen: dict[str, Any]) -> Check:
    """A tiny run with the probe tool and hooks that record what fires (costs tokens)."""
    from .. import run_async

    fired: list[dict[str, Any]] = []

    def record(payload: Any) -> None:
        fired.append({"event": type(payload).__name__, "keys": sorted(payload.raw)})

    def allow(payload: Any) -> Decision:
        record(payload)
        return "allow"

    hooks = Hooks(
        before_tool=allow,
        before_shell=allow,
        after_tool=record,
        after_edit=record,
        session_start=record,
        session_end=record,
    )
    given = msgspec.structs.replace(
        options, tools=[_probe], hooks=hooks, keep_events=True, timeout=options.timeout or 300
    )
    seen["hooks_fired"] = fired
    try:
        result = await run_async(PROBE_PROMPT, options=given)
    except AgentError as exc:
        seen["events"] = [_wire(e) for e in exc.events]
        return Check("probe run", Outcome.FAILED, str(exc).splitlines()[0])
    seen["events"] = [_wire(e) for e in result.events]
    ours = [call for call in result.tool_calls if call.custom_tool is not None]
    if not ours:
        return Check("probe run", Outcome.FAILED, "the agent never called the probe tool")
    events = ", ".join(entry["event"] for entry in fired)
    return Check("probe run", Outcome.OK, f"the tool ran; hooks fired: {events}")


def _wire(event: object) -> Any:
    """An event as JSON values (its ``msgspec.Raw`` parts included)."""
    return msgspec.json.decode(msgspec.json.encode(event))
