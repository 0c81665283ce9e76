"""What earlier sweeps read of each process, so that runs ending together (a crowd, a
fleet's stop) read each other process about once (docs/lifecycle.md, "Everything the
CLI starts", its cost).

A process's mark changes only by an ``exec``, and a process without one gains one only
when our own spawn starts a CLI (between its fork and its ``exec`` it reads as its
parent's): so what a sweep read of a pid holds for as long as that pid is the same
process, except for a CLI read before :meth:`SweepMemory.started`.

Whether a pid is still the same process is told by the kernel's pid counter (the last
pid given out, ``/proc/loadavg``), observed at every round of every sweep: between two
observations less than ``strays.since_pid``'s bound apart the counter cannot have come
round, so it moved by exactly the difference (modulo the span). Summed, that is a clock
of pids given out; a pid read at clock ``c`` with the counter at ``L`` is still the same
process while the clock moved less than a span and the pids given out since, ``(L, now]``
on the circle, do not include it. A gap longer than the bound starts a new epoch: what
was read before is read again.
"""

from __future__ import annotations

import threading
import time

from . import strays

__all__ = ["MEMORY", "SweepMemory"]

_KEPT = 4096  # entries before those no sweep can use are dropped

Token = strays.Token  # (epoch, clock, last pid, observation number)


class SweepMemory:
    """The marks earlier sweeps read, valid while their pid is the same process."""

    __slots__ = ("_clock", "_count", "_epoch", "_last", "_lock", "_marks", "_started")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._epoch = 0
        self._clock = 0  # pids given out since the epoch began
        self._last: tuple[int, float, int] | None = None  # (last pid, when, span)
        self._count = 0  # observations and starts, in order
        self._marks: dict[int, tuple[bytes, Token]] = {}
        self._started: dict[int, int] = {}  # a CLI's pid -> the count when it was started

    def clear(self) -> None:
        """Remember nothing (the next sweep reads every process it looks at)."""
        with self._lock:
            self._epoch, self._clock, self._last = self._epoch + 1, 0, None
            self._marks, self._started = {}, {}

    def observe(self) -> Token | None:
        """The pid counter now (``None`` without ``/proc``: nothing is remembered)."""
        upto, span = strays.last_pid(), strays.pid_span()
        now = time.monotonic()
        with self._lock:
            self._count += 1
            if upto is None or span is None:
                self._last = None
                return None
            last = self._last
            if last is not None and last[2] == span and _within(now - last[1], span):
                self._clock += (upto - last[0]) % span
            else:
                self._epoch, self._clock = self._epoch + 1, 0
            self._last = (upto, now, span)
            return (self._epoch, self._clock, upto, self._count)

    def mark(self, pid: int, now: Token | None) -> bytes | None:
        """What ``pid`` read before, if it is still that process at ``now``."""
        entry = self._marks.get(pid)
        if entry is None or now is None or self._last is None:
            return None
        mark, then = entry
        span = self._last[2]
        if then[0] != now[0] or now[1] - then[1] >= span:
            return None  # another epoch, or the counter may have come round
        if _given_out(pid, then[2], now[2]):
            return None  # the pid was given out again since
        if then[3] <= self._started.get(pid, -1):
            return None  # read before our spawn's exec made it a CLI
        return mark

    def keep(self, pid: int, mark: bytes, now: Token | None) -> None:
        """``pid`` read ``mark`` after the observation ``now``."""
        if now is not None:
            self._marks[pid] = (mark, now)

    def started(self, pid: int) -> None:
        """Our spawn started a CLI as ``pid`` and it has exec'd: what was read before is
        not used."""
        with self._lock:
            self._count += 1
            self._started[pid] = self._count
            if len(self._marks) + len(self._started) > _KEPT:
                self._marks = {p: e for p, e in self._marks.items() if e[1][0] == self._epoch}
                self._started = {p: c for p, c in self._started.items() if p in self._marks}


def _within(seconds: float, span: int) -> bool:
    """Whether fewer than ``span`` pids can have been given out in ``seconds``."""
    return strays.since_pid(0, seconds, span) is not None


def _given_out(pid: int, then: int, now: int) -> bool:
    """Whether ``pid`` is in ``(then, now]`` on the pid circle."""
    if then <= now:
        return then < pid <= now
    return pid > then or pid <= now


MEMORY = SweepMemory()
"""The program's memory, for every sweep but the watchdog's."""
