"""The fake's fault modes as their tests play them (fake_agent/scenarios/README.md,
docs/protocol.md §5): ``spawn`` a scenario (a bundled name or a file written by
``scenario_file``), ``finish`` one that ends by itself, and read its pipes with bounds.

Every test that spawns ``python -m fake_agent`` does so in a new session and, whatever
happens, ends its whole process group: no test waits for a stall or a hang to end. The
few in-process tests look at what a directive asks of ``time.sleep`` and stdout
(``_Recorder``) instead of timing a run.

Shared by test_fake_stalls_and_hangs.py, test_fake_broken_output.py,
test_fake_floods_and_drips.py, test_fake_signals.py, test_fake_exit_leaving_child.py and
test_fake_fault_directives.py.
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

from fake_env import ROOT, fake_env

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
