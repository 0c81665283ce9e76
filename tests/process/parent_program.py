"""A program with a run in progress, and the CLI it runs: for the tests of what becomes
of the CLI when its parent dies (test_parent_death.py) or forks (test_fork.py).

The tests start this file with ``sys.executable``: ``python parent_program.py DRIVER
CLI WORKDIR``. It runs ``CLI`` (a script of :func:`write_cli`) through ``agent_sdk`` with
one of the ways a program drives a run (``DRIVERS``), or, for ``fork-<backend>``, runs
it in a thread and forks a child that exits normally (its ``atexit`` hooks run) while
the run is live, or, for ``forked-<backend>``, forks a child that outlives it (its pid
in ``WORKDIR/forked``). It prints ``result: <text>`` or ``error: <type>`` at the end, and in
the fork modes ``alive after fork: <bool>`` once the forked child has exited.

The CLI writes its pid to ``WORKDIR/pid`` once it runs, then (``CLI_WAIT``):
``orphaned``: starts a grandchild in its process group (its pid in
``WORKDIR/grandchild``), one in a session of its own (``WORKDIR/session``) and a daemon
double-forked out of its tree (``WORKDIR/daemon``), all written before ``WORKDIR/pid``;
then waits until its parent is gone,
a second more, writes ``WORKDIR/outlived`` (what a CLI that outlives its parent would go
on to do) and lingers; ``go``: waits for ``WORKDIR/go``, then prints its result and
exits 0. It prints the stream-json ``init`` event first, except for the live agent
(``live``: a CLI in ACP mode speaks only when spoken to; the start is left waiting for
the ``initialize`` answer).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import anyio

from agent_sdk import AgentOptions, run, run_sync

HERE = Path(__file__).resolve().parent
GUARD = 60.0  # how long anything here waits before giving up; a bound, not a timing claim

#: The ways a program drives a run: an async run on each backend, ``run_sync`` from a
#: plain script, and ``run_sync`` from a running loop (a private loop in a worker thread).
DRIVERS = ["asyncio", "trio", "run_sync", "run_sync_in_loop"]
#: Every surface that starts a CLI: print mode (each driver), the live agent, a fleet.
SURFACES = [*DRIVERS, "live-asyncio", "live-trio", "fleet-asyncio", "fleet-trio"]

_CLI = """\
#!{python} -I
import json, os, sys, time
workdir, wait = os.environ["CLI_DIR"], os.environ["CLI_WAIT"]
parent = os.getppid()
if "acp" not in sys.argv:
    print(json.dumps({{"type": "system", "subtype": "init", "session_id": "s1"}}), flush=True)
if wait == "orphaned":
    import subprocess
    sleeper = [sys.executable, "-c", "import time; time.sleep({guard})"]
    grandchild = subprocess.Popen(sleeper)
    with open(os.path.join(workdir, "grandchild"), "w") as f:
        f.write(str(grandchild.pid))
    # As the real CLI's shell commands: a session of their own (a pty's, node-pty's setsid).
    session = subprocess.Popen(sleeper, start_new_session=True, stdout=-3, stderr=-3)
    with open(os.path.join(workdir, "session"), "w") as f:
        f.write(str(session.pid))
    # A helper that daemonises: double fork and setsid, out of the tree.
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(os.path.join(workdir, "daemon.tmp"), "w") as f:
                f.write(str(os.getpid()))
            os.rename(os.path.join(workdir, "daemon.tmp"), os.path.join(workdir, "daemon"))
            os.execv(sys.executable, sleeper)
        os._exit(0)
    while not os.path.exists(os.path.join(workdir, "daemon")):
        time.sleep(0.01)
with open(os.path.join(workdir, "pid.tmp"), "w") as f:
    f.write(str(os.getpid()))
os.rename(os.path.join(workdir, "pid.tmp"), os.path.join(workdir, "pid"))
deadline = time.monotonic() + {guard}
if wait == "orphaned":
    while os.getppid() == parent and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(1)
    with open(os.path.join(workdir, "outlived"), "w") as f:
        f.write("parent %d gone, still here" % parent)
    time.sleep({guard})
