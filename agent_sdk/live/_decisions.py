"""A decision made in Python for the agent: the user's callback, under ``decision_timeout``,
its failures kept from the agent (docs/live.md "Approvals"; docs/acp.md §3.7, §3.11, §4).

Whatever the callback does (returns, raises, hangs, ends in a cancellation that is not
ours) the request gets one answer: the callback's, or the safe one (reject, ``cancelled``)
chosen by the caller from the :class:`Verdict`. Its exception is kept in
``LiveAgent.callback_errors``; it is never sent to the agent.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable, MutableSet, Sequence
from typing import Any

import anyio
import anyio.lowlevel

from ._requests import CancelledOutcome, PermissionOption, SelectedOutcome

__all__ = ["Verdict", "call", "decide", "permission_outcome"]


class Verdict(enum.Enum):
    """How a decision ended."""

    DECIDED = "decided"  # the callback answered
    CANCELLED = "cancelled"  # the turn was cancelled while it decided (§3.7)
    FAILED = "failed"  # it timed out, raised, or ended in a cancellation not ours


async def call(func: Callable[[Any], Any], arg: Any) -> Any:
    """A callback that may be sync or async. A sync one runs in the event loop: it must
    not block (an async one can wait as long as the decision timeout allows)."""
    result = func(arg)
    if inspect.isawaitable(result):
        result = await result
    return result


async def decide(
    seconds: float,
    errors: list[BaseException],
    func: Callable[[Any], Any],
    arg: Any,
    scopes: MutableSet[anyio.CancelScope],
    cancelled: MutableSet[anyio.CancelScope],
) -> tuple[Verdict, Any]:
    """Run ``func(arg)`` for at most ``seconds`` (the agent's ``decision_timeout``),
    its failure appended to ``errors`` (the agent's ``callback_errors``); the scope it runs
    in is in ``scopes`` meanwhile (a cancel of the turn cancels it and adds it to
    ``cancelled``)."""
    with anyio.move_on_after(seconds) as scope:
        scopes.add(scope)
        try:
            return Verdict.DECIDED, await call(func, arg)
        except anyio.get_cancelled_exc_class() as exc:
            # Ours (the timeout, the turn's cancel, the agent closing) is still in force
            # and comes again here: re-raised, it ends this scope or the enclosing one.
            # Otherwise the callback awaited something cancelled elsewhere: its failure.
            await anyio.lowlevel.checkpoint_if_cancelled()
            errors.append(exc)
        except Exception as exc:  # the callback's bug: never a tool run, never a crash
            errors.append(exc)
        finally:
            scopes.discard(scope)
    return (Verdict.CANCELLED if scope in cancelled else Verdict.FAILED), None


def permission_outcome(
    decision: object, options: Sequence[PermissionOption]
) -> SelectedOutcome | CancelledOutcome:
    """The answer to send for a decision: the option of that ``kind`` (choose by kind, answer
    with the id, §3.11); a decision the options cannot express is a rejection."""
    if isinstance(decision, SelectedOutcome | CancelledOutcome):
        return decision
    allow = [str(decision)] if decision in ("allow_once", "allow_always") else []
    for kind in [*allow, "reject_once", "reject_always"]:
        for option in options:
            if option.kind == kind:
                return SelectedOutcome(option_id=option.option_id)
    return CancelledOutcome()  # `cancelled` is a rejection too (§3.11)
