"""The key and what is shown of subagents (docs/protocol.md §3.4b) and hooks' traces
(§6.4): a run whose subagent was asked and answered the key, whose background child's
notification, hook contexts and hook reasons hold it, shows it nowhere on the
``agent-sdk`` command's screen nor on the example web page's event stream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from secrets_plant import KEY, MASK, write_scenario
from test_secrets_command import agent_sdk
from test_secrets_web_page import page_events, server

pytestmark = pytest.mark.parametrize("plant", ["environ"])

__all__ = ["server"]  # the fixture, shared with test_secrets_web_page.py

NOTE = "\n\nAgent note: Do not suggest workarounds to the blocked tool."


def call(subtype: str, call_id: str, kind: str, body: dict[str, Any], contexts: list[Any]) -> Any:
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {kind: body, "hookAdditionalContexts": contexts},
        "session_id": "s-1",
    }


def steps() -> Iterator[dict[str, Any]]:
    yield {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"}
    asked = {"description": f"Check {KEY}", "prompt": f"Is {KEY} valid?"}
    for background in (False, True):
        answer = {"conversationSteps": [{"assistantMessage": {"text": f"It is {KEY}."}}]}
        done = {"args": asked, "result": {"success": {**answer, "isBackground": background}}}
        yield call("started", f"t{background}", "taskToolCall", {"args": asked}, [])
        yield call("completed", f"t{background}", "taskToolCall", done, [f"context {KEY}"])
    yield {
        "type": "system",
        "subtype": "task_notification",
        "task_id": KEY,
        "status": "success",
        "title": f"Check {KEY}",
        "detail": f"It is {KEY}.",
        "session_id": "s-1",
    }
    for reason in (f"Hook blocked with message: {KEY}{NOTE}", f"{KEY}{NOTE}", KEY):
        rejected = {"args": {"path": "a"}, "result": {"rejected": {"path": "a", "reason": reason}}}
        yield call("completed", reason, "editToolCall", rejected, [{"text": KEY}])
    yield {"type": "result", "subtype": "success", "is_error": False, "result": "Done."}


@pytest.fixture
def traces(tmp_path: Path) -> Path:
    return write_scenario(tmp_path / "traces.ndjson", list(steps()))


@pytest.mark.parametrize("mode", [[], ["--json"], ["--no-partial"]], ids=["human", "json", "whole"])
def test_the_agent_sdk_command_shows_no_key_of_subagents_or_hooks(
    traces: Path, mode: list[str], plant: str
) -> None:
    done = agent_sdk("--fake", str(traces), *mode, "go", CURSOR_API_KEY=KEY)
    assert done.returncode == 0, done.stderr
    assert KEY not in done.stdout + done.stderr
    shown = done.stdout if mode == ["--json"] else done.stderr
    assert MASK in shown  # the premise: the channels were shown, the key masked
    if not mode:  # each line of the screen that says it
        for line in (
            f"answered: It is {MASK}.",
            f"hook context: {MASK}",
            f"finished: Check {MASK}",
        ):
            assert line in shown
        assert f"blocked by a hook: {MASK}" in shown


@pytest.mark.anyio
async def test_the_pages_notes_and_notice_show_no_key(
    traces: Path, server: ModuleType, monkeypatch: pytest.MonkeyPatch, plant: str
) -> None:
    monkeypatch.setenv("CURSOR_API_KEY", KEY)
    events = await page_events(server, traces, monkeypatch)
    assert "event: notice" in events  # the premise: the notice and the notes were sent
    assert '"notes":[["asked"' in events
    assert KEY not in events
