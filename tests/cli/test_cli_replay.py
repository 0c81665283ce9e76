"""``agent-sdk replay``: a recorded run rendered through the protocol's Stream."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import ESC, RECORDED, SESSION, cli, cli_env
from hostile.corpus import BOM, HUGE_DIGITS, deep_array
from terminal import PtyRun

from agent_sdk.cli.live import FAKE_NOTE, JsonSink, reader_gone
from agent_sdk.cli.render import Renderer
from agent_sdk.cli.replay import replay, replay_main

INIT = '{"type":"system","subtype":"init","model":"Fake","cwd":"/repo","session_id":"s"}'
READ = (
    '{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"s",'
    '"tool_call":{"readToolCall":{"args":{"path":"a.py"}}}}'
)
RESULT = '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}'


def _lines(*lines: str) -> list[bytes]:
    return [line.encode() + b"\n" for line in lines]


def _replayed(lines: list[bytes], **kwargs: bool) -> tuple[bool, str, str]:
    out, err = io.StringIO(), io.StringIO()
    ok = replay(lines, Renderer(out, err, **kwargs), err)
    return ok, out.getvalue(), err.getvalue()


# --- in process ------------------------------------------------------------------------
def test_a_line_that_is_not_json_is_rendered_in_its_place_between_two_events() -> None:
    ok, _, err = _replayed(_lines(INIT, "Loading...", READ, RESULT))
    assert ok
    assert err == "● Fake in /repo\nLoading...\n  ▸ read a.py\n"


def test_a_line_that_is_not_json_goes_to_stderr_in_place_with_json_output() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert replay(_lines(INIT, "Loading...", RESULT), JsonSink(out), err)
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == [
        "system",
        "result",
    ]
    assert err.getvalue() == "Loading...\n"


def test_a_last_line_without_a_newline_is_replayed() -> None:
    ok, out, _ = _replayed([*_lines(INIT), RESULT.encode()])
    assert ok
    assert out == "ok"


def test_an_error_result_or_none_is_not_a_success() -> None:
    error = RESULT.replace('"is_error":false', '"is_error":true')
    assert _replayed(_lines(INIT, error))[0] is False
    assert _replayed(_lines(INIT))[0] is False


def test_text_lines_written_by_json_output_replay_as_text() -> None:
    ok, out, _ = _replayed(_lines('{"type":"text","text":"line one"}', '{"type":"text"}'))
    assert not ok  # a text run has no result event
    assert out == "line one\n\n"


def test_replay_main_reads_a_text_stdin_without_a_buffer() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = replay_main(["-"], out, err, io.StringIO(f"{INIT}\n{RESULT}\n"))
    assert status == 0
    assert out.getvalue() == "ok\n"
    assert "✓ success" in err.getvalue()


READ_DONE = (
    '{"type":"tool_call","subtype":"completed","call_id":"c1","session_id":"s",'
    '"tool_call":{"readToolCall":{"args":{"path":"a.py"},'
    '"result":{"success":{"content":"x","totalLines":1}}}}}'
)


def _replay_main(*lines: str) -> str:
    """What ``agent-sdk replay -`` writes on stderr for ``lines``."""
    out, err = io.StringIO(), io.StringIO()
    replay_main(["-"], out, err, io.StringIO("".join(line + "\n" for line in lines)))
    return err.getvalue()


def test_replay_shows_one_line_per_tool_call_as_the_live_view_does() -> None:
    # Issue 35: a replay showed each call's start and end, the live view its end only.
    err = _replay_main(INIT, READ, READ_DONE, RESULT)
    assert err.splitlines()[:2] == ["● Fake in /repo", "  ✓ read a.py  1 line"]
    assert "▸" not in err


def test_a_replayed_call_that_never_ended_gets_its_start_line_at_the_end() -> None:
    err = _replay_main(INIT, READ, RESULT)
    lines = err.splitlines()
    assert lines[:2] == ["● Fake in /repo", "  ▸ read a.py"]  # then the summary
    assert lines[2].startswith("✓ success")
    assert err.count("read a.py") == 1


def _with_field(line: str, name: str, value: bytes) -> bytes:
    return line.encode()[:-1] + f',"{name}":'.encode() + value + b"}\n"


SAY = '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]},"session_id":"s"}'
HOSTILE = [
    BOM + INIT.encode() + b"\n",  # a byte order mark
    b'{"type":{"a":1},"session_id":"s"}\n',  # a type that is not a string
    _with_field(SAY, "x_deep", deep_array()),  # nested deeper than msgspec decodes
    _with_field(SAY, "timestamp_ms", b"1e999"),  # a number out of range
    b"\xff\xfe garbage\n",  # not JSON, not UTF-8
    *_lines(SAY, RESULT),
]


def test_a_hostile_recording_replays_every_good_line_and_reports_the_bad_ones() -> None:
    ok, out, err = _replayed(HOSTILE)
    assert ok
    assert out == "hi"  # the reply: the one good assistant event
    assert err.splitlines() == [
        "● Fake in /repo",
        "  · event",
        "    not decoded: Expected `str` - at `$.type`",
        "  · assistant",
        "    not decoded: JSON nested deeper than agent_sdk decodes",
        "  · assistant",
        "    not decoded: Number out of range - at `$.timestamp_ms`"
        " (raw keeps numbers out of range as Decimal)",
        "\ufffd\ufffd garbage",
    ]


def test_a_hostile_recording_replays_as_json_with_each_bad_line_an_unknown_event() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert replay(HOSTILE, JsonSink(out), err)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(e["type"], e.get("error") is not None) for e in events] == [
        ("system", False),
        ("", True),
        ("assistant", True),
        ("assistant", True),
        ("assistant", False),
        ("result", False),
    ]
    assert err.getvalue() == "\ufffd\ufffd garbage\n"


def test_a_tool_call_whose_args_do_not_fit_their_type_is_still_shown() -> None:
    # The renderer opens the payload; an out-of-range number leaves its args a dict.
    odd = READ.replace('"path":"a.py"', '"path":"a.py","offset":' + HUGE_DIGITS)
    ok, _, err = _replayed(_lines(INIT, odd, READ, RESULT))
    assert ok
    assert err.splitlines()[:3] == ["● Fake in /repo", "  ▸ read a.py", "  ▸ read a.py"]


# --- end to end ------------------------------------------------------------------------
def _tools_as_recorded(tmp_path: Path) -> Path:
    """The ``tools`` scenario, with the durations of its recording pinned: the bundled one
    reports the time that passed (fake_agent/scenarios/README.md, "Durations")."""
    import fake_agent

    text = fake_agent.scenario_path("tools").read_text(encoding="utf-8")
    result = '{"type":"result","subtype":"success",'
    assert text.count(result) == 1
    pinned = tmp_path / "tools.ndjson"
    timed = result + '"duration_ms":9421,"duration_api_ms":9421,'
    pinned.write_text(text.replace(result, timed), encoding="utf-8")
    return pinned


def test_replay_renders_the_same_text_as_a_live_run(tmp_path: Path) -> None:
    tools = str(_tools_as_recorded(tmp_path))
    live = cli("--fake", tools, "--cwd", "/", "--resume", SESSION, "add a test")
    replayed = cli("replay", str(RECORDED))
    assert replayed.returncode == live.returncode == 0
    assert replayed.stdout == live.stdout
    # But for the duration: a live run shows its wall time (the CLI's figure beside it),
    # a replay has only the CLI's figure.
    wall_time = re.compile(r" in \d+\.\d s \(the CLI reports (\d+\.\d s)\)")
    # And a live run of the fake says so at its end; a replay plays no agent.
    played = live.stderr.removesuffix(FAKE_NOTE + "\n")
    assert played != live.stderr
    # A live run into a pipe logs each call's start too; a replay draws one line per call,
    # as the live view on a terminal does (every call of this recording ends).
    logged = "".join(line for line in played.splitlines(True) if not line.startswith("  ▸ "))
    assert logged != played
    assert replayed.stderr == wall_time.sub(r" in \1", logged)


def test_replay_reads_stdin_for_dash() -> None:
    from_file = cli("replay", str(RECORDED))
    from_stdin = cli("replay", "-", input=RECORDED.read_text(encoding="utf-8"))
    assert from_stdin.returncode == 0
    assert (from_stdin.stdout, from_stdin.stderr) == (from_file.stdout, from_file.stderr)


def test_replay_of_json_output_renders_like_the_stream_it_came_from() -> None:
    as_json = cli("replay", "--json", str(RECORDED))
    assert as_json.returncode == 0
    again = cli("replay", "-", input=as_json.stdout)
    direct = cli("replay", str(RECORDED))
    assert (again.stdout, again.stderr) == (direct.stdout, direct.stderr)


def test_replay_of_a_partial_stream_shows_each_delta_once() -> None:
    live_json = cli("--fake", "hello", "--json", "hi")  # partial output by default
    replayed = cli("replay", "-", input=live_json.stdout)
    assert replayed.stdout == "Done. I added the test.\n"


def test_replay_of_the_json_output_of_a_text_run_prints_its_lines() -> None:
    live = cli("--fake", "hello", "--output-format", "text", "hi")
    live_json = cli("--fake", "hello", "--output-format", "text", "--json", "hi")
    assert '"type":"text"' in live_json.stdout
    replayed = cli("replay", "-", input=live_json.stdout)
    assert replayed.stdout == live.stdout == "Done. I added the test.\n"


def test_replay_shows_lines_that_are_not_json_dimmed_and_exits_1_without_result() -> None:
    event = '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}'
    stream = f"Loading...\n{event}\n"
    done = cli("replay", "--color=always", "-", input=stream)
    assert done.returncode == 1
    assert done.stdout == "hi\n"
    assert f"{ESC}2mLoading...{ESC}0m" in done.stderr
    assert "✗ no result" in done.stderr


def test_replay_of_a_missing_file_exits_2() -> None:
    done = cli("replay", "/nonexistent.ndjson")
    assert done.returncode == 2
    assert "agent-sdk: error: cannot read /nonexistent.ndjson" in done.stderr


def test_replay_shows_no_key_of_its_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-replayed-0123456789"
    monkeypatch.setenv("CURSOR_API_KEY", key)
    said = RESULT.replace('"result":"ok"', f'"result":"key {key}"')
    lines = _lines(INIT, f"using {key}", READ.replace("a.py", key), said)
    for sink_out, sink in ((io.StringIO(), None), (io.StringIO(), "json")):
        err = io.StringIO()
        shown = JsonSink(sink_out) if sink else Renderer(sink_out, err)
        assert replay(lines, shown, err)
        everything = sink_out.getvalue() + err.getvalue()
        assert key not in everything
        assert "***" in everything


# --- a reader that goes away (`agent-sdk replay FILE | head -1`) ------------------------
REPLY = (
    '{"type":"assistant","message":{"role":"assistant","content":'
    '[{"type":"text","text":"first line\\n"}]},"session_id":"s"}'
)


def _read_call(number: int) -> bytes:
    started = READ.replace('"c1"', f'"c{number}"')
    completed = started.replace('"started"', '"completed"').replace(
        '"args":{"path":"a.py"}}', '"args":{"path":"a.py"},"result":{"success":{}}}'
    )
    return (started + "\n" + completed + "\n").encode()


def test_replay_stops_at_the_first_event_after_its_reader_went_away(tmp_path: Path) -> None:
    # The reply goes to the pipe, the tool calls to stderr: once the reader of the pipe
    # is gone, the replay must stop, though no write to the pipe would fail (none comes).
    calls = 2000
    with open(tmp_path / "stderr", "w+", encoding="utf-8") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", "agent_sdk", "replay", "-", "--color", "never"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=cli_env(),
        )
        assert child.stdin is not None
        assert child.stdout is not None
        try:
            child.stdin.write(f"{INIT}\n{REPLY}\n".encode())
            child.stdin.flush()
            assert child.stdout.readline() == b"first line\n"
            child.stdout.close()  # as `head -1` does
            try:
                for number in range(calls):
                    child.stdin.write(_read_call(number))
                    child.stdin.flush()
            except BrokenPipeError:
                pass  # it stopped reading: it has exited
            # stdin is left open: a replay that went on would wait here for more lines.
            status = child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            with contextlib.suppress(BrokenPipeError):
                child.stdin.close()  # what was left in its buffer had no reader
        stderr.seek(0)
        err = stderr.read()
    assert status == 141, err  # 128 + SIGPIPE, as a shell reports a closed pipe
    assert "Traceback" not in err
    assert "Exception ignored" not in err
    # It may stop as soon as the reply's event (the reader can be gone by then); never
    # after the end, which the open stdin would have made it wait for.
    assert err.count("▸ read a.py") < calls


def test_reader_gone_is_none_for_what_is_no_pipe(tmp_path: Path) -> None:
    assert reader_gone(io.StringIO()) is None
    with open(tmp_path / "file", "w") as file:
        assert reader_gone(file) is None


def test_reader_gone_says_when_the_read_end_of_a_pipe_is_closed() -> None:
    read, write = os.pipe()
    with open(write, "w") as stream:
        gone = reader_gone(stream)
        if gone is None:
            pytest.skip("select.poll() is missing on this platform")
        assert gone() is False
        os.close(read)
        assert gone() is True


def test_replay_on_a_terminal_shows_what_the_live_view_left_on_it(tmp_path: Path) -> None:
    tools = str(_tools_as_recorded(tmp_path))
    args = ["--cwd", "/", "--resume", SESSION, "add a test"]
    with PtyRun(["--fake", tools, *args], columns=100) as live:
        assert live.wait() == 0
    with PtyRun(["replay", str(RECORDED)], columns=100) as replayed:
        assert replayed.wait() == 0
    # But for the summary's first line (a live run's wall time) and the fake's note.
    shown = live.lines()
    end = next(i for i, line in enumerate(shown) if line.startswith("✓ success"))
    again = replayed.lines()
    assert again[:end] == shown[:end]
    assert again[end + 1 :] == shown[end + 1 : len(again)]
