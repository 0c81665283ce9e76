"""A file of the user's that a run reads (their ``~/.cursor/hooks.json``, merged into a
run's own: ``extend/_home.py``), read without ever blocking the event loop.

Opened non-blocking and judged by ``fstat`` of what was opened: a FIFO's ``open()`` would
wait for a writer in the loop's thread, where no timeout can fire (issue 34); a device or a
directory is no file of settings either. Such a thing is refused in words; a file that is
missing or unreadable is none (the CLI would find none either).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import AgentStartError

__all__ = ["users_file"]

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def users_file(path: Path, limit: int) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path``; ``b""`` when there is
    none or it cannot be read.

    Raises:
        AgentStartError: there is something else at ``path`` (a FIFO, a directory...).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:  # missing, unreadable, a socket (ENXIO)
        return b""
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((words for test, words in _KINDS if test(mode)), "no regular file")
            raise AgentStartError(
                f"{path} is {kind}, not a file: a run with hooks reads your own hooks from "
                "it, to run them beside its own",
                hint=f"make {path} a regular file (or remove it); the CLI cannot read "
                "hooks from anything else either",
            )
        chunks = []
        left = limit
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:  # a read that failed (EIO): none to merge
        return b""
    finally:
        os.close(fd)
