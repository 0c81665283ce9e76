"""``agent-sdk rewind [CHECKPOINT_ID]`` and ``agent-sdk checkpoints``: undo a run made with
``--checkpoint``, and list (or prune) a tree's checkpoints (docs/cli.md, "Checkpoints").

Both act on the git working tree of ``--cwd`` (default: the current directory), through
``agent_sdk.checkpoints``: what a rewind puts back and when it refuses is in
docs/sessions.md, "Checkpoints". Exit status: 0 done; 1 refused (a run in progress, files
changed since the run, a checkpoint never finished) or git failed; 2 a usage error (a flag,
a ``--cwd`` that is no directory or not in a git working tree, an unknown id).
"""

from __future__ import annotations

import argparse
import os
from datetime import datetime
from typing import TextIO, cast

import anyio

from .. import checkpoints
from .._options.redaction import redaction_of
from ..checkpoints import Checkpoint, RewindResult
from ..errors import AgentCheckpointError, AgentConfigError
from ..options import AgentOptions
from ._parser import CommandParser
from .args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, print_error

__all__ = ["checkpoints_main", "checkpoints_parser", "rewind_main", "rewind_parser"]

# Reasons that are the command line's fault, not a refusal: exit 2.
_USAGE_REASONS = ("not_a_repository", "git_missing", "not_found")

_NEXT_STEP = {
    "changed_since": "save what you want to keep of them, then run {command} --force",
    "not_finished": "its run did not end normally (killed?): {command} --force puts back "
    "every file that differs from the checkpoint, your own changes too",
    "run_in_progress": "wait for the run to end (or stop it), then run {command} again",
}


def rewind_parser() -> argparse.ArgumentParser:
    """The parser of ``agent-sdk rewind``."""
    parser = CommandParser(
        command="agent-sdk rewind",
        prog="agent-sdk rewind",
        description="Undo a run made with --checkpoint: the files it modified or deleted are "
        "written back, those it added removed; no other file, nor git's index, is touched. "
        "Refused while a run is in progress in the tree, and when you changed the run's "
        "files since it ended (--force puts them back anyway). Exit status: 0 rewound; 1 "
        "refused; 2 usage error (a --cwd outside git, an unknown id).",
    )
    parser.add_argument(
        "id",
        nargs="?",
        metavar="CHECKPOINT_ID",
        help="the checkpoint to rewind to (default: the tree's newest; agent-sdk "
        "checkpoints lists them)",
    )
    parser.add_argument("--cwd", default=".", metavar="DIR", help="a directory of the tree")
    parser.add_argument(
        "--force",
        action="store_true",
        help="put the run's files back even if you changed them since, or if its "
        "checkpoint was never finished",
    )
    return parser


def checkpoints_parser() -> argparse.ArgumentParser:
    """The parser of ``agent-sdk checkpoints``."""
    parser = CommandParser(
        command="agent-sdk checkpoints",
        prog="agent-sdk checkpoints",
        description="List the checkpoints of a git working tree (one per run made with "
        "--checkpoint), oldest first: id, when, files changed, label. Exit status: 0; 1 git "
        "failed; 2 usage error.",
    )
    parser.add_argument("--cwd", default=".", metavar="DIR", help="a directory of the tree")
    parser.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help="first remove every checkpoint but the newest N (git gc then frees their files)",
    )
    return parser


def _when(moment: datetime | None) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S") if moment is not None else "-"


async def _chosen(cwd: str, wanted: str | None) -> Checkpoint:
    found = await checkpoints.list_checkpoints(cwd)
    if wanted is not None:
        for cp in found:
            if cp.id == wanted:
                return cp
        raise AgentCheckpointError(
            f"no checkpoint {wanted!r} in this tree",
            reason="not_found",
            hint="agent-sdk checkpoints lists the tree's checkpoints",
        )
    if not found:
        raise _NoCheckpointError
    return found[-1]  # the newest, finished or not: a killed run's is refused, said so


class _NoCheckpointError(Exception):
    """The tree has no checkpoint at all."""


async def _rewind(cwd: str, wanted: str | None, force: bool) -> tuple[Checkpoint, RewindResult]:
    cp = await _chosen(cwd, wanted)
    try:
        return cp, await checkpoints.rewind(cp, force=force)
    except AgentCheckpointError as exc:
        step = _NEXT_STEP.get(exc.reason)
        if step is not None:
            exc.hint = step.format(command=f"agent-sdk rewind {cp.id}")
        raise


