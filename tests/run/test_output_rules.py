"""The turns of a run asked for an output type (agent_sdk/_run/structured.py), with turns
played in memory: when it corrects, what it sends, what it returns or raises."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from agent_sdk import AgentConfigError, AgentOptions, AgentOutputError, RunResult, Usage
from agent_sdk._run.output import correction, instruction
from agent_sdk._run.structured import output_run

pytestmark = pytest.mark.anyio


class Verdict(msgspec.Struct):
    verdict: str
    score: int


GOOD = 'Done.\n```json\n{"verdict": "approve", "score": 9}\n```'
BAD = 'Done.\n```json\n{"verdict": "approve", "score": "nine"}\n```'


class Turns:
    """Replies in order; what each turn was sent."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.sent: list[tuple[str, AgentOptions]] = []

    async def __call__(self, prompt: str, options: AgentOptions) -> RunResult[Any]:
        self.sent.append((prompt, options))
        turn = len(self.sent)
        return RunResult(
            result=self.replies[turn - 1],
            text=self.replies[turn - 1],
            session_id=f"chat-{turn}",
            usage=Usage(input_tokens=100, output_tokens=10),
            duration_ms=1000,
            output=None,
        )


async def test_a_fitting_first_reply_is_the_output() -> None:
    turns = Turns(GOOD)
    result = await output_run(turns, "Review it", AgentOptions(), Verdict)
    assert result.output == Verdict("approve", 9)
    assert turns.sent[0][0] == "Review it" + instruction(Verdict)


async def test_a_reply_that_does_not_fit_is_corrected_in_the_same_chat() -> None:
    turns = Turns(BAD, GOOD)
    result = await output_run(turns, "Review it", AgentOptions(), Verdict)
    assert result.output == Verdict("approve", 9)
    prompt, options = turns.sent[1]
    assert prompt == correction("Expected `int`, got `str` - at `$.score`")
    assert options.resume == "chat-1"


async def test_the_turns_add_up_their_tokens_and_durations() -> None:
    result = await output_run(Turns(BAD, GOOD), "p", AgentOptions(), Verdict)
    assert result.usage == Usage(input_tokens=200, output_tokens=20)
    assert result.duration_ms == 2000
    assert result.session_id == "chat-2"


async def test_no_fitting_reply_raises_with_the_reply_the_json_and_the_problem() -> None:
    turns = Turns(BAD, "I cannot produce JSON for this.")
    with pytest.raises(AgentOutputError) as info:
        await output_run(turns, "p", AgentOptions(), Verdict)
    error = info.value
    assert error.attempts == 2
    assert error.reply == "I cannot produce JSON for this."
    assert error.json is None
    assert error.problem == "the reply holds no JSON value"
    assert error.session_id == "chat-2"


async def test_output_attempts_bounds_the_replies() -> None:
    turns = Turns(BAD, GOOD)
    with pytest.raises(AgentOutputError) as info:
        await output_run(turns, "p", AgentOptions(output_attempts=1), Verdict)
    assert len(turns.sent) == 1
    assert info.value.json == '{"verdict": "approve", "score": "nine"}'


async def test_the_turns_share_the_runs_timeout() -> None:
    turns = Turns(BAD, GOOD)
    await output_run(turns, "p", AgentOptions(timeout=60), Verdict)
    first, second = (options.timeout for _, options in turns.sent)
    assert first is not None
    assert second is not None
    assert second <= first <= 60


async def test_a_type_without_a_json_schema_is_refused_before_anything_runs() -> None:
    turns = Turns(GOOD)
    with pytest.raises(AgentConfigError, match="has no JSON Schema"):
        await output_run(turns, "p", AgentOptions(), object)
    assert turns.sent == []


def test_output_attempts_must_be_at_least_one() -> None:
    with pytest.raises(AgentConfigError, match="output_attempts must be at least 1"):
        AgentOptions(output_attempts=0)
