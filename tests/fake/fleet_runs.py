"""Runs of the fake as a fleet starts them (docs/protocol.md §1, "Many runs at once"): one
``run`` with its environment on top of a clean one, several started at once
(``run_together``), and what a run that lost the race on the config file prints
(``race_line``).

Shared by test_fake_config_race.py, test_fake_login.py, test_fake_fail_first.py and
test_fake_stored_model.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fake_env import ROOT, fake_env

RUNS = 8
WAIT = 60  # seconds: a bound that fails a hung test, not a timing assertion


def fake_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "fake_agent", "-p", "--trust", *args]


def run(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    """One run of the fake with ``env`` on top of a clean environment."""
    return subprocess.run(
        [*fake_cmd(*args), "--", "go"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(**env),
        cwd=cwd or ROOT,
        timeout=WAIT,
        check=False,
    )


def run_together(envs: list[dict[str, str]], *args: str) -> list[tuple[int, bytes, bytes]]:
    """Start one fake per environment, all at once; then wait for every one."""
    procs = [
        subprocess.Popen(
            [*fake_cmd(*args), "--", "go"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=fake_env(**env),
            cwd=ROOT,
        )
        for env in envs
    ]
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=WAIT)
            done.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            proc.kill()
            proc.communicate()
    return done


def race_line(directory: Path) -> bytes:
    final = directory / "cli-config.json"
    return f"Error: ENOENT: no such file or directory, rename '{final}.tmp' -> '{final}'\n".encode()


def events(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.split(b"\n") if line.startswith(b"{")]
