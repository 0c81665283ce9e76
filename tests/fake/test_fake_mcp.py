"""The fake honours MCP servers in print mode as the contract says the CLI does
(docs/protocol.md §3.4, §7, §8; fake_agent/scenarios/README.md "MCP servers"): where it
looks, approval, expansion, a real MCP conversation, the ``mcp_call`` directive, the
permission rule, and servers that never outlive the run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_env import ROOT, fake_env
from proctable import is_running, settles

from fake_agent import SCENARIOS_DIR

WAIT = 60
#: What a server is asked when the run starts it.
HANDSHAKE = ["initialize", "notifications/initialized", "tools/list"]
ECHO = str(Path(__file__).with_name("mcp_echo_server.py"))
TOOLS = str(ROOT / "tests" / "extend" / "tools_server.py")


class Place:
    """A run's world in a tmp dir: a HOME, a config dir, a workspace inside a project."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.config = root / "config"
        self.project = root / "project"
        self.workspace = self.project / "ws"
        for path in (self.home, self.config, self.workspace):
            path.mkdir(parents=True)
        self.pid_file = root / "server.pid"
        self.log = root / "server.log"

    def echo(self, *argv: str, **env: str) -> dict[str, Any]:
        """An mcp.json entry for the echo server (logging what it is asked to ``log``)."""
        env.setdefault("ECHO_LOG", str(self.log))
        return {"command": sys.executable, "args": [ECHO, str(self.pid_file), *argv], "env": env}

    def asked(self) -> list[str]:
        """What the echo servers were asked, in order (their ``$ECHO_LOG``)."""
        return self.log.read_text().split() if self.log.exists() else []

    def servers(self, where: Path, **entries: Any) -> None:
        """Write ``<where>/.cursor/mcp.json``."""
        (where / ".cursor").mkdir(exist_ok=True)
        text = json.dumps({"mcpServers": entries})
        (where / ".cursor" / "mcp.json").write_text(text, "utf-8")

    def permissions(self, allow: list[str] = [], deny: list[str] = []) -> None:  # noqa: B006
        config = {"version": 1, "permissions": {"allow": allow, "deny": deny}}
        (self.config / "cli-config.json").write_text(json.dumps(config), "utf-8")

    def scenario(self, *steps: dict[str, Any]) -> Path:
        """init, user, ``steps``, then hello's reply and result (none after a ``kill``)."""
        hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
        last = steps[-1].get("fake") if steps else None
        tail = [] if last == "kill" else hello[2:]
        lines = [*hello[:2], *(json.dumps(step) for step in steps), *tail]
        path = self.root / "scenario.ndjson"
        path.write_text("\n".join(lines) + "\n", "utf-8")
        return path

    def env(self, scenario: Path | str, **extra: str) -> dict[str, str]:
        return fake_env(
            HOME=str(self.home),
            CURSOR_CONFIG_DIR=str(self.config),
            FAKE_AGENT_SCENARIO=str(scenario),
            **extra,
        )

    def run(
        self, *steps: dict[str, Any], flags: tuple[str, ...] = ("--force",), **extra: str
    ) -> subprocess.CompletedProcess[bytes]:
        argv = ["-p", "--trust", "--output-format", "stream-json", *flags]
        return subprocess.run(
            [sys.executable, "-m", "fake_agent", *argv, "--workspace", str(self.workspace), "go"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=self.env(self.scenario(*steps), **extra),
            timeout=WAIT,
            check=False,
        )

    def server_pid(self) -> int:
        return int(self.pid_file.read_text().split()[0])


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Place]:
    place = Place(tmp_path)
    yield place
    # A failing test must not leave its server running on the machine.
    if place.pid_file.exists() and is_running(place.server_pid()):
        os.kill(place.server_pid(), signal.SIGKILL)


def call(tool: str = "echo", server: str = "echo", **args: Any) -> dict[str, Any]:
    return {"fake": "mcp_call", "server": server, "tool": tool, "args": args, "call_id": "m1"}


def events(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in proc.stdout.split(b"\n") if line]


