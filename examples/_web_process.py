"""How ``python examples/sse_server.py`` runs and stops as a process (uvicorn underneath).

On SIGINT or SIGTERM uvicorn stops taking requests and lets the requests in progress end,
for ``shutdown_wait`` seconds; then it cancels them. A run's request is cancelled like a
page going away: its agent's process group ends (print mode), its turn is cancelled (live
mode), and the app's lifespan then ends the live agent. Two things differ from plain
uvicorn, so that Ctrl-C pressed twice, or a second ``kill``, cannot leave an agent behind:

* a second signal (either one) cancels the requests at once, rather than skipping the
  cleanup (uvicorn's "force exit" on a second SIGINT skips the lifespan's shutdown);
* the exit status says which signal ended the server, as a shell reports it (130 for
  SIGINT, 143 for SIGTERM), rather than a re-raised signal inside the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Iterator
from types import FrameType

import uvicorn

__all__ = ["serve"]

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _Server(uvicorn.Server):
    """uvicorn's server, with the signal handling above."""

    signalled: int | None = None
    _loop: asyncio.AbstractEventLoop | None = None

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
        if self.should_exit and self._loop is not None:  # again: no more waiting
            self._loop.call_soon_threadsafe(self._cancel_requests)
        self.signalled = self.signalled or sig
        self.should_exit = True

    def _cancel_requests(self) -> None:
        for task in list(self.server_state.tasks):
            task.cancel()


def serve(app: str, *, host: str, port: int, shutdown_wait: float) -> int:
    """Serve the app (``"module:attribute"``) until a signal; the exit status."""
    config = uvicorn.Config(app, host=host, port=port, timeout_graceful_shutdown=shutdown_wait)
    server = _Server(config)
    server.run()
    return 128 + server.signalled if server.signalled else 0
