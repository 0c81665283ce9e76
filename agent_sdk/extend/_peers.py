"""Who may connect to a run's tools: the relay the CLI started, nothing else
(docs/extend.md, "Who may connect").

The run's token is in the environment of everything the CLI starts, so a shell command the
agent runs holds it too, and could call the tools or answer the gates itself, past
``before_tool`` and the budget. So the host also checks the process at the other end of
each connection (:func:`peer_of`, read when it is accepted; :func:`cli_relay`, once its
first line named its mode):

- **Linux**: ``SO_PEERCRED`` names the process that connected (its pid and uid, as the
  kernel saw them at ``connect``); then ``/proc`` must say
  1. its uid is ours;
  2. its session is led by a child of this process whose environment carries this host's
     token: a CLI started for this host (each CLI is started leading a session and a
     process group of its own, ``_transport/spawn.py``);
  3. it, and each process above it up to that leader, is in that session and in the
     leader's process group. The CLI starts its MCP servers and hook commands there
     (*inferred*: docs/protocol.md §6.3, §7 say nothing of groups); a shell command the
     agent runs leads a session of its own (docs/protocol.md §5, docs/lifecycle.md), and
     no process can join a session it is not in; one orphaned (double-forked) is no
     longer below the CLI;
  4. it runs our relay: ``/proc/<pid>/exe`` is this Python's file, and its argv is
     ``-I -S <this package's _relay.py>`` in the mode its first line named (``mcp``,
     ``hook``): a program whose behaviour is fixed, which only forwards its stdin.
- **macOS**: ``LOCAL_PEERCRED`` (the uid) and ``LOCAL_PEERPID`` (the pid), then
  ``getsid`` and ``getpgid``: 1, and its session and group are those of a CLI this program
  started and has not ended (``_transport/groups.py``). No ``/proc``: the leader's
  environment, the chain, the executable and the argv are not checked.
- **Elsewhere** nothing says who connected: every connection is refused.

A refusal is a sentence for the log, never holding the token nor the peer's argv (which
may hold it): the connection is closed, nothing served.
"""

from __future__ import annotations

import os
import socket
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from .._transport.log import log
from ._relay import HOOK_MODE, HOOKS_TOKEN_ENV, TOKEN_ENV

__all__ = ["Peer", "PeerCheck", "admits", "cli_relay", "peer_of"]

WARNING = 30  # logging's level, as a constant: its import is the program's choice

#: The mode word of the relay's argv for each mode its first line names.
_MODE_WORDS = {b"": b"mcp", HOOK_MODE: b"hook"}
_RELAY = os.fsencode(Path(__file__).with_name("_relay.py"))
_MAX_DEPTH = 64  # processes between a relay and its CLI: a few in practice
# macOS <sys/un.h>: getsockopt level and options of a Unix socket, and struct xucred
# (u_int version, uid_t uid, short ngroups, gid_t groups[16]).
_SOL_LOCAL, _LOCAL_PEERCRED, _LOCAL_PEERPID = 0, 1, 2
_XUCRED_SIZE = 76
_UCRED = struct.Struct("iII")  # Linux struct ucred: pid, uid, gid


class Peer(NamedTuple):
    """The process at the other end of a connection, as the kernel saw it connect."""

    pid: int
    uid: int


PeerCheck = Callable[[Peer | None, bytes, str], str | None]
"""Whether a connection may be served: ``(peer, mode, token)`` (the mode its first line
named: ``b""`` for MCP, ``b"hook"``; the host's token) to ``None``, or why not in words."""


def peer_of(sock: socket.socket) -> Peer | None:
    """The process that connected ``sock`` (an accepted Unix socket); ``None`` where the
    system does not say."""
    try:
        if sys.platform.startswith("linux"):
            data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
            pid, uid, _ = _UCRED.unpack(data)
            return Peer(pid, uid)
        if sys.platform == "darwin":
            creds = sock.getsockopt(_SOL_LOCAL, _LOCAL_PEERCRED, _XUCRED_SIZE)
            (uid,) = struct.unpack_from("=I", creds, 4)
            return Peer(sock.getsockopt(_SOL_LOCAL, _LOCAL_PEERPID), uid)
    except (OSError, struct.error):
        return None
    return None


