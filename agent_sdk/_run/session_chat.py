"""A :class:`~agent_sdk.Session`'s chat: its id, and whether the chat exists yet, which
decides how each turn names it to the CLI (docs/sessions.md, "The chat id, chosen up
front").

An id chosen up front (``AgentOptions(new_session_id=...)``) is single use: the turn
that makes the chat passes ``--new-session-id``, every later one ``--resume``
(docs/protocol.md §1, "Hidden flags"). A turn that ended before the CLI made the chat
(refused at start: login, model, trust) leaves the id unused, so the next turn passes it
again: resuming an id no chat has was seen to start a fresh chat, of an id not recorded
(docs/protocol.md §1, ``--resume``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

import msgspec

from ..errors import AgentConfigError

if TYPE_CHECKING:
    from ..options import AgentOptions
    from .run import Run

__all__ = ["Chat", "ChatState"]


class ChatState(enum.Enum):
    UNNAMED = "unnamed"  # no id yet: the first turn's CLI picks one
    CHOSEN = "chosen"  # an id chosen up front, its chat not made yet: --new-session-id
    OPEN = "open"  # the chat exists (or was given by its id): --resume


class Chat:
    """The chat of one session (see the module's docstring).

    Raises:
        AgentConfigError: the session was given an id to reopen and ``new_session_id``
            in its options, which asks for a new chat.
    """

    def __init__(self, session_id: str | None, options: AgentOptions) -> None:
        chosen = options.new_session_id
        if session_id is not None and chosen is not None:
            raise AgentConfigError(
                f"Session({session_id!r}) reopens that chat, and new_session_id asks for a "
                "new one: pass one of them",
                hint="Session(options=AgentOptions(new_session_id=...)) starts a chat of that "
                "id; Session(stored_id) continues one",
            )
        self.id = session_id if session_id is not None else options.resume or chosen
        if chosen is not None:
            self.state = ChatState.CHOSEN
        else:
            self.state = ChatState.UNNAMED if self.id is None else ChatState.OPEN

    def options_for(self, options: AgentOptions) -> AgentOptions:
        """``options`` for the next turn: naming the chat as its state says."""
        if self.state is ChatState.CHOSEN:
            return msgspec.structs.replace(options, resume=None, new_session_id=self.id)
        if self.state is ChatState.OPEN:
            return msgspec.structs.replace(options, resume=self.id, new_session_id=None)
        return options

    def learn(self, run: Run) -> None:
        """What a turn's ``run`` tells about the chat, once its CLI is over: its id, and
        that the chat exists once an event carried the id or the run succeeded."""
        made = run._stream.session_reported or run._result is not None
        if self.state is ChatState.CHOSEN and not made:
            return  # refused before the chat was made: the id is still unused
        if run.session_id is not None:
            self.id = run.session_id
            self.state = ChatState.OPEN
