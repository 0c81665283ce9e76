"""The three output formats: how the events of a run become stdout.

A renderer receives the run's (already patched) events one by one, plus the raw
stdout lines of ``fake:stdout`` directives, and writes stdout as the real CLI would
for its ``--output-format``. It knows the run's planned exit code from the start,
because the real CLI decides what to print when the result arrives, not at exit.
"""

from __future__ import annotations

from typing import Any

from ._wire import encode_line, write_stdout


class Renderer:
    """Base renderer: raw lines are written at once, events are dropped."""

    def __init__(self, exit_code: int) -> None:
        self.exit_code = exit_code

    def event(self, event: dict[str, Any]) -> None:
        """Handle one wire event."""

    def stdout_line(self, text: str) -> None:
        """Write a non-JSON line (banner, plain-text error) in order with the rest."""
        write_stdout(text + "\n")

    def finish(self) -> None:
        """The scenario is over; write anything still held back."""

    def _prints_result(self, event: dict[str, Any]) -> bool:
        # A failed run prints no JSON, except a result that itself says it failed.
        return event.get("type") == "result" and (
            self.exit_code == 0 or event.get("is_error") is True
        )


class StreamJsonRenderer(Renderer):
    """``stream-json``: every event as one compact JSON line, flushed as written."""

    def event(self, event: dict[str, Any]) -> None:
        """Write the event as a line."""
        write_stdout(encode_line(event))


class JsonRenderer(Renderer):
    """``json``: only the result event, as one line, and only when it is printable.

    With ``show_thinking`` (the hidden ``--show-thinking``) the result gains
    ``thinking_blocks``: one ``{"text": ...}`` per stretch of thinking, its deltas joined
    (docs/protocol.md §2)."""

    def __init__(self, exit_code: int, *, show_thinking: bool = False) -> None:
        super().__init__(exit_code)
        self._blocks: list[dict[str, str]] | None = [] if show_thinking else None
        self._thinking: list[str] = []

    def event(self, event: dict[str, Any]) -> None:
        """Write the result event; keep the thinking if asked to; ignore the rest."""
        if event.get("type") == "thinking" and self._blocks is not None:
            if event.get("subtype") == "delta":
                self._thinking.append(str(event.get("text", "")))
            elif self._thinking:
                self._blocks.append({"text": "".join(self._thinking)})
                self._thinking = []
        if self._prints_result(event):
            if self._blocks is not None:
                if self._thinking:  # a stretch the scenario never completed
                    self._blocks.append({"text": "".join(self._thinking)})
                    self._thinking = []
                event = {**event, "thinking_blocks": self._blocks}
            write_stdout(encode_line(event))


class TextRenderer(Renderer):
    """``text``: only the final message (the result's ``result``), and a newline."""

    def event(self, event: dict[str, Any]) -> None:
        """Write the result text; ignore the rest."""
        if self._prints_result(event):
            write_stdout(str(event.get("result", "")) + "\n")


def make_renderer(
    output_format: str, partial: bool, exit_code: int, *, show_thinking: bool = False
) -> Renderer:
    """The renderer for ``--output-format`` (``--stream-partial-output`` only counts
    with ``stream-json``, ``--show-thinking`` only with ``json``, as in the real CLI)."""
    if output_format == "stream-json":
        if partial:
            # Imported here: only partial-output runs need it.
            from ._partial import PartialOutputRenderer

            return PartialOutputRenderer(exit_code)
        return StreamJsonRenderer(exit_code)
    if output_format == "json":
        return JsonRenderer(exit_code, show_thinking=show_thinking)
    return TextRenderer(exit_code)
