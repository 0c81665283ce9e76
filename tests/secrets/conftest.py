"""One planted key for every channel (tests/secrets/): the key is given to a run each way
a run gets one (``api_key=``, ``env=``, the process environment, ``auth_token=``, a
header value), the fake prints it on every channel it has (the ``leak_credentials``
directive and ``FAKE_AGENT_LEAK_CREDENTIALS`` of fake_agent/scenarios/README.md), and each
test greps one output channel of one surface for it (:func:`exposure.where_shown`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from secrets_plant import KEY, SECRET_VARIABLES, MakeOptions, Spy, write_scenario

from agent_sdk import AgentOptions

# How the key is given to a run: options, and variables of the process environment.
PLANTS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "api_key": ({"api_key": KEY}, {}),
    "env": ({"env": {"CURSOR_API_KEY": KEY}}, {}),
    "environ": ({}, {"CURSOR_API_KEY": KEY}),
    "auth_token": ({"auth_token": KEY}, {}),
    "header": ({"headers": {"Authorization": f"Bearer {KEY}"}}, {}),
}


@pytest.fixture(params=list(PLANTS))
def plant(request: pytest.FixtureRequest) -> str:
    """How the key is planted (the test id)."""
    return str(request.param)


@pytest.fixture
def planted(plant: str, monkeypatch: pytest.MonkeyPatch, fake_binary: str) -> MakeOptions:
    """``planted(scenario, **options)``: options running the fake with the key planted."""
    given, environ = PLANTS[plant]
    for name in SECRET_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)

    def make(scenario: Path | None = None, **more: Any) -> AgentOptions:
        env = {**given.get("env", {}), **more.pop("env", {})}
        if scenario is not None:
            env["FAKE_AGENT_SCENARIO"] = str(scenario)
        rest = {name: value for name, value in given.items() if name != "env"}
        binary = more.pop("binary", fake_binary)
        return AgentOptions(binary=binary, env=env, **rest, **more)

    return make


@pytest.fixture
def leaky(tmp_path: Path) -> Callable[..., Path]:
    """``leaky(*after, is_error=True)``: a scenario: init, then the credentials on every
    channel, then ``after``."""

    def make(*after: dict[str, Any], is_error: bool = True) -> Path:
        steps: list[dict[str, Any]] = [
            {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
            {"fake": "leak_credentials", "is_error": is_error},
            *after,
        ]
        return write_scenario(tmp_path / "leaky.ndjson", steps)

    return make


@pytest.fixture
def key_in_reply(tmp_path: Path) -> Path:
    """A scenario whose reply ends with a JSON value holding the key where an enum value
    goes: msgspec's message about it quotes the key (structured output, docs/output.md)."""
    reply = f'The review:\n```json\n{{"verdict": "{KEY}"}}\n```'
    return write_scenario(
        tmp_path / "reply.ndjson",
        [
            {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
            {"type": "assistant", "message": {"content": [{"type": "text", "text": reply}]}},
            {"type": "result", "subtype": "success", "is_error": False, "result": reply},
        ],
    )


@pytest.fixture
def spy(tmp_path: Path, fake_binary: str) -> Spy:
    """A CLI that records every process started through it (:class:`Spy`)."""
    return Spy(tmp_path, fake_binary)
