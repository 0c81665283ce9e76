"""The runnable examples in examples/ as their tests run them, against the bundled fake
agent: a script run as a user would run it (``python examples/x.py``, ``run_example``) with
``AGENT_SDK_EXAMPLES_FAKE=1``; and examples/sse_server.py imported (the module-scoped
fixture ``sse_server``) and driven in-process (``request``, ``get_sse``: raw ASGI calls
through httpx), its server-sent events parsed (``parse_sse``).

Shared by test_examples.py, test_example_chat_bot.py, test_example_batch.py,
test_example_sse_server.py, test_examples_first_use.py, test_web_guard.py,
test_web_traces.py and test_web_words.py.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
HANG_GUARD = 20  # seconds: only so that a broken example fails instead of hanging


def example_env() -> dict[str, str]:
    env = {**os.environ, "AGENT_SDK_EXAMPLES_FAKE": "1"}
    env.pop("FAKE_AGENT_SCENARIO", None)  # the prompts pick the scenarios
    return env


def run_example(
    script: str, *args: str | Path, cwd: Path = REPO
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *map(str, args)],
        cwd=cwd,
        env=example_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def sse_server() -> Iterator[ModuleType]:
    """examples/sse_server.py, imported with the environment that picks the fake agent."""
    with pytest.MonkeyPatch.context() as mp:
        for name, value in example_env().items():
            mp.setenv(name, value)
        mp.delenv("FAKE_AGENT_SCENARIO", raising=False)
        mp.syspath_prepend(str(EXAMPLES))
        for module in ("sse_server", "_agent"):
            sys.modules.pop(module, None)
        yield importlib.import_module("sse_server")
        for module in ("sse_server", "_agent"):
            sys.modules.pop(module, None)


def parse_sse(body: str) -> list[tuple[str, Any]]:
    """(event, decoded data) of every server-sent event in a body."""
    events = []
    for block in body.split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        assert set(fields) == {"event", "data"}, block
        events.append((fields["event"], json.loads(fields["data"])))
    return events


async def request(
    module: ModuleType, path: str, method: str = "GET", json: Any = None, **params: str
) -> httpx.Response:
    # The server answers only its own address (examples/_web_guard.py).
    transport = httpx.ASGITransport(app=module.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        with anyio.fail_after(HANG_GUARD):
            return await client.request(method, path, params=params, json=json)


async def get_sse(module: ModuleType, prompt: str) -> list[tuple[str, Any]]:
    response = await request(module, "/run", method="POST", json={"prompt": prompt})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert "content-length" not in response.headers
    return parse_sse(response.text)
