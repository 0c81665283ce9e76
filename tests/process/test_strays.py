"""The nets that catch what a run started outside its process group (``_transport/strays``,
docs/lifecycle.md, "Everything the CLI starts"), on real processes.

Each test starts processes as the real CLI leaves them: a command leading a session of its
own, a daemon double-forked out of the tree; with a run's mark in their environment, or
without one (the user's own), and checks which of them a sweep or a tree ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from proctable import is_running, settles

from agent_sdk._transport import strays
from agent_sdk._transport.sweep_memory import SweepMemory

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

WITHIN = 5.0  # a bound on the kernel's delivery of SIGKILL, not a claim of speed

#: Double-forks a sleeper out of the tree (setsid), writes its pid, and exits.
DAEMON = """
import os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[1], "w") as f:
            f.write(str(os.getpid()))
        os.execvp("sleep", ["sleep", "300"])
    os._exit(0)
"""


@pytest.fixture
def started() -> Iterator[list[int]]:
    """Pids a test started; whatever it asserts, none outlives it."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def marked_env(value: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != strays.VARIABLE}
    if value is not None:
        env[strays.VARIABLE] = value
    return env


#: Starts a sleeper leading a session of its own, prints its pid, and exits.
SESSION = """
import subprocess
print(subprocess.Popen(["sleep", "300"], start_new_session=True, stdout=-3, stderr=-3).pid)
"""


def in_own_session(value: str | None, started: list[int]) -> int:
    """``sleep`` leading a session of its own (a pty command of the real CLI), its
    parent gone (as under a CLI that exited): not this test's child to reap."""
    out = subprocess.run(
        [sys.executable, "-c", SESSION], env=marked_env(value), check=True, capture_output=True
    )
    pid = int(out.stdout)
    started.append(pid)
    return pid


def daemon(value: str | None, tmp_path: Path, started: list[int]) -> int:
    """A sleeper double-forked out of the tree, re-parented to init or a subreaper."""
    where = tmp_path / f"daemon-{len(started)}"
    subprocess.run([sys.executable, "-c", DAEMON, str(where)], env=marked_env(value), check=True)
    assert settles(lambda: where.exists() and where.read_text() != "", within=WITHIN)
    pid = int(where.read_text())
    started.append(pid)
    return pid


def test_a_sweep_ends_a_marked_process_in_a_session_of_its_own(started: list[int]) -> None:
    pid = in_own_session("p1.1", started)
    assert settles(lambda: strays.carries(pid, strays.run_mark("p1.1")), within=WITHIN)
    assert strays.sweep(strays.run_mark("p1.1")) == 1
    assert settles(lambda: not is_running(pid), within=WITHIN)


def test_a_sweep_ends_a_marked_daemon_that_left_the_tree(
    started: list[int], tmp_path: Path
) -> None:
    pid = daemon("p1.1", tmp_path, started)
    strays.sweep(strays.run_mark("p1.1"))
    assert settles(lambda: not is_running(pid), within=WITHIN)


def test_a_sweep_spares_processes_without_the_mark(started: list[int], tmp_path: Path) -> None:
    users = in_own_session(None, started)
    users_daemon = daemon(None, tmp_path, started)
    strays.sweep(strays.run_mark("p1.1"))
    assert is_running(users)
    assert is_running(users_daemon)


def test_a_sweep_spares_another_runs_processes(started: list[int]) -> None:
    other_run = in_own_session("p1.2", started)
    other_program = in_own_session("p2.1", started)
    ours = in_own_session("p1.1", started)
    assert settles(lambda: strays.carries(ours, strays.run_mark("p1.1")), within=WITHIN)
    strays.sweep(strays.run_mark("p1.1"))
    assert settles(lambda: not is_running(ours), within=WITHIN)
    assert is_running(other_run)
    assert is_running(other_program)


def test_a_run_mark_is_not_matched_by_a_longer_one(started: list[int]) -> None:
    longer = in_own_session("p1.12", started)
    assert settles(lambda: strays.carries(longer, strays.run_mark("p1.12")), within=WITHIN)
    assert not strays.carries(longer, strays.run_mark("p1.1"))


def test_a_program_sweep_ends_every_run_of_that_program(started: list[int]) -> None:
    runs = [in_own_session("p1.1", started), in_own_session("p1.2", started)]
    other_program = in_own_session("p10.1", started)
    assert settles(
        lambda: all(
            strays.carries(p, strays.run_mark(v))
            for p, v in zip(runs, ["p1.1", "p1.2"], strict=False)
        ),
        within=WITHIN,
    )
    strays.sweep(strays.program_mark("p1"))
    assert settles(lambda: not any(is_running(pid) for pid in runs), within=WITHIN)
    assert is_running(other_program)


def test_a_sweep_after_a_pid_reads_only_the_pids_given_out_since(started: list[int]) -> None:
    before = in_own_session("p1.1", started)
    marker = subprocess.Popen(["true"])
    marker.wait()
    after = in_own_session("p1.1", started)
    assert settles(lambda: strays.carries(after, strays.run_mark("p1.1")), within=WITHIN)
    strays.sweep(strays.run_mark("p1.1"), after=marker.pid)
    assert settles(lambda: not is_running(after), within=WITHIN)
    assert is_running(before)


