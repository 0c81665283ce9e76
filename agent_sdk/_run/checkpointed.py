"""A checkpointed run (docs/sessions.md, "Checkpointed runs"): the working tree snapshot
before the CLI starts, held as a run in progress while it lasts (a rewind of that tree is
refused meanwhile, in any process), snapshot again at its end, and what it changed.

Used by a print-mode run (``AgentOptions(checkpoint=True)``, so a ``Session``'s turns
too), a live turn (``session.run(prompt, checkpoint=True)``) and a fleet's task. Loaded
only by them: a run that asks for no checkpoint imports nothing of it.
"""

from __future__ import annotations

import contextlib
import enum
import os
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import msgspec

from .._transport.log import WARNING, log
from ..changes import Checkpoint
from ..checkpoints._checkpoints import changes, checkpoint, finish
from ..checkpoints._git import open_repo
from ..checkpoints._lock import Hold, hold
from ..errors import AgentCheckpointError, AgentError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from ..changes import Changes
    from ..options import AgentOptions
    from ..result import RunResult

__all__ = ["END_LIMIT", "Checkpointed", "asked_by_option", "over", "tree_of"]

_R = TypeVar("_R", bound="RunResult[Any]")

END_LIMIT = 120.0
"""Seconds the snapshot after a run may take (a tree of 50,000 files takes well under one,
docs/sessions.md, "Costs"): past them the checkpoint stays unfinished, and said so."""


class _Phase(enum.Enum):
    HELD = "held"  # the run goes on: the tree is held, the checkpoint not finished
    ENDED = "ended"  # finished (or failed to), the tree let go


def tree_of(options: AgentOptions) -> str:
    """The directory a print-mode run works in: its ``workspace`` (relative to its
    ``cwd``), else its ``cwd``, else the current directory."""
    cwd = os.path.expanduser(os.fspath(options.cwd)) if options.cwd is not None else "."
    if options.workspace is None:
        return cwd
    return os.path.join(cwd, os.path.expanduser(os.fspath(options.workspace)))


def asked_by_option(exc: AgentCheckpointError) -> AgentCheckpointError:
    """``exc``, the failure of a checkpoint ``AgentOptions(checkpoint=True)`` asked for, as
    the option's: the message names it, the hint says to drop it (``--checkpoint`` on the
    command line, cli/hints.py)."""
    asked = "AgentOptions(checkpoint=True)"
    return AgentCheckpointError(
        f"{asked}: {exc.message}",
        reason=exc.reason,
        paths=exc.paths,
        hint=(exc.hint or "").replace("a checkpoint", asked) or None,
    )


async def over(
    options: AgentOptions, work: Callable[[AgentOptions], Awaitable[RunResult[Any]]]
) -> RunResult[Any]:
    """``work`` (several runs: an output's corrections) under one checkpoint, its runs
    given none of their own; the result, or the error, carries it."""
    try:
        done = await Checkpointed.begin(tree_of(options), options.new_session_id or options.resume)
    except AgentCheckpointError as exc:
        raise asked_by_option(exc) from exc
    try:
        result = await work(msgspec.structs.replace(options, checkpoint=False))
    except AgentError as error:
        await done.end()
        from .._options.redaction import redaction_of

        done.attach(error, redaction_of(options, os.environ).text)
        raise
    finally:
        await done.end()  # cancelled too: shielded, bounded
    return done.given_to(result)


class Checkpointed:
    """One run's checkpoint: made by :meth:`begin`, ended by :meth:`end` (once; later
    calls do nothing). ``checkpoint`` is the checkpoint (finished once ended, when the
    snapshot after the run worked), ``changes`` what the run changed (once ended)."""

    def __init__(self, cp: Checkpoint, held: contextlib.ExitStack) -> None:
        self.checkpoint = cp
        self.changes: Changes | None = None
        self._held = held
        self._phase = _Phase.HELD

    @classmethod
    async def begin(cls, cwd: str | os.PathLike[str], label: str | None) -> Checkpointed:
        """Hold the tree ``cwd`` is in as a run in progress, then snapshot it.

        Raises:
            AgentCheckpointError: ``cwd`` is not in a git working tree (or git is
                missing), a rewind is in progress there, or the snapshot failed.
        """
        repo = await open_repo(cwd)
        held = contextlib.ExitStack()
        # Held before the snapshot: no rewind can slip between it and the run.
        held.enter_context(hold(repo.git_dir, Hold.RUN, label))
        try:
            cp = await checkpoint(cwd, label=label)
        except BaseException:
            held.close()
            raise
        return cls(cp, held)

    async def end(self) -> None:
        """The run is over (however it ended): snapshot the tree after it, let the tree
        go, and work out what it changed. Shielded from a cancellation (the run's own,
        often) and bounded by :data:`END_LIMIT`; a failure is logged, never raised: the
        run's own outcome goes on, with ``checkpoint.after`` unset."""
        if self._phase is _Phase.ENDED:
            return
        self._phase = _Phase.ENDED
        with anyio.move_on_after(END_LIMIT, shield=True) as scope:
            try:
                try:
                    self.checkpoint = await finish(self.checkpoint)
                finally:
                    self._held.close()
                self.changes = await changes(self.checkpoint)
            except AgentCheckpointError as exc:
                log("checkpoint", WARNING, "checkpoint %s: %s", self.checkpoint.id, exc)
        self._held.close()
        if scope.cancelled_caught:
            log(
                "checkpoint",
                WARNING,
                "checkpoint %s: the snapshot after the run took over %g s: left unfinished",
                self.checkpoint.id,
                END_LIMIT,
            )

    def release(self) -> None:
        """Let the tree go at once, unfinished (a run dropped without being closed)."""
        self._phase = _Phase.ENDED
        self._held.close()

    def given_to(self, result: _R) -> _R:
        """``result`` with the checkpoint and the changes."""
        return msgspec.structs.replace(result, checkpoint=self.checkpoint, changes=self.changes)

    def attach(self, error: AgentError, redact: Callable[[str], str] | None = None) -> None:
        """Put the checkpoint and the changes in ``error``'s context (``redact``: the
        diff as the error's other texts are, docs/errors.md)."""
        found = self.changes
        if found is not None and redact is not None:
            found = msgspec.structs.replace(found, diff=redact(found.diff))
        error.context = msgspec.structs.replace(
            error.context, checkpoint=self.checkpoint, changes=found
        )
