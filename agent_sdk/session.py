"""Multi-turn conversations: one :class:`Session` per chat, each turn resuming the last.

A turn is the session's turn-taking (:class:`_Turns`) and a plain :class:`~agent_sdk.Run`:
it waits for its turn, then runs resuming the chat (docs/lifecycle.md, "Sessions").
"""

from __future__ import annotations

import _thread  # the low-level threading API: `threading` costs a run's import time
import sys
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any, TypeVar, overload

import anyio

from ._run.run import Batches, Run
from ._run.session_chat import Chat
from ._run.spending import Spending
from ._run.structured import output_run
from ._transport.base import Transport
from .changes import Changes, Checkpoint  # two small values: none of the machinery
from .errors import AgentConfigError, AgentUsageError
from .events import Event, ResultEvent, ToolCallCompleted, ToolCallStarted
from .options import AgentOptions, given_options, given_prompt
from .result import PlainResult, RunResult
from .tool_calls import ToolCall

__all__ = ["Session", "Turn"]

T = TypeVar("T")


class Session:
    """A chat with the agent over several turns.

    The first turn starts a chat; each later turn resumes it (``--resume <session_id>``,
    the id taken from the events). A new chat's id can be chosen up front, known before
    the first turn: ``Session(options=AgentOptions(new_session_id=new_session_id()))``
    (docs/sessions.md). Turns of one session never overlap: a turn started while another
    runs waits until that one has finished, or until its CLI has exited (waiting turns
    run in the order they were started), so a bot can hand every message of a user to
    that user's session as it arrives. The wait is not part of the waiting
    turn's ``timeout``. A session may be used from several event loops one after the
    other (``run_sync`` in a loop); a turn started while one runs in another thread
    raises :class:`~agent_sdk.AgentUsageError` at once.

    Args:
        session_id: an id stored from an earlier run or session, to reopen that chat.
            ``None`` starts a new chat on the first turn.
        options: options of every turn; ``resume`` and ``new_session_id`` are managed by
            the session (the turn that makes the chat passes its ``new_session_id``, later
            ones resume it). Their ``budget`` is the session's: its turns count together,
            and once it is spent later turns raise :class:`~agent_sdk.AgentBudgetError`
            without starting (docs/budgets.md).
        transport: makes the transport of each turn (tests pass a function returning an
            ``agent_sdk.testing.MemoryTransport``); the default spawns the CLI.

    Raises:
        AgentConfigError: ``options`` asks for ``continue_session`` (the session resumes
            its own chat), or for ``new_session_id`` with a ``session_id`` to reopen, or is
            not an :class:`~agent_sdk.AgentOptions`. Also a ``ValueError``.

    Example::

        session = Session(options=AgentOptions(cwd="repo"))
        print((await session.send("What does cart.py do?")).result)
        print((await session.send("Add a test for it")).result)
        store(session.session_id)  # later: Session(stored_id)
    """

    def __init__(
        self,
        session_id: str | None = None,
        *,
        options: AgentOptions | None = None,
        transport: Callable[[], Transport] | None = None,
    ) -> None:
        options = given_options(options)
        if options.continue_session:
            raise AgentConfigError(
                "a Session resumes its own chat: drop continue_session, and pass the "
                "chat id as Session(session_id) to reopen one"
            )
        self._chat = Chat(session_id, options)
        self._options = options
        self._make_transport = transport
        self._turns = _Turns()
        # The turns share one budget (docs/budgets.md): its counts live as long as the session.
        budget = options.budget
        self._spending = Spending(budget, "session") if budget is not None else None

    @classmethod
    async def create(cls, *, options: AgentOptions | None = None) -> Session:
        """A session on a new, empty chat made by the CLI's ``create-chat``."""
        from .queries import create_chat  # the subcommands load when first used

        return cls(await create_chat(options=options), options=options)

    @property
    def session_id(self) -> str | None:
        """The chat id: store it to reopen the chat later. ``None`` before the first turn,
        unless given or chosen up front (``new_session_id``)."""
        return self._chat.id

    @property
    def options(self) -> AgentOptions:
        return self._options

    def run(self, prompt: str) -> Turn:
        """One turn, streamed: like :func:`agent_sdk.run`, resuming this session's chat."""
        return Turn(self, prompt)

    @overload
    async def send(self, prompt: str) -> PlainResult: ...
    @overload
    async def send(self, prompt: str, *, output_type: type[T]) -> RunResult[T]: ...
    async def send(self, prompt: str, *, output_type: type[Any] | None = None) -> RunResult[Any]:
        """One whole turn; its :class:`RunResult`. With ``output_type``, a validated value
        of that type in ``result.output``; a reply that does not fit is corrected in
        further turns of this chat (queued like any turn; docs/output.md).

        It waits for the turns started before it; the wait is not part of ``timeout``.
        Raises what :func:`agent_sdk.run_async` raises, once the turn is over; a turn
        that failed still leaves the session on its chat (``session_id``) when the CLI
        reported one.

        Raises:
            AgentError: those of :func:`agent_sdk.run`, once the run is over: AgentConfigError,
                AgentNotFoundError and AgentStartError, AgentProcessError (and its subclasses
                with a hint), AgentResultError, AgentProtocolError, AgentTimeoutError.
            AgentBudgetError: the session's budget was reached in this turn, or before it
                (then the turn does not start).
            AgentUsageError: a turn of this session is running in another thread.
            AgentOutputError: with ``output_type``, no reply ended with a value of it.
        """
        if output_type is not None:
            return await output_run(self._turn, given_prompt(prompt), self.options, output_type)
        return await self._turn(prompt, None)

    async def _turn(self, prompt: str, options: AgentOptions | None) -> PlainResult:
        async with Turn(self, prompt, for_result=True, options=options) as turn:
            async for _ in turn:
                pass
        return turn.result

    def __repr__(self) -> str:
        return f"Session(session_id={self._chat.id!r})"


