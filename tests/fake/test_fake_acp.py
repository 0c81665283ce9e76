"""The fake's ACP mode (``fake-cursor-agent acp``) against the contract, docs/acp.md.

Each test drives ``python -m fake_agent acp`` over pipes with a small synchronous
JSON-RPC client. Reads are bounded (a reader thread and a queue with a timeout), so a
fake that hangs fails the test instead of stalling the suite; nothing asserts timing.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_env import ROOT, fake_env
from proctable import group_members, settles

#: Upper bound on one read; only a broken fake ever waits this long.
READ_TIMEOUT = 20.0

Message = dict[str, Any]


class Client:
    """A JSON-RPC client of the fake over its stdin/stdout."""

    def __init__(self, *args: str, **env: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fake_agent", *args, "acp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=fake_env(**env),
            cwd=ROOT,
            start_new_session=True,  # its own group: kill() ends what it left too
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Message) -> None:
        self.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")

    def request(self, method: str, params: Message | None = None) -> int:
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params or {}})
        return request_id

    def notify(self, method: str, params: Message) -> None:
        self.send({"method": method, "params": params})

    def read(self) -> Message:
        try:
            line = self.lines.get(timeout=READ_TIMEOUT)
        except queue.Empty:
            pytest.fail("the fake sent nothing in time")
        assert line, "the fake closed stdout"
        assert line.endswith(b"\n")
        message = json.loads(line)
        assert isinstance(message, dict)
        assert message["jsonrpc"] == "2.0"
        return message

    def until_response(self, request_id: int) -> tuple[list[Message], Message]:
        """Everything read up to the response to ``request_id``, and that response."""
        seen: list[Message] = []
        while True:
            message = self.read()
            if message.get("id") == request_id and "method" not in message:
                return seen, message
            seen.append(message)

    def call(self, method: str, params: Message | None = None) -> Message:
        """Send a request; the response (messages before it must be none)."""
        seen, response = self.until_response(self.request(method, params))
        assert seen == []
        return response

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=READ_TIMEOUT)
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=READ_TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


INIT: Message = {
    "protocolVersion": 1,
    "clientCapabilities": {
        "fs": {"readTextFile": False, "writeTextFile": False},
        "terminal": False,
    },
    "clientInfo": {"name": "agent_sdk", "version": "0.1.0"},
}


@pytest.fixture
def client() -> Iterator[Client]:
    fake = Client()
    try:
        yield fake
    finally:
        fake.kill()


def start(client: Client, cwd: str = "/home/dev/shop") -> str:
    """initialize + session/new; the session id (the command list update is consumed)."""
    assert "result" in client.call("initialize", INIT)
    response = client.call("session/new", {"cwd": cwd, "mcpServers": []})
    session_id = response["result"]["sessionId"]
    update = client.read()
    assert update["method"] == "session/update"
    assert update["params"]["update"]["sessionUpdate"] == "available_commands_update"
    return str(session_id)


def prompt(client: Client, session_id: str, text: str) -> int:
    params = {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}
    return client.request("session/prompt", params)


def updates(messages: list[Message]) -> list[Message]:
    assert all(m["method"] == "session/update" for m in messages)
    return [m["params"]["update"] for m in messages]


def texts(items: list[Message], kind: str) -> str:
    return "".join(u["content"]["text"] for u in items if u["sessionUpdate"] == kind)


# --------------------------------------------------------------------------- handshake


def test_initialize_as_recorded(client: Client) -> None:
    response = client.call("initialize", {**INIT, "protocolVersion": 99})
    assert response["id"] == 1
    assert client.call("initialize", INIT)["result"]["protocolVersion"] == 1  # answered again
    result = response["result"]
    assert result["protocolVersion"] == 1  # always 1 (§3.1)
    assert result["agentCapabilities"] == {
        "loadSession": True,
        "mcpCapabilities": {"http": True, "sse": True},
        "promptCapabilities": {"audio": False, "embeddedContext": False, "image": True},
        "sessionCapabilities": {"list": {}},
    }
    assert [m["id"] for m in result["authMethods"]] == ["cursor_login"]
    assert not {"agentInfo", "_meta", "auth"} & set(result)
    assert "result" in client.call("initialize", INIT)  # a second one is answered too
    assert client.call("authenticate", {"methodId": "cursor_login"})["result"] == {}
    bad = client.call("authenticate", {"methodId": "nope"})["error"]
    assert bad["code"] == -32602
    assert bad["data"] == {
        "message": "Unknown authentication method: nope. Supported method: cursor_login"
    }
    assert client.close() == 0  # closing stdin ends the process with 0


def test_session_new_result_and_command_list(client: Client) -> None:
    client.call("initialize", INIT)
    result = client.call("session/new", {"cwd": "/tmp", "mcpServers": []})["result"]
    assert set(result) == {"sessionId", "modes", "models", "configOptions"}
    assert result["modes"]["currentModeId"] == "agent"
    assert [m["id"] for m in result["modes"]["availableModes"]] == ["agent", "plan", "ask"]
    assert result["models"]["currentModelId"] == "default[]"
    assert [c["id"] for c in result["configOptions"]] == ["mode", "model"]
    update = client.read()
    assert update["params"]["sessionId"] == result["sessionId"]
    assert "id" not in update


def test_session_new_without_cwd_is_a_zod_error(client: Client) -> None:
    error = client.call("session/new", {"mcpServers": []})["error"]
    assert error["code"] == -32603
    assert isinstance(error["data"], list)
    assert error["data"][0]["path"] == ["cwd"]
    http = {"name": "x", "url": "http://localhost:1/mcp"}  # no type, no headers
    error = client.call("session/new", {"cwd": "/tmp", "mcpServers": [http]})["error"]
    assert (error["code"], error["data"][0]["code"]) == (-32603, "invalid_union")


def test_logged_out_process_needs_authentication(tmp_path: Path) -> None:
    fake = Client(FAKE_AGENT_REQUIRE_LOGIN="1", CURSOR_CONFIG_DIR=str(tmp_path))
    try:
        fake.call("initialize", INIT)
        error = fake.call("session/new", {"cwd": "/tmp", "mcpServers": []})["error"]
        assert error["code"] == -32000
        assert "agent login" in error["data"]["message"]
        error = fake.call("authenticate", {"methodId": "cursor_login"})["error"]
        assert error["code"] == -32602
        assert error["data"]["message"].startswith("Failed to open browser for login.")
    finally:
        fake.kill()


# --------------------------------------------------------------------------- framing


def test_malformed_lines_are_dropped_silently(client: Client) -> None:
    client.write(b"{not json\n")
    client.write(b'{"jsonrpc":"2.0","id":77,"method":"initial')  # truncated...
    client.write(b"\n\xff\xfe\n")
    assert client.call("initialize", INIT)["id"] == 1  # ...and the next request is answered
    assert client.proc.poll() is None


def test_unknown_method_and_cancel_sent_as_a_request(client: Client) -> None:
    error = client.call("session/fork", {"sessionId": "x"})["error"]
    assert error == {
        "code": -32601,
        "message": '"Method not found": session/fork',
        "data": {"method": "session/fork"},
    }
    error = client.call("session/cancel", {"sessionId": "x"})["error"]
    assert error["data"] == {"method": "session/cancel"}


def test_response_ids_echo_the_client_ids(client: Client) -> None:
    client.send({"id": "abc", "method": "initialize", "params": INIT})
    assert client.read()["id"] == "abc"


# --------------------------------------------------------------------------- prompts


def test_hello_prompt_streams_then_ends_turn(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, "hi"))
    assert response["result"] == {"stopReason": "end_turn"}
    assert all(m["params"]["sessionId"] == session_id for m in seen)
    got = updates(seen)
    assert texts(got, "agent_message_chunk") == "Hello! How can I help?"
    assert texts(got, "agent_thought_chunk") == "The user wants a greeting."
    assert "user_message_chunk" not in {u["sessionUpdate"] for u in got}  # never echoed live


def test_empty_prompt_ends_at_once(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, ""))
    assert (seen, response["result"]) == ([], {"stopReason": "end_turn"})


def test_prompt_to_unknown_session(client: Client) -> None:
    start(client)
    _, response = client.until_response(prompt(client, "nope", "hi"))
    assert response["error"]["code"] == -32603
    assert response["error"]["data"] == {"details": "Session nope not found"}


def test_tools_scenario_tool_call_shapes(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, "scenario:tools go"))
    assert response["result"]["stopReason"] == "end_turn"
    got = updates(seen)
    calls = [u for u in got if u["sessionUpdate"] == "tool_call"]
    assert {c["kind"] for c in calls} == {"read", "search", "edit", "execute"}
    assert all("\nfc_" in c["toolCallId"] for c in calls)
    shell = [u for u in got if u.get("rawOutput", {}).get("exitCode") == 0]
    assert shell[0]["status"] == "completed"


@pytest.mark.parametrize(
    ("option", "ran"),
    [("allow-once", True), ("allow-always", True), ("reject-once", False), (None, False)],
)
def test_permission_answer_changes_the_outcome(
    client: Client, option: str | None, ran: bool
) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:permission run the tests")
    seen = []
    while (message := client.read()).get("method") != "session/request_permission":
        seen.append(message)
    assert message["id"] == 0  # the agent's own counter starts at 0
    params = message["params"]
    assert params["sessionId"] == session_id
    assert params["toolCall"]["status"] == "pending"
    assert [o["optionId"] for o in params["options"]] == [
        "allow-once",
        "allow-always",
        "reject-once",
    ]
    assert [o["kind"] for o in params["options"]] == ["allow_once", "allow_always", "reject_once"]
    assert updates(seen)[-1]["status"] == "in_progress"  # in_progress before the request
    outcome = (
        {"outcome": "cancelled"}
        if option is None
        else {
            "outcome": "selected",
            "optionId": option,
        }
    )
    client.send({"id": 0, "result": {"outcome": outcome}})
    after, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    final = [u for u in updates(after) if u["sessionUpdate"] == "tool_call_update"][-1]
    assert final["status"] == "completed"  # never "failed", even when rejected
    assert ("rawOutput" in final) is ran
    assert ("12 pass" in texts(updates(after), "agent_message_chunk")) is ran


def test_force_auto_approves_without_asking() -> None:
    fake = Client("--force")
    try:
        session_id = start(fake)
        seen, response = fake.until_response(prompt(fake, session_id, "scenario:permission"))
        assert response["result"]["stopReason"] == "end_turn"
        assert all(m.get("method") == "session/update" for m in seen)
        assert "12 pass" in texts(updates(seen), "agent_message_chunk")
    finally:
        fake.kill()


def _extension(client: Client, text: str, method: str, answer: Message) -> str:
    session_id = start(client)
    request_id = prompt(client, session_id, text)
    while (message := client.read()).get("method") != method:
        assert message["method"] == "session/update"
    assert isinstance(message["id"], int)
    assert "toolCallId" in message["params"]
    client.send({"id": message["id"], **answer})
    after, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    return texts(updates(after), "agent_message_chunk")


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"result": {"outcome": {"outcome": "answered", "answers": []}}}, "Thanks"),
        ({"result": {"outcome": {"outcome": "skipped"}}}, "skipped"),
        ({"result": {"outcome": "answered"}}, "User cancelled"),  # flat: read as cancel
    ],
)
def test_ask_question_waits_for_the_answer(client: Client, answer: Message, said: str) -> None:
    assert said in _extension(client, "scenario:ask_question", "cursor/ask_question", answer)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"result": {"outcome": {"outcome": "accepted"}}}, "Plan accepted."),
        (
            {"result": {"outcome": {"outcome": "rejected", "reason": "no"}}},
            "Plan rejected; tell me what to change.",
        ),
        ({"error": {"code": -32601, "message": "Method not found"}}, ""),
    ],
)
def test_create_plan_waits_for_the_answer(client: Client, answer: Message, said: str) -> None:
    assert _extension(client, "scenario:create_plan", "cursor/create_plan", answer) == said


def test_cancel_ends_a_stalled_prompt_and_the_session_stays_usable(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:slow")
    while texts(updates([client.read()]), "agent_message_chunk") != "Working":
        pass
    client.notify("session/cancel", {"sessionId": session_id})
    seen, response = client.until_response(request_id)
    assert (seen, response["result"]) == ([], {"stopReason": "cancelled"})
    _, response = client.until_response(prompt(client, session_id, "hi"))
    assert response["result"] == {"stopReason": "end_turn"}


def test_flood_repeats_its_update_until_a_cancel_ends_the_turn(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:flood")
    assert texts(updates([client.read()]), "agent_thought_chunk") == "Here it comes."
    flood = updates([client.read() for _ in range(3000)])  # three of its writes at least
    assert texts(flood, "agent_message_chunk") == "x" * 3000
    client.notify("session/cancel", {"sessionId": session_id})
    seen, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "cancelled"}
    assert {u["content"]["text"] for u in updates(seen)} <= {"x"}  # "Flood over." never came
    _, response = client.until_response(prompt(client, session_id, "hi"))
    assert response["result"] == {"stopReason": "end_turn"}


def test_a_flood_ends_after_its_seconds_and_the_turn_goes_on(tmp_path: Path) -> None:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "x"}}
    steps = [
        {"fake": "flood", "seconds": 0.05, "update": update},
        {**update, "content": {"type": "text", "text": "after"}},
    ]
    scenario = tmp_path / "short_flood.ndjson"
    scenario.write_text("".join(json.dumps(step) + "\n" for step in steps))
    client = Client(FAKE_AGENT_ACP_SCENARIO=str(scenario))
    try:
        session_id = start(client)
        seen, response = client.until_response(prompt(client, session_id, "go"))
        said = [u["content"]["text"] for u in updates(seen)]
        assert response["result"] == {"stopReason": "end_turn"}
        assert said[-1] == "after"
        assert set(said[:-1]) == {"x"}  # the flood came, then the rest of the turn
    finally:
        client.kill()


def test_cancel_while_a_permission_request_is_pending(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:permission")
    while (message := client.read()).get("method") != "session/request_permission":
        pass
    client.notify("session/cancel", {"sessionId": session_id})
    _, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "cancelled"}
    client.send({"id": message["id"], "result": {"outcome": {"outcome": "cancelled"}}})
    assert client.call("session/list", {})["result"]["sessions"][0]["sessionId"] == session_id


def test_a_second_prompt_cancels_the_first(client: Client) -> None:
    session_id = start(client)
    first = prompt(client, session_id, "scenario:slow")
    while texts(updates([client.read()]), "agent_message_chunk") != "Working":
        pass
    second = prompt(client, session_id, "hi")
    _, response = client.until_response(first)
    assert response["result"] == {"stopReason": "cancelled"}
    _, response = client.until_response(second)
    assert response["result"] == {"stopReason": "end_turn"}


# --------------------------------------------------------------------------- modes, models


def test_set_mode_and_config_options(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(
        client.request("session/set_mode", {"sessionId": session_id, "modeId": "plan"})
    )
    assert response["result"] == {}
    assert updates(seen) == [{"sessionUpdate": "current_mode_update", "currentModeId": "plan"}]
    error = client.call("session/set_mode", {"sessionId": session_id, "modeId": "yolo"})["error"]
    assert error["code"] == -32603
    assert error["data"]["details"] == "Invalid mode ID: yolo. Valid modes: agent, plan, ask"
    model = "gpt-5.4[reasoning=medium,context=272k,fast=false]"
    params = {"sessionId": session_id, "configId": "model", "value": model}
    options = client.call("session/set_config_option", params)["result"]["configOptions"]
    assert [o["currentValue"] for o in options] == ["plan", model]
    params["value"] = "gpt-5.4"  # the other id space
    error = client.call("session/set_config_option", params)["error"]
    assert error == {
        "code": -32602,
        "message": error["message"],
        "data": {"message": "Invalid model value: gpt-5.4"},
    }
    result = client.call("session/set_model", {"sessionId": session_id, "modelId": "default[]"})
    assert result["result"] == {}


def test_parameterized_model_picker_selects_bare_ids(client: Client) -> None:
    caps = {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}
    caps["_meta"] = {"parameterizedModelPicker": True}
    client.call("initialize", {**INIT, "clientCapabilities": caps})
    result = client.call("session/new", {"cwd": "/tmp", "mcpServers": []})["result"]
    assert result["models"]["currentModelId"] == "default"


def test_unusable_model_at_spawn_exits_1() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "fake_agent", "--model", "gpt-99", "acp"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(),
        cwd=ROOT,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert proc.stderr.startswith(b"Cannot use this model: gpt-99. Available models: ")


def test_acp_help_and_hidden_from_main_help() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "fake_agent", *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=fake_env(),
            cwd=ROOT,
            timeout=30,
            check=False,
        )

    assert (
        b"Start the Cursor Agent as an ACP (Agent Client Protocol) server"
        in run("acp", "--help").stdout
    )
    assert b"acp" not in run("--help").stdout
    assert run("--acp").returncode == 1


# --------------------------------------------------------------------------- load, list


def test_load_replays_history_before_the_result(client: Client) -> None:
    session_id = start(client, "/home/dev/shop")
    client.until_response(prompt(client, session_id, "hi there"))
    params = {"sessionId": session_id, "cwd": "/home/dev/shop", "mcpServers": []}
    seen, response = client.until_response(client.request("session/load", params))
    assert set(response["result"]) == {"modes", "models", "configOptions"}  # no sessionId
    got = updates(seen)
    assert [u["sessionUpdate"] for u in got] == [
        "user_message_chunk",
        "agent_thought_chunk",  # the turn's thought fragments, coalesced
        "agent_message_chunk",
        "agent_message_chunk",
    ]
    assert got[0]["content"]["text"] == "hi there"
    assert got[1]["content"]["text"] == "The user wants a greeting."


def test_load_of_an_unknown_or_never_prompted_id_fails(client: Client) -> None:
    session_id = start(client)
    for unknown in ("0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10", session_id):
        params = {"sessionId": unknown, "cwd": "/tmp", "mcpServers": []}
        error = client.call("session/load", params)["error"]
        assert error["code"] == -32602
        assert error["data"] == {"message": f'Session "{unknown}" not found'}
    assert client.call("session/list", {})["result"] == {"sessions": []}


def test_sessions_persist_across_processes(tmp_path: Path) -> None:
    first = Client(CURSOR_CONFIG_DIR=str(tmp_path))
    try:
        session_id = start(first, "/home/dev/shop")
        first.until_response(prompt(first, session_id, "hi"))
        assert first.close() == 0
    finally:
        first.kill()
    second = Client(CURSOR_CONFIG_DIR=str(tmp_path))
    try:
        second.call("initialize", INIT)
        listed = second.call("session/list", {"cwd": "/home/dev/shop"})["result"]["sessions"]
        assert [(s["sessionId"], s["title"]) for s in listed] == [(session_id, "Say Hello")]
        assert second.call("session/list", {"cwd": "/elsewhere"})["result"] == {"sessions": []}
        params = {"sessionId": session_id, "cwd": "/home/dev/shop", "mcpServers": []}
        seen, response = second.until_response(second.request("session/load", params))
        assert "result" in response
        assert texts(updates(seen), "agent_message_chunk") == "Hello! How can I help?"
    finally:
        second.kill()
    meta = json.loads((tmp_path / "acp-sessions" / session_id / "meta.json").read_text())
    assert meta == {"schemaVersion": 1, "cwd": "/home/dev/shop", "title": "Say Hello"}


def test_refused_create_plan_leaves_the_turn_unchanged(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:create_plan")
    while (message := client.read()).get("method") != "cursor/create_plan":
        pass
    client.send({"id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
    after, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    got = updates(after)
    assert got[0]["rawInput"] == {"_toolName": "createPlan"}
    assert [u["sessionUpdate"] for u in got[1:]] == ["plan", "tool_call_update"]


def test_notification_style_extension_request_is_not_awaited(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:todos")
    seen, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "end_turn"}
    assert seen[0]["method"] == "cursor/update_todos"
    assert seen[0]["id"] == 0
    client.send({"id": 0, "result": {}})  # a late answer is dropped
    assert "result" in client.call("initialize", INIT)


def test_scenario_from_the_environment_and_unknown_names() -> None:
    fake = Client(FAKE_AGENT_ACP_SCENARIO="backend_error")
    try:
        session_id = start(fake)
        seen, response = fake.until_response(prompt(fake, session_id, "scenario:tools"))
        assert response["result"] == {"stopReason": "end_turn"}
        assert "Error: T: [unavailable]" in texts(updates(seen), "agent_message_chunk")
    finally:
        fake.kill()
    fake = Client(FAKE_AGENT_ACP_SCENARIO="no_such_one")
    try:
        session_id = start(fake)
        _, response = fake.until_response(prompt(fake, session_id, "hi"))
        assert response["error"]["code"] == -32603
        assert "no ACP scenario named 'no_such_one'" in response["error"]["data"]["details"]
    finally:
        fake.kill()


def test_list_is_newest_first_even_within_one_second(client: Client) -> None:
    first = start(client, "/home/dev/a")
    second = start(client, "/home/dev/b")
    for session_id in (first, second):  # `second` was prompted last
        client.until_response(prompt(client, session_id, "hi"))
    listed = client.call("session/list", {})["result"]["sessions"]
    assert [s["sessionId"] for s in listed] == [second, first]
    stamps = [s["updatedAt"] for s in listed]
    assert stamps[0] > stamps[1]  # ISO 8601 with milliseconds: text order is time order


def test_upsert_scenario_resends_the_tool_call_with_its_real_input(client: Client) -> None:
    session_id = start(client)
    seen, response = client.until_response(prompt(client, session_id, "scenario:upsert"))
    assert response["result"] == {"stopReason": "end_turn"}
    calls = [u for u in updates(seen) if u["sessionUpdate"] == "tool_call"]
    assert [c["title"] for c in calls] == ["Terminal", "`make test`"]
    assert calls[0]["toolCallId"] == calls[1]["toolCallId"]  # the same id: upsert (§3.10)
    assert [c["rawInput"] for c in calls] == [{}, {"command": "make test"}]


def test_crash_scenario_dies_mid_turn_without_answering(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:crash")
    update = client.read()
    assert update["params"]["update"]["content"]["text"] == "Starting"
    assert client.proc.wait(timeout=READ_TIMEOUT) == 3
    assert client.lines.get(timeout=READ_TIMEOUT) == b""  # stdout closed: no response...
    assert request_id  # ...to this prompt, ever


def test_unknown_updates_scenario_sends_odd_kinds_and_a_broken_line(client: Client) -> None:
    session_id = start(client)
    request_id = prompt(client, session_id, "scenario:unknown_updates")
    kinds: list[str] = []
    while True:
        line = client.lines.get(timeout=READ_TIMEOUT)
        assert line, "the fake closed stdout"
        try:
            message = json.loads(line)
        except ValueError:
            kinds.append("<broken>")
            continue
        if message.get("id") == request_id:
            assert message["result"] == {"stopReason": "end_turn"}
            break
        kinds.append(message["params"]["update"]["sessionUpdate"])
    assert kinds == [
        "usage_update",
        "config_option_update",
        "future_kind",
        "current_mode_update",
        "<broken>",
        "agent_message_chunk",
    ]


# ------------------------------------------------------------------ shutdown (§1, §2 step 7)


def test_stdin_eof_ends_the_process_by_default(client: Client) -> None:
    start(client)
    assert client.close() == 0


def test_ignore_eof_mode_stays_alive_after_eof_until_its_group_is_killed() -> None:
    fake = Client(FAKE_AGENT_ACP_IGNORE_EOF="1")
    try:
        start(fake)
        assert fake.proc.stdin is not None
        fake.proc.stdin.close()
        # It handled the EOF by leaving a child in its group, and it is still there.
        assert settles(lambda: len(group_members(fake.proc.pid)) == 2)
        assert fake.proc.poll() is None
    finally:
        fake.kill()
    assert settles(lambda: not group_members(fake.proc.pid))


# ------------------------------------------------------------------ subagents (§3.13, §4)

SUBAGENTS_INIT: Message = {
    **INIT,
    "clientCapabilities": {**INIT["clientCapabilities"], "_meta": {"subagents": True}},
}


def start_with_subagents(client: Client) -> str:
    result = client.call("initialize", SUBAGENTS_INIT)["result"]
    assert result["agentCapabilities"]["sessionCapabilities"]["subagents"] == {}
    response = client.call("session/new", {"cwd": "/home/dev/shop", "mcpServers": []})
    client.read()  # the command list
    return str(response["result"]["sessionId"])


def test_subagents_are_offered_only_for_the_meta_placement(client: Client) -> None:
    plain = {**INIT, "clientCapabilities": {**INIT["clientCapabilities"], "subagents": True}}
    caps = client.call("initialize", plain)["result"]["agentCapabilities"]
    assert "subagents" not in caps["sessionCapabilities"]  # dropped by the CLI's schema
    caps = client.call("initialize", SUBAGENTS_INIT)["result"]["agentCapabilities"]
    assert caps["sessionCapabilities"]["subagents"] == {}


def on(seen: list[Message], session_id: str) -> list[Message]:
    """The updates of ``session_id`` among ``seen``."""
    notes = [m for m in seen if m.get("method") == "session/update"]
    return [m["params"]["update"] for m in notes if m["params"]["sessionId"] == session_id]


def of_kind(items: list[Message], kind: str) -> list[Message]:
    return [u for u in items if u["sessionUpdate"] == kind]


def test_a_subagent_streams_on_its_own_session_between_spawn_and_end(client: Client) -> None:
    parent = start_with_subagents(client)
    seen, response = client.until_response(prompt(client, parent, "scenario:subagent"))
    assert response["result"] == {"stopReason": "end_turn"}
    own = on(seen, parent)
    [call] = of_kind(own, "tool_call")
    assert call["title"] == "Task: Explore the repository"
    assert call["rawInput"]["_toolName"] == "task"
    [spawned] = of_kind(own, "subagent_spawned")
    child = spawned["subagentSessionId"]
    assert spawned["_meta"]["cursor"] == {
        "toolCallId": call["toolCallId"],
        "agentId": child,
        "model": "gpt-5.4-mini-medium",
    }
    said = texts(on(seen, child), "agent_message_chunk")
    assert said == "Three files: cart.py, test_cart.py, README.md."
    assert texts(own, "agent_message_chunk") == "Delegating. The repository has three files."
    assert of_kind(own, "subagent_state_update") == [
        {"sessionUpdate": "subagent_state_update", "state": "completed"}
    ]
    assert own.index(spawned) < own.index(of_kind(own, "subagent_state_update")[0])
    [task] = [m for m in seen if m.get("method") == "cursor/task"]
    assert isinstance(task["id"], int)  # a request with an id (§4)
    assert task["params"]["toolCallId"] == call["toolCallId"]
    assert task["params"]["agentId"] != child


def task_durations(seen: list[Message], parent: str) -> tuple[int, int]:
    """The ``durationMs`` of the Task call's completion and of its ``cursor/task``."""
    updates = of_kind(on(seen, parent), "tool_call_update")
    [done] = [u for u in updates if u["status"] == "completed"]
    [task] = [m for m in seen if m.get("method") == "cursor/task"]
    return done["rawOutput"]["durationMs"], task["params"]["durationMs"]


