"""``TurnFeed``: the updates of one running turn, from the reader to the turn's consumer,
bounded (docs/live.md "Floods and slow readers").

The reader puts each update without waiting while the feed has room. When
:data:`TURN_BUFFER` updates wait unread, it waits for the consumer (backpressure: the
agent's output pipe fills and the agent waits too), but never longer than
:data:`STALL_LIMIT` without the consumer taking one: a consumer that stopped reading must
not hold up the other sessions for ever. Past that the feed is *overrun*: the later
updates of the turn are dropped and counted, and the consumer, once it has read what
waited, gets an :class:`~agent_sdk.errors.AgentUsageError` instead of the turn's end. A
consumer that closed its turn, or dropped it, frees the reader at once.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Awaitable
from typing import Any

import anyio

from ..errors import AgentUsageError
from ._messages import PromptResult

__all__ = ["STALL_LIMIT", "TURN_BUFFER", "FeedState", "TurnFeed"]

#: How many updates of a turn may wait for its consumer.
TURN_BUFFER = 1024
#: How long the reader waits for a consumer that takes nothing, in seconds.
STALL_LIMIT = 10.0

_CLOSED = (anyio.BrokenResourceError, anyio.ClosedResourceError)


class FeedState(enum.Enum):
    """Where a :class:`TurnFeed` is."""

    OPEN = "open"
    OVERRUN = "overrun"  # its consumer fell behind: later updates are dropped
    ENDED = "ended"  # the turn's end (a PromptResult or an error) is in


class TurnFeed:
    """One turn's updates, then its end (a ``PromptResult`` or an exception)."""

    def __init__(self) -> None:
        self._send, self._receive = anyio.create_memory_object_stream[Any](TURN_BUFFER)
        self.state = FeedState.OPEN
        self.dropped = 0
        self._end: object = None

    # --- the reader's side --------------------------------------------------------------
    def put(self, update: object) -> Awaitable[None] | None:
        """Queue ``update``; when the feed is full, the wait to await (the reader's only
        pause: the hot path neither awaits nor checkpoints)."""
        if self.state is not FeedState.OPEN:
            if self.state is FeedState.OVERRUN:
                self.dropped += 1
            return None
        try:
            self._send.send_nowait(update)
        except anyio.WouldBlock:
            return self._put_when_read(update)
        except _CLOSED:
            pass  # the consumer left: nobody reads this turn
        return None

    async def _put_when_read(self, update: object) -> None:
        with anyio.move_on_after(STALL_LIMIT):
            with contextlib.suppress(*_CLOSED):
                await self._send.send(update)
            return
        if self.state is FeedState.OPEN:  # the consumer took nothing for STALL_LIMIT
            self.state = FeedState.OVERRUN
            self.dropped += 1

    # --- the turn's side ----------------------------------------------------------------
    def end(self, item: object) -> None:
        """The turn's end: its ``PromptResult``, or the exception to raise. Never waits."""
        self._end = item
        if self.state is FeedState.OPEN:
            self.state = FeedState.ENDED
        self._send.close()

    # --- the consumer's side ------------------------------------------------------------
    async def get(self) -> object:
        """The next update, then the turn's end (an exception is returned, not raised).

        Raises:
            anyio.EndOfStream: the turn ended without an end (the agent was closed).
            AgentUsageError: updates were dropped (the consumer fell behind).
        """
        try:
            return await self._receive.receive()
        except anyio.EndOfStream:
            pass
        if self.dropped:
            failure = self._end if isinstance(self._end, BaseException) else None
            said = (
                f"stop reason {self._end.stop_reason}"
                if isinstance(self._end, PromptResult)
                else type(self._end).__name__
            )
            raise AgentUsageError(
                f"{self.dropped} updates of this turn were dropped: its events were not read "
                f"for {STALL_LIMIT} s while {TURN_BUFFER} waited (the turn ended: {said})",
                hint="read a turn's events as they come; hand slow work to a task of its own",
            ) from failure
        if self._end is None:
            raise anyio.EndOfStream
        return self._end

    def close(self) -> None:
        """The consumer leaves: the reader no longer waits for it."""
        self._receive.close()

    def abandon(self) -> None:
        """Never started: both ends closed."""
        self._send.close()
        self._receive.close()
