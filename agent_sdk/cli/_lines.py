"""What each line the command line writes on stderr says: tool calls, interaction
queries, the status line's activity, the summary's counts. Pure functions of events and
calls; the :class:`~agent_sdk.cli.render.Renderer` decides when and where they go."""

from __future__ import annotations

from collections import Counter

from ..events import (
    AskQuestionRequest,
    ConnectionEvent,
    CreatePlanRequest,
    InteractionRequest,
    InteractionResponse,
    RetryEvent,
    SystemEvent,
    TaskNotification,
    UnknownEvent,
    Usage,
    WebFetchRequest,
    WebSearchRequest,
)
from ..tool_calls import ToolCall
from ._screen import cells, cut
from .labels import (
    call_notes,
    command_failure,
    failure_detail,
    hook_block,
    interaction_label,
    result_detail,
    shorten,
)
from .labels import tool_label as tool_label

RESET = "\x1b[0m"
BOLD = "1"
DIM = "2"
RED = "31"
GREEN = "32"
YELLOW = "33"
CYAN = "36"
# A cut label keeps at least this many cells before its outcome and duration.
_LABEL_AT_LEAST = 12


def painted(text: str, *codes: str, color: bool) -> str:
    """``text`` in the ANSI ``codes`` when ``color``; as it is otherwise, or when empty."""
    if not color or not text:
        return text
    return f"\x1b[{';'.join(codes)}m{text}{RESET}"


def started_line(call: ToolCall, *, color: bool) -> str:
    """``  ▸ $ pytest -q``: a tool call that started."""
    return f"  {painted('▸', CYAN, color=color)} {tool_label(call.kind, call.args)}"


def completed_line(call: ToolCall, *, color: bool, width: int | None = None) -> str:
    """``  ✓ read src/cart.py  12 ms · 54 lines``, or ``  ✗ $ ruff — exit 1  207 ms``:
    a tool call that ended. With ``width``, the label is cut so that its outcome fits."""
    outcome = call.outcome
    parts = [f"{call.duration_ms} ms"] if call.duration_ms is not None else []
    if outcome == "success":
        # A command that exited non-zero ran (a success outcome), but did not work.
        failed = command_failure(call.result)
        detail = "" if failed else result_detail(call.result)
        parts += [detail] if detail else []
        mark, colour, what = ("✗", RED, failed) if failed else ("✓", GREEN, "")
    else:
        hooked = hook_block(call.result)  # the words of docs/protocol.md §6.4, not the CLI's
        reason = failure_detail(call.result)
        what = f"{outcome or 'unknown'}: {shorten(reason)}" if reason else str(outcome)
        what = shorten(hooked) if hooked else what
        mark, colour, parts = "✗", YELLOW if outcome == "rejected" else RED, []
    said = f" — {what}" if what else ""
    extra = f"  {' · '.join(parts)}" if parts else ""
    label = tool_label(call.kind, call.args)
    if width is not None:
        label = cut(label, max(width - 4 - cells(said) - cells(extra), _LABEL_AT_LEAST))
    said = f" — {painted(what, colour, color=color)}" if what else ""
    return f"  {painted(mark, colour, color=color)} {label}{said}{painted(extra, DIM, color=color)}"


# Notes under a call's line start with this.
NOTE = "    ↳ "


def notes_lines(call: ToolCall) -> list[str]:
    """The lines under a finished call's line (:func:`~agent_sdk.cli.labels.call_notes`):
    ``    ↳ answered: Two rounding bugs…``, each cut to one short line."""
    return [f"{NOTE}{what}: {shorten(text)}" for what, text in call_notes(call)]


def task_notification_lines(event: TaskNotification, *, color: bool) -> list[str]:
    """A background subagent finished: ``  ◆ subagent finished: Review — success`` and
    what it answered (docs/protocol.md §3.4b)."""
    title = shorten(event.title or event.task_id or "a background task")
    status = event.status or "unknown"
    colour = GREEN if status == "success" else RED
    head = f"  {painted('◆', CYAN, color=color)} subagent finished: {title} — "
    lines = [head + painted(status, colour, color=color)]
    if event.detail:
        lines.append(painted(f"{NOTE}answered: {shorten(event.detail)}", DIM, color=color))
    return lines


def other_event_lines(event: SystemEvent | UnknownEvent, *, color: bool) -> list[str]:
    """A ``system`` event after ``init`` or an event this SDK does not know: its name, dimmed
    (and why it was not decoded); a background subagent's end in words."""
    if isinstance(event, TaskNotification):
        return task_notification_lines(event, color=color)
    name = "/".join(part for part in (event.type, event.subtype) if part)
    lines = [painted(f"  · {name or 'event'}", DIM, color=color)]
    if isinstance(event, UnknownEvent) and event.error:
        lines.append(painted(f"    not decoded: {event.error}", DIM, color=color))
    return lines