def admits(check: PeerCheck, peer: Peer | None, mode: bytes, token: str) -> bool:
    """Whether ``check`` lets ``peer`` in; a refusal is logged in words on
    ``agent_sdk.extend`` (WARNING): never the token, nor the peer's argv (it may hold it)."""
    refused = check(peer, mode, token)
    if refused is not None:
        pid = peer.pid if peer is not None else 0
        log(
            "extend", WARNING, "refused a connection to a run's tools from pid %d: %s", pid, refused
        )
    return refused is None


def cli_relay(peer: Peer | None, mode: bytes, token: str) -> str | None:
    """``None`` when ``peer`` is the relay a CLI started for the host of ``token``, in
    ``mode``; else why not (see the module's docstring)."""
    if peer is None or peer.pid <= 0:  # 0: in another pid namespace
        return "this system does not say which process connected"
    if peer.uid != os.geteuid():
        return f"it runs as another user (uid {peer.uid})"
    if sys.platform.startswith("linux"):
        return _linux(peer.pid, mode, token)
    if sys.platform == "darwin":
        return _darwin(peer.pid)
    return "this system does not say which process connected"


def _stat(pid: int) -> tuple[int, int, int] | None:
    """The parent, process group and session of ``pid``; ``None`` once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            data = file.read()
        # "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
        fields = data.rpartition(b")")[2].split()
        return int(fields[1]), int(fields[2]), int(fields[3])
    except (OSError, ValueError, IndexError):
        return None


def _started_for(leader: int, token: str) -> bool:
    """Whether ``leader`` leads its session, is this process's child, and was started
    with ``token`` in its environment (under either relay mode's variable)."""
    found = _stat(leader)
    if found is None or found[0] != os.getpid() or found[2] != leader:
        return False
    try:
        with open(f"/proc/{leader}/environ", "rb") as file:
            environ = b"\0" + file.read()
    except OSError:
        return False
    value = token.encode("utf-8", "surrogateescape")
    return any(
        b"\0" + name.encode() + b"=" + value + b"\0" in environ
        for name in (TOKEN_ENV, HOOKS_TOKEN_ENV)
    )


def _linux(pid: int, mode: bytes, token: str) -> str | None:
    found = _stat(pid)
    if found is None:
        return "it was gone before it could be checked"
    session = found[2]
    if not _started_for(session, token):
        return (
            "its session is not led by a CLI this run started (a shell command the agent "
            "runs leads a session of its own)"
        )
    depth, current = 0, pid
    while current != session:
        if found is None or found[1] != session or found[2] != session or depth > _MAX_DEPTH:
            return "it is not below the CLI within the CLI's process group"
        current, depth = found[0], depth + 1
        found = _stat(current)
    return _runs_relay(pid, mode)


def _runs_relay(pid: int, mode: bytes) -> str | None:
    word = _MODE_WORDS.get(mode)
    if word is None:
        return "its first line names no mode the host serves"
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            argv = file.read().split(b"\0")
        theirs, ours = os.stat(f"/proc/{pid}/exe"), os.stat(sys.executable)
    except OSError:
        return "its program could not be read"
    if (theirs.st_dev, theirs.st_ino) != (ours.st_dev, ours.st_ino):
        return "it is not the run's relay (another program)"
    if argv[1:5] != [b"-I", b"-S", _RELAY, word]:
        return f"it is not the run's relay in {word.decode()} mode"
    return None


def _darwin(pid: int) -> str | None:
    from .._transport.groups import mark_of

    try:
        session, group = os.getsid(pid), os.getpgid(pid)
    except OSError:
        return "it was gone before it could be checked"
    if group != session or mark_of(session) is None:
        return (
            "its session and process group are not those of a CLI this program started "
            "(a shell command the agent runs leads a session of its own)"
        )
    return None
