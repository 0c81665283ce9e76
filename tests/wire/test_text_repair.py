"""Lines the CLI cuts badly still decode: lone surrogate escapes and invalid UTF-8 become
U+FFFD, and nothing valid is changed (LineDecoder, ``repair_line``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sdk._wire.decode import LineDecoder, repair_line
from agent_sdk.events import ResultEvent, ToolCallCompleted, ToolCallStarted
from agent_sdk.tools import ReadSuccess

EXAMPLES = Path(__file__).parents[1] / "data" / "cli_protocol_examples.ndjson"


def result_text(line: bytes) -> str:
    event = LineDecoder(partial=False).decode(line)
    assert isinstance(event, ResultEvent)
    return event.result


def test_a_lone_high_surrogate_decodes_as_replacement_character() -> None:
    assert result_text(b'{"type":"result","result":"party \\ud83d"}') == "party \ufffd"


def test_a_lone_low_surrogate_decodes_as_replacement_character() -> None:
    assert result_text(b'{"type":"result","result":"a\\ude00b"}') == "a\ufffdb"


def test_a_valid_surrogate_pair_is_kept_as_the_emoji() -> None:
    assert result_text(b'{"type":"result","result":"party \\ud83c\\udf89"}') == "party 🎉"


def test_a_lone_surrogate_before_a_valid_pair_only_replaces_the_lone_one() -> None:
    assert result_text(b'{"type":"result","result":"\\ud83d\\ud83d\\ude00"}') == "\ufffd😀"


def test_an_escaped_backslash_before_u_d83d_is_literal_text() -> None:
    # JSON `\\ud83d` is a backslash followed by the six characters `ud83d`, not an escape.
    assert result_text(b'{"type":"result","result":"C:\\\\ud83d"}') == "C:\\ud83d"


def test_a_lone_surrogate_after_an_escaped_backslash_is_still_replaced() -> None:
    # JSON `\\\ud83d`: a literal backslash, then a lone surrogate escape.
    assert result_text(b'{"type":"result","result":"\\\\\\ud83d"}') == "\\\ufffd"


def test_invalid_utf8_inside_a_string_decodes_with_replacement_characters() -> None:
    assert result_text(b'{"type":"result","result":"caf\xc3 ok \xff"}') == "caf\ufffd ok \ufffd"


def test_a_lone_surrogate_in_a_tool_result_is_repaired() -> None:
    line = (
        b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":'
        b'{"args":{"path":"notes.md"},"result":{"success":{"content":"party time \\ud83d"}}}}}'
    )
    event = LineDecoder(partial=False).decode(line)
    assert isinstance(event, ToolCallCompleted)
    assert isinstance(event.result, ReadSuccess)
    assert event.result.content == "party time \ufffd"


def test_a_call_id_with_an_escaped_newline_is_preserved_exactly() -> None:
    event = LineDecoder(partial=False).decode(EXAMPLES.read_bytes().splitlines()[4])
    assert isinstance(event, ToolCallStarted)
    assert event.call_id == "call_7Qx2\nfc_01ab"


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"result","result":"party \\ud83c\\udf89 caf\xc3\xa9"}',
        b'{"type":"result","result":"C:\\\\ud83d"}',
        b"plain ascii",
    ],
)
def test_repair_leaves_a_valid_line_unchanged(line: bytes) -> None:
    assert repair_line(line) == line
