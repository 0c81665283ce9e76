"""A file descriptor as an anyio byte stream, non-blocking while the stream holds it: the
live agent's pipes to ``cursor-agent acp`` (``live/_process.py``) and the MCP server's
stdin and stdout (``extend/_stdio.py``).

A stream puts its descriptor back in the blocking mode it found when it closes it (a
terminal's mode is shared with the shell that started us); closing is idempotent and wakes
a task that waits on the descriptor.
"""

from __future__ import annotations

import contextlib
import os

import anyio
import anyio.abc

__all__ = ["FdReceiveStream", "FdSendStream", "close_fd"]


def close_fd(fd: int) -> None:
    """Close ``fd``, first waking a task that waits on it."""
    with contextlib.suppress(RuntimeError):  # no event loop (garbage collection)
        anyio.notify_closing(fd)  # wakes a task waiting on it
    os.close(fd)


class _Fd:
    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
        self._was_blocking = os.get_blocking(fd)
        os.set_blocking(fd, False)

    async def aclose(self) -> None:
        """Close the descriptor (idempotent): a pipe's reader then sees EOF."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.set_blocking(fd, self._was_blocking)
        close_fd(fd)


class FdReceiveStream(_Fd, anyio.abc.ByteReceiveStream):
    """A descriptor's reads as an anyio byte stream."""

    async def receive(self, max_bytes: int = 65536) -> bytes:
        """The next bytes; ``anyio.EndOfStream`` at EOF, ``ClosedResourceError`` once closed."""
        while True:
            if self._fd is None:
                raise anyio.ClosedResourceError
            try:
                data = os.read(self._fd, max_bytes)
            except BlockingIOError:
                await anyio.wait_readable(self._fd)
                continue
            if not data:
                raise anyio.EndOfStream
            return data


class FdSendStream(_Fd, anyio.abc.ByteSendStream):
    """A descriptor's writes as an anyio byte stream."""

    async def send(self, item: bytes) -> None:
        """Write all of ``item``; ``BrokenResourceError`` if the reader is gone."""
        view = memoryview(item)
        while view:
            if self._fd is None:
                raise anyio.ClosedResourceError
            try:
                view = view[os.write(self._fd, view) :]
            except BlockingIOError:
                await anyio.wait_writable(self._fd)
            except BrokenPipeError as exc:
                raise anyio.BrokenResourceError from exc
