"""The processes a fake run started, read from its ``$FAKE_AGENT_PID_LOG``
(fake_agent/scenarios/README.md, "Environment variables"), and the end of them."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from proctable import session_members, settles, stat, ticks_since_boot

#: The roles whose process leads a session of its own (a shell command).
SESSION_LEADERS = frozenset({"shell", "background"})


class PidLog:
    """A pid log file; :meth:`end` kills what the fake started (tests call it in a
    finaliser: nothing a test starts may outlive it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.since = ticks_since_boot()
        #: pid -> its start time when first read alive (None: it was already gone).
        self._starts: dict[int, int | None] = {}

    def env(self) -> dict[str, str]:
        """The environment variable that makes the fake write here."""
        return {"FAKE_AGENT_PID_LOG": str(self.path)}

    def read(self) -> list[tuple[str, int]]:
        """The ``(role, pid)`` lines so far, in order."""
        if not self.path.exists():
            return []
        entries = []
        for line in self.path.read_text().splitlines():
            role, pid = line.split()
            entries.append((role, int(pid)))
            if int(pid) not in self._starts:
                facts = stat(int(pid))
                self._starts[int(pid)] = None if facts is None else facts.start
        return entries

    def pids(self, role: str) -> list[int]:
        return [pid for logged, pid in self.read() if logged == role]

    def wait_for(self, role: str, count: int = 1) -> list[int]:
        """The pids of ``role`` once there are ``count`` of them (the fake logs a process
        as it starts, maybe after the test saw its stdout)."""
        assert settles(lambda: len(self.pids(role)) >= count, within=30), self.read()
        return self.pids(role)

    def end(self) -> None:
        """SIGKILL every logged process still running: a command's whole session, others
        by pid (only the very process logged: same start time)."""
        for role, pid in self.read():
            if role in SESSION_LEADERS:
                # Again until none is left: a shell may fork while its session is listed.
                assert settles(lambda pid=pid: not self._kill_session(pid)), (role, pid)
            else:
                facts = stat(pid)
                if facts is not None and self.since <= facts.start == self._starts.get(pid):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)

    def _kill_session(self, sid: int) -> list[int]:
        """SIGKILL the members of session ``sid`` started since this log was made; which."""
        killed = []
        for member in session_members(sid):
            facts = stat(member)
            if facts is not None and facts.start >= self.since:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(member, signal.SIGKILL)
                killed.append(member)
        return killed
