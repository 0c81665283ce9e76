"""run(): the process contract (argv, stdin, environment, stderr, teardown) against the fake."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from proctable import group_is_gone
from replies import reply_of

from agent_sdk import (
    AgentError,
    AgentNotFoundError,
    AgentOptions,
    AgentProcessError,
    AgentUsageError,
    Event,
    Run,
    SystemInit,
    UserEvent,
    run,
    run_async,
)
from agent_sdk._options.invocation import MAX_PROMPT_ARG_BYTES

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


def write_scenario(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return path


HELLO = [
    {"type": "system", "subtype": "init", "session_id": "s", "model": "Auto"},
    {"type": "result", "subtype": "success", "is_error": False, "result": "ok", "session_id": "s"},
]


async def test_prompt_reaches_the_cli_as_given(fake_options: MakeOptions) -> None:
    prompt = "--force is not a flag here; it is the prompt"
    events = [e async for e in run(prompt, options=fake_options())]
    (user,) = [e for e in events if isinstance(e, UserEvent)]
    assert user.text == prompt


async def test_prompt_too_large_for_argv_goes_through_stdin(fake_options: MakeOptions) -> None:
    prompt = "é" * MAX_PROMPT_ARG_BYTES  # twice the limit in UTF-8 bytes
    events = [e async for e in run(prompt, options=fake_options())]
    (user,) = [e for e in events if isinstance(e, UserEvent)]
    assert user.text == prompt


async def test_api_key_reaches_the_cli_through_the_environment(fake_options: MakeOptions) -> None:
    events = [e async for e in run("hi", options=fake_options(api_key="sk-test-123"))]
    (init,) = [e for e in events if isinstance(e, SystemInit)]
    assert init.api_key_source == "env"


async def test_resume_keeps_the_session_id(fake_options: MakeOptions) -> None:
    first = await run_async("hi", options=fake_options())
    assert first.session_id is not None
    second = await run_async("again", options=fake_options(resume=first.session_id))
    assert second.session_id == first.session_id
    assert {e.session_id for e in second.events} - {None} == {first.session_id}


async def test_unknown_model_raises_with_the_cli_message(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentProcessError, match="Cannot use this model: nope") as info:
        await run_async("hi", options=fake_options(model="nope"))
    assert info.value.exit_code == 1


async def test_untrusted_workspace_raises_with_the_trust_message(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentProcessError, match="Workspace Trust Required"):
        await run_async("hi", options=fake_options(trust=False))


async def test_force_alone_is_enough_trust(fake_options: MakeOptions) -> None:
    result = await run_async("hi", options=fake_options(trust=False, force=True))
    (init,) = [e for e in result.events if isinstance(e, SystemInit)]
    assert init.permission_mode == "default"  # never read --force from it (§3.1)


async def test_missing_binary_raises_not_found_with_install_hint(tmp_path: Path) -> None:
    options = AgentOptions(binary=str(tmp_path / "no-such-agent"))
    with pytest.raises(AgentNotFoundError, match="Install the Cursor CLI"):
        await run_async("hi", options=options)


async def test_missing_cwd_is_not_reported_as_missing_binary(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    with pytest.raises(AgentError, match="working directory") as info:
        await run_async("hi", options=fake_options(cwd=tmp_path / "gone"))
    assert not isinstance(info.value, AgentNotFoundError)


async def test_stderr_flood_does_not_deadlock_and_keeps_a_bounded_tail(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    flood = "x" * 1_000_000
    scenario = write_scenario(
        tmp_path / "flood.ndjson",
        [HELLO[0], {"fake": "stderr", "text": flood + "THE END"}, HELLO[1]],
    )
    result = await run_async("hi", options=fake_options(scenario))
    assert result.result == "ok"
    assert result.stderr.rstrip().endswith("THE END")
    assert len(result.stderr) < 200_000


async def test_api_key_echoed_by_the_cli_is_redacted_from_errors(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    scenario = write_scenario(
        tmp_path / "echo.ndjson",
        [{"fake": "stderr", "text": "bad key sk-secret-9"}, {"fake": "exit", "code": 1}],
    )
    with pytest.raises(AgentProcessError) as info:
        await run_async("hi", options=fake_options(scenario, api_key="sk-secret-9"))
    assert "sk-secret-9" not in str(info.value)
    assert "sk-secret-9" not in info.value.stderr
    assert "bad key ***" in str(info.value)


async def test_leaving_async_with_early_ends_the_process_group(fake_options: MakeOptions) -> None:
    async with run("hi", options=fake_options("tools")) as events:
        async for _ in events:
            break
    assert group_is_gone(events.pid)


async def test_aclose_after_break_ends_the_process_group(fake_options: MakeOptions) -> None:
    events = run("hi", options=fake_options("tools"))
    async for _ in events:
        break
    await events.aclose()
    assert group_is_gone(events.pid)
    assert [e async for e in events] == []


async def test_finished_run_leaves_no_process(fake_options: MakeOptions) -> None:
    async with run("hi", options=fake_options()) as events:
        async for _ in events:
            pass
    assert group_is_gone(events.pid)


async def test_result_is_unavailable_until_the_run_has_finished(fake_options: MakeOptions) -> None:
    async with run("hi", options=fake_options()) as events:
        with pytest.raises(AgentUsageError, match="not finished"):
            _ = events.result


async def test_nothing_starts_until_the_run_is_iterated(fake_options: MakeOptions) -> None:
    events = run("hi", options=fake_options())
    assert isinstance(events, Run)
    assert events.pid is None
    await events.aclose()


async def test_tool_call_of_a_completed_event_is_paired_while_streaming(
    fake_options: MakeOptions,
) -> None:
    from agent_sdk import ToolCallCompleted

    async with run("hi", options=fake_options("tools")) as events:
        async for event in events:
            if isinstance(event, ToolCallCompleted):
                call = events.tool_call(event)
                assert call.completed is event
                assert call.started is not None
                assert call.started.call_id == event.call_id


async def test_batches_of_a_run_hold_its_events_in_order_then_its_result(
    fake_options: MakeOptions,
) -> None:
    def shape(events: list[Event]) -> list[tuple[str, object, object]]:
        # Each run of the fake has its own session id: the events are compared without it.
        return [
            (type(e).__name__, getattr(e, "call_id", None), getattr(e, "new_text", None))
            for e in events
        ]

    plain = [event async for event in run("hi", options=fake_options("cart"))]
    async with run("hi", options=fake_options("cart")) as events:
        batches = [batch async for batch in events.batches()]
    assert all(batches)
    assert shape([event for batch in batches for event in batch]) == shape(plain)
    assert events.result.text == reply_of(plain)


def test_killed_cli_names_the_signal(fake_options: MakeOptions, tmp_path: Path) -> None:
    # A stand-in binary that kills itself: the SDK must say which signal ended it.
    script = tmp_path / "suicidal-agent"
    script.write_text(f"#!/bin/sh\nkill -{int(signal.SIGKILL)} $$\n")
    script.chmod(0o755)
    from agent_sdk import run_sync

    with pytest.raises(AgentProcessError, match="killed by signal SIGKILL") as info:
        run_sync("hi", options=AgentOptions(binary=str(script)))
    assert info.value.exit_code == -signal.SIGKILL
