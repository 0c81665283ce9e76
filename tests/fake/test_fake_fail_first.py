"""Tasks that fail their first attempts (``fail_first``, counted in
``$FAKE_AGENT_COUNTER``; docs/protocol.md §1, "Many runs at once"): the counter loses no
count under concurrent bumps, exactly ``times`` attempts fail and each says what its
scenario says, bad directives and counters are setup errors, and the ``flaky_start`` and
``flaky_after_work`` scenarios fail once then run (the second resuming the chat).

File changes (``write_file``, ``delete_file``, ``fix_tests``) are in
tests/fake/test_fake_files.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_env import fake_env
from fleet_runs import RUNS, WAIT, events, race_line, run, run_together

from fake_agent import SCENARIOS_DIR


def scenario_file(tmp_path: Path, *steps: dict[str, Any], base: str = "hello") -> Path:
    """A scenario: ``steps``, then the lines of the bundled ``base``."""
    lines = [json.dumps(step) for step in steps]
    lines += (SCENARIOS_DIR / f"{base}.ndjson").read_text("utf-8").splitlines()
    path = tmp_path / "scenario.ndjson"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def stderr_of_scenario(name: str) -> bytes:
    """What the bundled scenario writes to stderr (its ``stderr`` directives)."""
    steps = [
        json.loads(line)
        for line in (SCENARIOS_DIR / f"{name}.ndjson").read_text("utf-8").splitlines()
    ]
    return "".join(s["text"] + "\n" for s in steps if s.get("fake") == "stderr").encode()


# --------------------------------------------------------------------------- fail_first


def test_counter_counts_up_from_a_missing_file(tmp_path: Path) -> None:
    from fake_agent._fleet import bump_counter

    path = tmp_path / "count"
    assert [bump_counter(str(path)) for _ in range(3)] == [1, 2, 3]
    assert path.read_text() == "3\n"


BUMPER = """\
import sys
from fake_agent._fleet import bump_counter
print(" ".join(str(bump_counter(sys.argv[1])) for _ in range(int(sys.argv[2]))))
"""


def test_concurrent_bumps_on_one_counter_lose_no_count(tmp_path: Path) -> None:
    path, procs, each = str(tmp_path / "count"), 8, 200
    children = [
        subprocess.Popen(
            [sys.executable, "-c", BUMPER, path, str(each)],
            stdout=subprocess.PIPE,
            env=fake_env(),
        )
        for _ in range(procs)
    ]
    seen = []
    for child in children:
        out, _ = child.communicate(timeout=WAIT)
        assert child.returncode == 0
        seen += [int(n) for n in out.split()]
    assert sorted(seen) == list(range(1, procs * each + 1))
    assert Path(path).read_text() == f"{procs * each}\n"


def test_concurrent_attempts_fail_exactly_times_of_them(tmp_path: Path) -> None:
    scenario = scenario_file(tmp_path, {"fake": "fail_first", "times": 3, "with": "retriable"})
    env = {"FAKE_AGENT_SCENARIO": str(scenario), "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    codes = sorted(code for code, _, _ in run_together([env] * RUNS, "--output-format", "json"))
    assert codes == [0] * (RUNS - 3) + [1] * 3


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("retriable", stderr_of_scenario("retriable_error").split(b"\n")[-2] + b"\n"),
        ("usage_limit", stderr_of_scenario("usage_limit")),
    ],
)
def test_each_failure_says_what_its_scenario_says(
    tmp_path: Path, kind: str, expected: bytes
) -> None:
    scenario = scenario_file(tmp_path, {"fake": "fail_first", "times": 1, "with": kind})
    env = {"FAKE_AGENT_SCENARIO": str(scenario), "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    first = run("--output-format", "stream-json", **env)
    assert (first.returncode, first.stdout, first.stderr) == (1, b"", expected)
    second = run("--output-format", "stream-json", **env)
    assert (second.returncode, second.stderr) == (0, b"")
    assert events(second.stdout)[-1]["type"] == "result"


def test_a_scripted_config_race_names_the_config_dir_and_touches_nothing(tmp_path: Path) -> None:
    scenario = scenario_file(tmp_path, {"fake": "fail_first", "times": 2, "with": "config_race"})
    env = {"FAKE_AGENT_SCENARIO": str(scenario), "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    proc = run(HOME=str(tmp_path / "home"), **env)
    home_cfg = tmp_path / "home" / ".cursor"
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, b"", race_line(home_cfg))
    assert not (tmp_path / "home").exists()
    cfg = tmp_path / "cfg"
    proc = run(CURSOR_CONFIG_DIR=str(cfg), **env)
    assert (proc.returncode, proc.stderr) == (1, race_line(cfg))
    assert run(CURSOR_CONFIG_DIR=str(cfg), **env).returncode == 0


def test_fail_first_without_a_counter_is_a_setup_error_before_any_output() -> None:
    proc = run("--output-format", "stream-json", FAKE_AGENT_SCENARIO="flaky_after_work")
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr == (
        b"fake_agent: directive 'fail_first' needs the environment variable FAKE_AGENT_COUNTER\n"
    )


def test_a_counter_that_holds_no_count_is_a_setup_error(tmp_path: Path) -> None:
    (tmp_path / "n").write_text("many")
    proc = run(FAKE_AGENT_SCENARIO="flaky_start", FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    assert proc.returncode == 2
    assert b"holds 'many', not a count" in proc.stderr


@pytest.mark.parametrize(
    ("step", "why"),
    [
        ({"fake": "fail_first", "times": -1, "with": "retriable"}, b"needs 'times' >= 0"),
        ({"fake": "fail_first", "times": 1, "with": "crash"}, b"unknown 'with' 'crash'"),
        ({"fake": "fail_first", "times": 1}, b"needs 'with' as str"),
        ({"fake": "fail_first", "times": True, "with": "retriable"}, b"needs 'times' as int"),
    ],
)
def test_bad_fail_first_directives_are_refused_at_load(
    tmp_path: Path, step: dict[str, Any], why: bytes
) -> None:
    scenario = scenario_file(tmp_path, step)
    proc = run(FAKE_AGENT_SCENARIO=str(scenario), FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert why in proc.stderr
    assert not (tmp_path / "n").exists()


# --------------------------------------------------------------------------- scenarios


def test_flaky_start_loses_the_race_once_then_runs(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg"
    env = {
        "FAKE_AGENT_SCENARIO": "flaky_start",
        "FAKE_AGENT_COUNTER": str(tmp_path / "n"),
        "CURSOR_CONFIG_DIR": str(cfg),
    }
    first = run("--output-format", "stream-json", **env)
    assert (first.returncode, first.stdout, first.stderr) == (1, b"", race_line(cfg))
    second = run("--output-format", "stream-json", "--force", **env)
    assert (second.returncode, second.stderr) == (0, b"")
    found = events(second.stdout)
    assert [e["type"] for e in found[:2]] == ["system", "user"]
    assert any("shellToolCall" in e.get("tool_call", {}) for e in found)
    assert found[-1]["type"] == "result"
    assert (tmp_path / "n").read_text() == "2\n"


def test_flaky_after_work_fails_after_work_then_the_resumed_chat_succeeds(
    tmp_path: Path,
) -> None:
    env = {"FAKE_AGENT_SCENARIO": "flaky_after_work", "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    first = run("--output-format", "stream-json", **env)
    assert first.returncode == 1
    assert first.stderr.startswith(b"RetriableError: [unavailable]")
    found = events(first.stdout)
    assert found[-1]["type"] != "result"
    assert [e["subtype"] for e in found if e["type"] == "tool_call"] == ["started", "completed"]
    session = found[0]["session_id"]
    second = run("--output-format", "stream-json", f"--resume={session}", **env)
    assert (second.returncode, second.stderr) == (0, b"")
    resumed = events(second.stdout)
    assert {e["session_id"] for e in resumed if "session_id" in e} == {session}
    assert resumed[-1]["type"] == "result"
    assert resumed[-1]["result"].startswith("I'll read the cart module first.")
