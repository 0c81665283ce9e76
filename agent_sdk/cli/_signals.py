"""SIGTERM for the command line: the same as Ctrl-C, received in the event loop.

By default SIGTERM kills Python outright and the CLIs (each in its own process group)
would be left running. Received in the event loop, it cancels the work like Ctrl-C does;
a Python signal handler would instead raise at whatever line was running, inside a task
group, wrapped in an exception group.
"""

from __future__ import annotations

import signal
import threading

import anyio
from anyio.abc import TaskGroup, TaskStatus

__all__ = ["SigtermWatch", "Terminated"]


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C once what it cancelled (a run, a fleet) has ended."""


class SigtermWatch:
    """Started in a task group, SIGTERM cancels that group; :meth:`raise_if_received`
    then raises :class:`Terminated`, outside the group."""

    def __init__(self) -> None:
        self.received = False

    async def start_in(self, group: TaskGroup) -> None:
        """Watch for SIGTERM while ``group`` runs (only the main thread gets signals)."""
        if threading.current_thread() is threading.main_thread():
            await group.start(self._watch, group)

    async def _watch(
        self, group: TaskGroup, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        with anyio.open_signal_receiver(signal.SIGTERM) as signals:
            task_status.started()
            async for _ in signals:
                self.received = True
                group.cancel_scope.cancel()

    def raise_if_received(self) -> None:
        """Raise :class:`Terminated` if SIGTERM came."""
        if self.received:
            raise Terminated
