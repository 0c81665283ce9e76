"""Scenario directives: lines with a ``"fake"`` key that make the fake *do* something.

Each directive is a :class:`Directive` in :data:`DIRECTIVES`: the fields it requires
(checked when the scenario loads, so a typo fails loudly before any output) and the
function that performs it against a :class:`RunContext`. Adding a directive (stall,
crash mid-stream, kill by signal, stderr flood, garbage bytes, ...) means adding one
entry here; the loader and the run need no change.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from ._huge import huge_read_events

#: Env var overriding the size of every ``huge_read`` (tests use a small one).
HUGE_READ_BYTES_ENV = "FAKE_AGENT_HUGE_READ_BYTES"


class RunContext(Protocol):
    """What a directive may act on: the run in progress."""

    #: The process exit code at the end of the run.
    exit_code: int

    def emit(self, event: dict[str, Any]) -> None:
        """Send a wire event through the run (patched, then rendered)."""

    def stdout_line(self, text: str) -> None:
        """Write a raw, non-JSON line to stdout (in every output format)."""

    def stderr_text(self, text: str) -> None:
        """Write text to stderr."""


_Fields = dict[str, tuple[type, ...]]


class Directive(NamedTuple):
    """A directive's required fields (name -> accepted types) and its action."""

    run: Callable[[dict[str, Any], RunContext], None]
    fields: _Fields
    #: True when nothing may follow it in the scenario.
    must_be_last: bool = False


def _stdout(spec: dict[str, Any], ctx: RunContext) -> None:
    ctx.stdout_line(spec["text"])


def _stderr(spec: dict[str, Any], ctx: RunContext) -> None:
    ctx.stderr_text(spec["text"] + "\n")


def _exit(spec: dict[str, Any], ctx: RunContext) -> None:
    ctx.exit_code = spec["code"]


def _sleep(spec: dict[str, Any], ctx: RunContext) -> None:
    time.sleep(max(0.0, float(spec["seconds"])))


def _huge_read(spec: dict[str, Any], ctx: RunContext) -> None:
    override = os.environ.get(HUGE_READ_BYTES_ENV)
    n_bytes = int(override) if override else int(spec["bytes"])
    for event in huge_read_events(n_bytes, spec):
        ctx.emit(event)


_NUMBER = (int, float)

#: Every directive a scenario may use, by the value of its ``"fake"`` key.
DIRECTIVES: dict[str, Directive] = {
    "stdout": Directive(_stdout, {"text": (str,)}),
    "stderr": Directive(_stderr, {"text": (str,)}),
    "exit": Directive(_exit, {"code": (int,)}, must_be_last=True),
    "sleep": Directive(_sleep, {"seconds": _NUMBER}),
    "huge_read": Directive(_huge_read, {"bytes": (int,)}),
}


def check_directive(spec: dict[str, Any]) -> str | None:
    """Why ``spec`` is not a valid directive, or None when it is."""
    name = spec.get("fake")
    directive = DIRECTIVES.get(name) if isinstance(name, str) else None
    if directive is None:
        return f"unknown directive {name!r} (known: {', '.join(sorted(DIRECTIVES))})"
    for key, types in directive.fields.items():
        value = spec.get(key)
        # bool is an int in Python; a directive never wants one where a number goes.
        if not isinstance(value, types) or isinstance(value, bool):
            wanted = " or ".join(t.__name__ for t in types)
            return f"directive {name!r} needs {key!r} as {wanted}"
    return None


def run_directive(spec: dict[str, Any], ctx: RunContext) -> None:
    """Perform one (already checked) directive."""
    DIRECTIVES[spec["fake"]].run(spec, ctx)
