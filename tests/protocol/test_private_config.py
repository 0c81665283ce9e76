"""The private config dir of a run given a model (``_transport/config_dir.py``,
docs/protocol.md §1, "Many runs at once"): the user's config file copied, everything else
linked, what the CLI made kept, nothing left behind."""

from __future__ import annotations

import os
import socket
import sys
import tempfile
from pathlib import Path

import msgspec
import pytest

from agent_sdk._owner import MARKER, Owner
from agent_sdk._transport.config_dir import PREFIX, PrivateConfig, user_config_dir


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "tmp"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


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


def test_a_directory_the_user_lacked_is_moved_into_the_users_dir(
    tmp_path: Path, temp: Path
) -> None:
    config = tmp_path / "none-yet"
    private = PrivateConfig(config)
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


def test_a_file_the_user_lacked_is_moved_into_the_users_dir(tmp_path: Path, temp: Path) -> None:
    config = user(tmp_path)
    private = PrivateConfig(config)
    (private.path / "state.json").write_text("{}\n")
    private.release()
    assert (config / "state.json").read_text() == "{}\n"


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
