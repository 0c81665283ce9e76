"""Defining a tool (agent_sdk/extend/_tool.py, _signature.py): the functions that cannot
be a tool, refused with a message that says how to fix it."""

from __future__ import annotations

from typing import Any

import pytest

from agent_sdk import AgentConfigError
from agent_sdk.extend import Tool, tool
from agent_sdk.extend._tool import tools_by_name


def refused(function: Any, **kwargs: Any) -> AgentConfigError:
    with pytest.raises(AgentConfigError) as caught:
        Tool(function, **kwargs)
    assert caught.value.hint
    return caught.value


def test_a_parameter_without_a_type_hint_is_refused() -> None:
    def f(number) -> str:  # type: ignore[no-untyped-def]
        """F."""
        return ""

    error = refused(f)
    assert error.message.startswith("tool f: parameter number has no type hint")
    assert error.hint == "annotate it, e.g. number: str"


@pytest.mark.parametrize("star", ["*args", "**kwargs"])
def test_star_parameters_are_refused(star: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f'def f(a: int, {star}: int) -> str:\n    "F."\n    return ""', namespace)
    assert f"tool f: {star} cannot be a tool's parameter" in refused(namespace["f"]).message


def test_a_type_msgspec_cannot_decode_is_refused() -> None:
    class Opaque:
        pass

    def f(thing: Opaque) -> str:
        """F."""
        return ""

    f.__annotations__["thing"] = Opaque
    error = refused(f)
    assert "tool f: parameter thing: " in error.message
    assert "is not a type msgspec can decode from JSON" in error.message


def test_a_return_type_msgspec_cannot_encode_is_refused() -> None:
    class Opaque:
        pass

    def f() -> Opaque:
        """F."""
        return Opaque()

    f.__annotations__["return"] = Opaque
    assert "is not one msgspec can encode as JSON" in refused(f).message


def test_a_hint_that_names_nothing_is_refused() -> None:
    def f(x: Undefined) -> str:  # type: ignore[name-defined]  # noqa: F821
        """F."""
        return ""

    assert "its type hints cannot be resolved (NameError" in refused(f).message


def test_a_function_without_description_is_refused() -> None:
    def f(x: int) -> int:
        return x

    assert refused(f).message.startswith("tool f has no description")


@pytest.mark.parametrize("name", ["", "has space", "a:b", "x" * 129, "café"])
def test_a_name_mcp_does_not_allow_is_refused(name: str) -> None:
    def f() -> None:
        """F."""

    assert "cannot be a tool's name" in refused(f, name=name).message


def test_a_lambda_needs_a_name() -> None:
    assert "'<lambda>' cannot be a tool's name" in refused(lambda: None).message


def test_a_generator_is_refused() -> None:
    def f() -> Any:
        """F."""
        yield 1

    assert "a generator cannot be a tool" in refused(f).message


def test_something_not_callable_is_refused() -> None:
    assert "not int" in refused(3).message


def test_two_tools_of_one_name_are_refused() -> None:
    def f() -> None:
        """F."""

    with pytest.raises(AgentConfigError, match="two tools are named 'f'"):
        tools_by_name([tool(f), tool(name="f", description="G.")(lambda: None)])
