"""The live agent's start against the fake (``fake-cursor-agent acp``): its command line
and environment (docs/acp.md §1), the CLI version, one process for many sessions, and
the initialize result (§2, §3.1).

Wire-level quirks the SDK never sends (a protocol version of 99, a wrong auth method, a
missing ``cwd``, ``session/cancel`` as a request) are the fake's, tested in
tests/fake/test_fake_acp_connection.py.
Every wait is bounded by ``fail_after``; the tests run on asyncio and on trio.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from fake_env import clean_env, install_fake
from fake_live import LIMIT

from agent_sdk import AgentOptions
from agent_sdk.live import (
    LiveAgent,
)
from agent_sdk.live._process import acp_invocation

pytestmark = pytest.mark.anyio


# --- §1 invocation --------------------------------------------------------------------
def test_global_options_go_before_acp_and_no_browser_opens() -> None:
    options = AgentOptions(force=True, model="gpt-5.4[]", api_key="sk-test-0123456789")
    invocation = acp_invocation(options, "/bin/agent", {})
    assert invocation.argv[0] == "/bin/agent"
    assert invocation.argv[-1] == "acp"  # global options before the subcommand (§1)
    assert "--force" in invocation.argv[1:-1]
    assert "--model=gpt-5.4[]" in invocation.argv[1:-1]
    assert not any("sk-test" in arg for arg in invocation.argv)  # the key goes in the env
    assert invocation.env is not None
    assert invocation.env["CURSOR_API_KEY"] == "sk-test-0123456789"
    assert invocation.env["NO_OPEN_BROWSER"] == "1"
    assert invocation.env["BROWSER"] == "true"


def test_the_agent_gets_no_inherited_node_options() -> None:
    # The same rule as print mode (docs/protocol.md §1, "Environment").
    inherited = {"PATH": "/usr/bin", "NODE_OPTIONS": "--no-experimental-fetch"}
    invocation = acp_invocation(AgentOptions(), "/bin/agent", inherited)
    assert invocation.env is not None
    assert "NODE_OPTIONS" not in invocation.env
    given = AgentOptions(env={"NODE_OPTIONS": "--max-old-space-size=8192"})
    kept = acp_invocation(given, "/bin/agent", inherited).env
    assert kept is not None
    assert kept["NODE_OPTIONS"] == "--max-old-space-size=8192"


async def test_the_agent_its_sessions_and_turns_carry_the_cli_version(
    fake_binary: str, tmp_path: Path
) -> None:
    # initialize says nothing of the version (§3.1): it is read from the install.
    agent_link = install_fake(tmp_path / "home", "2026.10.01-14929f9", fake_binary)
    options = AgentOptions(binary=str(agent_link), cwd=tmp_path, env=clean_env())
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("hello")
    assert agent.cli_version == "2026.10.01-14929f9"
    assert (session.cli_version, result.cli_version) == (agent.cli_version,) * 2


async def test_an_agent_outside_an_install_has_an_unknown_version(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("hello")
    assert (agent.cli_version, result.cli_version) == (None, None)


async def test_one_process_holds_many_sessions(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        first = await agent.new_session()
        second = await agent.new_session()
        with anyio.fail_after(LIMIT):
            one = await first.send("hello")
            two = await second.send("scenario:plan_updates")
        assert first.session_id != second.session_id
        assert agent.sessions == [first, second]
    assert (one.session_id, one.text) == (first.session_id, "Hello! How can I help?")
    assert (two.session_id, two.text) == (second.session_id, "Both steps are done.")


# --- §2 lifecycle, §3.1 initialize ----------------------------------------------------
async def test_initialize_result_is_decoded(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        result = agent.initialize_result
    assert result is not None
    caps = result.agent_capabilities
    assert caps.load_session is True
    assert caps.mcp_capabilities == {"http": True, "sse": True}
    assert caps.prompt_capabilities == {"audio": False, "embeddedContext": False, "image": True}
    assert caps.session_capabilities == {"list": {}}
    assert [m.id for m in result.auth_methods] == ["cursor_login"]
    assert "agent login" in (result.auth_methods[0].description or "")
