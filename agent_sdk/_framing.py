"""Bytes in, lines out: framing of the CLI's stdout on ``\\n`` only, with no length cap."""

from __future__ import annotations

__all__ = ["LineFramer"]


class LineFramer:
    """Splits a byte stream into lines, whatever the chunk boundaries.

    Works on bytes, so a multi-byte UTF-8 character split across chunks is rejoined
    before anything decodes it. A line may be any length (a 40 MB file read arrives as
    one line): the pieces of an unfinished line are kept in a list and joined once, so a
    long line costs linear time. Lines keep everything but their ``\\n``; empty ones are
    dropped unless ``keep_empty`` (text output, where a blank line is content).
    """

    __slots__ = ("_keep_empty", "_pending")

    def __init__(self, *, keep_empty: bool = False) -> None:
        self._pending: list[bytes] = []
        self._keep_empty = keep_empty

    def feed(self, chunk: bytes) -> list[bytes]:
        """Add a chunk; return the lines it completed, in order."""
        lines = chunk.split(b"\n")
        tail = lines.pop()  # the unfinished rest (b"" when the chunk ends with \n)
        if lines and self._pending:
            self._pending.append(lines[0])
            lines[0] = b"".join(self._pending)
            self._pending = []
        if tail:
            self._pending.append(tail)
        if not self._keep_empty and b"" in lines:
            lines = [line for line in lines if line]
        return lines

    def flush(self) -> bytes | None:
        """At end of stream: the last line if it had no ``\\n``, else ``None``."""
        if not self._pending:
            return None
        line = b"".join(self._pending)
        self._pending = []
        return line or None

    @property
    def pending_bytes(self) -> int:
        """Bytes of the unfinished line held so far."""
        return sum(map(len, self._pending))
