"""A transport that plays a scripted CLI in-process: lifecycle tests in microseconds.

The script is a timeline, as a real CLI's output is: each step happens when the pauses
before it have passed since the start, whether or not anyone is reading, so a slow
consumer finds the output waiting as it would in a pipe. It keeps the transport contract
(``agent_sdk.Transport``), and records what was done to it::

    transport = MemoryTransport([Output.event({"type": "result", "result": "hi"}), Exit(0)])
    result = await run_async("hi", transport=transport)
    assert transport.signals == []          # it exited by itself: nothing was sent
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import msgspec

from ..options import AgentOptions

__all__ = ["Exit", "MemoryTransport", "Output", "Pause", "Stderr", "Step"]


@dataclass(frozen=True)
class Output:
    """Bytes the CLI writes to stdout."""

    data: bytes

    @classmethod
    def event(cls, *events: Mapping[str, Any]) -> Output:
        """Wire events, one JSON line each."""
        return cls(b"".join(msgspec.json.encode(event) + b"\n" for event in events))


@dataclass(frozen=True)
class Stderr:
    """Text the CLI writes to stderr."""

    text: str


@dataclass(frozen=True)
class Pause:
    """Nothing happens for ``seconds`` (``math.inf``: the CLI stalls for good)."""

    seconds: float


@dataclass(frozen=True)
class Exit:
    """The CLI exits with ``code``. With ``hold_stdout``, something it started keeps
    stdout open: the output does not end with the exit."""

    code: int = 0
    hold_stdout: bool = False


Step = Output | Stderr | Pause | Exit


class _Phase(enum.Enum):
    NEW = "new"
    RUNNING = "running"
    CLOSED = "closed"


class MemoryTransport:
    """A scripted CLI (see the module).

    Args:
        script: the steps, in order; a script without :class:`Exit` ends with ``Exit(0)``.
        start_delay: seconds ``start()`` takes before the script begins (a long prompt
            written to a CLI that reads it slowly).
        ignore_sigterm: the CLI does not end on SIGTERM: ``aclose()`` must kill it.
        term_grace: how long ``aclose()`` waits after SIGTERM before SIGKILL.
        pid: the pid it reports.

    Attributes:
        signals: the signals ``aclose()``/``kill_now()`` sent, in order.
        started_with: the prompt and options of ``start()``.
    """

    def __init__(
        self,
        script: Iterable[Step],
        *,
        start_delay: float = 0.0,
        ignore_sigterm: bool = False,
        term_grace: float = 0.5,
        pid: int = 4242,
    ) -> None:
        steps = list(script)
        if not any(isinstance(step, Exit) for step in steps):
            steps.append(Exit(0))
        self._timeline = _timeline(steps)
        self._next = 0
        self._start_delay = start_delay
        self._ignore_sigterm = ignore_sigterm
        self._term_grace = term_grace
        self._pid = pid
        self._phase = _Phase.NEW
        self._started_at = math.inf
        self._killed_code: int | None = None
        self._linger = 0.0
        self._ended_at: float | None = None  # the script's clock stops when it is killed
        self._closed: anyio.Event | None = None
        self.signals: list[str] = []
        self.started_with: tuple[str, AgentOptions] | None = None

    @property
    def pid(self) -> int | None:
        return self._pid if self._phase is not _Phase.NEW else None

    @property
    def returncode(self) -> int | None:
        if self._killed_code is not None:
            return self._killed_code
        at, exit_ = self._exit()
        return exit_.code if self._now() >= at else None

    def stderr_tail(self) -> str:
        now = self._now()
        return "".join(s.text for at, s in self._timeline if isinstance(s, Stderr) and at <= now)

    async def start(self, prompt: str, options: AgentOptions) -> None:
        self.started_with = (prompt, options)
        self._linger = options.result_grace
        self._closed = anyio.Event()
        self._phase = _Phase.RUNNING
        await self._sleep(self._start_delay)
        self._started_at = anyio.current_time()

    async def receive(self) -> bytes | None:
        while True:
            chunk = self.receive_ready()
            if chunk != b"":
                return chunk
            await self._sleep(self._next_time() - self._now())

    def receive_ready(self) -> bytes | None:
        if self._phase is _Phase.CLOSED or self._killed_code is not None:
            return None
        now = self._now()
        while self._next < len(self._timeline):
            at, step = self._timeline[self._next]
            if at > now:
                return b""
            if isinstance(step, Exit):
                if step.hold_stdout and now < at + self._linger:
                    return b""
                return None
            self._next += 1
            if isinstance(step, Output) and step.data:
                return step.data
        return None

    async def wait(self) -> int:
        while (code := self.returncode) is None:
            await self._sleep(self._exit()[0] - self._now())
        return code

    async def aclose(self) -> None:
        if self._phase is _Phase.CLOSED:
            return
        interrupted: BaseException | None = None
        if self.returncode is None and self._phase is _Phase.RUNNING:
            self.signals.append("SIGTERM")
            if not self._ignore_sigterm:
                self._killed_code = -15
            else:
                try:
                    with anyio.CancelScope(shield=True):
                        await anyio.sleep(self._term_grace)
                except BaseException as exc:  # as the subprocess transport: finish first
                    interrupted = exc
        self.kill_now()
        if interrupted is not None:
            raise interrupted

    def kill_now(self) -> None:
        if self._phase is _Phase.CLOSED:
            return
        if self.returncode is None and self._phase is _Phase.RUNNING:
            self.signals.append("SIGKILL")
            self._killed_code = -9
        self._ended_at = self._now()
        self._phase = _Phase.CLOSED
        if self._closed is not None:
            self._closed.set()

    # --- the timeline ---------------------------------------------------------------
    def _now(self) -> float:
        if self._ended_at is not None:
            return self._ended_at
        if self._phase is _Phase.NEW:
            return -math.inf
        return anyio.current_time() - self._started_at

    def _exit(self) -> tuple[float, Exit]:
        at, step = next((at, s) for at, s in self._timeline if isinstance(s, Exit))
        assert isinstance(step, Exit)
        return at, step

    def _next_time(self) -> float:
        if self._next >= len(self._timeline):
            return math.inf
        at, step = self._timeline[self._next]
        if isinstance(step, Exit) and step.hold_stdout:
            return at + self._linger
        return at

    async def _sleep(self, seconds: float) -> None:
        """Sleep, unless closed meanwhile (from any task)."""
        assert self._closed is not None
        with anyio.move_on_after(max(seconds, 0)):
            await self._closed.wait()


def _timeline(steps: list[Step]) -> list[tuple[float, Step]]:
    at = 0.0
    timeline: list[tuple[float, Step]] = []
    for step in steps:
        if isinstance(step, Pause):
            at += step.seconds
        else:
            timeline.append((at, step))
        if isinstance(step, Exit):
            break
    return timeline
