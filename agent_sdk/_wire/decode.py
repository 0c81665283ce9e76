"""Lines in, typed events out: one stdout line, or a block of complete lines at once.

Performance note (docs/benchmarks.md): a block of lines is decoded by one msgspec call
(``decode_lines``) when it holds only known events, which is nearly always; a block holding
anything else (a banner, a new event type, a lone surrogate) is decoded line by line. One
Python pass over each block converts the few events that need it (tool calls).

No line raises (docs/protocol.md §3, §5: tolerate what the CLI prints, never crash on it).
Whatever its bytes, a line becomes an event, an :class:`~agent_sdk.events.UnknownEvent`
whose ``error`` says what did not fit, or a line that is not an event (``None``):

- a UTF-8 byte order mark at the start of a line is ignored;
- a lone surrogate escape or invalid UTF-8 becomes U+FFFD (:func:`repair_line`);
- a ``type`` that is not a string gives ``type == ""`` and msgspec's reason;
- a number msgspec cannot hold (an integer of more digits than Python converts, ``1e999``)
  makes the line an ``UnknownEvent`` whose ``raw`` keeps such numbers as ``Decimal``;
- JSON nested deeper than msgspec goes (the interpreter's recursion limit: about 1,000
  levels) makes an object an ``UnknownEvent`` with an empty ``raw`` and the ``type`` and
  ``subtype`` read from the start of the line, where the CLI writes them.

The fallback machinery for such hostile lines (repair, ``Decimal``, too deep) lives in
``_wire/fallback.py``; that for an event split over several lines by raw newlines (joined
back, within limits, and counted: :attr:`LineDecoder.rejoined`) in ``_wire/rejoin.py``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..events import (
    AssistantEvent,
    Event,
    InteractionRequest,
    InteractionResponse,
    PartialAssistantEvent,
    ResultEvent,
    SystemEvent,
    TaskNotification,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
)
from .fallback import raw_object, repair_line, too_deep
from .interaction import NeedsLineError as _NeedsLineError
from .interaction import public_interaction
from .line_shapes import KNOWN_TYPES, InteractionWire, PartialWireEvent, WireEvent, decoder
from .rejoin import MORE, may_start, rejoin
from .reply import MESSAGE_BREAK, end_message
from .tool_call_events import pair_calls

__all__ = ["Block", "LineDecoder", "repair_line"]

_BOM = b"\xef\xbb\xbf"
_TASK_NOTIFICATION = "task_notification"

# What a block of lines held: its events; among them, the tool calls the trackers have to
# look at (about half of a real stream's events are tool calls: the trackers take them in
# one call per block) and the other events the stream keeps track of (results,
# interaction queries); and its lines that were not events (banners, garbage). When the
# decoder pairs the tool calls itself (``running``, below), the only calls left for the
# trackers are the completions whose start it did not see.
Block = tuple[list[Event], list[ToolCallStarted | ToolCallCompleted], list[Event], list[bytes]]

# Python-level lookups hoisted out of the pass over a block (one per block, not per event).
_copy_out = msgspec.Raw.copy
_set = msgspec.structs.force_setattr


def _own_line(raw: msgspec.Raw) -> msgspec.Raw:
    # A block that is one line of its own bytes (a line longer than a read is joined into
    # one, LineFramer): a payload's view into it keeps nothing but its own line.
    return raw


class LineDecoder:
    """Decodes NDJSON into events.

    Args:
        partial: whether the run used ``--stream-partial-output``; its assistant events
            are then :class:`~agent_sdk.events.PartialAssistantEvent` (docs/protocol.md §3.3).

    Attributes:
        rejoined: how many events came split over several lines by raw newlines and were
            joined back (``_wire/rejoin.py``).
    """

    __slots__ = ("_final", "_held", "_wire", "partial", "rejoined")

    def __init__(self, *, partial: bool) -> None:
        self.partial = partial
        self._wire = decoder(partial)
        self.rejoined = 0
        # The lines of an event that may go on in the next block (rejoin.MORE).
        self._held: list[bytes] = []
        self._final = False  # the output has ended: nothing is held any more

    def set_partial(self, partial: bool) -> None:
        """Decode assistant events as partial output (or not) from now on."""
        self.partial = partial
        self._wire = decoder(partial)

    def decode_block(
        self,
        block: bytes | memoryview,
        text: list[str],
        running: dict[str, ToolCallStarted] | None = None,
        starts: list[Any] | None = None,
    ) -> Block:
        """The events of a block of complete lines (see :data:`Block`); the reply text
        they add (each assistant event's ``new_text``) is appended to ``text``.

        Given a tracker's ``running`` calls and ``starts`` list (``tool_calls.py``), the
        tool calls are paired in this pass, as :func:`~agent_sdk._wire.tool_call_events.pair_calls`
        pairs them: the trackers then only look for the plan."""
        if self._held:  # the lines of a split event, held from the last block
            return self._decode_lines_one_by_one(block, text, running, starts)
        try:
            events: list[Any] = self._wire.decode_lines(block)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            # Not only known events (or a line nested too deep): each line on its own,
            # so that every line before the odd one is still an event.
            return self._decode_lines_one_by_one(block, text, running, starts)
        pairing = running is not None and starts is not None
        if running is None or starts is None:
            running, starts = {}, []
        before, starts_before = running.copy(), len(starts)
        calls: list[ToolCallStarted | ToolCallCompleted] = []
        add_call = calls.append
        notable: list[Event] = []
        add_text = text.append
        mark = len(text)
        # A payload is a view into the block and keeps all of it alive: it is copied out,
        # unless the block is its one line (a kept event must not keep a 256 KiB read).
        detach = _own_line if type(block) is bytes and len(events) == 1 else _copy_out
        # Locals, not globals, for the names the loop reads for nearly every event.
        call_line, started = ToolCallCompleted, ToolCallStarted
        # The one class the decoder gives assistant lines (line_shapes.py).
        partial = self.partial
        assistant = PartialAssistantEvent if partial else AssistantEvent
        force, take, add_start = _set, running.pop, starts.append
        thinking_completed = ThinkingCompleted
        try:
            # One pass in Python over the block; everything else was done by msgspec.
            # Every bytecode here runs once per event (docs/benchmarks.md, issue 24):
            # tool calls (about half of a real stream's events) come first, then the
            # assistant text; most other events are final as decoded.
            for i, event in enumerate(events):
                cls = type(event)
                if cls is call_line:  # any tool_call line (line_shapes.py): completed or started
                    if event.subtype == "completed":
                        force(event, "tool_call", detach(event.tool_call))
                        if not pairing:
                            add_call(event)
                            continue
                        try:  # pair_calls, inlined
                            force(event, "_started", take(event.call_id))
                        except KeyError:  # its start was not seen
                            add_call(event)
                    elif event.subtype == "started":
                        raw = detach(event.tool_call)
                        events[i] = event = started(
                            event.call_id,
                            raw,
                            event.model_call_id,
                            session_id=event.session_id,
                            timestamp_ms=event.timestamp_ms,
                        )
                        if pairing:
                            running[event.call_id] = event
                            add_start(raw)
                        else:
                            add_call(event)
                    else:
                        raise _NeedsLineError
                elif cls is assistant:
                    # A segment with a model_call_id comes before a tool call: its message
                    # ends there, and the reply keeps the next one apart (§3.3).
                    if partial and (event.timestamp_ms is None or event.model_call_id is not None):
                        # PartialAssistantEvent.is_flush, inlined (a property call per
                        # event): a flush repeats the deltas' text (docs/protocol.md §3.3).
                        if event.model_call_id is not None:
                            end_message(text)
                        continue
                    # Message.text, inlined for the one text block nearly every message
                    # has: the call alone cost a tenth of a streamed run (benchmarks).
                    try:
                        (only,) = event.message.content
                    except ValueError:  # not one block
                        add_text(event.message.text)
                        if event.model_call_id is not None:
                            end_message(text)
                        continue
                    if only.type == "text":
                        add_text(only.text)
                        if event.model_call_id is not None:
                            said = only.text
                            # end_message, inlined for the usual segment, which ends in
                            # no newline: once per tool call, a call costs.
                            if said and said[-1] != "\n":
                                add_text(MESSAGE_BREAK)
                            else:
                                end_message(text)
                    elif event.model_call_id is not None:
                        end_message(text)
                elif cls is ThinkingDelta:
                    if event.subtype != "delta":  # _public_thinking, inlined
                        if event.subtype != "completed":
                            raise _NeedsLineError
                        events[i] = thinking_completed(
                            session_id=event.session_id, timestamp_ms=event.timestamp_ms
                        )
                elif cls is ResultEvent:
                    notable.append(event)
                elif cls is InteractionWire:
                    events[i] = query = public_interaction(event)
                    notable.append(query)
        except _NeedsLineError:
            # The block is decoded again, line by line, from the state it found.
            del text[mark:]
            running.clear()
            running.update(before)
            del starts[starts_before:]
            return self._decode_lines_one_by_one(block, text, running if pairing else None, starts)
        if len(text) - mark > 1:
            # One string per block, not one per delta: the reply costs its own size.
            text[mark:] = ["".join(text[mark:])]
        return events, calls, notable, []

    @property
    def holds(self) -> bool:
        """Whether it holds lines back: the start of an event split over lines whose end
        has not come yet."""
        return bool(self._held)

    def finish(self) -> None:
        """No more lines come: the next block decodes the lines held as they are."""
        self._final = True

    def _decode_lines_one_by_one(
        self,
        block: bytes | memoryview,
        text: list[str],
        running: dict[str, ToolCallStarted] | None,
        starts: list[Any] | None,
    ) -> Block:
        events: list[Event] = []
        junk: list[bytes] = []
        # Each line its own bytes: a payload's view keeps only its line.
        lines = bytes(block).split(b"\n")
        if lines[-1] == b"":
            lines.pop()  # what follows the block's last newline is no line
        if self._held:
            lines[:0], self._held = self._held, []
        i = quiet = 0  # no repair starts before `quiet`: lines a failed one looked at
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line or line.isspace():
                continue
            event = self.decode(line)
            if event is None and i > quiet and may_start(line):
                event, end = rejoin(lines, i - 1, self.decode, more_may_come=not self._final)
                if end == MORE:
                    self._held = lines[i - 1 :]
                    break
                if event is not None:
                    self.rejoined += 1
                    i = end
                else:
                    quiet = end
            if event is None:
                junk.append(line)
            else:
                events.append(event)
        calls: list[ToolCallStarted | ToolCallCompleted] = [
            e for e in events if isinstance(e, (ToolCallStarted, ToolCallCompleted))
        ]
        if running is not None and starts is not None:
            calls = list(pair_calls(calls, running, starts))
        # A result line that did not decode is notable too: it may say the run failed.
        notable: list[Event] = [
            e
            for e in events
            if isinstance(e, (InteractionRequest, InteractionResponse, ResultEvent))
            or (isinstance(e, UnknownEvent) and e.type == "result")
        ]
        for e in events:
            if isinstance(e, AssistantEvent):
                if e.new_text:
                    text.append(e.new_text)
                if e.model_call_id is not None:  # before a tool call (§3.3)
                    end_message(text)
        return events, calls, notable, junk

    def decode(self, line: bytes) -> Event | None:
        """The event on one line, or ``None`` if the line is not a JSON object. Raises
        nothing, whatever the bytes (see the module's docstring)."""
        while line.startswith(_BOM):
            line = line[len(_BOM) :]
        try:
            wire = self._wire.decode(line)
        except msgspec.ValidationError as exc:
            return _not_plain(line, str(exc))
        except (msgspec.DecodeError, UnicodeDecodeError):
            repaired = repair_line(line)
            if repaired == line:
                return None
            return self.decode(repaired)
        except RecursionError:
            return too_deep(line)
        try:
            return _public(wire)
        except _NeedsLineError as exc:
            return _not_plain(line, str(exc) or None)


def _public(wire: WireEvent | PartialWireEvent) -> Event:
    """The public event for a decoded wire event."""
    if isinstance(wire, ToolCallCompleted):
        return _public_tool_call(wire)
    if isinstance(wire, ThinkingDelta) and wire.subtype != "delta":
        return _public_thinking(wire)
    if isinstance(wire, InteractionWire):
        return public_interaction(wire)
    return wire


def _public_thinking(wire: ThinkingDelta) -> ThinkingCompleted:
    # Thinking decodes straight into ThinkingDelta (most events are deltas); the rare
    # other subtype is converted here.
    if wire.subtype != "completed":
        raise _NeedsLineError
    return ThinkingCompleted(session_id=wire.session_id, timestamp_ms=wire.timestamp_ms)


def _public_tool_call(line: ToolCallCompleted) -> ToolCallStarted | ToolCallCompleted:
    # A line decoded on its own: its payload is a view into that line only, kept as is.
    # The payload is not looked at here, not even its first byte (that alone cost a
    # fifth of the conversion): it is decoded, and checked, on first access.
    if line.subtype == "completed":
        return line
    if line.subtype != "started":
        raise _NeedsLineError
    return ToolCallStarted(
        line.call_id,
        line.tool_call,
        line.model_call_id,
        session_id=line.session_id,
        timestamp_ms=line.timestamp_ms,
    )


def _not_plain(line: bytes, error: str | None) -> Event | None:
    """A line that is JSON but not a plain known event: another system subtype, an
    unknown type or subtype, or a known type whose fields do not fit (``error``)."""
    try:
        found = raw_object(line)
    except RecursionError:
        return too_deep(line)
    if found is None:
        return None  # not a JSON object: not an event
    raw, out_of_range = found
    kind = raw.get("type")
    subtype = raw.get("subtype")
    if not isinstance(subtype, str):
        subtype = None
    if not isinstance(kind, str):
        kind = ""  # msgspec's error says so: missing, or an object, a list, a number...
    elif kind not in KNOWN_TYPES:
        error = None  # a new event type is no error (docs/protocol.md §3)
    if out_of_range is not None:
        error = f"{error or out_of_range} (raw keeps numbers out of range as Decimal)"
    elif kind == "system" and subtype is not None and subtype != "init":
        session_id = raw.get("session_id")
        timestamp = raw.get("timestamp_ms")
        session = session_id if isinstance(session_id, str) else None
        timestamp_ms = timestamp if type(timestamp) is int else None
        if subtype == _TASK_NOTIFICATION:  # docs/protocol.md §3.4b
            return TaskNotification.of(raw, session, timestamp_ms)
        return SystemEvent(subtype=subtype, raw=raw, session_id=session, timestamp_ms=timestamp_ms)
    return UnknownEvent(type=kind, subtype=subtype, raw=raw, error=error)
