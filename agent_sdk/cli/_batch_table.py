"""What ``agent-sdk batch`` knows of its tasks while they run, and how it shows them.

:class:`BatchState` follows the fleet's progress and keeps, per task, only what the table
and the report need: its attempts (start and end, for the timeline), a summary of each
tool call that ended, the reply of its last attempt, its outcome. No event is kept.

:class:`BatchTable` draws the live table on a terminal: one row per task, redrawn in
place (cursor up, erase to the end of the screen), never more lines than the screen has
(a frame taller than the screen would scroll, and the rows that left could never be
erased), every line cut to the width (docs/cli.md). :class:`BatchLog` is the view for a
stderr that is no terminal: one line per task as it ends.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TextIO

from .._options.redaction import Redaction, redaction_of
from .._wire.reply import end_message, joined
from ..events import (
    AssistantEvent,
    ResultEvent,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    Usage,
)
from ..fleet import (
    Progress,
    Task,
    TaskEvent,
    TaskFinished,
    TaskOutcome,
    TaskRetrying,
    TaskStarted,
)
from ..fleet._summary import total_usage
from ..options import AgentOptions
from ..tool_calls import ToolCall
from ._batch_failures import reason
from ._batch_versions import error_version, outcome_version
from ._lines import DIM, GREEN, RED, YELLOW, painted
from ._screen import cells, cut
from .labels import command_failure, failure_detail, result_detail, tool_label

__all__ = [
    "AttemptRecord",
    "BatchState",
    "BatchTable",
    "CallRecord",
    "TaskRecord",
    "compact",
    "seconds",
    "tokens_of",
    "totals_line",
]

State = Literal["queued", "running", "retrying", "succeeded", "failed", "interrupted"]
# Each state's mark, its colour, and the word a wide row says it with.
_MARKS: dict[State, tuple[str, str, str]] = {
    "queued": ("·", DIM, "queued"),
    "running": ("▸", YELLOW, "running"),
    "retrying": ("↻", YELLOW, "retrying"),
    "succeeded": ("✓", GREEN, "done"),
    "failed": ("✗", RED, "failed"),
    "interrupted": ("■", RED, "stopped"),
}
# Below this many cells a row drops its state word (its mark says it) and its tokens.
_WIDE = 64
_LAST = 12  # cells a row keeps for its last column (a tool call, a failure): ids cut first


@dataclass
class CallRecord:
    """A tool call that ended (or was cut short): what the report lists."""

    label: str
    attempt: int
    duration_ms: int | None
    status: str  # succeeded, failed, blocked, other, unfinished
    detail: str = ""


@dataclass
class AttemptRecord:
    """One run of a task, in seconds from the batch's start."""

    number: int
    start: float
    end: float | None = None
    error: str | None = None  # the class of the failure that ended it, if any
    cli_version: str | None = None  # the CLI's whole version string, when known


@dataclass
class TaskRecord:
    """What the batch knows of one task."""

    index: int
    task: Task
    redaction: Redaction
    state: State = "queued"
    attempts: list[AttemptRecord] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    running: dict[str, ToolCallStarted] = field(default_factory=dict)
    tool_calls: int = 0
    usage: Usage | None = None
    last: str = ""
    text: list[str] = field(default_factory=list)  # the reply of the current attempt
    outcome: TaskOutcome | None = None
    ended: float | None = None

    @property
    def id(self) -> str:
        return self.task.id

    @property
    def reply(self) -> str:
        """The reply (§3.3): the result's on success, else what the last attempt wrote."""
        if self.outcome is not None and self.outcome.ok:
            return self.redaction.text(self.outcome.result.text)
        return self.redaction.text(joined(self.text))

    def elapsed(self, now: float) -> float | None:
        if self.outcome is not None:
            return self.outcome.elapsed
        if not self.attempts:
            return None
        return (self.ended if self.ended is not None else now) - self.attempts[0].start


def _call_record(call: ToolCall, attempt: int, redaction: Redaction) -> CallRecord:
    label = redaction.text(tool_label(call.kind, call.args))
    if call.completed is None:
        return CallRecord(label, attempt, None, "unfinished")
    failed = command_failure(call.result)
    if failed:
        return CallRecord(label, attempt, call.duration_ms, "failed", failed)
    status = call.status or "other"
    if status == "succeeded":
        detail = result_detail(call.result)
    else:
        detail = ": ".join(filter(None, [call.outcome or "", failure_detail(call.result)]))
    return CallRecord(label, attempt, call.duration_ms, status, redaction.text(detail))


