"""In-process tests of the fake's building blocks (no subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fake_agent
from fake_agent._faults import STDIN_DELAY_ENV, stdin_delay
from fake_agent._flags import FlagError, parse_args
from fake_agent._huge import huge_content
from fake_agent._partial import split_deltas
from fake_agent._scenario import ScenarioError, load_scenario, pick_scenario
from fake_agent._wire import encode_line


def test_package_exports() -> None:
    assert set(fake_agent.__all__) >= {
        "SCENARIOS_DIR",
        "scenario_names",
        "scenario_path",
        "FAKE_MODELS",
    }
    assert fake_agent.scenario_path("hello") == fake_agent.SCENARIOS_DIR / "hello.ndjson"
    assert fake_agent.FAKE_MODELS["auto"] == "Auto"


def test_executable_is_the_script_beside_the_interpreter() -> None:
    path = Path(fake_agent.executable())
    assert path.is_absolute()
    assert path.name == "fake-cursor-agent"


def test_executable_missing_names_this_python_and_the_command_that_cannot_go_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `python -c 'import fake_agent; ...'` run by a Python other than the venv's, in the
    # checkout (so the import works): "pip install ." was the wrong advice (issue 35).
    other = tmp_path / "bin" / "python3"
    monkeypatch.setattr("sys.executable", str(other))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(FileNotFoundError) as caught:
        fake_agent.executable()
    said = str(caught.value)
    assert str(other) in said
    assert ".venv/bin/agent-sdk --fake-path" in said


def test_scenario_path_refuses_unknown_and_path_like_names() -> None:
    for name in ("nope", "../pyproject", "hello/../hello"):
        with pytest.raises(ScenarioError):
            fake_agent.scenario_path(name)


@pytest.mark.parametrize("name", fake_agent.scenario_names())
def test_every_bundled_scenario_loads(name: str) -> None:
    assert load_scenario(fake_agent.scenario_path(name)).steps


def test_encode_line_is_compact_utf8_keeping_key_order() -> None:
    assert encode_line({"b": 1, "a": "é 🎉"}) == '{"b":1,"a":"é 🎉"}\n'.encode()


def test_encode_line_escapes_lone_surrogates_only() -> None:
    line = encode_line(json.loads('{"t":"é \\ud83d","u":"\\ud83d\\ude00"}'))
    assert line == '{"t":"é \\ud83d","u":"😀"}\n'.encode()
    assert json.loads(line) == {"t": "é \ud83d", "u": "😀"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a",
        "Hello world, how are you?",
        "  lead\n\nand trail  ",
        "x" * 50,
        "emoji 🎉🎉 and é at seams",
        "tab\tsep\rcr",
    ],
)
def test_split_deltas_concatenates_back(text: str) -> None:
    pieces = split_deltas(text)
    assert "".join(pieces) == text
    assert all(pieces)
    assert all(len(p) <= 30 for p in pieces)


@pytest.mark.parametrize("size", [0, 1, 10, 37, 1000, 65_537])
def test_huge_content_has_exact_utf8_size(size: int) -> None:
    assert len(huge_content(size).encode("utf-8")) == size


def test_huge_content_ends_with_multibyte_characters() -> None:
    assert huge_content(10_000).rstrip("\n").endswith("🎉🚀")


def test_parse_args_prompt_and_options() -> None:
    options = parse_args(["-p", "--model=gpt-5", "-H", "A: 1", "-HB: 2", "fix", "it"])
    assert (options.print_mode, options.model, options.headers, options.prompt_words) == (
        True,
        "gpt-5",
        ["A: 1", "B: 2"],
        ["fix", "it"],
    )


def test_parse_args_required_value_may_start_with_dash() -> None:
    assert parse_args(["--model", "-x"]).model == "-x"


def test_parse_args_subcommand_takes_the_rest() -> None:
    options = parse_args(["--api-key=k", "status", "--format", "json"])
    assert (options.command, options.command_args, options.api_key) == (
        "status",
        ["--format", "json"],
        "k",
    )


def test_parse_args_version_wins_over_later_unknown_option() -> None:
    assert parse_args(["--version", "--bogus"]).version


def test_parse_args_unknown_option_is_reported_after_scanning() -> None:
    with pytest.raises(FlagError, match="unknown option '--bogus'"):
        parse_args(["--bogus", "--model=gpt-5"])


def test_pick_scenario_order() -> None:
    assert pick_scenario("x", {}).stem == "demo"
    assert pick_scenario("do scenario:tools now", {}).stem == "tools"
    assert pick_scenario("notscenario:tools", {}).stem == "demo"
    assert pick_scenario("scenario:tools", {"FAKE_AGENT_SCENARIO": "cart"}).stem == "cart"


def test_pick_scenario_env_path(tmp_path: Path) -> None:
    mine = tmp_path / "mine.ndjson"
    mine.write_text('{"type":"system"}\n', encoding="utf-8")
    assert pick_scenario("", {"FAKE_AGENT_SCENARIO": str(mine)}) == mine
    with pytest.raises(ScenarioError):
        pick_scenario("", {"FAKE_AGENT_SCENARIO": str(tmp_path / "missing.ndjson")})


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("[1]", "not a JSON object"),
        ('{"no_type":1}', "needs a string 'type'"),
        ('{"fake":"sleep"}', "needs 'seconds'"),
        ('{"fake":"exit","code":true}', "needs 'code'"),
        ("{oops", "invalid JSON"),
    ],
)
def test_load_scenario_rejects_bad_lines(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "s.ndjson"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=problem):
        load_scenario(path)


def test_load_scenario_keeps_line_separator_characters_inside_strings(tmp_path: Path) -> None:
    path = tmp_path / "s.ndjson"
    path.write_text('{"type":"x","t":"a\u2028b\u0085c"}\n', encoding="utf-8")
    assert load_scenario(path).steps == [{"type": "x", "t": "a\u2028b\u0085c"}]


@pytest.mark.parametrize(
    ("environ", "seconds"),
    [
        ({}, 0.0),
        ({STDIN_DELAY_ENV: ""}, 0.0),
        ({STDIN_DELAY_ENV: "0"}, 0.0),
        ({STDIN_DELAY_ENV: "0.25"}, 0.25),
        ({STDIN_DELAY_ENV: "3600"}, 3600.0),
    ],
)
def test_stdin_delay_reads_seconds_from_the_environment(
    environ: dict[str, str], seconds: float
) -> None:
    assert stdin_delay(environ) == seconds


@pytest.mark.parametrize("value", ["soon", "-0.5", "nan", "-inf", "1e400"])
def test_stdin_delay_refuses_what_is_not_seconds(value: str) -> None:
    with pytest.raises(ValueError, match=f"{STDIN_DELAY_ENV} must be a number of seconds >= 0"):
        stdin_delay({STDIN_DELAY_ENV: value})
