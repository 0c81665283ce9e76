"""The private config dir of a run given a model (docs/protocol.md §1, "Many runs at once").

The CLI stores the model of every ``--model`` run in its config dir's ``cli-config.json``,
and a later run without ``--model`` uses the stored one: runs sharing a config dir would get
whichever model was stored last, and the user's own default would change. So a run given a
model runs with ``CURSOR_CONFIG_DIR`` set to a private directory that holds a copy of the
user's ``cli-config.json`` and a link to every other entry of the user's config dir (the
login, chats, project data): the CLI stores the model in the copy, which goes when the run
ends, and everything else it reads and writes is the user's as in any run. A ``chats``
directory the user's config dir lacks (the first chat on a machine) is made there first and
linked, so the chat is the user's at once.

At the end only the **login's file** comes back (``auth.json``, renamed over its link when
the CLI refreshed a token, docs/protocol.md §1): a regular file, opened without following a
link and checked with ``fstat``, at most :data:`LOGIN_MAX` bytes, written 0600. Nothing else
made there is moved into the user's config dir: a process that can write the temp dir (an
agent's sandbox often can) must not plant ``hooks.json``, ``mcp.json``, skills or a link
into the user's config dir through it (docs/extend.md, "Who may connect").

Each private dir holds its owner's marker (``_transport/owner.py``): one left by a process that died
is removed by the next run given a model, or the next fleet.
"""

from __future__ import annotations

import _thread  # the low-level lock: `threading` costs a run's import time
import contextlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

import msgspec

from .._options.invocation import Invocation, passes_model
from ..errors import AgentStartError
from .owner import PREFIXES, mark, sweep

__all__ = [
    "CHATS",
    "CONFIG_DIR_ENV",
    "CONFIG_NAME",
    "LOGIN_FILES",
    "LOGIN_MAX",
    "PREFIX",
    "PrivateConfig",
    "copy_file",
    "in_private_config",
    "passes_model",
    "release_all",
    "user_config_dir",
]

CONFIG_DIR_ENV = "CURSOR_CONFIG_DIR"
CONFIG_NAME = "cli-config.json"
PREFIX = PREFIXES[2]
"""How the names of the private dirs begin (in the system's temp dir)."""
LOGIN_FILES = ("auth.json",)
"""What the CLI's login writes in its config dir (``AGENT_CLI_CREDENTIAL_STORE=file``,
reported: docs/protocol.md §1, "Many runs at once"): the only names ever copied back."""
LOGIN_MAX = 1 << 20
"""Bytes a login's file may take to be copied back (a login is a few hundred)."""
CHATS = "chats"
"""The directory the CLI keeps its chats in, in its config dir (reported, docs/protocol.md
§1, "Environment"): made in the user's before a run when it lacks one, and linked."""


# Not yet released: released at interpreter exit. A forked child starts with none: they
# are its parent's (docs/lifecycle.md, "When the program forks").
_live: set[PrivateConfig] = set()
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_live.clear)


def in_private_config(invocation: Invocation) -> tuple[PrivateConfig, Invocation]:
    """A private config dir made from the config dir of ``invocation``'s environment,
    and ``invocation`` run in it. Release it once the CLI's process group is dead.

    Raises:
        AgentStartError: the dir could not be made (what the OS said).
    """
    try:
        config = PrivateConfig(user_config_dir(invocation.env))
    except OSError as exc:
        raise AgentStartError(
            f"could not make the run's private config dir (for its model): {exc}",
            hint="check that TMPDIR names a writable directory with free space, and that "
            "the CLI's config dir (CURSOR_CONFIG_DIR, else ~/.cursor) is readable",
        ) from exc
    env = {**invocation.env, CONFIG_DIR_ENV: str(config.path)}
    return config, msgspec.structs.replace(invocation, env=env)


def release_all() -> None:
    """Release every private config dir not released yet (at interpreter exit)."""
    for config in list(_live):
        config.release()


def user_config_dir(env: Mapping[str, str]) -> Path:
    """The CLI's config dir for the environment ``env`` (docs/protocol.md §1,
    "Environment"): ``$CURSOR_CONFIG_DIR`` when set; else the first of
    ``$XDG_CONFIG_HOME/cursor`` (Linux and the BSDs, documented), ``~/.config/cursor``
    (Linux, reported) and ``~/.cursor`` that holds a ``cli-config.json``; else
    ``~/.cursor`` (``~``: ``env``'s ``HOME``, else this process's)."""
    configured = env.get(CONFIG_DIR_ENV)
    if configured:
        return Path(os.path.expanduser(configured))
    # The CLI's HOME: the one of its environment (an AgentOptions(env=...) may set it).
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    candidates = []
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        xdg = env.get("XDG_CONFIG_HOME")
        if xdg:
            candidates.append(Path(xdg) / "cursor")
        candidates.append(home / ".config" / "cursor")
    candidates.append(home / ".cursor")
    for candidate in candidates:
        if (candidate / CONFIG_NAME).is_file():
            return candidate
    return home / ".cursor"


