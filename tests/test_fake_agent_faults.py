"""The fake's fault modes: stalls, hangs, lingering children, raw and garbage bytes,
kills, stderr floods, slow drips and huge lines (scenarios/README.md, cli-protocol.md §5).

Every test spawns ``python -m fake_agent`` in a new session and, whatever happens, ends
its whole process group: no test waits for a stall or a hang to end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_env import fake_env

from fake_agent import SCENARIOS_DIR
from fake_agent._directives import check_directive
from fake_agent._faults import DEFAULT_STALL_SECONDS, garbage_bytes

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)

ROOT = Path(__file__).resolve().parents[1]
SMALL_HUGE_LINE = 300_000
# How long "nothing happens" is watched for: long enough to notice, short for the suite.
QUIET = 0.4
# A bound on any wait for something that must happen.
DEADLINE = 10.0

INIT = {"type": "system", "subtype": "init", "session_id": "s"}
USER = {"type": "user", "message": {"role": "user", "content": []}, "session_id": "s"}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
LINGER = re.compile(rb"fake_agent: lingering child (\d+)\n")


def _env(scenario: str) -> dict[str, str]:
    return fake_env(FAKE_AGENT_HUGE_LINE_BYTES=str(SMALL_HUGE_LINE), FAKE_AGENT_SCENARIO=scenario)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


@contextlib.contextmanager
def spawn(scenario: str | Path, fmt: str = "stream-json") -> Iterator[subprocess.Popen[bytes]]:
    """The fake playing ``scenario`` (a bundled name or a file), in its own process
    group, which is killed on the way out."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fake_agent", "-p", "--trust", f"--output-format={fmt}", "--", "hi"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(str(scenario)),
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        _kill_group(proc.pid)
        proc.wait(timeout=DEADLINE)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def finish(scenario: str | Path, fmt: str = "stream-json") -> tuple[int, bytes, bytes]:
    """Play a scenario that ends by itself: (exit status, stdout, stderr)."""
    with spawn(scenario, fmt) as proc:
        out, err = proc.communicate(timeout=DEADLINE)
        return proc.returncode, out, err


