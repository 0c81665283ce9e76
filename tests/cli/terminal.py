"""A real pseudo-terminal for the command line's tests, read back through ``pyte``.

``python -m agent_sdk`` runs with its stdin, stdout and stderr on the slave side of a pty
of a given size; everything it writes goes through a terminal emulator (``pyte``), which
wraps, scrolls and erases as a terminal does. The tests then read the screen a person
would see, and the lines that scrolled off it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable

from cli_process import cli_env
from needs import need

pyte = need("pyte", "a terminal emulator, to read back what a pty shows")

# A hang guard, not a timing assertion: a run that has not ended by then has hung.
_DEADLINE = 60.0


def _set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class PtyRun:
    """``agent-sdk ARGS`` running in a ``columns``×``rows`` terminal.

    Example::

        with PtyRun(["--fake", "tools", "hi"], columns=40) as run:
            run.wait()
        assert "✓ success" in run.lines()[-4]
    """

    def __init__(self, args: list[str], *, columns: int, rows: int = 24, **env: str) -> None:
        self.columns, self.rows = columns, rows
        self.screen = pyte.HistoryScreen(columns, rows, history=10_000)
        self._stream = pyte.ByteStream(self.screen)
        self.output = b""
        """Every byte the command wrote, as the terminal received it."""
        master, slave = pty.openpty()
        _set_size(slave, columns, rows)
        self._master = master
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "agent_sdk", *args],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=cli_env(TERM="xterm-256color", **env),
                start_new_session=True,
            )
        finally:
            os.close(slave)

    def __enter__(self) -> PtyRun:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        os.close(self._master)

    def _pump(self, timeout: float) -> bool:
        """Read what is there within ``timeout`` s; ``False`` once the pty is closed."""
        ready, _, _ = select.select([self._master], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self._master, 65536)
        except OSError:  # EIO: every slave fd is closed
            return False
        if not chunk:
            return False
        self.output += chunk
        self._stream.feed(chunk)
        return True

    def wait_until(self, seen: Callable[[bytes], bool], what: str) -> None:
        """Read until ``seen(output)``; fail the test if the run hangs or ends first."""
        deadline = time.monotonic() + _DEADLINE
        while not seen(self.output):
            assert time.monotonic() < deadline, f"never saw {what}: {self.output[-400:]!r}"
            assert self._pump(0.05), f"the run ended before {what}: {self.output[-400:]!r}"

    def wait(self) -> int:
        """Read until the command has exited and closed the terminal; its exit status."""
        deadline = time.monotonic() + _DEADLINE
        while self._pump(0.05):
            assert time.monotonic() < deadline, f"the run hung: {self.output[-400:]!r}"
        return self.process.wait(timeout=_DEADLINE)

    def resize(self, columns: int) -> None:
        """Make the terminal ``columns`` wide, as a person dragging its edge does."""
        _set_size(self._master, columns, self.rows)
        self.screen.resize(self.rows, columns)
        self.columns = columns

    def lines(self) -> list[str]:
        """Every line the terminal holds: those scrolled off the top, then the screen's,
        without trailing blanks and without the empty rows below the last text."""
        scrolled = [
            "".join(line[x].data for x in range(self.columns)) for line in self.screen.history.top
        ]
        lines = [line.rstrip() for line in [*scrolled, *self.screen.display]]
        while lines and not lines[-1]:
            lines.pop()
        return lines
