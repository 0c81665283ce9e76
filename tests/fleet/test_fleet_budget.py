"""A fleet's budget over all its tasks, and a task's own, against in-memory CLIs
(docs/budgets.md): the run that goes over fails with AgentBudgetError, the running ones
stop at their next tool call, the ones not started never start, nothing is retried."""

from __future__ import annotations

import math
from typing import Any

import anyio
import pytest
from fleet_scripts import Scripts

from agent_sdk import AgentBudgetError, AgentConfigError, AgentError, AgentOptions, Budget
from agent_sdk.fleet import Fleet, LocalBackend, RetryPolicy, Task, TaskFailed, TaskSucceeded
from agent_sdk.testing import Exit, Output, Pause

pytestmark = pytest.mark.anyio

GUARD = 10  # a regression fails instead of hanging; not a timing claim
NO_WAIT = RetryPolicy(attempts=3, backoff=0.0, jitter=0.0, retry_on=(AgentError,))


def wire(session: str, *events: dict[str, Any]) -> Output:
    return Output.event(*({**event, "session_id": session} for event in events))


def init(session: str) -> Output:
    return wire(session, {"type": "system", "subtype": "init"})


def calls(session: str, count: int) -> Output:
    events: list[dict[str, Any]] = []
    for n in range(count):
        call = {"readToolCall": {"args": {"path": "a.py"}}}
        events.append(
            {"type": "tool_call", "subtype": "started", "call_id": f"c{n}", "tool_call": call}
        )
    return wire(session, *events)


def done(session: str, tokens: int = 10) -> list[Any]:
    usage = {"inputTokens": tokens, "outputTokens": 1}
    result = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
    return [wire(session, {**result, "usage": usage}), Exit(0)]


async def outcomes_of(fleet: Fleet) -> dict[str, Any]:
    with anyio.fail_after(GUARD):
        async with fleet:
            return {outcome.task.id: outcome async for outcome in fleet}


async def test_a_fleet_budget_counts_the_tool_calls_of_all_its_tasks() -> None:
    # One at a time (in an order the event loop picks): 2 calls, then the 4th goes over.
    scripts = Scripts(lambda task, attempt: [init(task.id), calls(task.id, 2), *done(task.id)])
    fleet = Fleet(
        ["a", "b", "c"], limit=1, stagger=0, budget=Budget(tool_calls=3),
        backend=LocalBackend(scripts),
    )  # fmt: skip
    outcomes = list((await outcomes_of(fleet)).values())
    assert sum(isinstance(o, TaskSucceeded) for o in outcomes) == 1
    failed = [o.error for o in outcomes if not o.ok]
    assert all(isinstance(error, AgentBudgetError) for error in failed)
    (went_over,) = (error for error in failed if error.session_id is not None)
    assert isinstance(went_over, AgentBudgetError)
    assert (went_over.scope, went_over.limit) == ("fleet", "tool_calls")
    assert (went_over.used, went_over.allowed) == (4, 3)


async def test_the_tasks_not_started_when_the_fleet_budget_is_spent_never_start() -> None:
    scripts = Scripts(lambda task, attempt: [init(task.id), calls(task.id, 2), *done(task.id)])
    fleet = Fleet(
        ["a", "b", "c"], limit=1, stagger=0, budget=Budget(tool_calls=3),
        backend=LocalBackend(scripts),
    )  # fmt: skip
    outcomes = await outcomes_of(fleet)
    assert len(scripts.started()) == 2
    (never,) = set(outcomes) - set(scripts.started())
    assert isinstance(outcomes[never], TaskFailed)
    assert isinstance(outcomes[never].error, AgentBudgetError)


async def test_every_task_fails_once_the_fleet_budget_is_spent() -> None:
    def script(task: Task, attempt: int) -> list[Any]:
        if task.id == "task-1":  # goes over at once
            return [init(task.id), calls(task.id, 2), Pause(math.inf)]
        return [init(task.id), Pause(0.2), calls(task.id, 1), Pause(math.inf)]

    scripts = Scripts(script)
    fleet = Fleet(
        ["a", "b"], limit=2, stagger=0, budget=Budget(tool_calls=1), backend=LocalBackend(scripts)
    )
    outcomes = await outcomes_of(fleet)
    # task-2 stops at its call, or, had task-1 gone over before it started, never starts:
    # which one is the event loop's order (the rule itself: tests/run/test_budget_rules.py).
    for outcome in outcomes.values():
        assert isinstance(outcome, TaskFailed)
        assert isinstance(outcome.error, AgentBudgetError)
        assert outcome.error.scope == "fleet"


async def test_a_fleet_token_budget_stops_the_runs_after_the_one_that_went_over() -> None:
    scripts = Scripts(lambda task, attempt: [init(task.id), *done(task.id, tokens=10)])
    fleet = Fleet(
        ["a", "b", "c"], limit=1, stagger=0, budget=Budget(tokens=15),
        backend=LocalBackend(scripts),
    )  # fmt: skip
    outcomes = await outcomes_of(fleet)
    assert sorted(o.ok for o in outcomes.values()) == [False, True, True]
    (refused,) = (o for o in outcomes.values() if not o.ok)
    assert refused.error.limit == "tokens"
    assert len(scripts.started()) == 2


async def test_a_budget_error_is_never_retried() -> None:
    scripts = Scripts(lambda task, attempt: [init(task.id), calls(task.id, 2), Pause(math.inf)])
    task = Task(prompt="p", options=AgentOptions(budget=Budget(tool_calls=1)))
    fleet = Fleet([task], retry=NO_WAIT, backend=LocalBackend(scripts))
    outcome = (await outcomes_of(fleet))["task-1"]
    assert isinstance(outcome.error, AgentBudgetError)
    assert outcome.attempts == 1


async def test_a_tasks_own_budget_and_the_fleets_both_count() -> None:
    scripts = Scripts(lambda task, attempt: [init(task.id), calls(task.id, 2), *done(task.id)])
    own = Task(prompt="p", id="own", options=AgentOptions(budget=Budget(tool_calls=1)))
    fleet = Fleet(
        [own, "q"], limit=1, stagger=0, budget=Budget(tool_calls=10), backend=LocalBackend(scripts)
    )
    outcomes = await outcomes_of(fleet)
    assert outcomes["own"].error.scope == "run"
    assert isinstance(outcomes["task-2"], TaskSucceeded)
    assert fleet._spending is not None
    assert fleet._spending.tool_calls == 4  # the run that went over counted its call


class ElsewhereBackend:
    async def run_task(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def test_a_fleet_budget_needs_the_local_backend() -> None:
    with pytest.raises(AgentConfigError, match="local backend"):
        Fleet(["p"], budget=Budget(tool_calls=1), backend=ElsewhereBackend())
