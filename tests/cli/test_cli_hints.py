"""Errors in the command line's terms: agent_sdk.cli.hints.in_flag_terms."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import agent_sdk
from agent_sdk._wire.classify import MODELS_WHOLE, classify
from agent_sdk.cli.args import AGENT_FLAGS
from agent_sdk.cli.hints import error_in_flag_terms, in_flag_terms
from agent_sdk.errors import AgentConfigError, AgentProcessError

SOURCES = Path(agent_sdk.__file__).parent


def _literals(tree: ast.AST) -> Iterator[str]:
    """The string literals of a module but its docstrings; an f-string's placeholders
    are ``{X}``."""
    docs: set[int] = set()
    parts: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docs.add(id(node.value))  # a docstring, of a module, class, function or field
        if isinstance(node, ast.JoinedStr):
            parts.update(id(value) for value in node.values)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield "".join(
                value.value if isinstance(value, ast.Constant) else "{X}" for value in node.values
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs | parts
        ):
            yield node.value


# Texts that speak of AgentOptions and that the command line never shows: the name
# itself, the options repr, the errors of a Python caller passing something else than
# AgentOptions, a message whose option is a placeholder (test_cli_usage_errors.py runs
# it), and the hint of structured output, which the command line does not offer.
NEVER_SHOWN = {
    "AgentOptions",
    "AgentOptions({X})",
    "options must be AgentOptions(...), got {X}",
    "pass e.g. options=AgentOptions(model='gpt-5'), or leave it out",
    "do not pass {X} in extra_args: it would be visible in the process list; use "
    "AgentOptions({X}=...), which sends it in the environment",
    # Structured output: the command line has no output_type.
    "see .problem, .reply and .json; allow more corrections with "
    "AgentOptions(output_attempts=...), or describe the output in the prompt",
}


# Options the command line does not offer at all: custom tools and hooks (Python
# functions). Their messages stay in Python terms.
PYTHON_ONLY = ("AgentOptions(tools=", "AgentOptions(hooks=")


def _python_texts() -> Iterator[tuple[str, str]]:
    """Every message or hint in agent_sdk's sources that names AgentOptions."""
    for path in sorted(SOURCES.rglob("*.py")):
        if {"cli", "testing"} & set(path.relative_to(SOURCES).parts):
            continue
        for text in _literals(ast.parse(path.read_text(encoding="utf-8"))):
            python_only = any(option in text for option in PYTHON_ONLY)
            if "AgentOptions" in text and text not in NEVER_SHOWN and not python_only:
                yield path.name, text


def test_every_hint_in_the_sources_names_flags_on_the_command_line() -> None:
    texts = list(_python_texts())
    assert len(texts) >= 15  # the hints of classify, discovery, spawn, outcome, ...
    for where, text in texts:
        said = in_flag_terms(text, session_id="S1")
        assert "AgentOptions" not in said, (where, text, said)
        assert "=...)" not in said, (where, said)
        assert "fake_agent" not in said, (where, said)


def test_the_python_wording_is_left_to_python_callers() -> None:
    _, hint = classify("Cannot use this model: nope. Available models: auto, gpt-5")
    assert hint is not None
    assert "AgentOptions(model=...)" in hint
    assert in_flag_terms(hint) == (
        "pass one of the models the CLI listed (auto, gpt-5) as --model ID, or leave "
        "--model out for the CLI's default"
    )


@pytest.mark.parametrize("name", sorted(AGENT_FLAGS))
def test_every_option_is_spelt_as_its_flag(name: str) -> None:
    flag = AGENT_FLAGS[name].spelling[-1]
    assert in_flag_terms(f"see AgentOptions.{name}.") == f"see {flag}."
    said = in_flag_terms(f"fix AgentOptions({name}=...) now")
    assert said.startswith(f"fix {flag}")
    assert said.endswith(" now")
    assert "AgentOptions" not in said


@pytest.mark.parametrize(
    ("python", "flags"),
    [
        ("resume with AgentOptions(resume=session_id)", "resume with --resume abc"),
        ("pass resume=<session_id> or continue_session=True", "pass --resume abc or --continue"),
        ("pass force=True", "pass --force"),
        ("AgentOptions(trust=False) here", "--no-trust here"),
        ("pass timeout=None for no limit", "leave --timeout out for no limit"),
        ("AgentOptions(model='gpt-5')", "--model gpt-5"),
        ("AgentOptions(timeout=0.0): timeout must be > 0", "--timeout 0.0: must be > 0"),
        ("shorten extra_args, add_dirs or headers", "shorten --extra-arg, --add-dir or --header"),
        ("pass AgentOptions(api_key=...)", "pass CURSOR_API_KEY in the environment"),
        ("and 240 more; see .available_models", "and 240 more; see `cursor-agent models`"),
    ],
)
def test_python_forms_become_flags(python: str, flags: str) -> None:
    assert in_flag_terms(python, session_id="abc") == flags


def test_without_a_session_the_resume_hint_names_a_placeholder() -> None:
    assert in_flag_terms("with AgentOptions(resume=session_id)") == "with --resume ID"


def test_text_that_names_no_option_is_left_alone() -> None:
    text = "cursor-agent exited with code 1: TypeError: x=1 in my_module (CURSOR_CONFIG_DIR)"
    assert in_flag_terms(text) == text


def test_a_long_model_list_points_at_cursor_agent_models() -> None:
    models = ", ".join(f"m{i}" for i in range(MODELS_WHOLE + 5))
    _, hint = classify(f"Cannot use this model: nope. Available models: {models}")
    assert hint is not None
    assert "`cursor-agent models`" in in_flag_terms(hint)


def test_what_an_error_quotes_of_the_cli_stays_as_printed() -> None:
    error = AgentProcessError(
        "cursor-agent exited with code 1: bad timeout=5 in extra_args",
        hint="check extra_args and AgentOptions(timeout=...)",
    )
    assert error_in_flag_terms(error) == (
        "cursor-agent exited with code 1: bad timeout=5 in extra_args\n"
        "Hint: check --extra-arg and --timeout S"
    )


def test_an_error_agent_sdk_found_itself_is_translated_whole() -> None:
    error = AgentConfigError("pass either resume=<session_id> or continue_session=True")
    assert error_in_flag_terms(error, "abc") == "pass either --resume abc or --continue"
