"""What ``agent-sdk batch`` writes on stderr as its tasks end and at its end, besides the
table: a line per task off a terminal (:func:`log_line`), then the failures, why and the
hint, and where the report is (:func:`finish`). docs/cli.md, "agent-sdk batch"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from ..fleet import Progress, TaskFinished, TaskRetrying
from ._batch_failures import failure_lines
from ._batch_table import BatchState, BatchTable, seconds, tokens_of, totals_line
from ._screen import fold

__all__ = ["finish", "log_line"]


def log_line(progress: Progress, budgets: Mapping[str, str] | None = None) -> str | None:
    """The line a stderr that is no terminal gets for ``progress``: one per retry and one
    per task as it ends, whole (a failed task's followed by the rest of why, indented,
    and the hint); ``None`` for the rest. ``budgets``: where the tasks file wrote a
    task's budget, by task id (:func:`~agent_sdk.cli.batch.read_tasks`)."""
    if isinstance(progress, TaskRetrying):
        error = type(progress.error).__name__
        return (
            f"↻ {progress.task_id}  attempt {progress.attempt} failed ({error}); "
            f"again in {progress.delay:.1f} s"
        )
    if not isinstance(progress, TaskFinished):
        return None
    outcome = progress.outcome
    parts = [seconds(outcome.elapsed), f"{outcome.tool_calls} tools"]
    parts += [f"{tokens_of(outcome.usage)} tokens"]
    if outcome.attempts > 1:
        parts.append(f"{outcome.attempts} attempts")
    line = f"{'✓' if outcome.ok else '✗'} {outcome.task.id}  {' · '.join(parts)}"
    if not outcome.ok:
        first, under = failure_lines(outcome.error, (budgets or {}).get(outcome.task.id))
        return "\n".join([f"{line} — {type(outcome.error).__name__}: {first}", *under])
    return line


def finish(
    state: BatchState,
    table: BatchTable | None,
    err: TextIO,
    html: str | None,
    width: int | None,
    budgets: Mapping[str, str] | None = None,
) -> None:
    """The last frame (or, off a terminal, the totals line), then each failed task with
    why and the hint, and where the report is.

    On a terminal (``width`` cells, ``None`` off one) these lines are folded at spaces,
    never cut: they are written once, after the last frame, and are there to be read
    whole (a cut path or hint is of no use). Off a terminal each failure was said as
    its task ended (:func:`log_line`). ``budgets`` as for :func:`log_line`.
    """
    if table is not None:
        table.draw()
    else:
        err.write(totals_line(state, state.ended or 0.0) + "\n")
    said: list[tuple[str, str]] = []  # (line, the indent of its folds)
    for record in state.records:
        outcome = record.outcome
        if outcome is not None and not outcome.ok and table is not None:
            first, under = failure_lines(outcome.error, (budgets or {}).get(record.id))
            said.append((f"✗ {record.id}: {type(outcome.error).__name__}: {first}", "  "))
            said += [(line, "  ") for line in under]
    if html:
        said.append((f"report: {html}", ""))  # a path folded with no indent in it
    for line, indent in said:
        parts = fold(line, width, indent=indent) if width else [line]
        err.write("".join(part + "\n" for part in parts))
    err.flush()
