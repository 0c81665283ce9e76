"""The key and the example web page (examples/sse_server.py): its responses hold it
nowhere. The server's own options are fixed, so the key is planted the one way a server
gets it: the process environment."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from secrets_plant import KEY, MakeOptions

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("plant", ["environ"])]

REPO = Path(__file__).resolve().parents[2]
Leaky = Callable[..., Path]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """examples/sse_server.py in print mode on the fake agent, imported in this process."""
    monkeypatch.setenv("AGENT_SDK_EXAMPLES_FAKE", "1")
    monkeypatch.delenv("AGENT_SDK_EXAMPLES_LIVE", raising=False)
    monkeypatch.syspath_prepend(str(REPO))
    return importlib.import_module("examples.sse_server")


async def page_events(server: ModuleType, scenario: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The event stream of one run of ``scenario``, as the page receives it."""
    import httpx

    monkeypatch.setenv("FAKE_AGENT_SCENARIO", str(scenario))
    # The server's own origin: the page refuses requests that come from elsewhere.
    transport = httpx.ASGITransport(app=server.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        response = await client.post("/run", json={"prompt": "go"}, timeout=60)
    assert response.status_code == 200
    return response.text


def decoded(events: str) -> list[tuple[str, str]]:
    """The stream's events as (event, the text of its data)."""
    found = []
    for block in events.split("\n\n"):
        head, _, data = block.partition("\ndata: ")
        if head.startswith("event: ") and data:
            value = json.loads(data)
            found.append((head[7:], value.get("text", "") if isinstance(value, dict) else ""))
    return found


async def test_the_pages_error_event_shows_the_key_nowhere(
    planted: MakeOptions, leaky: Leaky, server: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = await page_events(server, leaky({"fake": "exit", "code": 1}), monkeypatch)
    (error,) = [block for block in events.split("\n\n") if block.startswith("event: error")]
    assert KEY not in error


async def test_the_pages_responses_show_the_key_nowhere(
    planted: MakeOptions, leaky: Leaky, server: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reply too: the page is a screen, as the agent-sdk command's is (which masks it).
    events = await page_events(server, leaky({"fake": "exit", "code": 1}), monkeypatch)
    assert "event: error" in events  # the premise: the run failed after its reply
    assert KEY not in events
    # The reply comes in deltas, a key cut across them: the text as the page draws it.
    assert KEY not in "".join(text for kind, text in decoded(events) if kind == "text")
