"""``agent-sdk batch --json``: the summary of every task, one JSON document on stdout at
the end (docs/cli.md, "agent-sdk batch"). The HTML report is ``_report.py``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from ..fleet._summary import total_usage
from ._batch_table import TaskRecord
from ._batch_versions import distinct, outcome_version
from .hints import message_and_hint

__all__ = ["outcome_word", "summary_json"]

_WORD = {"queued": "not started", "running": "interrupted", "retrying": "interrupted"}


def outcome_word(record: TaskRecord) -> str:
    """``succeeded``, ``failed``, ``interrupted`` or ``not started``."""
    return _WORD.get(record.state, record.state)


def _json_record(record: TaskRecord, now: float, budget: str | None, fake: bool) -> dict[str, Any]:
    outcome = record.outcome
    said: dict[str, Any] = {
        "id": record.id,
        "ok": outcome is not None and outcome.ok,
        "status": outcome_word(record),
        "attempts": len(record.attempts),
        "elapsed": round(record.elapsed(now) or 0.0, 3),
        "tool_calls": record.tool_calls,
        "usage": msgspec.to_builtins(record.usage) if record.usage is not None else None,
        "cli_version": outcome_version(outcome) if outcome is not None else None,
        "fake_agent": fake,
        "error": None,
        "changes": None,
    }
    if outcome is not None and not outcome.ok:
        error = outcome.error
        message, hint = message_and_hint(error, budget=budget)
        said["error"] = {"class": type(error).__name__, "message": message}
        if hint:
            said["error"]["hint"] = hint
    if outcome is not None and outcome.changes is not None:
        changes = outcome.changes
        said["changes"] = {
            "added": list(changes.added),
            "modified": list(changes.modified),
            "deleted": list(changes.deleted),
        }
    return said


def summary_json(
    records: list[TaskRecord],
    wall_time: float,
    stopped: str | None,
    budgets: Mapping[str, str] | None = None,
    fakes: Collection[str] = (),
) -> str:
    """The ``--json`` document: counts, failures by class, the CLI versions that ran, then
    every task in the file's order (``status``: succeeded, failed, interrupted or not
    started; ``cli_version``: that of its last run, ``null`` when unknown). ``budgets``:
    where the tasks file wrote a task's budget, by task id (for the hint of one spent);
    ``fakes``: the ids of the tasks that ran on the bundled fake agent (``fake_agent``)."""
    budgets = budgets or {}
    results = [
        _json_record(record, wall_time, budgets.get(record.id), record.id in fakes)
        for record in records
    ]
    failures = Counter(item["error"]["class"] for item in results if item["error"] is not None)
    summary = {
        "tasks": len(results),
        "succeeded": sum(1 for item in results if item["ok"]),
        "failed": sum(1 for item in results if item["status"] == "failed"),
        "stopped": stopped,
        "failures": dict(sorted(failures.items(), key=lambda kv: (-kv[1], kv[0]))),
        "retries": sum(max(item["attempts"] - 1, 0) for item in results),
        "wall_time": round(wall_time, 3),
        "tool_calls": sum(item["tool_calls"] for item in results),
        "usage": msgspec.to_builtins(total_usage(record.usage for record in records)),
        "cli_versions": distinct(a.cli_version for r in records for a in r.attempts),
        "results": results,
    }
    return json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
