"""The processes the fake starts, as the real CLI starts them (docs/protocol.md §1
"Environment", §5: each shell command leads a process group of its own, helpers linger in
the CLI's group or leave its tree).

* A **shell command** (:func:`start_command`) is ``/bin/sh -c <command>`` in the
  workspace, leading a session (and so a process group) of its own, by default on a
  pseudo-terminal that is its controlling terminal (the real CLI runs each command through
  node-pty, which calls ``setsid``). Its environment is the fake's plus ``CURSOR_AGENT``,
  ``CURSOR_INVOKED_AS`` and ``CURSOR_CONVERSATION_ID`` (§1). The fake holds the pty's master
  while the command runs: when the fake exits, the kernel hangs the terminal up, which
  ends a command that does not ignore SIGHUP and spares one that does (or that left the
  session). The fake never ends a command itself: the real CLI does not.
* A **worker server** (:func:`start_worker_server`) sleeps for an hour in the fake's own
  process group, as the real CLI's ``worker-server`` lingers for minutes; its stdio is
  ``/dev/null``, so it keeps no pipe of the fake's parent open.
* A **daemon** (:func:`start_daemon`) leaves the process tree: a middle process calls
  ``setsid``, forks the daemon and exits at once, so the daemon (stdio on ``/dev/null``)
  is re-parented to init or a subreaper; optionally with an empty environment.

Every process is announced on stderr (``fake_agent: started <role> <pid>``) and, when
``$FAKE_AGENT_PID_LOG`` names a file, appended there as ``<role> <pid>`` the moment it
exists. Nothing runs Python code between ``fork`` and ``exec`` in the fake itself (the ACP
fake has threads): a small ``python -c`` program started by ``posix_spawn`` does what
``posix_spawn`` cannot (take the controlling terminal, change directory, fork again).
"""

from __future__ import annotations

import enum
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

from ._wire import write_stderr

#: Env var: a file that gets one line ``<role> <pid>`` per process the fake starts.
PID_LOG_ENV = "FAKE_AGENT_PID_LOG"

#: What a worker server and a daemon run: an hour's sleep (its last argv word, the role,
#: names it in ``ps``).
SLEEP_CODE = "import time; time.sleep(3600)"

#: Run first in the command's new session, then replaced by the shell (same pid; the
#: real CLI uses the user's shell, ``/bin/sh`` is everywhere): argv is cwd, "pty" or
#: "pipes", the command.
_SESSION_CODE = """\
import fcntl, os, signal, sys, termios
cwd, mode, command = sys.argv[1:4]
# Python ignores these at start-up, and an ignored signal stays ignored across exec.
for name in ("SIGPIPE", "SIGXFSZ"):
    signal.signal(getattr(signal, name), signal.SIG_DFL)
if mode == "pty":
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
try:
    os.chdir(cwd)
except OSError as exc:
    sys.stderr.write(f"sh: cannot change to {cwd}: {exc.strerror}\\n")
    sys.exit(2)
os.execv("/bin/sh", ["/bin/sh", "-c", command])
"""

#: The middle process of a daemon: a session of its own, fork, print the daemon's pid
#: once it has exec'd (its environment is then its own), exit. argv is "keep" or "scrub"
#: (the daemon's environment).
_DAEMON_CODE = f"""\
import os, sys
os.setsid()
exec_done, exec_note = os.pipe()  # close-on-exec: the daemon's exec closes its end
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    env = {{}} if sys.argv[1] == "scrub" else dict(os.environ)
    os.execve(sys.executable, [sys.executable, "-c", {SLEEP_CODE!r}, "daemon"], env)
os.close(exec_note)
os.read(exec_done, 1)
sys.stdout.write(str(pid))
sys.stdout.flush()
os._exit(0)
"""

#: How long one wait for output lasts before looking at the process again (seconds).
_POLL = 0.05
#: Once the command has exited, how much longer its output is read if it does not end (a
#: process it left behind may hold the terminal or pipe open: no end of file comes).
_DRAIN = 0.1


class Role(enum.Enum):
    """What a process the fake starts stands for (the first word of its pid log line)."""

    SHELL = "shell"
    BACKGROUND = "background"
    WORKER_SERVER = "worker-server"
    DAEMON = "daemon"


def announce(role: Role, pid: int) -> None:
    """Say that ``pid`` exists: on stderr, and in ``$FAKE_AGENT_PID_LOG`` if set."""
    write_stderr(f"fake_agent: started {role.value} {pid}\n")
    path = os.environ.get(PID_LOG_ENV)
    if path:
        # One write with O_APPEND: lines of concurrent fakes never interleave.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{role.value} {pid}\n".encode())
        finally:
            os.close(fd)


def command_environment(conversation_id: str) -> dict[str, str]:
    """The environment of a shell command: the fake's own (all of it: a wrapper may mark
    the CLI's environment to find its descendants) and what the CLI adds (§1)."""
    return {
        **os.environ,
        "CURSOR_AGENT": "1",
        "CURSOR_INVOKED_AS": "cursor-agent",
        "CURSOR_CONVERSATION_ID": conversation_id,
    }


