"""The fake's command line: flags, refusals and subcommands, as the real CLI prints them."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from fake_env import ROOT, fake_env

from fake_agent import FAKE_MODELS


def run(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    """Spawn the fake with stdin at /dev/null and a clean environment."""
    return subprocess.run(
        [sys.executable, "-m", "fake_agent", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(**env),
        cwd=ROOT,
        timeout=30,
        check=False,
    )


def refused(proc: subprocess.CompletedProcess[bytes]) -> str:
    """The stderr of a run that must exit 1 with nothing on stdout."""
    assert (proc.returncode, proc.stdout) == (1, b"")
    return proc.stderr.decode("utf-8")


# --------------------------------------------------------------------------- refusals


def test_unknown_option_is_refused_commander_style() -> None:
    assert refused(run("-p", "--trust", "--zzzzzz", "x")) == "error: unknown option '--zzzzzz'\n"


def test_unknown_option_close_to_a_real_one_gets_a_suggestion() -> None:
    stderr = refused(run("-p", "--trust", "--forse", "x"))
    assert stderr == "error: unknown option '--forse'\n(Did you mean --force?)\n"


def test_boolean_flag_with_value_is_an_unknown_option() -> None:
    assert refused(run("-p", "--force=yes", "x")).startswith("error: unknown option '--force=yes'")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--mode", "agent"),
            "error: option '--mode <mode>' argument 'agent' is invalid. "
            "Allowed choices are plan, ask.\n",
        ),
        (
            ("--output-format=xml",),
            "error: option '--output-format <format>' argument 'xml' is invalid. "
            "Allowed choices are text, json, stream-json.\n",
        ),
        (
            ("--sandbox=maybe",),
            "error: option '--sandbox <mode>' argument 'maybe' is invalid. "
            "Allowed choices are enabled, disabled.\n",
        ),
    ],
)
def test_bad_choice_is_refused(args: tuple[str, ...], message: str) -> None:
    assert refused(run("-p", "--trust", *args, "--", "x")) == message


@pytest.mark.parametrize(
    ("flag", "spec"),
    [
        ("--model", "--model <model>"),
        ("-H", "-H, --header <header>"),
        ("--workspace", "--workspace <path>"),
    ],
)
def test_missing_value_is_refused(flag: str, spec: str) -> None:
    assert refused(run("-p", "--trust", flag)) == f"error: option '{spec}' argument missing\n"


def test_unknown_model_is_refused_listing_the_models() -> None:
    stderr = refused(run("-p", "--trust", "--model=foo", "--", "x"))
    assert stderr == f"Cannot use this model: foo. Available models: {', '.join(FAKE_MODELS)}\n"
    assert stderr.startswith("Cannot use this model: foo. Available models: auto, ")


def test_missing_workspace_is_refused() -> None:
    stderr = refused(run("-p", "--trust", "--workspace=/no/such/dir", "--", "x"))
    assert stderr == "Error: Workspace path does not exist: /no/such/dir\n"


@pytest.mark.parametrize("fmt", ["text", "json", "stream-json"])
def test_untrusted_workspace_prints_trust_message_on_stdout(fmt: str) -> None:
    proc = run("-p", f"--output-format={fmt}", "--", "x")
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 1
    assert out.startswith("⚠ Workspace Trust Required")
    assert "Pass --trust, --yolo, or -f if you trust this directory" in out
    assert "{" not in out


def test_output_format_requires_print() -> None:
    assert refused(run("--trust", "--output-format=json", "x")) == (
        "error: --output-format requires --print\n"
    )


def test_without_print_the_run_is_still_headless() -> None:
    proc = run("--trust", "--", "x")
    assert proc.returncode == 0
    assert proc.stdout.endswith(b"Both tests pass.\n")  # the default scenario, `demo`


def test_model_is_checked_before_trust() -> None:
    assert refused(run("-p", "--model=foo", "x")).startswith("Cannot use this model")


def test_min_version_too_new_exits_2() -> None:
    proc = run("-p", "--trust", "--min-version=2099.1.1", "x")
    assert (proc.returncode, proc.stdout) == (2, b"")


def test_min_version_met_runs() -> None:
    assert run("-p", "--trust", "--min-version=2025.08.01", "x").returncode == 0


# --------------------------------------------------------------------------- accepted flags


def test_every_flag_of_the_contract_is_accepted(tmp_path: Path) -> None:
    proc = run(
        "--print",
        "--output-format",
        "stream-json",
        "--stream-partial-output",
        "--model",
        "gpt-5",
        "--force",
        "--trust",
        "--mode",
        "plan",
        "--resume",
        "r1",
        "--workspace",
        str(tmp_path),
        "--api-key",
        "k",
        "-H",
        "X-A: 1",
        "--header",
        "X-B: 2",
        "--approve-mcps",
        "--sandbox",
        "disabled",
        "-e",
        "https://api.example.invalid",
        "--add-dir",
        str(tmp_path),
        "--add-dir=/tmp",
        "--min-version",
        "2026.01.01",
        "--",
        "hello",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.split(b"\n")[0])["model"] == "GPT-5"


def test_equals_form_works_for_every_value_flag(tmp_path: Path) -> None:
    proc = run(
        "--print",
        "--output-format=json",
        "--model=grok",
        "--yolo",
        "--mode=ask",
        "--resume=r2",
        f"--workspace={tmp_path}",
        "--api-key=k",
        "--header=X-A: 1",
        "--sandbox=enabled",
        "--endpoint=https://api.example.invalid",
        f"--add-dir={tmp_path}",
        "--min-version=2026.01.01",
        "--",
        "hi",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["session_id"] == "r2"


def test_the_worktree_flags_are_accepted_in_both_forms() -> None:
    for worktree in (("-w",), ("--worktree", "fix-cart"), ("--worktree=fix-cart",)):
        proc = run(
            "-p",
            "--trust",
            "--output-format=json",
            *worktree,
            "--worktree-base=main",
            "--skip-worktree-setup",
            "--",
            "hi",
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["type"] == "result"


def test_combined_short_flags() -> None:
    proc = run("-pf", "--output-format=json", "--", "x")
    assert json.loads(proc.stdout)["type"] == "result"


def test_bare_resume_starts_a_fresh_session() -> None:
    proc = run("-p", "--trust", "--output-format=json", "--resume", "--", "x")
    assert uuid.UUID(json.loads(proc.stdout)["session_id"]).version == 4


def test_resume_does_not_swallow_a_following_option() -> None:
    proc = run("-p", "--trust", "--resume", "--output-format=json", "x")
    assert json.loads(proc.stdout)["type"] == "result"


def test_continue_is_accepted() -> None:
    assert run("-p", "--trust", "--continue", "x").returncode == 0


# --------------------------------------------------------------------------- subcommands


MODELS_TEXT = (
    "Available models\n\n"
    + "".join(f"{model_id} - {name}\n" for model_id, name in FAKE_MODELS.items())
    + "\nTip: use --model <id> to switch models.\n"
)


@pytest.mark.parametrize("args", [("models",), ("--list-models",)])
def test_models_prints_the_text_list(args: tuple[str, ...]) -> None:
    proc = run(*args)
    assert (proc.returncode, proc.stdout.decode("utf-8")) == (0, MODELS_TEXT)


@pytest.mark.parametrize(
    ("model_id", "name"),
    [
        ("auto", "Auto"),
        ("gpt-5", "GPT-5"),
        ("sonnet-4", "Claude 4 Sonnet"),
        ("sonnet-4.5", "Claude 4.5 Sonnet"),
        ("opus-4.1", "Claude 4.1 Opus"),
        ("grok", "Grok"),
    ],
)
def test_required_model_is_listed_and_usable(model_id: str, name: str) -> None:
    assert f"{model_id} - {name}\n" in run("models").stdout.decode("utf-8")
    init = json.loads(
        run(
            "-p", "--trust", "--output-format=stream-json", f"--model={model_id}", "x"
        ).stdout.split(b"\n")[0]
    )
    assert init["model"] == name


def test_status_json() -> None:
    proc = run("status", "--format", "json")
    assert proc.stdout == (
        b'{"status":"authenticated","isAuthenticated":true,"hasAccessToken":true,'
        b'"hasRefreshToken":true,"userInfo":{"email":"dev@example.invalid"}}\n'
    )


def test_status_text() -> None:
    proc = run("status")
    assert proc.returncode == 0
    assert b"dev@example.invalid" in proc.stdout
    assert b"{" not in proc.stdout


def test_about_json() -> None:
    about = json.loads(run("--model=opus-4.1", "about", "--format=json").stdout)
    assert about["cliVersion"] == "2026.10.01-fake0001"
    assert about["model"] == "Claude 4.1 Opus"
    assert isinstance(about["osPlatform"], str)
    assert about["lastRequestId"] is None


def test_create_chat_prints_a_uuid() -> None:
    proc = run("create-chat")
    assert proc.returncode == 0
    assert uuid.UUID(proc.stdout.decode().strip()).version == 4


@pytest.mark.parametrize("flag", ["--version", "-v"])
def test_version(flag: str) -> None:
    assert run(flag).stdout == b"2026.10.01-fake0001\n"


def test_subcommand_with_bad_format_is_refused() -> None:
    assert refused(run("status", "--format", "yaml")).startswith("error: option '--format")


def test_interactive_subcommand_is_refused() -> None:
    assert refused(run("ls")).startswith("error: 'ls' needs an interactive terminal")


def test_help_lists_the_flags() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    assert b"--stream-partial-output" in proc.stdout


def test_console_script_entry_point_is_main() -> None:
    from fake_agent.__main__ import main

    assert main(["--frobnicate"]) == 1


# --- the hidden --show-thinking (docs/protocol.md §2) -----------------------------------
def json_result(*flags: str, scenario: str = "thinking") -> dict[str, object]:
    proc = run("-p", "--trust", *flags, "--", "think", FAKE_AGENT_SCENARIO=scenario)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    return result


def test_show_thinking_adds_thinking_blocks_to_a_json_result() -> None:
    result = json_result("--output-format", "json", "--show-thinking")
    assert result["thinking_blocks"] == [
        {
            "text": "**Planning the change**\n\nThe cart module sums price times quantity; "
            "a test should cover the empty cart and rounding."
        }
    ]


def test_a_json_result_has_no_thinking_blocks_without_show_thinking() -> None:
    assert "thinking_blocks" not in json_result("--output-format", "json")


def test_show_thinking_on_a_run_that_did_not_think_gives_no_blocks() -> None:
    result = json_result("--output-format", "json", "--show-thinking", scenario="hello")
    assert result["thinking_blocks"] == []


def test_show_thinking_leaves_a_stream_json_result_alone() -> None:
    proc = run(
        "-p",
        "--trust",
        "--output-format",
        "stream-json",
        "--show-thinking",
        "--",
        "think",
        FAKE_AGENT_SCENARIO="thinking",
    )
    played = [json.loads(line) for line in proc.stdout.splitlines()]
    results = [event for event in played if event["type"] == "result"]
    assert len(results) == 1
    assert "thinking_blocks" not in results[0]


def test_show_thinking_is_hidden_from_help() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    assert b"--show-thinking" not in proc.stdout
