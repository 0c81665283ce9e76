"""Every agent request gets exactly one answer within ``decision_timeout``, the safe one on
any failure of its callback; the failure is recorded, never sent (docs/live.md
"Approvals"). Against an agent played in memory.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agent_sdk.live import (
    AskQuestionParams,
    AskQuestionResult,
    LiveAgent,
    RequestPermissionParams,
)
from agent_sdk.testing.memory_acp import MemoryAcpTransport, ScriptedAgent

pytestmark = pytest.mark.anyio

LIMIT = 10.0
SID = "4c1f9e2a-7b3d-4e8a-9f10-2d6b8c0a5e71"
OPTIONS = [
    {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"},
]
TOOL = {"toolCallId": "call-1", "title": "`pytest -q`", "kind": "execute", "status": "pending"}
QUESTION = {
    "toolCallId": "q-1",
    "title": "Which database?",
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [{"id": "pg", "label": "PostgreSQL"}],
            "allowMultiple": False,
        }
    ],
}
REJECTED = {"outcome": {"outcome": "selected", "optionId": "reject-once"}}
CANCELLED = {"outcome": {"outcome": "cancelled"}}
SECRET_DETAIL = "the callback's own words 1f2e3d"


async def open_session(a: ScriptedAgent) -> None:
    await a.handshake()
    await a.reply(await a.expect("session/new"), {"sessionId": SID})


async def a_stray_cancellation() -> BaseException:
    """A cancellation exception that is not ours: what a callback gets when it awaited
    something another scope or task cancelled."""
    with anyio.CancelScope() as elsewhere:
        elsewhere.cancel()
        try:
            await anyio.sleep(LIMIT)
        except anyio.get_cancelled_exc_class() as exc:
            caught = exc
    return caught


async def permission_answer(callback: Any) -> tuple[LiveAgent, dict[str, Any]]:
    answers: list[dict[str, Any]] = []

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        prompt = await a.expect("session/prompt")
        params = {"sessionId": SID, "toolCall": TOOL, "options": OPTIONS}
        answers.append(await a.answer(await a.request("session/request_permission", params)))
        await a.reply(prompt, {"stopReason": "end_turn"})
        await a.receive()

    async with LiveAgent(transport=MemoryAcpTransport(script), permission=callback) as agent:
        session = await agent.new_session(cwd="/")
        with anyio.fail_after(LIMIT):
            assert (await session.send("run the tests")).stop_reason == "end_turn"
    return agent, answers[0]


async def test_a_permission_callback_ending_in_a_stray_cancellation_is_a_rejection() -> None:
    async def cancelled_elsewhere(params: RequestPermissionParams) -> str:
        raise await a_stray_cancellation()

    agent, answer = await permission_answer(cancelled_elsewhere)
    assert answer["result"] == REJECTED
    assert [type(e) for e in agent.callback_errors] == [anyio.get_cancelled_exc_class()]


async def test_a_raising_permission_callback_is_a_rejection_and_its_words_stay_here() -> None:
    def raising(params: RequestPermissionParams) -> str:
        raise ValueError(SECRET_DETAIL)

    agent, answer = await permission_answer(raising)
    assert answer["result"] == REJECTED
    assert SECRET_DETAIL not in repr(answer)
    assert [str(e) for e in agent.callback_errors] == [SECRET_DETAIL]


async def question_answer(callback: Any, decision_timeout: float = LIMIT) -> dict[str, Any]:
    """The answer to a ``cursor/ask_question`` that comes when no turn runs."""
    answers: list[dict[str, Any]] = []
    answered = anyio.Event()

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        answers.append(await a.answer(await a.request("cursor/ask_question", QUESTION)))
        answered.set()
        await a.receive()

    transport = MemoryAcpTransport(script)
    async with LiveAgent(
        transport=transport, ask_question=callback, decision_timeout=decision_timeout
    ) as agent:
        await agent.new_session(cwd="/")
        with anyio.fail_after(LIMIT):
            await answered.wait()
    return answers[0]


async def test_a_question_after_its_turn_is_bounded_by_decision_timeout() -> None:
    async def never(params: AskQuestionParams) -> AskQuestionResult:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    assert (await question_answer(never, decision_timeout=0.1))["result"] == CANCELLED


async def test_a_raising_question_callback_is_answered_cancelled_never_with_its_error() -> None:
    def raising(params: AskQuestionParams) -> AskQuestionResult:
        raise ValueError(SECRET_DETAIL)

    answer = await question_answer(raising)
    assert answer.get("result") == CANCELLED
    assert SECRET_DETAIL not in repr(answer)


async def test_a_question_callback_ending_in_a_stray_cancellation_is_answered_cancelled() -> None:
    async def cancelled_elsewhere(params: AskQuestionParams) -> AskQuestionResult:
        raise await a_stray_cancellation()

    assert (await question_answer(cancelled_elsewhere))["result"] == CANCELLED


async def test_leaving_the_agent_while_a_callback_decides_ends_the_decision() -> None:
    deciding = anyio.Event()

    async def script(a: ScriptedAgent) -> None:
        await open_session(a)
        await a.request("cursor/ask_question", QUESTION)
        await a.receive()

    async def never(params: AskQuestionParams) -> AskQuestionResult:
        deciding.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    with anyio.fail_after(LIMIT):
        async with LiveAgent(transport=MemoryAcpTransport(script), ask_question=never) as agent:
            await agent.new_session(cwd="/")
            await deciding.wait()
