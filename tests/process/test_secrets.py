"""No secret leaves a run (``agent_sdk/_protocol/redaction.py``): a key is planted in a
run each way a run gets one (``api_key=``, ``env=``, the process environment, a header
value), the fake prints it on every channel it has (the ``leak_credentials`` directive and
``FAKE_AGENT_LEAK_CREDENTIALS`` of fake_agent/scenarios/README.md: stderr, a non-JSON
stdout line, an event's text, the result text), and every output channel is grepped for
it: errors and all they carry, the queries' errors, the ``record()`` file, and what the
``agent-sdk`` command prints."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from agent_sdk import (
    AgentError,
    AgentOptions,
    AgentProcessError,
    AgentResultError,
    AgentTimeoutError,
    create_chat,
    list_models,
    run_async,
    status,
    version,
)
from agent_sdk._protocol.redaction import Redaction
from agent_sdk.cli.live import RedactedText
from agent_sdk.events import AssistantEvent, to_json
from agent_sdk.testing import record

pytestmark = pytest.mark.anyio

KEY = "sk-live-7c1e5a3f9b2d4e6a8c0f"
MASK = "***"
SECRET_VARIABLES = ("CURSOR_API_KEY", "CURSOR_AUTH_TOKEN")

# How the key is given to the run: options, and variables of the process environment.
PLANTS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "api_key": ({"api_key": KEY}, {}),
    "env": ({"env": {"CURSOR_API_KEY": KEY}}, {}),
    "environ": ({}, {"CURSOR_API_KEY": KEY}),
    "auth_token": ({"auth_token": KEY}, {}),
    "header": ({"headers": {"Authorization": f"Bearer {KEY}"}}, {}),
}

MakeOptions = Callable[..., AgentOptions]


@pytest.fixture(params=list(PLANTS))
def planted(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, fake_binary: str
) -> MakeOptions:
    """``planted(scenario, **options)``: options running the fake with the key planted."""
    given, environ = PLANTS[request.param]
    for name in SECRET_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)

    def make(scenario: Path | None = None, **more: Any) -> AgentOptions:
        env = {**given.get("env", {}), **more.pop("env", {})}
        if scenario is not None:
            env["FAKE_AGENT_SCENARIO"] = str(scenario)
        rest = {name: value for name, value in given.items() if name != "env"}
        return AgentOptions(binary=fake_binary, env=env, **rest, **more)

    return make


def leaky(tmp_path: Path, *after: dict[str, Any], is_error: bool = True) -> Path:
    """A scenario: init, then the credentials on every channel, then ``after``."""
    steps: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
        {"fake": "leak_credentials", "is_error": is_error},
        *after,
    ]
    path = tmp_path / "leaky.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path


def shown(error: AgentError) -> dict[str, str]:
    """Everything an error shows, by where."""
    places = {
        "str": str(error),
        "repr": repr(error),
        "message": error.message,
        "hint": error.hint or "",
        "args": repr(error.args),
        "stderr": error.stderr,
        "stdout_lines": repr(error.stdout_lines),
        "events": repr(error.events),
        "events as JSON": b"\n".join(to_json(event) for event in error.events).decode(),
        "tool_calls": repr(error.tool_calls),
    }
    if isinstance(error, AgentResultError):
        places["event"] = repr(error.event)
    return places


def leaks(error: AgentError) -> list[str]:
    """Where an error shows the key."""
    return [where for where, text in shown(error).items() if KEY in text]


async def failure(options: AgentOptions) -> AgentError:
    with pytest.raises(AgentError) as info:
        await run_async("go", options=options)
    return info.value


# --- errors of a run ----------------------------------------------------------------
async def test_a_result_error_shows_the_key_nowhere(planted: MakeOptions, tmp_path: Path) -> None:
    error = await failure(planted(leaky(tmp_path, {"fake": "exit", "code": 0})))
    assert isinstance(error, AgentResultError)
    assert leaks(error) == []


async def test_the_key_is_masked_on_every_channel_the_cli_printed_it_on(
    planted: MakeOptions, tmp_path: Path
) -> None:
    # The premise of the other tests: each channel held the key, now masked.
    error = await failure(planted(leaky(tmp_path, {"fake": "exit", "code": 0})))
    assert isinstance(error, AgentResultError)
    (reply,) = [event for event in error.events if isinstance(event, AssistantEvent)]
    channels = [error.stderr, " ".join(error.stdout_lines), reply.text, error.event.result]
    assert [MASK in text for text in channels] == [True] * 4


async def test_a_process_error_shows_the_key_nowhere(planted: MakeOptions, tmp_path: Path) -> None:
    error = await failure(planted(leaky(tmp_path, {"fake": "exit", "code": 1})))
    assert isinstance(error, AgentProcessError)
    assert leaks(error) == []


async def test_a_timeout_error_shows_the_key_nowhere(planted: MakeOptions, tmp_path: Path) -> None:
    scenario = leaky(tmp_path, {"fake": "stall"})
    error = await failure(planted(scenario, timeout=0.5, result_grace=30))
    assert isinstance(error, AgentTimeoutError)
    assert leaks(error) == []


async def test_a_successful_runs_stderr_shows_the_key_nowhere(
    planted: MakeOptions, tmp_path: Path
) -> None:
    result = await run_async("go", options=planted(leaky(tmp_path, is_error=False)))
    assert KEY not in result.stderr


async def test_a_successful_runs_reply_is_what_the_agent_said(
    planted: MakeOptions, tmp_path: Path
) -> None:
    # The reply is the user's data, left alone (agent_sdk/_protocol/redaction.py).
    result = await run_async("go", options=planted(leaky(tmp_path, is_error=False)))
    assert KEY in result.result


# --- queries ------------------------------------------------------------------------
QUERIES: dict[str, Callable[[AgentOptions], Awaitable[object]]] = {
    "status": lambda options: status(options=options),
    "list_models": lambda options: list_models(options=options),
    "version": lambda options: version(options=options),
    "create_chat": lambda options: create_chat(options=options),
}


@pytest.mark.parametrize("query", list(QUERIES))
async def test_a_query_error_shows_the_key_nowhere(planted: MakeOptions, query: str) -> None:
    options = planted(env={"FAKE_AGENT_LEAK_CREDENTIALS": "1"})
    with pytest.raises(AgentProcessError) as info:
        await QUERIES[query](options)
    assert leaks(info.value) == []


# --- record() -----------------------------------------------------------------------
async def test_a_recording_holds_the_key_nowhere(planted: MakeOptions, tmp_path: Path) -> None:
    scenario = leaky(tmp_path, {"fake": "exit", "code": 1})
    path = await record("go", tmp_path / "recorded.ndjson", options=planted(scenario))
    assert KEY.encode() not in path.read_bytes()


# --- the agent-sdk command ----------------------------------------------------------
# Its key comes from the environment (or an --env or --header flag).
COMMAND_PLANTS: dict[str, tuple[list[str], dict[str, str]]] = {
    "environ": ([], {"CURSOR_API_KEY": KEY}),
    "environ token": ([], {"CURSOR_AUTH_TOKEN": KEY}),
    "--env": (["--env", f"CURSOR_API_KEY={KEY}"], {}),
    "--header": (["--header", f"Authorization: Bearer {KEY}"], {}),
}


def agent_sdk(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m agent_sdk ARGS`` run to completion, output captured."""
    drop = ("NO_COLOR", "FAKE_AGENT_SCENARIO", "CURSOR_AGENT_BIN", *SECRET_VARIABLES)
    environ = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run(
        [sys.executable, "-m", "agent_sdk", *args],
        capture_output=True,
        text=True,
        input="",
        timeout=60,
        env={**environ, **env},
    )


