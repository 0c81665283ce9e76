"""The report of ``agent-sdk batch --html REPORT``: one static, self-contained file
(``--json``'s summary is ``_batch_json.py``).

A pure function (:func:`build_report`) of what the batch collected: the summary, a
timeline of every run (one bar per attempt, from its start to its end, relative to the
batch's start, coloured by how it ended; the wait before a retry as a thin line), then a
section per task (prompt, reply, tool calls with durations and outcomes, the error, the
diff). Everything the agent or the tasks file wrote is escaped (:func:`html.escape`), and
the page's Content-Security-Policy allows no script and no request at all: a reply holding
``<script>`` is shown as text, and opening the file reaches no network.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..fleet._summary import total_usage
from ._batch_json import outcome_word
from ._batch_table import AttemptRecord, CallRecord, TaskRecord, compact, seconds
from ._batch_versions import distinct
from ._lines import tokens
from .hints import message_and_hint

__all__ = ["ReportData", "build_report"]


@dataclass(frozen=True)
class ReportData:
    """What the report shows.

    Attributes:
        title: the tasks file's name.
        started_at: when the batch started, as a person reads a date.
        wall_time: seconds from the batch's start to its end.
        records: every task's record, in the file's order.
        stopped: ``"interrupted"`` or ``"terminated"`` when the batch did not run to its
            end, else ``None``.
        budgets: where the tasks file wrote a task's budget, by task id (the hint of a
            spent one says to raise it there).
        fakes: the tasks that ran on the bundled fake agent, by id: the words saying so
            (``the bundled fake agent (scenario hello)``), on each of their runs.
    """

    title: str
    started_at: str
    wall_time: float
    records: list[TaskRecord]
    stopped: str | None = None
    budgets: Mapping[str, str] = field(default_factory=dict)
    fakes: Mapping[str, str] = field(default_factory=dict)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


_CSS = """
:root { --ok: #1a7f37; --bad: #cf222e; --retry: #bf8700; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
  color: #1f2328; background: #f6f8fa; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 0 0 8px; }
h3 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted);
  margin: 14px 0 6px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px;
  margin: 16px 0; }
.sub { color: var(--muted); margin: 0; }
.stopped { color: var(--bad); font-weight: 600; }
dl.summary, dl.facts { display: flex; flex-wrap: wrap; gap: 8px 28px; margin: 0; }
dl.summary div, dl.facts div { min-width: 90px; }
dt { color: var(--muted); font-size: 12px; } dd { margin: 0; font-size: 17px; font-weight: 600; }
dl.facts dd { font-size: 14px; }
ul.failures { margin: 8px 0 0; padding-left: 20px; }
.timeline .lane { display: flex; align-items: center; height: 22px; }
.timeline .name { width: 180px; flex: none; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; padding-right: 8px; color: inherit; text-decoration: none; }
.timeline .track { position: relative; flex: 1; height: 14px; background: #eaeef2;
  border-radius: 3px; }
