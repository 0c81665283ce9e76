"""What ``agent-sdk --checkpoint`` says after a run (docs/cli.md, "Checkpoints"): the
files it changed and the command that undoes it, as summary lines, or as the last JSON
line of ``--json``. A run without a checkpoint loads nothing of the checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import msgspec

if TYPE_CHECKING:
    from .._options.redaction import Redaction
    from ..changes import Changes, Checkpoint

__all__ = [
    "SHOWN_PATHS",
    "Kept",
    "changes_json",
    "changes_lines",
    "checkpoint_said",
    "undo_command",
]

SHOWN_PATHS = 10
"""Paths listed under the summary at most; the rest are counted."""

_MARKS = (("added", "+"), ("modified", "~"), ("deleted", "-"))


class Kept:
    """What a run leaves besides its events: its checkpoint and changes (``--checkpoint``)."""

    def __init__(self) -> None:
        self.checkpoint: Checkpoint | None = None
        self.changes: Changes | None = None


def undo_command(cp: Checkpoint, *, force: bool = False) -> str:
    """The command that rewinds ``cp``: ``--cwd`` only when the current directory is
    not in its tree."""
    import shlex

    words = ["agent-sdk", "rewind", cp.id]
    here = Path.cwd().resolve()
    root = Path(cp.root)
    if here != root and root not in here.parents:
        words += ["--cwd", cp.root]
    if force:
        words.append("--force")
    return shlex.join(words)


def _counted(changes: Changes) -> str:
    total = len(changes.files)
    said = [f"{len(getattr(changes, kind))} {kind}" for kind, _ in _MARKS if getattr(changes, kind)]
    return f"{total} file{'s' if total != 1 else ''}: {', '.join(said)}"


def changes_lines(cp: Checkpoint | None, changes: Changes | None) -> list[str]:
    """The summary's lines about a checkpointed run (unfolded: the renderer fits them to
    the terminal); none when the run was not checkpointed (it failed before)."""
    if cp is None:
        return []
    if changes is None:  # the snapshot after the run failed: rewind needs --force
        return [
            "  changes  unknown: the snapshot after the run failed (its checkpoint is unfinished)",
            f"  undo     {undo_command(cp, force=True)}",
        ]
    if not changes.files:
        return ["  changes  none"]
    lines = [f"  changes  {_counted(changes)}"]
    marked = sorted((path, mark) for kind, mark in _MARKS for path in getattr(changes, kind))
    lines += [f"           {mark} {path}" for path, mark in marked[:SHOWN_PATHS]]
    if len(marked) > SHOWN_PATHS:
        lines.append(f"           … and {len(marked) - SHOWN_PATHS} more")
    lines.append(f"  undo     {undo_command(cp)}")
    return lines


def changes_json(cp: Checkpoint, changes: Changes | None) -> str:
    """The last line of ``--json`` for a checkpointed run: ``{"type": "checkpoint",
    "checkpoint": {...}, "changes": {added, modified, deleted} or null, "undo": ...}``."""
    said: dict[str, object] = {
        "type": "checkpoint",
        "checkpoint": msgspec.to_builtins(cp),
        "changes": None,
        "undo": undo_command(cp, force=changes is None),
    }
    if changes is not None:
        said["changes"] = {kind: list(getattr(changes, kind)) for kind, _ in _MARKS}
    return msgspec.json.encode(said).decode()


def checkpoint_said(kept: Kept, json_out: TextIO | None, redaction: Redaction) -> list[str]:
    """A checkpointed run's changes: the summary's lines, or, with ``--json`` (``json_out``),
    its last line, written now (docs/cli.md, "Checkpoints"). Nothing without one."""
    if kept.checkpoint is None:
        return []
    if json_out is not None:
        json_out.write(redaction.text(changes_json(kept.checkpoint, kept.changes)) + "\n")
        json_out.flush()
        return []
    return [redaction.text(line) for line in changes_lines(kept.checkpoint, kept.changes)]