class Turn:
    """One turn of a :class:`Session`, streamed: used like the :class:`~agent_sdk.Run` of
    :func:`agent_sdk.run` (an async iterator and an async context manager, with the same
    attributes). It waits for its turn on entering or on the first iteration."""

    def __init__(
        self,
        session: Session,
        prompt: str,
        *,
        for_result: bool = False,
        options: AgentOptions | None = None,
    ) -> None:
        self._session = session
        self._options = options  # the session's, but for a timeout (an output's turns)
        self._prompt = prompt
        self._for_result = for_result
        self._run: Run | None = None
        self.transport: Transport | None = None
        """The transport of this turn's run, once it is its turn."""

    async def _begin(self) -> Run:
        if self._run is None:
            session = self._session
            await session._turns.acquire(self)
            options = session._chat.options_for(self._options or session.options)
            make = session._make_transport
            self.transport = make() if make is not None else None
            run = Run(self._prompt, options, transport=self.transport)._share(session._spending)
            self._run = run._for_result() if self._for_result else run
        return self._run

    def _end(self) -> None:
        if self._run is not None:
            self._session._chat.learn(self._run)
        self._session._turns.release(self)

    # --- the Run's surface ----------------------------------------------------------
    def __aiter__(self) -> Turn:
        return self

    async def __anext__(self) -> Event:
        run = self._run if self._run is not None else await self._begin()
        try:
            return await run.__anext__()
        except BaseException:
            self._end()  # over, however it ended
            raise

    def batches(self) -> AsyncIterator[list[Event]]:
        """The turn's events a read at a time, as :meth:`agent_sdk.Run.batches`."""
        return Batches(self._next_batch)

    async def _next_batch(self) -> list[Event]:
        run = self._run if self._run is not None else await self._begin()
        try:
            return await run._next_batch()
        except BaseException:
            self._end()  # over, however it ended
            raise

    async def __aenter__(self) -> Turn:
        run = await self._begin()
        try:
            await run.__aenter__()
        except BaseException:
            self._end()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """End the turn now (its CLI's process group too) and free the session."""
        try:
            if self._run is not None:
                await self._run.aclose()
        finally:
            self._end()

    @property
    def result(self) -> PlainResult:
        return self._started().result

    @property
    def events(self) -> list[Event]:
        return self._run.events if self._run is not None else []

    @property
    def session_id(self) -> str | None:
        return self._run.session_id if self._run is not None else None

    @property
    def result_event(self) -> ResultEvent | None:
        return self._run.result_event if self._run is not None else None

    @property
    def pid(self) -> int | None:
        return self._run.pid if self._run is not None else None

    @property
    def tool_calls(self) -> list[ToolCall]:
        return self._run.tool_calls if self._run is not None else []

    @property
    def checkpoint(self) -> Checkpoint | None:
        """As :attr:`agent_sdk.Run.checkpoint` (docs/sessions.md, "Checkpointed runs")."""
        return self._run.checkpoint if self._run is not None else None

    @property
    def changes(self) -> Changes | None:
        """As :attr:`agent_sdk.Run.changes`: what the turn changed, once it is over."""
        return self._run.changes if self._run is not None else None

    def tool_call(self, event: ToolCallStarted | ToolCallCompleted) -> ToolCall:
        return self._started().tool_call(event)

    def _started(self) -> Run:
        if self._run is None:
            raise AgentUsageError("the turn has not started: iterate it first")
        return self._run


