"""A chat bot: one agent chat per user, many users at once.

    python examples/chat_bot.py

``Bot`` keeps one ``agent_sdk.Session`` per user. A ``Session`` is one chat with the
agent: its first turn starts a new chat, every later turn resumes it (``--resume <id>``),
and turns of one session never overlap: a message that arrives while the agent is still
answering the previous one waits its turn. Different users' sessions run in parallel.

The demo plays a scripted conversation of two users whose messages arrive all at once
(an anyio task group), prints each reply with the user's session id, then "restarts"
the bot from the saved ids to show that a chat can be reopened later.
"""

from __future__ import annotations

import sys

import anyio
from _agent import default_options

from agent_sdk import AgentError, AgentOptions, Session


class Bot:
    """Answers each user in that user's own agent chat."""

    def __init__(self, options: AgentOptions, saved: dict[str, str] | None = None) -> None:
        self._options = options
        # A session id is all it takes to reopen a chat: a bot would keep them in its
        # database. Sessions without a saved id get one from their first turn.
        self.sessions: dict[str, Session] = {
            user_id: Session(session_id, options=options)
            for user_id, session_id in (saved or {}).items()
        }

    def session_ids(self) -> dict[str, str]:
        """What to save to reopen every user's chat later."""
        return {
            user_id: session.session_id
            for user_id, session in self.sessions.items()
            if session.session_id is not None  # None: no turn has reported an id yet
        }

    async def handle(self, user_id: str, text: str) -> str:
        """The agent's reply to one message of a user."""
        # No await between the lookup and the insert: two messages of a new user
        # arriving together still share one Session.
        # (To know a user's chat id before their first turn, make the chat up front:
        # `await Session.create(options=...)`, or `Session(await create_chat())`.)
        session = self.sessions.get(user_id)
        if session is None:
            session = self.sessions[user_id] = Session(options=self._options)
        try:
            result = await session.send(text)  # queues behind the user's previous turn
        except AgentError as exc:
            # Everything that can go wrong in a run is an AgentError; the chat stays
            # usable (exc.session_id says where it got to).
            return f"Sorry, that did not work: {exc.message}"
        return result.text


CONVERSATION = [
    ("alice", "What does the cart module do?"),
    ("bob", "Add a test for cart totals"),
    ("alice", "Now add type hints to it"),
    ("bob", "Run the tests and tell me what failed"),
]


def show(who: str, reply: str, session_id: str | None) -> None:
    """One reply, in one print (the turns run concurrently): a reply can have several
    paragraphs, one per message of the agent."""
    quoted = "\n".join(f"  | {line}".rstrip() for line in reply.splitlines())
    print(f"{who} < [session {session_id}]\n{quoted}")


async def demo() -> None:
    bot = Bot(default_options())
    turns: dict[str, int] = {}

    async def deliver(user_id: str, text: str) -> None:
        turns[user_id] = turn = turns.get(user_id, 0) + 1
        print(f"{user_id} #{turn} > {text}")
        reply = await bot.handle(user_id, text)
        show(f"{user_id} #{turn}", reply, bot.sessions[user_id].session_id)

    # All four messages arrive at once: alice's and bob's turns run concurrently,
    # and each user's second message waits for the answer to their first.
    async with anyio.create_task_group() as tg:
        for user_id, text in CONVERSATION:
            tg.start_soon(deliver, user_id, text)

    saved = bot.session_ids()
    for user_id, session_id in saved.items():
        print(f"saved: {user_id} -> {session_id}")

    # Later, in a new process: reopen alice's chat from the saved id.
    bot = Bot(default_options(), saved=saved)
    reply = await bot.handle("alice", "Where were we?")
    show("alice (reopened)", reply, bot.sessions["alice"].session_id)


def main() -> int:
    anyio.run(demo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
