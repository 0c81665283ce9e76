"""``agent-sdk`` as a new user meets it: its help, its usage errors, ``--version``.

Each test runs ``python -m agent_sdk`` as a user would in a fresh shell (stdout and stderr
are pipes, so nothing is drawn for a terminal) and reads what it printed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_process import cli

import agent_sdk
import fake_agent


def _words(text: str) -> str:
    return " ".join(text.split())


# --- help -------------------------------------------------------------------------------
def test_help_names_the_batch_and_replay_commands() -> None:
    done = cli("--help")
    assert done.returncode == 0
    head = done.stdout.split("positional arguments:")[0]  # before the 30 flags
    assert "agent-sdk batch TASKS.jsonl" in head
    assert "agent-sdk replay FILE" in head
    assert "agent-sdk batch --help" in head
    assert "agent-sdk rewind [CHECKPOINT_ID]" in head
    assert "agent-sdk checkpoints" in head


def test_help_says_a_prompt_that_begins_with_a_command_goes_after_dashes() -> None:
    text = _words(cli("--help").stdout)
    said = "Put '--' before a prompt that starts with '-' or with a command's name ('batch', "
    assert said in text
    assert "'replay', 'rewind' or 'run'" in text


def test_a_prompt_after_dashes_that_begins_with_batch_is_a_prompt() -> None:
    done = cli("--fake", "--json", "--", "batch", "the writes")
    assert done.returncode == 0, done.stderr
    assert '"type":"result"' in done.stdout  # a run, not a batch


@pytest.mark.parametrize("command", [[], ["batch"]])
def test_help_names_the_scenario_the_fake_plays_by_default(command: list[str]) -> None:
    # Read from the fake itself, not written here: the help cannot drift from it again.
    default = fake_agent.DEFAULT_SCENARIO
    text = _words(cli(*command, "--help").stdout)
    assert f"({default}, the default;" in text
    others = [name for name in fake_agent.scenario_names() if name != default]
    assert not [name for name in others if f"{name}, the default" in text]


# --- usage errors -----------------------------------------------------------------------
def test_a_usage_error_is_one_line_and_a_pointer_to_help() -> None:
    done = cli("--no-such-flag", "hi")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "agent-sdk: error: unrecognized arguments: --no-such-flag",
        "(agent-sdk --help lists every flag)",
    ]


def test_a_batch_usage_error_points_at_the_batch_help(tmp_path: Path) -> None:
    done = cli("batch", str(tmp_path / "none.jsonl"), "--limit", "0")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "agent-sdk batch: error: --limit must be at least 1",
        "(agent-sdk batch --help lists every flag)",
    ]


def test_a_prompt_after_fake_that_begins_with_a_name_like_word_says_how_to_run_it() -> None:
    done = cli("--fake", "fix", "the", "bug")
    assert done.returncode == 2
    assert done.stdout == ""  # nothing ran
    lines = done.stderr.splitlines()
    assert lines[0] == "agent-sdk: error: --fake fix: there is no scenario named 'fix'"
    assert lines[1] == (
        "to run the fake agent on the prompt 'fix the bug', put '--' before the prompt: "
        "agent-sdk --fake -- fix the bug"
    )
    assert len(lines) <= 4
    assert "usage:" not in done.stderr


def test_an_unknown_scenario_names_a_few_and_where_the_rest_are() -> None:
    done = cli("--fake", "fix", "the", "bug")
    names = fake_agent.scenario_names()
    folder = fake_agent.scenario_path("hello").parent
    said = f"the {len(names)} scenarios (hello, tools, cart, crash, ...) are the .ndjson files"
    assert f"{said} in {folder}" in done.stderr
    assert sum(name in re.findall(r"\w+", done.stderr) for name in names) <= 5


def test_a_mistyped_scenario_is_named_with_the_one_meant() -> None:
    done = cli("--fake", "tool", "Add a test")
    assert done.returncode == 2
    first = done.stderr.splitlines()[0]
    assert first == (
        "agent-sdk: error: --fake tool: there is no scenario named 'tool'; did you mean 'tools'?"
    )


# --- --version --------------------------------------------------------------------------
def test_version_without_the_cli_says_so_then_why_and_the_fix() -> None:
    done = cli("--binary", "/nope/cursor-agent", "--version")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[:2] == [f"agent-sdk {agent_sdk.__version__}", "cursor-agent: none found"]
    assert lines[2].startswith("  --binary is '/nope/cursor-agent'")  # in the flags' terms
    assert lines[3].startswith("  Hint: ")
    assert "agent-sdk --fake [SCENARIO] PROMPT" in lines[3]


def test_version_without_the_cli_nests_no_parenthesis(tmp_path: Path) -> None:
    done = cli("--version", PATH=str(tmp_path), HOME=str(tmp_path))
    assert done.returncode == 0
    nested = re.compile(r"\([^()]*\(")
    assert not [line for line in done.stdout.splitlines() if nested.search(line)], done.stdout
    assert "cursor-agent was not found (looked at CURSOR_AGENT_BIN" in done.stdout


# --- --fake-path and CURSOR_AGENT_BIN (issue 35) ----------------------------------------
def test_fake_path_prints_the_fakes_executable_and_nothing_else() -> None:
    done = cli("--fake-path")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == fake_agent.executable() + "\n"


def test_what_fake_path_prints_is_what_cursor_agent_bin_wants() -> None:
    path = cli("--fake-path").stdout.strip()
    done = cli("--json", "add a test", CURSOR_AGENT_BIN=path)
    assert done.returncode == 0, done.stderr
    assert '"type":"result"' in done.stdout


def test_help_lists_fake_path() -> None:
    assert "--fake-path" in cli("--help").stdout


def test_an_empty_cursor_agent_bin_says_so_and_how_to_set_it() -> None:
    done = cli("add a test", CURSOR_AGENT_BIN="")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0] == "agent-sdk: error: CURSOR_AGENT_BIN is set but empty"
    assert lines[1].startswith("Hint: unset it (`unset CURSOR_AGENT_BIN`)")
    assert "--fake-path" in lines[1]


# --- errors -----------------------------------------------------------------------------
def test_a_failed_run_prints_its_hint_once() -> None:
    done = cli("--fake", "unknown_model", "hi")
    assert done.returncode == 2
    assert done.stderr.count("Hint:") == 1
    assert done.stderr.count("leave --model out") == 1
