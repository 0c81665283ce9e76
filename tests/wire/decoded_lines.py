"""One stdout line through a fresh LineDecoder, for the decoding tests (docs/protocol.md §3)."""

from __future__ import annotations

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import Event


def decode(line: bytes | str, *, partial: bool = False) -> Event | None:
    if isinstance(line, str):
        line = line.encode()
    return LineDecoder(partial=partial).decode(line)
