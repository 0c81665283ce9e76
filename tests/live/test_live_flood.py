"""A flood of ``session/update`` notifications (docs/live.md "Floods and slow readers"):
the reader gives the loop a turn, every timeout holds, the other sessions go on, and what
waits for a turn's reader is bounded. Against an agent played in memory whose output is
never empty (``ScriptedAgent.flood``), and once against the fake CLI.
"""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentTimeoutError, AgentUsageError
from agent_sdk.live import LiveAgent, LiveSession
from agent_sdk.live import _dispatch as dispatch
from agent_sdk.live import _feed as feed
from agent_sdk.testing.memory_acp import FLOOD_BATCH, MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 20.0  # only a starved loop waits this long
FLOOD = 200_000  # lines: far more than a reader gets through before a short timeout
ONE, TWO = "11111111-7b3d-4e8a-9f10-2d6b8c0a5e71", "22222222-7b3d-4e8a-9f10-2d6b8c0a5e71"


def text(words: str) -> dict[str, Any]:
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": words}}


async def open_sessions(a: ScriptedAgent, *ids: str) -> None:
    await a.handshake()
    for session_id in ids:
        await a.reply(await a.expect("session/new"), {"sessionId": session_id})


async def new_session(agent: LiveAgent) -> LiveSession:
    with anyio.fail_after(LIMIT):
        return await agent.new_session(cwd="/")


async def test_turn_timeout_fires_during_a_flood() -> None:
    flooded: list[int] = []

    async def script(a: ScriptedAgent) -> None:
        await open_sessions(a, ONE)
        prompt = await a.expect("session/prompt")
        a.flood(ONE, text("x"), limit=FLOOD)
        await a.expect("session/cancel")
        flooded.append(a.stop_flood())
        await a.reply(prompt, {"stopReason": "cancelled"})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script), turn_timeout=0.05) as agent:
        session = await new_session(agent)
        with pytest.raises(AgentTimeoutError, match="still usable"), anyio.fail_after(LIMIT):
            await session.send("flood")
    assert flooded[0] < FLOOD  # cancelled while the flood went on, not after it


async def test_request_timeout_fires_during_a_flood() -> None:
    async def script(a: ScriptedAgent) -> None:
        await open_sessions(a, ONE)
        await a.expect("session/prompt")
        a.flood(ONE, text("x"), limit=FLOOD)
        await a.expect("session/new")  # never answered, and the flood goes on
        await a.receive()

    transport = MemoryAcpTransport(script)
    async with LiveAgent(transport=transport, request_timeout=0.05) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            async with anyio.create_task_group() as tg:
                turn = session.run("flood")
                flooding = anyio.Event()
                tg.start_soon(drain, turn, flooding)
                await flooding.wait()
                with pytest.raises(AgentTimeoutError, match="session/new"):
                    await agent.new_session(cwd="/")
                # Counted when the timeout is seen: closing the agent reads on.
                read_when_it_fired = transport.agent.flooded
                tg.cancel_scope.cancel()
    assert read_when_it_fired < FLOOD  # it fired while the flood went on


async def test_another_sessions_turn_goes_on_during_a_flood() -> None:
    flooded: list[int] = []

    async def script(a: ScriptedAgent) -> None:
        await open_sessions(a, ONE, TWO)
        first = await a.expect("session/prompt")
        a.flood(ONE, text("x"), limit=FLOOD)
        second = await a.expect("session/prompt")
        await a.update(TWO, text("two"))
        await a.reply(second, {"stopReason": "end_turn"})
        await a.expect("session/cancel")
        flooded.append(a.stop_flood())
        await a.reply(first, {"stopReason": "cancelled"})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        one, two = await new_session(agent), await new_session(agent)
        with anyio.fail_after(LIMIT):
            async with anyio.create_task_group() as tg:
                turn = one.run("flood")
                flooding = anyio.Event()
                tg.start_soon(drain, turn, flooding)
                await flooding.wait()
                assert (await two.send("quick")).text == "two"
                await one.cancel()
        assert turn.result.cancelled
    assert flooded[0] < FLOOD


async def drain(turn: Any, started: anyio.Event) -> None:
    async for _ in turn:
        started.set()


async def test_the_reader_runs_at_most_a_bounded_number_of_updates_ahead_of_a_slow_consumer() -> (
    None
):
    transport: MemoryAcpTransport

    async def script(a: ScriptedAgent) -> None:
        await open_sessions(a, ONE)
        prompt = await a.expect("session/prompt")
        a.flood(ONE, text("x"), limit=FLOOD)
        await a.expect("session/cancel")
        a.stop_flood()
        await a.reply(prompt, {"stopReason": "cancelled"})
        await a.receive()

    transport = MemoryAcpTransport(script)
    ahead: list[int] = []
    async with LiveAgent(transport=transport) as agent:
        session = await new_session(agent)
        with anyio.fail_after(LIMIT):
            updates = session.prompt("flood")
            for taken in range(1, 3 * feed.TURN_BUFFER):
                await updates.__anext__()
                for _ in range(10):  # a slow consumer: the reader could run far ahead
                    await anyio.lowlevel.checkpoint()
                ahead.append(transport.agent.flooded - taken)
            await session.cancel()
            async for _ in updates:
                pass
    # Written but not yet taken: the turn's buffer, the chunk being routed, one waiting,
    # and the first batch (written when the flood starts).
    assert max(ahead) <= feed.TURN_BUFFER + 2 * FLOOD_BATCH + 1
    assert max(ahead) >= feed.TURN_BUFFER  # the buffer did fill: the bound was reached


