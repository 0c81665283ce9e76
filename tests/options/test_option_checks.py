"""AgentOptions' values are checked when the options are built, by their fields' types,
with errors that name the option, the value and the fix (agent_sdk/_options/checks.py)."""

from __future__ import annotations

import collections
import fractions
import os
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec
import pytest

from agent_sdk import AgentConfigError, AgentError, AgentOptions, Budget
from agent_sdk._options.checks import OptionChecks
from agent_sdk.extend import Hooks, tool

SECRET = "key_sk-live-9f8e7d6c5b4a"
FIELDS = {field.name: field for field in msgspec.structs.fields(AgentOptions)}
BOOLS = [name for name, field in FIELDS.items() if field.type in (bool, bool | None)]
NUMBERS = ["timeout", "idle_timeout", "result_grace"]
TEXTS = ["model", "resume", "endpoint", "api_key", "auth_token"]
PATHS = ["binary", "cwd", "workspace"]


class BytesPath:
    """An os.PathLike whose path is bytes, which the CLI's argv cannot take as str."""

    def __fspath__(self) -> bytes:
        return b"/tmp"

    def __repr__(self) -> str:  # a test id the same in every process (pytest-xdist)
        return "BytesPath()"


def refused(**options: Any) -> AgentConfigError:
    with pytest.raises(AgentConfigError) as info:
        AgentOptions(**options)
    return info.value


# --- what the error is ------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{"force": "false"}, {"modle": "x"}, {"timeout": "10"}, {"model": "a\0b"}, {"mode": "x"}],
    ids=str,
)
def test_a_refused_option_is_an_agent_error_a_type_error_and_a_value_error(
    options: dict[str, Any],
) -> None:
    error = refused(**options)
    assert isinstance(error, AgentError)
    assert isinstance(error, TypeError)
    assert isinstance(error, ValueError)


def test_replace_checks_the_values_as_construction_does() -> None:
    with pytest.raises(AgentConfigError, match="force must be True or False"):
        msgspec.structs.replace(AgentOptions(), force="false")


# --- unknown and positional arguments -----------------------------------------------------
def test_a_mistyped_option_is_named_with_the_option_meant() -> None:
    assert refused(modle="x").message == (
        "AgentOptions has no option 'modle'; did you mean 'model'?"
    )


def test_a_mistyped_option_suggests_the_closest_name() -> None:
    assert refused(forse=True).message.endswith("did you mean 'force'?")


def test_an_option_like_no_other_lists_the_options() -> None:
    message = refused(zzzz=1).message
    assert message.startswith("AgentOptions has no option 'zzzz'; its options are binary,")
    assert "keep_events" in message


def test_positional_arguments_are_refused_as_options_are_keyword_only() -> None:
    with pytest.raises(AgentConfigError, match="by keyword only") as info:
        AgentOptions(SECRET)  # type: ignore[call-arg]
    assert SECRET not in str(info.value)


def test_import_agent_sdk_does_not_import_difflib() -> None:
    # difflib is for the unknown-option error only; importing it costs every program.
    code = "import sys, agent_sdk; print('difflib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_mypy_still_sees_the_keyword_signature(tmp_path: Path) -> None:
    # The metaclass's __call__ returns Any, so type checkers keep the fields' signature.
    api = pytest.importorskip("mypy.api", reason="mypy is not installed: pip install -e '.[test]'")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n")
    code = "from agent_sdk import AgentOptions\nAgentOptions(model='x')\nAgentOptions(modle='x')\n"
    out, _, status = api.run(
        ["--config-file", str(config), "--cache-dir", str(tmp_path / "cache"), "-c", code]
    )
    assert status == 1
    assert 'Unexpected keyword argument "modle" for "AgentOptions"' in out
    assert out.count("error:") == 1


# --- bools --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", BOOLS)
@pytest.mark.parametrize("value", ["false", "no", 1, 0, "True"])
def test_a_bool_option_takes_only_a_bool(name: str, value: object) -> None:
    error = refused(**{name: value})
    assert f"{name} must be True or False" in error.message
    assert f"AgentOptions({name}={value!r})" in error.message


def test_force_as_a_string_says_to_convert_it() -> None:
    error = refused(force="false")
    assert error.message == "AgentOptions(force='false'): force must be True or False, not a str"
    assert error.hint == 'convert it first, e.g. force=os.environ.get("FORCE") == "1"'


