"""The fake's stalls and hangs (fake_agent/scenarios/README.md, docs/protocol.md §5): a
stall writes nothing for its seconds (an hour by default) then goes on; a hang after the
result never exits, and its lingering child, in the fake's process group, keeps stdout open
until the group is killed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from fault_play import (
    DEADLINE,
    INIT,
    LINGER,
    QUIET,
    RESULT,
    _kill_group,
    _Recorder,
    alive,
    finish,
    json_lines,
    lines_done,
    read_for,
    read_until,
    scenario_file,
    spawn,
)

from fake_agent import _faults
from fake_agent._faults import DEFAULT_STALL_SECONDS

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)


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
