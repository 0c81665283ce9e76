"""The runnable examples in examples/, run against the bundled fake agent.

Scripts run as a user would run them (``python examples/x.py``) with
``AGENT_SDK_EXAMPLES_FAKE=1``; the assertions are on what they print and write. The SSE
server is imported and driven in-process (raw ASGI calls through httpx); its page in a
real browser is tests/process/test_web_page.py.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import httpx
import pytest
from asgi_request import asgi_scope, receive_body
from proctable import children, is_running

from agent_sdk.cli.labels import result_detail, tool_label
from agent_sdk.tools import ReadArgs, ReadSuccess

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


# --- quickstart.py --------------------------------------------------------------------
def test_quickstart_prints_result_usage_and_tool_calls() -> None:
    proc = run_example("quickstart.py", "scenario:cart Add a test for cart totals")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # The reply: its two messages (a tool call came between them) a blank line apart.
    assert lines[:3] == ["I'll read the cart module first.", "", "The test is added and passes."]
    assert "usage:    115 input + 18 output tokens" in lines
    assert "tool calls: 1" in lines
    assert any(line.startswith("  readToolCall: success in 169 ms") for line in lines)


def test_examples_say_on_stderr_which_agent_they_use() -> None:
    proc = run_example("quickstart.py", "hi")
    assert proc.returncode == 0, proc.stderr
    assert "using the bundled fake agent" in proc.stderr
    assert "fake agent" not in proc.stdout


def test_quickstart_failure_is_reported_with_exit_code_1() -> None:
    proc = run_example("quickstart.py", "scenario:not_logged_in hi")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "error: " in proc.stderr
    assert "Hint:" in proc.stderr  # a classified failure says how to fix it


# --- stream.py / stream_trio.py -------------------------------------------------------
@pytest.mark.parametrize("script", ["stream.py", "stream_trio.py"])
def test_stream_prints_the_reply_once_with_tool_calls(script: str) -> None:
    proc = run_example(script, "scenario:cart Add a test for cart totals")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # Streamed in partial deltas, flushes repeated by the CLI: each sentence shows once.
    assert out.count("I'll read the cart module first.") == 1
    assert out.count("The test is added and passes.") == 1
    assert out.index("I'll read") < out.index("→ read src/cart.py") < out.index("✓ read src/")
    assert out.index("✓ read src/cart.py") < out.index("The test is added")
    assert "[done in 18788 ms" in out


def test_stream_trio_ends_with_the_session_and_its_tool_call_count() -> None:
    proc = run_example("stream_trio.py", "scenario:cart Add a test for cart totals")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^\[session \S+, 1 tool calls\]$", proc.stdout, re.MULTILINE)


@pytest.mark.parametrize("script", ["stream.py", "stream_trio.py"])
def test_stream_failure_prints_error_and_exits_1(script: str) -> None:
    proc = run_example(script, "scenario:crash")
    assert proc.returncode == 1
    assert "I'll read the cart module first." in proc.stdout  # events before the crash
    assert "error: cursor-agent exited with code 1" in proc.stderr


# --- chat_bot.py ----------------------------------------------------------------------
REPLY = re.compile(
    r"^(?P<user>\w+) (?P<turn>#\d|\(reopened\)) < \[session (?P<id>.*)\]\n"
    r"(?P<text>(?:  \|.*(?:\n|$))+)",
    re.MULTILINE,
)


@pytest.fixture(scope="module")
def chat_replies() -> list[dict[str, str]]:
    """The chat bot demo's replies, in the order it printed them."""
    proc = run_example("chat_bot.py")
    assert proc.returncode == 0, proc.stderr
    return [
        {**m.groupdict(), "text": re.sub(r"(?m)^  \| ?", "", m["text"]).strip()}
        for m in REPLY.finditer(proc.stdout)
    ]


def test_chat_bot_replies_to_every_message(chat_replies: list[dict[str, str]]) -> None:
    turns = sorted((r["user"], r["turn"]) for r in chat_replies)
    assert turns == [
        ("alice", "#1"),
        ("alice", "#2"),
        ("alice", "(reopened)"),
        ("bob", "#1"),
        ("bob", "#2"),
    ]
    assert all(r["text"].endswith("Both tests pass.") for r in chat_replies)  # `demo`


def test_chat_bot_keeps_one_session_id_per_user_across_turns(
    chat_replies: list[dict[str, str]],
) -> None:
    for user in ("alice", "bob"):
        ids = {r["id"] for r in chat_replies if r["user"] == user}
        assert len(ids) == 1, ids
        assert re.fullmatch(r"[0-9a-f-]{36}", ids.pop())


def test_chat_bot_gives_each_user_their_own_session(chat_replies: list[dict[str, str]]) -> None:
    alice = {r["id"] for r in chat_replies if r["user"] == "alice"}
    bob = {r["id"] for r in chat_replies if r["user"] == "bob"}
    assert alice.isdisjoint(bob)


def test_chat_bot_answers_a_users_queued_messages_in_order(
    chat_replies: list[dict[str, str]],
) -> None:
    for user in ("alice", "bob"):
        turns = [r["turn"] for r in chat_replies if r["user"] == user]
        assert turns[:2] == ["#1", "#2"]


# --- batch.py -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, subprocess.CompletedProcess[str]]:
    """The built-in batch (12 prompts, three scenarios that fail): its summary and output."""
    out = tmp_path_factory.mktemp("batch") / "summary.json"
    proc = run_example("batch.py", "--out", out)
    return json.loads(out.read_text(encoding="utf-8")), proc


