"""``str(error)`` of every error class: the message, then ``Hint: `` and the hint on a
line of its own, once (docs/errors.md). The errors real failures raise:
tests/process/test_error_hint.py."""

from __future__ import annotations

import pytest
from test_error_pickle import every_error_class

from agent_sdk import AgentError, AgentOutputError, AgentResultError
from agent_sdk.events import ResultEvent
from agent_sdk.live import JsonRpcError


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_every_error_class_says_its_hint_last_and_once(cls: type[AgentError]) -> None:
    error = _made(cls, "do this")
    assert str(error) == f"{error.message}\nHint: do this"
    assert str(error).count("do this") == 1
    plain = _made(cls, None)
    assert str(plain) == plain.message


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_every_error_class_keeps_its_hint_out_of_its_args(cls: type[AgentError]) -> None:
    error = _made(cls, "do this")
    assert error.args == (error.message,)


def _made(cls: type[AgentError], hint: str | None) -> AgentError:
    if cls is AgentResultError:  # the agent's words; a hint only if one is set on it
        error = cls("it failed", event=ResultEvent(is_error=True))
        error.hint = hint
        return error
    if cls is AgentOutputError:
        return cls("it failed", reply="r", json=None, problem="p", attempts=1, hint=hint)
    if issubclass(cls, JsonRpcError):
        return cls(-32000, "it failed", None, hint=hint)
    return cls("it failed", hint=hint)
