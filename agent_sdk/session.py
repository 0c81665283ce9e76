"""Multi-turn conversations: one :class:`Session` per chat, each turn resuming the last."""

from __future__ import annotations

import anyio
import msgspec

from ._run import Run
from .options import AgentOptions
from .queries import create_chat
from .result import RunResult

__all__ = ["Session"]


class Session:
    """A chat with the agent over several turns.

    The first turn starts a chat; each later turn resumes it (``--resume <session_id>``,
    the id taken from the events). Turns of one session never overlap: a turn started
    while another runs waits until that one has finished (waiting turns run in the
    order they were started), so a bot can hand every message of a user to that
    user's session as it arrives.

    Args:
        session_id: an id stored from an earlier run or session, to reopen that chat.
            ``None`` starts a new chat on the first turn.
        options: options of every turn; ``resume`` is managed by the session.

    Raises:
        ValueError: ``options`` asks for ``continue_session`` (the session resumes
            its own chat).

    Example::

        session = Session(options=AgentOptions(cwd="repo"))
        print((await session.send("What does cart.py do?")).result)
        print((await session.send("Add a test for it")).result)
        store(session.session_id)  # later: Session(stored_id)
    """

    def __init__(self, session_id: str | None = None, *, options: AgentOptions | None = None):
        options = options if options is not None else AgentOptions()
        if options.continue_session:
            raise ValueError(
                "a Session resumes its own chat: drop continue_session, and pass the "
                "chat id as Session(session_id) to reopen one"
            )
        self._session_id = session_id if session_id is not None else options.resume
        self._options = options
        self._turn: anyio.Semaphore | None = None

    @classmethod
    async def create(cls, *, options: AgentOptions | None = None) -> Session:
        """A session on a new, empty chat made by the CLI's ``create-chat``."""
        return cls(await create_chat(options=options), options=options)

    @property
    def session_id(self) -> str | None:
        """The chat id: store it to reopen the chat later. ``None`` before the first turn."""
        return self._session_id

    @property
    def options(self) -> AgentOptions:
        return self._options

    def run(self, prompt: str) -> Run:
        """One turn, streamed: like :func:`agent_sdk.run`, resuming this session's chat."""
        return _Turn(self, prompt)

    async def send(self, prompt: str) -> RunResult:
        """One whole turn; its :class:`RunResult`. Raises what :func:`agent_sdk.run` raises."""
        async with self.run(prompt)._for_result() as events:
            async for _ in events:
                pass
        return events.result

    def __repr__(self) -> str:
        return f"Session(session_id={self._session_id!r})"


class _Turn(Run):
    """A run that waits for its session's previous turn and resumes its chat."""

    def __init__(self, session: Session, prompt: str) -> None:
        super().__init__(prompt, session.options)
        self._session = session
        self._holds_turn = False

    async def _prepare(self) -> AgentOptions:
        session = self._session
        if session._turn is None:
            # Made on first use, inside the event loop that runs the turns.
            session._turn = anyio.Semaphore(1)
        await session._turn.acquire()
        self._holds_turn = True
        if session._session_id is None:
            return session._options
        return msgspec.structs.replace(session._options, resume=session._session_id)

    def _on_end(self) -> None:
        session = self._session
        if self.session_id is not None:
            session._session_id = self.session_id
        if self._holds_turn and session._turn is not None:
            self._holds_turn = False
            session._turn.release()