# --- numbers ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NUMBERS)
@pytest.mark.parametrize(
    "value", ["10", True, False, float("nan"), float("inf"), -float("inf"), -1, -0.5, [1]]
)
def test_a_number_option_takes_a_finite_non_negative_int_or_float(name: str, value: object) -> None:
    error = refused(**{name: value})
    assert f"{name} must be a" in error.message
    assert "number of seconds" in error.message


@pytest.mark.parametrize("name", ["timeout", "idle_timeout"])
def test_a_limit_of_zero_seconds_is_refused(name: str) -> None:
    assert "positive number" in refused(**{name: 0}).message


def test_a_number_as_a_string_says_to_convert_it() -> None:
    assert refused(timeout="10").hint == "convert it first, e.g. timeout=float('10')"


class Seconds(float):
    """A float subclass, as numpy.float64 is."""


@pytest.mark.parametrize("value", [10, 0.5, Seconds(3.0), fractions.Fraction(1, 2)], ids=repr)
def test_a_real_number_of_seconds_is_accepted(value: Any) -> None:
    assert AgentOptions(timeout=value, result_grace=value).result_grace == value


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


# --- paths --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PATHS)
@pytest.mark.parametrize("value", [123, b"/tmp", BytesPath(), ["/tmp"]], ids=repr)
def test_a_path_option_takes_a_str_or_an_os_pathlike_of_str(name: str, value: object) -> None:
    assert f"{name} must be a path (a str or an os.PathLike)" in refused(**{name: value}).message


@pytest.mark.parametrize(
    ("add_dirs", "message"),
    [
        ("/x", "add_dirs must be a list of paths, not a str"),
        (Path("/x"), "add_dirs must be a list of paths"),
        (["/x", 3], "add_dirs[1] must be a path"),
        ([b"/x"], "add_dirs[0] must be a path"),
    ],
    ids=str,
)
def test_add_dirs_is_a_list_of_paths(add_dirs: object, message: str) -> None:
    assert message in refused(add_dirs=add_dirs).message


def test_one_path_for_add_dirs_says_to_pass_a_list() -> None:
    assert refused(add_dirs="/x").hint == "pass a list, even of one item: add_dirs=['/x']"


# --- sequences and choices ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra_args", "message"),
    [
        ("--verbose", "extra_args must be a list of strings, not a str"),
        (b"--verbose", "extra_args must be a list of strings, not a bytes"),
        (["--ok", 1], "extra_args[1] is an int"),
        ((arg for arg in ["--a"]), "not a generator"),
    ],
    ids=["a str", "a bytes", "a list holding an int", "a generator"],  # stable across runs
)
def test_extra_args_is_a_list_of_strings(extra_args: object, message: str) -> None:
    assert message in refused(extra_args=extra_args).message


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "agent"}, "mode must be one of 'plan', 'ask', got 'agent'"),
        ({"sandbox": "on"}, "sandbox must be one of 'enabled', 'disabled', got 'on'"),
        (
            {"tools_channel": "project"},
            "tools_channel must be one of 'plugin', 'home', got 'project'",
        ),
        (
            {"output_format": "yaml"},
            "output_format must be one of 'stream-json', 'json', 'text', got 'yaml'",
        ),
    ],
    ids=str,
)
def test_a_choice_keeps_its_message(options: dict[str, Any], message: str) -> None:
    assert refused(**options).message == message


# --- what is accepted ---------------------------------------------------------------------
@tool
def _a_tool(number: int) -> int:
    """Echo a number."""
    return number


