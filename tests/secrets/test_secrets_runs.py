"""No secret leaves a print-mode run (``agent_sdk/_options/redaction.py``): errors and
all they carry (every public attribute, and their pickle), the queries' errors, the
``record()`` file; a successful run's stderr."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from secrets_plant import KEY, MASK, MakeOptions, where_shown

from agent_sdk import (
    AgentBudgetError,
    AgentError,
    AgentOptions,
    AgentProcessError,
    AgentResultError,
    AgentTimeoutError,
    Budget,
    create_chat,
    list_models,
    run_async,
    status,
    version,
)
from agent_sdk.events import AssistantEvent
from agent_sdk.testing import record

pytestmark = pytest.mark.anyio

Leaky = Callable[..., Path]


async def failure(options: AgentOptions) -> AgentError:
    with pytest.raises(AgentError) as info:
        await run_async("go", options=options)
    return info.value


# --- errors of a run ----------------------------------------------------------------
async def test_a_result_error_shows_the_key_nowhere(planted: MakeOptions, leaky: Leaky) -> None:
    error = await failure(planted(leaky({"fake": "exit", "code": 0})))
    assert isinstance(error, AgentResultError)
    assert where_shown(error) == []


async def test_the_key_is_masked_on_every_channel_the_cli_printed_it_on(
    planted: MakeOptions, leaky: Leaky
) -> None:
    # The premise of the other tests: each channel held the key, now masked.
    error = await failure(planted(leaky({"fake": "exit", "code": 0})))
    assert isinstance(error, AgentResultError)
    (reply,) = [event for event in error.events if isinstance(event, AssistantEvent)]
    channels = [error.stderr, " ".join(error.stdout_lines), reply.text, error.event.result]
    assert [MASK in text for text in channels] == [True] * 4


async def test_a_result_errors_thinking_blocks_show_the_key_nowhere(
    planted: MakeOptions, tmp_path: Path
) -> None:
    # --show-thinking (docs/protocol.md §2): the reasoning on a failed json result.
    scenario = tmp_path / "thought.ndjson"
    steps = [
        {"type": "thinking", "subtype": "delta", "text": f"The key is {KEY}"},
        {"type": "thinking", "subtype": "completed"},
        {"type": "result", "subtype": "error", "is_error": True, "result": "failed"},
    ]
    scenario.write_text("".join(json.dumps(step) + "\n" for step in steps))
    options = planted(scenario, output_format="json", extra_args=["--show-thinking"])
    error = await failure(options)
    assert isinstance(error, AgentResultError)
    assert error.event is not None
    assert error.event.thinking_blocks is not None
    assert [MASK in block.text for block in error.event.thinking_blocks] == [True]
    assert where_shown(error) == []


async def test_a_process_error_shows_the_key_nowhere(planted: MakeOptions, leaky: Leaky) -> None:
    error = await failure(planted(leaky({"fake": "exit", "code": 1})))
    assert isinstance(error, AgentProcessError)
    assert where_shown(error) == []


async def test_a_budget_error_shows_the_key_nowhere(planted: MakeOptions, leaky: Leaky) -> None:
    # The call that went over the budget holds the key too (its command), and is kept.
    call = {"shellToolCall": {"args": {"command": f"curl -H 'Authorization: {KEY}' x"}}}
    started = {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call}
    options = planted(
        leaky(started, {"fake": "stall"}, is_error=False), budget=Budget(tool_calls=0)
    )
    error = await failure(options)
    assert isinstance(error, AgentBudgetError)
    assert where_shown(error) == []
    assert MASK in error.stderr


async def test_a_timeout_error_shows_the_key_nowhere(planted: MakeOptions, leaky: Leaky) -> None:
    error = await failure(planted(leaky({"fake": "stall"}), timeout=0.5, result_grace=30))
    assert isinstance(error, AgentTimeoutError)
    assert where_shown(error) == []


async def test_a_successful_runs_stderr_shows_the_key_nowhere(
    planted: MakeOptions, leaky: Leaky
) -> None:
    result = await run_async("go", options=planted(leaky(is_error=False)))
    assert KEY not in result.stderr


async def test_a_successful_runs_reply_is_what_the_agent_said(
    planted: MakeOptions, leaky: Leaky
) -> None:
    # The reply is the user's data, left alone (agent_sdk/_options/redaction.py).
    result = await run_async("go", options=planted(leaky(is_error=False)))
    assert KEY in result.result


# --- queries ------------------------------------------------------------------------
QUERIES: dict[str, Callable[[AgentOptions], Awaitable[object]]] = {
    "status": lambda options: status(options=options),
    "list_models": lambda options: list_models(options=options),
    "version": lambda options: version(options=options),
    "create_chat": lambda options: create_chat(options=options),
}


@pytest.mark.parametrize("query", list(QUERIES))
async def test_a_query_error_shows_the_key_nowhere(planted: MakeOptions, query: str) -> None:
    options = planted(env={"FAKE_AGENT_LEAK_CREDENTIALS": "1"})
    with pytest.raises(AgentProcessError) as info:
        await QUERIES[query](options)
    assert where_shown(info.value) == []


# --- record() -----------------------------------------------------------------------
async def test_a_recording_holds_the_key_nowhere(
    planted: MakeOptions, leaky: Leaky, tmp_path: Path
) -> None:
    scenario = leaky({"fake": "exit", "code": 1})
    path = await record("go", tmp_path / "recorded.ndjson", options=planted(scenario))
    assert KEY.encode() not in path.read_bytes()


# --- the premise: where_shown finds the key wherever an error keeps it ---------------------
def test_where_shown_finds_the_key_in_an_attribute_deep_down_and_in_the_pickle() -> None:
    error = AgentProcessError("failed", context=None)
    error.extra = {"nested": [f"x {KEY} y"]}  # type: ignore[attr-defined]
    assert sorted(where_shown(error)) == ["value (pickle)", "value.extra['nested'][0]"]
