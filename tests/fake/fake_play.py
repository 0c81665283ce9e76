"""The fake cursor-agent's print runs as the tests of its contract (docs/protocol.md) play
them: the bundled scenarios by outcome, ``run`` (one spawn of ``python -m fake_agent``, as
the SDK spawns it) and ``play`` (a trusted ``--print`` run of a scenario, cached: runs that
several tests look at are played once), and the readers of what a run printed.

Shared by test_fake_output_formats.py, test_fake_partial_output.py,
test_fake_session_and_init.py, test_fake_prompts.py, test_fake_scenario_choice.py,
test_fake_wire_details.py, test_fake_tools_scenario.py and test_fake_optional_events.py.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from fake_env import ROOT, fake_env

from fake_agent import SCENARIOS_DIR

SMALL_HUGE_READ = 200_000

SUCCESS = [
    "demo",
    "hello",
    "cart",
    "tools",
    "rejected",
    "thinking",
    "web_lookup",
    "reconnect",
    "unknown_events",
    "banner",
    "surrogate",
    "huge_read",
    "is_error",
    "slow_drip",
    "stderr_flood",
    "plan",
    "denied",
    "hook_rejected",
    "hook_traces",
    "custom_tools",
    "doctor",
    "issue_bot",
    "subagents",
    "windows",
    "fix_tests",
    "json_review",
    "json_corrected",
    "json_never",
    "json_bare",
]


# Scenarios whose outcome depends on the attempt (``fail_first``) are listed with their
# first attempt's: ``play`` gives every run a fresh counter. Later attempts are played in
# tests/fake/test_fake_fail_first.py.
FAILURE = {
    "retriable_error": 1,
    "refused_argument": 1,
    "crash": 1,
    "stdout_error": 1,
    "usage_limit": 1,
    "not_logged_in": 1,
    "invalid_api_key": 1,
    "unknown_model": 1,
    "config_race": 1,
    "flaky_start": 1,
    "flaky_after_work": 1,
}
NO_RESULT_SUCCESS = ["no_result"]
ALL = SUCCESS + list(FAILURE) + NO_RESULT_SUCCESS


# Fault modes that do not fit the generic checks of test_fake_output_formats.py (they
# stall, hang, get killed, leave a child holding stdout, or write broken lines): each is
# played in the fault modes' tests (tests/fake/fault_play.py).
FAULTS = [
    "stall",
    "hang_after_result",
    "crash_mid_stream",
    "killed",
    "garbage",
    "truncated_last_line",
    "huge_line",
    "ignore_sigterm",
    "exit_leaving_child",
]
# Scenarios that start processes the run leaves behind (a command held, helpers): each is
# played in tests/fake/test_fake_processes.py.
PROCESSES = [
    "shell_sleep",
    "shell_ignoring_hangup",
    "background_command",
    "worker_server",
    "daemon",
    "daemon_scrubbed_env",
    "left_behind",
]
FORMATS = ["text", "json", "stream-json"]


def _env(**extra: str) -> dict[str, str]:
    return fake_env(FAKE_AGENT_HUGE_READ_BYTES=str(SMALL_HUGE_READ), **extra)


def run(
    *args: str,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Spawn the fake with ``args``; stdin is /dev/null unless bytes are given."""
    return subprocess.run(
        [sys.executable, "-m", "fake_agent", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        env=env or _env(),
        cwd=cwd or ROOT,
        timeout=30,
        check=False,
    )


@functools.cache
def play(
    scenario: str, fmt: str = "stream-json", partial: bool = False, extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[bytes]:
    """A trusted ``--print`` run of ``scenario`` (cached: runs are deterministic enough)."""
    args = ["-p", "--trust", f"--output-format={fmt}", *extra]
    if partial:
        args.append("--stream-partial-output")
    scratch = Path(tempfile.mkdtemp(prefix="fake-play-"))
    try:
        # A fresh counter: a first attempt. A scenario changing files plays in a
        # scratch directory, never in the checkout.
        env = _env(FAKE_AGENT_SCENARIO=scenario, FAKE_AGENT_COUNTER=str(scratch / "count"))
        cwd = scratch if changes_files(scenario) else None
        return run(*args, "--", "hi there", env=env, cwd=cwd)
    finally:
        shutil.rmtree(scratch)


def events(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    """The JSON objects among stdout's lines (non-JSON lines skipped)."""
    found = []
    for line in proc.stdout.split(b"\n"):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            found.append(obj)
    return found


def text_of(event: dict[str, Any]) -> str:
    return "".join(block["text"] for block in event["message"]["content"])


def scenario_steps(name: str) -> list[dict[str, Any]]:
    lines = (SCENARIOS_DIR / f"{name}.ndjson").read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line.strip()]


def changes_files(name: str) -> bool:
    return any(step.get("fake") in ("write_file", "delete_file") for step in scenario_steps(name))


def scenario_has_result(name: str) -> bool:
    return any(step.get("type") == "result" for step in scenario_steps(name))
