"""Wire events for in-memory scripts (docs/protocol.md §3), written for these tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent_sdk.testing import MemoryTransport, Output, Step

SESSION = "sess-1"


def init() -> dict[str, Any]:
    return {"type": "system", "subtype": "init", "session_id": SESSION, "model": "Fake"}


def say(text: str, **extra: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return {"type": "assistant", "message": message, "session_id": SESSION, **extra}


def result(text: str = "done", **extra: Any) -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": text,
        "session_id": SESSION,
        **extra,
    }


def lines(*events: dict[str, Any]) -> Output:
    return Output.event(*events)


def scripted(*scripts: list[Step]) -> Callable[[], MemoryTransport]:
    """A transport factory playing ``scripts`` in turn (the last one over and over); the
    transports it made are its ``made``."""
    made: list[MemoryTransport] = []

    def make() -> MemoryTransport:
        transport = MemoryTransport(scripts[min(len(made), len(scripts) - 1)])
        made.append(transport)
        return transport

    make.made = made  # type: ignore[attr-defined]
    return make