@pytest.mark.parametrize("mode", [[], ["--json"], ["--no-partial"]], ids=["human", "json", "whole"])
@pytest.mark.parametrize("plant", list(COMMAND_PLANTS))
def test_the_agent_sdk_command_prints_the_key_nowhere(
    tmp_path: Path, plant: str, mode: list[str]
) -> None:
    flags, env = COMMAND_PLANTS[plant]
    scenario = leaky(tmp_path, {"fake": "exit", "code": 1})
    done = agent_sdk("--fake", str(scenario), *flags, *mode, "go", **env)
    assert done.returncode == 1, done.stderr  # the run failed, and said so
    assert KEY not in done.stdout + done.stderr


# --- the reply on screen, as the command writes it ------------------------------------
def test_a_key_split_across_writes_of_the_reply_is_printed_masked() -> None:
    screen = io.StringIO()
    reply = RedactedText(screen, Redaction([KEY]))
    for piece in ("the key is ", KEY[:5], KEY[5:12], KEY[12:], " - done"):
        reply.write(piece)
    reply.release()
    assert screen.getvalue() == f"the key is {MASK} - done"


def test_the_reply_held_back_is_printed_when_released() -> None:
    screen = io.StringIO()
    reply = RedactedText(screen, Redaction([KEY]))
    reply.write("ok")
    reply.release()
    assert screen.getvalue() == "ok"