def outcome(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """The result of the (one) mcpToolCall ``completed`` event."""
    done = [e for e in events(proc) if e["type"] == "tool_call" and e["subtype"] == "completed"]
    assert len(done) == 1, proc.stderr
    result: dict[str, Any] = done[0]["tool_call"]["mcpToolCall"]["result"]
    return result


def echoed(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """What the echo server said it saw (its one text block, parsed)."""
    success = outcome(proc)["success"]
    said: dict[str, Any] = json.loads(success["content"][0]["text"]["text"])
    return said


# ----------------------------------------------------------------------------- the stream


def test_mcp_call_starts_an_mcp_tool_call_with_the_contracts_args(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call(q="cart"))
    started = next(e for e in events(proc) if e.get("subtype") == "started")
    args = {"name": "echo-echo", "args": {"q": "cart"}, "toolName": "echo"}
    assert started["tool_call"]["mcpToolCall"] == {"args": {**args, "providerIdentifier": "echo"}}
    assert started["call_id"] == started["tool_call"]["toolCallId"] == "m1"


def test_mcp_call_completes_with_the_servers_text_as_content_text_text(place: Place) -> None:
    place.servers(place.home, tools=tools_entry())
    proc = place.run(call("add", "tools", a=2, b=5))
    assert outcome(proc) == {"success": {"content": [{"text": {"text": "7"}}], "isError": False}}


def test_a_tool_error_completes_as_success_with_is_error(place: Place) -> None:
    place.servers(place.home, tools=tools_entry())
    proc = place.run(call("fail", "tools", reason="no tracker"))
    success = outcome(proc)["success"]
    assert success["isError"] is True
    assert "no tracker" in success["content"][0]["text"]["text"]


def test_a_json_rpc_error_answer_is_an_error_outcome_with_the_clis_words(place: Place) -> None:
    place.servers(place.home, echo=place.echo("error"))
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": "MCP error -32000: echo is broken"}}


def test_a_tool_the_server_does_not_list_is_an_error_outcome(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call("missing"))
    assert outcome(proc) == {"error": {"message": 'MCP tool "missing" not found on server "echo"'}}


def test_a_server_nobody_configured_is_an_error_outcome_and_the_run_goes_on(place: Place) -> None:
    proc = place.run(call(server="nowhere"))
    assert outcome(proc) == {"error": {"message": 'MCP server "nowhere" is not configured'}}
    assert events(proc)[-1]["type"] == "result"
    assert proc.returncode == 0


# ----------------------------------------------------------------------------- the conversation


def test_the_fake_initializes_as_cursor_with_mcp_2025_11_25(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call()))
    assert said["initialize"]["protocolVersion"] == "2025-11-25"
    assert said["initialize"]["clientInfo"] == {"name": "Cursor", "version": "1.0.0"}


def test_the_fake_sends_initialized_then_lists_then_calls(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call()))
    assert said["seen"] == ["initialize", "notifications/initialized", "tools/list", "tools/call"]


def test_the_tool_gets_the_scenarios_arguments(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call(number=26, labels=["a", "é"])))
    assert said["arguments"] == {"number": 26, "labels": ["a", "é"]}


def test_one_server_serves_every_call_of_the_run(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call(n=1), call(n=2))
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    blocks = [e["tool_call"]["mcpToolCall"]["result"]["success"]["content"] for e in done]
    texts = [json.loads(block[0]["text"]["text"]) for block in blocks]
    assert [t["seen"].count("initialize") for t in texts] == [1, 1]
    assert texts[1]["seen"][-2:] == ["tools/call", "tools/call"]


