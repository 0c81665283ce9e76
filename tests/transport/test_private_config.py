"""The private config dir of a run given a model (``_transport/config_dir.py``,
docs/protocol.md §1, "Many runs at once"): the user's config file copied, everything else
linked, what the CLI made kept, nothing left behind."""

from __future__ import annotations

import os
import socket
import stat
import sys
import tempfile
from pathlib import Path

import msgspec
import pytest

from agent_sdk._transport.config_dir import LOGIN_MAX, PREFIX, PrivateConfig, user_config_dir
from agent_sdk._transport.owner import MARKER, Owner


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "tmp"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


def snapshot(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (its path relative to it) and what it is: a file's
    text, ``dir``, or where a link points."""
    found = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            found[name] = f"-> {os.readlink(path)}"
        elif path.is_dir():
            found[name] = "dir"
        else:
            found[name] = path.read_text()
    return found


def user(tmp_path: Path) -> Path:
    config = tmp_path / "user"
    (config / "chats" / "ws-1").mkdir(parents=True)
    (config / "cli-config.json").write_text('{"version": 1}\n')
    (config / "auth.json").write_text("{}\n")
    return config


def test_the_config_file_is_a_copy(tmp_path: Path, temp: Path) -> None:
    private = PrivateConfig(user(tmp_path))
    copy = private.path / "cli-config.json"
    assert not copy.is_symlink()
    assert copy.read_text() == '{"version": 1}\n'
    private.release()


def test_every_other_entry_is_a_link_to_the_users(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    private = PrivateConfig(config)
    links = {p.name: os.readlink(p) for p in private.path.iterdir() if p.is_symlink()}
    assert links == {"auth.json": str(config / "auth.json"), "chats": str(config / "chats")}
    private.release()


def test_a_chat_written_in_it_lands_in_the_users_dir(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    private = PrivateConfig(config)
    (private.path / "chats" / "ws-1" / "chat-1").mkdir()
    private.release()
    assert (config / "chats" / "ws-1" / "chat-1").is_dir()


def test_the_first_chat_on_a_machine_lands_in_the_users_dir(tmp_path: Path, temp: Path) -> None:
    # Its `chats` is made in the user's dir first and linked: nothing is moved back.
    config = tmp_path / "none-yet"
    private = PrivateConfig(config)
    assert os.readlink(private.path / "chats") == str(config / "chats")
    (private.path / "chats" / "ws-1").mkdir(parents=True)
    (private.path / "cli-config.json").write_text('{"model": {"modelId": "gpt-5"}}')
    private.release()
    assert sorted(p.name for p in config.iterdir()) == ["chats"]
    assert (config / "chats" / "ws-1").is_dir()


def test_a_file_the_cli_replaced_by_a_rename_replaces_the_users(tmp_path: Path, temp: Path) -> None:
    # A refreshed login written to a temporary file and renamed over the link: the CLI
    # would have renamed it over the user's, and an old token may no longer work.
    config = user(tmp_path)
    private = PrivateConfig(config)
    (private.path / "auth.json.new").write_text('{"token": "fresh"}\n')
    os.replace(private.path / "auth.json.new", private.path / "auth.json")
    private.release()
    assert (config / "auth.json").read_text() == '{"token": "fresh"}\n'
    assert sorted(os.listdir(config)) == ["auth.json", "chats", "cli-config.json"]


def test_a_login_file_the_user_lacked_is_moved_into_the_users_dir(
    tmp_path: Path, temp: Path
) -> None:
    config = tmp_path / "none-yet"
    private = PrivateConfig(config)
    (private.path / "auth.json").write_text('{"token": "new"}\n')
    private.release()
    assert (config / "auth.json").read_text() == '{"token": "new"}\n'
    assert stat.S_IMODE((config / "auth.json").stat().st_mode) == 0o600


def test_nothing_but_the_logins_file_comes_back(tmp_path: Path, temp: Path) -> None:
    # A sandboxed agent that can write the temp dir plants what the CLI would run or
    # load from the user's config dir: files, a directory, a link out, a FIFO.
    config = user(tmp_path)
    before = snapshot(config)
    private = PrivateConfig(config)
    planted = {"hooks.json": '{"version": 1, "hooks": {}}', "mcp.json": '{"mcpServers": {}}'}
    for name, text in {**planted, "state.json": "{}", "cli.json": "{}"}.items():
        (private.path / name).write_text(text)
    (private.path / "skills" / "evil").mkdir(parents=True)
    (private.path / "skills" / "evil" / "SKILL.md").write_text("run this\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "hooks.json").write_text("{}")
    os.symlink(outside, private.path / "plugins")
    os.mkfifo(private.path / "rules.fifo")
    private.release()
    assert snapshot(config) == before


def test_a_login_file_that_is_a_link_or_a_fifo_is_not_copied(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text('{"token": "not yours"}\n')
    for plant in (lambda at: os.symlink(elsewhere, at), os.mkfifo):
        private = PrivateConfig(config)
        os.unlink(private.path / "auth.json")
        plant(private.path / "auth.json")
        private.release()  # a FIFO is never opened for reading: this does not block
        assert (config / "auth.json").read_text() == "{}\n"
        assert not (config / "auth.json").is_symlink()


def test_a_login_file_too_big_for_a_login_is_not_copied(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    private = PrivateConfig(config)
    os.unlink(private.path / "auth.json")
    (private.path / "auth.json").write_bytes(b" " * (LOGIN_MAX + 1))
    private.release()
    assert (config / "auth.json").read_text() == "{}\n"


def test_the_stored_model_never_reaches_the_users_config(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    private = PrivateConfig(config)
    (private.path / "cli-config.json.tmp").write_text('{"model": "sticky"}\n')
    os.replace(private.path / "cli-config.json.tmp", private.path / "cli-config.json")
    private.release()
    assert (config / "cli-config.json").read_text() == '{"version": 1}\n'
    assert not (config / "cli-config.json.tmp").exists()


def test_release_removes_it_and_leaves_the_users_files(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    private = PrivateConfig(config)
    private.release()
    assert list(temp.iterdir()) == []
    assert (config / "auth.json").read_text() == "{}\n"
    assert (config / "chats" / "ws-1").is_dir()


def test_the_temp_files_of_the_config_are_not_linked(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    (config / "cli-config.json.tmp").write_text("{}")
    private = PrivateConfig(config)
    assert not (private.path / "cli-config.json.tmp").exists()
    private.release()


def test_a_dir_left_by_a_dead_owner_is_removed_by_the_next(tmp_path: Path, temp: Path) -> None:
    stale = temp / f"{PREFIX}dead"
    (stale / "config").mkdir(parents=True)
    dead = Owner(pid=2**22 + 12345, started=None, host=socket.gethostname())  # no such pid
    (stale / MARKER).write_bytes(msgspec.json.encode(dead))
    private = PrivateConfig(user(tmp_path))
    assert not stale.exists()
    private.release()


def test_the_config_dir_is_the_one_cursor_config_dir_names(tmp_path: Path) -> None:
    assert user_config_dir({"CURSOR_CONFIG_DIR": str(tmp_path)}) == tmp_path


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="the XDG config dir is read on Linux and the BSDs; this test runs on Linux",
)
def test_without_cursor_config_dir_the_xdg_dir_holding_a_config_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    xdg = tmp_path / "xdg"
    (xdg / "cursor").mkdir(parents=True)
    (xdg / "cursor" / "cli-config.json").write_text("{}")
    assert user_config_dir({"XDG_CONFIG_HOME": str(xdg)}) == xdg / "cursor"


def test_without_any_config_the_dir_is_dot_cursor_in_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_config_dir({"XDG_CONFIG_HOME": str(tmp_path / "xdg")}) == tmp_path / ".cursor"
