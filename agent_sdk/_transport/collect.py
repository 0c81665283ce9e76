"""Spawn the CLI and collect all it prints: the short subcommands (``models``, ``status``,
...) and the recorder, which want the whole output at once rather than a stream."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import anyio

from ..options import AgentOptions, Invocation

__all__ = ["Collected", "collect"]

_DRAIN_READS = 8  # 2 MiB of reads: more than a full stdout pipe holds


class Collected(NamedTuple):
    """What a CLI printed, and how it ended. A NamedTuple: a dataclass would load
    `dataclasses` with `import agent_sdk`, which imports this module (docs/benchmarks.md).

    Attributes:
        stdout: all of stdout, up to the end (or up to the moment it was ended).
        stderr: the tail of stderr.
        exit_code: its exit status; ``None`` if its process group was ended: it ran out
            of time, or it ``lingered``.
        lingered: it printed its result (or closed stdout) and did not exit within
            ``result_grace``, the known hang (docs/protocol.md §5); its group was ended.
    """

    stdout: bytes
    stderr: str
    exit_code: int | None
    lingered: bool = False


async def collect(
    invocation: Invocation,
    options: AgentOptions,
    *,
    within: float,
    result_seen: Callable[[bytes], bool] | None = None,
) -> Collected:
    """Run ``invocation`` (in ``options.cwd``) for at most ``within`` seconds.

    Args:
        result_seen: given each chunk of stdout, says whether the result has now been
            printed. With it, the CLI gets ``options.result_grace`` seconds after its
            result, or after closing stdout, to exit, as a run does (docs/lifecycle.md);
            without it (the subcommands) it has until ``within``.

    What the CLI printed before a limit ran out is kept: a timed-out run still returns
    its output.

    Raises:
        AgentStartError: it could not be started.
    """
    from .subprocess import SubprocessTransport

    transport = SubprocessTransport()
    chunks: list[bytes] = []
    code: int | None = None
    lingered = False
    try:
        with anyio.move_on_after(within):
            await transport.start_invocation(invocation, options)
            with anyio.CancelScope() as grace:
                while (chunk := await transport.receive()) is not None:
                    chunks.append(chunk)
                    if grace.deadline == math.inf and result_seen and result_seen(chunk):
                        grace.deadline = anyio.current_time() + options.result_grace
                if result_seen is not None:  # stdout is closed: the exit gets the grace
                    grace.deadline = min(
                        grace.deadline, anyio.current_time() + options.result_grace
                    )
                code = await transport.wait()
            lingered = grace.cancelled_caught
        # A limit ran out: what the CLI printed before it is still taken (what the pipe
        # holds, not what a CLI still writing would add for ever).
        for _ in range(_DRAIN_READS):
            if not (chunk := transport.receive_ready()):
                break
            chunks.append(chunk)
    finally:
        await transport.aclose()
    return Collected(b"".join(chunks), transport.stderr_tail(), code, lingered)
