"""``TurnFeed``: the updates of one running turn, from the reader to the turn's consumer,
bounded (docs/live.md "Floods and slow readers").

The reader puts each update without waiting while the feed has room. When
:data:`TURN_BUFFER` updates wait unread, it waits for the consumer to read them down to
:data:`LOW_WATER` (backpressure: the agent's output pipe fills and the agent waits too),
but never longer than :data:`STALL_LIMIT` without the consumer taking one: a consumer
that stopped reading must not hold up the other sessions for ever. Past that the feed is
*overrun*: the later updates of the turn are dropped and counted, and the consumer, once
it has read what waited, gets an :class:`~agent_sdk.errors.AgentUsageError` instead of
the turn's end. A consumer that closed its turn, or dropped it, frees the reader at once.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel

from ..errors import AgentUsageError
from ._messages import PromptResult

if TYPE_CHECKING:
    from .._run.checkpointed import Checkpointed

__all__ = ["LOW_WATER", "STALL_LIMIT", "TURN_BUFFER", "FeedState", "TurnFeed"]

#: How many updates of a turn may wait for its consumer.
TURN_BUFFER = 1024
#: How long the reader waits for a consumer that takes nothing, in seconds.
STALL_LIMIT = 10.0
#: The reader, once the feed is full, goes on when this many wait (not at each one taken:
#: a switch per update would cost more than the update).
LOW_WATER = TURN_BUFFER // 2
#: The consumer gives the loop a turn after this many updates taken without waiting.
YIELD_EVERY = 64


class FeedState(enum.Enum):
    """Where a :class:`TurnFeed` is."""

    OPEN = "open"
    OVERRUN = "overrun"  # its consumer fell behind: later updates are dropped
    LEFT = "left"  # its consumer closed it: later updates go nowhere
    ENDED = "ended"  # the turn's end (a PromptResult or an error) is in


class TurnFeed:
    """One turn's updates, then its end (a ``PromptResult`` or an exception)."""

    def __init__(self) -> None:
        self._items: deque[object] = deque()
        self.state = FeedState.OPEN
        self.dropped = 0
        self.began = 0  # when its prompt was sent, in /proc's clock ticks (its commands')
        self.checkpointed: Checkpointed | None = None  # a turn asked for one (docs/sessions.md)
        self._taken = 0
        self._ended = False
        self._end: object = None
        self._ready: anyio.Event | None = None  # the consumer waits for an item
        self._room: anyio.Event | None = None  # the reader waits for room

    def __len__(self) -> int:
        """How many updates wait for the consumer."""
        return len(self._items)

    # --- the reader's side --------------------------------------------------------------
    def put(self, update: object) -> Awaitable[None] | None:
        """Queue ``update``; when the feed is full, the wait to await (the reader's only
        pause: the hot path neither awaits nor checkpoints)."""
        if self.state is not FeedState.OPEN:
            if self.state is FeedState.OVERRUN:
                self.dropped += 1
            return None
        self._items.append(update)
        if self._ready is not None:
            self._ready.set()
        return self._wait_for_room() if len(self._items) >= TURN_BUFFER else None

    async def _wait_for_room(self) -> None:
        while self.state is FeedState.OPEN and len(self._items) > LOW_WATER:
            taken = self._taken
            self._room = room = anyio.Event()
            with anyio.move_on_after(STALL_LIMIT):
                await room.wait()
            if self._taken == taken and self.state is FeedState.OPEN:
                self.state = FeedState.OVERRUN  # nothing taken for STALL_LIMIT

    # --- the turn's side ----------------------------------------------------------------
    def end(self, item: object) -> None:
        """The turn's end: its ``PromptResult``, or the exception to raise. Never waits."""
        self._end, self._ended = item, True
        if self.state is FeedState.OPEN:
            self.state = FeedState.ENDED
        if self._ready is not None:
            self._ready.set()

    # --- the consumer's side ------------------------------------------------------------
    async def get(self) -> object:
        """The next update, then the turn's end (an exception is returned, not raised).

        Raises:
            anyio.EndOfStream: the turn ended without an end (the agent was closed).
            AgentUsageError: updates were dropped (the consumer fell behind).
        """
        while not self._items and not self._ended:
            self._ready = anyio.Event()
            await self._ready.wait()
            self._ready = None
        if self._items:
            self._taken += 1
            if self._room is not None and len(self._items) <= LOW_WATER:
                self._room.set()
                self._room = None
            elif self._taken % YIELD_EVERY == 0:
                await anyio.lowlevel.checkpoint()  # a consumer that never waits
            return self._items.popleft()
        if self.dropped:
            raise self._overrun()
        if self._end is None:
            raise anyio.EndOfStream
        return self._end

    def _overrun(self) -> AgentUsageError:
        failure = self._end if isinstance(self._end, BaseException) else None
        if isinstance(self._end, PromptResult):
            said = f"stop reason {self._end.stop_reason}"
        else:
            said = type(self._end).__name__
        error = AgentUsageError(
            f"{self.dropped} updates of this turn were dropped: its events were not read "
            f"for {STALL_LIMIT} s while {TURN_BUFFER} waited (the turn ended: {said})",
            hint="read a turn's events as they come; hand slow work to a task of its own",
        )
        error.__cause__ = failure
        return error

    async def ended(self) -> None:
        """Wait for the turn's end, whether or not its consumer still reads."""
        while not self._ended:
            self._ready = anyio.Event()
            await self._ready.wait()
            self._ready = None

    def close(self) -> None:
        """The consumer leaves: the reader no longer waits for it."""
        if self.state is FeedState.OPEN:
            self.state = FeedState.LEFT
        self._items.clear()
        if self._room is not None:
            self._room.set()
