"""The limits of one run, computed in one place (docs/lifecycle.md, "Deadlines")."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from .._transport.base import Clock, Transport
from ..options import AgentOptions

__all__ = ["Deadlines", "Limit", "await_exit", "receive_within"]

Limit = Literal["timeout", "idle", "grace"]


class Deadlines:
    """The limits of one run, on the run's clock (``now``: the event loop's, or a blocking
    run's monotonic clock): the one place they are computed.

    ``timeout`` runs from the start; ``idle_timeout`` from the last output; the result
    grace from the ``result`` event (docs/protocol.md §5, the known hang).
    """

    __slots__ = ("_now", "_timeout", "end", "grace", "idle", "result_grace")

    def __init__(self, options: AgentOptions, now: Callable[[], float]) -> None:
        self._now = now
        self.end = math.inf
        self.grace = math.inf
        self.idle = options.idle_timeout
        self.result_grace = options.result_grace
        self._timeout = options.timeout

    def started(self) -> None:
        if self._timeout is not None:
            self.end = self._now() + self._timeout

    def result_seen(self) -> None:
        if self.grace == math.inf:
            self.grace = self._now() + self.result_grace

    def next_wait(self, *, idle: bool) -> tuple[float, Limit]:
        """How long the next wait on the CLI may last, and which limit that is."""
        if self.end == self.grace == math.inf and (not idle or self.idle is None):
            return math.inf, "timeout"  # no limit: spare the clock, this is the hot path
        now = self._now()
        limits: list[tuple[float, Limit]] = [(self.end - now, "timeout")]
        if idle and self.idle is not None:
            limits.append((self.idle, "idle"))
        limits.append((self.grace - now, "grace"))
        return min(limits, key=lambda limit: limit[0])


async def receive_within(transport: Transport, delay: float, clock: Clock) -> bytes | None:
    """A chunk within ``delay`` seconds; ``b""`` if none came. When a limit runs out, what
    the CLI printed before it is still taken: a timeout measures the CLI, not how fast its
    events were consumed (docs/lifecycle.md)."""
    if delay > 0:
        with clock.move_on_after(delay):
            return await transport.receive()
    return transport.receive_ready()


async def await_exit(transport: Transport, deadlines: Deadlines, clock: Clock) -> Limit | None:
    """Wait for the exit of a CLI that closed stdout; the limit that ran out first, if any.

    If it lingers (the known hang, or a grandchild) it gets the result grace; an exit
    already known is waited for without a limit (only the rest of stderr is read).
    """
    deadlines.result_seen()
    delay, limit = deadlines.next_wait(idle=False)
    if transport.returncode is not None:
        delay = math.inf
    with clock.move_on_after(max(delay, 0)):
        await transport.wait()
    return limit if transport.returncode is None else None
