"""The fake's fault modes: stalls, hangs, lingering children, raw and garbage bytes,
kills, stderr floods, slow drips, huge lines, an ignored SIGTERM and an exit that leaves a
child holding stdout (scenarios/README.md, docs/protocol.md §5).

Every test that spawns ``python -m fake_agent`` does so in a new session and, whatever
happens, ends its whole process group: no test waits for a stall or a hang to end. The
few in-process tests look at what a directive asks of ``time.sleep`` and stdout instead
of timing a run.
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
from fake_env import ROOT, fake_env

from fake_agent import _faults, _wire
from fake_agent._directives import check_directive
from fake_agent._faults import DEFAULT_STALL_SECONDS, garbage_bytes

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)

SMALL_HUGE_LINE = 300_000
# How long "nothing happens" is watched for: long enough to notice, short for the suite.
QUIET = 0.4
# A bound on any wait for something that must happen.
DEADLINE = 10.0

INIT = {"type": "system", "subtype": "init", "session_id": "s"}
USER = {"type": "user", "message": {"role": "user", "content": []}, "session_id": "s"}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
LINGER = re.compile(rb"fake_agent: lingering child (\d+)\n")
LEFT = re.compile(rb"fake_agent: left child (\d+)\n")


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


def available(stream: Any) -> bytes | None:
    """What a pipe holds right now, without waiting: the bytes, or None at EOF."""
    fd = stream.fileno()
    data = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return None
        data += chunk
    return data


def child_pid(stream: Any, pattern: re.Pattern[bytes]) -> int:
    """The pid a ``fake_agent: ... child <pid>`` stderr line names."""
    match = pattern.search(read_until(stream, lambda data: pattern.search(data) is not None))
    assert match is not None
    return int(match.group(1))


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
    code, out, _ = finish(path)
    assert (code, [e["type"] for e in json_lines(out)]) == (0, ["system", "result"])


class _Recorder:
    """Stands in for ``time.sleep`` and stdout in the in-process tests: records calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def sleep(self, seconds: float) -> None:
        self.calls.append(("sleep", seconds))

    def write(self, data: bytes) -> int:
        self.calls.append(("write", data))
        return len(data)

    def flush(self) -> None:
        self.calls.append(("flush", None))

    @property
    def buffer(self) -> _Recorder:
        return self


@pytest.mark.parametrize(
    ("spec", "seconds"),
    [({"fake": "stall"}, DEFAULT_STALL_SECONDS), ({"fake": "stall", "seconds": 2}, 2.0)],
    ids=["default", "given"],
)
def test_stall_sleeps_its_seconds_an_hour_by_default(
    monkeypatch: pytest.MonkeyPatch, spec: dict[str, Any], seconds: float
) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(_faults.time, "sleep", recorder.sleep)
    _faults.run_stall(spec, None)  # type: ignore[arg-type]  # a stall writes nothing
    assert recorder.calls == [("sleep", seconds)]
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


def test_drip_writes_pieces_each_flushed_with_a_pause_between(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(_wire.time, "sleep", recorder.sleep)
    monkeypatch.setattr(_wire.sys, "stdout", recorder)
    for name in ("size", "interval", "started"):  # restored after the test
        monkeypatch.setattr(_wire._Drip, name, getattr(_wire._Drip, name))
    _faults.run_drip({"fake": "drip", "bytes": 4, "interval": 0.05}, None)  # type: ignore[arg-type]
    _wire.write_stdout(b"x" * 19 + b"\n")
    _wire.write_stdout(b"yz")
    # Six pieces of at most four bytes, each flushed, a pause before all but the first.
    pieces = [b"xxxx"] * 4 + [b"xxx\n", b"yz"]
    expected: list[tuple[str, Any]] = []
    for n, piece in enumerate(pieces):
        expected += [("sleep", 0.05)] if n else []
        expected += [("write", piece), ("flush", None)]
    assert recorder.calls == expected


def test_drip_applies_to_event_lines(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "drip", "bytes": 40, "interval": 3600}, INIT, RESULT)
    with spawn(path) as proc:
        first = read_until(proc.stdout, lambda data: len(data) > 0)
        assert len(first) == 40
        assert first.startswith(b'{"type":"system","subtype":"init"')
        assert read_for(proc.stdout, QUIET) == b""  # the next piece is an hour away


