"""Nothing the CLI started outlives its run, however the run ends (docs/lifecycle.md,
"Everything the CLI starts").

The fake plays the real CLI's shape (fake_agent/scenarios/README.md, "Processes"): its
``left_behind`` scenario starts a helper that lingers in its process group (the real
``worker-server``), a daemon double-forked out of its tree, two background commands each
leading a session of its own (one on a pty, one not, both deaf to the hang-up), and a
foreground command that holds the run. Every process is logged as it starts
(``$FAKE_AGENT_PID_LOG``); each test ends a run one way and checks that every logged
process is gone, on asyncio and on trio.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest
from pid_log import PidLog
from proctable import is_running, settles, stat

import fake_agent
from agent_sdk import (
    AgentBudgetError,
    AgentOptions,
    AgentProcessError,
    AgentTimeoutError,
    Budget,
    run,
    run_async,
    run_sync,
)

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

WITHIN = 10.0  # a bound on the kernel's delivery of SIGKILL, not a claim of speed
SCENARIOS = Path(fake_agent.__file__).resolve().parent / "scenarios"
#: What ``left_behind`` starts before its foreground command (held: that command too).
LEFT = {"worker-server": 1, "daemon": 1, "background": 2}
HELD = {**LEFT, "shell": 1}


def left_behind(tmp_path: Path, ending: str) -> Path:
    """``left_behind``, ending ``"held"`` (as bundled: the foreground command holds the
    run), ``"success"`` (without it: the result at once) or ``"failure"`` (without it and
    without the result: exit 1)."""
    lines = (SCENARIOS / "left_behind.ndjson").read_text().splitlines()
    if ending != "held":
        lines = [line for line in lines if not _foreground(json.loads(line))]
    if ending == "failure":
        lines = [line for line in lines if json.loads(line).get("type") != "result"]
        lines.append(json.dumps({"fake": "exit", "code": 1}))
    path = tmp_path / f"left_behind_{ending}.ndjson"
    path.write_text("\n".join(lines) + "\n")
    return path


def _foreground(line: dict[str, object]) -> bool:
    return line.get("fake") == "shell" and not line.get("background", False)


@pytest.fixture
def options_for(
    fake_options: Callable[..., AgentOptions], pid_log: PidLog, tmp_path: Path
) -> Callable[..., AgentOptions]:
    """``options_for("held", timeout=3)``: options that run ``left_behind`` so ending."""

    def make(ending: str, **kwargs: object) -> AgentOptions:
        scenario = left_behind(tmp_path, ending)
        return fake_options(scenario, force=True, env=pid_log.env(), **kwargs)

    return make


def started(log: PidLog, roles: dict[str, int]) -> list[int]:
    """Every pid the run logged, once it has logged ``roles`` (how many of each)."""
    for role, count in roles.items():
        log.wait_for(role, count)
    return [pid for _, pid in log.read()]


def all_gone(log: PidLog, roles: dict[str, int]) -> bool:
    pids = started(log, roles)
    gone = settles(lambda: not any(is_running(pid) for pid in pids), within=WITHIN)
    if not gone:  # what is left, in the failure's words
        left = [(role, pid, stat(pid)) for role, pid in log.read() if is_running(pid)]
        print(f"still running: {left}")
    return gone


def logged_all(log: PidLog, roles: dict[str, int]) -> bool:
    return all(len(log.pids(role)) >= count for role, count in roles.items())


async def until_logged(log: PidLog, roles: dict[str, int]) -> None:
    # A file another process writes: nothing to wait on but the next look.
    while not logged_all(log, roles):  # noqa: ASYNC110
        await anyio.sleep(0.01)


# --- runs that end by themselves -----------------------------------------------------
@pytest.mark.anyio
async def test_a_successful_run_ends_what_it_left_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    result = await run_async("go", options=options_for("success"))
    assert result.result.endswith("The logs are quiet.")
    assert all_gone(pid_log, LEFT)


def test_run_sync_ends_what_it_left_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    run_sync("go", options=options_for("success"))  # no loop here: the blocking transport
    assert all_gone(pid_log, LEFT)


@pytest.mark.anyio
async def test_a_failed_run_ends_what_it_left_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    with pytest.raises(AgentProcessError):
        await run_async("go", options=options_for("failure"))
    assert all_gone(pid_log, LEFT)


# --- runs ended by their limits --------------------------------------------------------
@pytest.mark.anyio
async def test_a_timeout_ends_a_command_still_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    with pytest.raises(AgentTimeoutError):
        await run_async("go", options=options_for("held", timeout=4.0))
    assert all_gone(pid_log, HELD)


@pytest.mark.anyio
async def test_an_idle_timeout_ends_a_command_still_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    with pytest.raises(AgentTimeoutError):
        await run_async("go", options=options_for("held", idle_timeout=3.0))
    assert all_gone(pid_log, HELD)


@pytest.mark.anyio
async def test_a_budget_stop_ends_what_the_run_started(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    # Two background commands are within the limit; the foreground one is over it.
    options = options_for("held", budget=Budget(tool_calls=2))
    with pytest.raises(AgentBudgetError):
        await run_async("go", options=options)
    assert all_gone(pid_log, LEFT)


# --- runs ended by their caller --------------------------------------------------------
@pytest.mark.anyio
async def test_a_cancelled_run_ends_a_command_still_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(functools.partial(run_async, "go", options=options_for("held")))
        await until_logged(pid_log, HELD)
        tg.cancel_scope.cancel()
    assert all_gone(pid_log, HELD)


@pytest.mark.anyio
async def test_leaving_async_with_early_ends_a_command_still_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    async with run("go", options=options_for("held")) as events:
        async for _ in events:
            break
        await until_logged(pid_log, HELD)
    assert all_gone(pid_log, HELD)


@pytest.mark.anyio
async def test_aclose_from_another_task_ends_a_command_still_running(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    events = run("go", options=options_for("held"))

    async def consume() -> None:
        async for _ in events:
            pass

    async with anyio.create_task_group() as tg:
        tg.start_soon(consume)
        await until_logged(pid_log, HELD)
        await events.aclose()
    assert all_gone(pid_log, HELD)


@pytest.mark.anyio
async def test_leaving_a_fleet_early_ends_its_runs_commands(
    options_for: Callable[..., AgentOptions], pid_log: PidLog
) -> None:
    from agent_sdk.fleet import Fleet, Task

    async with Fleet([Task(prompt="go", options=options_for("held"))]):
        await until_logged(pid_log, HELD)
    assert all_gone(pid_log, HELD)


# --- two runs at once ------------------------------------------------------------------
@pytest.fixture
def users_process() -> Iterator[subprocess.Popen[bytes]]:
    """A process the user started outside the SDK, in a session of its own."""
    users = subprocess.Popen(["sleep", "300"], start_new_session=True)
    yield users
    users.kill()
    users.wait()


@pytest.mark.anyio
async def test_ending_one_run_spares_another_runs_processes_and_the_users(
    fake_options: Callable[..., AgentOptions],
    tmp_path: Path,
    users_process: subprocess.Popen[bytes],
) -> None:
    logs = [PidLog(tmp_path / "first"), PidLog(tmp_path / "second")]
    scenario = left_behind(tmp_path, "held")
    users = users_process
    try:
        first, second = (
            run("go", options=fake_options(scenario, force=True, env=log.env())) for log in logs
        )
        async with first, second:
            async for _ in first:
                break
            async for _ in second:
                break
            await until_logged(logs[0], HELD)
            await until_logged(logs[1], HELD)
            await first.aclose()
            assert all_gone(logs[0], HELD)
            assert all(is_running(pid) for _, pid in logs[1].read())
            assert users.poll() is None
        assert all_gone(logs[1], HELD)
        assert users.poll() is None
    finally:
        for log in logs:
            log.end()


# --- the program's exit ----------------------------------------------------------------
#: A program that leaves a run going in a thread and exits normally: the exit-time kill.
EXITING = """
import sys, threading, time
from pathlib import Path
from agent_sdk import AgentOptions, run_sync
binary, scenario, log = sys.argv[1:4]
env = {"FAKE_AGENT_SCENARIO": scenario, "FAKE_AGENT_PID_LOG": log}
options = AgentOptions(binary=binary, force=True, env=env)
threading.Thread(target=run_sync, args=("go",), kwargs={"options": options}, daemon=True).start()
while not (Path(log).exists() and "shell" in Path(log).read_text()):
    time.sleep(0.01)
