"""examples/sse_server.py as a process, without a browser: the live mode's approvals under
another site's requests, repeated signals, and the server's death.

The server runs as a user runs it (``python examples/sse_server.py [--live] 0``) against
the bundled fake; httpx is the client. The page under attack in a real browser is in
test_web_page*.py; the checks in-process, on both backends, in test_web_guard.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browser import WAIT_MS
from proctable import group_members, settles
from test_web_guard import FOREIGN
from test_web_page import Server, agent_groups

WAIT = WAIT_MS / 1000  # seconds: a bound for what should happen at once, never a measure
PROMPTS = {"print": "scenario:stall", "live": "scenario:slow Take your time"}  # both stall


@contextlib.contextmanager
def script_server(mode: str) -> Iterator[Server]:
    """``python examples/sse_server.py [--live] 0``, closed (if still running) at the end."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("FAKE_AGENT_ACP_SCENARIO", raising=False)
        mp.delenv("AGENT_SDK_EXAMPLES_LIVE", raising=False)
        server = Server("examples/sse_server.py", *(["--live"] if mode == "live" else []), "0")
    try:
        yield server
    finally:
        server.close()


@contextlib.contextmanager
def events(client: httpx.Client, prompt: str) -> Iterator[Iterator[tuple[str, Any]]]:
    """``POST /run`` as curl sends it, and its events as they come."""
    with client.stream("POST", "/run", json={"prompt": prompt}) as response:
        assert response.status_code == 200

        def parse() -> Iterator[tuple[str, Any]]:
            name = ""
            for line in response.iter_lines():
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    yield name, json.loads(line.removeprefix("data: "))

        yield parse()


def until(stream: Iterator[tuple[str, Any]], wanted: str) -> dict[str, Any]:
    """The data of the next ``wanted`` event (the ones before it skipped)."""
    for name, data in stream:
        if name == wanted:
            return dict(data)
    raise AssertionError(f"the stream ended before a {wanted!r} event")


def agents_running(server: Server) -> set[int]:
    """The agents' process groups, once the server runs one."""
    groups: set[int] = set()

    def found() -> bool:
        groups.update(agent_groups(server))
        return bool(groups)

    assert settles(found, within=WAIT), "no agent process while the run is on"
    return groups


# --- another site, live mode ----------------------------------------------------------
def ends_by(
    sig: signal.Signals, server: Server, stream: Iterator[tuple[str, Any]], groups: set[int]
) -> None:
    """The server, signalled, ends its stream and exits by ``sig`` with no traceback, and
    every agent process group it had goes."""
    with contextlib.suppress(httpx.HTTPError):
        for _ in stream:  # the stream ends with the server
            pass
    status = server.proc.wait(timeout=WAIT)
    # uvicorn exits by the signal it got, as a shell reports it: 130 (SIGINT), 143 (SIGTERM)
    assert status in (-sig, 128 + sig), "".join(server.log)
    assert "Traceback" not in "".join(server.log), "".join(server.log)
    for pgid in groups:
        assert settles(lambda pgid=pgid: not group_members(pgid), within=WAIT), pgid


def test_approvals_and_stops_another_site_sends_are_refused_and_the_question_waits() -> None:
    with (
        script_server("live") as server,
        httpx.Client(base_url=server.url, timeout=WAIT) as client,
        events(client, "scenario:permission Run the tests") as stream,
    ):
        run_id = until(stream, "start")["run"]
        request = until(stream, "permission")["request"]
        asked = {"run": run_id, "request": str(request)}
        for headers in FOREIGN:
            for decision in ("allow_always", "allow_once"):
                params = {**asked, "decision": decision}
                answer = client.post("/permission", params=params, headers=headers)
                assert answer.status_code == 403, headers
            assert client.post("/stop", params={"run": run_id}, headers=headers).status_code == 403

        # Still waiting: the person's answer is the one that counts.
        answer = client.post("/permission", params={**asked, "decision": "reject"})
        assert answer.json() == {"answered": True}
        assert until(stream, "permission_done") == {"request": request, "decision": "reject"}
        done = until(stream, "done")
        assert (done["tool_calls"], done["fake_agent"]) == (1, True)


# --- signals and death ----------------------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("mode", ["print", "live"])
def test_a_second_signal_during_a_run_still_ends_every_agent(
    mode: str, sig: signal.Signals
) -> None:
    with (
        script_server(mode) as server,
        httpx.Client(base_url=server.url, timeout=WAIT) as client,
        events(client, PROMPTS[mode]) as stream,
    ):
        until(stream, "text")  # the run is on, its agent working
        groups = agents_running(server)
        os.kill(server.proc.pid, sig)
        os.kill(server.proc.pid, sig)  # at once: the user pressing Ctrl-C twice
        ends_by(sig, server, stream, groups)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_second_signal_while_the_runs_stop_still_ends_every_agent(sig: signal.Signals) -> None:
    # `ignore_sigterm`: the agent ignores SIGTERM, so stopping it takes the SDK's grace
    # period and a SIGKILL; the second signal comes in meanwhile.
    with (
        script_server("print") as server,
        httpx.Client(base_url=server.url, timeout=WAIT) as client,
        events(client, "scenario:ignore_sigterm") as stream,
    ):
        until(stream, "tool")
        groups = agents_running(server)
        os.kill(server.proc.pid, sig)
        assert settles(lambda: "Shutting down" in "".join(server.log), within=WAIT)
        os.kill(server.proc.pid, sig)
        ends_by(sig, server, stream, groups)


@pytest.mark.parametrize("mode", ["print", "live"])
def test_the_agents_end_with_a_killed_server(mode: str) -> None:
    with (
        script_server(mode) as server,
        httpx.Client(base_url=server.url, timeout=WAIT) as client,
        events(client, PROMPTS[mode]) as stream,
    ):
        until(stream, "text")
        groups = agents_running(server)
        server.proc.kill()  # no cleanup of its own: the parent-death signal does it
        assert server.proc.wait(timeout=WAIT) == -signal.SIGKILL
        with contextlib.suppress(httpx.HTTPError):
            for _ in stream:
                pass
    for pgid in groups:
        assert settles(lambda pgid=pgid: not group_members(pgid), within=WAIT), pgid