def doing(calls: list[ToolCall], *, thinking: bool) -> str:
    """What the status line says the agent is doing."""
    if thinking:
        return "thinking"
    running = [call for call in calls if not call.is_finished]
    if len(running) == 1:
        return tool_label(running[0].kind, running[0].args)
    if running:
        return f"{len(running)} tool calls"
    return "waiting for the agent"


def attempt(event: ConnectionEvent | RetryEvent) -> str:
    """`` (attempt 2)`` for an event that numbers its attempt, else ``""``."""
    return f" (attempt {event.attempt})" if event.attempt is not None else ""


def interaction_request_line(event: InteractionRequest, *, color: bool) -> str:
    """The line of an ``interaction_query`` request: ``? plan approval requested  name``,
    ``? web search approval requested  term``, ``? question asked  title``."""
    asked = "asked" if isinstance(event, AskQuestionRequest) else "approval requested"
    line = f"  {painted('?', CYAN, color=color)} {interaction_label(event.query_type)} {asked}"
    about = _about(event)
    if about:
        line += painted(f"  {shorten(about)}", DIM, color=color)
    return line


def _about(event: InteractionRequest) -> str:
    """What a typed request is about: a plan's name, a search term, a URL, a title."""
    if isinstance(event, CreatePlanRequest):
        return event.args.name
    if isinstance(event, WebSearchRequest):
        return event.args.search_term
    if isinstance(event, WebFetchRequest):
        return event.args.url
    if isinstance(event, AskQuestionRequest):
        return event.args.title
    return ""


def interaction_response_line(event: InteractionResponse, *, color: bool) -> str:
    """The line of an ``interaction_query`` response: approved, answered, or refused."""
    what = interaction_label(event.query_type)
    outcome = event.outcome
    if outcome in ("success", "approved"):  # a plan's answer, a web search's or fetch's
        return f"  {painted('✓', GREEN, color=color)} {what} approved"
    if outcome is None:
        return painted(f"  · {what} answered", DIM, color=color)
    said = f"{outcome}: {shorten(event.reason)}" if event.reason else outcome
    colour = YELLOW if outcome == "rejected" else RED
    return f"  {painted('✗', colour, color=color)} {what} — {painted(said, colour, color=color)}"


def summary_head(outcome: str, elapsed: float | None, reported_ms: int | None) -> tuple[str, str]:
    """The summary's first line, ``✓ success in 0.5 s``, and its aside, ``(the CLI reports
    4.2 s)`` where the CLI's own figure reads differently (it measures something else);
    a replay has no ``elapsed``: the CLI's figure is the duration then."""
    head = f"{'✓' if outcome == 'success' else '✗'} {outcome}"
    reported = None if reported_ms is None else reported_ms / 1000
    if elapsed is None:
        return (head + f" in {reported:.1f} s" if reported is not None else head), ""
    head += f" in {elapsed:.1f} s"
    if reported is not None and f"{reported:.1f}" != f"{elapsed:.1f}":
        return head, f"(the CLI reports {reported:.1f} s)"
    return head, ""


def token_parts(usage: Usage) -> list[str]:
    """The summary's token counts, each a figure and its words: ``1,200 in``, ``340 out``,
    and the cache when it was used."""
    parts = [f"{usage.input_tokens:,} in", f"{usage.output_tokens:,} out"]
    if usage.cache_read_tokens or usage.cache_write_tokens:
        parts.append(f"{usage.cache_read_tokens:,} cache read")
        parts.append(f"{usage.cache_write_tokens:,} cache write")
    return parts


def tokens(usage: Usage) -> str:
    """The summary's token counts: ``1,200 in · 340 out``, and the cache when it was used."""
    return " · ".join(token_parts(usage))


def tool_count_parts(calls: list[ToolCall]) -> list[str]:
    """The summary's tool calls by outcome, ``3: 2 ✓, 1 error`` in parts: ``3: 2 ✓``,
    ``1 error`` (successes first; a command that exited non-zero counts apart:
    ``1 non-zero exit``)."""
    counts = Counter(
        "non-zero exit"
        if call.outcome == "success" and command_failure(call.result)
        else call.outcome or "running"
        for call in calls
    )
    parts = [f"{counts.pop('success')} ✓"] if "success" in counts else []
    parts += [f"{n} {name}" for name, n in sorted(counts.items())]
    return [f"{len(calls)}: {parts[0]}", *parts[1:]] if parts else [f"{len(calls)}:"]
