"""run_sync hands its result back without formatting it: asyncio builds the repr of the
task that ran it (its SIGINT handler's), and that repr would walk every kept event."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agent_sdk import AgentOptions, run_sync
from agent_sdk._wire.event_base import _Event

MakeOptions = Callable[..., AgentOptions]


def test_run_sync_formats_none_of_the_events_it_returns(
    fake_options: MakeOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    original = _Event.__repr__

    def counted(self: _Event) -> str:
        shown.append(type(self).__name__)
        return original(self)

    monkeypatch.setattr(_Event, "__repr__", counted)
    result = run_sync("go", options=fake_options("tools"))
    assert len(result.events) > 3
    assert shown == []
