"""A chat id chosen up front (docs/sessions.md), against the in-memory transport: a run
knows it before it starts; a Session's turn that makes the chat passes it as
``--new-session-id``, every later turn resumes it, never the flag twice."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from scripts import SESSION, lines, result, say, scripted

from agent_sdk import (
    AgentAuthError,
    AgentConfigError,
    AgentOptions,
    AgentSessionInUseError,
    Session,
    run,
    run_async,
)
from agent_sdk.options import build_invocation
from agent_sdk.testing import Exit, MemoryTransport, Output, Stderr, Step

pytestmark = pytest.mark.anyio

CHOSEN = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


def ours(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` as a CLI given ``--new-session-id CHOSEN`` prints it."""
    return {**event, "session_id": CHOSEN}


def init() -> dict[str, Any]:
    return ours({"type": "system", "subtype": "init", "model": "Fake"})


def turn(text: str = "done") -> list[Step]:
    return [lines(init(), ours(say(text)), ours(result(text))), Exit(0)]


NOT_LOGGED_IN: list[Step] = [Stderr("Not logged in\n"), Exit(1)]
IN_USE: list[Step] = [Stderr(f'Error: Session ID "{CHOSEN}" is already in use.\n'), Exit(1)]


def chat_flags(transport: MemoryTransport) -> list[str]:
    """The flags naming the chat in the argv of the run ``transport`` played."""
    assert transport.started_with is not None
    prompt, options = transport.started_with
    argv = build_invocation(prompt, options, binary="cursor-agent", environ={}).argv
    return [arg for arg in argv if arg.startswith(("--new-session-id", "--resume", "--continue"))]


# --- one run -------------------------------------------------------------------------
async def test_a_run_knows_its_chat_id_before_it_starts_and_its_result_has_it() -> None:
    transport = MemoryTransport(turn())
    events = run("hi", options=AgentOptions(new_session_id=CHOSEN), transport=transport)
    assert events.session_id == CHOSEN  # nothing started yet
    async with events:
        async for _ in events:
            assert events.session_id == CHOSEN
    assert events.result.session_id == CHOSEN
    assert chat_flags(transport) == [f"--new-session-id={CHOSEN}"]


async def test_without_one_the_id_comes_from_the_events_as_before() -> None:
    events = run("hi", transport=MemoryTransport([lines(ours(init())), Exit(0)]))
    assert events.session_id is None


async def test_a_text_run_has_the_chosen_id_as_its_session_id() -> None:
    # No events in text format: the id is the one chosen (docs/protocol.md §4).
    transport = MemoryTransport([Output(b"done\n"), Exit(0)])
    options = AgentOptions(new_session_id=CHOSEN, output_format="text")
    assert (await run_async("hi", options=options, transport=transport)).session_id == CHOSEN


async def test_a_reused_id_raises_the_typed_error_naming_it() -> None:
    options = AgentOptions(new_session_id=CHOSEN)
    with pytest.raises(AgentSessionInUseError) as caught:
        await run_async("hi", options=options, transport=MemoryTransport(IN_USE))
    assert caught.value.session_id == CHOSEN
    assert caught.value.exit_code == 1
    assert caught.value.hint is not None
    assert f"resume={CHOSEN!r}" in caught.value.hint


async def test_a_correction_of_the_output_resumes_the_chat_without_the_id_again() -> None:
    class Review(msgspec.Struct):
        verdict: str

    bad = turn("no JSON here")
    good = turn('```json\n{"verdict": "ok"}\n```')
    make = scripted(bad, good)
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=make)
    reply = await session.send("review", output_type=Review)
    assert reply.output == Review(verdict="ok")
    assert [chat_flags(t) for t in make.made] == [  # type: ignore[attr-defined]
        [f"--new-session-id={CHOSEN}"],
        [f"--resume={CHOSEN}"],
    ]


# --- a Session -----------------------------------------------------------------------
async def test_a_session_knows_its_chosen_id_before_its_first_turn() -> None:
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=scripted(turn()))
    assert session.session_id == CHOSEN
    assert repr(session) == f"Session(session_id={CHOSEN!r})"