def read_until(stream: Any, done: Callable[[bytes], bool], timeout: float = DEADLINE) -> bytes:
    """Read a pipe until ``done(everything read)`` or EOF; fail after ``timeout``."""
    fd = stream.fileno()
    data = b""
    deadline = time.monotonic() + timeout
    while not done(data):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; read so far: {data[-300:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            data += chunk
    return data


def read_for(stream: Any, seconds: float) -> bytes | None:
    """What a pipe yields in ``seconds``: the bytes, or None at EOF."""
    fd = stream.fileno()
    data = b""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            data += chunk
    return data


def lines_done(count: int) -> Callable[[bytes], bool]:
    return lambda data: data.count(b"\n") >= count


def json_lines(out: bytes) -> list[Any]:
    """Every complete stdout line that parses as JSON, in order."""
    found = []
    for line in out.split(b"\n")[:-1]:
        with contextlib.suppress(ValueError):
            found.append(json.loads(line))
    return found


def scenario_file(tmp_path: Path, *steps: dict[str, Any]) -> Path:
    path = tmp_path / "s.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps), encoding="utf-8")
    return path


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# --------------------------------------------------------------------------- stall


def test_stall_scenario_writes_its_first_segment_then_nothing_while_alive() -> None:
    with spawn("stall") as proc:
        out = read_until(proc.stdout, lines_done(3))
        assert [e["type"] for e in json_lines(out)] == ["system", "user", "assistant"]
        assert read_for(proc.stdout, QUIET) == b""
        assert proc.poll() is None


def test_stall_goes_on_with_the_scenario_after_its_seconds(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, INIT, {"fake": "stall", "seconds": 0.3}, RESULT)
    started = time.monotonic()
    code, out, _ = finish(path)
    assert time.monotonic() - started >= 0.3
    assert (code, [e["type"] for e in json_lines(out)]) == (0, ["system", "result"])


def test_stall_lasts_an_hour_by_default() -> None:
    steps = (SCENARIOS_DIR / "stall.ndjson").read_text(encoding="utf-8").split("\n")
    assert '{"fake":"stall"}' in steps
    assert DEFAULT_STALL_SECONDS == 3600


# --------------------------------------------------------------------------- hang


def test_hang_after_result_prints_the_result_then_never_exits() -> None:
    with spawn("hang_after_result") as proc:
        out = read_until(
            proc.stdout, lambda data: b'{"type":"result"' in data and data.endswith(b"\n")
        )
        assert json_lines(out)[-1]["result"].startswith("I'll read the cart module first.")
        assert read_for(proc.stdout, QUIET) == b""
        assert proc.poll() is None


def test_hang_lingering_child_is_in_the_fakes_process_group() -> None:
    with spawn("hang_after_result") as proc:
        err = read_until(proc.stderr, lambda data: LINGER.search(data) is not None)
        match = LINGER.search(err)
        assert match is not None
        child = int(match.group(1))
        assert child != proc.pid
        assert os.getpgid(child) == proc.pid


def test_hang_lingering_child_keeps_stdout_open_until_the_group_is_killed() -> None:
    with spawn("hang_after_result") as proc:
        err = read_until(proc.stderr, lambda data: LINGER.search(data) is not None)
        match = LINGER.search(err)
        assert match is not None
        child = int(match.group(1))
        read_until(proc.stdout, lambda data: b'"type":"result"' in data and data.endswith(b"\n"))
        proc.kill()  # the fake alone, as a wrapper that forgets the group would
        proc.wait(timeout=DEADLINE)
        assert read_for(proc.stdout, QUIET) == b""  # no EOF: the child holds stdout
        assert alive(child)
        _kill_group(proc.pid)
        assert read_until(proc.stdout, lambda _: False) == b""  # EOF now


def test_hang_without_linger_child_starts_none(tmp_path: Path) -> None:
    with spawn(scenario_file(tmp_path, INIT, RESULT, {"fake": "hang"})) as proc:
        read_until(proc.stdout, lines_done(2))
        assert read_for(proc.stderr, QUIET) == b""
        assert proc.poll() is None


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


# --------------------------------------------------------------------------- kill


def test_killed_scenario_dies_by_sigkill_after_its_events() -> None:
    code, out, err = finish("killed")
    assert code == -signal.SIGKILL
    assert out.endswith(b"\n")
    assert json_lines(out)[-1]["subtype"] == "started"
    assert err == b""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_kill_uses_the_signals_default_action(tmp_path: Path, name: str) -> None:
    code, out, err = finish(scenario_file(tmp_path, INIT, {"fake": "kill", "signal": name}))
    assert code == -getattr(signal, name)
    assert len(json_lines(out)) == 1
    assert err == b""  # no KeyboardInterrupt traceback


# --------------------------------------------------------------------------- stderr flood


def test_stderr_flood_writes_exactly_n_bytes_of_log_lines(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "stderr_flood", "bytes": 200_001})
    err = finish(path)[2]
    assert len(err) == 200_001
    assert err.endswith(b"\n")
    for line in err.split(b"\n")[1:-2]:
        assert re.fullmatch(rb"2026-10-01T\S+Z \[\w+\] agent-transport: .*", line), line


def test_stderr_flood_scenario_succeeds_with_8_mb_of_stderr() -> None:
    code, out, err = finish("stderr_flood")
    assert (code, len(err)) == (0, 8_000_000)
    assert json_lines(out)[-1]["result"] == "Done. I added the test."


# --------------------------------------------------------------------------- drip


def test_drip_spaces_the_pieces_of_a_raw_line(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path,
        {"fake": "drip", "bytes": 4, "interval": 0.05},
        {"fake": "raw", "text": "x" * 19},
    )
    started = time.monotonic()
    out = finish(path)[1]
    # Five pieces of four bytes, four pauses between them.
    assert time.monotonic() - started >= 0.2
    assert out == b"x" * 19 + b"\n"


def test_drip_applies_to_event_lines(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "drip", "bytes": 40, "interval": 0.02}, INIT, RESULT)
    started = time.monotonic()
    out = finish(path)[1]
    pieces = -(-len(out) // 40)
    assert pieces >= 5
    assert time.monotonic() - started >= (pieces - 1) * 0.02
    assert [e["type"] for e in json_lines(out)] == ["system", "result"]


def test_drip_reader_sees_a_piece_before_the_rest_is_written(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path, {"fake": "drip", "bytes": 3, "interval": 0.5}, {"fake": "raw", "text": "abcdef"}
    )
    with spawn(path) as proc:
        first = read_until(proc.stdout, lambda data: len(data) > 0)
        assert first == b"abc"


def test_slow_drip_scenario_writes_what_hello_writes() -> None:
    def typed(out: bytes) -> list[Any]:
        return [{**e, "session_id": None} for e in json_lines(out)]

    code, out, _ = finish("slow_drip")
    assert code == 0
    assert typed(out) == typed(finish("hello")[1])


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


def test_huge_line_scenario_asks_for_100_mb() -> None:
    text = (SCENARIOS_DIR / "huge_line.ndjson").read_text(encoding="utf-8")
    assert '{"fake":"huge_line","bytes":100000000}' in text.split("\n")


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


# --------------------------------------------------------------------------- checks at load


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ({"fake": "stall", "seconds": -1}, "'seconds' >= 0"),
        ({"fake": "stall", "seconds": "9"}, "needs 'seconds' as int or float"),
        ({"fake": "stall", "second": 9}, "unknown field 'second'"),
        ({"fake": "hang", "linger_child": 1}, "needs 'linger_child' as bool"),
        ({"fake": "raw"}, "exactly one of 'text' and 'base64'"),
        ({"fake": "raw", "text": "a", "base64": "YQ=="}, "exactly one of"),
        ({"fake": "raw", "base64": "not base64!"}, "invalid 'base64'"),
        ({"fake": "raw", "text": "a", "newline": "no"}, "needs 'newline' as bool"),
        ({"fake": "garbage"}, "needs 'bytes' as int"),
        ({"fake": "garbage", "bytes": -2}, "'bytes' >= 0"),
        ({"fake": "garbage", "bytes": 2, "seed": 1.5}, "needs 'seed' as int"),
        ({"fake": "kill", "signal": "SIGNOPE"}, "unknown signal 'SIGNOPE'"),
        ({"fake": "kill", "signal": "SIG_DFL"}, "unknown signal"),
        ({"fake": "kill", "signal": 9}, "needs 'signal' as str"),
        ({"fake": "stderr_flood", "bytes": True}, "needs 'bytes' as int"),
        ({"fake": "drip", "bytes": 0}, "'bytes' >= 1"),
        ({"fake": "drip", "interval": -0.1}, "'interval' >= 0"),
        ({"fake": "huge_line"}, "needs 'bytes' as int"),
    ],
)
def test_bad_fault_directive_is_refused(spec: dict[str, Any], problem: str) -> None:
    assert problem in (check_directive(spec) or "")


