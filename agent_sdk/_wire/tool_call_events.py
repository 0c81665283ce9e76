"""The ``tool_call`` events (docs/protocol.md §3.4): a call ``started``, and ``completed``
with its outcome. The wire ``tool_call`` object stays undecoded until a payload property is
read (``_wire/tool_payloads.py``), so a consumer that never opens one never pays for it.

Split from :mod:`agent_sdk.events`, which re-exports both: import them from there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from .event_base import _Event

if TYPE_CHECKING:
    from ..tools import ToolArgs, ToolResult
    from .tool_payloads import ParsedToolCall

__all__ = [
    "ToolCallCompleted",
    "ToolCallStarted",
    "custom_tool_of",
    "pair_calls",
    "set_custom_tool",
    "started_of",
]


class _Worked:
    # What the SDK works out about a tool-call event, beside its fields: its parsed
    # payload (on first access) and, for a completion, its start (when the stream saw it).
    # Slots, not a __dict__: the events are then neither given a dict nor tracked by the
    # garbage collector, which cost about 180 instructions per event on the hot path
    # (docs/benchmarks.md, issue 24, third round). A slot not set yet raises
    # AttributeError.
    __slots__ = ("_custom_tool", "_parsed_payload", "_started")

    if TYPE_CHECKING:
        _parsed_payload: ParsedToolCall
        _started: ToolCallStarted
        _custom_tool: Any  # an extend._served.CustomToolCall (not imported: a layer up)


class _ToolCallBase(msgspec.Struct, _Worked, frozen=True, kw_only=True, tag_field="type", gc=False):
    # _Event's fields and repr, redeclared: two bases with slots of their own cannot be
    # combined (CPython's layout rule), so this class does not derive from _Event.
    session_id: str | None = None
    timestamp_ms: int | None = None

    __repr__ = _Event.__repr__


class _ToolCallEvent(_ToolCallBase, tag="tool_call", frozen=True):
    call_id: str = ""
    """Opaque key pairing ``started`` with ``completed``; real ids contain a newline."""
    tool_call: msgspec.Raw = msgspec.Raw(b"{}")
    """The wire ``tool_call`` object, undecoded until :attr:`kind`, :attr:`args`, ...
    are read; if it is not a JSON object, they are empty (``kind == ""``)."""
    model_call_id: str | None = None

    @property
    def _parsed(self) -> ParsedToolCall:
        # Decoded on first access only: a consumer that never opens a payload (a 40 MB
        # file read) never pays for it; the tools module loads on first use too.
        try:
            return self._parsed_payload
        except AttributeError:
            from .tool_payloads import parse_tool_call

            parsed = parse_tool_call(self.tool_call)
            msgspec.structs.force_setattr(self, "_parsed_payload", parsed)
            return parsed

    @property
    def kind(self) -> str:
        """The tool kind, the wire key: ``"readToolCall"``, ``"shellToolCall"``, ..."""
        return self._parsed.kind

    @property
    def args(self) -> ToolArgs | None:
        """Typed arguments (:class:`~agent_sdk.tools.ReadArgs`, ...), a dict for unknown kinds."""
        return self._parsed.args

    @property
    def label(self) -> str:
        """The call in a few words, as the command line and the web page show it:
        ``read src/cart.py``, ``$ pytest -q``, ``web search python decimal``."""
        from .tool_labels import tool_label  # with the payload: only when asked

        return tool_label(self.kind, self.args)

    @property
    def tool_call_id(self) -> str | None:
        return self._parsed.tool_call_id

    @property
    def started_at_ms(self) -> int | None:
        return self._parsed.started_at_ms

    @property
    def extras(self) -> dict[str, Any]:
        """The keys of the kind object beside ``args`` and ``result``, as plain values
        (2026.10: a shell call's ``description``); empty if none."""
        return self._parsed.extras

    @property
    def description(self) -> str | None:
        """The agent's own words for the call (a shell call's ``description``, beside
        its ``args`` or among them), when the CLI sends them."""
        return self._parsed.description

    @property
    def hook_additional_contexts(self) -> list[Any]:
        """``hookAdditionalContexts``, beside the kind: what hooks added to the agent's
        context about this call, as plain values (docs/protocol.md §6.4). Empty in
        every run seen so far: the shape of an entry is not known."""
        return self._parsed.hook_contexts


class ToolCallStarted(_ToolCallEvent, tag="tool_call", frozen=True):
    """The agent started a tool call."""

    type: ClassVar[str] = "tool_call"
    subtype: Literal["started"] = "started"


class ToolCallCompleted(_ToolCallEvent, tag="tool_call", frozen=True):
    """A tool call finished; :attr:`outcome` and :attr:`result` say how."""

    type: ClassVar[str] = "tool_call"
    if TYPE_CHECKING:
        subtype: Literal["completed"] = "completed"
    else:
        # Every tool_call line decodes straight into this class, a start included, which
        # the decoder then turns into a ToolCallStarted (``_wire/line_shapes.py``): msgspec
        # tells the classes of a union by ``type`` only, and building the event from
        # another struct cost about 1,000 instructions per call. Hence ``str`` here, for
        # msgspec; the SDK never hands out a ToolCallCompleted of another subtype.
        subtype: str = "completed"

    @property
    def outcome(self) -> str | None:
        """``"success"``, ``"rejected"``, ``"permissionDenied"``, ``"error"``, ..., the
        wire key of the outcome; ``None`` if the event has none."""
        return self._parsed.outcome

    @property
    def status(self) -> Literal["succeeded", "blocked", "failed", "other"]:
        """What the outcome means, whatever its key (:data:`agent_sdk.ToolCallStatus`):
        ``"succeeded"``; ``"blocked"`` by a hook, the user or the permission rules;
        ``"failed"``; or ``"other"`` for an outcome key this SDK does not know."""
        return self._parsed.status or "other"

    @property
    def result(self) -> ToolResult | None:
        """The outcome's typed payload (:class:`~agent_sdk.tools.ReadSuccess`,
        :class:`~agent_sdk.tools.Rejection`, ...); a dict for unknown kinds or outcomes."""
        return self._parsed.result

    @property
    def exit_code(self) -> int | None:
        """A command's exit code (a ``shellToolCall``'s result); ``None`` for other
        calls, or a command that did not run to an exit."""
        from .tool_labels import exit_code

        return exit_code(self.result)

    @property
    def ok(self) -> bool:
        """Whether the call did what was asked: it succeeded and, for a command, exited
        0. A command that ran but failed (``exit 1``) is a ``success`` outcome for the
        CLI (it ran, docs/protocol.md §3.4), but not ``ok``."""
        from .tool_labels import did_what_was_asked

        return did_what_was_asked(self.status, self.result)

    @property
    def result_extras(self) -> dict[str, Any]:
        """The keys of ``result`` beside the outcome, as plain values (a shell call's
        ``isBackground``, a plan's ``planUri``); empty if none."""
        return self._parsed.result_extras

    @property
    def is_background(self) -> bool | None:
        """Whether the command goes on in the background (a shell call's ``isBackground``,
        beside the outcome); ``None`` when the CLI does not say."""
        value = self._parsed.result_extras.get("isBackground")
        return value if type(value) is bool else None

    @property
    def plan_uri(self) -> str | None:
        """Where the CLI stored a plan (a ``createPlanToolCall``'s ``planUri``, beside the
        outcome; ``""`` when it stored it nowhere); ``None`` when absent."""
        value = self._parsed.result_extras.get("planUri")
        return value if type(value) is str else None

    @property
    def completed_at_ms(self) -> int | None:
        return self._parsed.completed_at_ms

    @property
    def duration_ms(self) -> int | None:
        """Milliseconds by the CLI's own clock: ``completedAtMs`` less ``startedAtMs``,
        when the event carries both (``timestamp_ms`` is from another clock)."""
        start, end = self._parsed.started_at_ms, self._parsed.completed_at_ms
        return end - start if start is not None and end is not None else None


def custom_tool_of(event: ToolCallCompleted) -> Any:
    """The call of the run's own tool this completion was (an
    ``extend._served.CustomToolCall``), else ``None``."""
    return getattr(event, "_custom_tool", None)


def set_custom_tool(event: ToolCallCompleted, call: Any) -> None:
    """Record that ``event`` completed ``call`` of one of the run's own tools."""
    msgspec.structs.force_setattr(event, "_custom_tool", call)


def started_of(event: ToolCallCompleted) -> ToolCallStarted | None:
    """The start a stream paired a completion with (:func:`pair_calls`), if it saw it."""
    return getattr(event, "_started", None)


def pair_calls(
    events: Iterable[ToolCallStarted | ToolCallCompleted],
    running: dict[str, ToolCallStarted],
    starts: list[Any],
) -> list[ToolCallCompleted]:
    """Pair tool-call events in their order: a start waits in ``running`` (by
    ``call_id``) and its payload goes to ``starts``; a completion takes its start out
    of ``running`` and carries it from then on (:func:`started_of`). Returns the
    completions whose start was not in ``running``.

    The decoder does the same, inlined, in its pass over a block of lines
    (``_wire/decode.py``): a call there cost hundreds of instructions per event."""
    unpaired: list[ToolCallCompleted] = []
    for event in events:
        if isinstance(event, ToolCallStarted):
            running[event.call_id] = event
            starts.append(event.tool_call)
            continue
        started = running.pop(event.call_id, None)
        if started is None:
            unpaired.append(event)
        else:
            msgspec.structs.force_setattr(event, "_started", started)
    return unpaired
