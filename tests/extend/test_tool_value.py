"""A tool as a value (agent_sdk/extend/_tool.py): called as its function, equal by
function, name and description, immutable, pickled for a fleet's workers."""

from __future__ import annotations

import functools

import pytest
from needs import need

from agent_sdk.extend import Tool, tool


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
