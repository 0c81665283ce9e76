"""A fleet's config isolation (docs/fleet.md, "Isolation"): a private config dir (mode
0700) seeded with the top-level files of the user's (``CURSOR_CONFIG_DIR``, else
``~/.cursor``), modes kept, links copied as their content, no subdirectory, nothing of the
user's touched; empty without a seed, a seed that is a file refused, and the dir removed
after an exception or a cancellation. File work lives in sync helpers (no blocking I/O in
the async tests' own bodies).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import anyio
import pytest

from agent_sdk import AgentConfigError
from agent_sdk.fleet._isolation import isolated_config

pytestmark = pytest.mark.anyio


def make_seed(tmp_path: Path) -> Path:
    seed = tmp_path / "cursor"
    seed.mkdir()
    (seed / "auth.json").write_text('{"token": "t0k"}')
    (seed / "auth.json").chmod(0o600)
    (seed / "cli-config.json").write_text('{"model": "m"}')
    (seed / "cli-config.json").chmod(0o644)
    (seed / "chats").mkdir()
    (seed / "chats" / "store.db").write_text("big")
    outside = tmp_path / "elsewhere.json"
    outside.write_text("linked content")
    (seed / "linked.json").symlink_to(outside)
    (seed / "dangling.json").symlink_to(tmp_path / "missing")
    (seed / "dirlink").symlink_to(seed / "chats")
    os.mkfifo(seed / "fifo")  # opening it blocking would hang the copy
    return seed


def check_seeded(config: Path, tmp_path: Path) -> None:
    assert stat.S_IMODE(config.stat().st_mode) == 0o700
    assert sorted(p.name for p in config.iterdir()) == [
        "auth.json",
        "cli-config.json",
        "linked.json",
    ]
    assert (config / "auth.json").read_text() == '{"token": "t0k"}'
    assert stat.S_IMODE((config / "auth.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((config / "cli-config.json").stat().st_mode) == 0o644
    linked = config / "linked.json"
    assert not linked.is_symlink()
    assert linked.read_text() == "linked content"
    linked.write_text("the CLI rewrites it")  # must not reach the user's file
    assert (tmp_path / "elsewhere.json").read_text() == "linked content"


async def test_seeding_copies_top_level_files_with_modes_and_no_subdirs(tmp_path: Path) -> None:
    seed = make_seed(tmp_path)
    async with isolated_config(seed) as config:
        check_seeded(config, tmp_path)
        assert config.parent != seed
    assert not config.exists()
    assert (seed / "chats" / "store.db").exists()  # the user's dir is left as it was


async def test_the_default_seed_is_cursor_config_dir_then_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = make_seed(tmp_path)
    monkeypatch.setenv("CURSOR_CONFIG_DIR", str(seed))
    async with isolated_config() as config:
        check_seeded(config, tmp_path)
    home = tmp_path / "home"
    (home / ".cursor").mkdir(parents=True)
    (home / ".cursor" / "cli-config.json").write_text("{}")
    monkeypatch.delenv("CURSOR_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(home))
    async with isolated_config() as config:
        assert [p.name for p in config.iterdir()] == ["cli-config.json"]


async def test_a_missing_seed_gives_an_empty_private_dir(tmp_path: Path) -> None:
    async with isolated_config(tmp_path / "nothing") as config:
        assert list(config.iterdir()) == []
        assert stat.S_IMODE(config.stat().st_mode) == 0o700
    assert not config.exists()


async def test_a_seed_that_is_a_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(AgentConfigError, match="not a directory"):
        async with isolated_config(tmp_path / "file"):
            pass


def leave_read_only_dir(config: Path) -> None:
    (config / "chats").mkdir()
    (config / "chats" / "c.db").write_text("x")
    (config / "chats").chmod(0o500)


async def test_the_config_dir_is_removed_after_an_exception(tmp_path: Path) -> None:
    made: list[Path] = []
    with pytest.raises(RuntimeError, match="boom"):
        async with isolated_config(make_seed(tmp_path)) as config:
            made.append(config)
            leave_read_only_dir(config)  # what a run may leave must not stop the removal
            raise RuntimeError("boom")
    assert made
    assert not made[0].exists()


async def test_the_config_dir_is_removed_after_a_cancellation(tmp_path: Path) -> None:
    made: list[Path] = []
    with anyio.CancelScope() as scope:
        async with isolated_config(make_seed(tmp_path)) as config:
            made.append(config)
            scope.cancel()
            await anyio.sleep_forever()
    assert scope.cancelled_caught
    assert made
    assert not made[0].exists()
