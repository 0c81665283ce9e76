"""A config dir of its own for each task of a fleet (docs/fleet.md, Isolation):
:func:`isolated_config` makes a private ``CURSOR_CONFIG_DIR`` seeded from the user's, so
runs started together do not race on ``cli-config.json`` (docs/protocol.md §1, "Many runs
at once") and are still logged in. The worktree isolation is in ``_worktree.py``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio

from .._transport.config_dir import copy_file, user_config_dir
from .._transport.owner import MARKER, mark
from ..errors import AgentConfigError, AgentStartError

__all__ = ["isolated_config", "remove_tree", "temp_dir"]


# --- config isolation ------------------------------------------------------------------
def _seed(seed: Path, target: Path) -> None:
    try:
        entries = sorted(os.scandir(seed), key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        # Sub-directories (chats, project caches) are never copied: they can be large.
        # A symlink to a regular file gives its content as a plain file, never the link:
        # a link would let the CLI write through it into the user's config.
        if entry.is_file(follow_symlinks=True):
            copy_file(Path(entry.path), target / entry.name)


def remove_tree(path: Path) -> None:
    """Remove ``path`` even where a run left read-only directories in it. Its owner's
    marker goes last: a removal cut short (the process killed) leaves a directory the
    next fleet start still knows to sweep (docs/fleet.md)."""
    try:
        entries = [entry for entry in os.scandir(path) if entry.name != MARKER]
    except FileNotFoundError:
        return
    except NotADirectoryError:
        entries = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            _remove_dir(Path(entry.path))
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)
    _remove_dir(path)


def _remove_dir(path: Path) -> None:
    try:
        shutil.rmtree(path)
    except FileNotFoundError:
        return
    except OSError:
        for root, dirs, _ in os.walk(path):
            for name in dirs:
                with contextlib.suppress(OSError):
                    os.chmod(os.path.join(root, name), 0o700)
        shutil.rmtree(path, ignore_errors=True)


def _config_dir(seed: str | Path | None) -> tuple[Path, Path]:
    """The seed to copy from, and a new private (0700) directory holding the marker of
    its owner and, in it, the empty ``config`` dir to copy the seed to (so that the CLI's
    config dir holds nothing of ours)."""
    # No home: "~" stays, and is not there.
    source = user_config_dir(os.environ) if seed is None else Path(os.path.expanduser(seed))
    if source.exists() and not source.is_dir():
        raise AgentConfigError(
            f"isolated_config(seed={str(source)!r}): not a directory",
            hint="pass the CLI's config dir (the one CURSOR_CONFIG_DIR names, or ~/.cursor)",
        )
    return source, temp_dir("agent-sdk-config-", None)


def _make_config(path: Path) -> Path:
    config = path / "config"
    with _writing_in(path):
        config.mkdir(mode=0o700)
    return config


@contextlib.contextmanager
def _writing_in(path: Path) -> Iterator[None]:
    """Writing in the new directory ``path``: on failure it goes, and the error says why."""
    try:
        yield
    except OSError as exc:
        remove_tree(path)
        raise AgentStartError(
            f"could not write in the temporary directory {path}: {exc}",
            hint="check that it (or TMPDIR) names a writable directory with free space",
        ) from exc


def temp_dir(prefix: str, parent: str | Path | None, *, repo: str | None = None) -> Path:
    """A new private directory, its path resolved (macOS's /var is /private/var), holding
    the marker that names this process its owner (``repo``: the repository a worktree in
    it belongs to), so that it is swept if this process dies without removing it."""
    try:
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent)).resolve()  # mode 0700
    except OSError as exc:
        raise AgentStartError(
            f"could not make a temporary directory in {parent or tempfile.gettempdir()}: {exc}",
            hint="check that it (or TMPDIR) names a writable directory with free space",
        ) from exc
    with _writing_in(path):
        mark(path, repo)
    return path


@contextlib.asynccontextmanager
async def isolated_config(seed: str | Path | None = None) -> AsyncIterator[Path]:
    """A private, temporary config dir for one task, seeded from the user's.

    Use the yielded path as the task's ``CURSOR_CONFIG_DIR``. It is new and private (0700),
    and holds a copy of the regular files at the top of ``seed`` with their modes
    (``cli-config.json``, ``auth.json`` where ``agent login`` keeps credentials with
    ``AGENT_CLI_CREDENTIAL_STORE=file``, any others), so a run there is logged in as the
    user is (credentials in the OS keychain are not in a dir). Sub-directories (chats,
    project caches) are not copied: a chat made inside is resumable only with this same
    dir (the fleet keeps one per task across its retries), and the user's chats not at
    all. A symlinked file is copied as a plain file of its content; other links, FIFOs and
    devices are skipped. It is removed on exit, also on an error or a cancellation.

    Args:
        seed: the config dir to copy from; default ``$CURSOR_CONFIG_DIR`` if set, else
            the CLI's config dir as docs/protocol.md §1 finds it (usually ``~/.cursor``).
            A seed that does not exist gives an empty dir.

    Raises:
        AgentConfigError: ``seed`` exists but is not a directory.
        AgentStartError: the dir could not be made or a file not copied (what the OS said).

    Example::

        async with isolated_config() as config_dir:
            options = AgentOptions(env={"CURSOR_CONFIG_DIR": str(config_dir)})
    """
    source, owned = _config_dir(seed)
    path = _make_config(owned)
    try:
        try:
            # In a thread: a home on a network filesystem must not stall the loop. Not
            # abandoned on cancellation, so it ends before the dir is removed.
            await anyio.to_thread.run_sync(_seed, source, path)
        except OSError as exc:
            raise AgentStartError(
                f"could not copy the config dir {str(source)!r}: {exc}",
                hint="check the permissions of the files in it",
            ) from exc
        yield path
    finally:
        remove_tree(owned)  # synchronous: a cancellation cannot cut it short
