"""Live turns against the fake (``fake-cursor-agent acp``): the agent's other requests
(docs/acp.md §3.12, §4), an unknown one refused, todos and questions answered.
Every wait is bounded by ``fail_after``; asyncio and trio both run.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import msgspec
import pytest
from fake_live import LIMIT, message, playing

from agent_sdk import AgentOptions
from agent_sdk.live import (
    AskQuestionParams,
    AskQuestionResult,
    LiveAgent,
    QuestionAnswer,
)
from agent_sdk.live._requests import AnsweredOutcome

pytestmark = pytest.mark.anyio


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
