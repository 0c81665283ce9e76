"""Bytes in, lines out: framing of the CLI's stdout on ``\\n`` only, with no length cap."""

from __future__ import annotations

__all__ = ["LineBuffer", "LineFramer"]


class LineFramer:
    """Splits a byte stream into lines, whatever the chunk boundaries.

    Works on bytes, so a multi-byte UTF-8 character split across chunks is rejoined
    before anything decodes it. A line may be any length (a 40 MB file read arrives as
    one line): the pieces of an unfinished line are kept in a list and joined once, so a
    long line costs linear time. Lines keep everything but their ``\\n``.
    """

    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending: list[bytes] = []

    def feed_blocks(self, chunk: bytes) -> list[bytes | memoryview]:
        """Add a chunk; return the lines it completed as blocks of whole lines, each
        ending ``\\n`` (a block decodes in one call: ``msgspec``'s ``decode_lines``).

        The line that began in earlier chunks comes first, joined; the rest is a view
        into ``chunk``, not a copy (benchmarks/).
        """
        end = chunk.rfind(b"\n") + 1
        if not end:
            if chunk:
                self._pending.append(chunk)
            return []
        blocks: list[bytes | memoryview] = []
        start = 0
        if self._pending:
            start = chunk.find(b"\n") + 1
            self._pending.append(chunk[:start])
            blocks.append(b"".join(self._pending))
            self._pending = []
        if start == 0 and end == len(chunk):
            blocks.append(chunk)
        elif start < end:
            blocks.append(memoryview(chunk)[start:end])
        if end < len(chunk):
            self._pending.append(chunk[end:])
        return blocks

    def feed(self, chunk: bytes) -> list[bytes]:
        """Add a chunk; return the (non-empty) lines it completed, in order."""
        lines = b"".join(self.feed_blocks(chunk)).split(b"\n")
        lines.pop()  # what follows the last \n: nothing, or the pending rest
        if b"" in lines:
            lines = [line for line in lines if line]
        return lines

    def flush(self) -> bytes | None:
        """At end of stream: the last line if it had no ``\\n``, else ``None``."""
        if not self._pending:
            return None
        line = b"".join(self._pending)
        self._pending = []
        return line or None


class LineBuffer:
    """Bytes in, complete lines out (blank ones skipped): the framing of JSON-RPC over
    stdio, the live agent's (docs/acp.md §1) and the MCP server's. A partial last line
    waits for its end (no length cap: replays and command lists are big)."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """The complete lines that ``data`` finishes, without their ``\\n``; blank lines
        are skipped."""
        self._buf += data
        if b"\n" not in data:
            return []
        *lines, rest = self._buf.split(b"\n")
        self._buf = bytearray(rest)
        return [bytes(line) for line in lines if line.strip()]

    def rest(self) -> bytes:
        """What is left after the last ``\\n`` (a truncated line at end of stream)."""
        return bytes(self._buf)
