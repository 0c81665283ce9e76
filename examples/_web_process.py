"""How ``python examples/sse_server.py`` runs and stops as a process (uvicorn underneath).

On SIGINT or SIGTERM the server stops every run at once (``stop_runs``: as the Stop button
does, so each page is told), stops taking requests, and lets the requests in progress end
for ``shutdown_wait`` seconds before it cancels them; the app's lifespan then ends the live
agent. Three things differ from plain uvicorn, so that Ctrl-C pressed twice, or a second
``kill``, cannot leave an agent behind:

* the runs are stopped, not waited for (a run's stream lasts as long as its agent works);
* a second signal (either one) cancels the runs at once (``cancel_runs``), rather than
  skipping the cleanup (uvicorn's "force exit" on a second SIGINT skips the lifespan's
  shutdown);
* the exit status says which signal ended the server, as a shell reports it (130 for
  SIGINT, 143 for SIGTERM), rather than a signal re-raised inside the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable, Coroutine, Iterator
from types import FrameType
from typing import Any

import uvicorn

__all__ = ["serve"]

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _Server(uvicorn.Server):
    """uvicorn's server, with the signal handling above."""

    signalled: int | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    stop_runs: Callable[[], Coroutine[Any, Any, None]] | None = None
    cancel_runs: Callable[[], None] | None = None
    _stopping: asyncio.Task[None] | None = None  # held, so that it is not collected

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._loop is not None:
            again = self.should_exit  # no more waiting
            self._loop.call_soon_threadsafe(self._cancel_runs if again else self._stop_runs)
        self.signalled = self.signalled or sig
        self.should_exit = True

    def _stop_runs(self) -> None:
        if self.stop_runs is not None and self._loop is not None:
            self._stopping = self._loop.create_task(self.stop_runs())

    def _cancel_runs(self) -> None:
        if self.cancel_runs is not None:
            self.cancel_runs()


def serve(
    app: Any,
    stop_runs: Callable[[], Coroutine[Any, Any, None]],
    cancel_runs: Callable[[], None],
    *,
    host: str,
    port: int,
    shutdown_wait: int,
) -> int:
    """Serve the ASGI app until a signal; the exit status. ``stop_runs()`` is awaited on
    the first signal, ``cancel_runs()`` called on each one after."""
    config = uvicorn.Config(app, host=host, port=port, timeout_graceful_shutdown=shutdown_wait)
    server = _Server(config)
    server.stop_runs, server.cancel_runs = stop_runs, cancel_runs
    server.run()
    return 128 + server.signalled if server.signalled else 0
