"""Live turns against the fake (``fake-cursor-agent acp``) through the public API: prompts
and stop reasons (§3.6), cancel (§3.7), updates bridged onto agent_sdk events (§3.9,
§3.10, §6), permission answers (§3.11), the agent's other requests (§3.12, §4), and
failures (§5.2). Every wait is bounded by ``fail_after``; asyncio and trio both run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from fake_env import clean_env

from agent_sdk import AgentOptions
from agent_sdk.errors import AgentProtocolError, AgentRetriableError
from agent_sdk.events import AssistantEvent, ThinkingDelta, ToolCallCompleted, ToolCallStarted
from agent_sdk.live import (
    AcpPlan,
    AcpToolCallUpdate,
    AgentMessageChunk,
    AskQuestionParams,
    AskQuestionResult,
    ConfigOptionUpdate,
    ContentBlock,
    JsonRpcError,
    LiveAgent,
    LiveSession,
    QuestionAnswer,
    RequestPermissionParams,
    SelectedOutcome,
    SessionInfoUpdate,
    UnknownUpdate,
    UsageUpdate,
    UserMessageChunk,
)
from agent_sdk.live._requests import AnsweredOutcome
from agent_sdk.tool_results import Rejection, ShellSuccess
from agent_sdk.tools import ShellArgs

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


def playing(options: AgentOptions, tmp_path: Path, *lines: str) -> AgentOptions:
    """``options`` whose every prompt plays ``lines`` (a scenario file of this test)."""
    path = tmp_path / "scenario.ndjson"
    path.write_text("\n".join(lines) + "\n")
    return msgspec.structs.replace(options, env=clean_env(FAKE_AGENT_ACP_SCENARIO=str(path)))


def message(text: str) -> str:
    return msgspec.json.encode(
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    ).decode()


async def events_of(session: LiveSession, prompt: str) -> list[Any]:
    with anyio.fail_after(LIMIT):
        return [event async for event in session.run(prompt)]


# --- §3.6 session/prompt --------------------------------------------------------------
async def test_hello_is_bridged_onto_agent_sdk_events(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        turn = session.run("hello")
        with anyio.fail_after(LIMIT):
            events = [event async for event in turn]
    thinking = "".join(e.text for e in events if isinstance(e, ThinkingDelta))
    assert thinking == "The user wants a greeting."  # thoughts, always (§6)
    assert [e.new_text for e in events if isinstance(e, AssistantEvent)] == [
        "Hello",
        "! How can I help?",
    ]
    assert all(e.session_id == session.session_id for e in events if isinstance(e, AssistantEvent))
    assert [e.title for e in events if isinstance(e, SessionInfoUpdate)] == ["Say Hello"]
    assert not any(isinstance(e, UserMessageChunk) for e in events)  # never echoed live
    result = turn.result
    assert (result.text, result.stop_reason) == ("Hello! How can I help?", "end_turn")
    assert result.events == events


async def test_an_empty_prompt_ends_at_once(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        await events_of(session, "hello")  # the unsolicited command list is behind us
        with anyio.fail_after(LIMIT):
            result = await session.send("")
    assert (result.text, result.stop_reason, result.events) == ("", "end_turn", [])


async def test_content_blocks_beside_text_are_accepted(options: AgentOptions) -> None:
    blocks = [
        ContentBlock(type="text", text="hello"),
        ContentBlock(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
        ContentBlock(type="resource_link", uri="file:///etc/hostname", name="hostname"),
    ]
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send(blocks)
    assert result.stop_reason == "end_turn"


@pytest.mark.parametrize("reason", ["max_tokens", "max_turn_requests", "refusal"])
async def test_documented_stop_reasons_decode(
    options: AgentOptions, tmp_path: Path, reason: str
) -> None:
    stop = msgspec.json.encode({"fake": "stop", "stopReason": reason}).decode()
    async with LiveAgent(playing(options, tmp_path, message("partial"), stop)) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("go")
    assert (result.text, result.stop_reason, result.cancelled) == ("partial", reason, False)


async def test_a_prompt_to_an_unknown_session_fails_with_a_hint(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        ghost = LiveSession(agent, "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10", str(options.cwd))
        with pytest.raises(JsonRpcError) as caught, anyio.fail_after(LIMIT):
            await ghost.send("hello")
    assert caught.value.code == -32603
    assert caught.value.data == {"details": f"Session {ghost.session_id} not found"}
    assert caught.value.method == "session/prompt"
    assert caught.value.hint is not None


# --- §3.7 cancel ----------------------------------------------------------------------
async def test_cancel_without_a_running_prompt_does_nothing(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.cancel()
            result = await session.send("hello")
    assert result.stop_reason == "end_turn"


async def test_run_ends_cancelled_and_result_says_so(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        turn = session.run("scenario:slow")
        with anyio.fail_after(LIMIT):
            async for event in turn:
                if isinstance(event, AssistantEvent):  # "Working": it stalls now
                    await turn.cancel()
    assert (turn.result.text, turn.result.stop_reason) == ("Working", "cancelled")
    assert turn.result.cancelled


# --- §3.9 updates ---------------------------------------------------------------------
async def test_plan_updates_replace_the_whole_plan(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:plan_updates")
    plans = [e for e in result.events if isinstance(e, AcpPlan)]
    assert len(plans) == 3
    assert result.plan == plans[-1]
    assert [e.status for e in plans[-1].entries] == ["completed", "completed"]


async def test_unknown_updates_pass_through_and_a_broken_line_is_recorded(
    options: AgentOptions,
) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:unknown_updates")
        diagnostics = [d.line for d in agent.diagnostics]
    unknown = [e for e in result.events if isinstance(e, UnknownUpdate)]
    assert [u.kind for u in unknown] == [
        "future_kind",
        "current_mode_update",  # a known kind in an unrecorded shape
    ]
    assert unknown[0].data == {"sessionUpdate": "future_kind", "payload": {"n": 1}}
    # Never seen from Cursor, typed in the v1 schema's shapes (§3.9).
    usage = [e for e in result.events if isinstance(e, UsageUpdate)]
    assert [(e.used, e.size, e.cost) for e in usage] == [(1200, 200000, None)]
    assert [e for e in result.events if isinstance(e, ConfigOptionUpdate)] == [
        ConfigOptionUpdate(config_options=[])
    ]
    assert diagnostics == [b'{"jsonrpc":"2.0","method":"session/upd']  # dropped (§1)
    assert session.current_mode_id == "agent"
    assert (result.text, result.stop_reason) == ("Still here.", "end_turn")


# --- §3.10 tool calls -----------------------------------------------------------------
async def test_an_execute_call_is_a_shell_tool_call(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:tools")
    calls = result.tool_calls
    assert len(calls) == 4
    assert all("\nfc_" in call.call_id for call in calls)  # ids keep their newline
    shell = calls[3]
    assert shell.kind == "shellToolCall"
    assert isinstance(shell.args, ShellArgs)
    assert shell.args.command == "ls tests"
    assert isinstance(shell.result, ShellSuccess)
    assert (shell.result.exit_code, shell.result.stdout) == (0, "test_cart.py\n")
    assert shell.status == "succeeded"
    assert shell.started is not None
    assert shell.started.extras["title"] == "`ls tests`"


async def test_other_kinds_keep_their_acp_name_and_title(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:tools")
    read, search, edit = result.tool_calls[:3]
    assert [c.kind for c in (read, search, edit)] == ["read", "search", "edit"]
    assert [c.status for c in (read, search, edit)] == ["succeeded"] * 3
    assert read.started is not None
    assert read.started.extras["title"] == "Read File"
    assert search.result == {"totalFiles": 3, "truncated": False}


async def test_a_resent_tool_call_is_one_tool_call(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:upsert")
    started = [e for e in result.events if isinstance(e, ToolCallStarted)]
    completed = [e for e in result.events if isinstance(e, ToolCallCompleted)]
    # Started again when re-sent, so its args are the real ones; one call all the same.
    assert (len(result.tool_calls), len(started), len(completed)) == (1, 2, 1)
    call = result.tool_calls[0]
    assert isinstance(call.result, ShellSuccess)
    assert (call.result.command, call.result.exit_code) == ("make test", 2)  # merged (§3.10)
    assert call.completed is not None
    assert call.completed.extras["title"] == "`make test`"


async def test_a_resent_tool_call_shows_its_real_arguments(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:upsert")
    args = result.tool_calls[0].args
    assert isinstance(args, ShellArgs)
    assert args.command == "make test"


# --- §3.11 permission -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("decision", "status"), [("allow_once", "succeeded"), ("reject", "blocked")]
)
async def test_a_permission_answer_sets_the_tool_call_status(
    options: AgentOptions, decision: str, status: str
) -> None:
    async with LiveAgent(options, permission=lambda request: decision) as agent:  # type: ignore[arg-type,return-value]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:permission")
    (call,) = result.tool_calls
    assert call.status == status  # ACP says `completed` either way (§3.10)
    if decision == "reject":
        assert isinstance(call.result, Rejection)
        assert call.result.command == "pytest -q"
    else:
        assert isinstance(call.result, ShellSuccess)
        assert call.result.stdout == "12 passed in 0.41s\n"


def permission_branches(options: AgentOptions, tmp_path: Path) -> AgentOptions:
    step = {
        "fake": "permission",
        "toolCall": {"toolCallId": "call-1\nfc_1", "title": "`make`", "kind": "execute"},
        "on": {"allow-once": [], "allow-always": [], "reject-once": []},
        "allow": [],
        "reject": [],
    }
    for option in ("allow-once", "allow-always", "reject-once"):
        step["on"][option] = [msgspec.json.decode(message(option))]  # type: ignore[index]
    step["reject"] = [msgspec.json.decode(message("rejected"))]
    return playing(options, tmp_path, msgspec.json.encode(step).decode())


@pytest.mark.parametrize(
    ("decision", "answered"),
    [
        ("allow_once", "allow-once"),
        ("allow_always", "allow-always"),
        ("reject", "reject-once"),
        (SelectedOutcome(option_id="no-such-option"), "rejected"),
    ],
)
async def test_a_decision_is_answered_with_the_option_of_its_kind(
    options: AgentOptions, tmp_path: Path, decision: Any, answered: str
) -> None:
    seen: list[RequestPermissionParams] = []

    def decide(request: RequestPermissionParams) -> Any:
        seen.append(request)
        return decision

    async with LiveAgent(permission_branches(options, tmp_path), permission=decide) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("go")
    assert result.text == answered
    assert seen[0].tool_call.tool_call_id == "call-1\nfc_1"
    assert seen[0].session_id == session.session_id


async def test_force_auto_approves_without_asking(options: AgentOptions) -> None:
    asked: list[RequestPermissionParams] = []
    forced = msgspec.structs.replace(options, force=True)
    async with LiveAgent(forced, permission=asked.append) as agent:  # type: ignore[arg-type]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:permission")
    assert asked == []
    assert "all 12 pass" in result.text
    assert result.tool_calls[0].status == "succeeded"


# --- §3.12, §4 the agent's requests ---------------------------------------------------
async def test_an_unknown_agent_request_is_method_not_found(
    options: AgentOptions, tmp_path: Path
) -> None:
    step = {
        "fake": "request",
        "method": "fs/read_text_file",
        "params": {"sessionId": "x", "path": "/etc/hostname"},
        "on": {"error": [msgspec.json.decode(message("refused"))]},
    }
    played = playing(options, tmp_path, msgspec.json.encode(step).decode())
    async with LiveAgent(played) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("go")
    assert result.text == "refused"  # answered -32601 (§3.12)


async def test_update_todos_is_answered_empty(options: AgentOptions, tmp_path: Path) -> None:
    step = {
        "fake": "request",
        "method": "cursor/update_todos",
        "params": {"toolCallId": "t", "todos": [], "merge": False},
        # `{}` has no nested outcome: the fake counts it `cancelled` (§4); an error: `error`.
        "on": {
            "cancelled": [msgspec.json.decode(message("empty"))],
            "error": [msgspec.json.decode(message("refused"))],
        },
    }
    played = playing(options, tmp_path, msgspec.json.encode(step).decode())
    async with LiveAgent(played) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("go")
    assert result.text == "empty"


async def test_not_awaited_todos_do_not_stall_the_turn(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:todos")
    assert (result.text, result.stop_reason) == ("Tracking one todo.", "end_turn")
    assert agent.callback_errors == []


async def test_ask_question_is_skipped_without_a_callback(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:ask_question")
    assert result.text == "Question skipped; using SQLite."  # nested `skipped` (§4)


async def test_ask_question_is_answered_by_its_callback(options: AgentOptions) -> None:
    got: list[AskQuestionParams] = []

    async def answer(params: AskQuestionParams) -> AskQuestionResult:
        got.append(params)
        picked = QuestionAnswer(question_id="db", selected_option_ids=["pg"])
        return AskQuestionResult(outcome=AnsweredOutcome(answers=[picked]))

    async with LiveAgent(options, ask_question=answer) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:ask_question")
    assert [q.id for q in got[0].questions] == ["db"]
    assert [o.id for o in got[0].questions[0].options] == ["pg", "sqlite"]
    assert result.text == "Thanks, going with your choice."


# --- §5.2 failures --------------------------------------------------------------------
async def test_a_backend_error_is_raised_after_the_events(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        seen: list[Any] = []
        with pytest.raises(AgentRetriableError) as caught, anyio.fail_after(LIMIT):
            async for event in session.run("scenario:backend_error"):
                seen.append(event)
        with anyio.fail_after(LIMIT):
            again = await session.send("hello")  # the session is still usable
    assert next(e.new_text for e in seen if isinstance(e, AssistantEvent)) == "Let me check"
    assert "[unavailable] Connection stalled" in str(caught.value)
    assert caught.value.context.session_id == session.session_id
    assert again.stop_reason == "end_turn"


async def test_send_raises_a_backend_error(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentRetriableError), anyio.fail_after(LIMIT):
            await session.send("scenario:backend_error")


async def test_a_dead_agent_is_a_protocol_error_and_the_session_loads_again(
    fake_binary: str, tmp_path: Path
) -> None:
    env = clean_env(CURSOR_CONFIG_DIR=str(tmp_path / "config"))
    options = AgentOptions(binary=fake_binary, cwd=tmp_path, env=env)
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            await session.send("hello")
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            await session.send("scenario:crash")
    assert caught.value.hint is not None
    assert "load the session" in caught.value.hint
    async with LiveAgent(options) as agent:  # §5.2 item 9: a new process loads it
        with anyio.fail_after(LIMIT):
            loaded = await agent.load_session(session.session_id)
            again = await loaded.send("hello")
    replayed = "".join(
        u.content.text or "" for u in loaded.history if isinstance(u, AgentMessageChunk)
    )
    assert replayed.startswith("Hello! How can I help?")  # the conversation, not the turn
    assert again.stop_reason == "end_turn"


async def test_a_dead_agent_error_says_its_exit_code(options: AgentOptions) -> None:
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentProtocolError) as caught, anyio.fail_after(LIMIT):
            await session.send("scenario:crash")
    assert caught.value.context.exit_code == 3
    assert "exit 3" in str(caught.value)


async def test_a_permission_request_says_pending_after_in_progress(
    options: AgentOptions,
) -> None:
    asked: list[RequestPermissionParams] = []

    def allow(request: RequestPermissionParams) -> str:
        asked.append(request)
        return "allow_once"

    async with LiveAgent(options, permission=allow) as agent:  # type: ignore[arg-type]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:permission")
    statuses = [e.status for e in result.events if isinstance(e, AcpToolCallUpdate)]
    assert statuses == ["in_progress"]  # passed through between started and completed
    # The request still says `pending` after `in_progress`: trust the stream (§2 note).
    assert asked[0].tool_call.status == "pending"
    assert asked[0].tool_call.content is not None
    assert "Not in allowlist: pytest" in str(asked[0].tool_call.content)
