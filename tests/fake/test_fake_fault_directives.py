"""The fake's fault directives checked when a scenario loads
(fake_agent/scenarios/README.md): each bad field refused with what to fix, the good ones
passing, nothing after a ``hang``, ``kill`` or ``exit_leaving_child``, and a bad directive
stopping the run before any output.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from fault_play import INIT, finish, scenario_file

from fake_agent._directives import check_directive

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)


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
