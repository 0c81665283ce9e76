"""A fleet on Ray started by a program that ignores Ctrl-C (a background job: ``program &``
from a shell, whose SIGINT is ignored and stays so in every process it starts, Ray's
workers included). ``ray.cancel`` interrupts a worker as a Ctrl-C does
(``_thread.interrupt_main``), which an ignoring worker never hears: cancelling the fleet
must still end its runs and their CLIs, not wait out the whole ``cancel_grace``."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from needs import need
from proctable import processes_with_env, settles

need("ray", "a local Ray instance")

MARK = "AGENT_SDK_RAY_TEST_MARK"
HANG = "\n".join(
    (
        '{"type":"system","subtype":"init","session_id":"s"}',
        '{"type":"assistant","message":{"role":"assistant","content":'
        '[{"type":"text","text":"working"}]},"session_id":"s"}',
        '{"fake":"hang"}',
    )
)

# The grace is far longer than the test waits: only a cancel the worker hears ends it.
PROGRAM = """
import signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell starts a background job
import anyio, ray
from agent_sdk import AgentOptions
from agent_sdk.fleet import Fleet, RayBackend, Task, TaskEvent

binary, scenario, mark = sys.argv[1:4]
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
env = {"FAKE_AGENT_SCENARIO": scenario, "AGENT_SDK_RAY_TEST_MARK": mark}
options = AgentOptions(binary=binary, env=env)

async def main() -> None:
    streaming = anyio.Event()

    def follow(progress: object) -> None:
        if isinstance(progress, TaskEvent):
            streaming.set()

    backend = RayBackend(num_cpus=0.25, cancel_grace=3600)
    tasks = [Task(prompt="hang", options=options)]
    async with Fleet(tasks, backend=backend, on_progress=follow):
        await streaming.wait()
    print("cancelled", flush=True)

anyio.run(main)
ray.shutdown()
"""


def test_a_fleet_cancelled_in_a_program_that_ignores_ctrl_c_ends_its_clis(
    fake_binary: str, tmp_path: Path
) -> None:
    scenario = tmp_path / "hang.ndjson"
    scenario.write_text(HANG)
    mark = uuid.uuid4().hex
    program = [sys.executable, "-c", PROGRAM, fake_binary, str(scenario), mark]
    # One Ray instance at a time on this machine (the `cluster` fixture's lock).
    with open(Path(tempfile.gettempdir()) / "agent-sdk-tests-ray.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # In a session of its own: Ray's processes go with it if the test must kill it.
        driver = subprocess.Popen(
            program,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
            start_new_session=True,
        )
        try:
            stdout, stderr = driver.communicate(timeout=300)
            gone = settles(lambda: processes_with_env(MARK, mark) == [], within=10)
        except subprocess.TimeoutExpired:
            pytest.fail("the fleet's cancel was never heard: it waited out its cancel_grace")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
            for pid in processes_with_env(MARK, mark):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    assert stdout.strip() == "cancelled", stderr[-3000:]
    assert gone, "a CLI outlived the cancelled fleet"