def test_the_server_runs_in_the_workspace(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    assert echoed(place.run(call()))["cwd"] == str(place.workspace)


# ----------------------------------------------------------------------------- files, approval


def test_the_user_file_is_read_from_home_without_approval(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    assert "success" in outcome(place.run(call()))


def test_a_project_file_is_skipped_without_approve_mcps(place: Place) -> None:
    place.servers(place.workspace, echo=place.echo())
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": 'MCP server "echo" is not configured'}}
    assert not place.pid_file.exists()
    assert proc.stderr == b""


def test_a_project_file_is_used_with_approve_mcps(place: Place) -> None:
    place.servers(place.workspace, echo=place.echo())
    assert "success" in outcome(place.run(call(), flags=("--force", "--approve-mcps")))


def test_a_project_file_in_a_parent_of_the_workspace_is_found(place: Place) -> None:
    place.servers(place.project, echo=place.echo())
    assert "success" in outcome(place.run(call(), flags=("--force", "--approve-mcps")))


def test_the_workspaces_own_file_wins_over_the_user_file(place: Place) -> None:
    place.servers(place.home, echo=place.echo("from-home"))
    place.servers(place.workspace, echo=place.echo("from-project"))
    said = echoed(place.run(call(), flags=("--force", "--approve-mcps")))
    assert said["argv"] == ["from-project"]


def test_the_user_file_wins_over_a_parents_file(place: Place) -> None:
    place.servers(place.home, echo=place.echo("from-home"))
    place.servers(place.project, echo=place.echo("from-parent"))
    said = echoed(place.run(call(), flags=("--force", "--approve-mcps")))
    assert said["argv"] == ["from-home"]


def test_env_variables_are_expanded_in_env(place: Place) -> None:
    place.servers(place.home, echo=place.echo(ECHO_VALUE="${env:TOKEN_FOR_ECHO}"))
    said = echoed(place.run(call(), TOKEN_FOR_ECHO="t-123"))
    assert said["value"] == "t-123"


def test_workspace_and_home_variables_are_expanded_in_args(place: Place) -> None:
    argv = [
        "${workspaceFolder}",
        "${workspaceFolderBasename}",
        "${userHome}",
        "a${/}b${pathSeparator}c",
    ]
    place.servers(place.home, echo=place.echo(*argv))
    said = echoed(place.run(call()))
    sep = os.sep
    assert said["argv"] == [str(place.workspace), "ws", str(place.home), f"a{sep}b{sep}c"]


def test_env_file_lines_reach_the_server_and_env_wins_over_them(place: Place) -> None:
    env_file = place.root / "server.env"
    env_file.write_text("# comment\nECHO_VALUE=from-file\n")
    entry = {**place.echo(), "envFile": "${userHome}/../server.env"}
    place.servers(place.home, echo=entry)
    assert echoed(place.run(call()))["value"] == "from-file"
    place.servers(place.home, echo={**entry, "env": {"ECHO_VALUE": "from-env"}})
    assert echoed(place.run(call()))["value"] == "from-env"


def test_the_entry_env_is_added_to_the_fakes_environment(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call(), ECHO_VALUE="inherited"))
    assert said["value"] == "inherited"


# ----------------------------------------------------------------------------- permission


def test_without_force_an_uncovered_call_is_rejected_and_never_reaches_the_server(
    place: Place,
) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call(), flags=())
    assert outcome(proc) == {"rejected": {"reason": ""}}
    assert place.asked() == HANDSHAKE  # started with the run, never called


