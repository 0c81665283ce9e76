"""examples/sse_server.py, imported and driven in-process against the bundled fake agent
(raw ASGI calls through httpx, on asyncio and on trio; example_runs.py): a run's
server-sent events for the page (start, init, the reply's text once, each tool call's
words, done or an error with its hint), the page and its assets, a bad request, and a run
ended by a stop or by the client leaving, its process group with it.

The page itself, in a real browser: tests/process/test_web_page.py.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any

import anyio
import pytest
from asgi_request import asgi_scope, receive_body
from example_runs import HANG_GUARD, get_sse, parse_sse, request, sse_server
from proctable import children, is_running

from agent_sdk.cli.labels import result_detail, tool_label
from agent_sdk.tools import ReadArgs, ReadSuccess

__all__ = ["sse_server"]  # the fixture, found here by name

STALL_BODY = b'{"prompt": "scenario:stall"}'  # a first segment, then an hour of silence


@pytest.mark.anyio
async def test_sse_streams_the_run_for_the_page_then_done(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:cart Add a test for cart totals")
    kinds = [kind for kind, _ in events]
    assert kinds[:2] == ["start", "init"]
    assert re.fullmatch(r"[0-9a-f]{32}", events[0][1]["run"])
    assert kinds[-1] == "done"
    assert kinds.count("tool") == 2  # started, then completed
    assert set(kinds) == {"start", "init", "text", "tool", "done"}
    done = events[-1][1]
    assert done["result"] == "I'll read the cart module first.The test is added and passes."
    assert done["tool_calls"] == 1
    assert done["session_id"] == events[1][1]["session_id"]
    assert done["usage"]["inputTokens"] == 115
    assert done["fake_agent"] is True  # the run says it, not only the page's header


@pytest.mark.anyio
async def test_sse_text_events_carry_the_reply_once(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:cart Add a test for cart totals")
    text = "".join(data["text"] for kind, data in events if kind == "text")
    assert text == events[-1][1]["result"]


@pytest.mark.anyio
async def test_sse_tool_events_say_label_args_status_and_duration(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:cart Add a test for cart totals")
    started, completed = (data for kind, data in events if kind == "tool")
    label = tool_label("readToolCall", ReadArgs(path="src/cart.py"))
    assert started == {
        "id": "call_7Qx2\nfc_01ab",
        "kind": "readToolCall",
        "label": label,
        "label_parts": [[label, False]],
        "args": [],  # the label says the path; the whole file is read
        "status": "running",
        "outcome": None,
        "exit_code": None,
        "duration_ms": None,
        "detail": "",
        "notes": [],
    }
    assert completed == {
        **started,
        "status": "succeeded",
        "outcome": "success",
        "duration_ms": 169,
        "detail": result_detail(ReadSuccess(total_lines=54)),
    }


@pytest.mark.anyio
async def test_sse_a_command_that_exited_non_zero_is_a_failed_call(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:tools")
    shells = {
        data["label"]: data
        for kind, data in events
        if kind == "tool" and data["kind"] == "shellToolCall" and data["status"] != "running"
    }
    assert shells["$ pytest -q"]["status"] == "succeeded"
    assert shells["$ ruff check tests"]["status"] == "failed"
    assert shells["$ ruff check tests"]["outcome"] == "exit 1"


@pytest.mark.anyio
async def test_sse_tool_args_are_short_words_never_json_or_ids(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:tools")
    completed = [data for kind, data in events if kind == "tool" and data["status"] != "running"]
    limits = importlib.import_module("_page_stream")  # what sse_server sends its page
    assert len(completed) > 5
    for call in completed:
        assert call["label"] != call["kind"]  # a word for every kind of this scenario
        assert len(call["args"]) <= limits.MAX_ARGS
        for name, value in call["args"]:
            assert re.fullmatch(r"[a-z][a-z ()]*", name), name  # words, not wire names
            assert value not in ("", "null", "false")
            assert not value.startswith(("{", "[", '"')), value  # text, not JSON
            assert "\n" not in value
            assert len(value) <= limits.MAX_VALUE
    write = next(c for c in completed if c["kind"] == "writeToolCall")
    file_text = dict(write["args"])["text"]
    assert file_text.startswith("from decimal import")
    assert file_text.endswith("…")


@pytest.mark.anyio
async def test_sse_done_carries_the_reply_with_its_messages_apart(sse_server: ModuleType) -> None:
    done = (await get_sse(sse_server, "scenario:cart Add a test for cart totals"))[-1][1]
    assert done["text"] == "I'll read the cart module first.\n\nThe test is added and passes."


@pytest.mark.anyio
async def test_sse_failed_run_ends_with_an_error_event(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:crash")
    kinds = [kind for kind, _ in events]
    assert kinds[:2] == ["start", "init"]
    assert "done" not in kinds
    assert kinds[-1] == "error"
    error = events[-1][1]
    assert error["error"] == "AgentProcessError"
    assert error["message"].startswith("cursor-agent exited with code 1")
    assert error["exit_code"] == 1
    assert error["hint"] is None


@pytest.mark.anyio
async def test_sse_error_event_carries_the_hint(sse_server: ModuleType) -> None:
    events = await get_sse(sse_server, "scenario:not_logged_in")
    kind, error = events[-1]
    assert (kind, error["error"]) == ("error", "AgentAuthError")
    assert "cursor-agent login" in error["hint"]
    assert "Hint:" not in error["message"]  # the page shows the hint on its own


@pytest.mark.anyio
async def test_sse_index_page_loads_the_script_that_starts_runs_with_a_post(
    sse_server: ModuleType,
) -> None:
    response = await request(sse_server, "/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "<h1>" in response.text
    assert "<!--AGENT-->" not in response.text  # it says which agent
    assert "bundled fake agent" in response.text
    for asset in re.findall(r'(?:src|href)="(/web/[^"]+)"', response.text):
        assert (await request(sse_server, asset)).status_code == 200, asset
    script = await request(sse_server, "/web/page.js")
    assert 'fetch("/run", {\n    method: "POST"' in script.text


@pytest.mark.anyio
async def test_sse_run_without_prompt_is_a_bad_request(sse_server: ModuleType) -> None:
    assert (await request(sse_server, "/run", method="POST", json={})).status_code == 400
    empty = await request(sse_server, "/run", method="POST", json={"prompt": " "})
    assert empty.status_code == 400


@pytest.mark.anyio
async def test_sse_stop_of_no_running_run_says_so(sse_server: ModuleType) -> None:
    response = await request(sse_server, "/stop", method="POST", run="nope")
    assert (response.status_code, response.json()) == (200, {"stopped": False})
    assert (await request(sse_server, "/stop", run="nope")).status_code == 405


@pytest.mark.anyio
async def test_sse_stop_ends_the_run_and_its_process_group(sse_server: ModuleType) -> None:
    # `stall`: a first assistant segment, then an hour of silence with stdout open.
    before = set(children())
    text_sent = anyio.Event()
    bodies: list[bytes] = []

    receive = receive_body(STALL_BODY)  # the client stays: only the stop ends this run

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            bodies.append(message["body"])
            if b"event: text" in message["body"]:
                text_sent.set()

    with anyio.fail_after(HANG_GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(sse_server.app, asgi_scope("/run"), receive, send)
            await text_sent.wait()
            agent_pids = set(children()) - before
            run_id = parse_sse(bodies[0].decode())[0][1]["run"]
            response = await request(sse_server, "/stop", method="POST", run=run_id)
            assert response.json() == {"stopped": True}
            # The stop was answered once the group had ended, not merely asked to.
            assert agent_pids, "the agent was not running while the response streamed"
            assert not any(is_running(pid) for pid in agent_pids)

    body = b"".join(bodies).decode()
    kinds = [kind for kind, _ in parse_sse(body)]
    assert kinds[-1] == "stopped"
    assert "done" not in kinds
    assert "error" not in kinds
    assert run_id not in sse_server.RUNS


@pytest.mark.anyio
async def test_sse_client_disconnect_ends_the_run(sse_server: ModuleType) -> None:
    # `stall`: a first assistant segment, then an hour of silence with stdout open.
    before = set(children())
    text_sent = anyio.Event()
    agent_pids: set[int] = set()
    bodies: list[bytes] = []

    receive = receive_body(STALL_BODY, text_sent.wait)  # then the browser tab is closed

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            bodies.append(message["body"])
            if b"event: text" in message["body"] and not text_sent.is_set():
                agent_pids.update(set(children()) - before)
                text_sent.set()

    with anyio.fail_after(HANG_GUARD):
        await sse_server.app(asgi_scope("/run"), receive, send)

    assert agent_pids, "the agent was not running while the response streamed"
    assert not any(is_running(pid) for pid in agent_pids)
    body = b"".join(bodies)
    assert b"event: done" not in body
    assert b"event: stopped" not in body  # nobody is left to tell
    assert sse_server.RUNS == {}
