"""The fake's config file as a fleet meets it (docs/protocol.md §1, "Many runs at once"):
runs sharing a config dir really race on its rename (the losers fail as the real CLI
does), runs with a config dir each never do, the home directory is never touched without
one, a broken config is replaced, and a bad ``FAKE_AGENT_CONFIG_WRITE_DELAY`` is a setup
error.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from fake_env import ROOT, fake_env
from fleet_runs import RUNS, WAIT, events, fake_cmd, race_line, run, run_together

#: Seconds between writing the temp config and renaming it, in the race tests: large
#: next to a fake's start-up (tens of milliseconds), so runs started together overlap.
RACE_WINDOW = "1.5"


# --------------------------------------------------------------------------- config file


def test_runs_sharing_a_config_dir_really_race(tmp_path: Path) -> None:
    shared = tmp_path / "cursor"
    shared.mkdir()
    (shared / "cli-config.json").write_text('{"editor": {"vimMode": true}}')
    env = {"CURSOR_CONFIG_DIR": str(shared), "FAKE_AGENT_CONFIG_WRITE_DELAY": RACE_WINDOW}
    results = run_together([env] * RUNS, "--output-format", "stream-json")
    losers = [r for r in results if r[0] == 1]
    winners = [r for r in results if r[0] == 0]
    assert len(losers) + len(winners) == RUNS, results
    assert losers, "no run lost the race on a shared config dir"
    assert winners, "every run lost: the first rename must win"
    for _, out, err in losers:
        assert (out, err) == (b"", race_line(shared))
    for _, out, _ in winners:
        assert events(out)[-1]["type"] == "result"
    config = json.loads((shared / "cli-config.json").read_text())
    assert config["editor"] == {"vimMode": True}
    assert isinstance(config["lastRunStartedAtMs"], int)


def test_runs_with_a_config_dir_each_never_race(tmp_path: Path) -> None:
    dirs = [tmp_path / f"cursor-{n}" for n in range(RUNS)]
    envs = [
        {"CURSOR_CONFIG_DIR": str(d), "FAKE_AGENT_CONFIG_WRITE_DELAY": RACE_WINDOW} for d in dirs
    ]
    results = run_together(envs, "--output-format", "json")
    assert [(code, err) for code, _, err in results] == [(0, b"")] * RUNS
    for directory in dirs:
        assert sorted(p.name for p in directory.iterdir()) == ["cli-config.json"]
        assert json.loads((directory / "cli-config.json").read_text())["version"] == 1


@pytest.mark.parametrize("fmt", ["text", "stream-json"])
def test_a_run_whose_temp_config_vanishes_loses_in_every_format(tmp_path: Path, fmt: str) -> None:
    # Take the temp file away while the fake sleeps between write and rename, as a
    # faster run would: it must fail exactly as the real CLI does. The window is long
    # next to the polling below; the fake only notices once it is over.
    cfg = tmp_path / "cursor"
    env = fake_env(CURSOR_CONFIG_DIR=str(cfg), FAKE_AGENT_CONFIG_WRITE_DELAY="2")
    with subprocess.Popen(
        [*fake_cmd("--output-format", fmt), "--", "go"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    ) as proc:
        try:
            tmp = cfg / "cli-config.json.tmp"
            for _ in range(WAIT * 100):
                if tmp.exists() or proc.poll() is not None:
                    break
                time.sleep(0.01)
            tmp.unlink()
            out, err = proc.communicate(timeout=WAIT)
        finally:
            proc.kill()
    assert (proc.returncode, out, err) == (1, b"", race_line(cfg))
    assert not (cfg / "cli-config.json").exists()


def test_without_config_dir_the_home_directory_is_never_touched(tmp_path: Path) -> None:
    proc = run("--output-format", "json", HOME=str(tmp_path), FAKE_AGENT_CONFIG_WRITE_DELAY="0.01")
    assert proc.returncode == 0
    assert list(tmp_path.iterdir()) == []


def test_a_config_that_is_not_an_object_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "cli-config.json").write_text("[1, 2")
    assert run("--output-format", "json", CURSOR_CONFIG_DIR=str(tmp_path)).returncode == 0
    assert set(json.loads((tmp_path / "cli-config.json").read_text())) == {
        "version",
        "lastRunStartedAtMs",
    }


@pytest.mark.parametrize("value", ["-1", "soon", "nan", "inf"])
def test_a_bad_config_write_delay_is_a_setup_error(tmp_path: Path, value: str) -> None:
    proc = run(CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_CONFIG_WRITE_DELAY=value)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"FAKE_AGENT_CONFIG_WRITE_DELAY must be a number of seconds >= 0" in proc.stderr
    assert list(tmp_path.iterdir()) == []