def _said(result: RewindResult) -> list[str]:
    lines: list[str] = []
    for word, paths in (
        ("restored", result.restored),
        ("removed", result.removed),
        ("skipped", result.skipped),
    ):
        lines += [f"  {word:<9} {path}" for path in paths]
    if result.skipped:
        lines.append("  (skipped: a submodule, or a directory with files where a file was)")
    return lines


def _failed(err: TextIO, exc: AgentCheckpointError, cwd: str) -> int:
    if exc.reason == "not_a_repository":
        print_error(err, f"{cwd!r} is not in a git working tree: no checkpoint can be there")
        return EXIT_USAGE
    print_error(err, exc.message if exc.hint is None else f"{exc.message}\nHint: {exc.hint}")
    return EXIT_USAGE if exc.reason in _USAGE_REASONS else EXIT_FAILED


class _Masked:
    """A text stream whose writes have the environment's secrets masked: a rewind or a
    list names the files a run wrote, and a file's name or its label may hold a key the
    environment gives the CLI (docs/sessions.md; the same rule as a run's output). Each
    write here is whole lines, so no secret is split across two."""

    def __init__(self, target: TextIO) -> None:
        self.target = target
        self._mask = redaction_of(AgentOptions(), os.environ).text

    def write(self, text: str) -> int:
        self.target.write(self._mask(text))
        return len(text)

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return self.target.isatty()


def rewind_main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``agent-sdk rewind ARGV``; its exit status."""
    out, err = cast(TextIO, _Masked(out)), cast(TextIO, _Masked(err))
    try:
        args = rewind_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    if not os.path.isdir(os.path.expanduser(args.cwd)):
        print_error(err, f"--cwd {args.cwd!r} is not a directory")
        return EXIT_USAGE
    try:
        cp, result = anyio.run(_rewind, args.cwd, args.id, args.force, backend="asyncio")
    except AgentCheckpointError as exc:
        return _failed(err, exc, args.cwd)
    except _NoCheckpointError:
        print_error(err, "this tree has no checkpoint to rewind to")
        err.write("Hint: a run made with agent-sdk --checkpoint PROMPT has one\n")
        return EXIT_FAILED
    made = f"{cp.id}, made {_when(cp.created)}" + (f", {cp.label}" if cp.label else "")
    if not (result.restored or result.removed or result.skipped):
        out.write(f"nothing to put back: the run's files are as they were at {made}\n")
    else:
        out.write(f"rewound to checkpoint {made}\n")
        out.write("".join(line + "\n" for line in _said(result)))
    out.flush()
    return EXIT_OK


async def _listed(cwd: str, keep: int | None) -> tuple[list[Checkpoint], int, dict[str, int]]:
    removed = len(await checkpoints.prune(cwd, keep=keep)) if keep is not None else 0
    found = await checkpoints.list_checkpoints(cwd)
    counts = {cp.id: len((await checkpoints.changes(cp)).files) for cp in found if cp.after}
    return found, removed, counts


def checkpoints_main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``agent-sdk checkpoints ARGV``; its exit status."""
    out, err = cast(TextIO, _Masked(out)), cast(TextIO, _Masked(err))
    parser = checkpoints_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    if not os.path.isdir(os.path.expanduser(args.cwd)):
        print_error(err, f"--cwd {args.cwd!r} is not a directory")
        return EXIT_USAGE
    try:
        found, removed, counts = anyio.run(_listed, args.cwd, args.keep, backend="asyncio")
    except AgentConfigError:  # --keep below 0
        print_error(err, "--keep must be 0 or more")
        return EXIT_USAGE
    except AgentCheckpointError as exc:
        return _failed(err, exc, args.cwd)
    if removed:
        out.write(f"removed {removed} checkpoint{'s' if removed != 1 else ''}\n")
    if not found:
        out.write("no checkpoint in this tree\n")
    for cp in found:
        count = counts.get(cp.id)
        files = "unfinished" if count is None else f"{count} file{'s' if count != 1 else ''}"
        label = f"  {cp.label}" if cp.label else ""
        out.write(f"{cp.id}  {_when(cp.created)}  {files:<10}{label}".rstrip() + "\n")
    out.flush()
    return EXIT_OK
