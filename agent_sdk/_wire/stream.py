"""What a run's output has said so far: chunks of stdout in, events out, the facts kept.

One :class:`Stream` per run. It frames the bytes into lines, decodes them, and keeps what
the outcome of the run needs (docs/protocol.md §3): the session id, the ``result`` event,
the lines that were not JSON, the reply assembled as it streams, the pairing of tool
calls and of interaction queries and, when asked, every event. ``agent-sdk replay`` and
the recorder read output through the same class, so the rules live here once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from ..events import (
    AssistantEvent,
    Event,
    InteractionRequest,
    InteractionResponse,
    ResultEvent,
    TextLine,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
)
from ..tool_calls import RunningToolCalls, ToolCallTracker
from .decode import LineDecoder
from .framing import LineFramer
from .interaction_events import pair_interaction
from .reply import joined
from .tool_call_events import started_of

__all__ = ["MAX_STDOUT_LINES", "InteractionTracker", "Stream"]

# Non-JSON stdout lines kept for errors: a flood of junk must not grow memory.
MAX_STDOUT_LINES = 200
MAX_STDOUT_LINE_CHARS = 4000


class InteractionTracker:
    """Pairs ``interaction_query`` responses with their requests by id as they stream
    (docs/protocol.md §3.6b), holding only the requests not yet answered.

    A paired response carries its request from then on
    (:attr:`~agent_sdk.events.InteractionResponse.request`).
    """

    __slots__ = ("_waiting",)

    def __init__(self) -> None:
        self._waiting: dict[int | str, InteractionRequest] = {}

    def add(self, event: InteractionRequest | InteractionResponse) -> None:
        """Record an event: a request waits for its answer; a response takes it."""
        key = event.id
        if key is None:
            return  # nothing to pair on
        if isinstance(event, InteractionRequest):
            self._waiting[key] = event
            return
        request = self._waiting.pop(key, None)
        if request is not None:
            pair_interaction(request, event)

    def request_of(self, event: InteractionResponse) -> InteractionRequest | None:
        """The request a response answers, if it was seen."""
        return event.request

    @property
    def waiting(self) -> list[InteractionRequest]:
        """The requests not answered yet, in the order they came."""
        return list(self._waiting.values())


class Stream:
    """The state of one run's stdout.

    Args:
        output_format: the run's ``--output-format``; ``"text"`` output is lines of text.
        partial: whether the run used ``--stream-partial-output``; ``None`` works it out
            from the first assistant event (a partial stream starts with a delta).
        keep_events: keep every event (:attr:`events`, and every tool call).
        on_other_line: called with each stdout line that is not an event (a banner, a
            plain-text error) as it is met; replay shows them.
        redact: applied to each stdout line that is not an event (each line of a text
            run) before it is kept in :attr:`stdout_lines`, cut to a few KB, or passed to
            ``on_other_line``: a secret straddling the cut would escape a later redaction.
            Events and the reply are what the CLI printed, unredacted.

    Whatever the bytes, :meth:`feed` and :meth:`end` raise nothing of their own (only
    what ``on_other_line`` or ``redact`` raise): each line becomes an event, an
    :class:`~agent_sdk.events.UnknownEvent` with its ``error``, or a kept stdout line,
    and the events before an odd line are delivered in order (``_wire/decode.py``).
    """

    def __init__(
        self,
        *,
        output_format: str = "stream-json",
        partial: bool | None = False,
        keep_events: bool = False,
        on_other_line: Callable[[str], None] | None = None,
        redact: Callable[[str], str] | None = None,
        session_id: str | None = None,
    ) -> None:
        self._framer = LineFramer()
        self._decoder = LineDecoder(partial=bool(partial))
        self._detect_partial = partial is None
        self._text_output = output_format == "text"
        self._on_other_line = on_other_line
        self._redact = redact
        self._text: list[str] = []
        self.keep_events = keep_events
        self.events: list[Event] = []
        """Every event so far, when :attr:`keep_events`."""
        # The tracker whose calls the decoder pairs in its pass, when nobody watches them:
        # one test per block on the hot path, not an isinstance (docs/benchmarks.md).
        self._pairs = None if keep_events else RunningToolCalls()
        self.tool_calls: ToolCallTracker | RunningToolCalls = self._pairs or ToolCallTracker()
        """Tool calls paired as they stream: every call, or only the running ones."""
        self._watch: Callable[[list[ToolCallStarted | ToolCallCompleted]], None] | None = None
        self.interactions = InteractionTracker()
        """Interaction queries paired as they stream (docs/protocol.md §3.6b)."""
        self.session_id = session_id
        """The chat id: the one chosen up front (``session_id=``, docs/sessions.md) until
        an event carries one, then the latest event's."""
        self.session_reported = False
        """Whether an event has carried the chat id (so the CLI has made the chat)."""
        self.result_event: ResultEvent | None = None
        """The ``result`` event that decides the run (docs/protocol.md §5, failed-run rule):
        the latest one, except that an error result, once seen, stays: a later result is
        still an event, but never turns a failed run into a success."""
        self.stdout_lines: deque[str] = deque(maxlen=MAX_STDOUT_LINES)
        """The last non-JSON lines (every line of a text run), each cut to a few KB."""
        self.received = 0
        """How many events the output held so far."""

    def keep_every_event(self) -> None:
        """Keep every event from now on (before the first chunk: a run that ends in a
        :class:`~agent_sdk.RunResult` returns them)."""
        if not self.keep_events:
            self.keep_events = True
            self.tool_calls = ToolCallTracker()
            self._pairs = None

    def watch_tool_calls(
        self, watch: Callable[[list[ToolCallStarted | ToolCallCompleted]], None]
    ) -> None:
        """Hand ``watch`` every tool-call event from now on, a block's at once and in
        order (a run's spans, ``_run/trace.py``). Only tool calls cost it anything: the
        decoder then leaves their pairing to the tracker, which sees every call."""
        self._watch = watch
        self._pairs = None

    @property
    def text(self) -> str:
        """The reply so far: every assistant event's ``new_text`` joined, a blank line
        between two messages a tool call split (docs/protocol.md §3.3; the lines of a text
        run joined by newlines). Costs the reply's size, not the number of events."""
        if self._text_output:
            return "\n".join(self._text)
        return joined(self._text)

    def feed(self, chunk: bytes) -> list[Event]:
        """Take a chunk of stdout; return the events its complete lines held, in order."""
        blocks = self._framer.feed_blocks(chunk)
        if len(blocks) == 1:  # the usual case
            return self._absorb(blocks[0])
        events: list[Event] = []
        for block in blocks:
            events += self._absorb(block)
        return events

    def end(self) -> list[Event]:
        """stdout is closed: the events of a last line that had no newline, and of lines
        held as the start of an event split by raw newlines whose end never came."""
        tail = self._framer.flush()
        events = [] if tail is None else self._absorb(tail)
        if self._decoder.holds and not self._text_output:
            self._decoder.finish()
            events += self._absorb(b"")  # what it held, decoded as it is
        return events

    @property
    def rejoined_events(self) -> int:
        """How many events came split over several lines by raw newlines and were joined
        back (docs/protocol.md §3)."""
        return self._decoder.rejoined

    def _absorb(self, block: bytes | memoryview) -> list[Event]:
        if self._text_output:
            return self._absorb_text(block)
        if self._detect_partial:
            self._detect_partial_output(block)
        pairs = self._pairs
        if pairs is not None:
            # The decoder pairs the tool calls in its pass (docs/benchmarks.md, issue 24).
            decoded = self._decoder.decode_block(block, self._text, pairs.running, pairs.starts)
        else:
            decoded = self._decoder.decode_block(block, self._text)
        events, calls, notable, junk = decoded
        if junk:
            self._keep_other_lines(junk)
        if not events:
            return events
        self.received += len(events)
        if pairs is not None:
            pairs.look_for_plan(events, calls)
        elif calls:
            self.tool_calls.add_all(calls)
            if self._watch is not None:
                self._watch(calls)
        for event in notable:
            if type(event) is ResultEvent:
                if self.result_event is None or not self.result_event.is_error:
                    self.result_event = event
            elif type(event) is UnknownEvent:
                self._absorb_malformed_result(event)
            else:  # an interaction query (a typed request is a subclass)
                assert isinstance(event, (InteractionRequest, InteractionResponse))
                self.interactions.add(event)
        for event in reversed(events):
            if event.session_id is not None:
                self.session_id = event.session_id
                self.session_reported = True
                break
        if self.keep_events:
            self.events += events
        return events

    def forget(self, dropped: list[Event]) -> None:
        """Forget ``dropped``, the last events fed: a budget stopped the run before them
        (docs/budgets.md). What was kept and the calls paired are as if they never came."""
        self.received -= len(dropped)
        tracker = self.tool_calls
        if self.keep_events:
            del self.events[len(self.events) - len(dropped) :]
            calls = ToolCallTracker()
            calls.add_all(
                [e for e in self.events if isinstance(e, ToolCallStarted | ToolCallCompleted)]
            )
            self.tool_calls = calls
            return
        if isinstance(tracker, RunningToolCalls):
            for event in dropped:  # undone in their order: a start, then its completion
                if type(event) is ToolCallStarted:
                    tracker.running.pop(event.call_id, None)
                elif type(event) is ToolCallCompleted:
                    start = started_of(event)
                    if start is not None and start not in dropped:
                        tracker.running[event.call_id] = start

    def _keep_other_lines(self, lines: list[bytes]) -> None:
        for line in lines:
            text = line.decode("utf-8", "replace").rstrip("\r").lstrip("\ufeff")
            if self._redact is not None:
                text = self._redact(text)
            self.stdout_lines.append(text[:MAX_STDOUT_LINE_CHARS])
            if self._on_other_line is not None:
                self._on_other_line(text)

    def _absorb_malformed_result(self, event: UnknownEvent) -> None:
        # A result whose fields do not fit still decides the run if it says the run
        # failed: nothing may turn that into a success (docs/protocol.md §3.7). Its
        # other fields are not trusted: only its text, if it is text.
        raw = event.raw
        if raw.get("is_error") is not True or (self.result_event and self.result_event.is_error):
            return
        said = raw.get("result")
        self.result_event = ResultEvent(
            subtype=event.subtype or "error",
            is_error=True,
            result=said if isinstance(said, str) else "",
            session_id=raw.get("session_id") if isinstance(raw.get("session_id"), str) else None,
        )

    def _detect_partial_output(self, block: bytes | memoryview) -> None:
        # docs/protocol.md §3.3: a partial stream's first assistant event is a delta
        # (timestamp, no model_call_id); a stream without partial output never starts so.
        for event in LineDecoder(partial=False).decode_block(block, [])[0]:
            if isinstance(event, AssistantEvent):
                partial = event.timestamp_ms is not None and event.model_call_id is None
                self._decoder.set_partial(partial)  # keeps what it holds and counted
                self._detect_partial = False
                return

    def _absorb_text(self, block: bytes | memoryview) -> list[Event]:
        data = bytes(block)
        lines = data.decode("utf-8", "replace").split("\n")
        if data.endswith(b"\n"):
            lines.pop()  # what follows the last newline is not a line
        events: list[Event] = []
        for text in lines:
            text = text.lstrip("\ufeff")  # a byte order mark is no text
            self._text.append(text)
            # In text output every line is also what the CLI said, should it fail.
            said = text if self._redact is None else self._redact(text)
            self.stdout_lines.append(said[:MAX_STDOUT_LINE_CHARS])
            events.append(TextLine(text=text.removesuffix("\r")))
        self.received += len(events)
        if self.keep_events:
            self.events += events
        return events
