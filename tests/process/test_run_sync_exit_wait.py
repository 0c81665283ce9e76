"""``run_sync`` without an event loop is woken by the CLI, never by a timer (docs/lifecycle.md,
"run_sync without an event loop"): its output, its stderr, and its exit, which a pidfd in
the same ``poll`` reports on Linux. A wait that looked for the exit every 50 ms made a
tiny ``run_sync`` take 50 ms (docs/benchmarks.md, "run_sync's wait for the exit").

No timing is asserted: each ``poll`` of the blocking transport is recorded, and a wake-up
with nothing ready is a timer's. In these runs no deadline passes, so none is expected,
but for the stderr grace (a grandchild holding stderr after the CLI exited). Without a
pidfd (another OS), the exit is looked for in a short backoff: the same runs, the same
results.
"""

from __future__ import annotations

import select
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType, SimpleNamespace

import pytest
from proctable import children, settles

from agent_sdk import AgentOptions, AgentProcessError, run_sync
from agent_sdk._transport import blocking

HANG_GUARD = 30  # a regression fails instead of hanging CI; not a timing claim

STREAM = (
    '{"type":"system","subtype":"init","session_id":"s"}',
    '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]},'
    '"session_id":"s"}',
    '{"type":"result","subtype":"success","is_error":false,"result":"hi","session_id":"s"}',
)

# The CLI's shape here: quiet a moment before its output (waiting for output), its output,
# stdout closed, alive a moment more (waiting for the exit), then its exit status.
CLI = """#!/bin/sh
sleep 0.2
printf '%s\\n' {lines}
{before_exit}
exec >&-
sleep 0.3
exit {status}
"""


@pytest.fixture(autouse=True)
def hang_guard() -> Iterator[None]:
    def hung(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"still waiting after {HANG_GUARD} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def wakes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each ``poll`` of the blocking transport, whether something was ready."""
    woken: list[bool] = []

    class Poll:
        def __init__(self) -> None:
            self._poll = select.poll()

        def register(self, fd: int, events: int) -> None:
            self._poll.register(fd, events)

        def poll(self, timeout: int | None = None) -> list[tuple[int, int]]:
            ready = self._poll.poll(timeout)
            woken.append(bool(ready))
            return ready

    recording = SimpleNamespace(poll=Poll, POLLIN=select.POLLIN, POLLOUT=select.POLLOUT)
    monkeypatch.setattr(blocking, "select", recording)
    return woken


@pytest.fixture(params=["pidfd", "no pidfd"])
def pidfd(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Both ways of waiting for the exit; ``True`` where a pidfd is used."""
    if request.param == "no pidfd":
        monkeypatch.setattr(blocking, "pidfds", lambda: False)
        return False
    if not sys.platform.startswith("linux"):
        pytest.skip("pidfds are Linux's")
    return True


def cli(tmp_path: Path, *, status: int = 0, before_exit: str = "") -> Callable[[], AgentOptions]:
    script = tmp_path / "cursor-agent"
    lines = " ".join(f"'{line}'" for line in STREAM)
    script.write_text(CLI.format(lines=lines, before_exit=before_exit, status=status))
    script.chmod(0o755)
    return lambda: AgentOptions(binary=script, result_grace=HANG_GUARD)


def test_a_run_is_woken_by_its_output_and_its_exit_never_by_a_timer(
    tmp_path: Path, wakes: list[bool], pidfd: bool
) -> None:
    result = run_sync("hi", options=cli(tmp_path)())
    assert result.result == "hi"
    assert wakes  # it did wait: before the output, and for the exit
    if pidfd:
        assert all(wakes), f"woken by a timer {wakes.count(False)} times"
    assert settles(lambda: children() == [])


def test_the_exit_status_is_the_clis_when_the_exit_wakes_the_wait(
    tmp_path: Path, wakes: list[bool], pidfd: bool
) -> None:
    with pytest.raises(AgentProcessError) as info:
        run_sync("hi", options=cli(tmp_path, status=3)())
    assert info.value.exit_code == 3
    if pidfd:
        assert all(wakes), f"woken by a timer {wakes.count(False)} times"


def test_the_wait_ends_at_the_exit_while_a_grandchild_holds_stderr(
    tmp_path: Path, wakes: list[bool], pidfd: bool
) -> None:
    # The grandchild keeps stderr open (not stdout) for longer than the hang guard: the
    # wait must end with the CLI's exit, then the stderr grace, and the group be ended.
    options = cli(tmp_path, before_exit="sleep 60 >/dev/null &")
    result = run_sync("hi", options=options())
    assert result.result == "hi"
    if pidfd:
        # One timer: the end of the stderr grace after the exit (docs/lifecycle.md).
        assert wakes.count(False) == 1, f"woken by a timer {wakes.count(False)} times"
    assert settles(lambda: children() == [])
