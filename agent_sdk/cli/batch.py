"""``agent-sdk batch TASKS.jsonl``: run a file of tasks as a fleet, with a live table, a
JSON summary (``--json``) and a static HTML report (``--html``) (docs/cli.md).

Everything about the file is checked before anything runs: a bad line is a usage error
(exit 2) naming the line. Then the tasks run through :class:`~agent_sdk.fleet.Fleet`; the
table (a terminal) or one line per task (anything else) goes to stderr; ``--json`` writes
the summary, alone, on stdout at the end. Ctrl-C and SIGTERM cancel the fleet (every
CLI's process group ends with its task) and what ended so far is still reported.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time
from pathlib import Path
from typing import TextIO, get_args

import anyio

from ..errors import AgentConfigError
from ..fleet import Fleet, Isolation, Progress, RetryPolicy, Task
from ..options import AgentOptions
from ._batch_end import finish, log_line
from ._batch_json import summary_json
from ._batch_table import BatchState, BatchTable
from ._budget_arg import budget_arg
from ._fake_args import fake_agent_words
from ._parser import CommandParser
from ._report import ReportData, build_report
from ._screen import fold
from ._signals import SignalWatch
from ._tasks_file import TasksError, read_tasks
from .args import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    ColorMode,
    add_agent_flags,
    given_options,
    print_error,
    use_color,
)
from .hints import error_in_flag_terms
from .render import isatty

__all__ = ["TasksError", "batch_main", "batch_parser", "log_line", "read_tasks"]

_TICK = 0.1  # seconds between two frames of the table: at most 10 redraws a second

_EPILOG = """\
TASKS.jsonl holds one JSON object per line ('-': read it from stdin); blank lines are
skipped:

  {"prompt": "Fix the failing test", "id": "fix-cart", "repo": "~/src/shop",
   "base": "main", "options": {"model": "gpt-5", "force": true, "env": {"X": "1"}}}

  prompt   what to ask the agent (the only key required)
  id       the task's name, unique in the file (default: task-N, N its line)
  repo     a git repository to work in: with --isolate worktree, a new worktree of it
           made from base (the diff of what the agent left is in the report and the
           JSON); without, the repository itself. Relative to the current directory.
  base     the ref the worktree is made from (default HEAD)
  options  AgentOptions fields, over the agent flags given here (field by field; an
           env object is merged with --env's; a budget is an object of limits, as
           --budget writes it; tools and hooks are Python's alone)

Any other key, a value of the wrong type, an unknown option, a duplicate id, a line
that is not a JSON object or one nested too deep to decode is a usage error naming the
line, before anything runs.

On a terminal, stderr shows a live table, one row per task (state, time, tool calls,
tokens, last action), redrawn in place; when the tasks outnumber the rows, the running
ones, the failed and the latest ended are shown, the others counted on a '… N more' line.
Elsewhere, stderr gets one line per task as it ends. --json prints the summary as one
JSON document on stdout at the end, and nothing else there.

exit status: 0 every task succeeded; 1 one or more failed; 2 usage error (the file, a
flag); 130 interrupted (143 on SIGTERM): the runs are cancelled, and the report and the
JSON summary still say what ended so far.
"""


def batch_parser() -> argparse.ArgumentParser:
    """The parser of ``agent-sdk batch``."""
    parser = CommandParser(
        command="agent-sdk batch",
        prog="agent-sdk batch",
        description="Run a file of tasks, several at once, with a live table; write a JSON "
        "summary or an HTML report of every run.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "tasks", nargs="?", metavar="TASKS.jsonl", help="the tasks file; '-' reads stdin"
    )
    fleet = parser.add_argument_group("batch")
    fleet.add_argument(
        "--limit", type=int, default=4, metavar="N", help="tasks running at once (default 4)"
    )
    fleet.add_argument(
        "--isolate",
        default="",
        metavar="config,worktree",
        help="what each task gets of its own: config (a CURSOR_CONFIG_DIR seeded from "
        "yours), worktree (a git worktree of its repo); a comma list",
    )
    fleet.add_argument(
        "--retries",
        type=int,
        default=0,
        metavar="N",
        help="run a task that failed in a retriable way (the service or network gave up, the CLI's "
        "config race) up to N more times, waiting 1 s, 2 s, 4 s... (default 0)",
    )
    fleet.add_argument(
        "--keep-worktrees", action="store_true", help="leave each task's worktree in place"
    )
    fleet.add_argument(
        "--fleet-budget",
        type=budget_arg,
        metavar="JSON",
        help="limits of all the tasks together, as --budget writes them: over a limit the "
        "run that went over fails, and so does each task after it",
    )
    show = parser.add_argument_group("output")
    show.add_argument(
        "--json",
        action="store_true",
        help="print the summary as one JSON document on stdout at the end (counts, "
        "failures by class, each task's outcome, attempts, time, tool calls, tokens, error "
        "and changed files), and nothing else there",
    )
    show.add_argument(
        "--html",
        metavar="REPORT",
        help="write a static HTML report to REPORT at the end (also when interrupted): "
        "the summary, a timeline of every run, then each task's reply, tool calls and diff",
    )
    show.add_argument(
        "--color",
        choices=get_args(ColorMode),
        default="auto",
        help="ANSI colours in the table (auto: only on a terminal, and not if NO_COLOR is set)",
    )
    show.add_argument(
        "--fake",
        nargs="?",
        const="",
        default=None,
        metavar="SCENARIO",
        help="run the bundled fake agent instead of cursor-agent: SCENARIO is a bundled "
        "scenario's name (demo, the default; hello, cart, tools, crash, ...) or an .ndjson "
        "path; a task picks its own with options.env.FAKE_AGENT_SCENARIO. A lone word after "
        "--fake, with no TASKS.jsonl after it, is the tasks file",
    )
    add_agent_flags(parser)
    return parser


def _terminal_size(stream: TextIO) -> tuple[int, int]:
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, ValueError, OSError):
        return (80, 24)
    return (size.columns or 80, size.lines or 24)


async def _run(fleet: Fleet, table: BatchTable | None, signals: SignalWatch) -> None:
    """Run the fleet to its end, the table redrawn meanwhile; the first signal cancels it
    (its teardown runs to its end, whatever signal comes next)."""

    async def redraw(view: BatchTable) -> None:
        while True:
            view.draw()
            await anyio.sleep(_TICK)

    async with anyio.create_task_group() as group:
        await signals.start_in(group)
        if table is not None:
            group.start_soon(redraw, table)
        try:
            async with fleet:
                async for _ in fleet:
                    pass
        finally:
            group.cancel_scope.cancel()


def _parse(argv: list[str], stdin: TextIO) -> tuple[argparse.Namespace, list[Task], str]:
    """The arguments and the tasks, checked (``args.budgets``: see :func:`read_tasks`);
    ``SystemExit(2)`` on a usage error."""
    parser = batch_parser()
    args = parser.parse_args(argv)
    if args.tasks is None and args.fake:
        args.tasks, args.fake = args.fake, ""  # `--fake TASKS.jsonl`: no scenario named
    if args.tasks is None:
        parser.error("no TASKS.jsonl given ('-' reads the tasks from stdin)")
    words: list[str] = []
    defaults = given_options(parser, args, words)
    if words:
        parser.error(f"--fake: no scenario named {words[0]!r}")
    isolation = [word.strip() for word in args.isolate.split(",") if word.strip()]
    unknown = [word for word in isolation if word not in get_args(Isolation)]
    if unknown:
        parser.error(f"--isolate: unknown {', '.join(unknown)}: use config and/or worktree")
    if args.limit < 1:
        parser.error("--limit must be at least 1")
    if args.retries < 0:
        parser.error("--retries must be 0 or more")
    if args.html and not Path(args.html).resolve().parent.is_dir():
        parser.error(f"--html: no directory to write {args.html!r} in")
    args.isolation = isolation
    name = "stdin" if args.tasks == "-" else args.tasks
    try:
        text = stdin.read() if args.tasks == "-" else Path(args.tasks).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        parser.error(f"cannot read {name}: {reason}")
    try:
        args.budgets = {}
        worktrees = "worktree" in isolation
        tasks = read_tasks(text, defaults, worktrees=worktrees, name=name, budgets=args.budgets)
    except TasksError as exc:
        parser.error(str(exc))
    # Said on each of their runs in the report and the summary (docs/cli.md).
    fakes = ((task.id, fake_agent_words(task.options or AgentOptions())) for task in tasks)
    args.fakes = {task_id: words for task_id, words in fakes if words is not None}
    return args, tasks, Path(name).name


def batch_main(argv: list[str], out: TextIO, err: TextIO, stdin: TextIO) -> int:
    """``agent-sdk batch ARGV``: run the tasks; the exit status."""
    try:
        args, tasks, title = _parse(argv, stdin)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    state = BatchState(tasks)
    color = use_color(args.color, err, os.environ)
    table = BatchTable(state, err, color=color, size=lambda: _terminal_size(err))
    live = isatty(err)

    def follow(progress: Progress) -> None:
        state.update(progress)
        line = None if live else log_line(progress, args.budgets)
        if line is not None:
            err.write(line + "\n")
            err.flush()

    retry = RetryPolicy(attempts=args.retries + 1) if args.retries else None
    try:
        fleet = Fleet(
            tasks,
            limit=args.limit,
            isolation=args.isolation,
            retry=retry,
            keep_worktrees=args.keep_worktrees,
            on_progress=follow,
            budget=args.fleet_budget,
        )
    except AgentConfigError as exc:
        print_error(err, error_in_flag_terms(exc))  # e.g. its hint: --limit 1
        return EXIT_USAGE
    with SignalWatch() as signals:  # from here on, a signal never cuts the teardown short
        return _batch(args, fleet, state, table if live else None, signals, title, out, err)


def _batch(
    args: argparse.Namespace,
    fleet: Fleet,
    state: BatchState,
    table: BatchTable | None,
    signals: SignalWatch,
    title: str,
    out: TextIO,
    err: TextIO,
) -> int:
    """Run the fleet, then report it; the exit status."""
    started_at = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")
    state.started = time.monotonic()  # the timeline's zero
    anyio.run(_run, fleet, table, signals, backend="asyncio")
    stopped = signals.stopped.value if signals.stopped is not None else None
    if stopped is None:
        state.finish()
    else:
        state.interrupt()
    problem = None
    if args.html:
        data = ReportData(
            title=title,
            started_at=started_at,
            wall_time=state.ended or 0.0,
            records=state.records,
            stopped=stopped,
            budgets=args.budgets,
            fakes=args.fakes,
        )
        try:
            Path(args.html).write_text(build_report(data), encoding="utf-8")
        except OSError as exc:
            problem = f"cannot write the report {args.html!r}: {exc.strerror or exc}"
    if args.json:
        out.write(
            summary_json(state.records, state.ended or 0.0, stopped, args.budgets, args.fakes)
        )
        out.flush()
    width = _terminal_size(err)[0] - 1 if table is not None else None
    finish(state, table, err, args.html if problem is None else None, width, args.budgets)
    said = [problem] if problem else []
    if stopped is not None:
        said.append(f"{stopped}; the runs were cancelled and their CLIs ended")
    for message in said:
        line = f"agent-sdk: error: {message}"
        err.write("".join(part + "\n" for part in (fold(line, width) if width else [line])))
    err.flush()
    if signals.stopped is not None:  # also one that came as the report was written
        return signals.stopped.exit_status
    if problem is not None:
        return EXIT_FAILED
    return EXIT_OK if all(r.state == "succeeded" for r in state.records) else EXIT_FAILED
