"""AgentOptions' checks accept what is valid (agent_sdk/_options/checks.py): a valid
value of every option, and every default, constructs."""

from __future__ import annotations

import collections
import os
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from option_values import FIELDS, SECRET, _a_tool

from agent_sdk import AgentOptions, Budget
from agent_sdk.extend import Hooks

VALID: list[tuple[str, Any]] = [
    ("binary", "/opt/cursor-agent"),
    ("binary", Path("/opt/cursor-agent")),
    ("cwd", Path("/repo")),
    ("workspace", "/ws"),
    ("model", "gpt-5"),
    ("force", True),
    ("trust", False),
    ("mode", "plan"),
    ("resume", "chat-1"),
    ("continue_session", True),
    ("new_session_id", "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"),
    ("api_key", SECRET),
    ("auth_token", SECRET),
    ("env", {"A": "1", "CURSOR_CONFIG_DIR": "/c"}),
    ("env", collections.OrderedDict(A="1")),
    ("output_format", "json"),
    ("stream_partial_output", True),
    ("approve_mcps", True),
    ("sandbox", "disabled"),
    ("headers", {"X-Team": "core"}),
    ("endpoint", "https://api.example"),
    ("add_dirs", ["/a", Path("/b")]),
    ("add_dirs", ("/a",)),
    ("extra_args", ["--foo", "--bar=1"]),
    ("extra_args", ("--foo",)),
    ("extra_args", collections.deque(["--foo"])),
    ("timeout", 30),
    ("idle_timeout", 5.5),
    ("result_grace", 0),
    ("keep_events", False),
    ("worktree", True),
    ("worktree_name", "fix-cart"),
    ("worktree_base", "main"),
    ("skip_worktree_setup", True),
    ("checkpoint", True),
    ("output_attempts", 3),
    ("tools", [_a_tool]),
    ("hooks", Hooks(before_shell=lambda call: "allow")),
    ("tools_channel", "home"),
    ("budget", Budget(tool_calls=3, tool_calls_by_kind={"shell": 1})),
]
# What an option needs beside it to construct.
NEEDS: dict[str, dict[str, Any]] = {
    name: {"worktree": True} for name in ("worktree_name", "worktree_base", "skip_worktree_setup")
}


def test_every_option_has_a_valid_value_below() -> None:
    # A new field joins VALID, so that it is seen to construct.
    assert {name for name, _ in VALID} == set(FIELDS)


@pytest.mark.parametrize(("name", "value"), VALID, ids=lambda v: v if isinstance(v, str) else "")
def test_a_valid_value_of_every_option_constructs(name: str, value: Any) -> None:
    assert getattr(AgentOptions(**{name: value}, **NEEDS.get(name, {})), name) == value


@pytest.mark.parametrize("name", list(FIELDS))
def test_every_option_given_its_default_constructs(name: str) -> None:
    AgentOptions(**{name: FIELDS[name].default})


def test_a_os_pathlike_path_constructs() -> None:
    assert os.fspath(AgentOptions(cwd=PurePosixPath("/r")).cwd or "") == "/r"
