"""No secret of a run leaves it through structured output: the agent's reply quotes the key
where the type wants something else, msgspec's message quotes the reply, and neither the
correction sent back to the CLI (the next run's command line) nor the
:class:`~agent_sdk.AgentOutputError` shows it (agent_sdk/_options/redaction.py)."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path
from typing import Any, Literal

import msgspec
import pytest

from agent_sdk import AgentOptions, AgentOutputError, run_async

pytestmark = pytest.mark.anyio

KEY = "sk-live-7c1e5a3f9b2d4e6a8c0f"

# How the key is given to the run: options, and variables of the process environment.
PLANTS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "api_key": ({"api_key": KEY}, {}),
    "env": ({"env": {"CURSOR_API_KEY": KEY}}, {}),
    "environ": ({}, {"CURSOR_API_KEY": KEY}),
    "header": ({"headers": {"Authorization": f"Bearer {KEY}"}}, {}),
}


class Review(msgspec.Struct):
    verdict: Literal["approve", "request_changes"]


def quoting_the_key(tmp_path: Path) -> Path:
    """A scenario whose every reply puts the key where the type wants a verdict."""
    reply = "Done.\n```json\n" + json.dumps({"verdict": KEY}) + "\n```"
    steps = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "Auto"},
        {"type": "result", "subtype": "success", "is_error": False, "result": reply},
    ]
    path = tmp_path / "quoting.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path


def argv_recorder(tmp_path: Path, fake_binary: str) -> tuple[str, Path]:
    """A CLI that writes its arguments, one JSON list a line, then becomes the fake."""
    log = tmp_path / "argv.ndjson"
    script = tmp_path / "recording-agent"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"with open({str(log)!r}, 'a') as log:\n"
        "    log.write(json.dumps(sys.argv[1:]) + '\\n')\n"
        f"os.execv({fake_binary!r}, [{fake_binary!r}, *sys.argv[1:]])\n"
    )
    script.chmod(0o755)
    return str(script), log


@pytest.fixture(params=list(PLANTS))
async def failed(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fake_binary: str,
) -> tuple[AgentOutputError, list[list[str]]]:
    """The error of a run whose replies quote the key, and every run's arguments."""
    given, environ = PLANTS[request.param]
    for name in ("CURSOR_API_KEY", "CURSOR_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    binary, log = argv_recorder(tmp_path, fake_binary)
    env = {**given.get("env", {}), "FAKE_AGENT_SCENARIO": str(quoting_the_key(tmp_path))}
    rest = {name: value for name, value in given.items() if name != "env"}
    options = AgentOptions(binary=binary, env=env, **rest)

    with pytest.raises(AgentOutputError) as info:
        await run_async("Review it", options=options, output_type=Review)
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    return info.value, runs


async def test_the_correction_on_the_next_command_line_holds_no_key(
    failed: tuple[AgentOutputError, list[list[str]]],
) -> None:
    _, runs = failed
    assert len(runs) == 2  # the reply, then its correction
    correction = runs[1][-1]
    assert "Invalid enum value" in correction  # the premise: the problem is quoted
    # A header is a flag of its own (its value reaches the CLI so): nothing else holds it.
    assert [arg for arg in runs[1] if KEY in arg and not arg.startswith("--header=")] == []


async def test_the_output_error_shows_the_key_nowhere(
    failed: tuple[AgentOutputError, list[list[str]]],
) -> None:
    error, _ = failed
    assert error.problem.startswith("Invalid enum value")  # the premise
    shown = {
        "str": str(error),
        "repr": repr(error),
        "message": error.message,
        "hint": error.hint or "",
        "args": repr(error.args),
        "reply": error.reply,
        "json": error.json or "",
        "problem": error.problem,
        "stderr": error.stderr,
        "pickle": repr(pickle.dumps(error)),
    }
    assert [where for where, text in shown.items() if KEY in text] == []


async def test_the_unpickled_error_is_the_same_redacted_error(
    failed: tuple[AgentOutputError, list[list[str]]],
) -> None:
    error, _ = failed
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.reply, copy.json, copy.problem, str(copy)) == (
        error.reply,
        error.json,
        error.problem,
        str(error),
    )
