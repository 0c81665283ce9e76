"""How the fake cursor-agent reads its prompt (docs/protocol.md §1,
fake_agent/scenarios/README.md): the positional words (after ``--`` too, never read as
flags or subcommands), else stdin; and a slow reader of stdin (``FAKE_AGENT_STDIN_DELAY``)
that blocks the writer of a big prompt as a real CLI does.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys

import anyio
import pytest
from fake_env import ROOT
from fake_play import _env, events, run, text_of

pytestmark = pytest.mark.anyio


# --------------------------------------------------------------------------- prompts


def test_prompt_is_read_from_stdin_when_not_given() -> None:
    prompt = "line one\nline two é " + "x" * 200_000
    proc = run("-p", "--trust", "--output-format=stream-json", stdin=prompt.encode())
    user = next(e for e in events(proc) if e["type"] == "user")
    assert text_of(user) == prompt


def test_positional_prompt_never_reads_stdin() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fake_agent", "-p", "--trust", "--output-format=json", "--", "x"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        cwd=ROOT,
    )
    try:
        # stdin stays open and idle: the fake must still finish.
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        proc.communicate()


# --------------------------------------------------------------------------- slow stdin

STREAM_JSON_FLAGS = ("-p", "--trust", "--output-format=stream-json")
STREAM_JSON = [sys.executable, "-m", "fake_agent", *STREAM_JSON_FLAGS]
# Far more than a pipe holds (64 KiB on Linux): a write of it blocks until the fake reads.
BIG_PROMPT = "read slowly " * 100_000
# How long "the write is still blocked" is watched for, while the fake waits an hour.
QUIET = 0.4


async def test_stdin_delay_blocks_a_prompt_write_until_the_fake_reads() -> None:
    with anyio.fail_after(30):
        async with await anyio.open_process(
            STREAM_JSON,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(FAKE_AGENT_STDIN_DELAY="3600"),
            cwd=ROOT,
            start_new_session=True,
        ) as proc:
            try:
                assert proc.stdin is not None
                with anyio.move_on_after(QUIET) as waited:
                    await proc.stdin.send(BIG_PROMPT.encode())
                assert waited.cancelled_caught  # nobody reads: the write is stuck
                assert proc.returncode is None
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)


async def test_stdin_delay_then_reads_the_whole_prompt() -> None:
    with anyio.fail_after(30):
        proc = await anyio.run_process(
            STREAM_JSON,
            input=BIG_PROMPT.encode(),
            env=_env(FAKE_AGENT_STDIN_DELAY="0.2"),
            cwd=ROOT,
            check=False,
        )
    user = next(e for e in events(proc) if e["type"] == "user")
    assert (proc.returncode, text_of(user)) == (0, BIG_PROMPT)


def test_stdin_delay_does_not_apply_to_a_positional_prompt() -> None:
    # With the delay applied, this run would sleep an hour: run() gives up after 30 s.
    proc = run(*STREAM_JSON_FLAGS, "--", "x", env=_env(FAKE_AGENT_STDIN_DELAY="3600"))
    assert proc.returncode == 0
    assert events(proc)[-1]["type"] == "result"


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf", "1e999", " "])
def test_bad_stdin_delay_exits_2_before_any_output(value: str) -> None:
    proc = run(*STREAM_JSON_FLAGS, "--", "x", env=_env(FAKE_AGENT_STDIN_DELAY=value))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr.decode() == (
        f"fake_agent: FAKE_AGENT_STDIN_DELAY must be a number of seconds >= 0, not {value!r}\n"
    )


def test_prompt_starting_with_dash_after_double_dash() -> None:
    proc = run("-p", "--trust", "--output-format=stream-json", "--", "--force", "-p", "me")
    user = next(e for e in events(proc) if e["type"] == "user")
    assert text_of(user) == "--force -p me"


def test_positional_words_are_joined_by_one_space() -> None:
    proc = run("-p", "--trust", "--output-format=stream-json", "add", "a", "test")
    user = next(e for e in events(proc) if e["type"] == "user")
    assert text_of(user) == "add a test"


def test_words_after_double_dash_are_not_subcommands() -> None:
    proc = run("-p", "--trust", "--output-format=json", "--", "models")
    assert json.loads(proc.stdout)["type"] == "result"
