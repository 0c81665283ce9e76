"""The fake's ACP mode (``fake-cursor-agent acp``) as a process and a connection,
against docs/acp.md §1-§3.3: the handshake (``initialize``, ``authenticate``,
``session/new`` and its errors, a logged-out process), the framing (malformed lines
dropped, unknown methods, the client's ids echoed), the command line (``acp --help``, a
model refused at spawn) and the shutdown at stdin's end (§2).

Each test drives ``python -m fake_agent acp`` over pipes (acp_client.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from acp_client import INIT, Client, start
from fake_env import ROOT, fake_env
from proctable import group_members, settles

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
