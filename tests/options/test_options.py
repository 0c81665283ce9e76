"""AgentOptions: validation, immutability, and reprs that never show a credential."""

from __future__ import annotations

from typing import Any

import pytest

from agent_sdk.options import AgentOptions, build_invocation

SECRET = "key_sk-live-9f8e7d6c5b4a"


# --- repr ---------------------------------------------------------------------------
def test_repr_of_options_hides_the_api_key() -> None:
    assert SECRET not in repr(AgentOptions(api_key=SECRET))


def test_repr_of_options_shows_the_key_as_stars() -> None:
    assert repr(AgentOptions(api_key=SECRET)) == "AgentOptions(api_key=***)"


def test_repr_of_options_shows_only_what_differs_from_the_defaults() -> None:
    assert repr(AgentOptions(model="gpt-5", trust=True)) == "AgentOptions(model='gpt-5')"


def test_repr_of_options_hides_the_auth_token() -> None:
    assert repr(AgentOptions(auth_token=SECRET)) == "AgentOptions(auth_token=***)"


@pytest.mark.parametrize("name", ["CURSOR_API_KEY", "CURSOR_AUTH_TOKEN"])
def test_repr_of_options_hides_a_credential_passed_in_env(name: str) -> None:
    text = repr(AgentOptions(env={name: SECRET, "LANG": "C"}))
    assert SECRET not in text
    assert f"'{name}': '***'" in text


def test_repr_of_options_shows_the_other_env_values() -> None:
    assert "'LANG': 'C'" in repr(AgentOptions(env={"CURSOR_API_KEY": SECRET, "LANG": "C"}))


def test_repr_of_options_shows_header_names_and_hides_every_value() -> None:
    options = AgentOptions(headers={"Authorization": f"Bearer {SECRET}", "X-Team": "core"})
    assert repr(options) == ("AgentOptions(headers={'Authorization': '***', 'X-Team': '***'})")


PLANTED = {
    "api_key": SECRET,
    "auth_token": SECRET,
    "env": {"CURSOR_API_KEY": SECRET, "CURSOR_AUTH_TOKEN": SECRET},
    "headers": {"Authorization": SECRET},
}


def test_rich_repr_of_options_never_holds_a_planted_credential() -> None:
    fields = AgentOptions(**PLANTED).__rich_repr__()
    assert SECRET not in repr(list(fields))
    assert dict(fields)["api_key"] == "***"


def test_rich_repr_of_options_holds_only_what_differs_from_the_defaults() -> None:
    assert AgentOptions(model="gpt-5", trust=True).__rich_repr__() == [("model", "gpt-5")]


def test_repr_of_invocation_hides_the_value_of_every_header() -> None:
    options = AgentOptions(
        headers={"Authorization": SECRET},
        extra_args=["--header", f"X-Key: {SECRET}", f"--header=X-Two: {SECRET}"],
        **{name: value for name, value in PLANTED.items() if name != "headers"},
    )
    invocation = build_invocation("hi", options, binary="cursor-agent", environ={})
    text = repr(invocation)
    assert SECRET not in text
    assert "'--header=Authorization: ***'" in text
    assert "'--header', 'X-Key: ***'" in text
    assert "'--header=X-Two: ***'" in text


def test_repr_of_invocation_keeps_the_prompt_and_the_other_flags() -> None:
    options = AgentOptions(headers={"X-Team": "core"}, model="gpt-5")
    invocation = build_invocation("--header=hi", options, binary="cursor-agent", environ={})
    text = repr(invocation)
    assert "'--model=gpt-5'" in text
    assert "'--', '--header=hi']" in text


def test_rich_repr_of_invocation_never_holds_a_planted_credential() -> None:
    options = AgentOptions(**PLANTED)
    invocation = build_invocation("hi", options, binary="cursor-agent", environ={})
    assert invocation.argv.count(f"--header=Authorization: {SECRET}") == 1
    assert SECRET not in repr(invocation.__rich_repr__())


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