class _Turns:
    """Which turn of a session may run: one at a time, in the order they asked.

    The turn holding the session is referenced weakly: a turn dropped without being
    closed (its run then kills its CLI) frees the session. A turn also stops holding it
    once its CLI has exited, so one left unfinished with ``break`` does not block the
    next turn for longer than its CLI runs.
    """

    def __init__(self) -> None:
        self._holder: weakref.ref[Turn] | None = None
        self._holder_loop: tuple[int, object] | None = None
        self._waiting: deque[object] = deque()
        self._changed: tuple[tuple[int, object], anyio.Event] | None = None
        self._mutex = _thread.allocate_lock()

    async def acquire(self, turn: Turn) -> None:
        loop = _current_loop()
        ticket = object()
        self._waiting.append(ticket)
        try:
            while True:
                with self._mutex:
                    holder = self._current_holder()
                    if holder is not None and self._holder_loop != loop:
                        if self._holder_loop is not None and self._holder_loop[0] == loop[0]:
                            # Held by a turn of an event loop of this thread that is over:
                            # nothing will ever end that turn but us.
                            _abandon(holder)
                            holder = None
                        else:
                            raise AgentUsageError(
                                "this Session has a turn running in another thread; turns "
                                "of one session run one at a time in one event loop: use "
                                "one Session per thread, or wait for that turn to finish"
                            )
                    if holder is None and self._waiting[0] is ticket:
                        self._waiting.popleft()
                        self._holder = weakref.ref(turn)
                        self._holder_loop = loop
                        return
                await self._wait_for_change(holder, loop)
        except BaseException:
            if ticket in self._waiting:
                self._waiting.remove(ticket)
                self._notify()
            raise

    def release(self, turn: Turn) -> None:
        if self._holder is not None and self._holder() is turn:
            self._holder = None
            self._holder_loop = None
            self._notify()

    def _current_holder(self) -> Turn | None:
        holder = self._holder() if self._holder is not None else None
        if holder is not None and _cli_exited(holder):
            if holder._run is not None:
                holder._session._chat.learn(holder._run)
            holder = None
        if holder is None:
            self._holder = None
            self._holder_loop = None
        return holder

    async def _wait_for_change(self, holder: Turn | None, loop: tuple[int, object]) -> None:
        if self._changed is None or self._changed[0] != loop:
            self._changed = (loop, anyio.Event())
        changed = self._changed[1]
        transport = holder.transport if holder is not None else None
        if transport is None or transport.pid is None:
            await changed.wait()
            return
        async with anyio.create_task_group() as tg:
            tg.start_soon(_set_after_exit, transport, changed)
            await changed.wait()
            tg.cancel_scope.cancel()

    def _notify(self) -> None:
        if self._changed is not None:
            loop, changed = self._changed
            self._changed = None
            if loop == _current_loop_or_none():
                changed.set()


async def _set_after_exit(transport: Transport, changed: anyio.Event) -> None:
    await transport.wait()
    changed.set()


def _cli_exited(turn: Turn) -> bool:
    transport = turn.transport
    return transport is not None and transport.pid is not None and transport.returncode is not None


def _abandon(turn: Turn) -> None:
    if turn.transport is not None:
        turn.transport.kill_now()


def _current_loop() -> tuple[int, object]:
    loop = _current_loop_or_none()
    assert loop is not None
    return loop


def _current_loop_or_none() -> tuple[int, object] | None:
    """This thread and its running event loop (asyncio's loop, or trio's run)."""
    import asyncio  # here: a trio program never loads asyncio otherwise

    try:
        native: object = asyncio.get_running_loop()
    except RuntimeError:
        trio = sys.modules.get("trio")
        if trio is None or not trio.lowlevel.in_trio_run():
            return None
        native = trio.lowlevel.current_trio_token()
    return _thread.get_ident(), native
