"""The live-agent examples (examples/approve_bot.py), run as a user runs them, against the
bundled fake agent's ACP mode (``AGENT_SDK_EXAMPLES_FAKE=1``).

The prompts pick the fake's ACP scenario (``scenario:permission``: the turn of docs/acp.md
§2, which asks to run ``pytest -q``); the answers go in on stdin, a pipe, or in the last
test a pseudo-terminal. The assertions are on what the bot prints and its exit status.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOT = REPO / "examples" / "approve_bot.py"
HANG_GUARD = 60  # seconds: only so that a broken example fails instead of hanging
ASKS = "scenario:permission Run the tests"
ALLOWED = " the tests: all 12 pass."
REJECTED = " the tests was rejected, so I did not run them."


def bot_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "AGENT_SDK_EXAMPLES_FAKE": "1", **extra}
    for name in ("FAKE_AGENT_SCENARIO", "FAKE_AGENT_ACP_SCENARIO"):
        if name not in extra:
            env.pop(name, None)  # the prompts pick the scenarios
    return env


def run_bot(
    *args: str, stdin: str | None = None, **extra_env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BOT), *args],
        cwd=REPO,
        env=bot_env(**extra_env),
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def test_approve_bot_runs_the_command_on_y_and_rejects_it_on_n() -> None:
    proc = run_bot(ASKS, "scenario:permission Again", stdin="y\nn\n")
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.split("[end_turn in ")[:2]
    assert "← succeeded" in first
    assert ALLOWED in first
    assert "← blocked" in second
    assert REJECTED in second
    assert proc.stderr.count("Allow once? [y/N/always]") == 2


def test_approve_bot_shows_the_command_and_the_agents_reason() -> None:
    proc = run_bot(ASKS, stdin="n\n")
    assert proc.returncode == 0, proc.stderr
    assert "[the agent wants to run: pytest -q]  (Not in allowlist: pytest)" in proc.stderr
    assert "[rejected]" in proc.stderr


def test_approve_bot_streams_the_reply_to_stdout_and_the_dialogue_to_stderr() -> None:
    proc = run_bot(ASKS, stdin="y\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Running\n  → `pytest -q`\n")
    assert "Allow once?" not in proc.stdout
    assert ALLOWED not in proc.stderr


def test_approve_bot_answer_always_allows_always() -> None:
    proc = run_bot(ASKS, stdin="always\n")
    assert proc.returncode == 0, proc.stderr
    assert "[allowed always: a rule in ~/.cursor/cli-config.json]" in proc.stderr
    assert ALLOWED in proc.stdout


def test_approve_bot_rejects_with_a_message_when_stdin_has_ended() -> None:
    proc = run_bot(ASKS, "scenario:permission Again")  # stdin: /dev/null
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("[rejected: no one to ask, stdin has ended]") == 2
    assert proc.stdout.count(REJECTED) == 2


def test_approve_bot_yes_allows_once_without_asking() -> None:
    proc = run_bot("--yes", ASKS)
    assert proc.returncode == 0, proc.stderr
    assert "[allowed once: --yes]" in proc.stderr
    assert "Allow once?" not in proc.stderr
    assert ALLOWED in proc.stdout


def test_approve_bot_exits_1_when_a_turn_ends_otherwise(tmp_path: Path) -> None:
    scenario = tmp_path / "refusal.ndjson"
    scenario.write_text('{"fake":"stop","stopReason":"refusal"}\n')
    proc = run_bot("hi", FAKE_AGENT_ACP_SCENARIO=str(scenario))
    assert proc.returncode == 1, proc.stderr
    assert "[refusal in " in proc.stdout


def test_approve_bot_reports_an_agent_error_and_exits_1(tmp_path: Path) -> None:
    scenario = tmp_path / "error.ndjson"
    scenario.write_text('{"fake":"error","code":-32603,"message":"Internal error"}\n')
    proc = run_bot("hi", FAKE_AGENT_ACP_SCENARIO=str(scenario))
    assert proc.returncode == 1
    assert "error: " in proc.stderr
    assert "-32603" in proc.stderr


def test_approve_bot_asks_on_a_terminal_and_takes_the_typed_answer() -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, str(BOT), ASKS],
        cwd=REPO,
        env=bot_env(),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
    )
    os.close(slave)
    seen = b""
    answered = False
    deadline = time.monotonic() + HANG_GUARD  # a hang guard, not a timing assertion
    try:
        while proc.poll() is None or select.select([master], [], [], 0)[0]:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            if select.select([master], [], [], 0.1)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:  # EIO: the bot closed the terminal
                    break
            if not answered and b"Allow once? [y/N/always] " in seen:
                os.write(master, b"y\n")
                answered = True
        assert proc.wait(timeout=HANG_GUARD) == 0, seen.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = seen.decode(errors="replace").replace("\r\n", "\n")
    assert "Allow once? [y/N/always] y\n[allowed once]" in text  # the terminal echoed "y"
    assert ALLOWED in text