VALID: list[tuple[str, Any]] = [
    ("binary", "/opt/cursor-agent"),
    ("binary", Path("/opt/cursor-agent")),
    ("cwd", Path("/repo")),
    ("workspace", "/ws"),
    ("model", "gpt-5"),
    ("force", True),
    ("trust", False),
    ("mode", "plan"),
    ("resume", "chat-1"),
    ("continue_session", True),
    ("new_session_id", "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"),
    ("api_key", SECRET),
    ("auth_token", SECRET),
    ("env", {"A": "1", "CURSOR_CONFIG_DIR": "/c"}),
    ("env", collections.OrderedDict(A="1")),
    ("output_format", "json"),
    ("stream_partial_output", True),
    ("approve_mcps", True),
    ("sandbox", "disabled"),
    ("headers", {"X-Team": "core"}),
    ("endpoint", "https://api.example"),
    ("add_dirs", ["/a", Path("/b")]),
    ("add_dirs", ("/a",)),
    ("extra_args", ["--foo", "--bar=1"]),
    ("extra_args", ("--foo",)),
    ("extra_args", collections.deque(["--foo"])),
    ("timeout", 30),
    ("idle_timeout", 5.5),
    ("result_grace", 0),
    ("keep_events", False),
    ("worktree", True),
    ("worktree_name", "fix-cart"),
    ("worktree_base", "main"),
    ("skip_worktree_setup", True),
    ("checkpoint", True),
    ("output_attempts", 3),
    ("tools", [_a_tool]),
    ("hooks", Hooks(before_shell=lambda call: "allow")),
    ("tools_channel", "home"),
    ("budget", Budget(tool_calls=3, tool_calls_by_kind={"shell": 1})),
]
# What an option needs beside it to construct.
NEEDS: dict[str, dict[str, Any]] = {
    name: {"worktree": True} for name in ("worktree_name", "worktree_base", "skip_worktree_setup")
}


def test_every_option_has_a_valid_value_below() -> None:
    # A new field joins VALID, so that it is seen to construct.
    assert {name for name, _ in VALID} == set(FIELDS)


@pytest.mark.parametrize(("name", "value"), VALID, ids=lambda v: v if isinstance(v, str) else "")
def test_a_valid_value_of_every_option_constructs(name: str, value: Any) -> None:
    assert getattr(AgentOptions(**{name: value}, **NEEDS.get(name, {})), name) == value


@pytest.mark.parametrize("name", list(FIELDS))
def test_every_option_given_its_default_constructs(name: str) -> None:
    AgentOptions(**{name: FIELDS[name].default})


def test_a_os_pathlike_path_constructs() -> None:
    assert os.fspath(AgentOptions(cwd=PurePosixPath("/r")).cwd or "") == "/r"


# --- the checks follow the annotations ----------------------------------------------------
class Tiny(msgspec.Struct, frozen=True, kw_only=True):
    flag: bool = False
    wait: float | None = None
    name: str | None = None


def test_a_field_is_checked_by_its_type_with_no_code_of_its_own() -> None:
    checks = OptionChecks(Tiny, positive=("wait",))
    checks.check({"flag": True, "wait": 1, "name": "x"})
    for bad in ({"flag": "yes"}, {"wait": 0}, {"name": "a\0"}):
        with pytest.raises(AgentConfigError, match=f"Tiny\\({next(iter(bad))}="):
            checks.check(bad)


def test_a_tool_that_is_a_plain_function_is_refused_with_the_fix() -> None:
    with pytest.raises(AgentConfigError) as caught:
        AgentOptions(tools=[len])
    assert "tools[0] is builtin_function_or_method, not a Tool" in str(caught.value)
    assert caught.value.hint is not None
    assert "@tool" in caught.value.hint


def _another_tool(text: str) -> str:
    """Echo a text."""
    return text


def test_two_tools_of_one_name_are_refused_with_the_fix() -> None:
    with pytest.raises(AgentConfigError) as caught:
        AgentOptions(tools=[_a_tool, tool(name="_a_tool")(_another_tool)])
    assert "two tools are named '_a_tool'" in str(caught.value)
    assert caught.value.hint is not None


def test_tools_that_are_no_list_are_refused() -> None:
    with pytest.raises(AgentConfigError, match="tools must be a list"):
        AgentOptions(tools=_a_tool)


def test_the_token_of_a_tasks_tools_is_hidden_in_the_repr() -> None:
    # fleet/_tools.py puts it in the env of a worktree task's runs.
    options = AgentOptions(env={"AGENT_SDK_TOOLS_TOKEN": "tok-3f9b2d4e6a8c0f7c1e5a"})
    assert "tok-3f9b2d4e6a8c0f7c1e5a" not in repr(options)


@pytest.mark.parametrize("value", [{"before_tool": print}, print, [Hooks()]])
def test_hooks_that_are_not_a_hooks_are_refused_with_the_fix(value: object) -> None:
    with pytest.raises(AgentConfigError, match=r"hooks=\.\.\.\) is .*not a Hooks") as caught:
        AgentOptions(hooks=value)
    assert "Hooks(before_tool=" in (caught.value.hint or "")
