"""``agent-sdk``'s usage errors (docs/cli.md): a bad flag or value, a working directory
that is none, an unknown fake scenario, a flag cursor-agent refused all exit 2 with the
problem in flag terms (never ``AgentOptions``), other failures 1; ``--help`` exits 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import cli

from agent_sdk.cli import main


def test_bad_flag_exits_2() -> None:
    done = cli("--no-such-flag", "hi")
    assert done.returncode == 2
    assert "unrecognized arguments: --no-such-flag" in done.stderr


def test_bad_flag_value_exits_2_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--mode", "agent", "hi"]) == 2
    assert main(["--timeout", "0", "hi"]) == 2
    assert main(["--env", "NOEQUALS", "hi"]) == 2
    assert main(["--resume", "x", "--continue", "hi"]) == 2
    err = capsys.readouterr().err
    assert "--env wants NAME=VALUE" in err
    # The option checks' words, in flag terms.
    assert "--timeout 0.0: must be a positive number of seconds, got 0.0" in err
    assert "Hint: leave --timeout out for no limit" in err
    assert "pass either --resume ID or --continue, not both" in err
    assert "AgentOptions" not in err
    assert "None" not in err


def test_help_exits_0_and_says_the_api_key_comes_from_the_environment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    assert "CURSOR_API_KEY" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("make_file", "said"), [(False, "does not exist"), (True, "is not a directory")]
)
def test_a_cwd_that_is_no_directory_is_a_usage_error_in_flag_terms(
    tmp_path: Path, make_file: bool, said: str
) -> None:
    where = tmp_path / "there"
    if make_file:
        where.write_text("")
    done = cli("--fake", "--cwd", str(where), "hi")
    assert done.returncode == 2
    assert f"agent-sdk: error: the working directory {str(where)!r} {said}" in done.stderr
    assert "--cwd DIR" in done.stderr
    assert "AgentOptions" not in done.stderr


def test_an_unknown_fake_scenario_followed_by_a_prompt_exits_2_and_runs_nothing() -> None:
    done = cli("--fake", "tool", "Add a test")
    assert done.returncode == 2
    assert "there is no scenario named 'tool'; did you mean 'tools'?" in done.stderr
    assert done.stdout == ""  # nothing ran


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["--workspace", "/nonexistent/ws"], 2),  # cursor-agent refused the flag
        (["--extra-arg=--bogus"], 2),
        (["not_logged_in"], 1),  # no flag's fault
        (["usage_limit"], 1),
    ],
)
def test_a_flag_cursor_agent_refused_exits_2_and_other_failures_1(
    args: list[str], status: int
) -> None:
    done = cli("--fake", *args, "--", "hi")
    assert done.returncode == status, done.stderr
    assert "AgentOptions" not in done.stderr


def test_a_start_that_failed_for_want_of_descriptors_is_no_usage_error() -> None:
    import errno

    from agent_sdk.cli.live import _exit_code
    from agent_sdk.errors import AgentStartError

    def start_error(cause: OSError) -> AgentStartError:
        try:
            raise AgentStartError("could not start") from cause
        except AgentStartError as error:
            return error

    assert _exit_code(start_error(OSError(errno.EMFILE, "too many open files"))) == 1
    assert _exit_code(start_error(FileNotFoundError(errno.ENOENT, "no such", "/x"))) == 2
