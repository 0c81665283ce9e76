"""The real CLI's chat store, as far as a chat's id goes (docs/protocol.md §1, "Hidden
flags"; §5): ``--new-session-id <uuid>`` makes the run's chat that uuid, in
``<config dir>/chats/<workspace hash>/<uuid>/``, and a second run given the same uuid
fails with ``Error: Session ID "<uuid>" is already in use.`` and exit 1.

Only under ``$CURSOR_CONFIG_DIR``, as the config file (``_fleet.py``): the fake never
writes in the home directory of whoever runs the tests. Without it, the id is honoured
and remembered nowhere, so a reuse is not caught. The store holds one empty folder per
chat the fake made with ``--new-session-id``; the real one's contents, and its
workspace hash, are the CLI's own (the fake's hash: md5 of the workspace path).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping

from ._fleet import CONFIG_DIR_ENV

__all__ = ["in_use_message", "make_chat", "taken"]


def _chats(environ: Mapping[str, str], chat_id: str) -> str | None:
    """The store, if there is one and ``chat_id`` can name a folder in it."""
    directory = environ.get(CONFIG_DIR_ENV)
    if not directory or chat_id in ("", ".", "..") or any(c in chat_id for c in "/\\\0"):
        return None
    return os.path.join(os.path.abspath(directory), "chats")


def taken(chat_id: str, environ: Mapping[str, str]) -> bool:
    """Whether a chat of ``chat_id`` is in the store, under any workspace (whether the
    real CLI looks beyond the run's workspace is **unknown**: the fake does)."""
    chats = _chats(environ, chat_id)
    if chats is None or not os.path.isdir(chats):
        return False
    return any(os.path.isdir(os.path.join(chats, hashed, chat_id)) for hashed in os.listdir(chats))


def make_chat(chat_id: str, workspace: str, environ: Mapping[str, str]) -> None:
    """Record the chat of ``chat_id`` in the store (nothing without ``$CURSOR_CONFIG_DIR``)."""
    chats = _chats(environ, chat_id)
    if chats is None:
        return
    hashed = hashlib.md5(workspace.encode("utf-8"), usedforsecurity=False).hexdigest()
    os.makedirs(os.path.join(chats, hashed, chat_id), exist_ok=True)


def in_use_message(chat_id: str) -> str:
    """The real CLI's line for a reused ``--new-session-id`` (docs/protocol.md §5)."""
    return f'Error: Session ID "{chat_id}" is already in use.\n'
