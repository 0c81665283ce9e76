"""Structured output through the real process path, on the bundled fake agent: a fitting
reply, one corrected in the same chat, one that never fits; through run_async, run_sync,
Session.send and a fleet task; and the plan as the output of a plan-mode run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import msgspec
import pytest

from agent_sdk import AgentOptions, AgentOutputError, Plan, Session, run_async, run_sync
from agent_sdk.fleet import Fleet, Task, TaskFailed, TaskSucceeded

pytestmark = pytest.mark.anyio


class Finding(msgspec.Struct):
    file: str
    line: int
    severity: str
    message: str


class Review(msgspec.Struct):
    verdict: Literal["approve", "request_changes"]
    summary: str
    findings: list[Finding]


Options = Callable[..., AgentOptions]


def check_review(review: Review) -> None:
    assert review.verdict == "request_changes"
    assert [(f.file, f.line) for f in review.findings] == [
        ("src/cart.py", 12),
        ("tests/test_cart.py", 3),
    ]


async def test_a_reply_that_fits_is_the_output(fake_options: Options) -> None:
    result = await run_async("Review it", options=fake_options("json_review"), output_type=Review)
    check_review(result.output)
    assert result.result.endswith("```")  # the reply itself is kept as it was


async def test_a_reply_that_does_not_fit_is_corrected_in_the_same_chat(
    fake_options: Options,
) -> None:
    result = await run_async(
        "Review it", options=fake_options("json_corrected"), output_type=Review
    )
    check_review(result.output)
    assert result.result.startswith("You are right")  # the resumed run's reply
    assert result.usage is not None


async def test_a_reply_that_never_fits_raises_with_what_was_said(fake_options: Options) -> None:
    with pytest.raises(AgentOutputError) as info:
        await run_async("Review it", options=fake_options("json_never"), output_type=Review)
    error = info.value
    assert error.attempts == 2
    assert error.reply.startswith("I cannot produce JSON for this.")
    assert error.json is None
    assert error.session_id is not None


async def test_one_attempt_allowed_keeps_the_first_replys_json(fake_options: Options) -> None:
    options = fake_options("json_corrected", output_attempts=1)
    with pytest.raises(AgentOutputError) as info:
        await run_async("Review it", options=options, output_type=Review)
    assert info.value.json is not None
    assert '"line": "twelve"' in info.value.json
    assert info.value.problem == "Expected `int`, got `str` - at `$.findings[0].line`"


async def test_a_session_corrects_in_its_own_chat(fake_options: Options) -> None:
    session = Session(options=fake_options("json_corrected"))
    result = await session.send("Review it", output_type=Review)
    check_review(result.output)
    assert session.session_id == result.session_id


async def test_a_fleet_task_returns_its_output(fake_options: Options) -> None:
    tasks = [
        Task(prompt="Review it", options=fake_options("json_corrected"), output_type=Review),
        Task(prompt="Review it", options=fake_options("json_never"), output_type=Review),
    ]
    async with Fleet(tasks) as fleet:
        outcomes = {outcome.task.id: outcome async for outcome in fleet}
    corrected, never = outcomes["task-1"], outcomes["task-2"]
    assert isinstance(corrected, TaskSucceeded)
    check_review(corrected.result.output)
    assert corrected.attempts == 2  # the first reply and its correction
    assert isinstance(never, TaskFailed)
    assert isinstance(never.error, AgentOutputError)


async def test_a_bare_json_value_at_the_end_is_taken(fake_options: Options) -> None:
    class Steps(msgspec.Struct):
        steps: list[str]

    result = await run_async("Plan it", options=fake_options("json_bare"), output_type=Steps)
    assert result.output.steps[-1] == "add a test with qty 3"


async def test_in_plan_mode_the_plan_is_in_plan_not_output(fake_options: Options) -> None:
    result = await run_async("Plan it", options=fake_options("plan", mode="plan"))
    assert isinstance(result.plan, Plan)
    assert result.output is None


async def test_without_plan_mode_there_is_no_output(fake_options: Options) -> None:
    assert (await run_async("hi", options=fake_options("hello"))).output is None


def test_run_sync_returns_the_output_too(fake_options: Options) -> None:
    check_review(
        run_sync("Review it", options=fake_options("json_review"), output_type=Review).output
    )
