"""examples/chat_bot.py, run once against the bundled fake agent (example_runs.py): it
replies to every message, keeps one session per user across turns (reopened too), gives
each user their own, and answers a user's queued messages in order.
"""

from __future__ import annotations

import re

import pytest
from example_runs import run_example

REPLY = re.compile(
    r"^(?P<user>\w+) (?P<turn>#\d|\(reopened\)) < \[session (?P<id>.*)\]\n"
    r"(?P<text>(?:  \|.*(?:\n|$))+)",
    re.MULTILINE,
)


@pytest.fixture(scope="module")
def chat_replies() -> list[dict[str, str]]:
    """The chat bot demo's replies, in the order it printed them."""
    proc = run_example("chat_bot.py")
    assert proc.returncode == 0, proc.stderr
    return [
        {**m.groupdict(), "text": re.sub(r"(?m)^  \| ?", "", m["text"]).strip()}
        for m in REPLY.finditer(proc.stdout)
    ]


def test_chat_bot_replies_to_every_message(chat_replies: list[dict[str, str]]) -> None:
    turns = sorted((r["user"], r["turn"]) for r in chat_replies)
    assert turns == [
        ("alice", "#1"),
        ("alice", "#2"),
        ("alice", "(reopened)"),
        ("bob", "#1"),
        ("bob", "#2"),
    ]
    assert all(r["text"].endswith("Both tests pass.") for r in chat_replies)  # `demo`


def test_chat_bot_keeps_one_session_id_per_user_across_turns(
    chat_replies: list[dict[str, str]],
) -> None:
    for user in ("alice", "bob"):
        ids = {r["id"] for r in chat_replies if r["user"] == user}
        assert len(ids) == 1, ids
        assert re.fullmatch(r"[0-9a-f-]{36}", ids.pop())


def test_chat_bot_gives_each_user_their_own_session(chat_replies: list[dict[str, str]]) -> None:
    alice = {r["id"] for r in chat_replies if r["user"] == "alice"}
    bob = {r["id"] for r in chat_replies if r["user"] == "bob"}
    assert alice.isdisjoint(bob)


def test_chat_bot_answers_a_users_queued_messages_in_order(
    chat_replies: list[dict[str, str]],
) -> None:
    for user in ("alice", "bob"):
        turns = [r["turn"] for r in chat_replies if r["user"] == user]
        assert turns[:2] == ["#1", "#2"]
