"""``agent-sdk doctor``: check the installed CLI the way a run with tools and hooks uses it
(docs/cli.md, "agent-sdk doctor"), print a table, and exit 1 when a check failed.

``--report FILE`` writes what it saw as JSON for a bug report (the CLI's version, which
channel loaded, what ``mcp list-tools`` printed, and with ``--probe-run`` which hooks fired
in which order with which payload keys, and the probe run's events), redacted as every
output of agent_sdk is: the contract's unknowns are exactly what such a file settles.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO, get_args

import anyio
import msgspec

from .._options.agent_options import ToolsChannel
from .._options.redaction import redaction_of
from ..options import AgentOptions
from ._doctor_checks import Check, Outcome, run_checks
from .args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, print_error

__all__ = ["doctor_main", "doctor_parser"]

_MARKS = {Outcome.OK: "ok", Outcome.FAILED: "FAILED", Outcome.SKIPPED: "-"}


def doctor_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-sdk doctor",
        description="Check the installed Cursor CLI as a run with tools and hooks uses it.",
    )
    parser.add_argument("--binary", help="the CLI to check (default: found as a run finds it)")
    parser.add_argument("--fake", action="store_true", help="check the bundled fake agent instead")
    parser.add_argument(
        "--tools-channel",
        choices=get_args(ToolsChannel),
        default="plugin",
        help="how a run's tools and hooks reach the CLI (default: plugin)",
    )
    parser.add_argument(
        "--probe-run",
        action="store_true",
        help="also make a tiny run with a tool and hooks (costs a few tokens)",
    )
    parser.add_argument("--report", metavar="FILE", help="write what was seen as JSON")
    return parser


def doctor_main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """Run ``agent-sdk doctor ARGV``; its exit status.

    Example::

        doctor_main(["--fake"], sys.stdout, sys.stderr)  # 0
    """
    parser = doctor_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse said why on stderr
        return EXIT_USAGE if exit_.code else EXIT_OK
    binary = args.binary
    if args.fake:
        import fake_agent

        binary = fake_agent.executable()
    options = AgentOptions(binary=binary, tools_channel=args.tools_channel)
    seen: dict[str, Any] = {}
    checks = anyio.run(lambda: run_checks(options, probe_run=args.probe_run, seen=seen))
    redact = redaction_of(options, os.environ).text  # what the CLI printed may hold a key
    _print_table(checks, out, redact)
    if args.report:
        try:
            _write_report(Path(args.report), checks, seen, options)
        except OSError as exc:
            print_error(err, f"could not write the report {args.report}: {exc}")
            return EXIT_FAILED
    failed = any(check.outcome is Outcome.FAILED for check in checks)
    return EXIT_FAILED if failed else EXIT_OK


def _print_table(checks: list[Check], out: TextIO, redact: Callable[[str], str]) -> None:
    width = max(len(check.name) for check in checks)
    for check in checks:
        said = check.said.splitlines()[0] if check.said else ""  # the whole in --report
        out.write(redact(f"{check.name.ljust(width)}  {_MARKS[check.outcome]:<7} {said}\n"))


def _write_report(path: Path, checks: list[Check], seen: dict[str, Any], options: Any) -> None:
    """The report, redacted (the run's secrets, the environment's credentials)."""
    data = {"checks": [msgspec.to_builtins(check) for check in checks], "seen": seen}
    text = msgspec.json.format(msgspec.json.encode(data, enc_hook=str)).decode()
    redact = redaction_of(options, os.environ).text
    path.write_text(redact(text) + "\n", encoding="utf-8")
