"""The ``agent_sdk`` loggers (docs/traces.md, "Logging"): lifecycle steps at DEBUG and INFO,
silent unless the program listens, the prompt and secrets never shown. Real runs of the
fake agent; a fleet's retry on in-memory CLIs."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable

import anyio
import pytest

import fake_agent
from agent_sdk import AgentOptions, AgentTimeoutError, run_async
from agent_sdk.fleet import Fleet, LocalBackend, RetryPolicy, Task
from agent_sdk.live import LiveAgent
from agent_sdk.testing import Exit, MemoryTransport, Output, Stderr

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
PROMPT = "Summarise the changes in the cart module"


def messages(caplog: pytest.LogCaptureFixture, name: str) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == name]


async def test_the_start_is_logged_with_the_binary_and_the_argv_but_not_the_prompt(
    fake_options: MakeOptions, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="agent_sdk")
    options = fake_options("hello", model="gpt-5")
    await run_async(PROMPT, options=options)
    (started,) = [m for m in messages(caplog, "agent_sdk.transport") if m.startswith("started")]
    assert str(options.binary) in started
    assert "--model=gpt-5" in started
    assert f"<prompt: {len(PROMPT)} characters>" in started
    assert PROMPT not in started


async def test_a_header_value_in_the_argv_is_not_logged(
    fake_options: MakeOptions, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="agent_sdk")
    await run_async("hi", options=fake_options("hello", headers={"X-Team": "team-token-1234"}))
    (started,) = [m for m in messages(caplog, "agent_sdk.transport") if m.startswith("started")]
    assert "X-Team: ***" in started
    assert "team-token-1234" not in started


async def test_a_timeout_and_the_signals_that_end_the_cli_are_logged(
    fake_options: MakeOptions, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="agent_sdk")
    with pytest.raises(AgentTimeoutError):
        await run_async("hi", options=fake_options("stall", timeout=0.5))
    assert any("ran out of time" in m for m in messages(caplog, "agent_sdk.run"))
    signals = [m for m in messages(caplog, "agent_sdk.transport") if "signal" in m]
    assert signals[0].startswith("sending signal 15 to process group")
    assert signals[-1].startswith("sending signal 9 to process group")


async def test_a_fleet_retry_is_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="agent_sdk")
    retriable = "RetriableError: [unavailable] Error: the service did not answer\n"

    def flaky(task: Task, attempt: int) -> MemoryTransport:
        if attempt == 1:
            return MemoryTransport([Stderr(retriable), Exit(1)])
        result = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
        return MemoryTransport([Output.event(result)])

    policy = RetryPolicy(attempts=2, backoff=0.0, jitter=0.0)
    async with Fleet(["go"], retry=policy, backend=LocalBackend(flaky)) as fleet:
        [outcome async for outcome in fleet]
    (retry,) = messages(caplog, "agent_sdk.fleet")
    assert retry.startswith("task task-1: run 1 failed (AgentRetriableError), retried in 0.0 s")


async def test_the_sdk_logger_has_a_null_handler_and_adds_none_to_the_root(
    fake_options: MakeOptions,
) -> None:
    root_handlers = list(logging.getLogger().handlers)
    await run_async("hi", options=fake_options("hello"))
    assert logging.getLogger().handlers == root_handlers
    handlers = logging.getLogger("agent_sdk").handlers
    assert [type(handler) for handler in handlers] == [logging.NullHandler]


def test_a_program_that_imports_logging_but_sets_nothing_sees_nothing() -> None:
    code = (
        "import logging, sys, agent_sdk\n"
        "options = agent_sdk.AgentOptions(binary=sys.argv[1], timeout=0.5)\n"
        "try:\n"
        "    agent_sdk.run_sync('hi', options=options)\n"
        "except agent_sdk.AgentTimeoutError:\n"
        "    pass\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, fake_agent.executable()],
        capture_output=True,
        text=True,
        check=True,
        env={"FAKE_AGENT_SCENARIO": "stall", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.stderr == ""
    assert done.stdout == ""


async def test_a_live_turn_out_of_its_turn_timeout_is_logged_at_info(
    options: AgentOptions, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="agent_sdk")
    async with LiveAgent(options, turn_timeout=0.5) as agent:
        session = await agent.new_session()
        with pytest.raises(AgentTimeoutError), anyio.fail_after(30):
            await session.send("scenario:slow")
    assert messages(caplog, "agent_sdk.live")[0] == "a turn ran out of turn_timeout: cancelling it"
    assert any(m.startswith("started") for m in messages(caplog, "agent_sdk.transport"))


async def test_a_cli_lingering_after_its_result_is_logged_at_info(
    fake_options: MakeOptions, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="agent_sdk")
    await run_async("hi", options=fake_options("hang_after_result", result_grace=0.2))
    assert any("lingered past its" in m for m in messages(caplog, "agent_sdk.run"))
