"""The option-like structs a user builds with keywords (``Budget``, ``Hooks``, ``Task``,
``Allow``, ``Deny``) refuse an unknown keyword as ``AgentOptions`` does: an
``AgentConfigError`` (also a ``TypeError``) that names the option meant, not msgspec's
bare ``TypeError``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_sdk import AgentConfigError, Budget
from agent_sdk.extend import Allow, Deny, Hooks
from agent_sdk.fleet import Task


def refused(make: Any, *args: Any, **kwargs: Any) -> AgentConfigError:
    with pytest.raises(AgentConfigError) as info:
        make(*args, **kwargs)
    assert isinstance(info.value, TypeError)  # what code catching msgspec's error caught
    return info.value


@pytest.mark.parametrize(
    ("make", "wrong", "meant"),
    [
        (Budget, "max_tool_calls", "tool_calls"),
        (Budget, "tool_call", "tool_calls"),
        (Budget, "tool_calls_per_kind", "tool_calls_by_kind"),
        (Hooks, "before_tools", "before_tool"),
        (Hooks, "after_edits", "after_edit"),
        (Task, "promt", "prompt"),
        (Allow, "updated_inputs", "updated_input"),
        (Deny, "reasons", "reason"),
    ],
)
def test_a_mistyped_keyword_is_named_with_the_one_meant(make: Any, wrong: str, meant: str) -> None:
    kwargs = {"prompt": "hi"} if make is Task and wrong != "promt" else {}
    error = refused(make, **kwargs, **{wrong: 10})
    assert error.message == (f"{make.__name__} has no option {wrong!r}; did you mean {meant!r}?")


def test_a_keyword_like_no_other_lists_the_options() -> None:
    assert refused(Budget, zzzz=1).message == (
        "Budget has no option 'zzzz'; its options are tool_calls, tool_calls_by_kind, turns, tokens"
    )


@pytest.mark.parametrize(
    ("make", "example"),
    [(Budget, "Budget(tool_calls=...)"), (Hooks, "Hooks(before_tool=...)")],
)
def test_positional_values_are_refused_with_the_keyword_form(make: Any, example: str) -> None:
    message = refused(make, 10).message
    assert "by keyword only" in message
    assert example in message


def test_a_task_without_its_prompt_says_which_keyword_it_needs() -> None:
    error = refused(Task, id="fix")
    assert error.message == "Task needs prompt=..."


def test_deny_still_takes_its_reason_positionally() -> None:
    assert Deny("no rm here").reason == "no rm here"


def test_the_values_are_still_checked_as_before() -> None:
    with pytest.raises(AgentConfigError, match="tool_calls"):
        Budget(tool_calls=-1)
    assert Budget(tool_calls=3) == Budget(tool_calls=3)


def test_mypy_still_sees_each_structs_keyword_signature(tmp_path: Path) -> None:
    # The metaclass's __call__ returns Any, so type checkers keep the fields' signature.
    api = pytest.importorskip("mypy.api", reason="mypy is not installed: pip install -e '.[test]'")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n")
    code = (
        "from agent_sdk import Budget\nfrom agent_sdk.fleet import Task\n"
        "b: Budget = Budget(tool_calls=1)\nBudget(max_tool_calls=1)\nTask(promt='x')\n"
    )
    out, _, status = api.run(
        ["--config-file", str(config), "--cache-dir", str(tmp_path / "cache"), "-c", code]
    )
    assert status == 1
    assert 'Unexpected keyword argument "max_tool_calls" for "Budget"' in out
    assert 'Unexpected keyword argument "promt" for "Task"' in out
    assert out.count("error:") == 2
