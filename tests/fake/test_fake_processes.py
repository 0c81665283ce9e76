"""The processes the fake starts as the real CLI does (docs/protocol.md §1 "Environment", §5;
fake_agent/scenarios/README.md "Processes"): a shell
command really runs, leading its own session, on a pty that is its controlling terminal
(or on pipes); the fake's exit hangs the pty up; a worker server stays in the fake's group;
a daemon leaves the tree. Real processes, checked in /proc; every one ends with the test
(tests/pid_log.py)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_env import fake_env
from pid_log import PidLog
from proctable import session_members, settles, stat

from fake_agent import SCENARIOS_DIR

WAIT = 60
MARK = "FAKE_PROCESSES_TEST"
#: One line of facts of the shell running the command: its pid, then (/proc) its parent,
#: group, session and terminal; then what ``tty`` says.
FACTS = "echo $$ $(cut -d' ' -f4-7 /proc/$$/stat); tty"


class Place:
    """A workspace and a pid log; runs the fake on a scenario of given steps."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspace = root / "ws"
        self.workspace.mkdir()
        self.log = PidLog(root / "pids")
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, *steps: dict[str, Any]) -> subprocess.Popen[bytes]:
        """The fake playing ``steps`` between hello's first two lines and the rest."""
        hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
        lines = [*hello[:2], *(json.dumps(step) for step in steps), *hello[2:]]
        scenario = self.root / "scenario.ndjson"
        scenario.write_text("\n".join(lines) + "\n", "utf-8")
        return self.play(str(scenario))

    def play(self, scenario: str) -> subprocess.Popen[bytes]:
        """The fake playing ``scenario`` (a name or a path), running, with ``--force``,
        leading its own process group."""
        argv = [sys.executable, "-m", "fake_agent", "-p", "--output-format", "stream-json"]
        argv += ["--trust", "--force", "--workspace", str(self.workspace), "go"]
        env = fake_env(FAKE_AGENT_SCENARIO=scenario, **{MARK: str(self.root)}, **self.log.env())
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        self.started.append(proc)
        return proc

    def run(self, *steps: dict[str, Any]) -> subprocess.CompletedProcess[bytes]:
        """The fake run to its end (its stdout and stderr closed: nothing holds them)."""
        proc = self.start(*steps)
        out, err = proc.communicate(timeout=WAIT)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def end(self) -> None:
        for proc in self.started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=WAIT)
        self.log.end()


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Place]:
    made = Place(tmp_path)
    try:
        yield made
    finally:
        made.end()


def events(out: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.split(b"\n") if line]


def shell_results(out: bytes) -> list[dict[str, Any]]:
    """The results of the shell calls the run completed, in order."""
    return [
        event["tool_call"]["shellToolCall"]["result"]
        for event in events(out)
        if event["type"] == "tool_call" and event["subtype"] == "completed"
    ]


def read_until(fake: subprocess.Popen[bytes], completed: int) -> bytes:
    """The fake's stdout up to its ``completed``-th completed tool call (within WAIT)."""
    assert fake.stdout is not None
    out = b""
    deadline = time.monotonic() + WAIT
    while out.count(b'"subtype":"completed"') < completed:
        ready, _, _ = select.select([fake.stdout], [], [], max(0.0, deadline - time.monotonic()))
        data = os.read(fake.stdout.fileno(), 65536) if ready else b""
        assert data, f"the fake ended or stalled first: {out!r}"
        out += data
    return out


def running(pid: int, program: str) -> bool:
    """Whether a live process of session ``pid`` runs ``program`` (the shell may exec it
    or fork it)."""
    for member in session_members(pid):
        with contextlib.suppress(OSError):
            if Path(f"/proc/{member}/cmdline").read_bytes().split(b"\0")[0] == program.encode():
                return True
    return False


# ----------------------------------------------------------------------------- foreground


def test_a_command_leads_its_own_session_with_the_pty_as_its_terminal(place: Place) -> None:
    done = place.run({"fake": "shell", "command": FACTS + "; echo err >&2"})
    [success] = [result["success"] for result in shell_results(done.stdout)]
    first, terminal, err = success["stdout"].splitlines()
    pid, ppid, pgrp, session, tty_nr = (int(word) for word in first.split())
    assert (pgrp, session) == (pid, pid)
    assert ppid == place.started[0].pid
    assert tty_nr != 0
    assert terminal.startswith("/dev/")
    # One terminal: stderr comes on it too, and "\n" stays "\n".
    assert (err, success["stderr"]) == ("err", "")
    assert success["interleavedOutput"] == success["stdout"]
    assert place.log.read() == [("shell", pid)]
    assert f"fake_agent: started shell {pid}\n" in done.stderr.decode()