def test_a_tree_holds_the_descendants_of_a_live_process(started: list[int]) -> None:
    parent = subprocess.Popen(
        ["sh", "-c", "sleep 300 & sleep 300 & wait"], start_new_session=True, env=marked_env(None)
    )
    started.append(parent.pid)
    assert settles(lambda: len(strays.descendants(parent.pid)) == 2, within=WITHIN)
    children = strays.descendants(parent.pid)
    started.extend(children)
    tree = strays.Tree(parent.pid)
    try:
        tree.signal(signal.SIGKILL)
    finally:
        tree.close()
    assert settles(lambda: not any(is_running(pid) for pid in children), within=WITHIN)
    assert is_running(parent.pid)
    parent.kill()
    parent.wait()


def test_since_pid_falls_back_to_every_process_when_the_counter_could_wrap() -> None:
    span = 32768 - 300
    assert strays.since_pid(1234, 0.001, span) == 1234
    assert strays.since_pid(1234, 3600.0, span) is None
    assert strays.since_pid(1234, 0.001, None) is None


#: Leads a session of its own without the mark, prints its pid, then, once told, execs
#: ``sleep`` with the mark (as our spawn's child does between its fork and its exec).
MARKED_BY_EXEC = """
import os, sys
os.setsid()
print(os.getpid(), flush=True)
sys.stdin.readline()
os.execve("/bin/sleep", ["sleep", "300"], {**os.environ, "AGENT_SDK_RUN": "p1.1"})
"""


@pytest.fixture
def memory(monkeypatch: pytest.MonkeyPatch) -> SweepMemory:
    """A sweep memory whose reads stay valid for the whole test (a slow pid counter, so
    that a loaded machine's pauses between two sweeps do not start a new epoch)."""
    monkeypatch.setattr(strays, "PIDS_PER_CPU_SECOND", 1)
    return SweepMemory()


def test_a_process_read_by_an_earlier_sweep_is_not_read_again(
    started: list[int], memory: SweepMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = in_own_session(None, started)
    strays.sweep(strays.run_mark("p1.1"), memory=memory)
    read: list[int] = []
    environ = strays._environ

    def reading(pid: int) -> bytes | None:
        read.append(pid)
        return environ(pid)

    monkeypatch.setattr(strays, "_environ", reading)
    newer = in_own_session(None, started)
    strays.sweep(strays.run_mark("p1.2"), memory=memory)
    assert newer in read  # started since: its pid may be one given out again
    assert users not in read


def test_a_process_of_the_run_read_by_an_earlier_sweep_is_still_ended(
    started: list[int], memory: SweepMemory
) -> None:
    ours = in_own_session("p1.1", started)
    assert settles(lambda: strays.carries(ours, strays.run_mark("p1.1")), within=WITHIN)
    strays.sweep(strays.run_mark("p1.2"), memory=memory)  # reads it: another run's
    assert strays.sweep(strays.run_mark("p1.1"), memory=memory) == 1
    assert settles(lambda: not is_running(ours), within=WITHIN)


def test_a_cli_read_before_its_exec_is_found_once_its_start_is_told(
    started: list[int], memory: SweepMemory
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", MARKED_BY_EXEC],
        env=marked_env(None),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    started.append(child.pid)
    assert child.stdin is not None
    assert child.stdout is not None
    with child.stdin, child.stdout:
        assert int(child.stdout.readline()) == child.pid
        strays.sweep(strays.run_mark("p1.1"), memory=memory)  # reads it without the mark
        child.stdin.write(b"exec\n")
        child.stdin.flush()
    assert settles(lambda: strays.carries(child.pid, strays.run_mark("p1.1")), within=WITHIN)
    memory.started(child.pid)  # what groups.track says of every CLI spawn starts
    assert strays.sweep(strays.run_mark("p1.1"), memory=memory) == 1
    assert settles(lambda: child.poll() == -signal.SIGKILL, within=WITHIN)


class Counter:
    """The kernel's pid counter, as a test moves it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.last = 1000
        monkeypatch.setattr(strays, "last_pid", lambda: self.last)
        monkeypatch.setattr(strays, "pid_span", lambda: 32768 - 300)


def read_once(memory: SweepMemory, pid: int) -> None:
    memory.keep(pid, b"", memory.observe())


def test_a_pid_the_counter_has_not_come_back_to_is_remembered(
    memory: SweepMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = Counter(monkeypatch)
    read_once(memory, 500)
    counter.last = 30000
    assert memory.mark(500, memory.observe()) == b""


def test_a_pid_the_counter_came_round_to_is_read_again(
    memory: SweepMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = Counter(monkeypatch)
    read_once(memory, 500)
    counter.last = 32000
    memory.observe()
    counter.last = 600  # wrapped: 500 may have been given out again
    assert memory.mark(500, memory.observe()) is None


def test_after_a_full_round_of_the_counter_nothing_is_remembered(
    memory: SweepMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = Counter(monkeypatch)
    read_once(memory, 500)
    for last in (20000, 32000, 400, 990):  # 990: just short of where it was read
        counter.last = last
        memory.observe()
    assert memory.mark(500, memory.observe()) is None


def test_a_pause_longer_than_the_counter_could_wrap_in_forgets_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    Counter(monkeypatch)
    monkeypatch.setattr(strays, "PIDS_PER_CPU_SECOND", 10**12)  # any pause is too long
    memory = SweepMemory()
    read_once(memory, 500)
    assert memory.mark(500, memory.observe()) is None


def test_a_cleared_memory_remembers_nothing(
    memory: SweepMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    Counter(monkeypatch)
    read_once(memory, 500)
    memory.clear()
    assert memory.mark(500, memory.observe()) is None
