"""Spawn the CLI and collect all it prints: the short subcommands (``models``, ``status``,
...) and the recorder, which want the whole output at once rather than a stream."""

from __future__ import annotations

from typing import NamedTuple

import anyio

from ..options import AgentOptions, Invocation

__all__ = ["Collected", "collect"]


class Collected(NamedTuple):
    """What a finished CLI printed, and how it exited (``None``: it ran out of time and
    its process group was ended). A NamedTuple: a dataclass would load `dataclasses`
    with `import agent_sdk`, which imports this module (docs/benchmarks.md)."""

    stdout: bytes
    stderr: str
    exit_code: int | None


async def collect(invocation: Invocation, options: AgentOptions, *, within: float) -> Collected:
    """Run ``invocation`` (in ``options.cwd``) for at most ``within`` seconds.

    Raises:
        AgentStartError: it could not be started.
    """
    from .subprocess import SubprocessTransport

    transport = SubprocessTransport()
    chunks: list[bytes] = []
    code: int | None = None
    try:
        with anyio.move_on_after(within):
            await transport.start_invocation(invocation, options)
            while (chunk := await transport.receive()) is not None:
                chunks.append(chunk)
            code = await transport.wait()
    finally:
        await transport.aclose()
    return Collected(b"".join(chunks), transport.stderr_tail(), code)
