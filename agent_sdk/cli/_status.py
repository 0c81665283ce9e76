"""The status line on a terminal's stderr: a spinner, the time, what the agent is doing.

Drawn over itself and taken back before any other output, so it must never wrap: a
wrapped line leaves its first rows behind at every frame (docs/cli.md, "Live output").
"""

from __future__ import annotations

from typing import TextIO

from ._lines import DIM, painted
from ._screen import ReplyCursor, cells, cut

__all__ = ["StatusLine"]

_CLEAR_LINE = "\r\x1b[K"
_ERASE_TO_END = "\x1b[K"
_SAVE_CURSOR = "\x1b7"
_RESTORE_CURSOR = "\x1b8"
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class StatusLine:
    """The status line a :class:`~agent_sdk.cli.render.Renderer` draws on ``err``.

    Args:
        err: the terminal it is drawn on.
        color: dim it with ANSI colours.
        cursor: the terminal the reply goes to, when it is the same as ``err``'s: after
            an unfinished line of the reply, a short spinner is drawn at its end instead,
            where it fits.
    """

    def __init__(self, err: TextIO, *, color: bool, cursor: ReplyCursor | None) -> None:
        self.err = err
        self.color = color
        self.cursor = cursor
        self._erase = ""  # what takes the frame on screen back; "" when none is
        self._frame = 0
        self._last: tuple[float, str, bool] = (0.0, "", False)  # to redraw it on a resize

    @property
    def drawn(self) -> bool:
        """Whether a frame is on screen."""
        return bool(self._erase)

    def draw(self, elapsed: float, doing: str, *, after_reply: bool, columns: int | None) -> None:
        """Draw the next frame over the last one.

        Args:
            elapsed: seconds since the run started.
            doing: what the agent is doing (``$ pytest -q``, ``thinking``).
            after_reply: the reply's last line is unfinished on the same terminal.
            columns: the terminal's width; the frame is cut to it, less the last cell
                (a character there puts some terminals in a pending wrap).
        """
        self._frame = (self._frame + 1) % len(_SPINNER)
        self._draw(elapsed, doing, after_reply=after_reply, columns=columns)

    def redraw(self, columns: int | None) -> None:
        """Draw the frame on screen again, at a new width (the terminal was resized)."""
        if self._erase:
            elapsed, doing, after_reply = self._last
            self._draw(elapsed, doing, after_reply=after_reply, columns=columns)

    def clear(self) -> None:
        """Take the frame on screen back, if there is one."""
        if self._erase:
            self.err.write(self._erase)
            # Now: the reply may go to another buffer (stdout) on the same terminal.
            self.err.flush()
            self._erase = ""

    def _draw(self, elapsed: float, doing: str, *, after_reply: bool, columns: int | None) -> None:
        self._last = (elapsed, doing, after_reply)
        self.err.write(self._erase)
        self._erase = ""
        spinner = f"{_SPINNER[self._frame]} {elapsed:.1f} s"
        if after_reply:
            cursor = self.cursor
            room = cursor.room(columns) - 1 if cursor is not None and columns else 0
            shown = next((i for i in (f"  {spinner}", f" {spinner[0]}") if cells(i) <= room), "")
            if shown:
                # Save the cursor, draw, and on clearing restore it and erase to the end.
                self.err.write(_SAVE_CURSOR + painted(shown, DIM, color=self.color))
                self._erase = _RESTORE_CURSOR + _ERASE_TO_END
        else:
            line = f"{spinner} · {doing}"
            line = cut(line, columns - 1) if columns else line
            self.err.write(_CLEAR_LINE + painted(line, DIM, color=self.color))
            self._erase = _CLEAR_LINE
        self.err.flush()