def test_without_force_an_mcp_allow_rule_lets_the_call_run(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(echo:echo)"])
    assert "success" in outcome(place.run(call(), flags=()))


def test_an_allow_rule_takes_wildcards(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(*:ec*)"])
    assert "success" in outcome(place.run(call(), flags=()))


def test_an_allow_rule_for_another_tool_does_not_cover_the_call(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(echo:other)", "Shell(echo)"])
    assert outcome(place.run(call(), flags=())) == {"rejected": {"reason": ""}}


def test_a_deny_rule_wins_over_an_allow_rule(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(echo:*)"], deny=["Mcp(echo:echo)"])
    assert outcome(place.run(call(), flags=())) == {"rejected": {"reason": ""}}


def test_a_deny_rule_wins_over_force(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(deny=["Mcp(echo:*)"])
    assert outcome(place.run(call())) == {"rejected": {"reason": ""}}


# ----------------------------------------------------------------------------- failures, ends


def test_a_server_that_cannot_start_is_an_error_outcome_and_the_run_goes_on(place: Place) -> None:
    place.servers(place.home, echo={"command": str(place.root / "no-such-binary")})
    proc = place.run(call())
    message = outcome(proc)["error"]["message"]
    assert message.startswith('MCP server "echo" failed to start: ')
    assert events(proc)[-1]["type"] == "result"


def test_a_server_that_exits_at_once_is_an_error_outcome(place: Place) -> None:
    place.servers(place.home, echo=place.echo("exit"))
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": 'MCP server "echo" closed the connection'}}


def test_a_server_that_never_answers_is_an_error_outcome_and_is_ended(place: Place) -> None:
    place.servers(place.home, echo=place.echo("stuck"))
    proc = place.run(call(), FAKE_AGENT_MCP_TIMEOUT="0.5")
    message = 'MCP server "echo" did not answer initialize in time'
    assert outcome(proc) == {"error": {"message": message}}
    assert settles(lambda: not is_running(place.server_pid()))


def test_every_server_starts_with_the_run_even_when_the_scenario_calls_none(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run()
    assert proc.returncode == 0
    assert place.asked() == HANDSHAKE
    assert place.pid_file.read_text().split()[1:] == ["ended"]


def test_the_server_ends_with_the_run_by_closing_its_stdin(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.run(call())
    assert place.pid_file.read_text().split()[1:] == ["ended"]
    assert not is_running(place.server_pid())


def test_a_server_that_ignores_eof_is_killed_at_the_end_of_the_run(place: Place) -> None:
    place.servers(place.home, echo=place.echo("linger"))
    place.run(call())
    assert settles(lambda: not is_running(place.server_pid()))


def test_a_kill_directive_leaves_no_server_behind(place: Place) -> None:
    place.servers(place.home, echo=place.echo("linger"))
    proc = place.run(call(), {"fake": "kill"})
    assert proc.returncode == -signal.SIGKILL
    assert settles(lambda: not is_running(place.server_pid()))


def test_sigterm_to_the_fake_leaves_no_server_behind(place: Place) -> None:
    place.servers(place.home, echo=place.echo("linger"))
    scenario = place.scenario(call(), {"fake": "stdout", "text": "called"}, {"fake": "stall"})
    argv = ["-p", "--force", "--output-format", "stream-json", "--workspace", str(place.workspace)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "fake_agent", *argv, "go"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        env=place.env(scenario),
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line == b"called\n":
            break
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(WAIT) == -signal.SIGTERM
    proc.stdout.close()
    assert settles(lambda: not is_running(place.server_pid()))


def test_a_failed_server_is_not_started_again_in_the_run(place: Place) -> None:
    place.servers(place.home, echo=place.echo("bad_list"))
    proc = place.run(call(), call())
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    message = 'MCP server "echo" refused tools/list: MCP error: no result'
    assert [e["tool_call"]["mcpToolCall"]["result"] for e in done] == [
        {"error": {"message": message}}
    ] * 2
    assert place.pid_file.read_text().split()[1:] == ["ended"]  # started once, ended


# ----------------------------------------------------------------------------- hostile input


def test_garbage_notifications_and_pings_from_the_server_do_not_stop_the_call(
    place: Place,
) -> None:
    place.servers(place.home, echo=place.echo("noisy"))
    said = echoed(place.run(call()))
    assert said["seen"][-2:] == ["answer", "tools/call"]  # the ping was answered


def test_an_mcp_json_that_is_not_json_is_skipped_silently(place: Place) -> None:
    (place.home / ".cursor").mkdir()
    (place.home / ".cursor" / "mcp.json").write_text('{"mcpServers": {"echo": ')
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": 'MCP server "echo" is not configured'}}
    assert proc.stderr == b""


def test_entries_of_the_wrong_types_are_skipped_or_fail_as_servers(place: Place) -> None:
    place.servers(place.home, echo="python", other={"command": 7, "args": "x", "env": []})
    proc = place.run(call(), call(server="other"))
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    results = [e["tool_call"]["mcpToolCall"]["result"]["error"]["message"] for e in done]
    assert results == [
        'MCP server "echo" is not configured',
        'MCP server "other" has no command (the fake runs stdio only)',
    ]


def test_mcp_call_needs_a_server_and_a_tool_when_the_scenario_loads(place: Place) -> None:
    proc = place.run({"fake": "mcp_call", "server": "", "tool": "t"})
    assert proc.returncode == 2
    assert b"needs a non-empty 'server' and 'tool'" in proc.stderr


# ----------------------------------------------------------------------------- custom_tools


def tools_entry() -> dict[str, Any]:
    """The agent_sdk.extend test server (tests/extend/tools_server.py)."""
    env = {"TOOLS_SERVER_SECRET": "s3cret", "PYTHONPATH": str(ROOT)}
    return {"command": sys.executable, "args": [TOOLS, "asyncio"], "env": env}


def test_custom_tools_calls_two_tools_of_agent_sdk_one_failing(place: Place) -> None:
    place.servers(place.home, agent_sdk=tools_entry())
    argv = ["-p", "--force", "--output-format", "stream-json", "--workspace", str(place.workspace)]
    proc = subprocess.run(
        [sys.executable, "-m", "fake_agent", *argv, "go"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=place.env("custom_tools"),
        timeout=WAIT,
        check=False,
    )
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    results = [e["tool_call"]["mcpToolCall"]["result"]["success"] for e in done]
    assert [r["isError"] for r in results] == [False, True]
    assert json.loads(results[0]["content"][0]["text"]["text"])["number"] == 26
    assert events(proc)[-1]["subtype"] == "success"
