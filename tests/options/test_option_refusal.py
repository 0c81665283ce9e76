"""A refused AgentOptions value (agent_sdk/_options/checks.py): the error it raises, on
construction and on replace, and the names that are no option, answered with the one
meant; options are keyword only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from option_values import SECRET, refused

from agent_sdk import AgentConfigError, AgentError, AgentOptions


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
