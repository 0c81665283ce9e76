"""A chat id chosen up front, over the fake agent (docs/sessions.md): a run and a Session
know it before they start; a Session passes it once and then resumes; a reused id is
AgentSessionInUseError."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agent_sdk import (
    AgentOptions,
    AgentSessionInUseError,
    Session,
    new_session_id,
    run,
    run_async,
)

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


@pytest.fixture
def chosen(fake_options: MakeOptions, tmp_path: Path) -> Callable[..., AgentOptions]:
    """Options that run the fake with its chat store in ``tmp_path`` (the fake keeps one
    only under ``CURSOR_CONFIG_DIR``), given a chat id."""

    def make(chat_id: str, scenario: str = "hello") -> AgentOptions:
        config = {"CURSOR_CONFIG_DIR": str(tmp_path / "config")}
        return fake_options(scenario, env=config, new_session_id=chat_id)

    return make


def stored(tmp_path: Path) -> list[str]:
    return sorted(path.name for path in (tmp_path / "config" / "chats").glob("*/*"))


async def test_a_run_has_its_id_from_the_start_to_the_result(
    chosen: Callable[..., AgentOptions], tmp_path: Path
) -> None:
    chat = new_session_id()
    events = run("hi", options=chosen(chat))
    assert events.session_id == chat
    async with events:
        ids = {event.session_id async for event in events} - {None}
    assert ids == {chat}
    assert events.result.session_id == chat
    assert stored(tmp_path) == [chat]


async def test_a_session_passes_the_id_once_then_resumes_it(
    chosen: Callable[..., AgentOptions], tmp_path: Path
) -> None:
    chat = new_session_id()
    session = Session(options=chosen(chat))
    assert session.session_id == chat
    # Had a later turn passed --new-session-id again, the fake would refuse it.
    for prompt in ("one", "two", "three"):
        assert (await session.send(prompt)).session_id == chat
    assert stored(tmp_path) == [chat]


async def test_a_reused_id_is_a_typed_error_and_its_chat_can_be_resumed(
    chosen: Callable[..., AgentOptions], fake_options: MakeOptions, tmp_path: Path
) -> None:
    chat = new_session_id()
    await run_async("first", options=chosen(chat))
    with pytest.raises(AgentSessionInUseError) as caught:
        await Session(options=chosen(chat)).send("again")
    error = caught.value
    assert error.exit_code == 1
    assert error.session_id == chat
    assert f'Session ID "{chat}" is already in use.' in error.message
    assert error.hint is not None
    assert f"Session({chat!r})" in error.hint
    config = {"CURSOR_CONFIG_DIR": str(tmp_path / "config")}
    resumed = await Session(chat, options=fake_options(env=config)).send("go on")
    assert resumed.session_id == chat


async def test_a_streamed_turn_of_a_session_knows_the_id_before_its_first_event(
    chosen: Callable[..., AgentOptions],
) -> None:
    chat = new_session_id()
    session = Session(options=chosen(chat, "tools"))
    async with session.run("look around") as turn:
        assert turn.session_id == chat
        async for _ in turn:
            pass
    assert (await session.send("and again")).session_id == chat
