"""``run_sync`` from a plain script runs with no event loop (docs/lifecycle.md, "run_sync
without an event loop"): the same rules as ``run()``, kept by the same :class:`Run` over a
transport that blocks in ``poll``. Each fault mode of the fake agent, the deadlines and the
start errors, checked against the process table, in the test's main thread as a script's.
"""

from __future__ import annotations

import errno
import gc
import re
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from proctable import children, is_running, open_fds, settles

from agent_sdk import (
    AgentNotFoundError,
    AgentOptions,
    AgentProcessError,
    AgentStartError,
    AgentTimeoutError,
    AssistantEvent,
    ResultEvent,
    run_sync,
)
from agent_sdk._transport.blocking import BlockingClock, _interrupt_deferred

MakeOptions = Callable[..., AgentOptions]
LONG_PROMPT = "Refactor this:\n" + "x = 1\n" * 40_000  # 240 kB: written to stdin
# A guard so that a regression fails the test instead of hanging CI; not a timing claim.
HANG_GUARD = 30


class Hung(Exception):
    pass


@pytest.fixture(autouse=True)
def hang_guard() -> Iterator[None]:
    def hung(signum: int, frame: FrameType | None) -> None:
        raise Hung(f"still waiting after {HANG_GUARD} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def no_cli_left() -> bool:
    """No child of the test process is left (the CLI is its child while it runs)."""
    return settles(lambda: children() == [])


# --- deadlines --------------------------------------------------------------------------
def test_timeout_ends_a_stalled_run_and_keeps_what_it_received(
    fake_options: MakeOptions,
) -> None:
    with pytest.raises(AgentTimeoutError, match=r"AgentOptions\.timeout") as info:
        run_sync("go", options=fake_options("stall", timeout=1))
    assert any(isinstance(e, AssistantEvent) for e in info.value.events)
    assert info.value.session_id is not None
    assert no_cli_left()


def test_idle_timeout_ends_a_run_that_prints_nothing(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentTimeoutError, match="idle_timeout"):
        run_sync("go", options=fake_options("stall", idle_timeout=0.5))
    assert no_cli_left()


def test_hang_after_result_succeeds_and_ends_the_lingering_group(
    fake_options: MakeOptions,
) -> None:
    result = run_sync("go", options=fake_options("hang_after_result", result_grace=0.3))
    assert result.result
    match = re.search(r"lingering child (\d+)", result.stderr)
    assert match is not None
    assert settles(lambda: not is_running(int(match[1])))
    assert no_cli_left()


def test_a_timeout_while_a_long_prompt_is_written_ends_the_cli(
    fake_options: MakeOptions,
) -> None:
    options = fake_options("hello", env={"FAKE_AGENT_STDIN_DELAY": "30"}, timeout=0.5)
    with pytest.raises(AgentTimeoutError, match="timeout"):
        run_sync(LONG_PROMPT, options=options)
    assert no_cli_left()


def test_a_long_prompt_read_slowly_still_arrives_whole(fake_options: MakeOptions) -> None:
    options = fake_options("hello", env={"FAKE_AGENT_STDIN_DELAY": "0.3"})
    result = run_sync(LONG_PROMPT, options=options)
    echoed = [e for e in result.events if e.type == "user"]
    assert echoed[0].text == LONG_PROMPT  # type: ignore[union-attr]


def test_a_cli_that_ignores_sigterm_is_killed(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentTimeoutError):
        run_sync("go", options=fake_options("ignore_sigterm", timeout=1))
    assert no_cli_left()


def test_a_cli_that_exits_while_its_child_holds_stdout_ends_after_the_grace(
    fake_options: MakeOptions,
) -> None:
    options = fake_options("exit_leaving_child", result_grace=0.5, idle_timeout=30)
    with pytest.raises(AgentProcessError) as info:
        run_sync("go", options=options)
    assert info.value.exit_code == 1
    match = re.search(r"left child (\d+)", info.value.stderr)
    assert match is not None
    assert settles(lambda: not is_running(int(match[1])))
    assert no_cli_left()


# --- crashes, signals, floods -----------------------------------------------------------
def test_killed_cli_raises_naming_the_signal_after_its_events(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentProcessError, match="killed by signal SIGKILL") as info:
        run_sync("go", options=fake_options("killed"))
    assert info.value.exit_code == -signal.SIGKILL
    assert info.value.events != []
    assert no_cli_left()


def test_crash_mid_stream_keeps_events_and_the_cut_line(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentProcessError) as info:
        run_sync("go", options=fake_options("crash_mid_stream"))
    assert info.value.exit_code == 1
    assert info.value.events != []
    assert any(line.startswith("{") for line in info.value.stdout_lines)
    assert info.value.stderr.strip()


def test_stderr_flood_neither_blocks_nor_grows_memory(fake_options: MakeOptions) -> None:
    result = run_sync("go", options=fake_options("stderr_flood"))
    assert isinstance(result.events[-1], ResultEvent)
    assert 0 < len(result.stderr) <= 64 * 1024


def test_one_byte_at_a_time_drip_gives_the_same_run(fake_options: MakeOptions) -> None:
    dripped = run_sync("go", options=fake_options("slow_drip"))
    plain = run_sync("go", options=fake_options("hello"))
    assert dripped.result == plain.result
    assert [type(e) for e in dripped.events] == [type(e) for e in plain.events]


def test_a_run_in_a_worker_thread_runs_the_same(fake_options: MakeOptions) -> None:
    results: list[str] = []
    worker = threading.Thread(
        target=lambda: results.append(run_sync("go", options=fake_options("tools")).result)
    )
    worker.start()
    worker.join(HANG_GUARD)
    assert results == [run_sync("go", options=fake_options("tools")).result]


# --- start errors -----------------------------------------------------------------------
def test_a_missing_binary_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(AgentNotFoundError) as info:
        run_sync("hi", options=AgentOptions(binary=tmp_path / "cursor-agent"))
    assert info.value.hint


def test_a_missing_cwd_says_so(fake_options: MakeOptions, tmp_path: Path) -> None:
    with pytest.raises(AgentStartError, match="does not exist") as info:
        run_sync("hi", options=fake_options(cwd=tmp_path / "nope"))
    assert not isinstance(info.value, AgentNotFoundError)


def test_a_command_line_too_long_for_the_os(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentStartError, match="too long") as info:
        run_sync("hi", options=fake_options(extra_args=["--x=" + "y" * 200_000]))
    assert not isinstance(info.value, AgentNotFoundError)


def test_a_binary_of_the_wrong_format(tmp_path: Path) -> None:
    binary = tmp_path / "cursor-agent"
    binary.write_bytes(b"\x7fELF-but-not-really\x00\x01\x02")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(AgentStartError, match="exec format error"):
        run_sync("hi", options=AgentOptions(binary=binary))


def test_a_failed_start_leaves_no_descriptor_open(fake_options: MakeOptions) -> None:
    run_sync("warm-up", options=fake_options())
    gc.collect()
    before = open_fds()
    with pytest.raises(AgentStartError):
        run_sync("hi", options=fake_options(extra_args=["--x=" + "y" * 200_000]))
    gc.collect()
    assert open_fds() == before


# --- the pieces -------------------------------------------------------------------------
def test_an_expired_deadline_is_caught_by_its_own_scope_only() -> None:
    clock = BlockingClock()
    with clock.move_on_after(60) as outer:
        with clock.move_on_after(0) as inner:
            clock.check()
        clock.check()  # the outer one has time left
    assert inner.cancelled_caught
    assert not outer.cancelled_caught


def test_an_outer_deadline_ends_the_scopes_within_it() -> None:
    clock = BlockingClock()
    with clock.move_on_after(0) as outer:
        with clock.move_on_after(60) as inner:
            clock.check()
        pytest.fail("the inner scope went on")  # pragma: no cover
    assert outer.cancelled_caught
    assert not inner.cancelled_caught


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_a_start_is_held_until_the_start_is_over() -> None:
    done: list[str] = []
    with pytest.raises(KeyboardInterrupt), _interrupt_deferred():
        signal.raise_signal(signal.SIGINT)
        done.append("started and tracked")
    assert done == ["started and tracked"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_no_errno_escapes_as_an_exit_code(fake_options: MakeOptions, tmp_path: Path) -> None:
    # ENOEXEC, E2BIG and a missing binary are start errors, never an exit 126/127.
    script = tmp_path / "cursor-agent"
    script.write_text("not a program\n")
    script.chmod(0o755)
    with pytest.raises(AgentStartError) as info:
        run_sync("hi", options=AgentOptions(binary=script))
    assert not isinstance(info.value, AgentProcessError)
    assert info.value.__cause__.errno == errno.ENOEXEC  # type: ignore[union-attr]


def test_ctrl_c_held_back_during_the_start_ends_the_cli_once_started(
    fake_options: MakeOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_sdk._transport import blocking

    spawn = blocking.spawn_blocking

    def interrupted_spawn(*args: Any, **kwargs: Any) -> Any:
        popen = spawn(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # held back until the start is over
        return popen

    monkeypatch.setattr(blocking, "spawn_blocking", interrupted_spawn)
    with pytest.raises(KeyboardInterrupt):
        run_sync("go", options=fake_options("stall"))
    assert no_cli_left()
