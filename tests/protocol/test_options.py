"""AgentOptions: validation, immutability, and a repr that never shows the key."""

from __future__ import annotations

from typing import Any

import pytest

from agent_sdk.options import AgentOptions

SECRET = "key_sk-live-9f8e7d6c5b4a"


# --- repr ---------------------------------------------------------------------------
def test_repr_of_options_hides_the_api_key() -> None:
    assert SECRET not in repr(AgentOptions(api_key=SECRET))


def test_repr_of_options_shows_the_key_as_stars() -> None:
    assert repr(AgentOptions(api_key=SECRET)) == "AgentOptions(api_key=***)"


def test_repr_of_options_shows_only_what_differs_from_the_defaults() -> None:
    assert repr(AgentOptions(model="gpt-5", trust=True)) == "AgentOptions(model='gpt-5')"


# --- validation ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"output_format": "yaml"}, "output_format"),
        ({"mode": "agent"}, "mode"),
        ({"mode": "edit"}, "mode"),
        ({"sandbox": "on"}, "sandbox"),
        ({"stream_partial_output": True, "output_format": "json"}, "stream_partial_output"),
        ({"stream_partial_output": True, "output_format": "text"}, "stream_partial_output"),
        ({"resume": "abc", "continue_session": True}, "continue_session"),
        ({"resume": ""}, "resume"),
        ({"extra_args": ["--api-key", SECRET]}, "api_key"),
        ({"extra_args": [f"--api-key={SECRET}"]}, "api_key"),
        ({"headers": {"X-Bad: yes": "1"}}, "header"),
        ({"headers": {"": "1"}}, "header"),
        ({"headers": {"X-Bad\nInjected": "1"}}, "header"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": -1.5}, "timeout"),
        ({"idle_timeout": 0}, "idle_timeout"),
        ({"result_grace": -1}, "result_grace"),
    ],
    ids=lambda value: None if isinstance(value, dict) else value,
)
def test_invalid_options_raise_value_error_naming_the_problem(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        AgentOptions(**options)


def test_bad_choice_error_lists_the_allowed_values() -> None:
    with pytest.raises(ValueError, match="'plan', 'ask'"):
        AgentOptions(mode="agent")  # type: ignore[arg-type]


def test_api_key_in_extra_args_error_does_not_echo_the_key() -> None:
    with pytest.raises(ValueError, match="api_key") as info:
        AgentOptions(extra_args=["--api-key", SECRET])
    assert SECRET not in str(info.value)


def test_extra_args_as_one_string_raises_type_error() -> None:
    with pytest.raises(TypeError, match="extra_args"):
        AgentOptions(extra_args="--verbose")


def test_options_are_frozen() -> None:
    options = AgentOptions()
    with pytest.raises(AttributeError):
        options.model = "gpt-5"  # type: ignore[misc]


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        AgentOptions("cursor-agent")  # type: ignore[call-arg]


def test_a_header_value_with_a_line_break_is_refused() -> None:
    with pytest.raises(ValueError, match="line breaks"):
        AgentOptions(headers={"X-Team": "a\r\nEvil: 1"})


def test_extra_args_with_a_non_string_item_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="list of strings"):
        AgentOptions(extra_args=["--ok", 1])  # type: ignore[list-item]
