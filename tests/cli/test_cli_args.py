"""``agent-sdk [run]`` arguments: flags derived from AgentOptions, the prompt, ``--fake``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import get_args

import msgspec
import pytest

import fake_agent
from agent_sdk import AgentOptions
from agent_sdk.cli.args import AGENT_FLAGS, CLI_DEFAULTS, parse_run_args, run_parser
from agent_sdk.options import Mode, OutputFormat, Sandbox

FIELDS = {field.name: field for field in msgspec.structs.fields(AgentOptions)}


def _actions(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {action.dest: action for action in parser._actions}


# --- flags derived from AgentOptions ---------------------------------------------------
def test_with_no_flags_every_option_is_agent_options_default() -> None:
    options = parse_run_args(["hi"]).options
    defaults = AgentOptions()
    for name in AGENT_FLAGS:
        expected = CLI_DEFAULTS.get(name, getattr(defaults, name))
        assert getattr(options, name) == expected, name
    # The one departure, on purpose: a live view streams the reply as it comes.
    assert CLI_DEFAULTS == {"stream_partial_output": True}
    assert options == msgspec.structs.replace(defaults, stream_partial_output=True)


def test_flag_defaults_follow_the_fields_they_are_derived_from() -> None:
    # Other defaults than AgentOptions' own: a flag that re-declared its default would
    # keep the old value.
    changed = {"result_grace": 7.5, "output_format": "json", "timeout": 30.0}
    fields = [
        msgspec.structs.replace(field, default=changed[field.name])
        if field.name in changed
        else field
        for field in msgspec.structs.fields(AgentOptions)
    ]
    parser = run_parser(fields)
    args = parser.parse_args(["hi"])
    assert {name: getattr(args, name) for name in changed} == changed
    assert "(default 7.5)" in " ".join(parser.format_help().split())
    assert "(default: json)" in parser.format_help()


def test_help_shows_agent_options_defaults() -> None:
    text = " ".join(run_parser().format_help().split())
    assert f"(default {AgentOptions().result_grace:g})" in text
    assert f"(default: {AgentOptions().output_format})" in text


def test_choices_are_the_literal_types_of_agent_options() -> None:
    actions = _actions(run_parser())
    assert actions["mode"].choices == get_args(Mode)
    assert actions["output_format"].choices == get_args(OutputFormat)
    assert actions["sandbox"].choices == get_args(Sandbox)


def test_every_agent_option_is_a_flag_except_credentials_and_python_values() -> None:
    assert set(FIELDS) - set(AGENT_FLAGS) == {
        "api_key",  # never in argv: the environment
        "auth_token",
        "keep_events",  # what a program keeps, not what the command shows
        "output_attempts",
        "tools",  # Python functions
        "hooks",
        "tools_channel",  # how those reach the CLI
    }
    assert set(AGENT_FLAGS) <= set(FIELDS)


def test_a_switch_is_spelt_no_exactly_when_it_turns_a_default_off() -> None:
    actions = _actions(run_parser())
    for name, flag in AGENT_FLAGS.items():
        if FIELDS[name].type is bool:
            default = CLI_DEFAULTS.get(name, FIELDS[name].default)
            assert flag.spelling[-1].startswith("--no-") == default, name
            assert actions[name].default == default


def test_no_api_key_flag_and_none_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURSOR_API_KEY", "secret")  # the child inherits it; never argv
    assert parse_run_args(["hi"]).options.api_key is None
    with pytest.raises(SystemExit):
        parse_run_args(["--api-key", "secret", "hi"])


def test_every_flag_maps_to_agent_options() -> None:
    command = parse_run_args(
        [
            "fix", "it",
            "--binary", "/opt/cursor-agent",
            "--cwd", "/repo",
            "--workspace", "/ws",
            "--model", "gpt-5",
            "--force",
            "--no-trust",
            "--mode", "plan",
            "--resume", "abc",
            "--env", "A=1", "--env", "B=x=y",
            "--output-format", "stream-json",
            "--no-partial",
            "--approve-mcps",
            "--sandbox", "disabled",
            "--header", "X-One: 1", "--header", "X-Two:two",
            "--endpoint", "https://api.example",
            "--add-dir", "/a", "--add-dir", "/b",
            "--extra-arg=--foo", "--extra-arg", "bar",
            "--timeout", "30",
            "--idle-timeout", "5.5",
            "--result-grace", "0",
        ]
    )  # fmt: skip
    assert command.prompt == "fix it"
    assert command.options == AgentOptions(
        binary="/opt/cursor-agent",
        cwd="/repo",
        workspace="/ws",
        model="gpt-5",
        force=True,
        trust=False,
        mode="plan",
        resume="abc",
        env={"A": "1", "B": "x=y"},
        output_format="stream-json",
        stream_partial_output=False,
        approve_mcps=True,
        sandbox="disabled",
        headers={"X-One": "1", "X-Two": "two"},
        endpoint="https://api.example",
        add_dirs=("/a", "/b"),
        extra_args=("--foo", "bar"),
        timeout=30.0,
        idle_timeout=5.5,
        result_grace=0.0,
    )


def test_new_session_id_maps_to_its_option() -> None:
    chosen = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
    command = parse_run_args(["--new-session-id", chosen, "hi"])
    assert command.options.new_session_id == chosen
    assert command.prompt == "hi"


def test_continue_and_non_stream_formats_map_without_partial_output() -> None:
    options = parse_run_args(["--continue", "--output-format", "json", "hi"]).options
    assert options.continue_session is True
    assert options.output_format == "json"
    assert options.stream_partial_output is False


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--mode", "agent", "hi"], "invalid choice: 'agent'"),
        (["--timeout", "soon", "hi"], "invalid float value: 'soon'"),
        (["--timeout", "0", "hi"], "--timeout 0.0: must be a positive number"),
        (["--header", "NoColon", "hi"], "--header wants NAME:VALUE"),
        (["--resume", "x", "--continue", "hi"], "either --resume ID or --continue"),
        (["--new-session-id", "abc", "hi"], "--new-session-id abc: it must be a UUID"),
        (
            ["--new-session-id", "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10", "--resume", "x", "hi"],
            "pass either --new-session-id UUID (a new chat) or --resume x",
        ),
    ],
)
def test_bad_values_are_usage_errors_that_say_why(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_run_args(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


# --- the prompt ------------------------------------------------------------------------
def test_words_after_double_dash_are_prompt_even_if_they_look_like_flags() -> None:
    assert parse_run_args(["--model", "m", "--", "-x", "--json"]).prompt == "-x --json"
    assert parse_run_args(["--", "replay", "it"]).prompt == "replay it"


def test_no_words_or_a_dash_mean_the_prompt_comes_from_stdin() -> None:
    assert parse_run_args([]).prompt is None
    assert parse_run_args(["-"]).prompt is None


# --- --fake ----------------------------------------------------------------------------
def test_fake_sets_the_binary_and_the_scenario() -> None:
    options = parse_run_args(["--fake", "tools", "hi"]).options
    assert options.binary == fake_agent.executable()
    assert options.env == {"FAKE_AGENT_SCENARIO": "tools"}


def test_every_bundled_scenario_name_is_taken_as_a_scenario() -> None:
    for name in fake_agent.scenario_names():
        command = parse_run_args(["--fake", name, "hi"])
        assert command.options.env == {"FAKE_AGENT_SCENARIO": name}
        assert command.prompt == "hi"


def test_fake_followed_by_a_word_that_is_no_scenario_takes_it_as_the_prompt() -> None:
    command = parse_run_args(["--fake", "add a test"])
    assert command.prompt == "add a test"
    assert command.options.env is None
    # A word the fake's own resolution refuses is no scenario either.
    with pytest.raises(fake_agent.ScenarioError):
        fake_agent.scenario_path("hello.world")
    assert parse_run_args(["--fake", "hello.world"]).prompt == "hello.world"
    # Prose, not a name: capitals, or the only word of the prompt.
    assert parse_run_args(["--fake", "Fix", "the bug"]).prompt == "Fix the bug"
    assert parse_run_args(["--fake", "hi"]).prompt == "hi"


@pytest.mark.parametrize(
    "argv",
    [
        ["--fake", "tool", "Add a test"],
        ["--fake", "tool", "-"],  # the prompt on stdin
        ["Add a test", "--fake", "tool"],
        ["--fake", "tool", "--", "Add a test"],
    ],
)
def test_fake_with_an_unknown_name_and_a_prompt_is_a_usage_error_naming_the_one_meant(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_run_args(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--fake tool: there is no scenario named 'tool'; did you mean 'tools'?\n" in err


def test_an_unknown_name_with_no_close_scenario_suggests_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        parse_run_args(["--fake", "zzzzzz", "hi"])
    err = capsys.readouterr().err
    assert "--fake zzzzzz: there is no scenario named 'zzzzzz'\n" in err
    assert "did you mean" not in err


def test_a_prompt_after_dashes_may_begin_with_any_word() -> None:
    command = parse_run_args(["--fake", "--", "fix", "the bug"])
    assert command.prompt == "fix the bug"
    assert command.options.env is None


def test_help_says_when_the_word_after_fake_is_a_scenario() -> None:
    text = " ".join(run_parser().format_help().split())
    assert "a single lowercase word followed by more of the prompt is refused" in text
    assert "(--fake -- fix the bug)" in text


def test_fake_alone_runs_the_default_scenario_and_keeps_other_env() -> None:
    command = parse_run_args(["--fake", "--env", "A=1", "hi"])
    assert command.options.binary == fake_agent.executable()
    assert command.options.env == {"A": "1"}
    scenario = parse_run_args(["--fake", "tools", "--env", "A=1", "hi"]).options.env
    assert scenario == {"A": "1", "FAKE_AGENT_SCENARIO": "tools"}


def test_fake_scenario_path_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    options = parse_run_args(["--fake", "mine.ndjson", "hi"]).options
    assert options.env == {"FAKE_AGENT_SCENARIO": str(tmp_path / "mine.ndjson")}
    options = parse_run_args(["--fake", "sub/script", "hi"]).options
    assert options.env == {"FAKE_AGENT_SCENARIO": str(tmp_path / "sub" / "script")}


def test_fake_and_binary_exclude_each_other() -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_run_args(["--fake", "--binary", "/x", "hi"])
    assert exit_.value.code == 2


def test_fake_if_missing_is_off_with_fake() -> None:
    assert parse_run_args(["--fake-if-missing", "hi"]).fake_if_missing is True
    assert parse_run_args(["--fake", "--fake-if-missing", "hi"]).fake_if_missing is False


def test_a_malformed_header_is_refused_without_quoting_its_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        parse_run_args(["--header", "Authorization Bearer sk-live-0123456789", "hi"])
    err = capsys.readouterr().err
    assert "--header wants NAME:VALUE; one value has no ':'" in err
    assert "sk-live-0123456789" not in err