class PrivateConfig:
    """A private config dir for one run, made from the user's; :meth:`release` ends it.

    Attributes:
        path: the directory to pass as ``CURSOR_CONFIG_DIR``.
    """

    def __init__(self, user: Path) -> None:
        sweep(PREFIX, _remove)
        self._user = user
        self._owned = Path(tempfile.mkdtemp(prefix=PREFIX)).resolve()  # mode 0700
        self.path = self._owned / "config"
        try:
            mark(self._owned)
            self.path.mkdir(mode=0o700)
            _fill(user, self.path)
        except BaseException:
            _remove(self._owned)
            raise
        self._releasing = _thread.allocate_lock()
        _live.add(self)

    def release(self) -> None:
        """Move the directories the CLI made that the user's config dir lacks into it,
        then remove the private dir. Call it once the CLI's process group is gone.

        A run's own teardown may be releasing it in another thread when the program
        exits: the exit's release waits for that one, and the dir leaves the live set
        only once removed (a daemon thread stops for good when the exit is over)."""
        with self._releasing:
            if self not in _live:
                return
            with contextlib.suppress(OSError):
                _adopt(self.path, self._user)
            _remove(self._owned)
            _live.discard(self)


def _fill(user: Path, target: Path) -> None:
    """``target`` given a copy of the user's config file and a link to each other entry."""
    # The first chat on a machine lands in the user's dir through the link, as in any
    # run: nothing made in the private dir is moved back but the login's file.
    with contextlib.suppress(FileExistsError):
        (user / CHATS).mkdir(mode=0o700, parents=True)
    try:
        entries = sorted(os.scandir(user), key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if entry.name == CONFIG_NAME:
            copy_file(Path(entry.path), target / CONFIG_NAME)
        elif not entry.name.startswith(CONFIG_NAME):
            # Not its temp or .bad files: an older CLI writes `cli-config.json.tmp` in
            # place, and through a link would write into the user's dir.
            os.symlink(os.path.abspath(entry.path), target / entry.name)


def copy_file(source: Path, target: Path) -> None:
    """Copy one regular file's content and permission bits; anything else is skipped.

    Opened non-blocking and checked with ``fstat`` so a FIFO or device never blocks or gets
    read, and a file swapped between listing and opening is judged by what was opened.
    """
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):  # gone since listed (e.g. a .tmp)
        return
    with os.fdopen(fd, "rb") as src:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            return
        # Created 0600 so the content is never readable by others, then given its mode.
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(out, "wb") as dst:
            shutil.copyfileobj(src, dst)
            os.fchmod(dst.fileno(), stat.S_IMODE(mode))


def _adopt(private: Path, user: Path) -> None:
    """Copy into ``user`` each of :data:`LOGIN_FILES` the CLI wrote in ``private`` (new,
    or renamed over the link to the user's: a refreshed login), when it is a regular file
    of at most :data:`LOGIN_MAX` bytes; nothing else (see the module's docstring)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    directory = os.open(private, flags)
    try:
        for name in LOGIN_FILES:
            content = _regular_file(directory, name)
            if content is not None:
                _replace(user, name, content)
    finally:
        os.close(directory)


def _regular_file(directory: int, name: str) -> bytes | None:
    """The content of ``name`` in ``directory`` if it is a regular file (not a link, a
    FIFO, a device, a directory) of at most :data:`LOGIN_MAX` bytes; else ``None``.
    Judged by what was opened (``fstat``), never followed, never blocking."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags, dir_fd=directory)
    except OSError:  # none, a link (ELOOP), or unreadable: the user's stays as it is
        return None
    with os.fdopen(fd, "rb") as opened:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > LOGIN_MAX:
            return None
        content = opened.read(LOGIN_MAX + 1)
    return content if len(content) <= LOGIN_MAX else None


def _replace(user: Path, name: str, content: bytes) -> None:
    """``user/name`` replaced by ``content``, owner-only (a login is a secret): written
    beside it, then renamed over it, atomic for the CLI reading it."""
    user.mkdir(mode=0o700, parents=True, exist_ok=True)
    beside = user / f".{name}.agent-sdk-{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        beside.unlink()  # one a killed release of ours left
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(beside, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        os.replace(beside, user / name)
    except BaseException:
        with contextlib.suppress(OSError):
            beside.unlink()
        raise


def _remove(path: Path) -> None:
    """Remove ``path``; its links are removed, never followed."""
    shutil.rmtree(path, ignore_errors=True)