class BatchState:
    """Every task's record, kept up to date from the fleet's progress
    (:meth:`update` is the fleet's ``on_progress``)."""

    def __init__(self, tasks: list[Task]) -> None:
        environ = dict(os.environ)
        self.records = [
            TaskRecord(i, task, redaction_of(task.options or AgentOptions(), environ))
            for i, task in enumerate(tasks)
        ]
        self._by_id = {record.id: record for record in self.records}
        self.started = time.monotonic()
        self.ended: float | None = None

    def record(self, task_id: str) -> TaskRecord:
        return self._by_id[task_id]

    def now(self) -> float:
        """Seconds since the batch started."""
        return time.monotonic() - self.started

    def update(self, progress: Progress) -> None:
        if isinstance(progress, TaskEvent):
            self._event(self._by_id[progress.task_id], progress)
        elif isinstance(progress, TaskStarted):
            record = self._by_id[progress.task_id]
            record.state = "running"
            record.attempts.append(AttemptRecord(progress.attempt, self.now()))
            record.text = []
            record.last = "starting"
        elif isinstance(progress, TaskRetrying):
            record = self._by_id[progress.task_id]
            record.state = "retrying"
            self._end_attempt(record, type(progress.error).__name__, error_version(progress.error))
            record.last = f"attempt {progress.attempt} failed: {type(progress.error).__name__}"
        elif isinstance(progress, TaskFinished):
            outcome = progress.outcome
            record = self._by_id[outcome.task.id]
            record.outcome = outcome
            record.state = "succeeded" if outcome.ok else "failed"
            error = None if outcome.ok else type(outcome.error).__name__
            self._end_attempt(record, error, outcome_version(outcome))
            record.ended = self.now()
            record.tool_calls, record.usage = outcome.tool_calls, outcome.usage
            if outcome.ok:
                record.last = record.calls[-1].label if record.calls else ""
            else:
                record.last = reason(outcome.error)

    def _event(self, record: TaskRecord, progress: TaskEvent) -> None:
        event = record.redaction.event(progress.event)
        if isinstance(event, ToolCallStarted):
            end_message(record.text)
            record.running[event.call_id] = event
            record.tool_calls += 1
            record.last = record.redaction.text(tool_label(event.kind, event.args))
        elif isinstance(event, ToolCallCompleted):
            started = record.running.pop(event.call_id, None)
            call = ToolCall(event.call_id, started, event)
            record.calls.append(_call_record(call, len(record.attempts), record.redaction))
            if not record.running:
                record.last = "done: " + record.calls[-1].label
        elif isinstance(event, AssistantEvent):
            if event.new_text:
                record.text.append(event.new_text)
                if not record.running:
                    record.last = "writing"
        elif isinstance(event, ThinkingDelta):
            if not record.running:
                record.last = "thinking"
        elif isinstance(event, ResultEvent) and event.usage is not None:
            record.usage = total_usage((record.usage, event.usage))

    def _end_attempt(self, record: TaskRecord, error: str | None, version: str | None) -> None:
        for started in record.running.values():  # cut short with their run
            call = ToolCall(started.call_id, started)
            record.calls.append(_call_record(call, len(record.attempts), record.redaction))
        record.running.clear()
        if record.attempts and (last := record.attempts[-1]).end is None:
            last.end, last.error, last.cli_version = self.now(), error, version

    def interrupt(self) -> None:
        """The batch was stopped: running tasks end as interrupted, queued ones stay."""
        for record in self.records:
            if record.state in ("running", "retrying"):
                record.state = "interrupted"
                self._end_attempt(record, "interrupted", None)
                record.ended = self.now()
        self.finish()

    def finish(self) -> None:
        if self.ended is None:
            self.ended = self.now()

    def counts(self) -> dict[State, int]:
        counts: dict[State, int] = dict.fromkeys(_MARKS, 0)
        for record in self.records:
            counts[record.state] += 1
        return counts


def compact(count: int) -> str:
    """``950``, ``18.2k``, ``1.3M``: a token count in a few cells."""
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def seconds(value: float | None) -> str:
    """``0.8 s``, ``75.2 s``, ``14m05s``; ``-`` for none."""
    if value is None:
        return "-"
    if value < 1000:
        return f"{value:.1f} s"
    return f"{int(value // 60)}m{int(value % 60):02d}s"


def tokens_of(usage: Usage | None) -> str:
    return compact(usage.input_tokens + usage.output_tokens) if usage is not None else "-"


