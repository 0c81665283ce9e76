"""Which scenario the fake cursor-agent plays (fake_agent/scenarios/README.md): the
default, a ``scenario:`` token in the prompt, ``FAKE_AGENT_SCENARIO`` (a name or a file's
path); and a scenario file's directives: an unknown name or directive, or an ``exit`` not
last, refused with exit code 2, ``leak_credentials`` printing the variables it names.
"""

from __future__ import annotations

import json
from pathlib import Path

from fake_play import _env, run

# --------------------------------------------------------------------------- scenario choice


def test_default_scenario_is_demo() -> None:
    proc = run("-p", "--trust", "--output-format=text", "--", "anything")
    assert proc.stdout.endswith(b"Both tests pass.\n")


def test_scenario_from_prompt_token() -> None:
    proc = run("-p", "--trust", "--output-format=json", "--", "please scenario:is_error now")
    assert json.loads(proc.stdout)["is_error"] is True


def test_scenario_from_prompt_token_on_stdin() -> None:
    proc = run("-p", "--trust", "--output-format=json", stdin=b"go\nscenario:is_error\n")
    assert json.loads(proc.stdout)["is_error"] is True


def test_scenario_env_wins_over_prompt_token() -> None:
    proc = run(
        "-p",
        "--trust",
        "--output-format=json",
        "--",
        "scenario:is_error",
        env=_env(FAKE_AGENT_SCENARIO="hello"),
    )
    assert json.loads(proc.stdout)["is_error"] is False


def test_scenario_from_env_path(tmp_path: Path) -> None:
    custom = tmp_path / "mine.ndjson"
    custom.write_text(
        '{"type":"result","subtype":"success","is_error":false,"result":"custom!",'
        '"session_id":"s"}\n{"fake":"stderr","text":"bye"}\n{"fake":"exit","code":3}\n',
        encoding="utf-8",
    )
    proc = run(
        "-p",
        "--trust",
        "--output-format=json",
        "--",
        "x",
        env=_env(FAKE_AGENT_SCENARIO=str(custom)),
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, b"", b"bye\n")


def test_unknown_scenario_exits_2_listing_known_ones() -> None:
    proc = run("-p", "--trust", "--", "x", env=_env(FAKE_AGENT_SCENARIO="nope"))
    assert proc.returncode == 2
    assert proc.stderr.startswith(
        b"fake_agent: no scenario named 'nope' (known: background_command, banner, cart"
    )
    assert proc.stdout == b""


def test_invalid_scenario_file_exits_2_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"type":"system"}\n{"fake":"explode"}\n', encoding="utf-8")
    proc = run("-p", "--trust", "--", "x", env=_env(FAKE_AGENT_SCENARIO=str(bad)))
    assert proc.returncode == 2
    assert b"bad.ndjson:2: unknown directive 'explode'" in proc.stderr


def test_exit_directive_must_be_last(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"fake":"exit","code":0}\n{"type":"system"}\n', encoding="utf-8")
    proc = run("-p", "--trust", "--", "x", env=_env(FAKE_AGENT_SCENARIO=str(bad)))
    assert (proc.returncode, proc.stdout) == (2, b"")


def test_leak_credentials_prints_the_variables_it_is_asked_for(tmp_path: Path) -> None:
    # A CLI logging what it passes on to an MCP server (its ${env:...}): the run's own
    # secrets, which agent_sdk must redact too (docs/extend.md).
    scenario = tmp_path / "leak.ndjson"
    step = {"fake": "leak_credentials", "variables": ["PLANTED_TOKEN", "UNSET_ONE"]}
    scenario.write_text(json.dumps(step) + "\n")
    env = _env(FAKE_AGENT_SCENARIO=str(scenario), PLANTED_TOKEN="tok-123")
    env.pop("UNSET_ONE", None)
    proc = run("-p", "--trust", "--output-format=stream-json", "--", "hi", env=env)
    assert b"PLANTED_TOKEN=tok-123; UNSET_ONE=\n" in proc.stderr


def test_leak_credentials_refuses_variables_that_are_not_names(tmp_path: Path) -> None:
    scenario = tmp_path / "leak.ndjson"
    scenario.write_text(json.dumps({"fake": "leak_credentials", "variables": [3]}) + "\n")
    proc = run("-p", "--trust", "--", "hi", env=_env(FAKE_AGENT_SCENARIO=str(scenario)))
    assert proc.returncode == 2
    assert b"'variables' must be a list of variable names" in proc.stderr