@pytest.mark.parametrize("scenario", ["subagent", "subagent_background"])
def test_a_subagents_duration_is_the_time_it_really_took(client: Client, scenario: str) -> None:
    # Issue 35: the fake said 4200 ms (130 in the background) whatever the time was.
    parent = start_with_subagents(client)
    began = time.monotonic()
    seen, _ = client.until_response(prompt(client, parent, f"scenario:{scenario}"))
    took = int((time.monotonic() - began) * 1000) + 1
    call, task = task_durations(seen, parent)
    assert 0 <= call <= took
    assert task == call


def test_a_subagents_duration_given_in_its_step_is_pinned(tmp_path: Path) -> None:
    path = tmp_path / "pinned.ndjson"
    step = {"fake": "subagent", "description": "Review", "durationMs": 5857, "steps": []}
    path.write_text(json.dumps(step) + "\n", encoding="utf-8")
    client = Client(FAKE_AGENT_ACP_SCENARIO=str(path))
    try:
        parent = start_with_subagents(client)
        seen, _ = client.until_response(prompt(client, parent, "review"))
    finally:
        client.kill()
    assert task_durations(seen, parent) == (5857, 5857)


def test_without_the_capability_only_the_task_call_and_cursor_task_come(client: Client) -> None:
    parent = start(client)
    seen, response = client.until_response(prompt(client, parent, "scenario:subagent"))
    assert response["result"] == {"stopReason": "end_turn"}
    own = on(seen, parent)
    assert len(own) == len([m for m in seen if m.get("method") == "session/update"])
    assert not of_kind(own, "subagent_spawned")
    assert not of_kind(own, "subagent_state_update")
    assert [m["method"] for m in seen if "id" in m] == ["cursor/task"]