async def flood_one_two_answers(a: ScriptedAgent) -> None:
    """An agent that floods session one's turn until session two's turn has answered."""
    await open_sessions(a, ONE, TWO)
    first = await a.expect("session/prompt")
    a.flood(ONE, text("x"), limit=FLOOD)
    second = await a.expect("session/prompt")
    await a.update(TWO, text("two"))
    await a.reply(second, {"stopReason": "end_turn"})
    a.stop_flood()
    await a.reply(first, {"stopReason": "end_turn"})
    await a.receive()


async def test_a_consumer_that_stops_reading_holds_the_other_sessions_up_only_for_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(feed, "STALL_LIMIT", 0.2)

    async with LiveAgent(transport=MemoryAcpTransport(flood_one_two_answers)) as agent:
        one, two = await new_session(agent), await new_session(agent)
        with anyio.fail_after(LIMIT):
            stalled = one.run("flood")
            await stalled.__anext__()  # then reads no more for a while
            assert (await two.send("quick")).text == "two"


async def test_a_consumer_that_fell_behind_gets_its_buffered_events_then_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(feed, "STALL_LIMIT", 0.2)
    done = anyio.Event()

    async def script(a: ScriptedAgent) -> None:
        await open_sessions(a, ONE, TWO)
        first = await a.expect("session/prompt")
        a.flood(ONE, text("x"), limit=feed.TURN_BUFFER * 3)
        second = await a.expect("session/prompt")  # the other session goes on meanwhile
        await a.reply(second, {"stopReason": "end_turn"})
        await a.flood_read()  # most of it dropped: nobody reads the turn
        await a.reply(first, {"stopReason": "end_turn"})
        done.set()
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        one, two = await new_session(agent), await new_session(agent)
        with anyio.fail_after(LIMIT):
            turn = one.run("flood")
            events = [await turn.__anext__()]
            await two.send("quick")
            await done.wait()
            with pytest.raises(AgentUsageError, match="dropped") as raised:
                async for event in turn:
                    events.append(event)
    assert len(events) >= feed.TURN_BUFFER  # what waited was delivered first
    assert "end_turn" in str(raised.value)  # the turn itself ended well


@pytest.mark.parametrize("how", ["closed", "dropped"])
async def test_a_turn_left_without_reading_never_blocks_the_reader(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(feed, "STALL_LIMIT", 10 * LIMIT)  # only leaving can free the reader

    async with LiveAgent(transport=MemoryAcpTransport(flood_one_two_answers)) as agent:
        one, two = await new_session(agent), await new_session(agent)
        with anyio.fail_after(LIMIT):
            if how == "closed":
                kept = one.run("flood")
                await kept.__anext__()
                await kept.aclose()
            else:
                async for _ in one.run("flood"):
                    break  # the turn is dropped: nobody will read it
            assert (await two.send("quick")).text == "two"


async def test_turn_timeout_fires_during_a_flood_from_the_cli(options: AgentOptions) -> None:
    async with LiveAgent(options, turn_timeout=0.3) as agent:
        session = await new_session(agent)
        with pytest.raises(AgentTimeoutError, match="still usable"), anyio.fail_after(LIMIT):
            await session.send("scenario:flood")
        agent.turn_timeout = None
        with anyio.fail_after(LIMIT):
            assert (await session.send("scenario:hello")).stop_reason == "end_turn"


async def test_updates_for_unknown_sessions_are_kept_for_a_few_sessions_only() -> None:
    async def script(a: ScriptedAgent) -> None:
        await a.handshake()
        for n in range(100):
            await a.update(f"ghost-{n}", text("boo"))
        await a.reply(await a.expect("session/new"), {"sessionId": ONE})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        await new_session(agent)
        kept = agent._router._early
    assert len(kept) <= dispatch.MAX_EARLY_SESSIONS
    assert all(len(updates) <= dispatch.MAX_EARLY_UPDATES for updates in kept.values())


async def test_opening_and_loading_sessions_start_no_worker_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A worker thread waits for the GIL at its start and at its wake-up, and a reader busy
    # with a flood holds it: a session/new made in one was sent half a second late.
    def no_thread(*args: object, **kwargs: object) -> None:
        raise AssertionError("a worker thread was started")

    async def script(a: ScriptedAgent) -> None:
        await open_sessions(a, ONE)
        await a.reply(await a.expect("session/load"), {})
        await a.receive()

    monkeypatch.setattr(anyio.to_thread, "run_sync", no_thread)
    async with LiveAgent(transport=MemoryAcpTransport(script)) as agent:
        with anyio.fail_after(LIMIT):
            await agent.new_session(cwd="relative/dir")
            await agent.load_session(ONE, cwd="relative/dir")