def totals_line(state: BatchState, now: float) -> str:
    """``30 tasks · 12 ✓ · 1 ✗ · 4 running · 13 queued · 5.2 s · 40 tools · 12.3k tokens``."""
    counts = state.counts()
    parts = [f"{len(state.records)} tasks"]
    words: tuple[tuple[State, str], ...] = (
        ("succeeded", "✓"),
        ("failed", "✗"),
        ("running", "running"),
        ("retrying", "retrying"),
        ("interrupted", "stopped"),
        ("queued", "queued"),
    )
    parts += [f"{counts[name]} {word}" for name, word in words if counts[name]]
    usage = total_usage(record.usage for record in state.records)
    parts += [
        seconds(now),
        f"{sum(r.tool_calls for r in state.records)} tools",
        f"{compact(usage.input_tokens + usage.output_tokens)} tokens",
    ]
    return " · ".join(parts)


class BatchTable:
    """The live table on a terminal: see the module's docstring.

    Args:
        state: the batch's records.
        err: the terminal.
        color: paint the marks.
        size: ``() -> (columns, rows)`` of the terminal, asked at every frame.
    """

    def __init__(
        self,
        state: BatchState,
        err: TextIO,
        *,
        color: bool,
        size: Callable[[], tuple[int, int]],
    ) -> None:
        self.state = state
        self.err = err
        self.color = color
        self._size = size
        self._drawn = 0  # lines of the frame on screen
        self._id_width = min(max([cells(r.id) for r in state.records] + [4]), 24)

    def frame(self, columns: int, rows: int) -> list[str]:
        """The lines of one frame: at most ``rows - 1``, each under ``columns`` cells."""
        now = self.state.ended if self.state.ended is not None else self.state.now()
        width = max(columns - 1, 1)  # the last cell stays free (docs/cli.md)
        totals = cut(totals_line(self.state, now), width)
        room = rows - 1
        if room < 3:
            return [totals][: max(room, 0)] or []
        records = self.state.records
        shown = records
        more = ""
        if len(records) > room - 2:
            shown = self._pick(room - 3)
            hidden = [r for r in records if r not in shown]
            counts: dict[str, int] = {}
            for record in hidden:
                word = _MARKS[record.state][2]
                counts[word] = counts.get(word, 0) + 1
            said = ", ".join(f"{n} {word}" for word, n in counts.items())
            more = cut(f"… {len(hidden)} more ({said})", width)
        ids = self._ids(width)
        header = f"  {'task':<{ids}} "
        if width >= _WIDE:
            header += f"{'state':<8} {'time':>7} {'tools':>5} {'tokens':>6}  last"
        else:
            header += f"{'time':>7} {'tools':>5}  last"
        lines = [painted(cut(header, width), DIM, color=self.color)]
        lines += [self._row(record, now, width, ids) for record in shown]
        if more:
            lines.append(painted(more, DIM, color=self.color))
        lines.append(totals)
        return lines

    def _pick(self, count: int) -> list[TaskRecord]:
        """The rows worth showing when not all fit: the running ones, then the failed
        and the latest ended (most recent first), then the next queued; in task order."""

        def rank(record: TaskRecord) -> tuple[int, float]:
            if record.state in ("running", "retrying"):
                return (0, record.attempts[0].start if record.attempts else 0.0)
            if record.state in ("failed", "interrupted"):
                return (1, -(record.ended or 0.0))
            if record.state == "succeeded":
                return (2, -(record.ended or 0.0))
            return (3, float(record.index))

        picked = sorted(self.state.records, key=rank)[: max(count, 0)]
        return sorted(picked, key=lambda record: record.index)

    def _ids(self, width: int) -> int:
        """The id column's cells: the longest id's (at most 24), less what a narrow
        terminal needs for the row's last column, where a failure says why."""
        fixed = 34 if width >= _WIDE else 18  # the row but for its id and last
        return max(min(self._id_width, width - fixed - _LAST), 4)

    def _row(self, record: TaskRecord, now: float, width: int, ids: int) -> str:
        mark, colour, word = _MARKS[record.state]
        if record.state == "running" and len(record.attempts) > 1:
            word = f"try {len(record.attempts)}"
        name = cut(record.id, ids)
        name += " " * (ids - cells(name))
        figures = (
            f"{seconds(record.elapsed(now)):>7} {record.tool_calls if record.attempts else '-':>5}"
        )
        if width >= _WIDE:
            plain = f"{name} {word:<8} {figures} {tokens_of(record.usage):>6}  "
        else:  # the mark says the state; the totals line, the tokens
            plain = f"{name} {figures}  "
        line = cut(plain + record.last.replace("\n", " "), width - 2)
        return f"{painted(mark, colour, color=self.color)} {line}"

    def draw(self) -> None:
        """Draw a frame over the last one."""
        columns, rows = self._size()
        lines = self.frame(columns, rows)
        up = f"\x1b[{self._drawn}A" if self._drawn else ""
        self.err.write("\r" + up + "\x1b[J" + "".join(line + "\n" for line in lines))
        self.err.flush()
        self._drawn = len(lines)
