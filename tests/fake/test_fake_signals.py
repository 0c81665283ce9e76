"""The fake and signals (fake_agent/scenarios/README.md, docs/protocol.md §5): killed by a
signal's default action after its events, and a SIGTERM ignored (by the children it starts
later too) so that only SIGKILL ends it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fault_play import (
    DEADLINE,
    INIT,
    LINGER,
    RESULT,
    child_pid,
    finish,
    json_lines,
    lines_done,
    read_until,
    scenario_file,
    spawn,
)

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="process groups and signals are POSIX"
)


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
