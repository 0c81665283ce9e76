"""``agent-sdk doctor`` (docs/cli.md, "agent-sdk doctor") on the fake: a good build passes
every check; each bad build the fake plays (``FAKE_AGENT_BUILD``) fails the check that
catches it, says why, and exits 1; ``--report`` writes what was seen, redacted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import cli

SECRET = "sk-doctor-0123456789abcdef"


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    """A user's HOME with an empty ``~/.cursor``, and a temp dir short enough for sockets."""
    (tmp_path / "home" / ".cursor").mkdir(parents=True)
    return {"HOME": str(tmp_path / "home"), "CURSOR_CONFIG_DIR": ""}


def rows(stdout: str) -> dict[str, str]:
    """The table's rows: each check's name and its outcome."""
    table: dict[str, str] = {}
    for line in stdout.splitlines():
        name, _, rest = line.partition("  ")
        table[name.strip()] = rest.split()[0]
    return table


def test_a_good_build_passes_every_check(home: dict[str, str]) -> None:
    done = cli("doctor", "--fake", **home)
    assert done.returncode == 0, done.stdout + done.stderr
    table = rows(done.stdout)
    for name in ("binary", "version", "signed in", "tools channel (plugin)"):
        assert table[name] == "ok"
    assert table["probe run"] == "-"  # costs tokens: only when asked


def test_the_home_channel_is_checked_when_chosen(home: dict[str, str]) -> None:
    done = cli("doctor", "--fake", "--tools-channel", "home", **home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert rows(done.stdout)["tools channel (home)"] == "ok"


def test_a_build_that_ignores_the_plugin_dir_fails_the_channel(home: dict[str, str]) -> None:
    done = cli("doctor", "--fake", FAKE_AGENT_BUILD="ignores-plugin-dir", **home)
    assert done.returncode == 1
    assert rows(done.stdout)["tools channel (plugin)"] == "FAILED"
    assert "try --tools-channel home" in done.stdout


def test_a_build_that_starts_no_server_fails_the_channel(home: dict[str, str]) -> None:
    done = cli("doctor", "--fake", "--tools-channel", "home", FAKE_AGENT_BUILD="no-mcp", **home)
    assert done.returncode == 1
    assert rows(done.stdout)["tools channel (home)"] == "FAILED"


def test_a_missing_cli_fails_first_and_skips_the_rest(tmp_path: Path) -> None:
    done = cli("doctor", "--binary", str(tmp_path / "nowhere" / "cursor-agent"))
    assert done.returncode == 1
    table = rows(done.stdout)
    assert table["binary"] == "FAILED"
    assert table["version"] == table["tools channel (plugin)"] == "-"


def test_the_probe_run_sees_the_tool_called_and_the_hooks_fire(home: dict[str, str]) -> None:
    done = cli("doctor", "--fake", "--probe-run", FAKE_AGENT_SCENARIO="doctor", **home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert rows(done.stdout)["probe run"] == "ok"
    assert "SessionStarted" in done.stdout


def test_a_build_that_runs_no_hooks_fails_the_probe_run(home: dict[str, str]) -> None:
    done = cli(
        "doctor",
        "--fake",
        "--probe-run",
        FAKE_AGENT_SCENARIO="doctor",
        FAKE_AGENT_BUILD="no-hooks",
        **home,
    )
    assert done.returncode == 1
    assert rows(done.stdout)["probe run"] == "FAILED"
    assert "did not load its hooks" in done.stdout


def test_the_report_says_what_was_seen_without_secrets(
    home: dict[str, str], tmp_path: Path
) -> None:
    report = tmp_path / "doctor.json"
    done = cli(
        "doctor",
        "--fake",
        "--probe-run",
        "--report",
        str(report),
        FAKE_AGENT_SCENARIO="doctor",
        CURSOR_API_KEY=SECRET,
        **home,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    text = report.read_text()
    assert SECRET not in text
    seen = json.loads(text)["seen"]
    assert seen["cli_version"]
    assert seen["server_started"] is True
    assert [entry["event"] for entry in seen["hooks_fired"]][:1] == ["SessionStarted"]
    assert "hook_event_name" in seen["hooks_fired"][0]["keys"]
