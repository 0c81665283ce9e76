"""Defining a tool (agent_sdk/extend/_tool.py, _signature.py): the input and output JSON
Schemas msgspec makes from a function's parameters and return type."""

from __future__ import annotations

import dataclasses
import datetime
import enum
from typing import Annotated, Any, Literal, TypedDict

import msgspec
import pytest

from agent_sdk.extend import Tool, tool


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
