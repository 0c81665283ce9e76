"""The seam between a run and the CLI it drives: the :class:`Transport` contract.

A :class:`~agent_sdk.Run` knows the protocol and its deadlines; a transport knows how to
make the CLI run and how to end it. The subprocess transport spawns the real CLI;
``agent_sdk.testing.MemoryTransport`` plays a script in-process, so every lifecycle rule
of a run is tested without a process.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from ..options import AgentOptions

__all__ = ["Clock", "Transport"]


class Scope(Protocol):
    """A deadline while entered (``anyio.CancelScope`` is one)."""

    @property
    def cancelled_caught(self) -> bool: ...

    def __enter__(self) -> Scope: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None: ...


class Clock(Protocol):
    """How a run tells the time and bounds a wait: the ``anyio`` module itself, on an
    event loop; a blocking run's own clock without one (``_transport/blocking.py``)."""

    def current_time(self) -> float: ...

    def move_on_after(self, delay: float | None) -> Scope: ...


class Transport(Protocol):
    """How one run reaches the CLI. One instance per run; not reused.

    The contract, which :class:`~agent_sdk.Run` relies on:

    - ``start(prompt, options)`` makes the CLI run (for a subprocess: find the binary,
      spawn it in its own process group, write a long prompt to its stdin). The transport
      owns whatever it started from the instant it exists: if ``start`` is interrupted by
      a timeout or a cancellation, ``aclose()`` still ends it. Failing to start raises an
      :class:`~agent_sdk.AgentStartError` (or :class:`~agent_sdk.AgentNotFoundError`).
    - ``receive()`` waits for the next chunk of stdout (never empty) and returns it, or
      returns ``None`` once the output has ended: stdout closed, or the CLI exited
      ``linger`` seconds ago (``options.result_grace``) while something it started still
      holds stdout open, or the transport was closed (from any task). It is cancel-safe:
      a chunk is never lost to a cancellation.
    - ``receive_ready()`` is the same without waiting: a chunk that is ready now, ``b""``
      if none is, ``None`` at the end.
    - ``returncode`` is the exit status if the CLI has exited (negative: killed by that
      signal), else ``None``; reading it never waits.
    - ``wait()`` waits for the exit and returns the status.
    - ``aclose()`` ends the CLI (for a subprocess: SIGTERM to the group, a grace, SIGKILL)
      and releases everything. Idempotent and safe from any task. It is bounded, and it
      completes whatever interrupts it, even a cancellation delivered while it runs; it
      re-raises that cancellation once done.
    - ``kill_now()`` is the synchronous last resort (garbage collection): kill, release.
    - ``stderr_tail()`` is the last part of what the CLI wrote to stderr.
    """

    @property
    def pid(self) -> int | None:
        """The CLI's process id (its process group's id), once started."""
        ...

    @property
    def returncode(self) -> int | None: ...

    async def start(self, prompt: str, options: AgentOptions) -> None: ...

    async def receive(self) -> bytes | None: ...

    def receive_ready(self) -> bytes | None: ...

    async def wait(self) -> int: ...

    async def aclose(self) -> None: ...

    def kill_now(self) -> None: ...

    def stderr_tail(self) -> str: ...
