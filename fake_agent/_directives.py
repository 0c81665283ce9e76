"""Scenario directives: lines with a ``"fake"`` key that make the fake *do* something.

Each directive is a :class:`Directive` in :data:`DIRECTIVES`: the fields it requires
(checked when the scenario loads, so a typo fails loudly before any output) and the
function that performs it against a :class:`RunContext`, plus its optional fields and
a check of the values. Adding a directive means adding one entry here; the loader and
the run need no change. The fault modes (stall, hang, raw bytes, garbage, kill, stderr
flood, drip, huge line, ignoring SIGTERM, exiting while a child holds stdout) live in
:mod:`._faults`; failing the first attempts of a task (``fail_first``) in :mod:`._fleet`;
changing files in the workspace (``write_file``, ``delete_file``) in :mod:`._files`;
calling a tool of an MCP server (``mcp_call``) in :mod:`._mcp_call`; a shell call
(``shell``) and the helpers the CLI leaves (``worker_server``, ``daemon``) in
:mod:`._shell`. The directives that do work go through the run's hooks
(:mod:`._hooks`).
The section markers (``only``, ``end_only``) do nothing when played: the run keeps or
drops the lines between them before it starts (:mod:`._scenario`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, Protocol

from . import _faults, _files, _fleet, _hooks, _mcp_call, _shell
from ._credentials import check_leak, run_leak
from ._huge import huge_read_events

#: Env var overriding the size of every ``huge_read`` (tests use a small one).
HUGE_READ_BYTES_ENV = "FAKE_AGENT_HUGE_READ_BYTES"


class RunContext(Protocol):
    """What a directive may act on: the run in progress."""

    #: The process exit code at the end of the run.
    exit_code: int

    #: The credentials the run was given (``_credentials.credentials``).
    credentials: list[str]

    #: The run's workspace, absolute (``--workspace``, else the current directory).
    workspace: str

    #: Whether tool calls are allowed (``-f``/``--force``/``--yolo``).
    force: bool

    #: The run's MCP servers (``mcp_call``).
    mcp: _mcp_call.McpServers

    #: The run's hooks (``write_file``, ``delete_file``, ``mcp_call``, ``shell``).
    hooks: _hooks.Hooks

    #: The run's session id (a shell command's ``CURSOR_CONVERSATION_ID``).
    session_id: str

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""

    def stdout_line(self, text: str) -> None:
        """Write a raw, non-JSON line to stdout (in every output format)."""

    def stdout_bytes(self, data: bytes) -> None:
        """Write bytes to stdout exactly (in every output format)."""

    def stderr_text(self, text: str) -> None:
        """Write text to stderr."""


_Fields = dict[str, tuple[type, ...]]


class Directive(NamedTuple):
    """A directive's required fields (name -> accepted types) and its action."""

    run: Callable[[dict[str, Any], RunContext], None]
    fields: _Fields
    #: True when nothing may follow it in the scenario.
    must_be_last: bool = False
    #: Fields it may have (name -> accepted types), checked when present.
    optional: _Fields | None = None
    #: Further checks of the values (types are already right): why not, or None.
    check: Callable[[dict[str, Any]], str | None] | None = None
    #: For a directive that ends the run with an exit code (it must be last): that code.
    #: The renderers need it from the start, as the real CLI decides what to print when
    #: the result arrives, not at exit.
    exit_code: Callable[[dict[str, Any]], int] | None = None
    #: Environment variables it needs (non-empty): checked before the run prints anything.
    needs_env: tuple[str, ...] = ()


def _stdout(spec: dict[str, Any], ctx: RunContext) -> None:
    ctx.stdout_line(spec["text"])


def _stderr(spec: dict[str, Any], ctx: RunContext) -> None:
    ctx.stderr_text(spec["text"] + "\n")


def _exit_code(spec: dict[str, Any]) -> int:
    return int(spec["code"])


def _exit(spec: dict[str, Any], ctx: RunContext) -> None:
    ctx.exit_code = _exit_code(spec)


def _sleep(spec: dict[str, Any], ctx: RunContext) -> None:
    time.sleep(max(0.0, float(spec["seconds"])))


def _huge_read(spec: dict[str, Any], ctx: RunContext) -> None:
    override = os.environ.get(HUGE_READ_BYTES_ENV)
    n_bytes = int(override) if override else int(spec["bytes"])
    for event in huge_read_events(n_bytes, spec):
        ctx.emit(event)


def _section(spec: dict[str, Any], ctx: RunContext) -> None:
    # Never played: the run keeps or drops the lines of a section before it starts
    # (:meth:`._scenario.Scenario.played`), and drops the markers themselves.
    return None


_NUMBER = (int, float)