def test_without_a_pty_stdout_and_stderr_are_pipes_and_stdin_is_null(place: Place) -> None:
    command = FACTS + "; echo err >&2; readlink /proc/$$/fd/0"
    done = place.run({"fake": "shell", "command": command, "pty": False})
    [success] = [result["success"] for result in shell_results(done.stdout)]
    first, terminal, stdin = success["stdout"].splitlines()
    pid, _, pgrp, session, tty_nr = (int(word) for word in first.split())
    assert (pgrp, session, tty_nr, terminal) == (pid, pid, 0, "not a tty")
    assert (stdin, success["stderr"]) == ("/dev/null", "err\n")
    assert sorted(success["interleavedOutput"].splitlines()) == sorted(
        [first, terminal, "err", stdin]
    )


def test_the_command_runs_in_the_workspace_with_the_clis_variables(place: Place) -> None:
    command = f"pwd; echo ${MARK} $CURSOR_AGENT $CURSOR_INVOKED_AS $CURSOR_CONVERSATION_ID"
    done = place.run({"fake": "shell", "command": command})
    [result] = shell_results(done.stdout)
    session_id = events(done.stdout)[0]["session_id"]
    where, variables = result["success"]["stdout"].splitlines()
    assert where == str(place.workspace.resolve())
    assert variables == f"{place.root} 1 cursor-agent {session_id}"


def test_the_command_does_not_ignore_what_python_ignores(place: Place) -> None:
    # The fake is Python, which ignores SIGPIPE and SIGXFSZ: a command must not inherit that.
    done = place.run({"fake": "shell", "command": "grep SigIgn /proc/$$/status"})
    [result] = shell_results(done.stdout)
    ignored = int(result["success"]["stdout"].split()[1], 16)
    assert [n for n in (signal.SIGPIPE, signal.SIGXFSZ) if ignored & 1 << (n - 1)] == []


def test_exit_codes_and_signals_are_the_commands(place: Place) -> None:
    done = place.run(
        {"fake": "shell", "command": "printf 'a\\nb\\n'; exit 3"},
        {"fake": "shell", "command": "kill -KILL $$"},
    )
    exited, killed = (result["success"] for result in shell_results(done.stdout))
    assert (exited["stdout"], exited["exitCode"], exited["signal"]) == ("a\nb\n", 3, "")
    assert (killed["exitCode"], killed["signal"]) == (128 + signal.SIGKILL, "SIGKILL")
    assert done.returncode == 0


def test_a_foreground_command_holds_the_run_and_the_fakes_death_hangs_it_up(
    place: Place,
) -> None:
    fake = place.start({"fake": "shell", "command": "sleep 3600"})
    [pid] = place.log.wait_for("shell")
    assert settles(lambda: running(pid, "sleep"))
    assert fake.poll() is None  # still in the call
    os.killpg(fake.pid, signal.SIGKILL)
    out, _ = fake.communicate(timeout=WAIT)
    assert [e["subtype"] for e in events(out) if e["type"] == "tool_call"] == ["started"]
    assert settles(lambda: not session_members(pid), within=WAIT)


def test_a_command_ignoring_sighup_outlives_the_fake_when_a_plain_one_does_not(
    place: Place,
) -> None:
    fake = place.start(
        {"fake": "shell", "command": "sleep 3600", "background": True},
        {"fake": "shell", "command": "trap '' HUP; sleep 3600"},
    )
    [plain] = place.log.wait_for("background")
    [ignoring] = place.log.wait_for("shell")
    assert settles(lambda: running(plain, "sleep") and running(ignoring, "sleep"))
    os.killpg(fake.pid, signal.SIGKILL)
    fake.communicate(timeout=WAIT)
    # Both terminals were hung up as the fake died: the plain command goes...
    assert settles(lambda: not session_members(plain), within=WAIT)
    # ...the one ignoring SIGHUP stays (in its session, on its dead terminal).
    assert running(ignoring, "sleep")


# ----------------------------------------------------------------------------- background


