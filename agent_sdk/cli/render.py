"""Human-readable rendering of a run's events for the command line (``agent-sdk``).

The reply goes to ``out`` (so ``agent-sdk "..." > reply.txt`` keeps only the reply) and
everything else (tool calls, thinking, status, summary) to ``err``. Both streams are
given, so tests render into :class:`io.StringIO`.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import TextIO

from ..events import (
    AssistantEvent,
    ConnectionEvent,
    CreatePlanRequest,
    Event,
    InteractionRequest,
    InteractionResponse,
    ResultEvent,
    RetryEvent,
    SystemEvent,
    SystemInit,
    TextLine,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    UserEvent,
)
from ..tool_calls import ToolCall, ToolCallTracker
from .labels import failure_detail, interaction_label, result_detail, shorten, tool_label

__all__ = ["Renderer", "tool_label"]

_RESET = "\x1b[0m"
_BOLD = "1"
_DIM = "2"
_RED = "31"
_GREEN = "32"
_YELLOW = "33"
_CYAN = "36"
_CLEAR_LINE = "\r\x1b[K"
_ERASE_TO_END = "\x1b[K"
_SAVE_CURSOR = "\x1b7"
_RESTORE_CURSOR = "\x1b8"
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
# The status line is drawn only after this much silence, so fast output never flickers.
STATUS_AFTER = 0.1


def isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal; ``False`` for a closed or a fake stream."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _painted(text: str, *codes: str, color: bool) -> str:
    """``text`` in the ANSI ``codes`` when ``color``; as it is otherwise, or when empty."""
    if not color or not text:
        return text
    return f"\x1b[{';'.join(codes)}m{text}{_RESET}"


class Renderer:
    """Renders events as text: the reply on ``out``, progress on ``err``.

    Args:
        out: where the reply text goes.
        err: where tool calls, thinking, the status line and the summary go.
        color: use ANSI colours on ``err``.
        thinking: show the thinking text (dimmed) instead of a one-line indicator.
        live_status: draw a spinner status line on ``err`` (only for a terminal).

    Example::

        renderer = Renderer(sys.stdout, sys.stderr)
        for event in events:
            renderer.event(event)
        renderer.summary("success")
    """

    def __init__(
        self,
        out: TextIO,
        err: TextIO,
        *,
        color: bool = False,
        thinking: bool = False,
        live_status: bool = False,
    ) -> None:
        self.out = out
        self.err = err
        self.color = color
        self.show_thinking = thinking
        self.live_status = live_status
        self.tracker = ToolCallTracker()
        self.result_event: ResultEvent | None = None
        """The ``result`` event, once rendered."""
        self.session_id: str | None = None
        """The chat id, as soon as an event carried it."""
        self.events = 0
        """How many events were rendered."""
        self._open: TextIO | None = None  # the stream whose last line is unfinished
        self._text_shown = False
        self._thinking_since: int | None = None  # timestamp_ms of the block's first delta
        self._in_thinking = False
        # What erases the status line, or "" when none is drawn.
        self._status_drawn = ""
        self._shared_terminal = live_status and isatty(out)
        self._last_output = time.monotonic()
        self._frame = 0

    # --- events ---------------------------------------------------------------------
    def event(self, event: Event) -> None:
        """Render one event."""
        self._clear_status()
        self.events += 1
        if event.session_id is not None:
            self.session_id = event.session_id
        if self._in_thinking and not isinstance(event, (ThinkingDelta, ThinkingCompleted)):
            self._end_thinking(None)  # the CLI does not always close a thinking block
        if isinstance(event, AssistantEvent):
            self._text(event.new_text)
        elif isinstance(event, TextLine):
            self._text(event.text + "\n")
        elif isinstance(event, ThinkingDelta):
            self._thinking(event)
        elif isinstance(event, ThinkingCompleted):
            self._end_thinking(event.timestamp_ms)
        elif isinstance(event, ToolCallStarted):
            call = self.tracker.add(event)
            self._line(f"  {self._paint('▸', _CYAN)} {tool_label(call.kind, call.args)}")
        elif isinstance(event, ToolCallCompleted):
            self._completed(self.tracker.add(event))
        elif isinstance(event, SystemInit):
            where = f" in {event.cwd}" if event.cwd else ""
            self._line(self._paint(f"● {event.model or 'agent'}{where}", _DIM))
        elif isinstance(event, ResultEvent):
            self.result_event = event
            if not self._text_shown and event.result:
                # json output, or a stream without assistant events: the result is the reply.
                self._text(event.result)
        elif isinstance(event, ConnectionEvent):
            self._line(self._paint(f"  ⚠ connection {event.subtype}{_attempt(event)}", _YELLOW))
        elif isinstance(event, RetryEvent):
            self._line(self._paint(f"  ⟳ retry {event.subtype}{_attempt(event)}", _YELLOW))
        elif isinstance(event, InteractionRequest):
            self._line(_interaction_request(event, color=self.color))
        elif isinstance(event, InteractionResponse):
            self._line(_interaction_response(event, color=self.color))
        elif isinstance(event, (SystemEvent, UnknownEvent)):
            name = "/".join(part for part in (event.type, event.subtype) if part)
            self._line(self._paint(f"  · {name or 'event'}", _DIM))
        elif isinstance(event, UserEvent):
            pass  # the prompt, echoed back: the user knows it
        self._flush()

    def raw_line(self, text: str) -> None:
        """Render a line of output that is not an event (a banner, a plain-text error)."""
        self._clear_status()
        self._line(self._paint(text, _DIM))
        self._flush()

    def _text(self, text: str) -> None:
        if not text:
            return
        if self._open is not self.out:
            self._close_line()
        self.out.write(text)
        self._text_shown = True
        self._open = None if text.endswith("\n") else self.out

    def _thinking(self, event: ThinkingDelta) -> None:
        if not self._in_thinking:
            self._in_thinking = True
            self._thinking_since = event.timestamp_ms
            if self.show_thinking:
                self._close_line()
                self.err.write(self._paint("  ∴ ", _DIM))
                self._open = self.err
        if self.show_thinking and event.text:
            self.err.write(self._paint(event.text.replace("\n", "\n    "), _DIM))
            self._open = self.err

    def _end_thinking(self, completed_ms: int | None) -> None:
        if not self._in_thinking:
            return
        self._in_thinking = False
        if self.show_thinking:
            self._close_line()
            return
        took = ""
        if completed_ms is not None and self._thinking_since is not None:
            took = f" for {(completed_ms - self._thinking_since) / 1000:.1f} s"
        self._line(self._paint(f"  ∴ thought{took}", _DIM))

    def _completed(self, call: ToolCall) -> None:
        label = tool_label(call.kind, call.args)
        outcome = call.outcome
        if outcome == "success":
            parts = [f"{call.duration_ms} ms"] if call.duration_ms is not None else []
            detail = result_detail(call.result)
            if detail:
                parts.append(detail)
            extra = self._paint("  " + " · ".join(parts), _DIM) if parts else ""
            self._line(f"  {self._paint('✓', _GREEN)} {label}{extra}")
            return
        reason = failure_detail(call.result)
        what = f"{outcome or 'unknown'}: {shorten(reason)}" if reason else str(outcome)
        colour = _YELLOW if outcome == "rejected" else _RED
        self._line(f"  {self._paint('✗', colour)} {label} — {self._paint(what, colour)}")

    # --- summary --------------------------------------------------------------------
    def summary(self, outcome: str, *, elapsed: float | None = None) -> None:
        """Render the final summary: outcome, duration, tokens, tool calls, session id.

        Args:
            outcome: ``"success"``, or a word for how the run ended (``"failed"``, ...).
            elapsed: seconds the run took by our clock (a replay has none: the result
                event's ``duration_ms`` is shown then). The CLI's own figure follows in
                brackets where it reads differently: it measures something else.
        """
        self._close_line()
        result = self.result_event
        reported = _seconds(result.duration_ms if result else None)
        ok = outcome == "success"
        head = f"{'✓' if ok else '✗'} {outcome}"
        if elapsed is not None:
            head += f" in {elapsed:.1f} s"
            if reported is not None and f"{reported:.1f}" != f"{elapsed:.1f}":
                head += f" (the CLI reports {reported:.1f} s)"
        elif reported is not None:
            head += f" in {reported:.1f} s"
        lines = [self._paint(head, _GREEN if ok else _RED, _BOLD)]
        usage = result.usage if result else None
        if usage is not None:
            lines.append(f"  tokens   {_tokens(usage)}")
        if self.tracker.calls:
            lines.append(f"  tools    {_tool_counts(self.tracker.calls)}")
        if self.session_id:
            lines.append(f"  session  {self.session_id}")
        self.err.write("\n".join(lines) + "\n")
        self._flush()

    # --- status line ----------------------------------------------------------------
    def status(self, elapsed: float) -> None:
        """Redraw the status line (spinner, what the agent is doing, elapsed time).

        Called about every 0.1 s by the live run; draws only with ``live_status`` and
        after a moment of silence. After an unfinished line of the reply on the same
        terminal it draws a short indicator at the end of that line instead, and takes it
        back before the next output.
        """
        if not self.live_status or self._open is self.err:
            return
        if time.monotonic() - self._last_output < STATUS_AFTER:
            return
        self._frame = (self._frame + 1) % len(_SPINNER)
        self.err.write(self._status_drawn)  # take back the previous frame
        spinner = f"{_SPINNER[self._frame]} {elapsed:.1f} s"
        if self._open is self.out and self._shared_terminal:
            # Save the cursor, draw, and on clearing restore it and erase to the line end.
            self.err.write(_SAVE_CURSOR + self._paint("  " + spinner, _DIM))
            self._status_drawn = _RESTORE_CURSOR + _ERASE_TO_END
        else:
            self.err.write(_CLEAR_LINE + self._paint(f"{spinner} · {_doing(self)}", _DIM))
            self._status_drawn = _CLEAR_LINE
        self.err.flush()

    def finish(self) -> None:
        """End an unfinished line and remove the status line (before exiting)."""
        self._close_line()
        self._flush()

    # --- plumbing -------------------------------------------------------------------
    def _paint(self, text: str, *codes: str) -> str:
        return _painted(text, *codes, color=self.color)

    def _clear_status(self) -> None:
        if self._status_drawn:
            self.err.write(self._status_drawn)
            # Now: the reply may go to another buffer (stdout) on the same terminal.
            self.err.flush()
            self._status_drawn = ""

    def _close_line(self) -> None:
        self._clear_status()
        if self._open is not None:
            self._open.write("\n")
            self._open = None

    def _line(self, text: str) -> None:
        self._close_line()
        self.err.write(text + "\n")

    def _flush(self) -> None:
        self._last_output = time.monotonic()
        # Flush both after every event: when they share a terminal or a pipe (2>&1),
        # the order on screen is the order of events.
        self.out.flush()
        self.err.flush()


def _doing(renderer: Renderer) -> str:
    """What the status line says the agent is doing."""
    running = [call for call in renderer.tracker.calls if not call.is_finished]
    if renderer._in_thinking:
        return "thinking"
    if len(running) == 1:
        return tool_label(running[0].kind, running[0].args)
    if running:
        return f"{len(running)} tool calls"
    return "waiting for the agent"


def _attempt(event: ConnectionEvent | RetryEvent) -> str:
    """`` (attempt 2)`` for an event that numbers its attempt, else ``""``."""
    return f" (attempt {event.attempt})" if event.attempt is not None else ""


def _interaction_request(event: InteractionRequest, *, color: bool) -> str:
    """The line of an ``interaction_query`` request: ``? plan approval requested  name``."""
    line = (
        f"  {_painted('?', _CYAN, color=color)} {interaction_label(event.query_type)} "
        "approval requested"
    )
    if isinstance(event, CreatePlanRequest) and event.args.name:
        line += _painted(f"  {shorten(event.args.name)}", _DIM, color=color)
    return line


def _interaction_response(event: InteractionResponse, *, color: bool) -> str:
    """The line of an ``interaction_query`` response: approved, answered, or refused."""
    what = interaction_label(event.query_type)
    outcome = event.outcome
    if outcome == "success":
        return f"  {_painted('✓', _GREEN, color=color)} {what} approved"
    if outcome is None:
        return _painted(f"  · {what} answered", _DIM, color=color)
    said = f"{outcome}: {shorten(event.reason)}" if event.reason else outcome
    colour = _YELLOW if outcome == "rejected" else _RED
    return f"  {_painted('✗', colour, color=color)} {what} — {_painted(said, colour, color=color)}"


def _seconds(milliseconds: int | None) -> float | None:
    return None if milliseconds is None else milliseconds / 1000


def _tokens(usage: Usage) -> str:
    """The summary's token counts: ``1,200 in · 340 out``, and the cache when it was used."""
    tokens = f"{usage.inputTokens:,} in · {usage.outputTokens:,} out"
    if usage.cacheReadTokens or usage.cacheWriteTokens:
        tokens += f" · {usage.cacheReadTokens:,} cache read"
        tokens += f" · {usage.cacheWriteTokens:,} cache write"
    return tokens


def _tool_counts(calls: list[ToolCall]) -> str:
    """The summary's tool calls by outcome: ``3: 2 ✓, 1 error`` (successes first)."""
    counts = Counter(call.outcome or "running" for call in calls)
    parts = [f"{counts.pop('success')} ✓"] if "success" in counts else []
    parts += [f"{n} {name}" for name, n in sorted(counts.items())]
    return f"{len(calls)}: {', '.join(parts)}"
