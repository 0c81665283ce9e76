"""AgentOptions' paths, lists and choices (agent_sdk/_options/checks.py): a path is a
str or an os.PathLike of str, add_dirs and extra_args are lists, a choice says its
choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from option_values import PATHS, refused


class BytesPath:
    """An os.PathLike whose path is bytes, which the CLI's argv cannot take as str."""

    def __fspath__(self) -> bytes:
        return b"/tmp"

    def __repr__(self) -> str:  # a test id the same in every process (pytest-xdist)
        return "BytesPath()"


# --- paths --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("value", [123, b"/tmp", BytesPath(), ["/tmp"]], ids=repr)
def test_a_path_option_takes_a_str_or_an_os_pathlike_of_str(name: str, value: object) -> None:
    assert f"{name} must be a path (a str or an os.PathLike)" in refused(**{name: value}).message


@pytest.mark.parametrize(
    ("add_dirs", "message"),
    [
        ("/x", "add_dirs must be a list of paths, not a str"),
        (Path("/x"), "add_dirs must be a list of paths"),
        (["/x", 3], "add_dirs[1] must be a path"),
        ([b"/x"], "add_dirs[0] must be a path"),
    ],
    ids=str,
)
def test_add_dirs_is_a_list_of_paths(add_dirs: object, message: str) -> None:
    assert message in refused(add_dirs=add_dirs).message


def test_one_path_for_add_dirs_says_to_pass_a_list() -> None:
    assert refused(add_dirs="/x").hint == "pass a list, even of one item: add_dirs=['/x']"


# --- sequences and choices ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra_args", "message"),
    [
        ("--verbose", "extra_args must be a list of strings, not a str"),
        (b"--verbose", "extra_args must be a list of strings, not a bytes"),
        (["--ok", 1], "extra_args[1] is an int"),
        ((arg for arg in ["--a"]), "not a generator"),
    ],
    ids=["a str", "a bytes", "a list holding an int", "a generator"],  # stable across runs
)
def test_extra_args_is_a_list_of_strings(extra_args: object, message: str) -> None:
    assert message in refused(extra_args=extra_args).message


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "agent"}, "mode must be one of 'plan', 'ask', got 'agent'"),
        ({"sandbox": "on"}, "sandbox must be one of 'enabled', 'disabled', got 'on'"),
        (
            {"tools_channel": "project"},
            "tools_channel must be one of 'plugin', 'home', got 'project'",
        ),
        (
            {"output_format": "yaml"},
            "output_format must be one of 'stream-json', 'json', 'text', got 'yaml'",
        ),
    ],
    ids=str,
)
def test_a_choice_keeps_its_message(options: dict[str, Any], message: str) -> None:
    assert refused(**options).message == message
