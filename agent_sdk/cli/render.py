"""Human-readable rendering of a run's events for the command line (``agent-sdk``).

The reply goes to ``out`` (so ``agent-sdk "..." > reply.txt`` keeps only the reply) and
everything else (tool calls, thinking, status, summary) to ``err``. Both streams are
given, so tests render into :class:`io.StringIO`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TextIO

from ..events import (
    AssistantEvent,
    ConnectionEvent,
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
    UserEvent,
)
from ..tool_calls import ToolCall, ToolCallTracker
from ._lines import (
    BOLD,
    DIM,
    GREEN,
    RED,
    YELLOW,
    attempt,
    completed_line,
    doing,
    interaction_request_line,
    interaction_response_line,
    notes_lines,
    other_event_lines,
    painted,
    started_line,
    summary_head,
    token_parts,
    tool_count_parts,
    tool_label,
)
from ._screen import ReplyCursor, cut, fold, fold_parts
from ._status import StatusLine

__all__ = ["Renderer", "tool_label"]

# The status line is drawn only after this much silence, so fast output never flickers.
STATUS_AFTER = 0.1


def summary_lines(
    head: str,
    aside: str,
    result: ResultEvent | None,
    calls: list[ToolCall],
    session_id: str | None,
    width: int | None,
) -> tuple[list[str], list[str]]:
    """The summary's lines, folded to ``width`` cells (``None``, no terminal: whole), never
    cut (it holds the session id a user needs): its head (``head``, then ``aside`` on a
    line of its own rather than cut in two), and the rest: the token and tool counts,
    broken between two counts, never inside one (no word alone on a line), the session."""

    def folded(line: str) -> list[str]:
        return fold(line, width) if width else [line]

    def counts(first: str, parts: list[str], separator: str) -> list[str]:
        return (
            fold_parts(first, parts, separator, width) if width else [first + separator.join(parts)]
        )

    heads = folded(f"{head} {aside}" if aside else head)
    if len(heads) > 1:
        heads = [*folded(head), *folded(f"  {aside}")]
    rest: list[str] = []
    usage = result.usage if result else None
    if usage is not None:
        rest += counts("  tokens   ", token_parts(usage), " · ")
    if calls:
        rest += counts("  tools    ", tool_count_parts(calls), ", ")
    if session_id:
        rest += folded(f"  session  {session_id}")
    return heads, rest


def isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal; ``False`` for a closed or a fake stream."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Renderer:
    """Renders events as text: the reply on ``out``, progress on ``err``.

    Args:
        out: where the reply text goes.
        err: where tool calls, thinking, the status line and the summary go.
        color: use ANSI colours on ``err``.
        thinking: show the thinking text (dimmed) instead of a one-line indicator.
        live_status: draw a spinner status line on ``err`` (only for a terminal).
        columns: the width of the terminal ``err`` writes to: every line drawn there is
            cut (or, for the summary, folded) to fit, so nothing wraps. ``None`` for no
            terminal: lines are written whole.
        cursor: the terminal ``out`` writes to, when it is the same as ``err``'s: the
            spinner is then drawn after an unfinished line of the reply, where it fits.
        one_line_per_call: a tool call gets one line, when it ends (a call that never
            ended gets its start line at :meth:`finish`), as with ``live_status``, whose
            status line shows a running call: a replay's choice, which has no time to
            wait through. Otherwise (a log) its start has a line of its own too.

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
        columns: int | None = None,
        cursor: ReplyCursor | None = None,
        one_line_per_call: bool = False,
    ) -> None:
        self.out = out
        self.err = err
        self.color = color
        self.show_thinking = thinking
        self.live_status = live_status
        self.columns = columns
        self._starts_shown = not (live_status or one_line_per_call)
        self._cursor = cursor
        self._status = StatusLine(err, color=color, cursor=cursor)
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
        self._shared_terminal = live_status and isatty(out)
        self._last_output = time.monotonic()

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
            if self._starts_shown:  # else the status line shows it, or its end will
                self._started(call)
        elif isinstance(event, ToolCallCompleted):
            self._completed(self.tracker.add(event))
        elif isinstance(event, SystemInit):
            where = f" in {event.cwd}" if event.cwd else ""
            self._line(self._paint(f"● {event.model or 'agent'}{where}", DIM))
        elif isinstance(event, ResultEvent):
            self.result_event = event
            if not self._text_shown and event.result:
                # json output, or a stream without assistant events: the result is the reply.
                self._text(event.result)
        elif isinstance(event, (ConnectionEvent, RetryEvent)):
            mark = "⚠ connection" if isinstance(event, ConnectionEvent) else "⟳ retry"
            self._line(self._paint(f"  {mark} {event.subtype}{attempt(event)}", YELLOW))
        elif isinstance(event, InteractionRequest):
            self._line(interaction_request_line(event, color=self.color))
        elif isinstance(event, InteractionResponse):
            self._line(interaction_response_line(event, color=self.color))
        elif isinstance(event, (SystemEvent, UnknownEvent)):
            for line in other_event_lines(event, color=self.color):
                self._line(line)
        elif isinstance(event, UserEvent):
            pass  # the prompt, echoed back: the user knows it
        self._flush()

    def raw_line(self, text: str) -> None:
        """Render a line of output that is not an event (a banner, a plain-text error)."""
        self._clear_status()
        self._line(self._paint(text, DIM))
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
                self.err.write(self._paint("  ∴ ", DIM))
                self._open = self.err
        if self.show_thinking and event.text:
            self.err.write(self._paint(event.text.replace("\n", "\n    "), DIM))
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
        self._line(self._paint(f"  ∴ thought{took}", DIM))

    def _completed(self, call: ToolCall) -> None:
        # The label gives way first, so the outcome and duration stay on the line.
        width = self.columns - 1 if self.columns else None
        self._line(completed_line(call, color=self.color, width=width))
        for note in notes_lines(call):
            self._line(self._paint(note, DIM))

    # --- summary --------------------------------------------------------------------
    def summary(
        self, outcome: str, *, elapsed: float | None = None, more: Sequence[str] = ()
    ) -> None:
        """Render the final summary: outcome, duration, tokens, tool calls, session id.

        Args:
            outcome: ``"success"``, or a word for how the run ended (``"failed"``, ...).
            elapsed: seconds the run took by our clock (a replay has none: the result
                event's ``duration_ms`` is shown then). The CLI's own figure follows in
                brackets where it reads differently: it measures something else.
            more: lines to add at its end (a checkpointed run's changes), each folded
                to the terminal's width.
        """
        self._close_line()
        result = self.result_event
        head, aside = summary_head(outcome, elapsed, result.duration_ms if result else None)
        width = self.columns - 1 if self.columns else None
        heads, rest = summary_lines(head, aside, result, self.tracker.calls, self.session_id, width)
        colour = GREEN if outcome == "success" else RED
        lines = [*(self._paint(line, colour, BOLD) for line in heads), *rest]
        for line in more:
            lines += fold(line, width) if width else [line]
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
        after_reply = self._open is self.out and self._shared_terminal
        doing_now = doing(self.tracker.calls, thinking=self._in_thinking)
        self._status.draw(elapsed, doing_now, after_reply=after_reply, columns=self.columns)

    def resize(self, columns: int | None) -> None:
        """The terminal is now ``columns`` wide: later lines fit that, and a status line
        on screen is drawn again at once, cut to the new width."""
        if columns == self.columns:
            return
        self.columns = columns
        if self._cursor is not None:
            self._cursor.forget()
        self._status.redraw(columns)

    def finish(self) -> None:
        """End an unfinished line and remove the status line (before exiting); when a
        call's start had no line of its own (a status line showed it, or one line per
        call), show the tool calls that never finished."""
        self._close_line()
        if not self._starts_shown:
            for call in self.tracker.calls:
                if not call.is_finished:
                    self._started(call)
        self._flush()

    def _started(self, call: ToolCall) -> None:
        self._line(started_line(call, color=self.color))

    # --- plumbing -------------------------------------------------------------------
    def _paint(self, text: str, *codes: str) -> str:
        return painted(text, *codes, color=self.color)

    def _clear_status(self) -> None:
        self._status.clear()

    def _close_line(self) -> None:
        self._clear_status()
        if self._open is not None:
            self._open.write("\n")
            self._open = None

    def _line(self, text: str) -> None:
        self._close_line()
        self.err.write(self._fit(text) + "\n")

    def _fit(self, line: str) -> str:
        """``line`` cut to the terminal's width, less its last cell (see _draw_status)."""
        return cut(line, self.columns - 1) if self.columns else line

    def _flush(self) -> None:
        self._last_output = time.monotonic()
        # Flush both after every event: when they share a terminal or a pipe (2>&1),
        # the order on screen is the order of events.
        self.out.flush()
        self.err.flush()