else:
    while not os.path.exists(os.path.join(workdir, "go")) and time.monotonic() < deadline:
        time.sleep(0.01)
    result = {{"type": "result", "subtype": "success", "is_error": False, "result": "done",
              "session_id": "s1"}}
    print(json.dumps(result), flush=True)
"""


def write_cli(directory: Path) -> Path:
    """An executable stand-in for the CLI (see the module), written into ``directory``."""
    path = directory / "cli.py"
    path.write_text(_CLI.format(python=sys.executable, guard=GUARD))
    path.chmod(0o755)
    return path


def start_parent(driver: str, directory: Path, wait: str) -> tuple[subprocess.Popen[str], int]:
    """This program, started with ``driver``; and the pid of its CLI, once that runs."""
    from fake_env import fake_env

    cli = write_cli(directory)
    env = fake_env(CLI_DIR=str(directory), CLI_WAIT=wait)
    parent = subprocess.Popen(
        [sys.executable, str(HERE / "parent_program.py"), driver, str(cli), str(directory)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    pid_file = directory / "pid"
    deadline = time.monotonic() + GUARD
    while not pid_file.exists():
        if parent.poll() is not None or time.monotonic() > deadline:
            parent.kill()
            raise AssertionError(f"the CLI never started: {parent.communicate()[0]!r}")
        time.sleep(0.01)
    return parent, int(pid_file.read_text())


# --- the program ---------------------------------------------------------------------
async def _stream(options: AgentOptions) -> str:
    events = run("go", options=options)
    async with events:
        async for _ in events:
            pass
    return events.result.result


async def _live(options: AgentOptions) -> str:
    from agent_sdk.live import LiveAgent

    async with LiveAgent(options=options, request_timeout=GUARD) as agent:
        return repr(agent)


async def _fleet(options: AgentOptions) -> str:
    from agent_sdk.fleet import Fleet, Task

    async with Fleet([Task(prompt="go", options=options)]) as fleet:
        return " ".join([type(outcome).__name__ async for outcome in fleet])


def _drive(driver: str, options: AgentOptions) -> str:
    surface, _, backend = driver.partition("-")
    if surface in ("live", "fleet"):
        return anyio.run(_live if surface == "live" else _fleet, options, backend=backend)
    if driver == "run_sync":
        return run_sync("go", options=options).result
    if driver == "run_sync_in_loop":

        async def in_a_loop() -> str:
            return run_sync("go", options=options).result

        return anyio.run(in_a_loop, backend="asyncio")
    return anyio.run(_stream, options, backend=driver)


def _report(driver: str, options: AgentOptions) -> None:
    try:
        print(f"result: {_drive(driver, options)}", flush=True)
    except Exception as exc:
        print(f"error: {type(exc).__name__}: {exc}", flush=True)


def _fork_while_running(backend: str, options: AgentOptions, workdir: Path) -> None:
    import threading

    runner = threading.Thread(target=_report, args=(backend, options))
    runner.start()
    pid_file = workdir / "pid"
    deadline = time.monotonic() + GUARD
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    cli = int(pid_file.read_text())
    if os.fork() == 0:
        sys.exit(0)  # a normal exit: the atexit hooks inherited from the parent run
    os.wait()
    print(f"alive after fork: {_running(cli)}", flush=True)
    (workdir / "go").touch()
    runner.join()


def _fork_and_linger(backend: str, options: AgentOptions, workdir: Path) -> None:
    import threading

    threading.Thread(target=_report, args=(backend, options), daemon=True).start()
    _wait_for(workdir / "pid")
    if os.fork() == 0:  # a child that outlives its parent, holding what it inherited
        with open(workdir / "forked.tmp", "w") as f:
            f.write(str(os.getpid()))
        os.rename(workdir / "forked.tmp", workdir / "forked")
        time.sleep(GUARD)
        os._exit(0)
    time.sleep(GUARD)


def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + GUARD
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def main() -> None:
    driver, cli, workdir = sys.argv[1:4]
    options = AgentOptions(binary=cli, env={"CLI_DIR": workdir})
    if driver.startswith("forked-"):
        _fork_and_linger(driver.removeprefix("forked-"), options, Path(workdir))
    elif driver.startswith("fork-"):
        _fork_while_running(driver.removeprefix("fork-"), options, Path(workdir))
    else:
        _report(driver, options)


if __name__ == "__main__":
    main()
