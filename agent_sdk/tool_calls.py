"""Tool calls as objects: a ``started`` event paired with its ``completed`` by ``call_id``
(:class:`ToolCall`, defined in ``_wire/tool_call.py`` with the subagent a call may be); what
their outcome means (:data:`ToolCallStatus`); the plan of a plan-mode run."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from ._wire.tool_call import ToolCall
from ._wire.tool_call_events import pair_calls, started_of
from ._wire.tool_status import ToolCallStatus
from .events import Event, ToolCallCompleted, ToolCallStarted

if TYPE_CHECKING:
    from .tools import PlanTodo

__all__ = ["Plan", "ToolCall", "ToolCallStatus"]


class ToolCallTracker:
    """Pairs tool-call events as they stream, in any order (parallel calls included),
    and keeps every call."""

    __slots__ = ("_calls", "_plan_id", "_plans_started")

    def __init__(self) -> None:
        self._calls: dict[str, ToolCall] = {}
        self._plan_id: str | None = None
        self._plans_started: set[str] = set()

    def add(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """Record an event; return the :class:`ToolCall` it belongs to, as known now."""
        return self._add(event, True)

    def add_all(self, events: Sequence[ToolCallStarted | ToolCallCompleted]) -> None:
        """Record events, in their order (a stream's block of them at once)."""
        maybe_plan = _may_start_a_plan(events)
        for event in events:
            self._add(event, maybe_plan)

    def _add(self, event: ToolCallStarted | ToolCallCompleted, maybe_plan: bool) -> ToolCall:
        call = self._calls.get(event.call_id) or ToolCall(event.call_id)
        if isinstance(event, ToolCallStarted):
            call = ToolCall(call.call_id, event, call.completed)
        else:
            call = ToolCall(call.call_id, call.started, event)
        self._calls[event.call_id] = call
        if event is call.started:
            may_be_plan = maybe_plan  # see _may_start_a_plan
        else:
            may_be_plan = _may_be_plan(event, call.started, self._plans_started)
        if may_be_plan and _is_plan(event):
            self._plan_id = event.call_id
            if event is call.started:
                self._plans_started.add(event.call_id)
        return call

    @property
    def plan(self) -> Plan | None:
        """The plan of the latest ``createPlanToolCall`` seen, if any."""
        call = self._calls.get(self._plan_id) if self._plan_id is not None else None
        return Plan.of(call) if call is not None else None

    def call_of(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event belongs to, as known now."""
        call = self._calls.get(event.call_id)
        return call if call is not None else _alone(event)

    def get(self, call_id: str) -> ToolCall | None:
        return self._calls.get(call_id)

    @property
    def calls(self) -> list[ToolCall]:
        """All calls, in the order they were first seen."""
        return list(self._calls.values())


class RunningToolCalls:
    """Pairs tool-call events as they stream, holding only the calls still running, so
    memory stays flat however long the stream (a run that keeps no events).

    A ``completed`` event carries its ``started`` event from then on, so
    :meth:`call_of` pairs them for as long as someone holds the ``completed`` event.
    """

    __slots__ = ("_plan", "_plans_started", "running", "starts")

    def __init__(self) -> None:
        self.running: dict[str, ToolCallStarted] = {}
        """The calls started and not completed yet, by ``call_id``. A stream's decoder
        pairs the tool calls of a block through it, in its one pass over the block
        (``_wire/decode.py``); :meth:`add_all` pairs them here."""
        self.starts: list[Any] = []
        """The payloads of the starts paired since the plan was last looked for."""
        self._plan: ToolCall | None = None
        self._plans_started: set[str] = set()

    def add(self, event: ToolCallStarted | ToolCallCompleted) -> None:
        """Record an event."""
        self.add_all((event,))

    def add_all(self, events: Sequence[ToolCallStarted | ToolCallCompleted]) -> None:
        """Record events, in their order: pair them, then look for the plan."""
        self.look_for_plan(events, pair_calls(events, self.running, self.starts))

    def look_for_plan(self, events: Sequence[Event], unpaired: Sequence[Event]) -> None:
        """Look for the plan among ``events`` (a block's, in order: the events that are
        not tool calls are passed over), once they are paired; ``unpaired`` are the
        completions among them whose start was not seen. The stream calls this once per
        block of its output: it is on the hot path of every streamed run
        (docs/benchmarks.md).

        The plan is looked for event by event only in a block that may hold one (nearly
        never): the ``started`` payloads paired since the last look (:attr:`starts`)
        are searched once, joined."""
        starts = self.starts
        plans_started = self._plans_started
        if (
            unpaired  # their own kind must be read (see _may_be_plan)
            or (plans_started and _completes_a_plan(events, plans_started))
            or (starts and _may_name_plan(starts))
        ):
            self._find_plan(events)
        if starts:
            starts.clear()

    def _find_plan(self, events: Sequence[Event]) -> None:
        # The plan rules, event by event, on events already paired; the plans started
        # before them are as they were when they came.
        plans_started = self._plans_started
        for event in events:
            if type(event) is ToolCallStarted:
                if _is_plan(event):
                    self._plan = ToolCall(event.call_id, event)
                    plans_started.add(event.call_id)
                continue
            if type(event) is not ToolCallCompleted:
                continue
            if started_of(event) is not None:  # paired
                if event.call_id not in plans_started:
                    continue  # see _may_be_plan
                plans_started.discard(event.call_id)
            if _is_plan(event):
                self._plan = self.call_of(event)

    @property
    def plan(self) -> Plan | None:
        """The plan of the latest ``createPlanToolCall`` seen, if any: kept although
        the call is no longer running, so a run that keeps no events still has it."""
        return Plan.of(self._plan) if self._plan is not None else None

    def call_of(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        """The :class:`ToolCall` an event belongs to: a ``started`` event's call is
        running; a ``completed`` event's call has both events, if ``started`` was seen."""
        if isinstance(event, ToolCallCompleted):
            return ToolCall(event.call_id, started_of(event), event)
        return _alone(event)

    @property
    def calls(self) -> list[ToolCall]:
        """The calls still running, in the order they started."""
        return [ToolCall(started.call_id, started) for started in self.running.values()]


# A plan call is told from its kind; to keep the payload of every other call undecoded,
# the kind is read only from a call whose first bytes name it (the kind object comes
# first on the wire, after a few short sibling keys at most).
_PLAN_KIND = "createPlanToolCall"
_PLAN_KEY = b'"' + _PLAN_KIND.encode() + b'"'
# Only the head is searched: scanning a 200 KB read result whole, for every call, cost a
# sixth of a streamed run's decoding (docs/benchmarks.md).
_PLAN_SCAN = 128


def _is_plan(event: ToolCallStarted | ToolCallCompleted) -> bool:
    # Searched in the raw bytes (a buffer: nothing is copied), then confirmed by the kind.
    # Only a block that names the kind gets here (_may_name_plan): the pattern is compiled
    # then, not by `import agent_sdk` (docs/benchmarks.md).
    found = re.compile(_PLAN_KEY).search(event.tool_call, 0, _PLAN_SCAN)
    return found is not None and event.kind == _PLAN_KIND


# A single payload above this size is searched alone, in its head (a huge line is a
# block of its own): the join would copy it.
_JOIN_AT_MOST = 1 << 20


def _may_start_a_plan(events: Sequence[ToolCallStarted | ToolCallCompleted]) -> bool:
    """Whether a ``started`` event among ``events`` may name the plan kind; if not,
    :func:`_is_plan` is false for each of them."""
    return _may_name_plan([e.tool_call for e in events if type(e) is not ToolCallCompleted])


def _may_name_plan(payloads: list[msgspec.Raw]) -> bool:
    """Whether one of these payloads may name the plan kind in its head; if not,
    :func:`_is_plan` is false for the events that hold them: each payload is whole in
    the join, so a key absent from it is absent from every head. One search over the
    payloads joined costs a fraction of a search per event, most of whose cost is its
    set-up (docs/benchmarks.md, issue 24); a match in a payload's tail only costs the
    exact search of its head.

    The join is a copy of at most the block the payloads came from, freed at once; a
    single payload is a block of its own when it is large (one long line), and is then
    not copied."""
    if not payloads:
        return False
    if len(payloads) == 1 and len(payloads[0]) > _JOIN_AT_MOST:
        return True  # its head alone is searched, by _is_plan
    return _PLAN_KEY in b"".join(payloads)


def _completes_a_plan(events: Sequence[Event], plans_started: set[str]) -> bool:
    # A paired completion of a call that started as a plan: the plan gets its outcome.
    return any(type(e) is ToolCallCompleted and e.call_id in plans_started for e in events)


def _may_be_plan(
    event: ToolCallStarted | ToolCallCompleted,
    started: ToolCallStarted | None,
    plans_started: set[str],
) -> bool:
    # A call's kind is told once, from its first event: the completion of a call that
    # started as another kind is not searched (the search cost about 2,000 instructions
    # per tool call on the hot path, docs/benchmarks.md, issue 24).
    return event is started or started is None or event.call_id in plans_started


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """The plan of a run in plan mode (``AgentOptions(mode="plan")``), as the agent wrote
    it in its ``createPlanToolCall``: in such a run the reply is only narration.

    Attributes:
        markdown: the plan, in markdown.
        name: its title.
        overview: a short summary.
        todos: its steps (:class:`~agent_sdk.tools.PlanTodo`).
        phases: as the CLI sent them (only ever seen empty).
        is_project: the CLI's ``isProject``.
        uri: the CLI's ``planUri``, beside the call's outcome; ``None`` when absent or
            empty (the CLI has been seen to send ``""``).
        call: the tool call it came from (its ``status`` says whether it was blocked).

    Example::

        result = run_sync("Plan the cart refactor", AgentOptions(mode="plan"))
        if result.plan is not None:
            print(result.plan.markdown)
    """

    markdown: str
    name: str = ""
    overview: str = ""
    todos: list[PlanTodo] = msgspec.field(default_factory=list)
    phases: list[Any] = msgspec.field(default_factory=list)
    is_project: bool = False
    uri: str | None = None
    call: ToolCall | None = None

    @classmethod
    def of(cls, call: ToolCall) -> Plan | None:
        """The plan a ``createPlanToolCall`` holds; ``None`` for another call, or one
        whose arguments do not have the plan's shape."""
        from .tools import CreatePlanArgs

        args = call.args
        if call.kind != _PLAN_KIND or not isinstance(args, CreatePlanArgs):
            return None
        uri = call.completed.result_extras.get("planUri") if call.completed else None
        return cls(
            markdown=args.plan,
            name=args.name,
            overview=args.overview,
            todos=list(args.todos),
            phases=list(args.phases),
            is_project=args.is_project,
            uri=uri if isinstance(uri, str) and uri else None,
            call=call,
        )


def _alone(event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
    if isinstance(event, ToolCallStarted):
        return ToolCall(event.call_id, event)
    return ToolCall(event.call_id, None, event)


def calls_of(events: Iterable[Event]) -> list[ToolCall]:
    """The tool calls among some events, paired, in the order they were first seen."""
    tracker = ToolCallTracker()
    for event in events:
        if isinstance(event, (ToolCallStarted, ToolCallCompleted)):
            tracker.add(event)
    return tracker.calls
