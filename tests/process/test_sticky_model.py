"""``--model`` is sticky (docs/protocol.md §1, "Many runs at once"): the CLI stores the model
of every ``--model`` run in the config dir's ``cli-config.json`` and a later run without one
uses it. A run given a model runs under a private config dir, so that a run without one gets
the model the user's config names, never the last run's, and the user's file is never
changed. Against the fake, which is sticky as the CLI is (tests/fake/test_fake_stored_model.py).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_sdk import AgentOptions, run_async
from agent_sdk._transport.owner import PREFIXES
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


# --- the model's parameters are sticky too (docs/protocol.md §1, "Many runs at once") ---
def saved_parameters(config: Path) -> dict[str, Any]:
    return {
        key: value
        for key, value in json.loads((config / "cli-config.json").read_text()).items()
        if key in ("modelParameters", "selectedModel", "modelSelectionHistory")
    }


async def test_a_variant_run_leaves_no_parameters_for_a_later_bare_id(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    # The fake saves them as the real CLI does: a bare gpt-5 sharing its config dir with
    # a gpt-5-high run would run as "GPT-5 High" (tests/fake/test_fake_stored_model.py).
    env = {"CURSOR_CONFIG_DIR": str(user_config(tmp_path))}
    assert await init_model(fake_options(env=env, model="gpt-5-high")) == "GPT-5 High"
    assert await init_model(fake_options(env=env, model="gpt-5")) == "GPT-5"
    assert await init_model(fake_options(env=env)) == "Auto"


async def test_a_bare_id_runs_with_the_parameters_the_users_config_saved(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    config = user_config(tmp_path)
    low = {"gpt-5": [{"id": "reasoning", "value": "low"}]}
    (config / "cli-config.json").write_text(json.dumps({"modelParameters": low}))
    env = {"CURSOR_CONFIG_DIR": str(config)}
    await run_async("go", options=fake_options(env=env, model="gpt-5-high"))
    assert await init_model(fake_options(env=env, model="gpt-5")) == "GPT-5 Low"


async def test_the_users_saved_parameters_are_never_changed_nor_handed_back(
    fake_options: MakeOptions, tmp_path: Path
) -> None:
    config = user_config(tmp_path)
    saved = {
        "modelParameters": {"gpt-5": [{"id": "reasoning", "value": "low"}]},
        "selectedModel": {"modelId": "gpt-5", "parameters": []},
        "modelSelectionHistory": ["gpt-5", "sonnet-4"],
    }
    (config / "cli-config.json").write_text(json.dumps({"version": 1, **saved}))
    before = sorted(p.name for p in config.iterdir())
    for model in ("gpt-5-high", "gpt-5[reasoning=medium]", "sonnet-4"):
        await run_async(
            "go", options=fake_options(env={"CURSOR_CONFIG_DIR": str(config)}, model=model)
        )
    assert saved_parameters(config) == saved
    # Nothing the release moves back holds them: no new file in the user's config dir.
    assert sorted(p.name for p in config.iterdir()) == before
