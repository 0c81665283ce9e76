"""An MCP server's life in the fake's print mode (docs/protocol.md §7): a server that cannot
start, exits at once or never answers is an error outcome (and the run goes on); every
server starts with the run, a failed one is not started again, and none outlives the run,
whether it ends, is killed, or gets SIGTERM.
"""

from __future__ import annotations

import signal
import subprocess
import sys

from mcp_place import (
    HANDSHAKE,
    WAIT,
    Place,
    call,
    events,
    outcome,
    place_fixture,  # noqa: F401  (the fixture ``place``)
)
from proctable import is_running, settles

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
