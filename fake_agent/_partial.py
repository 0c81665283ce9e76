"""``--stream-partial-output``: turning whole assistant segments into deltas and flushes.

Scenarios hold assistant text the way the CLI prints it *without* the flag: one event
per segment, the segment before a tool call with ``model_call_id`` and
``timestamp_ms``, the last segment with neither. With the flag the real CLI prints
(``docs/protocol.md`` §3.3):

* deltas: small pieces of new text, with ``timestamp_ms`` and no ``model_call_id``;
* before a tool call, a flush of the segment's whole text with both keys;
* at the end of the turn, a flush with neither key of the turn's last segment: the text
  since the last tool call (its pre-tool-call flush), not the whole reply.

Both flushes duplicate text already sent as deltas; consumers must skip them.
"""

from __future__ import annotations

import re
import time
from typing import Any

from ._render import StreamJsonRenderer

# Word boundaries (a space followed by a non-space), so chunks keep their whitespace.
_WORD_START = re.compile(r"(?<=\s)(?=\S)")
_MAX_PIECE = 12
_WORDS_PER_DELTA = 2


# Longer segments (``huge_line``) go out in big slices: millions of tiny deltas would
# take minutes and gigabytes.
_HUGE_SEGMENT = 1 << 20
_HUGE_DELTA = 1 << 16


def split_deltas(text: str) -> list[str]:
    """Cut text into small pieces that concatenate back to exactly ``text``."""
    if len(text) > _HUGE_SEGMENT:
        return [text[i : i + _HUGE_DELTA] for i in range(0, len(text), _HUGE_DELTA)]
    pieces: list[str] = []
    for word in _WORD_START.split(text):
        pieces.extend(word[i : i + _MAX_PIECE] for i in range(0, len(word), _MAX_PIECE))
    return [
        "".join(pieces[i : i + _WORDS_PER_DELTA]) for i in range(0, len(pieces), _WORDS_PER_DELTA)
    ]


def _text_of(event: dict[str, Any]) -> str:
    message = event.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return ""
    return "".join(
        str(block.get("text", ""))
        for block in content
        if isinstance(block, dict) and block.get("type") == "text"
    )


def _with_text(event: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of an assistant event whose message holds just ``text``, minus both keys."""
    copy = {k: v for k, v in event.items() if k not in ("model_call_id", "timestamp_ms")}
    message = event.get("message")
    role = message.get("role", "assistant") if isinstance(message, dict) else "assistant"
    copy["message"] = {"role": role, "content": [{"type": "text", "text": text}]}
    return copy


class PartialOutputRenderer(StreamJsonRenderer):
    """``stream-json`` with ``--stream-partial-output``."""

    def __init__(self, exit_code: int) -> None:
        super().__init__(exit_code)
        self._turn: list[str] = []
        # The last segment of the turn, once seen: the end-of-turn flush is modelled on it.
        self._last_segment: dict[str, Any] | None = None
        self._clock: int | None = None

    def _tick(self) -> int:
        # Deltas need a timestamp even when the scenario's segment has none: follow
        # the latest timestamp seen, one millisecond per delta.
        if self._clock is None:
            self._clock = int(time.time() * 1000)
        self._clock += 1
        return self._clock

    def _end_turn(self) -> None:
        if self._last_segment is not None:
            super().event(_with_text(self._last_segment, "".join(self._turn)))
        self._turn = []
        self._last_segment = None

    def event(self, event: dict[str, Any]) -> None:
        """Expand assistant segments; emit the end-of-turn flush before the result."""
        kind = event.get("type")
        text = _text_of(event) if kind == "assistant" else ""
        pieces = split_deltas(text)
        timestamp = event.get("timestamp_ms")
        if isinstance(timestamp, int) and not isinstance(timestamp, bool):
            # Deltas come just before the segment's own timestamp, which its flush keeps.
            self._clock = max(self._clock or 0, timestamp - len(pieces) - 1)
        if kind in ("user", "result"):
            self._end_turn()
        if kind != "assistant":
            super().event(event)
            return
        self._turn.append(text)
        for piece in pieces:
            delta = _with_text(event, piece)
            delta["timestamp_ms"] = self._tick()
            super().event(delta)
        if "model_call_id" in event:
            flush = dict(event)
            flush.setdefault("timestamp_ms", self._tick())
            super().event(flush)
            self._turn = []  # the end-of-turn flush holds only what follows
        else:
            self._last_segment = event

    def finish(self) -> None:
        """A turn cut short of its result still gets its end-of-turn flush."""
        self._end_turn()
