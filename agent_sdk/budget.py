"""Budgets: how much a run, a :class:`~agent_sdk.Session`, a fleet or a live session may
do before agent_sdk stops it (docs/budgets.md).

A :class:`Budget` is a value: pass it as ``AgentOptions(budget=...)`` (a run, a session's
turns together, each run of a fleet's tasks, each session of a ``LiveAgent``) or as
``Fleet(budget=...)`` (all of a fleet's tasks together). The SDK counts as the events
arrive; the event that goes over a limit is delivered, then the run is stopped (its
process group ended, or a live turn cancelled) and an
:class:`~agent_sdk.AgentBudgetError` says which limit, the figures and how to raise it.

Wall time is not a budget: it is ``AgentOptions(timeout=...)`` (a run, a session's
turn) and ``LiveAgent(turn_timeout=...)``, which raise
:class:`~agent_sdk.AgentTimeoutError`.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from ._options.keywords import KeywordsMeta
from .errors import AgentConfigError

__all__ = ["Budget", "kind_word"]

_KINDS: frozenset[str] = frozenset(
    {
        # print mode (docs/protocol.md §3.4): the wire kind as words, `ToolCall` dropped
        "read", "write", "edit", "shell", "grep", "glob", "ls", "delete", "update todos",
        "mcp", "get mcp tools", "create plan", "task", "function", "web search",
        "web fetch", "sem search", "read lints", "read todos", "ask question",
        # the live agent (docs/acp.md §3.10): ACP's kinds, `execute` being `shell`
        "search", "fetch", "move", "think", "other", "switch mode",
    }
)  # fmt: skip

# A pattern, compiled (and cached by `re`) on first use: compiling it costs `import
# agent_sdk` 0.3 ms, and only budgets by kind read it (docs/benchmarks.md).
_WORD = r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])"


def kind_word(kind: str) -> str:
    """A tool call's kind (``event.kind``, the wire key) in the words a budget uses:
    ``"shellToolCall"`` is ``"shell"``, ``"updateTodosToolCall"`` ``"update todos"``; a
    live call's ACP kind is itself (``"edit"``), ``execute`` being ``"shell"``.

    Example::

        kind_word("readToolCall")  # "read"
    """
    words = re.findall(_WORD, kind.removesuffix("ToolCall"))
    return " ".join(word.lower() for word in words) or "tool call"


class Budget(msgspec.Struct, frozen=True, kw_only=True, metaclass=KeywordsMeta):
    """Limits agent_sdk enforces as the events arrive; ``None`` (the default) is no limit.

    Attributes:
        tool_calls: tool calls the agent may start, all kinds together.
        tool_calls_by_kind: tool calls of one kind, by the kind in words
            (:attr:`kinds`: ``"shell"``, ``"edit"``, ``"read"``, ``"mcp"``...).
        turns: runs that may start: a :class:`~agent_sdk.Session`'s turns (an
            ``output_type``'s corrections included), a live session's prompts, a
            fleet's runs (retries included). A plain run is one.
        tokens: tokens that may be used, every count of the CLI's ``usage`` together
            (input, output, cache reads and writes). Print mode reports usage only in
            a run's last event (docs/protocol.md §3.7), so this limit cannot stop the
            run that goes over it: it stops the **next** one (a session's next turn, a
            fleet's next run). The live agent reports no usage at all (docs/acp.md
            §3.9): a live session refuses this limit.

    The event that goes over a limit is delivered, then the run is stopped and
    :class:`~agent_sdk.AgentBudgetError` raised. Wall time is ``AgentOptions.timeout``.

    Raises:
        AgentConfigError: a limit that is not a whole number >= 0, or a kind this SDK
            does not know (a typo would limit nothing).

    Example::

        options = AgentOptions(budget=Budget(tool_calls=20, tool_calls_by_kind={"shell": 3}))
    """

    kinds: ClassVar[frozenset[str]] = _KINDS
    """The kinds ``tool_calls_by_kind`` knows, in words (docs/budgets.md)."""

    tool_calls: int | None = None
    tool_calls_by_kind: Mapping[str, int] | None = None
    turns: int | None = None
    tokens: int | None = None

    def __post_init__(self) -> None:
        for name in ("tool_calls", "turns", "tokens"):
            _check_limit(name, getattr(self, name))
        by_kind = self.tool_calls_by_kind
        if by_kind is None:
            return
        if not isinstance(by_kind, Mapping):
            raise AgentConfigError(
                f"Budget(tool_calls_by_kind=...) must be a dict, not {type(by_kind).__name__}",
                hint="e.g. Budget(tool_calls_by_kind={'shell': 3})",
            )
        for kind, limit in by_kind.items():
            if kind not in _KINDS:
                raise AgentConfigError(
                    f"Budget(tool_calls_by_kind=...): unknown kind {kind!r}",
                    hint=f"use the kinds in words: {', '.join(sorted(_KINDS))}",
                )
            _check_limit(f"tool_calls_by_kind[{kind!r}]", limit)
        # Kept as a plain dict: a value that pickles and compares as one.
        msgspec.structs.force_setattr(self, "tool_calls_by_kind", dict(by_kind))

    def __repr__(self) -> str:
        set_ = (f"{name}={value!r}" for name, value in self.__rich_repr__())
        return f"Budget({', '.join(set_)})"

    def __rich_repr__(self) -> list[tuple[str, Any]]:
        """The limits that are set."""
        return [
            (name, getattr(self, name))
            for name in self.__struct_fields__
            if getattr(self, name) is not None
        ]


def _check_limit(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= 0:
        return
    shown = repr(value)
    raise AgentConfigError(
        f"Budget({name}={shown[:80]}): a limit must be a whole number >= 0 (an int) or None",
        hint="e.g. Budget(tool_calls=20); None is no limit",
    )
