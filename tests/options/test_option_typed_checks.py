"""AgentOptions' checks follow the fields' annotations (agent_sdk/_options/checks.py): a
field is checked by its type with no code of its own; tools and hooks that are not
of their type are refused with the fix."""

from __future__ import annotations

import msgspec
import pytest
from option_values import _a_tool

from agent_sdk import AgentConfigError, AgentOptions
from agent_sdk._options.checks import OptionChecks
from agent_sdk.extend import Hooks, tool


# --- the checks follow the annotations ----------------------------------------------------
class Tiny(msgspec.Struct, frozen=True, kw_only=True):
    flag: bool = False
    wait: float | None = None
    name: str | None = None


def test_a_field_is_checked_by_its_type_with_no_code_of_its_own() -> None:
    checks = OptionChecks(Tiny, positive=("wait",))
    checks.check({"flag": True, "wait": 1, "name": "x"})
    for bad in ({"flag": "yes"}, {"wait": 0}, {"name": "a\0"}):
        with pytest.raises(AgentConfigError, match=f"Tiny\\({next(iter(bad))}="):
            checks.check(bad)


def test_a_tool_that_is_a_plain_function_is_refused_with_the_fix() -> None:
    with pytest.raises(AgentConfigError) as caught:
        AgentOptions(tools=[len])
    assert "tools[0] is builtin_function_or_method, not a Tool" in str(caught.value)
    assert caught.value.hint is not None
    assert "@tool" in caught.value.hint


def _another_tool(text: str) -> str:
    """Echo a text."""
    return text


def test_two_tools_of_one_name_are_refused_with_the_fix() -> None:
    with pytest.raises(AgentConfigError) as caught:
        AgentOptions(tools=[_a_tool, tool(name="_a_tool")(_another_tool)])
    assert "two tools are named '_a_tool'" in str(caught.value)
    assert caught.value.hint is not None


def test_tools_that_are_no_list_are_refused() -> None:
    with pytest.raises(AgentConfigError, match="tools must be a list"):
        AgentOptions(tools=_a_tool)


def test_the_token_of_a_tasks_tools_is_hidden_in_the_repr() -> None:
    # fleet/_tools.py puts it in the env of a worktree task's runs.
    options = AgentOptions(env={"AGENT_SDK_TOOLS_TOKEN": "tok-3f9b2d4e6a8c0f7c1e5a"})
    assert "tok-3f9b2d4e6a8c0f7c1e5a" not in repr(options)


@pytest.mark.parametrize("value", [{"before_tool": print}, print, [Hooks()]])
def test_hooks_that_are_not_a_hooks_are_refused_with_the_fix(value: object) -> None:
    with pytest.raises(AgentConfigError, match=r"hooks=\.\.\.\) is .*not a Hooks") as caught:
        AgentOptions(hooks=value)
    assert "Hooks(before_tool=" in (caught.value.hint or "")
