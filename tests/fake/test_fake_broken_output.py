"""The fake's broken output, which a reader must survive (fake_agent/scenarios/README.md,
docs/protocol.md §5): raw bytes written exactly, seeded garbage among whole event lines, a
huge line, a crash that cuts a JSON line (with a Node stack trace), a truncated last line,
and a usage limit on stderr only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fault_play import INIT, SMALL_HUGE_LINE, finish, json_lines, scenario_file

from fake_agent._faults import garbage_bytes

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)


# --------------------------------------------------------------------------- raw


@pytest.mark.parametrize(
    ("step", "written"),
    [
        ({"fake": "raw", "text": '{"type":"assi', "newline": False}, b'{"type":"assi'),
        ({"fake": "raw", "text": "42"}, b"42\n"),
        ({"fake": "raw", "text": "é", "newline": True}, "é\n".encode()),
        ({"fake": "raw", "base64": "/w0KAP4="}, b"\xff\r\n\x00\xfe"),
        ({"fake": "raw", "base64": "/w==", "newline": True}, b"\xff\n"),
    ],
    ids=["text-no-newline", "text", "text-newline", "base64", "base64-newline"],
)
def test_raw_writes_exactly(tmp_path: Path, step: dict[str, Any], written: bytes) -> None:
    assert finish(scenario_file(tmp_path, step))[1] == written


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_raw_is_written_in_every_output_format(tmp_path: Path, fmt: str) -> None:
    path = scenario_file(tmp_path, {"fake": "raw", "text": "cut", "newline": False}, INIT)
    assert finish(path, fmt)[1] == b"cut"


# --------------------------------------------------------------------------- garbage


def test_garbage_writes_n_bytes_then_a_newline(tmp_path: Path) -> None:
    out = finish(scenario_file(tmp_path, {"fake": "garbage", "bytes": 1000, "seed": 3}))[1]
    assert out == garbage_bytes(1000, 3) + b"\n"


def test_garbage_holds_newlines_and_invalid_utf8() -> None:
    data = garbage_bytes(64, 1)
    assert b"\n" in data
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


def test_garbage_depends_on_the_seed_only() -> None:
    assert garbage_bytes(256, 5) == garbage_bytes(256, 5)
    assert garbage_bytes(256, 5) != garbage_bytes(256, 6)


def test_garbage_scenario_keeps_its_event_lines_whole() -> None:
    code, out, _ = finish("garbage")
    objects = [obj for obj in json_lines(out) if isinstance(obj, dict)]
    assert (code, [obj["type"] for obj in objects]) == (
        0,
        ["system", "user", "assistant", "result"],
    )


def test_garbage_scenario_has_non_object_and_undecodable_lines() -> None:
    lines = finish("garbage")[1].split(b"\n")
    assert b"42" in lines
    assert b'["not","an","object"]' in lines
    undecodable = 0
    for line in lines:
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            undecodable += 1
    assert undecodable >= 2  # in the garbage and the base64 line


# --------------------------------------------------------------------------- huge line


def test_huge_line_is_an_assistant_and_a_result_with_the_same_text_of_n_bytes() -> None:
    code, out, _ = finish("huge_line")
    events = json_lines(out)
    assert [e["type"] for e in events] == ["system", "user", "assistant", "result"]
    text = events[2]["message"]["content"][0]["text"]
    assert len(text.encode("utf-8")) == SMALL_HUGE_LINE
    assert text.endswith("déjà vu, Noël\n")
    assert (code, events[3]["result"], events[3]["is_error"]) == (0, text, False)


def test_huge_line_text_format_prints_the_text() -> None:
    out = finish("huge_line", "text")[1]
    assert len(out) == SMALL_HUGE_LINE + 1


# --------------------------------------------------------------------------- broken endings


def test_crash_mid_stream_ends_stdout_in_a_cut_json_line() -> None:
    code, out, _ = finish("crash_mid_stream")
    whole, _, cut = out.rpartition(b"\n")
    assert code == 1
    assert cut.startswith(b'{"type":"assistant"')
    with pytest.raises(json.JSONDecodeError, match="Unterminated string"):
        json.loads(cut)
    assert json_lines(whole + b"\n")[-1]["subtype"] == "completed"


def test_crash_mid_stream_prints_a_node_stack_trace() -> None:
    err = finish("crash_mid_stream")[2].decode("utf-8")
    assert "TypeError: Cannot read properties of null" in err
    assert "    at " in err


def test_truncated_last_line_exits_zero_with_its_result_cut() -> None:
    code, out, _ = finish("truncated_last_line")
    _, _, cut = out.rpartition(b"\n")
    assert code == 0
    assert cut.startswith(b'{"type":"result"')
    assert all(e["type"] != "result" for e in json_lines(out))


def test_usage_limit_is_on_stderr_and_not_stdout() -> None:
    code, out, err = finish("usage_limit")
    assert code == 1
    assert err.startswith(b"Error: You've hit your usage limit")
    assert [e["type"] for e in json_lines(out)] == ["system", "user"]
