"""A connection's first line, the run's token (and a mode), before what it serves
(``_host.py``; docs/extend.md, "How the tools reach the CLI")."""

from __future__ import annotations

import anyio.abc

__all__ = ["TOKEN_LINE_MAX", "Prefixed", "split_token"]

TOKEN_LINE_MAX = 1024  # bytes the first line may take: a token is 43


def split_token(data: bytes) -> tuple[bytes, bytes] | None:
    """The first line of ``data`` (without its newline) and what follows it; ``None``
    while no newline came. Raises ``ValueError`` when the line is longer than a token
    can be."""
    end = data.find(b"\n", 0, TOKEN_LINE_MAX + 1)
    if end < 0:
        if len(data) > TOKEN_LINE_MAX:
            raise ValueError("the first line is longer than a token")
        return None
    return data[:end], data[end + 1 :]


class Prefixed(anyio.abc.ByteReceiveStream):
    """A stream whose first bytes were read already (what came after the token)."""

    def __init__(self, first: bytes, rest: anyio.abc.ByteReceiveStream) -> None:
        self._first = first
        self._rest = rest

    async def receive(self, max_bytes: int = 65536) -> bytes:
        if self._first:
            data, self._first = self._first, b""
            return data
        return await self._rest.receive(max_bytes)

    async def aclose(self) -> None:
        await self._rest.aclose()
