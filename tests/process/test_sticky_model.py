"""``--model`` is sticky (docs/protocol.md §1, "Many runs at once"): the CLI stores the model
of every ``--model`` run in the config dir's ``cli-config.json`` and a later run without one
uses it. A run given a model runs under a private config dir, so that a run without one gets
the model the user's config names, never the last run's, and the user's file is never
changed. Against the fake, which is sticky as the CLI is (tests/fake/test_fake_fleet_support.py).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from agent_sdk import AgentOptions, run_async
from agent_sdk._owner import PREFIXES
from agent_sdk.events import SystemInit

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]
MODEL_DIRS = PREFIXES[2]


def user_config(tmp_path: Path) -> Path:
    """The user's config dir: a login file, a chats dir and a config naming no model."""
    config = tmp_path / "user-config"
    (config / "chats").mkdir(parents=True)
    (config / "cli-config.json").write_text('{"version": 1, "editor": {"vimMode": true}}\n')
    (config / "auth.json").write_text('{"token": "t"}\n')
    return config


async def init_model(options: AgentOptions) -> str | None:
    result = await run_async("go", options=options)
    (init,) = [e for e in result.events if type(e) is SystemInit]
    return init.model


async def test_a_run_without_a_model_is_not_affected_by_an_earlier_run_with_one(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    env = {"CURSOR_CONFIG_DIR": str(user_config(tmp_path))}
    assert await init_model(fake_options(env=env, model="gpt-5")) == "GPT-5"
    assert await init_model(fake_options(env=env)) == "Auto"


async def test_a_run_with_a_model_leaves_the_users_config_file_as_it_was(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    config = user_config(tmp_path)
    before = (config / "cli-config.json").read_bytes()
    await run_async(
        "go", options=fake_options(env={"CURSOR_CONFIG_DIR": str(config)}, model="gpt-5")
    )
    assert (config / "cli-config.json").read_bytes() == before


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system's temp dir for this test: where the private config dirs are made."""
    where = tmp_path / "tmp"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


async def test_a_run_with_a_model_leaves_no_directory_behind(
    fake_options: MakeOptions, tmp_path: Path, temp: Path
) -> None:
    env = {"CURSOR_CONFIG_DIR": str(user_config(tmp_path))}
    await run_async("go", options=fake_options(env=env, model="gpt-5"))
    assert os.listdir(temp) == []


async def test_a_failed_run_with_a_model_leaves_no_directory_behind(
    fake_options: MakeOptions, tmp_path: Path, temp: Path
) -> None:
    env = {"CURSOR_CONFIG_DIR": str(user_config(tmp_path))}
    with pytest.raises(Exception):  # noqa: B017, PT011 - any failure: the crash scenario's
        await run_async("go", options=fake_options("crash", env=env, model="gpt-5"))
    assert os.listdir(temp) == []


async def test_a_run_with_a_model_leaves_the_users_other_files_in_place(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    config = user_config(tmp_path)
    await run_async(
        "go", options=fake_options(env={"CURSOR_CONFIG_DIR": str(config)}, model="gpt-5")
    )
    assert sorted(p.name for p in config.iterdir()) == ["auth.json", "chats", "cli-config.json"]
    assert (config / "auth.json").read_text() == '{"token": "t"}\n'


async def test_a_model_given_through_extra_args_does_not_stick_either(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    env = {"CURSOR_CONFIG_DIR": str(user_config(tmp_path))}
    await run_async("go", options=fake_options(env=env, extra_args=["--model", "gpt-5"]))
    assert await init_model(fake_options(env=env)) == "Auto"


async def test_a_run_without_a_model_gets_the_one_the_users_config_names(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    config = user_config(tmp_path)
    (config / "cli-config.json").write_text('{"model": {"modelId": "sonnet-4"}}\n')
    env = {"CURSOR_CONFIG_DIR": str(config)}
    await run_async("go", options=fake_options(env=env, model="gpt-5"))
    assert await init_model(fake_options(env=env)) == "Claude 4 Sonnet"
