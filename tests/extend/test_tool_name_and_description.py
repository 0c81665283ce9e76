"""Defining a tool (agent_sdk/extend/_tool.py, _docstring.py): its name and description,
from the function and its docstring or given to the decorator, and the parameters'
descriptions read from the docstring's Args section."""

from __future__ import annotations

from agent_sdk.extend import tool
from agent_sdk.extend._docstring import split_docstring


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
