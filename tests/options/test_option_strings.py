"""AgentOptions' strings (agent_sdk/_options/checks.py): no NUL byte anywhere, named
where it is; a string option takes a str; env and headers map str to str; an error
never quotes a credential."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

import pytest
from option_values import PATHS, SECRET, refused

TEXTS = ["model", "resume", "endpoint", "api_key", "auth_token"]


# --- strings and NUL bytes ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "where"),
    [
        *(({name: "a\0b"}, name) for name in TEXTS),
        *(({name: "/tmp/a\0b"}, name) for name in PATHS),
        ({"cwd": PurePosixPath("/tmp/a\0b")}, "cwd"),
        ({"extra_args": ["--ok", "--a\0b"]}, "extra_args[1]"),
        ({"add_dirs": ["/x", "/a\0b"]}, "add_dirs[1]"),
        ({"env": {"A": "1", "B": "x\0y"}}, "env['B']"),
        ({"env": {"A\0": "1"}}, "env name 'A\\x00'"),
        ({"headers": {"X-A": "x\0y"}}, "headers['X-A']"),
        ({"headers": {"X\0A": "1"}}, "headers name 'X\\x00A'"),
    ],
    ids=str,
)
def test_a_nul_byte_in_any_string_is_refused_naming_where(
    options: dict[str, Any], where: str
) -> None:
    assert f"{where} holds a NUL byte" in refused(**options).message


@pytest.mark.parametrize("name", TEXTS)
@pytest.mark.parametrize("value", [1, b"x", ["x"]])
def test_a_string_option_takes_a_str_or_none(name: str, value: object) -> None:
    assert f"{name} must be a str, or None" in refused(**{name: value}).message


@pytest.mark.parametrize(
    "options",
    [
        {"api_key": SECRET + "\0"},
        {"auth_token": SECRET + "\0"},
        {"env": {"TOKEN": SECRET + "\0"}},
        {"env": {"TOKEN": [SECRET]}},
        {"headers": {"Authorization": SECRET + "\0"}},
        {"headers": {"Authorization": [SECRET]}},
        {"headers": [("Authorization", SECRET)]},
        {"api_key": [SECRET]},
    ],
    ids=lambda options: next(iter(options)),
)
def test_an_error_never_quotes_a_credential(options: dict[str, Any]) -> None:
    assert SECRET not in str(refused(**options))


# --- env ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"A": 1}, "env['A'] is an int"),
        ({1: "a"}, "the name 1 is an int"),
        ({"": "x"}, "invalid variable name ''"),
        ({"A=B": "x"}, "invalid variable name 'A=B'"),
        ("A=1", "env must be a dict mapping a str to a str, or None, not a str"),
        ([("A", "1")], "not a list"),
    ],
    ids=str,
)
def test_env_maps_names_to_str_values(env: object, message: str) -> None:
    assert message in refused(env=env).message


def test_a_header_value_that_is_not_a_str_is_refused() -> None:
    assert "headers['X-Team'] is an int" in refused(headers={"X-Team": 7}).message
