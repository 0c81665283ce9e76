"""What a :class:`~agent_sdk.budget.Budget`'s owner has spent, counted as events arrive,
and the :class:`~agent_sdk.AgentBudgetError` of a limit reached (docs/budgets.md).

One :class:`Spending` per owner: a run, a session (its turns share it), a fleet (its
runs share it, each also counting in its own run's), a live session. A run counts only
when it has one: an unset budget adds nothing to the events' path (docs/benchmarks.md,
"Budgets"). Once a limit is reached the spending stays spent: whatever shares it stops
at its next tool call, and no run that shares it starts.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import msgspec

from .._wire.tool_kind import kind_in
from ..budget import Budget, kind_word
from ..errors import AgentBudgetError, ErrorContext
from ..events import Event, ResultEvent, ToolCallCompleted, ToolCallStarted, Usage

__all__ = ["Hit", "OwnCalls", "Spending", "budget_error", "first_over", "joined"]


class Hit(NamedTuple):
    """A limit reached: which, the figures, and whose budget it was."""

    limit: str
    kind: str | None
    used: int
    allowed: int
    scope: str


class Spending:
    """The counts of one budget's owner.

    Args:
        budget: the limits.
        scope: whose they are, in the error's words (``"run"``, ``"session"``,
            ``"fleet"``, ``"live session"``).
        parent: a wider budget this one's counts also go to (a fleet's, for each of its
            runs); its limits stop this owner too.
    """

    __slots__ = (
        "_by_kind",
        "budget",
        "by_kind",
        "hit",
        "parent",
        "scope",
        "tokens",
        "tool_calls",
        "turns",
    )

    def __init__(self, budget: Budget, scope: str, parent: Spending | None = None) -> None:
        self.budget = budget
        self.scope = scope
        self.parent = parent
        self.tool_calls = 0
        self.by_kind: dict[str, int] = {}
        self.turns = 0
        self.tokens = 0
        self.hit: Hit | None = None
        """The first limit reached: from then on the spending is spent."""
        self._by_kind = budget.tool_calls_by_kind or {}

    def begin(self) -> Hit | None:
        """A run (a turn) is about to start: the limit that forbids it, or ``None`` (and
        the turn is counted)."""
        if self.hit is None:
            budget = self.budget
            if budget.tokens is not None and self.tokens >= budget.tokens:
                self.hit = Hit("tokens", None, self.tokens, budget.tokens, self.scope)
            elif budget.turns is not None and self.turns >= budget.turns:
                self.hit = Hit("turns", None, self.turns + 1, budget.turns, self.scope)
            else:
                self.turns += 1
        if self.hit is not None:
            return self.hit
        return self.parent.begin() if self.parent is not None else None

    def tool_call(self, event: ToolCallStarted | None, word: str | None = None) -> Hit | None:
        """The agent started a tool call (``event``, or one of the kind ``word``): the
        limit it goes over, or ``None``."""
        if self.hit is None:
            budget = self.budget
            self.tool_calls += 1
            if self._by_kind:
                if word is None:
                    assert event is not None
                    word = _word_of(event)
                used = self.by_kind[word] = self.by_kind.get(word, 0) + 1
                allowed = self._by_kind.get(word)
                if allowed is not None and used > allowed:
                    self.hit = Hit("tool_calls_by_kind", word, used, allowed, self.scope)
            if self.hit is None:
                self.hit = self._over_all(budget)
        own = self.hit
        # The wider budget counts the call too, whether or not this one went over.
        wider = self.parent.tool_call(event, word) if self.parent is not None else None
        return own if own is not None else wider

    def own_call(self) -> Hit | None:
        """A call of the run's own tools reached its host, before it runs: counted now, as
        an ``mcp`` call (docs/budgets.md, "Your own tools"); the limit it goes over."""
        return self.tool_call(None, "mcp")

    def take(self, calls: int) -> bool:
        """Count ``calls`` tool calls at once if none of them can reach a limit, here or
        in the wider budgets (no kind's limit, which must see each call); else count
        nothing and say so (they are then counted one by one)."""
        level: Spending | None = self
        while level is not None:
            budget = level.budget
            if level.hit is not None or level._by_kind:
                return False
            if budget.tool_calls is not None and level.tool_calls + calls > budget.tool_calls:
                return False
            if calls and budget.tokens is not None and level.tokens >= budget.tokens:
                return False
            level = level.parent
        level = self
        while level is not None:
            level.tool_calls += calls
            level = level.parent
        return True

    def _over_all(self, budget: Budget) -> Hit | None:
        if budget.tool_calls is not None and self.tool_calls > budget.tool_calls:
            return Hit("tool_calls", None, self.tool_calls, budget.tool_calls, self.scope)
        if budget.tokens is not None and self.tokens >= budget.tokens:
            # Spent by another run of this budget (a fleet's): this one stops here too.
            return Hit("tokens", None, self.tokens, budget.tokens, self.scope)
        return None

    def used(self, usage: Usage | None) -> None:
        """A run reported its usage (its ``result`` event): count its tokens."""
        if usage is None:
            return
        tokens = (
            usage.input_tokens
            + usage.output_tokens
            + usage.cache_read_tokens
            + usage.cache_write_tokens
        )
        self.tokens += tokens
        if self.parent is not None:
            self.parent.used(usage)


def joined(own: Spending | None, shared: Spending | None, *, inside: bool) -> Spending | None:
    """What a run counts against once given ``shared`` (a session's, a fleet's): that
    instead of its own, or, ``inside``, its own counting into it too (a fleet's budget
    over a task's)."""
    if shared is None:
        return own
    if inside and own is not None:
        own.parent = shared
        return own
    return shared


# The keys of a call's payload, their values left undecoded: its kind without parsing its
# arguments (a 40 MB write), which event.kind would (docs/benchmarks.md, "Budgets").
_KEYS = msgspec.json.Decoder(dict[str, msgspec.Raw])


# Kinds in words by a payload's first key, as met: every capture puts the kind first.
# Only a key that names a print-mode kind, which the parse takes whatever follows it;
# bounded, as a hostile stream may name many.
_WORDS: dict[bytes, str] = {}


def _word_of(event: ToolCallStarted) -> str:
    """A call's kind in words (``budget.kind_word``), as cheaply as it can be read: by
    its payload's first key when that names a kind seen before."""
    head = bytes(memoryview(event.tool_call)[:80])
    end = head.find(b'"', 2)
    key = head[2:end] if head[:2] == b'{"' and head[end + 1 : end + 2] == b":" else b""
    word = _WORDS.get(key) if key else None
    if word is None:
        kind = _kind_of(event)
        word = kind_word(kind)
        named = key.endswith(b"ToolCall") or key == b"function"
        if named and key == kind.encode() and len(_WORDS) < 256:
            _WORDS[key] = word
    return word


def _kind_of(event: ToolCallStarted) -> str:
    """The wire kind of a call, as ``event.kind`` says it (``_wire/tool_payloads.py``), read from
    its payload's keys alone, their values undecoded."""
    try:
        return kind_in(_KEYS.decode(event.tool_call))
    except msgspec.DecodeError:
        return event.kind  # not an object of keys: what the parse makes of it


class OwnCalls(Protocol):
    """The calls of the run's own tools, counted by its host (``_run/tool_budget.py``)."""

    def is_own(self, event: ToolCallStarted) -> bool: ...
    def started(self) -> Hit | None: ...
    def overdue(self, ended: bool = False) -> Hit | None: ...


def first_over(
    spending: Spending, events: list[Event], result: bool, own: OwnCalls | None = None
) -> tuple[int, Hit] | None:
    """Count a read's ``events``: how many of them to deliver (up to the tool call that
    goes over a limit) and the limit, or ``None`` while within the budget. ``result``:
    the run has its ``result`` event (in this read or an earlier one). ``own``: the run
    serves tools of its own, whose calls its host counted (not counted again here).

    A run with a budget calls it once per read, so it is on the hot path: the events'
    types are listed and counted in C, and a read whose calls all fit a budget with no
    kind's limit is counted in one step; only then are calls looked at one by one
    (docs/benchmarks.md, "Budgets")."""
    if result or own is not None:  # at a run's end; a run given tools and a budget
        return _one_by_one(spending, events, own)
    kinds = list(map(type, events))
    if spending.take(kinds.count(ToolCallStarted)):
        return None
    index = -1
    try:
        while True:
            index = kinds.index(ToolCallStarted, index + 1)
            hit = spending.tool_call(events[index])  # type: ignore[arg-type]
            if hit is not None:
                return index + 1, hit
    except ValueError:  # no call left
        return None


def _one_by_one(
    spending: Spending, events: list[Event], own: OwnCalls | None = None
) -> tuple[int, Hit] | None:
    for index, event in enumerate(events):
        kind = type(event)
        if kind is ToolCallStarted:
            started: ToolCallStarted = event  # type: ignore[assignment]
            hit = own.started() if own and own.is_own(started) else spending.tool_call(started)
            if hit is not None:
                return index + 1, hit
            continue
        ended = kind is ResultEvent
        if ended:
            spending.used(event.usage)  # type: ignore[union-attr]
        # A call of ours refused after its start was read: the run stops at the next
        # completion (the refused call's at the latest), or at its result.
        stop = own is not None and (ended or kind is ToolCallCompleted)
        if stop and (hit := own.overdue(ended)) is not None:  # type: ignore[union-attr]
            return index + 1, hit
    return None


def budget_error(hit: Hit, context: ErrorContext, *, then: str) -> AgentBudgetError:
    """The error of ``hit``: which limit, the figures, what was done (``then``: "its
    process group was ended..."), and how to raise it. Not yet redacted."""
    allowed = hit.allowed
    if hit.limit == "tool_calls":
        what = f"the agent started tool call {hit.used}, over the {allowed} allowed"
    elif hit.limit == "tool_calls_by_kind":
        what = f"the agent started {hit.kind} call {hit.used}, over the {allowed} allowed"
    elif hit.limit == "turns":
        what = f"turn {hit.used} would go over the {allowed} allowed"
    else:
        what = f"{hit.used} tokens were used, of the {allowed} allowed"
    where = {
        "fleet": "Fleet(budget=...)",
        "live session": "the LiveAgent's AgentOptions(budget=...)",
    }.get(hit.scope, "AgentOptions(budget=...)")
    hint = f"raise it in {where}, e.g. {_setting(hit, max(allowed * 2, 1))}"
    if context.session_id is not None and hit.scope != "live session":
        hint += ", and go on in the chat with AgentOptions(resume=session_id)"
    return AgentBudgetError(
        f"the {hit.scope}'s budget is spent: {what} ({_setting(hit, allowed)}); {then}",
        limit=hit.limit,
        kind=hit.kind,
        used=hit.used,
        allowed=allowed,
        scope=hit.scope,
        context=context,
        hint=hint,
    )


def _setting(hit: Hit, limit: int) -> str:
    """The limit as it is written: ``Budget(tool_calls_by_kind={'shell': 3})``."""
    if hit.kind is not None:
        return f"Budget(tool_calls_by_kind={{{hit.kind!r}: {limit}}})"
    return f"Budget({hit.limit}={limit})"
