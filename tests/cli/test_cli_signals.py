"""``agent-sdk [run]`` stopped (docs/cli.md, docs/lifecycle.md): Ctrl-C or SIGTERM ends
the agent's process group and exits 130 or 143, more signals during that teardown change
nothing, a SIGKILLed command's agent dies of its parent's death, and a run whose reader
of the reply is gone (``| head -1``) ends with its agent (exit 141).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from cli_process import cli_env, processes_with_arg
from proctable import settles


def stalled_command() -> tuple[subprocess.Popen[str], str]:
    """``agent-sdk --fake stall`` with its agent started and silent; the prompt, unique,
    finds the agent (its argv holds it)."""
    prompt = f"hi {uuid.uuid4()}"
    child = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", "--fake", "stall", "--", prompt],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        # A child of a non-interactive shell may inherit SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stderr is not None
    assert child.stderr.readline().startswith("● ")  # the run has started
    assert set(processes_with_arg(prompt)) - {child.pid}  # the agent, running
    return child, prompt


@pytest.mark.parametrize(
    ("signum", "status", "how"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_signal_ends_the_agent_and_exits_with_its_status(
    signum: signal.Signals, status: int, how: str
) -> None:
    child, prompt = stalled_command()
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode == status
    assert f"✗ {how}" in err
    assert f"agent-sdk: error: {how}; the agent's process group was ended" in err
    assert processes_with_arg(prompt) == []


@pytest.mark.parametrize(
    ("signals", "status", "how"),
    [
        ([signal.SIGINT] * 3, 130, "interrupted"),
        ([signal.SIGTERM] * 2, 143, "terminated"),
        ([signal.SIGTERM, signal.SIGINT], 143, "terminated"),
    ],
    ids=["ctrl-c thrice", "sigterm twice", "sigterm then ctrl-c"],
)
def test_more_signals_while_the_agent_ends_change_nothing(
    tmp_path: Path, signals: list[signal.Signals], status: int, how: str
) -> None:
    # An agent that ignores SIGTERM: its teardown lasts the SDK's grace, and the next
    # signals land in it.
    stubborn = tmp_path / "stubborn.ndjson"
    lines = [
        {"type": "system", "subtype": "init", "session_id": "s"},
        {"fake": "ignore_sigterm"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "ready"}]}},
        {"fake": "stall"},
    ]
    stubborn.write_text("".join(json.dumps(line) + "\n" for line in lines))
    prompt = f"hi {uuid.uuid4()}"  # the agent's argv holds it: the agent can be found
    child = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", "--fake", str(stubborn), "--json", "--", prompt],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdout is not None
        while '"assistant"' not in child.stdout.readline():  # SIGTERM is ignored now
            assert child.poll() is None
        for number, signum in enumerate(signals):
            if number:
                time.sleep(0.005 * number**2)  # 5 ms, then 20 ms: in the teardown
            child.send_signal(signum)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == status, err
    assert f"agent-sdk: error: {how}; the agent's process group was ended" in err
    assert "Traceback" not in err
    assert processes_with_arg(prompt) == []


def test_killing_the_command_ends_its_agent(tmp_path: Path) -> None:
    # SIGKILL: no teardown of ours runs; the agent dies of its parent's death
    # (docs/lifecycle.md, "When the program dies").
    child, prompt = stalled_command()
    try:
        child.kill()
        child.communicate(timeout=30)
        assert settles(lambda: processes_with_arg(prompt) == [], within=10)
    finally:
        for pid in processes_with_arg(prompt):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_live_run_ends_with_its_agent_once_the_reader_of_the_reply_is_gone(
    tmp_path: Path,
) -> None:
    # `agent-sdk ... | head -1`: the tool calls go to stderr, so no write fails after the
    # reply's first line; the run must still stop (and end the agent) at the next event.
    call = {"readToolCall": {"args": {"path": "a.py"}}}
    lines = [{"type": "assistant", "message": {"content": [{"type": "text", "text": "one\n"}]}}]
    for number in range(200):
        event = {"type": "tool_call", "call_id": f"c{number}", "tool_call": call}
        lines += [{**event, "subtype": "started"}, {"fake": "sleep", "seconds": 0.05}]
    lines.append({"fake": "stall"})  # an hour: a run that went on would be killed below
    scenario = tmp_path / "many_calls.ndjson"
    scenario.write_text("".join(json.dumps(line) + "\n" for line in lines))
    word = f"reader-{uuid.uuid4()}"
    with open(tmp_path / "stderr", "w+", encoding="utf-8") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", "agent_sdk", "--fake", str(scenario), "read", word],
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=cli_env(),
        )
        assert child.stdout is not None
        try:
            assert child.stdout.readline() == b"one\n"
            child.stdout.close()  # as `head -1` does
            status = child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        stderr.seek(0)
        err = stderr.read()
    assert status == 141, err  # 128 + SIGPIPE, as a shell reports a closed pipe
    assert "Traceback" not in err
    assert processes_with_arg(word) == []  # the agent ended with the run
