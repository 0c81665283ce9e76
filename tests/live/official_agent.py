"""An ACP agent written with the official Python SDK (``agent-client-protocol``), run as a
process: ``python official_agent.py [global options] acp``. tests/live/test_live_official_sdk.py
starts it as a LiveAgent's binary. It answers in shapes the v1 schema allows and Cursor was
not seen to send (docs/acp.md §3.5, §3.8, §3.9): grouped model choices, a boolean option,
sessions listed without titles, a ``usage_update``; and asks one permission per prompt.
"""

from __future__ import annotations

import asyncio
from typing import Any

from acp import (
    PROTOCOL_VERSION,
    Agent,
    Client,
    run_agent,
    start_tool_call,
    update_agent_message_text,
    update_tool_call,
)
from acp.schema import (
    AgentCapabilities,
    AuthenticateResponse,
    Cost,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PermissionOption,
    PromptResponse,
    SessionCapabilities,
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectGroup,
    SessionConfigSelectOption,
    SessionInfo,
    SessionListCapabilities,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
    ToolCallUpdate,
    UsageUpdate,
)

SESSION = "0f6c3b1e-5d2a-4c8e-9b7f-3a1d2e4c5b6a"
GROUPS = {
    "openai": ("OpenAI", ["gpt-5.4"]),
    "anthropic": ("Anthropic", ["claude-opus-4-6", "claude-sonnet-4-6"]),
}


class OfficialAgent(Agent):
    """One session; its model and its boolean ``fast`` option can be set."""

    def __init__(self) -> None:
        self.client: Client | None = None
        self.model = "gpt-5.4"
        self.fast = False

    def on_connect(self, conn: Client) -> None:
        self.client = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        sessions = SessionCapabilities(list=SessionListCapabilities())
        capabilities = AgentCapabilities(load_session=True, session_capabilities=sessions)
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION, agent_capabilities=capabilities
        )

    async def authenticate(self, method_id: str, **kwargs: Any) -> AuthenticateResponse:
        return AuthenticateResponse()

    def options(self) -> list[Any]:
        groups = [
            SessionConfigSelectGroup(
                group=group,
                name=name,
                options=[SessionConfigSelectOption(value=v, name=v.upper()) for v in values],
            )
            for group, (name, values) in GROUPS.items()
        ]
        model = SessionConfigOptionSelect(
            id="model",
            name="Model",
            category="model",
            type="select",
            current_value=self.model,
            options=groups,
        )
        fast = SessionConfigOptionBoolean(
            id="fast", name="Fast", type="boolean", current_value=self.fast
        )
        return [model, fast]

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id=SESSION, config_options=self.options())

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        return LoadSessionResponse(config_options=self.options())

    async def list_sessions(self, cwd: str | None = None, **kwargs: Any) -> ListSessionsResponse:
        return ListSessionsResponse(sessions=[SessionInfo(session_id=SESSION, cwd="/srv/repo")])

    async def set_session_mode(self, session_id: str, mode_id: str, **kwargs: Any) -> Any:
        return SetSessionModeResponse()

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        if config_id == "fast" and isinstance(value, bool):
            self.fast = value
        elif config_id == "model" and isinstance(value, str):
            self.model = value
        else:
            raise ValueError(f"cannot set {config_id} to {value!r}")
        return SetSessionConfigOptionResponse(config_options=self.options())

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        assert self.client is not None
        said = "".join(getattr(block, "text", "") for block in prompt)
        await self.client.session_update(session_id, update_agent_message_text(f"Heard: {said}."))
        await self.client.session_update(
            session_id,
            UsageUpdate(
                session_update="usage_update",
                used=1200,
                size=200000,
                cost=Cost(amount=0.25, currency="EUR"),
            ),
        )
        call = start_tool_call("call-1", "`ls`", kind="execute", status="pending")
        await self.client.session_update(session_id, call)
        answer = await self.client.request_permission(
            session_id=session_id,
            tool_call=ToolCallUpdate(tool_call_id="call-1", title="`ls`", kind="execute"),
            options=[
                PermissionOption(option_id="allow-once", name="Allow once", kind="allow_once"),
                PermissionOption(option_id="reject-once", name="Reject", kind="reject_once"),
            ],
        )
        outcome = answer.outcome
        allowed = getattr(outcome, "option_id", None) == "allow-once"
        output = {"exitCode": 0, "stdout": "a.py\n", "stderr": ""} if allowed else None
        done = update_tool_call("call-1", status="completed", raw_output=output)
        await self.client.session_update(session_id, done)
        await self.client.session_update(session_id, update_agent_message_text(" Done."))
        return PromptResponse(stop_reason="end_turn")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None


def main() -> None:
    asyncio.run(run_agent(OfficialAgent()))


if __name__ == "__main__":
    main()
