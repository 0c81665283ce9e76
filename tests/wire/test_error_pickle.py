"""Errors cross processes (a fleet's outcome from a Ray worker): each pickles as itself."""

from __future__ import annotations

import pickle

import pytest

from agent_sdk import (
    AgentBudgetError,
    AgentError,
    AgentModelError,
    AgentOutputError,
    AgentResultError,
    ErrorContext,
)
from agent_sdk.events import ResultEvent
from agent_sdk.live import JsonRpcError

CONTEXT = ErrorContext(session_id="s1", exit_code=1, stderr="Cannot use this model: x")


def every_error_class() -> list[type[AgentError]]:
    """Every error agent_sdk defines (the live agent's included: imported above), not the
    ones other test modules define, whichever were collected first."""
    found, todo = [], [AgentError]
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("agent_sdk.") and cls not in found:
            found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda cls: cls.__name__)


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_every_error_pickles_with_its_class_message_hint_and_context(
    cls: type[AgentError],
) -> None:
    if cls is AgentResultError:
        error: AgentError = cls("failed", event=ResultEvent(is_error=True), context=CONTEXT)
    elif cls is AgentOutputError:
        error = cls("no JSON", reply="r", json=None, problem="p", attempts=2, context=CONTEXT)
    elif issubclass(cls, JsonRpcError):
        error = cls(-32000, "failed", {"message": "m"}, hint="do this", context=CONTEXT)
        assert pickle.loads(pickle.dumps(error)).data == {"message": "m"}
    else:
        error = cls("failed", hint="do this", context=CONTEXT)
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is cls
    assert str(back) == str(error)
    assert back.context == CONTEXT
    assert back.args == error.args


def test_a_budget_error_keeps_its_figures() -> None:
    error = AgentBudgetError("spent", limit="tool_calls_by_kind", kind="shell", used=4, allowed=3)
    back = pickle.loads(pickle.dumps(error))
    assert (back.limit, back.kind, back.used, back.allowed, back.scope) == (
        "tool_calls_by_kind",
        "shell",
        4,
        3,
        "run",
    )


def test_a_result_error_keeps_its_event() -> None:
    error = AgentResultError("failed", event=ResultEvent(is_error=True, result="no"))
    assert pickle.loads(pickle.dumps(error)).event.result == "no"


def test_a_model_error_still_lists_the_models_after_pickling() -> None:
    error = AgentModelError(
        "x", context=ErrorContext(stderr="Cannot use this model: x. Available models: a, b")
    )
    assert pickle.loads(pickle.dumps(error)).available_models == ["a", "b"]
