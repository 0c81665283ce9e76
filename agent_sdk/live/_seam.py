"""The seam between a :class:`~agent_sdk.live.LiveAgent` and the agent it talks to: the
:class:`LiveTransport` contract (as ``_transport/base.py`` is for runs).

:class:`~agent_sdk.live._process.AcpProcess` is the real one (``cursor-agent acp`` as a
child process); ``agent_sdk.testing.MemoryAcpTransport`` plays an agent in-process, so the
live agent's lifecycle rules are tested without a process.
"""

from __future__ import annotations

from typing import Protocol

import anyio.abc

__all__ = ["LiveTransport"]


class LiveTransport(Protocol):
    """How a live agent reaches the CLI's ACP mode. One instance per agent.

    - ``stdin``/``stdout``: our lines go to the one, the agent's come from the other.
    - ``serve()`` runs for the agent's life in the agent's task group (a subprocess
      drains its stderr there).
    - ``wait()`` waits for the end and returns the exit status; ``returncode`` does not
      wait (``None`` while it runs).
    - ``aclose(exit_grace)`` ends it: stdin closed, ``exit_grace`` seconds to exit, then
      forced. Bounded, idempotent, finished even when cancelled.
    """

    @property
    def stdin(self) -> anyio.abc.ByteSendStream: ...

    @property
    def stdout(self) -> anyio.abc.ByteReceiveStream: ...

    @property
    def pid(self) -> int | None: ...

    @property
    def returncode(self) -> int | None: ...

    def stderr_tail(self) -> str: ...

    async def serve(self) -> None: ...

    async def wait(self) -> int: ...

    async def aclose(self, exit_grace: float = ...) -> None: ...
