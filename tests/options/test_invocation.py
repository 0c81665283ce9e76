"""build_invocation: the argv, stdin and environment the SDK executes (docs/protocol.md §1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_sdk import AgentConfigError
from agent_sdk._options.invocation import (
    MAX_PROMPT_ARG_BYTES,
    Invocation,
    build_invocation,
)
from agent_sdk.options import AgentOptions

BINARY = "/opt/cursor/cursor-agent"
SECRET = "key_sk-live-9f8e7d6c5b4a"


def invoke(prompt: str = "hi", environ: dict[str, str] | None = None, **options: Any) -> Invocation:
    return build_invocation(
        prompt, AgentOptions(**options), binary=BINARY, environ=environ if environ else {}
    )


def flags(invocation: Invocation) -> list[str]:
    """The argv items between the binary and ``--``."""
    argv = invocation.argv
    end = argv.index("--") if "--" in argv else len(argv)
    return argv[1:end]


# --- argv ---------------------------------------------------------------------------
def test_default_argv_is_print_stream_json_trust_then_prompt_after_double_dash() -> None:
    assert invoke("hi").argv == [
        BINARY,
        "--print",
        "--output-format=stream-json",
        "--trust",
        "--",
        "hi",
    ]


def test_default_invocation_sends_nothing_on_stdin() -> None:
    assert invoke("hi").stdin is None


@pytest.mark.parametrize(
    ("options", "flag"),
    [
        ({"model": "gpt-5"}, "--model=gpt-5"),
        ({"mode": "plan"}, "--mode=plan"),
        ({"mode": "ask"}, "--mode=ask"),
        (
            {"resume": "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"},
            "--resume=0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
        ),
        (
            {"new_session_id": "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"},
            "--new-session-id=0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
        ),
        ({"workspace": "/home/dev/shop"}, "--workspace=/home/dev/shop"),
        ({"workspace": Path("/home/dev/shop")}, "--workspace=/home/dev/shop"),
        ({"sandbox": "enabled"}, "--sandbox=enabled"),
        ({"sandbox": "disabled"}, "--sandbox=disabled"),
        ({"worktree": True}, "--worktree"),
        ({"worktree": True, "worktree_name": "fix-cart"}, "--worktree=fix-cart"),
        ({"worktree": True, "worktree_base": "main"}, "--worktree-base=main"),
        ({"worktree": True, "skip_worktree_setup": True}, "--skip-worktree-setup"),
        ({"endpoint": "https://api.example.invalid"}, "--endpoint=https://api.example.invalid"),
        ({"headers": {"X-Trace": "abc 123"}}, "--header=X-Trace: abc 123"),
        ({"approve_mcps": True}, "--approve-mcps"),
        ({"force": True}, "--force"),
        ({"continue_session": True}, "--continue"),
        ({"stream_partial_output": True}, "--stream-partial-output"),
        ({"output_format": "json"}, "--output-format=json"),
        ({"output_format": "text"}, "--output-format=text"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_each_option_maps_to_its_flag_before_the_prompt(options: dict[str, Any], flag: str) -> None:
    assert flag in flags(invoke("hi", **options))


def test_each_header_becomes_its_own_header_flag() -> None:
    inv = invoke(headers={"X-One": "1", "X-Two": "2"})
    assert [f for f in flags(inv) if f.startswith("--header")] == [
        "--header=X-One: 1",
        "--header=X-Two: 2",
    ]


def test_add_dirs_repeats_the_add_dir_flag_in_order() -> None:
    inv = invoke(add_dirs=["/srv/data", Path("/srv/cache")])
    assert [f for f in flags(inv) if f.startswith("--add-dir")] == [
        "--add-dir=/srv/data",
        "--add-dir=/srv/cache",
    ]


def test_extra_args_are_placed_as_given_right_before_the_double_dash() -> None:
    inv = invoke("hi", extra_args=["--frobnicate", "value"])
    assert inv.argv[-4:] == ["--frobnicate", "value", "--", "hi"]


def test_trust_false_drops_the_trust_flag() -> None:
    assert "--trust" not in invoke(trust=False).argv


def test_a_prompt_that_looks_like_a_flag_follows_double_dash_as_the_last_item() -> None:
    argv = invoke("--help").argv
    assert argv[-2:] == ["--", "--help"]
    assert argv.count("--help") == 1


@pytest.mark.parametrize(
    ("options", "item"),
    [
        ({"model": "-x"}, "--model=-x"),
        ({"resume": "--force"}, "--resume=--force"),
        ({"workspace": "-rf"}, "--workspace=-rf"),
        ({"endpoint": "--yolo"}, "--endpoint=--yolo"),
    ],
)
def test_a_value_starting_with_a_dash_stays_inside_one_flag_item(
    options: dict[str, Any], item: str
) -> None:
    argv = invoke("hi", **options).argv
    assert item in argv
    assert not any(a in argv for a in ("-x", "--force", "-rf", "--yolo"))


# --- prompt on stdin ----------------------------------------------------------------
def test_a_prompt_over_the_argv_limit_goes_to_stdin_as_utf8() -> None:
    prompt = "é" * (MAX_PROMPT_ARG_BYTES // 2 + 1)  # fewer chars than the limit, more bytes
    inv = invoke(prompt)
    assert inv.stdin == prompt.encode("utf-8")


def test_a_prompt_on_stdin_leaves_no_double_dash_or_prompt_in_argv() -> None:
    prompt = "x" * (MAX_PROMPT_ARG_BYTES + 1)
    inv = invoke(prompt)
    assert inv.argv == [BINARY, "--print", "--output-format=stream-json", "--trust"]


def test_a_prompt_of_exactly_the_limit_stays_in_argv() -> None:
    prompt = "x" * MAX_PROMPT_ARG_BYTES
    inv = invoke(prompt)
    assert (inv.stdin, inv.argv[-1]) == (None, prompt)


def test_a_prompt_with_a_nul_byte_goes_to_stdin() -> None:
    inv = invoke("before\0after")
    assert inv.stdin == b"before\0after"
    assert "--" not in inv.argv


def test_a_lone_surrogate_in_the_prompt_becomes_a_replacement_character() -> None:
    argv = invoke("cut mid-emoji \ud83d").argv
    assert argv[-1] == "cut mid-emoji \ufffd"


# --- environment --------------------------------------------------------------------
def test_api_key_is_sent_as_cursor_api_key_in_env() -> None:
    assert invoke(api_key=SECRET).env["CURSOR_API_KEY"] == SECRET


def test_api_key_never_appears_in_argv() -> None:
    argv = invoke(api_key=SECRET).argv
    assert not any(SECRET in item or "api-key" in item for item in argv)


def test_no_open_browser_is_always_set() -> None:
    assert invoke().env["NO_OPEN_BROWSER"] == "1"


def test_no_open_browser_cannot_be_turned_off_by_options_env() -> None:
    assert invoke(env={"NO_OPEN_BROWSER": "0"}).env["NO_OPEN_BROWSER"] == "1"


def test_options_env_overrides_the_given_environ() -> None:
    env = invoke(environ={"LANG": "C"}, env={"LANG": "en_US.UTF-8"}).env
    assert env["LANG"] == "en_US.UTF-8"


def test_options_env_keeps_the_other_variables_of_the_given_environ() -> None:
    env = invoke(environ={"PATH": "/usr/bin", "HOME": "/home/dev"}, env={"LANG": "C"}).env
    assert (env["PATH"], env["HOME"], env["LANG"]) == ("/usr/bin", "/home/dev", "C")


def test_node_options_of_the_process_does_not_reach_the_cli() -> None:
    # A flag the CLI's bundled node disallows stops it from starting (docs/protocol.md §1,
    # "Environment"): the SDK's own process may run under a NODE_OPTIONS meant for it.
    env = invoke(environ={"PATH": "/usr/bin", "NODE_OPTIONS": "--no-experimental-fetch"}).env
    assert "NODE_OPTIONS" not in env
    assert env["PATH"] == "/usr/bin"


def test_node_options_set_in_options_env_is_kept() -> None:
    env = invoke(
        environ={"NODE_OPTIONS": "--inspect"}, env={"NODE_OPTIONS": "--max-old-space-size=8192"}
    ).env
    assert env["NODE_OPTIONS"] == "--max-old-space-size=8192"


def test_build_invocation_does_not_mutate_the_given_environ() -> None:
    environ = {"PATH": "/usr/bin"}
    invoke(environ=environ, env={"LANG": "C"}, api_key=SECRET)
    assert environ == {"PATH": "/usr/bin"}


# --- repr ---------------------------------------------------------------------------
def test_repr_of_invocation_hides_the_api_key() -> None:
    inv = invoke(api_key=SECRET)
    assert SECRET not in repr(inv)
    assert SECRET not in str(inv)


@pytest.mark.parametrize(
    "given",
    [{"worktree_name": "x"}, {"worktree_base": "main"}, {"skip_worktree_setup": True}],
)
def test_the_worktree_details_need_a_worktree(given: dict[str, Any]) -> None:
    with pytest.raises(AgentConfigError, match="need worktree=True"):
        AgentOptions(**given)


def test_a_chosen_chat_id_is_passed_once_and_nothing_resumes() -> None:
    chosen = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
    given = flags(invoke("hi", new_session_id=chosen))
    assert [arg for arg in given if "session" in arg or "resume" in arg or arg == "--continue"] == [
        f"--new-session-id={chosen}"
    ]
