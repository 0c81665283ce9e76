"""What the live agent sends, checked against the official ACP v1 JSON schema
(tests/acp_schema.py; docs/acp.md §3): every request, notification and answer of a
session's life, played by an agent in memory.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from acp_schema import SchemaError, check, defined

from agent_sdk.live import ContentBlock, LiveAgent, LiveSession, RequestPermissionParams
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
OPTIONS = [
    {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "allow-always", "name": "Allow always", "kind": "allow_always"},
    {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"},
]
TOOL = {"toolCallId": "call-1\nfc_1", "title": "`ls`", "kind": "execute", "status": "pending"}
CONFIG = [
    {
        "id": "model",
        "name": "Model",
        "type": "select",
        "currentValue": "default[]",
        "options": [{"value": "default[]", "name": "Auto"}, {"value": "gpt-5.4[]", "name": "5.4"}],
    },
    {"id": "fast", "name": "Fast", "type": "boolean", "currentValue": False},
]


class Played:
    """A session's whole life on the agent's side; the method of each of its requests."""

    def __init__(self) -> None:
        self.asked: dict[Any, str] = {}

    async def ask(self, a: ScriptedAgent, method: str, params: Any) -> None:
        """An agent request, and the wait for its answer."""
        request_id = await a.request(method, params)
        self.asked[request_id] = method
        await a.answer(request_id)

    async def __call__(self, a: ScriptedAgent) -> None:
        await a.handshake()
        await a.reply(await a.expect("authenticate"), {})
        await a.reply(await a.expect("session/new"), {"sessionId": SID, "configOptions": CONFIG})
        await a.reply(await a.expect("session/set_mode"), {})
        for _ in range(2):  # set_model, then the boolean
            await a.reply(await a.expect("session/set_config_option"), {"configOptions": CONFIG})
        listed = [{"sessionId": SID, "cwd": "/repo", "title": "t", "updatedAt": None}]
        await a.reply(await a.expect("session/list"), {"sessions": listed})
        await a.reply(await a.expect("session/load"), {})
        prompt = await a.expect("session/prompt")
        permission = {"sessionId": SID, "toolCall": TOOL, "options": OPTIONS}
        for _ in range(3):  # allow once, allow always, reject
            await self.ask(a, "session/request_permission", permission)
        await self.ask(a, "fs/read_text_file", {"sessionId": SID, "path": "/repo/a"})
        await a.reply(prompt, {"stopReason": "end_turn"})
        prompt = await a.expect("session/prompt")
        request_id = await a.request("session/request_permission", permission)
        self.asked[request_id] = "session/request_permission"
        await a.expect("session/cancel")
        await a.answer(request_id)  # cancelled (§3.7)
        await a.reply(prompt, {"stopReason": "cancelled"})
        while True:
            await a.receive()


async def test_every_message_the_live_agent_sends_is_valid_under_the_v1_schema() -> None:
    decisions = ["allow_once", "allow_always", "reject"]
    session: LiveSession | None = None

    async def permission(params: RequestPermissionParams) -> str:
        if decisions:
            return decisions.pop(0)
        assert session is not None
        await session.cancel()  # the person stops the turn instead of deciding
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    played = Played()
    transport = MemoryAcpTransport(played)
    prompt = [
        ContentBlock(type="text", text="look at this"),
        ContentBlock(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
        ContentBlock(type="resource_link", uri="file:///repo/a.py", name="a.py"),
    ]
    async with LiveAgent(transport=transport, permission=permission) as agent:
        with anyio.fail_after(LIMIT):
            await agent.authenticate()
            session = await agent.new_session(cwd="/repo")
            await session.set_mode("plan")
            await session.set_model("gpt-5.4[]")
            await session.set_config_option("fast", True)
            await agent.load_session(SID)  # lists first, for the session's cwd
            await session.send(prompt)
            await session.send("run it")
    sent = transport.agent.received
    methods = [m.get("method") for m in sent if "method" in m]
    assert methods == [
        "initialize",
        "authenticate",
        "session/new",
        "session/set_mode",
        "session/set_config_option",
        "session/set_config_option",
        "session/list",
        "session/load",
        "session/prompt",
        "session/prompt",
        "session/cancel",
    ]
    answers = [m for m in sent if "method" not in m]
    assert [played.asked[m["id"]] for m in answers] == [
        *["session/request_permission"] * 3,
        "fs/read_text_file",
        "session/request_permission",
    ]
    assert all(defined(method) for method in methods)
    for message in sent:
        check(message, played.asked.get(message.get("id")) if "method" not in message else None)


@pytest.mark.parametrize(
    ("message", "method"),
    [
        ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "1"}},
         None),
        ({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/"}}, None),
        ({"jsonrpc": "2.0", "id": 1, "method": "session/set_config_option",
          "params": {"sessionId": SID, "configId": "fast", "value": True}}, None),
        ({"jsonrpc": "2.0", "id": 0, "result": {"outcome": "selected"}},
         "session/request_permission"),
    ],
    ids=["version-a-string", "no-mcp-servers", "boolean-without-type", "flat-outcome"],
)  # fmt: skip
def test_the_schema_check_rejects_what_the_schema_does_not_allow(
    message: dict[str, Any], method: str | None
) -> None:
    with pytest.raises(SchemaError):
        check(message, method)