def test_a_background_command_completes_the_call_at_once_and_runs_on(place: Place) -> None:
    fake = place.start(
        {"fake": "shell", "command": "sleep 3600", "background": True},
        {"fake": "shell", "command": "echo next"},
        {"fake": "stall"},
    )
    out = read_until(fake, 2)  # the second call ran: the first one's command runs on
    [pid] = place.log.pids("background")
    assert settles(lambda: running(pid, "sleep"))
    facts = stat(pid)
    assert facts is not None
    assert (facts.session, facts.pgrp, facts.ppid) == (pid, pid, fake.pid)
    assert facts.tty_nr != 0
    background, after = shell_results(out)
    assert background["isBackground"] is True
    success = background["success"]
    assert (success["exitCode"], success["stdout"], success["interleavedOutput"]) == (0, "", "")
    assert after["success"]["stdout"] == "next\n"


# ----------------------------------------------------------------------------- helpers


def test_a_worker_server_stays_in_the_fakes_group_without_its_pipes(place: Place) -> None:
    done = place.run({"fake": "worker_server"})  # returns: stdout and stderr were closed
    assert done.returncode == 0
    [pid] = place.log.pids("worker-server")
    facts = stat(pid)
    assert facts is not None
    assert facts.state != "Z"
    fake_pid = place.started[0].pid
    assert (facts.pgrp, facts.session) == (fake_pid, fake_pid)
    assert all(os.readlink(f"/proc/{pid}/fd/{fd}") == os.devnull for fd in (0, 1, 2))
    assert f"fake_agent: started worker-server {pid}\n" in done.stderr.decode()


@pytest.mark.parametrize("scrub", [False, True])
def test_a_daemon_leaves_the_tree(place: Place, scrub: bool) -> None:
    fake = place.start({"fake": "daemon", "scrub_env": scrub}, {"fake": "stall"})
    [pid] = place.log.wait_for("daemon")
    facts = stat(pid)
    assert facts is not None
    assert facts.state != "Z"
    assert facts.ppid != fake.pid  # re-parented while the fake lives
    assert facts.pgrp == facts.session != fake.pid
    assert pid != facts.session  # forked twice: no session leader
    assert stat(facts.session) is None  # the middle process exited
    assert all(os.readlink(f"/proc/{pid}/fd/{fd}") == os.devnull for fd in (0, 1, 2))
    environ = Path(f"/proc/{pid}/environ").read_bytes()
    assert (environ == b"") is scrub
    assert (f"{MARK}={place.root}".encode() in environ.split(b"\0")) is not scrub


def test_every_process_is_logged_with_its_role_in_order(place: Place) -> None:
    done = place.run(
        {"fake": "worker_server"},
        {"fake": "shell", "command": "echo one"},
        {"fake": "shell", "command": "true", "background": True},
        {"fake": "daemon"},
    )
    logged = place.log.read()
    assert [role for role, _ in logged] == ["worker-server", "shell", "background", "daemon"]
    said = [line for line in done.stderr.decode().splitlines() if " started " in line]
    assert said == [f"fake_agent: started {role} {pid}" for role, pid in logged]


# ----------------------------------------------------------------------------- scenarios

#: The bundled scenarios that start processes: what each logs, and whether it holds the
#: run (a foreground command that does not end) or ends with its result.
BUNDLED = {
    "shell_sleep": (["shell"], True),
    "shell_ignoring_hangup": (["shell"], True),
    "background_command": (["background"], False),
    "worker_server": (["worker-server"], False),
    "daemon": (["daemon"], False),
    "daemon_scrubbed_env": (["daemon"], False),
    "left_behind": (["worker-server", "daemon", "background", "background", "shell"], True),
}


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_a_bundled_scenario_starts_its_processes(place: Place, name: str) -> None:
    roles, held = BUNDLED[name]
    fake = place.play(name)
    if held:
        place.log.wait_for(roles[-1])
        assert fake.poll() is None
        os.killpg(fake.pid, signal.SIGKILL)
    out, _ = fake.communicate(timeout=WAIT)
    assert [role for role, _ in place.log.read()] == roles
    assert [e["type"] for e in events(out)][-1] == ("tool_call" if held else "result")
    if not held:
        assert fake.returncode == 0


def test_everything_left_behind_outlives_the_fake(place: Place) -> None:
    fake = place.play("left_behind")
    place.log.wait_for("shell")
    for role, pid in place.log.read():
        if role in ("shell", "background"):
            assert settles(lambda pid=pid: running(pid, "sleep")), role
    fake.kill()  # the fake alone, not its group
    fake.communicate(timeout=WAIT)
    for role, pid in place.log.read():
        if role in ("shell", "background"):
            assert running(pid, "sleep"), role
        else:
            facts = stat(pid)
            assert facts is not None, role
            assert facts.state != "Z", role
