"""Defining a tool (agent_sdk/extend/_tool.py, _signature.py, _docstring.py): the name, the
description and the input and output JSON Schemas msgspec makes from a function, and the
functions refused, with a message that says how to fix it."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
from typing import Annotated, Any, Literal, TypedDict

import msgspec
import pytest
from needs import need

from agent_sdk import AgentConfigError
from agent_sdk.extend import Tool, tool
from agent_sdk.extend._docstring import split_docstring
from agent_sdk.extend._tool import tools_by_name


class Issue(msgspec.Struct):
    number: int
    title: str


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Totals(TypedDict):
    count: int


# --- name and description ------------------------------------------------------------
def test_the_name_and_description_come_from_the_function_and_its_docstring() -> None:
    @tool
    def lookup_issue(number: int) -> str:
        """Look up an issue.

        Args:
            number: its number.

        Returns:
            The issue's title.
        """
        return ""

    assert lookup_issue.name == "lookup_issue"
    assert lookup_issue.description == "Look up an issue.\n\nReturns:\n    The issue's title."


def test_name_and_description_given_to_the_decorator_win() -> None:
    @tool(name="find", description="Find it.")
    def lookup_issue(number: int) -> str:
        """Look up an issue."""
        return ""

    assert (lookup_issue.name, lookup_issue.description) == ("find", "Find it.")


def test_parameters_are_described_from_the_docstring_even_with_a_description() -> None:
    @tool(description="Find it.")
    def find(number: int) -> str:
        """Not the description.

        Args:
            number: the issue's number.
        """
        return ""

    assert find.input_schema["properties"]["number"]["description"] == "the issue's number."


def test_a_docstring_entry_continues_on_deeper_lines_and_may_give_a_type() -> None:
    description, params = split_docstring(
        """Do it.

        Args:
            path (str): where,
                relative to the root.
            *args: ignored.

        Raises:
            ValueError: never.
        """
    )
    assert params == {"path": "where, relative to the root.", "args": "ignored."}
    assert description == "Do it.\n\nRaises:\n    ValueError: never."


def test_a_docstring_without_an_args_section_is_the_description_as_it_is() -> None:
    assert split_docstring("Do it.\n\n:param x: the x.") == ("Do it.\n\n:param x: the x.", {})


# --- the input schema ------------------------------------------------------------------
def test_the_input_schema_has_the_parameters_at_its_root() -> None:
    @tool
    def f(number: int, label: str = "bug", tags: list[str] | None = None) -> None:
        """F."""

    assert f.input_schema == {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "label": {"type": "string", "default": "bug"},
            "tags": {
                "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
                "default": None,
            },
        },
        "required": ["number"],
        "additionalProperties": False,
    }


def test_a_tool_without_parameters_accepts_only_an_empty_object() -> None:
    # MCP 2025-11-25's recommended schema for a tool without parameters.
    @tool
    def now() -> str:
        """The time."""
        return ""

    assert now.input_schema == {"type": "object", "properties": {}, "additionalProperties": False}


def test_types_the_parameters_use_are_under_defs() -> None:
    @tool
    def paint(where: Point, color: Color, when: datetime.date) -> None:
        """Paint."""

    schema = paint.input_schema
    assert schema["properties"]["where"] == {"$ref": "#/$defs/Point"}
    assert schema["properties"]["color"] == {"$ref": "#/$defs/Color"}
    assert schema["properties"]["when"] == {"type": "string", "format": "date"}
    assert schema["$defs"]["Color"] == {"title": "Color", "enum": ["blue", "red"]}
    assert schema["$defs"]["Point"]["required"] == ["x", "y"]


def test_a_users_type_named_like_the_tool_does_not_clash_in_defs() -> None:
    @tool
    def Point(where: Point) -> None:  # type: ignore[valid-type]
        """A tool named as the type of its parameter."""

    # msgspec qualifies both names with their modules; the tool's own struct is the root.
    assert sorted(Point.input_schema["$defs"]) == [f"{__name__}.Point"]
    assert Point.input_schema["properties"]["where"]["$ref"] == f"#/$defs/{__name__}.Point"


def test_msgspec_constraints_and_descriptions_in_annotated_are_kept() -> None:
    @tool
    def f(n: Annotated[int, msgspec.Meta(ge=1, description="mine")]) -> None:
        """F.

        Args:
            n: the docstring's.
        """

    assert f.input_schema["properties"]["n"] == {
        "type": "integer",
        "minimum": 1,
        "description": "mine",
    }


def test_a_literal_is_an_enum_in_the_schema() -> None:
    @tool
    def f(mode: Literal["fast", "slow"]) -> None:
        """F."""

    assert f.input_schema["properties"]["mode"] == {"enum": ["fast", "slow"]}


def test_a_default_json_cannot_show_leaves_the_parameter_optional_without_one() -> None:
    marker = object()

    @tool
    def f(x: Any = marker) -> None:
        """F."""

    assert f.input_schema["properties"]["x"] == {}
    assert "required" not in f.input_schema


def test_string_annotations_are_resolved() -> None:
    # This module has `from __future__ import annotations`: every hint is a string.
    @tool
    def f(issue: Issue) -> Issue:
        """F."""
        return issue

    assert f.input_schema["properties"]["issue"] == {"$ref": "#/$defs/Issue"}


# --- the output schema -------------------------------------------------------------------
@pytest.mark.parametrize("returns", [Issue, Point, Totals, dict[str, int]])
def test_an_object_return_type_gives_an_output_schema(returns: Any) -> None:
    def f() -> None:
        """F."""

    f.__annotations__["return"] = returns
    schema = Tool(f).output_schema
    assert schema is not None
    assert schema["type"] == "object"


@pytest.mark.parametrize("returns", [str, int, list[Issue], Issue | None, None, "no hint"])
def test_a_return_type_that_is_no_json_object_gives_no_output_schema(returns: Any) -> None:
    def f() -> None:
        """F."""

    f.__annotations__.pop("return")
    if returns != "no hint":
        f.__annotations__["return"] = returns
    assert Tool(f).output_schema is None


class Node(msgspec.Struct):
    value: int
    children: list[Node] = []


def test_a_recursive_return_type_keeps_its_definition_for_its_references() -> None:
    def tree() -> Node:
        """A tree."""
        return Node(1)

    tree.__annotations__["return"] = Node
    schema = Tool(tree).output_schema
    assert schema is not None
    assert schema["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert schema["$defs"]["Node"]["type"] == "object"


# --- what cannot be a tool ---------------------------------------------------------------
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


# --- the value -----------------------------------------------------------------------------
def test_a_tool_is_called_as_its_function() -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    assert add(2, b=3) == 5


def test_tools_of_one_function_name_and_description_are_equal() -> None:
    def f() -> None:
        """F."""

    assert Tool(f) == tool(f)
    assert hash(Tool(f)) == hash(tool(f))
    assert Tool(f) != Tool(f, name="g")


def test_a_tool_cannot_be_changed_nor_its_schema_through_a_copy() -> None:
    @tool
    def f(x: int) -> None:
        """F."""

    with pytest.raises(AttributeError):
        f.function = print  # type: ignore[misc]
    f.input_schema["properties"].clear()
    assert f.input_schema["properties"] == {"x": {"type": "integer"}}


def test_a_bound_method_and_a_partial_can_be_tools() -> None:
    class Tracker:
        def lookup(self, number: int) -> str:
            """Look up."""
            return str(number)

    def find(prefix: str, number: int) -> str:
        """Find."""
        return prefix + str(number)

    assert Tool(Tracker().lookup).input_schema["required"] == ["number"]
    partial = Tool(functools.partial(find, "#"), name="find")
    assert partial.input_schema["required"] == ["number"]
    assert partial.description == "Find."  # the function's, not functools.partial's


def test_the_repr_shows_the_name_and_the_first_line() -> None:
    @tool
    def f() -> None:
        """First line.

        More."""

    assert repr(f) == "Tool('f', 'First line.')"


@pytest.mark.heavy  # Ray's pickler: the test-full extra
def test_a_tool_survives_cloudpickle_as_a_fleet_sends_it_to_a_ray_worker() -> None:
    import pickle

    cloudpickle = need("ray.cloudpickle", "the pickler Ray uses")

    @tool(name="double", description="Double a number.")
    def twice(number: int) -> int:
        return 2 * number

    loaded = pickle.loads(cloudpickle.dumps(twice))
    assert (loaded.name, loaded.description) == ("double", "Double a number.")
    assert loaded.input_schema == twice.input_schema
    assert loaded(21) == 42
