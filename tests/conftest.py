"""Shared fixtures: every async test runs on asyncio and on trio (anyio's pytest plugin)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from heavy import heavy_reason
from needs import FULL_EXTRA, need
from pid_log import PidLog

import fake_agent
from agent_sdk import AgentOptions

pytest_plugins = ["anyio"]

REPO = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    import signal

    # A shell without job control starts a background job (`pytest ... &`, a CI step run
    # so) with Ctrl-C and SIGQUIT ignored, and every process the tests start inherits
    # that: run_sync's interruptions, and Ray's cancellation of a task (a SIGINT to its
    # worker), would then test a program whose user cannot press Ctrl-C. The tests run
    # as a program a person started: Python's own handler (pytest-xdist's processes too).
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line(
        "markers",
        "heavy: run by CI (pytest -m heavy, with the test-full extra), not by the README's "
        "test command: tests/heavy.py says which and why",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        on_ray = "cluster" in getattr(item, "fixturenames", ())  # a fleet's Ray backend
        if on_ray or heavy_reason(item.path.relative_to(REPO).as_posix()) is not None:
            item.add_marker(pytest.mark.heavy)


_UNRUN: list[str] = []


def _skipped_for_a_part(report: pytest.CollectReport | pytest.TestReport) -> bool:
    return report.skipped and FULL_EXTRA in str(report.longrepr)


def _note_unrun(report: pytest.CollectReport | pytest.TestReport) -> None:
    # A test that skips for a part of the test-full extra but is not heavy would run
    # nowhere: CI's lean run has no such part, and its heavy run does not select it.
    path = report.nodeid.split("::")[0]
    marked = "heavy" in getattr(report, "keywords", {})  # a test marked heavy itself
    if path and _skipped_for_a_part(report) and not marked and heavy_reason(path) is None:
        _UNRUN.append(report.nodeid)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    _note_unrun(report)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _note_unrun(report)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _UNRUN and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _UNRUN:
        terminalreporter.section("tests that would run nowhere", red=True)
        for nodeid in sorted(set(_UNRUN)):
            terminalreporter.line(
                f"{nodeid}: skipped for want of a test-full part, but not in HEAVY "
                "(tests/heavy.py): CI would never run it"
            )


@pytest.fixture(autouse=True)
def sigint_left_as_found() -> Iterator[None]:
    """A test leaves Ctrl-C's handler as it found it: the process's tests that follow in
    the same worker (run_sync's interruptions) depend on Python's own handler."""
    import signal

    def state() -> tuple[object, bool, bool]:
        # Python's handler, and what the kernel says: blocked in this thread, or ignored
        # (both are inherited by every process the next tests start)
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        ignored = False
        with contextlib.suppress(OSError), open("/proc/self/status") as status:
            for line in status:
                if line.startswith("SigIgn:"):
                    ignored = bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
        return signal.getsignal(signal.SIGINT), blocked, ignored

    before = state()
    yield
    after = state()
    if after != before:
        signal.signal(signal.SIGINT, before[0])  # type: ignore[arg-type]
        if after[1] and not before[1]:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
        pytest.fail(
            f"the test left SIGINT changed (handler, blocked, ignored): {after!r}, was {before!r}"
        )


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def fake_binary() -> str:
    """Path of the bundled fake agent's console script."""
    return fake_agent.executable()


@pytest.fixture
def pid_log(tmp_path: Path) -> Iterator[PidLog]:
    """Where the fake logs the processes it starts (``$FAKE_AGENT_PID_LOG``); whatever a
    test asserts, none of them outlives it."""
    log = PidLog(tmp_path / "pids")
    yield log
    log.end()


@pytest.fixture
def fake_options(fake_binary: str) -> Callable[..., AgentOptions]:
    """``fake_options("tools", force=True)``: options that run the fake on a scenario."""

    def make(scenario: str | Path = "hello", **kwargs: Any) -> AgentOptions:
        env = {"FAKE_AGENT_SCENARIO": str(scenario), **kwargs.pop("env", {})}
        return AgentOptions(binary=fake_binary, env=env, **kwargs)

    return make


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A local Ray instance for a test module (it takes seconds to start; shut down after
    the module, so its processes do not load the rest of the suite): 2 CPUs, no
    dashboard, no usage stats. Its workers run this venv's Python, which has agent_sdk
    installed (editable): they import it and find the fake agent as the tests do."""
    import fcntl
    import tempfile

    saved = os.environ.get("RAY_USAGE_STATS_ENABLED")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = need("ray", "a local Ray instance")  # only the Ray tests ask for this

    # One Ray instance at a time on this machine: the test processes of `pytest -n` each
    # start their own, and two at once on 2 cores starved each other's tasks (a fleet's
    # runs stalled for minutes in CI's heavy run). The lock goes with the process.
    with open(Path(tempfile.gettempdir()) / "agent-sdk-tests-ray.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield
        finally:
            ray.shutdown()
            if saved is None:
                os.environ.pop("RAY_USAGE_STATS_ENABLED", None)
            else:
                os.environ["RAY_USAGE_STATS_ENABLED"] = saved
