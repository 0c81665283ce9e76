"""The hidden ``--show-thinking`` (docs/protocol.md §2): a json-format result's
``thinking_blocks``, typed on the ``ResultEvent`` and on ``RunResult``; ``None`` without
the flag. Played through the fake, which adds them from its scenario's thinking."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agent_sdk import AgentOptions, ResultEvent, ThinkingBlock, run, run_async, run_sync
from agent_sdk._wire.decode import LineDecoder

pytestmark = pytest.mark.anyio

THOUGHT = (
    "**Planning the change**\n\nThe cart module sums price times quantity; a test should "
    "cover the empty cart and rounding."
)


def test_a_json_result_with_thinking_blocks_decodes_them_typed() -> None:
    line = (
        b'{"type":"result","subtype":"success","is_error":false,"result":"ok",'
        b'"thinking_blocks":[{"text":"First."},{"text":"Then."}],"session_id":"s1"}'
    )
    event = LineDecoder(partial=False).decode(line)
    assert isinstance(event, ResultEvent)
    assert event.thinking_blocks == [ThinkingBlock(text="First."), ThinkingBlock(text="Then.")]


def test_a_result_without_thinking_blocks_has_none() -> None:
    event = LineDecoder(partial=False).decode(b'{"type":"result","result":"ok"}')
    assert isinstance(event, ResultEvent)
    assert event.thinking_blocks is None


async def test_a_json_run_with_show_thinking_has_the_thinking_on_its_result(
    fake_options: Callable[..., AgentOptions],
) -> None:
    options = fake_options(
        "thinking", output_format="json", extra_args=["--show-thinking"], trust=True
    )
    result = await run_async("plan it", options=options)
    assert result.thinking_blocks == [ThinkingBlock(text=THOUGHT)]
    assert isinstance(result.events[-1], ResultEvent)
    assert result.events[-1].thinking_blocks == result.thinking_blocks


async def test_a_streamed_json_run_with_show_thinking_yields_them_on_the_result_event(
    fake_options: Callable[..., AgentOptions],
) -> None:
    options = fake_options(
        "thinking", output_format="json", extra_args=["--show-thinking"], trust=True
    )
    async with run("plan it", options=options) as stream:
        events = [event async for event in stream]
    assert isinstance(events[-1], ResultEvent)
    assert events[-1].thinking_blocks == [ThinkingBlock(text=THOUGHT)]


def test_a_json_run_without_show_thinking_has_no_thinking_blocks(
    fake_options: Callable[..., AgentOptions],
) -> None:
    result = run_sync("plan it", options=fake_options("thinking", output_format="json", trust=True))
    assert result.thinking_blocks is None


def test_a_stream_json_run_has_no_thinking_blocks_even_with_the_flag(
    fake_options: Callable[..., AgentOptions],
) -> None:
    options = fake_options("thinking", extra_args=["--show-thinking"], trust=True)
    assert run_sync("plan it", options=options).thinking_blocks is None