def test_drip_reader_sees_a_piece_before_the_rest_is_written(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path, {"fake": "drip", "bytes": 3, "interval": 3600}, {"fake": "raw", "text": "abcdef"}
    )
    with spawn(path) as proc:
        first = read_until(proc.stdout, lambda data: len(data) > 0)
        assert first == b"abc"


def test_drip_without_pauses_writes_everything(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, {"fake": "drip", "bytes": 7}, INIT, RESULT)
    code, out, _ = finish(path)
    assert (code, [e["type"] for e in json_lines(out)]) == (0, ["system", "result"])


def test_slow_drip_scenario_writes_what_hello_writes() -> None:
    def typed(out: bytes) -> list[Any]:
        # hello pins its durations, slow_drip reports the time that passed (the README's
        # "Durations"): the rest is the same.
        untimed = {"session_id": None, "duration_ms": None, "duration_api_ms": None}
        return [{**e, **{k: v for k, v in untimed.items() if k in e}} for e in json_lines(out)]

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


# --------------------------------------------------------------------------- ignore SIGTERM
#
# A SIGTERM that is not ignored ends the fake at once: the kernel records SIGTERM as its
# cause of death then and there, so a SIGKILL sent right after it cannot change the exit
# status. An exit status of -SIGKILL after SIGTERM then SIGKILL therefore proves that the
# SIGTERM was ignored, with no waiting in between.


def term_then_kill(proc: subprocess.Popen[bytes]) -> int:
    """SIGTERM the fake's whole group (as a wrapper does), then SIGKILL it: exit status."""
    os.killpg(proc.pid, signal.SIGTERM)
    os.killpg(proc.pid, signal.SIGKILL)
    return proc.wait(timeout=DEADLINE)


def test_ignore_sigterm_scenario_is_ended_only_by_sigkill() -> None:
    with spawn("ignore_sigterm") as proc:
        # The tool call is written after the directive: from here on SIGTERM is ignored.
        out = read_until(proc.stdout, lines_done(4))
        assert [e["type"] for e in json_lines(out)] == ["system", "user", "assistant", "tool_call"]
        assert term_then_kill(proc) == -signal.SIGKILL


@pytest.mark.parametrize(
    ("steps", "status"),
    [
        ((INIT, {"fake": "ignore_sigterm"}, RESULT), -signal.SIGKILL),
        ((INIT, RESULT), -signal.SIGTERM),
    ],
    ids=["ignored", "not-ignored"],
)
def test_ignore_sigterm_makes_sigterm_do_nothing(
    tmp_path: Path, steps: tuple[dict[str, Any], ...], status: int
) -> None:
    with spawn(scenario_file(tmp_path, *steps, {"fake": "hang"})) as proc:
        read_until(proc.stdout, lines_done(2))
        assert term_then_kill(proc) == status


def test_ignore_sigterm_is_inherited_by_children_started_later(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path, INIT, {"fake": "ignore_sigterm"}, {"fake": "hang", "linger_child": True}
    )
    with spawn(path) as proc:
        child = child_pid(proc.stderr, LINGER)
        status = Path(f"/proc/{child}/status").read_text()
        match = re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.MULTILINE)
        assert match is not None
        ignored = int(match.group(1), 16)
        assert ignored & (1 << (signal.SIGTERM - 1))


def test_ignore_sigterm_goes_on_with_the_scenario(tmp_path: Path) -> None:
    code, out, _ = finish(scenario_file(tmp_path, INIT, {"fake": "ignore_sigterm"}, RESULT))
    assert (code, [e["type"] for e in json_lines(out)]) == (0, ["system", "result"])


# --------------------------------------------------------------------------- exit leaving a child


