"""One event split over several lines by raw newlines, joined back (docs/protocol.md §3).

An unverified report says the CLI's ``result`` line sometimes holds raw newlines in its
text, one event spread over several physical lines. Such a first line starts with ``{``
and is no JSON; the lines after it are pieces of a JSON string. :func:`rejoin` joins them
back, each raw newline written as the ``\\n`` escape ``JSON.stringify`` would have
written, while the joined text still fails to parse, and gives up at a limit. Only on
the decoder's slow path: a line that parses costs nothing more, and a line that is an
event on its own is never taken into another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..events import Event
from .fallback import ends_too_soon

__all__ = ["MAX_BYTES", "MAX_LINES", "MORE", "may_start", "rejoin"]

MAX_LINES: Final = 64
"""The most physical lines one event is rebuilt from (a long reply has many paragraphs)."""
MAX_BYTES: Final = 1 << 20
"""The most bytes of an event rebuilt (1 MiB); a longer one stays lines that are no
events, as before."""
MORE: Final = -1
"""What :func:`rejoin` returns as its end when the lines ran out within the limits: the
event may go on in lines not read yet."""

_BOM = b"\xef\xbb\xbf"
_OPEN = (b"{", _BOM + b"{")  # a UTF-8 byte order mark is ignored, as by the decoder


def may_start(line: bytes) -> bool:
    """Whether a line that is no JSON may be the first piece of a split event."""
    return line.startswith(_OPEN)


def _joined(pieces: list[bytes]) -> bytes:
    # Each raw line break becomes the escape it stood for inside the string (a CRLF too).
    out = []
    for piece in pieces[:-1]:
        if piece.endswith(b"\r"):
            out.append(piece[:-1] + b"\\r\\n")
        else:
            out.append(piece + b"\\n")
    out.append(pieces[-1])
    return b"".join(out)


def rejoin(
    lines: list[bytes],
    start: int,
    decode: Callable[[bytes], Event | None],
    *,
    more_may_come: bool,
) -> tuple[Event | None, int]:
    """The event that ``lines[start]`` (no JSON, :func:`may_start`) and the lines after it
    make, and the index after its last line: ``(event, end)``.

    ``(None, end)`` when none does (``end``: after the last line looked at): a line that
    is an event on its own comes first, the limits (:data:`MAX_LINES`,
    :data:`MAX_BYTES`) are reached, or, with ``more_may_come`` false, the lines run out.
    The caller starts no other repair before ``end``: so each line is looked at by one
    attempt at most, and a flood of broken lines costs a bounded multiple of their size.
    ``(None, MORE)`` when the lines run out within the limits and more may come: the
    caller holds them until then.
    """
    pieces = [lines[start]]
    size = len(lines[start])
    last = min(len(lines), start + MAX_LINES)
    for end in range(start + 1, last):
        line = lines[end]
        size += len(line) + 2
        if size > MAX_BYTES:
            return None, end
        if line and not line.isspace() and decode(line) is not None:
            return None, end  # an event of its own: never a piece of another
        pieces.append(line)
        # Only a piece ending in `}` can end an object: the one decode worth trying.
        if line.rstrip().endswith(b"}"):
            joined = _joined(pieces)
            event = decode(joined)
            if event is not None:
                return event, end + 1
            if not ends_too_soon(joined.removeprefix(_BOM)):
                return None, end + 1  # wrong before its end: no line after can mend it
    if more_may_come and last == len(lines) and len(pieces) < MAX_LINES:
        return None, MORE
    return None, last
