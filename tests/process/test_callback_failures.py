"""A tool or a hook's callback that raises what is no ``Exception`` (docs/extend.md, "When
your code fails"), end to end on the fake: the call fails alone, the exception is kept, and
the run fails with ``AgentCallbackError`` carrying it (a test framework's failure in a
callback fails the test); a ``KeyboardInterrupt`` interrupts the program as itself; a
cancellation another task's is only that call's failure. On asyncio and trio."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import CONFIG, LIMIT, UserHome, short_temp_dir

from agent_sdk import AgentCallbackError, AgentError, AgentOptions, run_async
from agent_sdk.extend import Hooks, tool

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


class FrameworkFailure(BaseException):
    """What a test framework raises (pytest's ``fail()`` is a ``BaseException``)."""


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue by its number."""
    return f"Issue {number}"


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "cbfail-", tmpdir_env=True) as where:
        yield where


@pytest.fixture
def options(fake_binary: str, temp_dir: Path) -> MakeOptions:
    """The fake's ``custom_tools`` scenario: ``lookup_issue``, then ``fail``."""

    def make(**kwargs: Any) -> AgentOptions:
        user = UserHome(temp_dir, CONFIG)
        workspace = temp_dir / "ws"
        workspace.mkdir()
        env = user.run_env(FAKE_AGENT_SCENARIO="custom_tools")
        return AgentOptions(binary=fake_binary, cwd=workspace, env=env, force=True, **kwargs)

    return make


def failing(raised: BaseException) -> Any:
    @tool
    async def fail(reason: str) -> str:
        """Fail."""
        raise raised

    return fail


@pytest.mark.parametrize(
    "raised", [SystemExit(3), FrameworkFailure("assert 1 == 2")], ids=lambda e: type(e).__name__
)
async def test_a_tool_raising_no_exception_fails_the_run_with_it(
    options: MakeOptions, raised: BaseException
) -> None:
    with anyio.fail_after(LIMIT), pytest.raises(AgentCallbackError) as caught:
        await run_async("go", options=options(tools=[lookup_issue, failing(raised)]))
    assert caught.value.errors == [raised]
    assert caught.value.__cause__ is raised
    assert type(raised).__name__ in caught.value.message
    assert caught.value.hint is not None


async def test_a_gate_raising_no_exception_fails_the_run_and_is_in_hook_errors(
    options: MakeOptions,
) -> None:
    raised = FrameworkFailure("the gate's assertion failed")

    def gate(_: Any) -> str:
        raise raised

    with anyio.fail_after(LIMIT), pytest.raises(AgentCallbackError) as caught:
        await run_async("go", options=options(tools=[lookup_issue], hooks=Hooks(before_tool=gate)))
    assert caught.value.errors[0] is raised
    assert isinstance(caught.value, AgentError)


async def test_a_keyboard_interrupt_in_a_tool_interrupts_the_program(
    options: MakeOptions,
) -> None:
    with anyio.fail_after(LIMIT), pytest.raises(KeyboardInterrupt):
        await run_async("go", options=options(tools=[lookup_issue, failing(KeyboardInterrupt())]))


async def test_a_cancellation_another_tasks_is_that_calls_failure_only(
    options: MakeOptions,
) -> None:
    @tool
    async def fail(reason: str) -> str:
        """Fail."""
        async with anyio.create_task_group() as group:
            group.cancel_scope.cancel()
            caught: list[BaseException] = []
            try:
                await anyio.sleep_forever()
            except anyio.get_cancelled_exc_class() as exc:
                caught.append(exc)
        raise caught[0]

    with anyio.fail_after(LIMIT):
        result = await run_async("go", options=options(tools=[lookup_issue, fail]))
    (ours,) = [c.custom_tool for c in result.tool_calls if c.custom_tool and c.custom_tool.is_error]
    assert ours.tool == "fail"
