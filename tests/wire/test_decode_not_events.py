"""LineDecoder (docs/protocol.md §3): a line that is not an event (a banner, JSON that
is not an object, truncated JSON) decodes to None."""

from __future__ import annotations

import pytest
from decoded_lines import decode

from agent_sdk.events import (
    ResultEvent,
)


@pytest.mark.parametrize(
    "line",
    [
        b"Cursor Agent 2026.10.01 (headless)",
        b"T: 1785515150000 waiting for model response",
        b"\xe2\x9a\xa0 Warning: The provided API key is invalid.",
        b"\xff\xfe garbage",
    ],
)
def test_a_non_json_line_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


@pytest.mark.parametrize("line", [b"42", b'"x"', b"[1]", b"null", b"true", b'[{"type":"result"}]'])
def test_valid_json_that_is_not_an_object_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"result","subtype":"success","result":"Done',
        b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":',
        b'{"type":"result","result":"cut \\ud83d',
    ],
)
def test_truncated_json_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


def test_a_trailing_carriage_return_is_json_whitespace() -> None:
    event = decode(b'{"type":"result","result":"ok"}\r')
    assert isinstance(event, ResultEvent)
    assert event.result == "ok"