def test_batch_summary_marks_the_failing_tasks_failed(batch: tuple[Any, Any]) -> None:
    summary, _ = batch
    failed = {
        task["prompt"].rsplit("scenario:", 1)[1]: task["error_type"]
        for task in summary["tasks"]
        if task["outcome"] == "failed"
    }
    assert failed == {
        "crash": "AgentProcessError",
        "is_error": "AgentResultError",
        "usage_limit": "AgentUsageLimitError",
    }
    assert (summary["total"], summary["succeeded"], summary["failed"]) == (12, 9, 3)
    crash = next(t for t in summary["tasks"] if t["prompt"].endswith("scenario:crash"))
    assert "exited with code 1" in crash["error"]
    assert crash["tool_calls"] == 1  # counted from the events before the crash


def test_batch_summary_records_result_tokens_and_tool_calls(batch: tuple[Any, Any]) -> None:
    summary, _ = batch
    by_scenario = {t["prompt"].rsplit("scenario:", 1)[1]: t for t in summary["tasks"]}
    cart = by_scenario["cart"]
    assert cart["outcome"] == "ok"
    assert cart["result"] == "I'll read the cart module first.\n\nThe test is added and passes."
    assert (cart["input_tokens"], cart["output_tokens"]) == (115, 18)
    assert (cart["tool_calls"], cart["tool_kinds"]) == (1, {"readToolCall": 1})
    assert by_scenario["tools"]["tool_calls"] > 5
    assert [t["index"] for t in summary["tasks"]] == list(range(1, 13))
    assert all(t["duration_s"] >= 0 and t["session_id"] for t in summary["tasks"])


def test_batch_prints_a_table_and_exits_1_when_a_task_failed(batch: tuple[Any, Any]) -> None:
    _, proc = batch
    assert proc.returncode == 1
    rows = [line for line in proc.stdout.splitlines() if re.match(r"^\s+\d+\s+(ok|failed)\s", line)]
    assert len(rows) == 12
    assert "↳ AgentUsageLimitError: " in proc.stdout
    assert "9 ok, 3 failed" in proc.stdout


def test_batch_reads_prompts_from_a_file(tmp_path: Path) -> None:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("# a comment\nscenario:hello first\n\nscenario:cart second\n")
    proc = run_example("batch.py", prompts, "--out", tmp_path / "out.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [t["prompt"] for t in summary["tasks"]] == [
        "scenario:hello first",
        "scenario:cart second",
    ]
    assert [t["outcome"] for t in summary["tasks"]] == ["ok", "ok"]


# --- sse_server.py --------------------------------------------------------------------
# Driven in-process with httpx's ASGI transport, or raw ASGI calls, on asyncio and on trio.
# The page itself, in a real browser: tests/process/test_web_page.py.
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


STALL_BODY = b'{"prompt": "scenario:stall"}'  # a first segment, then an hour of silence


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


# --- fix_failing_tests.py --------------------------------------------------------------
def test_fix_failing_tests_fixes_each_failing_module_in_a_worktree_and_writes_a_report(
    tmp_path: Path,
) -> None:
    proc = run_example("fix_failing_tests.py", "--report", "fixes.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "2 failing: tests.test_mixed, tests.test_quantities"
    assert lines[1:3] == [
        f"✓ tests.{name}: src/cart.py, tests/test_cart_totals.py"
        for name in ("test_mixed", "test_quantities")
    ]
    report = (tmp_path / "fixes.html").read_text()
    assert "tests.test_quantities" in report
    assert "+def test_total_multiplies_price_by_quantity" in report.replace("&quot;", '"')


def test_fix_failing_tests_says_so_when_nothing_fails(tmp_path: Path) -> None:
    repo = tmp_path / "green"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "tests" / "test_ok.py").write_text(
        "import unittest\n\n\nclass Ok(unittest.TestCase):\n    def test_ok(self):\n        pass\n"
    )
    proc = run_example("fix_failing_tests.py", repo, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"no failing test module in {repo}\n"


# --- review.py ----------------------------------------------------------------------------
def test_review_prints_the_typed_review_and_exits_1_when_it_asks_for_changes() -> None:
    proc = run_example("review.py")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("request_changes: total() adds up unit prices")
    assert lines[1] == (
        "  src/cart.py:12 [major] total ignores the quantity: multiply item.price by item.qty"
    )


def test_review_gets_a_corrected_review_as_json() -> None:
    proc = run_example("review.py", "scenario:json_corrected Review the cart", "--json")
    assert proc.returncode == 1, proc.stderr
    review = json.loads(proc.stdout)
    assert review["verdict"] == "request_changes"
    assert [f["line"] for f in review["findings"]] == [12, 3]


def test_review_says_so_when_no_reply_fits() -> None:
    proc = run_example("review.py", "scenario:json_never Review the cart")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-2].startswith("no review: ")
    assert "I cannot produce JSON" in proc.stderr


# --- issue_bot.py ---------------------------------------------------------------------
def run_issue_bot(answers: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "issue_bot.py"), "Triage issue 26"],
        cwd=cwd,
        env=example_env(),
        input=answers,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_issue_bot_runs_the_shell_command_a_person_allowed(tmp_path: Path) -> None:
    proc = run_issue_bot("y\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "The agent wants to run: echo tests pass. Allow? [y/N]" in proc.stderr
    assert "  shellToolCall: success" in proc.stdout.splitlines()
    assert "comment on #26: Triaged: the tests were checked." in proc.stdout.splitlines()
    # The agent's write of triage.md is the fake's simulated one: run from a reader's
    # checkout, the example leaves nothing behind.
    assert list(tmp_path.iterdir()) == []


def test_issue_bot_refuses_the_shell_command_when_no_one_answers(tmp_path: Path) -> None:
    proc = run_issue_bot("", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "(no one to answer: refused)" in proc.stderr
    assert "  shellToolCall: rejected" in proc.stdout.splitlines()
    assert "  mcpToolCall: success" in proc.stdout.splitlines()  # its own tools still run
