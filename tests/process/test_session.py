"""Session: multi-turn chats over the fake agent, on asyncio and trio."""

from __future__ import annotations

from collections.abc import Callable

import anyio
import pytest

from agent_sdk import AgentOptions, AgentProcessError, Session

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


async def test_later_turns_resume_the_chat_of_the_first(fake_options: MakeOptions) -> None:
    session = Session(options=fake_options())
    assert session.session_id is None
    first = await session.send("hello")
    second = await session.send("and again")
    assert first.session_id is not None
    assert second.session_id == first.session_id == session.session_id


async def test_a_stored_id_reopens_its_chat(fake_options: MakeOptions) -> None:
    session = Session("chat-from-yesterday", options=fake_options())
    result = await session.send("where were we?")
    assert result.session_id == "chat-from-yesterday"
    assert {e.session_id for e in result.events} - {None} == {"chat-from-yesterday"}


async def test_concurrent_turns_wait_for_each_other(fake_options: MakeOptions) -> None:
    session = Session(options=fake_options("tools"))
    ids: list[str | None] = []

    async def turn(prompt: str) -> None:
        ids.append((await session.send(prompt)).session_id)

    async with anyio.create_task_group() as tg:
        for i in range(3):
            tg.start_soon(turn, f"message {i}")
    # A turn takes the chat id when it starts; had any two overlapped, the later one
    # would have started a chat of its own with a fresh id.
    assert len(ids) == 3
    assert len(set(ids)) == 1
    assert ids[0] is not None


async def test_a_failed_turn_frees_the_session_for_the_next(fake_options: MakeOptions) -> None:
    failing = Session(options=fake_options("crash"))
    with pytest.raises(AgentProcessError):
        await failing.send("first")
    with anyio.fail_after(30):  # a hang guard: the next turn must not wait forever
        with pytest.raises(AgentProcessError):
            await failing.send("second")


async def test_a_failed_turn_still_records_the_chat_id(fake_options: MakeOptions) -> None:
    session = Session(options=fake_options("retriable_error"))
    with pytest.raises(AgentProcessError) as info:
        await session.send("hi")
    assert info.value.session_id is not None
    assert session.session_id == info.value.session_id


async def test_cancelling_a_waiting_turn_leaves_the_session_usable(fake_binary: str) -> None:
    # The scenario comes from each prompt here (`scenario:NAME`), not from the options.
    session = Session(options=AgentOptions(binary=fake_binary))
    async with session.run("scenario:stall") as first:
        async for _ in first:
            break
        with anyio.move_on_after(0.2) as scope:
            await session.send("scenario:hello queued behind the first")
        assert scope.cancelled_caught
    with anyio.fail_after(30):  # a hang guard: a leaked turn would block this forever
        result = await session.send("scenario:hello")
    assert result.session_id == first.session_id


async def test_streaming_a_turn_yields_events_and_updates_the_id(
    fake_options: MakeOptions,
) -> None:
    session = Session(options=fake_options())
    async with session.run("hi") as events:
        kinds = [type(e).__name__ async for e in events]
    assert kinds[-1] == "ResultEvent"
    assert session.session_id == events.session_id


async def test_create_makes_a_new_chat_with_create_chat(fake_options: MakeOptions) -> None:
    session = await Session.create(options=fake_options())
    assert session.session_id
    result = await session.send("hi")
    assert result.session_id == session.session_id


def test_continue_session_is_refused_with_a_pointer_to_session_ids() -> None:
    with pytest.raises(ValueError, match="Session"):
        Session(options=AgentOptions(continue_session=True))


def test_resume_in_options_is_the_session_to_reopen() -> None:
    assert Session(options=AgentOptions(resume="abc")).session_id == "abc"