@pytest.mark.parametrize(
    "spec",
    [
        {"fake": "stall"},
        {"fake": "stall", "seconds": 0.5},
        {"fake": "hang"},
        {"fake": "hang", "linger_child": True},
        {"fake": "raw", "text": ""},
        {"fake": "raw", "base64": "", "newline": False},
        {"fake": "garbage", "bytes": 0},
        {"fake": "kill"},
        {"fake": "kill", "signal": "SIGTERM"},
        {"fake": "stderr_flood", "bytes": 10},
        {"fake": "drip"},
        {"fake": "drip", "bytes": 2, "interval": 1},
        {"fake": "huge_line", "bytes": 0},
    ],
)
def test_good_fault_directive_passes(spec: dict[str, Any]) -> None:
    assert check_directive(spec) is None


@pytest.mark.parametrize("last", ["hang", "kill"])
def test_nothing_may_follow_a_hang_or_kill(tmp_path: Path, last: str) -> None:
    code, out, err = finish(scenario_file(tmp_path, {"fake": last}, INIT))
    assert (code, out) == (2, b"")
    assert f"nothing may follow the '{last}' directive".encode() in err


def test_bad_fault_directive_stops_the_run_before_any_output(tmp_path: Path) -> None:
    code, out, err = finish(scenario_file(tmp_path, INIT, {"fake": "drip", "bytes": 0}))
    assert (code, out) == (2, b"")
    assert b"s.ndjson:2: directive 'drip' needs 'bytes' >= 1" in err