.bar { position: absolute; top: 0; height: 14px; min-width: 3px; border-radius: 3px; }
.bar.succeeded { background: var(--ok); } .bar.failed { background: var(--bad); }
.bar.retried { background: var(--retry); }
.bar.interrupted { background: repeating-linear-gradient(45deg, var(--bad) 0 4px, #fff 4px 6px); }
.wait { position: absolute; top: 6px; height: 2px; background: var(--retry); }
.axis { display: flex; justify-content: space-between; margin-left: 180px; color: var(--muted);
  font-size: 12px; }
.legend span { margin-right: 14px; } .legend i { display: inline-block; width: 10px;
  height: 10px; border-radius: 2px; margin-right: 4px; }
.task h2 .mark { display: inline-block; width: 1.2em; }
.task[data-outcome=succeeded] h2 .mark { color: var(--ok); }
.task[data-outcome=failed] h2 .mark, .task[data-outcome=interrupted] h2 .mark { color: var(--bad); }
.fake { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 10px;
  background: #fff8c5; color: #7d4e00; margin-left: 8px; vertical-align: middle; }
.outcome { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 10px;
  background: #eaeef2; margin-left: 8px; vertical-align: middle; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 10px;
  margin: 0; overflow-x: auto; white-space: pre-wrap; word-break: break-word;
  font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.diff { white-space: pre; }
.diff .add { color: #116329; background: #dafbe1; display: block; }
.diff .del { color: #82071e; background: #ffebe9; display: block; }
.diff .hunk { color: #0550ae; background: #ddf4ff; display: block; }
.diff .meta { color: var(--muted); font-weight: 600; display: block; }
table.calls { border-collapse: collapse; width: 100%; }
table.calls th, table.calls td { text-align: left; padding: 3px 8px;
  border-bottom: 1px solid #eaeef2; vertical-align: top; }
table.calls td.label { font-family: ui-monospace, monospace; word-break: break-all; }
table.calls td.duration { white-space: nowrap; text-align: right; }
tr.call[data-status=succeeded] .call-outcome { color: var(--ok); }
tr.call[data-status=failed] .call-outcome { color: var(--bad); }
tr.call[data-status=blocked] .call-outcome, tr.call[data-status=unfinished] .call-outcome {
  color: var(--retry); }
.error { border-left: 4px solid var(--bad); padding-left: 12px; }
.error-class { font-weight: 700; color: var(--bad); } .hint { color: var(--muted); }
.none { color: var(--muted); font-style: italic; }
"""

_MARK = {"succeeded": "✓", "failed": "✗", "interrupted": "■"}


def duration_ms(value: int | None) -> str:
    """``169 ms`` below a second, ``1.2 s`` above; ``""`` for none."""
    if value is None:
        return ""
    return f"{value} ms" if value < 1000 else f"{value / 1000:.1f} s"


def _versions(attempts: Iterable[AttemptRecord]) -> str:
    """The CLI versions the attempts ran, or ``unknown`` (docs/cli.md)."""
    return ", ".join(distinct(a.cli_version for a in attempts)) or "unknown"


def _summary(data: ReportData) -> str:
    records = data.records
    outcomes = Counter(outcome_word(record) for record in records)
    failures = Counter(
        type(r.outcome.error).__name__
        for r in records
        if r.outcome is not None and not r.outcome.ok
    )
    usage = total_usage(r.usage for r in records)
    items: list[tuple[str, object]] = [
        ("tasks", len(records)),
        ("succeeded", outcomes["succeeded"]),
        ("failed", outcomes["failed"]),
    ]
    if data.stopped is not None:
        items += [
            ("interrupted", outcomes["interrupted"]),
            ("not started", outcomes["not started"]),
        ]
    items += [
        ("retries", sum(max(len(r.attempts) - 1, 0) for r in records)),
        ("wall time", seconds(data.wall_time)),
        ("task time", seconds(sum(r.elapsed(data.wall_time) or 0.0 for r in records))),
        ("tool calls", sum(r.tool_calls for r in records)),
        ("tokens", tokens(usage)),
        # Every build that ran: a batch can straddle the CLI's self-update (docs/cli.md).
        ("cli", _versions(a for r in records for a in r.attempts)),
    ]
    faked = sum(1 for r in records if r.id in data.fakes)
    if faked:
        some = "" if faked == len(records) else f": {faked} of {len(records)} tasks"
        items.append(("agent", f"the bundled fake agent{some}"))
    dl = "".join(
        f'<div data-key="{_e(key)}"><dt>{_e(key)}</dt><dd>{_e(value)}</dd></div>'
        for key, value in items
    )
    parts = [f'<dl class="summary">{dl}</dl>']
    if failures:
        lis = "".join(
            f'<li data-class="{_e(name)}"><b>{_e(name)}</b>: {count}</li>'
            for name, count in failures.most_common()
        )
        parts.append(f'<h3>Failures by class</h3><ul class="failures">{lis}</ul>')
    return "".join(parts)


def _attempt_outcome(record: TaskRecord, attempt: AttemptRecord) -> str:
    if attempt.error == "interrupted" or attempt.end is None:
        return "interrupted"
    if attempt is not record.attempts[-1]:
        return "retried"
    return "failed" if attempt.error else "succeeded"


def _timeline(data: ReportData) -> str:
    ends = [a.end or data.wall_time for r in data.records for a in r.attempts]
    scale = max([data.wall_time, *ends, 1e-3])

    def pct(value: float) -> str:
        return f"{max(0.0, min(value / scale, 1.0)) * 100:.3f}%"

    lanes = []
    for record in data.records:
        on_fake = ", on the bundled fake agent" if record.id in data.fakes else ""
        bars = []
        previous: AttemptRecord | None = None
        for attempt in record.attempts:
            end = attempt.end if attempt.end is not None else data.wall_time
            if previous is not None and previous.end is not None:
                bars.append(
                    f'<div class="wait" style="left:{pct(previous.end)};'
                    f'width:{pct(attempt.start - previous.end)}"></div>'
                )
            outcome = _attempt_outcome(record, attempt)
            said = f" ({attempt.error})" if attempt.error and attempt.error != "interrupted" else ""
            title = (
                f"{record.id} · attempt {attempt.number}: {attempt.start:.1f}–{end:.1f} s, "
                f"{outcome}{said}{on_fake}"
            )
            bars.append(
                f'<div class="bar {outcome}" data-attempt="{attempt.number}" '
                f'data-outcome="{outcome}" style="left:{pct(attempt.start)};'
                f'width:{pct(end - attempt.start)}" title="{_e(title)}"></div>'
            )
            previous = attempt
        lanes.append(
            f'<div class="lane" data-task="{_e(record.id)}">'
            f'<a class="name" href="#task-{record.index + 1}" title="{_e(record.id)}">'
            f'{_e(record.id)}</a><div class="track">{"".join(bars)}</div></div>'
        )
    ticks = "".join(f"<span>{seconds(scale * i / 4)}</span>" for i in range(5))
    legend = "".join(
        f'<span><i class="bar-key" style="background:var(--{var})"></i>{word}</span>'
        for var, word in (("ok", "succeeded"), ("bad", "failed"), ("retry", "retried attempt"))
    )
    return (
        f'<div class="timeline">{"".join(lanes)}</div><div class="axis">{ticks}</div>'
        f'<p class="legend sub">{legend}</p>'
    )


def _calls(calls: list[CallRecord], attempts: int) -> str:
    if not calls:
        return '<p class="none">no tool calls</p>'
    rows = []
    for call in calls:
        mark = {"succeeded": "✓", "blocked": "⊘", "unfinished": "…"}.get(call.status, "✗")
        said = call.detail or call.status
        attempt = f'<td class="attempt">{call.attempt}</td>' if attempts > 1 else ""
        rows.append(
            f'<tr class="call" data-status="{_e(call.status)}">{attempt}'
            f'<td class="label">{_e(call.label)}</td>'
            f'<td class="duration">{_e(duration_ms(call.duration_ms))}</td>'
            f'<td class="call-outcome">{mark} {_e(said)}</td></tr>'
        )
    head = "<th>attempt</th>" if attempts > 1 else ""
    return (
        f'<table class="calls"><thead><tr>{head}<th>tool call</th><th>duration</th>'
        f"<th>outcome</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _diff(diff: str) -> str:
    lines = []
    for line in diff.splitlines():
        if line.startswith(("+++", "---", "diff --git", "index ", "new file", "deleted file")):
            kind = "meta"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "del"
        elif line.startswith("@@"):
            kind = "hunk"
        else:
            lines.append(_e(line) + "\n")
            continue
        lines.append(f'<span class="{kind}">{_e(line)}</span>')
    return f'<pre class="diff">{"".join(lines)}</pre>'


def _section(record: TaskRecord, now: float, data: ReportData) -> str:
    outcome = outcome_word(record)
    fake = data.fakes.get(record.id)
    task = record.task
    facts = [
        ("attempts", len(record.attempts)),
        ("elapsed", seconds(record.elapsed(now))),
        ("tool calls", record.tool_calls),
        ("tokens", compact(u.input_tokens + u.output_tokens) if (u := record.usage) else "-"),
    ]
    if fake is not None:  # said on the run itself: no model was asked
        facts.append(("agent", f"{fake}: a scripted run, no model asked"))
    if record.attempts:
        facts.append(("cli", _versions(record.attempts)))
    if task.repo is not None:
        facts.append(("repo", f"{task.repo} @ {task.base}"))
    if record.outcome is not None and record.outcome.ok and record.outcome.result.session_id:
        facts.append(("session", record.outcome.result.session_id))
    dl = "".join(f"<div><dt>{_e(k)}</dt><dd>{_e(v)}</dd></div>" for k, v in facts)
    agent = ' data-agent="fake"' if fake else ""
    badge = '<span class="fake">fake agent</span>' if fake else ""
    reply = record.reply
    parts = [
        f'<section class="task card" id="task-{record.index + 1}" data-id="{_e(task.id)}" '
        f'data-outcome="{_e(outcome)}"{agent}>',
        f'<h2><span class="mark">{_MARK.get(outcome, "·")}</span> <span class="id">'
        f'{_e(task.id)}</span><span class="outcome">{_e(outcome)}</span>{badge}</h2>',
        f'<dl class="facts">{dl}</dl>',
        f'<h3>Prompt</h3><pre class="prompt">{_e(record.redaction.text(task.prompt))}</pre>',
        "<h3>Reply</h3>"
        + (f'<pre class="reply">{_e(reply)}</pre>' if reply else '<p class="none">no reply</p>'),
    ]
    if record.outcome is not None and not record.outcome.ok:
        error = record.outcome.error
        message, hint = message_and_hint(error, budget=data.budgets.get(record.id))
        shown_hint = f'<p class="hint">Hint: {_e(hint)}</p>' if hint else ""
        parts.append(
            f'<div class="error"><h3>Error</h3><p><span class="error-class">'
            f'{_e(type(error).__name__)}</span></p><pre class="error-message">'
            f"{_e(message)}</pre>{shown_hint}</div>"
        )
    parts.append(f"<h3>Tool calls ({len(record.calls)})</h3>")
    parts.append(_calls(record.calls, len(record.attempts)))
    changes = record.outcome.changes if record.outcome is not None else None
    if changes is not None:
        files = [("added", changes.added), ("modified", changes.modified)]
        files.append(("deleted", changes.deleted))
        said = "; ".join(f"{word}: {', '.join(paths)}" for word, paths in files if paths)
        parts.append(f'<h3>Changes</h3><p class="files">{_e(said or "none")}</p>')
        if changes.diff:
            parts.append(_diff(record.redaction.text(changes.diff)))
    parts.append("</section>")
    return "".join(parts)


def build_report(data: ReportData) -> str:
    """The report's HTML: a complete page, with no script and no external resource."""
    stopped = (
        f'<p class="stopped">The batch was {_e(data.stopped)}: what ended so far.</p>'
        if data.stopped
        else ""
    )
    sections = "".join(_section(record, data.wall_time, data) for record in data.records)
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>agent-sdk batch: {_e(data.title)}</title><style>{_CSS}</style></head>"
        f"<body><main><header><h1>agent-sdk batch: {_e(data.title)}</h1>"
        f'<p class="sub">started {_e(data.started_at)}</p>{stopped}</header>'
        f'<section class="card" id="summary"><h2>Summary</h2>{_summary(data)}</section>'
        f'<section class="card" id="timeline"><h2>Timeline</h2>{_timeline(data)}</section>'
        f"{sections}</main></body></html>\n"
    )