sys.exit(0)
"""


def test_the_programs_exit_ends_a_runs_commands(
    fake_binary: str, pid_log: PidLog, tmp_path: Path
) -> None:
    from fake_env import fake_env

    scenario = left_behind(tmp_path, "held")
    program = [sys.executable, "-c", EXITING, fake_binary, str(scenario), str(pid_log.path)]
    done = subprocess.run(program, env=fake_env(), timeout=120, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert all_gone(pid_log, HELD)


#: The same with a tool of its own: the run's HOME or plugin folder, config dir and socket
#: dir (in the program's temp dir) go at the exit too, once the CLI's group is dead.
EXITING_WITH_TOOLS = """
import sys, tempfile, threading, time
from pathlib import Path
tempfile.tempdir = sys.argv[4]
from agent_sdk import AgentOptions, run_sync
from agent_sdk.extend import tool

@tool
def lookup_issue(number: int) -> str:
    '''Look up an issue.'''
    return "Issue 26"

binary, scenario, log = sys.argv[1:4]
env = {"FAKE_AGENT_SCENARIO": scenario, "FAKE_AGENT_PID_LOG": log}
options = AgentOptions(binary=binary, force=True, env=env, tools=[lookup_issue])
ended = []

def go():
    try:
        run_sync("go", options=options)
    except BaseException as exc:
        ended.append(exc)
    ended.append(None)

threading.Thread(target=go, daemon=True).start()
while not (Path(log).exists() and "shell" in Path(log).read_text()):
    if ended:
        sys.exit(f"the run ended before its command started: {ended[0]!r}")
    time.sleep(0.01)
assert list(Path(sys.argv[4]).iterdir()), "the run made its dirs"
sys.exit(0)
"""


def test_the_programs_exit_removes_what_a_run_with_tools_made(
    fake_binary: str, pid_log: PidLog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from extend_env import left_behind as ours_in
    from extend_env import short_temp_dir
    from fake_env import fake_env

    scenario = left_behind(tmp_path, "held")
    # Short: the run's tools socket is in it (a Unix socket's path is limited).
    with short_temp_dir(monkeypatch, "exit-") as temp:
        program = [
            *(sys.executable, "-c", EXITING_WITH_TOOLS, fake_binary),
            *(str(scenario), str(pid_log.path), str(temp)),
        ]
        done = subprocess.run(program, env=fake_env(), timeout=120, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert all_gone(pid_log, HELD)
        assert ours_in(temp) == []