class Finished(NamedTuple):
    """How a shell command ended, and what it wrote."""

    exit_code: int
    #: The name of the signal that killed it (``SIGKILL``), else ``""``.
    signal: str
    stdout: str
    stderr: str
    #: Everything it wrote, in the order it came.
    interleaved: str


class Command:
    """A shell command running in a session of its own (:func:`start_command`)."""

    def __init__(self, pid: int, streams: dict[int, str]) -> None:
        self.pid = pid
        #: The fds the fake reads (a pty's master, or pipes): "out" or "err".
        self._streams = streams
        self._chunks: list[tuple[str, bytes]] = []
        self._status: int | None = None

    def wait(self, stop: Callable[[], bool] | None = None) -> Finished | None:
        """Wait for the command to exit, reading its output; None if ``stop()`` turned
        true first (the command then runs on: :meth:`release` it)."""
        exited_at = 0.0
        while True:
            if self._status is None:
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    self._status, exited_at = status, time.monotonic()
            if self._status is not None and (
                not self._streams or time.monotonic() - exited_at > _DRAIN
            ):
                return self._finished()
            if stop is not None and stop():
                return None
            if self._streams:
                self._read(_POLL)
            else:
                time.sleep(_POLL)  # the output is closed: only the exit is awaited

    def release(self) -> None:
        """Let the command run on: a thread reads (and drops) its output, reaps it when it
        exits and closes the fds then. The fds close anyway when the fake exits."""
        threading.Thread(target=self._drain, name=f"command-{self.pid}", daemon=True).start()

    def _drain(self) -> None:
        self.wait()

    def _read(self, timeout: float) -> None:
        """Read what is ready within ``timeout``; close a stream at its end."""
        ready, _, _ = select.select(list(self._streams), [], [], timeout)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: every holder of the pty's slave is gone
                data = b""
            if data:
                self._chunks.append((self._streams[fd], data))
            else:
                del self._streams[fd]
                os.close(fd)

    def _finished(self) -> Finished:
        for fd in self._streams:
            os.close(fd)
        self._streams = {}
        code = os.waitstatus_to_exitcode(self._status or 0)
        name = signal.Signals(-code).name if code < 0 else ""
        text = {k: b"".join(d for kind, d in self._chunks if kind == k) for k in ("out", "err")}
        both = b"".join(data for _, data in self._chunks)
        return Finished(
            128 - code if code < 0 else code,
            name,
            text["out"].decode("utf-8", errors="replace"),
            text["err"].decode("utf-8", errors="replace"),
            both.decode("utf-8", errors="replace"),
        )


def _spawn_session(command: str, cwd: str, env: dict[str, str], mode: str, stdio: list[int]) -> int:
    """posix_spawn the session program with ``stdio`` as fds 0, 1, 2, in a new session."""
    argv = [sys.executable, "-I", "-S", "-c", _SESSION_CODE, cwd, mode, command]
    actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(stdio)]
    return os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)


def start_command(command: str, cwd: str, env: dict[str, str], pty: bool, role: Role) -> Command:
    """Start ``/bin/sh -c command`` in ``cwd``, leading its own session: on a pty that
    is its controlling terminal (stdout and stderr both), or with stdin ``/dev/null``
    and stdout, stderr on pipes. Announced as ``role``."""
    if pty:
        import termios

        master, slave = os.openpty()
        try:
            # The real CLI reports "\n" as written, not the terminal's "\r\n".
            attrs = termios.tcgetattr(slave)
            attrs[1] &= ~termios.ONLCR
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            pid = _spawn_session(command, cwd, env, "pty", [slave, slave, slave])
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        streams = {master: "out"}
    else:
        null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            pid = _spawn_session(command, cwd, env, "pipes", [null, out_w, err_w])
        except BaseException:
            os.close(out_r)
            os.close(err_r)
            raise
        finally:
            for fd in (null, out_w, err_w):
                os.close(fd)
        streams = {out_r: "out", err_r: "err"}
    announce(role, pid)
    return Command(pid, streams)


def start_worker_server() -> int:
    """Start a child that sleeps for an hour in the fake's process group, its stdio on
    ``/dev/null``; announce it and return its pid (never waited for)."""
    argv = [sys.executable, "-c", SLEEP_CODE, Role.WORKER_SERVER.value]
    null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=null)
    announce(Role.WORKER_SERVER, pid)
    return pid


def start_daemon(scrub_env: bool) -> int:
    """Start a daemon sleeping for an hour outside the fake's tree (double fork and
    ``setsid``; with ``scrub_env`` its environment is empty); announce and return its pid."""
    argv = [sys.executable, "-c", _DAEMON_CODE, "scrub" if scrub_env else "keep"]
    middle = subprocess.run(
        argv, stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=60
    )
    try:
        pid = int(middle.stdout)
    except ValueError:
        raise OSError(f"the daemon did not start: {middle.stderr!r}") from None
    announce(Role.DAEMON, pid)
    return pid
