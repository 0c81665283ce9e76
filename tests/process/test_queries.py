"""list_models(), status(), version() and create_chat() against the fake agent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import fake_agent
from agent_sdk import (
    AgentAuthError,
    AgentNotFoundError,
    AgentOptions,
    AgentProtocolError,
    Model,
    create_chat,
    list_models,
    status,
    version,
)

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


def script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "stand-in-agent"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return str(path)


async def test_list_models_parses_the_models_listing(fake_options: MakeOptions) -> None:
    models = await list_models(options=fake_options())
    assert models == [Model(i, name) for i, name in fake_agent.FAKE_MODELS.items()]


async def test_list_models_without_any_model_line_is_a_protocol_error(tmp_path: Path) -> None:
    binary = script(tmp_path, "echo 'Available models'; echo; echo 'Tip: none today'")
    with pytest.raises(AgentProtocolError, match="listed no models"):
        await list_models(options=AgentOptions(binary=binary))


async def test_status_decodes_the_json_status(fake_options: MakeOptions) -> None:
    answer = await status(options=fake_options())
    assert (answer.is_authenticated, answer.has_access_token, answer.message) == (True, True, None)
    assert answer.user_info["email"] == "dev@example.invalid"


async def test_version_is_the_printed_version(fake_options: MakeOptions) -> None:
    assert await version(options=fake_options()) == "2026.10.01-fake0001"


async def test_create_chat_returns_a_new_id_each_time(fake_options: MakeOptions) -> None:
    first = await create_chat(options=fake_options())
    second = await create_chat(options=fake_options())
    assert first
    assert first != second


async def test_a_query_failure_is_classified_like_a_run(tmp_path: Path) -> None:
    binary = script(tmp_path, "echo 'Not logged in' >&2; exit 1")
    with pytest.raises(AgentAuthError, match="Not logged in") as info:
        await status(options=AgentOptions(binary=binary))
    assert info.value.exit_code == 1
    assert info.value.hint is not None


async def test_a_query_without_the_cli_raises_not_found(tmp_path: Path) -> None:
    with pytest.raises(AgentNotFoundError):
        await version(options=AgentOptions(binary=str(tmp_path / "missing")))