def test_exit_leaving_child_scenario_exits_1_with_stdout_still_open() -> None:
    with spawn("exit_leaving_child") as proc:
        child = child_pid(proc.stderr, LEFT)
        assert proc.wait(timeout=DEADLINE) == 1
        # The fake is gone; everything it wrote is in the pipe, and no EOF follows it.
        out = available(proc.stdout)
        assert out is not None, "stdout reached EOF while the child holds it"
        assert [e["type"] for e in json_lines(out)] == ["system", "assistant"]
        assert available(proc.stderr) is not None  # stderr is held too
        assert alive(child)


def test_exit_leaving_child_leaves_it_in_the_fakes_process_group() -> None:
    with spawn("exit_leaving_child") as proc:
        child = child_pid(proc.stderr, LEFT)
        assert child != proc.pid
        assert os.getpgid(child) == proc.pid
        proc.wait(timeout=DEADLINE)
        assert os.getpgid(child) == proc.pid  # still there after the fake exited


def test_exit_leaving_child_stdout_ends_once_the_group_is_killed() -> None:
    with spawn("exit_leaving_child") as proc:
        child_pid(proc.stderr, LEFT)
        proc.wait(timeout=DEADLINE)
        _kill_group(proc.pid)
        out = read_until(proc.stdout, lambda _: False)  # to EOF
        assert json_lines(out)[-1]["type"] == "assistant"


@pytest.mark.parametrize(
    ("step", "code"),
    [
        ({"fake": "exit_leaving_child"}, 1),
        ({"fake": "exit_leaving_child", "code": 0}, 0),
        ({"fake": "exit_leaving_child", "code": 3}, 3),
    ],
    ids=["default", "0", "3"],
)
def test_exit_leaving_child_exits_with_its_code(
    tmp_path: Path, step: dict[str, Any], code: int
) -> None:
    with spawn(scenario_file(tmp_path, INIT, step)) as proc:
        child_pid(proc.stderr, LEFT)
        assert proc.wait(timeout=DEADLINE) == code


@pytest.mark.parametrize(("code", "printed"), [(0, True), (1, False)])
def test_exit_leaving_child_code_decides_what_json_prints(
    tmp_path: Path, code: int, printed: bool
) -> None:
    # As with `exit`, json prints the result only for a run that exits 0.
    path = scenario_file(tmp_path, INIT, RESULT, {"fake": "exit_leaving_child", "code": code})
    with spawn(path, "json") as proc:
        child_pid(proc.stderr, LEFT)
        assert proc.wait(timeout=DEADLINE) == code
        out = available(proc.stdout)
        assert out is not None
        assert [e["type"] for e in json_lines(out)] == (["result"] if printed else [])


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
        ({"fake": "ignore_sigterm", "seconds": 1}, "unknown field 'seconds'"),
        ({"fake": "exit_leaving_child", "code": "1"}, "needs 'code' as int"),
        ({"fake": "exit_leaving_child", "code": True}, "needs 'code' as int"),
        ({"fake": "exit_leaving_child", "code": 256}, "'code' from 0 to 255"),
        ({"fake": "exit_leaving_child", "code": -1}, "'code' from 0 to 255"),
        ({"fake": "exit_leaving_child", "linger": True}, "unknown field 'linger'"),
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
        {"fake": "ignore_sigterm"},
        {"fake": "exit_leaving_child"},
        {"fake": "exit_leaving_child", "code": 0},
        {"fake": "exit_leaving_child", "code": 255},
    ],
)
def test_good_fault_directive_passes(spec: dict[str, Any]) -> None:
    assert check_directive(spec) is None


@pytest.mark.parametrize("last", ["hang", "kill", "exit_leaving_child"])
def test_nothing_may_follow_a_hang_kill_or_exit_leaving_child(tmp_path: Path, last: str) -> None:
    code, out, err = finish(scenario_file(tmp_path, {"fake": last}, INIT))
    assert (code, out) == (2, b"")
    assert f"nothing may follow the '{last}' directive".encode() in err


def test_bad_fault_directive_stops_the_run_before_any_output(tmp_path: Path) -> None:
    code, out, err = finish(scenario_file(tmp_path, INIT, {"fake": "drip", "bytes": 0}))
    assert (code, out) == (2, b"")
    assert b"s.ndjson:2: directive 'drip' needs 'bytes' >= 1" in err