#: Every directive a scenario may use, by the value of its ``"fake"`` key.
DIRECTIVES: dict[str, Directive] = {
    "stdout": Directive(_stdout, {"text": (str,)}),
    "stderr": Directive(_stderr, {"text": (str,)}),
    "exit": Directive(_exit, {"code": (int,)}, must_be_last=True, exit_code=_exit_code),
    "sleep": Directive(_sleep, {"seconds": _NUMBER}),
    "leak_credentials": Directive(
        run_leak, {}, optional={"is_error": (bool,), "variables": (list,)}, check=check_leak
    ),
    # Sections played only by a resumed run (``--resume``), or only by a fresh one.
    "only": Directive(_section, {"resumed": (bool,)}),
    "end_only": Directive(_section, {}),
    "huge_read": Directive(
        _huge_read,
        {"bytes": (int,)},
        optional={"path": (str,), "call_id": (str,), "model_call_id": (str,)},
        check=_faults.check_sizes,
    ),
    # Fault modes.
    "stall": Directive(
        _faults.run_stall, {}, optional={"seconds": _NUMBER}, check=_faults.check_stall
    ),
    "hang": Directive(_faults.run_hang, {}, must_be_last=True, optional={"linger_child": (bool,)}),
    "raw": Directive(
        _faults.run_raw,
        {},
        optional={"text": (str,), "base64": (str,), "newline": (bool,)},
        check=_faults.check_raw,
    ),
    "garbage": Directive(
        _faults.run_garbage,
        {"bytes": (int,)},
        optional={"seed": (int,)},
        check=_faults.check_sizes,
    ),
    "kill": Directive(
        _faults.run_kill,
        {},
        must_be_last=True,
        optional={"signal": (str,)},
        check=_faults.check_kill,
    ),
    "stderr_flood": Directive(
        _faults.run_stderr_flood, {"bytes": (int,)}, check=_faults.check_sizes
    ),
    "drip": Directive(
        _faults.run_drip,
        {},
        optional={"bytes": (int,), "interval": _NUMBER},
        check=_faults.check_drip,
    ),
    "huge_line": Directive(_faults.run_huge_line, {"bytes": (int,)}, check=_faults.check_sizes),
    "ignore_sigterm": Directive(_faults.run_ignore_sigterm, {}),
    "exit_leaving_child": Directive(
        _faults.run_exit_leaving_child,
        {},
        must_be_last=True,
        optional={"code": (int,)},
        check=_faults.check_exit_code,
        exit_code=_faults.leaving_exit_code,
    ),
    # Many runs at once (docs/protocol.md §1): a task failing its first attempts.
    "fail_first": Directive(
        _fleet.run_fail_first,
        {"times": (int,), "with": (str,)},
        check=_fleet.check_fail_first,
        needs_env=(_fleet.COUNTER_ENV,),
    ),
    # The agent changing files in the workspace.
    "write_file": Directive(
        _files.run_write_file,
        {"path": (str,), "text": (str,)},
        optional={"call_id": (str,), "model_call_id": (str,), "real": (bool,)},
        check=_files.check_path,
    ),
    "delete_file": Directive(
        _files.run_delete_file,
        {"path": (str,)},
        optional={"call_id": (str,), "model_call_id": (str,), "real": (bool,)},
        check=_files.check_path,
    ),
    # A shell command, run for real in a session of its own, through the hooks (§6).
    "shell": Directive(
        _shell.run_shell,
        {"command": (str,)},
        optional={
            "call_id": (str,),
            "model_call_id": (str,),
            "background": (bool,),
            "pty": (bool,),
        },
    ),
    # Helpers the real CLI leaves running (docs/protocol.md §5): in its process group,
    # and outside its process tree.
    "worker_server": Directive(_shell.run_worker_server, {}),
    "daemon": Directive(_shell.run_daemon, {}, optional={"scrub_env": (bool,)}),
    # The agent calling a tool of an MCP server, for real (docs/protocol.md §7).
    "mcp_call": Directive(
        _mcp_call.run_mcp_call,
        {"server": (str,), "tool": (str,)},
        optional={"args": (dict,), "call_id": (str,), "model_call_id": (str,)},
        check=_mcp_call.check_mcp_call,
    ),
}


def _type_problem(name: str, key: str, value: Any, types: tuple[type, ...]) -> str | None:
    # bool is an int in Python; a directive never wants one where a number goes.
    if isinstance(value, types) and (bool in types or not isinstance(value, bool)):
        return None
    wanted = " or ".join(t.__name__ for t in types)
    return f"directive {name!r} needs {key!r} as {wanted}"


def check_directive(spec: dict[str, Any]) -> str | None:
    """Why ``spec`` is not a valid directive, or None when it is."""
    name = spec.get("fake")
    directive = DIRECTIVES.get(name) if isinstance(name, str) else None
    if directive is None or not isinstance(name, str):
        return f"unknown directive {name!r} (known: {', '.join(sorted(DIRECTIVES))})"
    optional = directive.optional or {}
    # A misspelt optional field would otherwise be silently ignored.
    unknown = sorted(set(spec) - {"fake", *directive.fields, *optional})
    if unknown:
        return f"directive {name!r} has unknown field {unknown[0]!r}"
    for key, types in directive.fields.items():
        problem = _type_problem(name, key, spec.get(key), types)
        if problem is not None:
            return problem
    for key, types in optional.items():
        if key in spec:
            problem = _type_problem(name, key, spec[key], types)
            if problem is not None:
                return problem
    return directive.check(spec) if directive.check is not None else None


def missing_environment(steps: Iterable[dict[str, Any]], environ: Mapping[str, str]) -> str | None:
    """Why the (already checked) ``steps`` cannot play in ``environ``: the first
    environment variable a directive needs that is unset or empty; or None."""
    for step in steps:
        name = step.get("fake")
        if isinstance(name, str):
            for variable in DIRECTIVES[name].needs_env:
                if not environ.get(variable):
                    return f"directive {name!r} needs the environment variable {variable}"
    return None


def run_directive(spec: dict[str, Any], ctx: RunContext) -> None:
    """Perform one (already checked) directive."""
    DIRECTIVES[spec["fake"]].run(spec, ctx)