async def test_the_first_turn_makes_the_chat_and_the_later_ones_resume_it() -> None:
    make = scripted(turn("one"), turn("two"), turn("three"))
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=make)
    for prompt in ("one", "two", "three"):
        assert (await session.send(prompt)).session_id == CHOSEN
    assert session.session_id == CHOSEN
    assert [chat_flags(t) for t in make.made] == [  # type: ignore[attr-defined]
        [f"--new-session-id={CHOSEN}"],
        [f"--resume={CHOSEN}"],
        [f"--resume={CHOSEN}"],
    ]
    assert session.options.new_session_id == CHOSEN  # the session's, unchanged


async def test_a_streamed_turn_has_the_id_from_its_start() -> None:
    make = scripted(turn())
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=make)
    async with session.run("hi") as first:
        assert first.session_id == CHOSEN
        async for _ in first:
            pass
    assert chat_flags(make.made[0]) == [f"--new-session-id={CHOSEN}"]  # type: ignore[attr-defined]


async def test_a_turn_refused_before_the_chat_was_made_leaves_the_id_unused() -> None:
    # The CLI refused at its start (no event carried the id): the next turn makes the chat.
    make = scripted(NOT_LOGGED_IN, turn(), turn())
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=make)
    with pytest.raises(AgentAuthError):
        await session.send("one")
    assert session.session_id == CHOSEN
    await session.send("two")
    await session.send("three")
    assert [chat_flags(t) for t in make.made] == [  # type: ignore[attr-defined]
        [f"--new-session-id={CHOSEN}"],
        [f"--new-session-id={CHOSEN}"],
        [f"--resume={CHOSEN}"],
    ]


async def test_a_turn_that_failed_after_the_chat_was_made_is_resumed() -> None:
    broke: list[Step] = [lines(init()), Stderr("RetriableError: [unavailable] gone\n"), Exit(1)]
    make = scripted(broke, turn())
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=make)
    with pytest.raises(Exception, match="RetriableError"):
        await session.send("one")
    await session.send("two")
    assert chat_flags(make.made[1]) == [f"--resume={CHOSEN}"]  # type: ignore[attr-defined]


async def test_a_text_turn_that_succeeded_made_the_chat() -> None:
    text: list[Step] = [Output(b"done\n"), Exit(0)]
    make = scripted(text, text)
    options = AgentOptions(new_session_id=CHOSEN, output_format="text")
    session = Session(options=options, transport=make)
    await session.send("one")
    await session.send("two")
    assert chat_flags(make.made[1]) == [f"--resume={CHOSEN}"]  # type: ignore[attr-defined]


async def test_a_session_whose_id_is_taken_raises_the_typed_error() -> None:
    session = Session(options=AgentOptions(new_session_id=CHOSEN), transport=scripted(IN_USE))
    with pytest.raises(AgentSessionInUseError):
        await session.send("one")


async def test_a_session_given_an_id_resumes_it_as_before() -> None:
    make = scripted(turn(), turn())
    session = Session(CHOSEN, transport=make)
    await session.send("one")
    await session.send("two")
    assert [chat_flags(t) for t in make.made] == [  # type: ignore[attr-defined]
        [f"--resume={CHOSEN}"],
        [f"--resume={CHOSEN}"],
    ]


async def test_a_session_without_a_chosen_id_learns_it_from_the_first_turn() -> None:
    plain: list[Step] = [lines(say("hi"), result("hi")), Exit(0)]
    make = scripted(plain, plain)
    session = Session(transport=make)
    assert session.session_id is None
    await session.send("one")
    assert session.session_id == SESSION
    await session.send("two")
    assert [chat_flags(t) for t in make.made] == [  # type: ignore[attr-defined]
        [],
        [f"--resume={SESSION}"],
    ]


def test_a_session_given_an_id_and_a_new_one_is_refused() -> None:
    with pytest.raises(AgentConfigError, match="pass one of them"):
        Session("another-chat", options=AgentOptions(new_session_id=CHOSEN))
