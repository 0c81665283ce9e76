"""An agent that stops reading its input (docs/live.md "Floods and slow readers"): a
message that cannot be written in time fails the call with a timeout instead of waiting
forever, and ends the connection (a line cut mid-write cannot be taken back). Against an
agent played in memory whose input blocks (``ScriptedAgent.stop_reading``).
"""

from __future__ import annotations

import anyio
import pytest

from agent_sdk.errors import AgentProtocolError, AgentTimeoutError
from agent_sdk.live import LiveAgent
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 20.0  # only a hang waits this long
SESSION = "11111111-7b3d-4e8a-9f10-2d6b8c0a5e71"


async def deaf_after_handshake(a: ScriptedAgent) -> None:
    await a.handshake()
    a.stop_reading()
    await anyio.sleep_forever()


async def deaf_after_session(a: ScriptedAgent) -> None:
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SESSION})
    a.stop_reading()
    await anyio.sleep_forever()


async def test_a_request_the_agent_does_not_read_times_out() -> None:
    transport = MemoryAcpTransport(deaf_after_handshake)
    async with LiveAgent(transport=transport, request_timeout=0.05) as agent:
        with pytest.raises(AgentTimeoutError, match="did not read"), anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")


async def test_a_prompt_the_agent_does_not_read_fails_without_a_turn_timeout() -> None:
    transport = MemoryAcpTransport(deaf_after_session)
    # Long enough for the session to be made on a loaded machine (seen failing at 0.05 s
    # under a parallel run): only the prompt that is never read may wait it out.
    async with LiveAgent(transport=transport, request_timeout=1.0) as agent:
        session = await agent.new_session(cwd="/")
        with pytest.raises(AgentTimeoutError, match="did not read"), anyio.fail_after(LIMIT):
            await session.send("hello")


async def test_after_an_unread_message_the_connection_is_ended() -> None:
    transport = MemoryAcpTransport(deaf_after_handshake)
    async with LiveAgent(transport=transport, request_timeout=0.05) as agent:
        with pytest.raises(AgentTimeoutError), anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")
        with pytest.raises(AgentProtocolError, match="did not read"), anyio.fail_after(LIMIT):
            await agent.new_session(cwd="/")
