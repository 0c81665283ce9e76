"""Hooks that decide, in Python (docs/extend.md "Hooks"; docs/protocol.md §6): the
callbacks a program gives (:class:`Hooks`), the answer each hook call gets, and the
``hooks.json`` that makes the CLI ask.

IO-free: :func:`answer` takes the JSON the CLI wrote on a hook's stdin and gives what the
hook process must print and the code it must exit with. How that process reaches the
program (a relay, a socket) is the transport's business.

The answers use the spellings the contract saw reach the stream (§6.4): snake_case
``permission``/``user_message`` (a camelCase ``userMessage`` blocked without its reason),
``updated_input``, ``additional_context``. Gates fail closed: a callback that raises, does
not answer within ``Hooks.timeout`` or answers something else denies the call, with a
reason that says so; its exception is kept for the program (``errors``), never shown to
the agent, as the live agent's callbacks (docs/live.md "Approvals").
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import shlex
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, Literal, NamedTuple, TypeAlias

import anyio
import msgspec

from .._options.checks import OptionChecks
from .._options.keywords import KeywordsMeta
from ..errors import AgentConfigError
from ._guard import isolated
from ._hook_payloads import (
    FileEdited,
    HookPayload,
    HookReply,
    SessionEnded,
    SessionStarted,
    ShellCommand,
    ToolUse,
    ToolUsed,
)
from ._mcp_answers import OWN_TOOLS, McpAnswers

__all__ = [
    "Allow",
    "Decision",
    "Deny",
    "HookReply",
    "Hooks",
    "answer",
    "call_back",
    "check_timeout",
    "hooks_file",
]


class Allow(msgspec.Struct, frozen=True, kw_only=True, metaclass=KeywordsMeta):
    """Let the call run; with ``updated_input``, run it with these arguments instead
    (``preToolUse`` only: a shell command cannot be changed, §6.3)."""

    updated_input: dict[str, Any] | None = None


class Deny(msgspec.Struct, frozen=True, metaclass=KeywordsMeta):
    """Do not run the call. ``reason`` is what the model reads, and the stream's
    ``rejected`` reason of a ``preToolUse`` deny (§6.4; a ``beforeShellExecution`` deny
    shows the CLI's fixed words instead)."""

    reason: str = "denied by the program"


Decision: TypeAlias = Literal["allow", "deny"] | Allow | Deny
"""What a gate returns: ``"allow"``, ``"deny"``, :class:`Allow` or :class:`Deny`."""

_Gate = Callable[[Any], "Decision | Awaitable[Decision]"]
_Observer = Callable[[Any], "str | Awaitable[str | None] | None"]


class Hooks(msgspec.Struct, frozen=True, kw_only=True, metaclass=KeywordsMeta):
    """The callbacks a print-mode run calls while the agent works (§6.2: the events
    print mode fires). Each may be sync (run in a daemon thread, as tools are) or async.

    Args:
        before_tool: a tool call is about to run (:class:`ToolUse`); returns a
            :data:`Decision`.
        before_shell: a shell command is about to run (:class:`ShellCommand`); returns a
            :data:`Decision` (``updated_input`` is ignored).
        after_tool: a call ran (:class:`ToolUsed`); may return text the model reads next
            (``additional_context``).
        after_edit: a file was edited (:class:`FileEdited`); observe only.
        session_start: the run started (:class:`SessionStarted`); may return text the
            model reads (``additional_context``).
        session_end: the run ended (:class:`SessionEnded`); observe only.
        timeout: seconds a callback may take (a positive number, finite); past it a gate
            denies.

    Raises:
        AgentConfigError: ``timeout`` is no positive, finite number of seconds.

    Example::

        def no_rm(call: ShellCommand) -> Decision:
            return Deny("no rm here") if call.command.startswith("rm ") else "allow"

        run_sync("tidy up", options=AgentOptions(hooks=Hooks(before_shell=no_rm)))
    """

    AGENT_SDK_KIND: ClassVar[str] = "Hooks"
    """The mark the options know hooks by (``_options/checks.py``)."""

    before_tool: _Gate | None = None
    before_shell: _Gate | None = None
    after_tool: _Observer | None = None
    after_edit: _Observer | None = None
    session_start: _Observer | None = None
    session_end: _Observer | None = None
    timeout: float = 30.0

    def __post_init__(self) -> None:
        # Checked as AgentOptions' numbers are (docs/extend.md): nan or inf failed the run
        # with a raw ValueError (hooks.json's timeout), "30" a TypeError; 0 or -1 denied
        # every gate.
        if self.timeout != 30.0 or type(self.timeout) is not float:
            check_timeout("Hooks", self.timeout)


_TIMEOUT_CHECKS: dict[str, OptionChecks] = {}


def check_timeout(owner: str, timeout: object, example: float = 30) -> None:
    """``timeout`` is a positive, finite number of seconds, or the error says so in the
    terms of ``owner(timeout=...)`` (``Hooks``, ``approval_hooks``), as ``AgentOptions``
    says it of its own (``_options/checks.py``).

    Raises:
        AgentConfigError: it is not.
    """
    checks = _TIMEOUT_CHECKS.get(owner)
    if checks is None:
        fields = [("timeout", float, 30.0)]
        checks = OptionChecks(msgspec.defstruct(owner, fields), positive=("timeout",))
        _TIMEOUT_CHECKS[owner] = checks
    try:
        checks.check({"timeout": timeout})
    except AgentConfigError as exc:
        exc.hint = exc.hint or f"e.g. {owner}(..., timeout={example})"
        raise


class _Event(NamedTuple):
    field: str  # the Hooks attribute
    payload: type[HookPayload]
    gate: bool


# The CLI's event names (§6.2) for the callbacks agent_sdk offers.
PROBE = "sessionStart"
"""The event whose hook every run with hooks has: its call tells that they run."""

EVENTS: dict[str, _Event] = {
    "preToolUse": _Event("before_tool", ToolUse, True),
    # An MCP call, after preToolUse (§6.2, §6.3: bundle reading, no capture): our gate on it
    # too, asked once per call (McpAnswers), so that a build that skips one still asks.
    "beforeMCPExecution": _Event("before_tool", ToolUse, True),
    "beforeShellExecution": _Event("before_shell", ShellCommand, True),
    "postToolUse": _Event("after_tool", ToolUsed, False),
    "afterFileEdit": _Event("after_edit", FileEdited, False),
    "sessionStart": _Event("session_start", SessionStarted, False),
    "sessionEnd": _Event("session_end", SessionEnded, False),
}
# How long the CLI waits for a hook past the callback's own limit: the program's deny
# (with a reason) must come before the CLI's timeout (a block without one, failClosed).
CLI_GRACE = 10.0


def hooks_file(hooks: Hooks, command: Sequence[str]) -> bytes:
    """The ``hooks.json`` that makes the CLI run ``command`` (an argv, quoted here for the
    CLI's shell) for each event ``hooks`` has a callback for: ``"version": 1`` and flat
    entries (§6.1: a file without it was rejected, nested groups did not fire); gates
    ``failClosed``, so that a relay that cannot reach the program blocks the call."""
    line = shlex.join(command)
    seconds = math.ceil(hooks.timeout + CLI_GRACE)
    entries = {
        name: [{"command": line, "timeout": seconds, "failClosed": event.gate}]
        for name, event in EVENTS.items()
        # sessionStart always: it fires at the start, before the agent acts, and tells the
        # run that its hooks are running (docs/extend.md, "Never silently bypassed").
        if getattr(hooks, event.field) is not None or name == PROBE
    }
    return msgspec.json.encode({"version": 1, "hooks": entries})


def blocked(why: str) -> HookReply:
    """A call the program cannot answer: denied in JSON (a hook that prints anything but
    JSON blocks too, but without a reason, docs/protocol.md §6.1) and exit 2 (§6.4)."""
    reason = f"agent_sdk: {why}; blocked"
    deny = msgspec.json.encode({"permission": "deny", "user_message": reason})
    return HookReply(2, deny + b"\n", reason.encode() + b"\n")


def _reply(answer: dict[str, Any]) -> HookReply:
    return HookReply(0, msgspec.json.encode(answer))


def _deny(reason: str) -> HookReply:
    return _reply({"permission": "deny", "user_message": reason})


def _mcp_payload(raw: dict[str, Any]) -> dict[str, Any]:
    """``beforeMCPExecution`` as ``preToolUse`` tells an MCP call: ``MCP:<tool>``, the
    input decoded from its JSON string (§6.3), so that one ``before_tool`` rule fits both."""
    tool_input = raw.get("tool_input")
    if isinstance(tool_input, str):
        with contextlib.suppress(msgspec.DecodeError, RecursionError):  # else kept as it was
            tool_input = msgspec.json.decode(tool_input)
    name = raw.get("tool_name")
    name = f"MCP:{name}" if isinstance(name, str) and not name.startswith("MCP:") else name
    return {**raw, "tool_name": name, "tool_input": tool_input}


async def answer(
    hooks: Hooks,
    line: bytes,
    errors: list[BaseException],
    mcp: McpAnswers | None = None,
) -> HookReply:
    """The answer to one hook call: ``line`` is the JSON the CLI wrote on its stdin.

    A gate's callback that fails (raises, times out, answers something else) denies,
    with a reason saying so; its exception goes to ``errors``. Input that is not a known
    event's object is refused with exit 2 (which blocks a gate, §6.4). With ``mcp``, an
    MCP call's ``beforeMCPExecution`` gets the answer its ``preToolUse`` got."""
    try:
        raw = msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        raw = None
    name = raw.get("hook_event_name") if type(raw) is dict else None
    event = EVENTS.get(name) if type(name) is str else None
    if event is None or type(raw) is not dict:
        return blocked("not a hook event it answers")
    callback = getattr(hooks, event.field)
    if callback is None:  # not asked for: the CLI's own default
        return _reply({})
    fields = _mcp_payload(raw) if name == "beforeMCPExecution" else raw
    try:
        payload = msgspec.convert({**fields, "raw": raw}, event.payload)
    except msgspec.ValidationError as exc:
        errors.append(exc)
        payload = None
    if not event.gate:
        return await _observe(hooks, callback, payload, errors)
    key = McpAnswers.key(payload) if mcp is not None else None
    if key is not None and name == "beforeMCPExecution":
        assert mcp is not None
        if (given := mcp.take(key)) is not None:
            return given  # asked at this call's preToolUse already
    own = OWN_TOOLS.set(mcp.own) if mcp is not None else None
    try:
        reply = await _gate(hooks, event.field, callback, payload, errors)
    finally:
        if own is not None:
            OWN_TOOLS.reset(own)
    if key is not None and name == "preToolUse":
        assert mcp is not None
        mcp.keep(key, reply)
    return reply


async def call_back(callback: Callable[[Any], Any], argument: Any) -> Any:
    """What ``callback(argument)`` returns: an async callback awaited, a sync one run in a
    daemon thread (it may block, e.g. on ``input()``; a cancelled wait abandons it, and the
    program's exit does not wait for it: ``_threads.py``)."""
    if inspect.iscoroutinefunction(callback):
        return await callback(argument)
    from ._threads import in_thread  # not at import: it loads threading (a cold start's cost)

    result = await in_thread(callback, argument)
    if inspect.isawaitable(result):
        result = await result
    return result


async def _run(
    hooks: Hooks, callback: Callable[[Any], Any], payload: Any
) -> tuple[Any, BaseException | None]:
    """What the callback returned, or what it raised (a ``TimeoutError`` past the limit):
    in a task of its own, so that anything it raises fails this call alone (``_guard.py``)."""
    try:
        with anyio.fail_after(hooks.timeout):
            return await isolated(functools.partial(call_back, callback, payload))
    except TimeoutError as exc:
        return None, exc


async def _gate(
    hooks: Hooks, field: str, callback: _Gate, payload: Any, errors: list[BaseException]
) -> HookReply:
    failed = f"agent_sdk: the program's {field} hook failed, so the call was denied"
    if payload is None:
        return _deny(failed)
    decision, error = await _run(hooks, callback, payload)
    if error is not None:
        errors.append(error)
        return _deny(failed)
    if decision == "allow":
        return _reply({"permission": "allow"})
    if decision == "deny":
        return _deny(Deny().reason)
    problem = f"the {field} hook returned {_shown(decision)}, not a Decision"
    if type(decision) is Deny:
        return _sent({"permission": "deny", "user_message": decision.reason}, field, errors)
    if type(decision) is Allow:
        updated = decision.updated_input
        if updated is None or field != "before_tool":
            return _reply({"permission": "allow"})
        if type(updated) is dict:
            return _sent({"permission": "allow", "updated_input": updated}, field, errors)
        problem = f"the {field} hook's Allow(updated_input=...) is {_shown(updated)}, not a dict"
    errors.append(TypeError(problem))
    return _deny(failed)


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _sent(answer: dict[str, Any], field: str, errors: list[BaseException]) -> HookReply:
    """``answer`` as the hook prints it; one that JSON cannot carry (an object among
    ``updated_input``, a lone surrogate) denies the call and is kept, as a callback that
    fails (it escaped, and the relay blocked the call with no reason: issue 34)."""
    try:
        return _reply(answer)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        error = TypeError(f"the {field} hook's answer cannot be sent as JSON: {exc}")
        error.__cause__ = exc
        errors.append(error)
        return _deny(f"agent_sdk: the program's {field} hook failed, so the call was denied")


async def _observe(
    hooks: Hooks, callback: _Observer, payload: Any, errors: list[BaseException]
) -> HookReply:
    if payload is None:
        return _reply({})
    context, error = await _run(hooks, callback, payload)
    if error is not None:
        errors.append(error)
        return _reply({})
    if type(context) is str and context:
        try:
            return _reply({"additional_context": context})
        except ValueError as exc:  # a lone surrogate: no UTF-8, no JSON
            errors.append(TypeError(f"a hook's text cannot be sent as JSON: {exc}"))
            return _reply({})
    if context is not None and type(context) is not str:
        errors.append(TypeError(f"a hook returned {context!r}, not text or None"))
    return _reply({})