def test_a_prompt_waits_for_its_background_subagent_then_follows_up(client: Client) -> None:
    parent = start_with_subagents(client)
    seen, response = client.until_response(prompt(client, parent, "scenario:subagent_background"))
    assert response["result"] == {"stopReason": "end_turn"}
    own = on(seen, parent)
    [done] = [u for u in of_kind(own, "tool_call_update") if u["status"] == "completed"]
    assert done["rawOutput"]["isBackground"] is True
    [spawned] = of_kind(own, "subagent_spawned")
    assert texts(on(seen, spawned["subagentSessionId"]), "agent_message_chunk") == (
        "All 12 tests pass."
    )
    [ended] = of_kind(own, "subagent_state_update")
    follow_up = of_kind(own[own.index(ended) :], "agent_message_chunk")
    assert follow_up[-1]["content"]["text"] == " The background check says all 12 pass."


def test_cancel_ends_a_background_subagent_that_never_finishes(client: Client) -> None:
    parent = start_with_subagents(client)
    request_id = prompt(client, parent, "scenario:subagent_stuck")
    waiting = {"Watching.", " It runs in the background."}  # the child stalls after its own
    while waiting:
        content = client.read().get("params", {}).get("update", {}).get("content", {})
        waiting.discard(content.get("text"))
    client.notify("session/cancel", {"sessionId": parent})
    seen, response = client.until_response(request_id)
    assert response["result"] == {"stopReason": "cancelled"}
    assert updates([m for m in seen if m.get("method") == "session/update"]) == [
        {"sessionUpdate": "subagent_state_update", "state": "cancelled"}
    ]
