"""The fake's exit that leaves a child holding stdout (fake_agent/scenarios/README.md,
docs/protocol.md §5): it exits with its code, the child stays in its process group, stdout
and stderr stay open (no EOF) until the group is killed, and json prints the result only
for an exit of 0.
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
    LEFT,
    RESULT,
    _kill_group,
    alive,
    available,
    child_pid,
    json_lines,
    read_until,
    scenario_file,
    spawn,
)

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)


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
