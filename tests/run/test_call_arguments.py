"""What a caller passes to run(), run_sync(), Session and the queries is checked before
anything starts: a mistake is an AgentConfigError that says what to pass instead."""

from __future__ import annotations

from typing import Any

import pytest

from agent_sdk import AgentConfigError, AgentOptions, Session, run, run_async, run_sync, status

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("prompt", [123, None, b"Add a test"])
def test_a_prompt_that_is_not_text_is_refused_when_the_run_is_made(prompt: Any) -> None:
    with pytest.raises(AgentConfigError, match="the prompt must be a str") as info:
        run(prompt)
    assert info.value.hint is not None


def test_run_sync_refuses_a_prompt_that_is_not_text() -> None:
    with pytest.raises(AgentConfigError, match="got bytes"):
        run_sync(b"Add a test")  # type: ignore[arg-type]


@pytest.mark.parametrize("options", [{"model": "gpt-5"}, "gpt-5", AgentOptions])
def test_options_that_are_not_agent_options_are_refused(options: Any) -> None:
    with pytest.raises(AgentConfigError, match=r"options must be AgentOptions\(...\)"):
        run("Add a test", options=options)


async def test_run_async_refuses_options_that_are_not_agent_options() -> None:
    with pytest.raises(AgentConfigError, match="got dict"):
        await run_async("Add a test", options={"model": "gpt-5"})  # type: ignore[arg-type]


def test_a_session_refuses_options_that_are_not_agent_options() -> None:
    with pytest.raises(AgentConfigError, match="got dict"):
        Session(options={"model": "gpt-5"})  # type: ignore[arg-type]


def test_a_session_refuses_continue_session() -> None:
    with pytest.raises(AgentConfigError, match="a Session resumes its own chat"):
        Session(options=AgentOptions(continue_session=True))


async def test_a_query_refuses_options_that_are_not_agent_options() -> None:
    with pytest.raises(AgentConfigError, match="got dict"):
        await status(options={"model": "gpt-5"})  # type: ignore[arg-type]
