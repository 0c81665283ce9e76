"""docs/options.md is the reference of every AgentOptions option, made from the class by
``python -m agent_sdk._options.reference``: it must be what the generator makes now (a field
added without running it fails here), and every field must be documented."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from agent_sdk import AgentOptions
from agent_sdk._options.reference import COMMAND, field_docs, render

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "options.md"


def test_docs_options_md_is_what_the_generator_makes_now() -> None:
    assert PAGE.exists(), f"docs/options.md is missing: run `{COMMAND}` from the repository root"
    assert PAGE.read_text(encoding="utf-8") == render(), (
        f"docs/options.md is out of date (AgentOptions or its docstring changed): run "
        f"`{COMMAND}` from the repository root and commit the page"
    )


def test_every_option_has_a_row_with_its_type_default_and_text() -> None:
    text = PAGE.read_text(encoding="utf-8")
    docs = field_docs(AgentOptions)
    assert list(docs) == list(AgentOptions.__struct_fields__)
    for name in ("worktree", "worktree_name", "worktree_base", "skip_worktree_setup"):
        assert f"| `{name}` |" in text
    assert "| `output_attempts` | `int` | `2` | with `output_type=`, how many replies" in text
    assert '| `mode` | `"plan" \\| "ask" \\| None` | `None` |' in text
    assert "| `hooks` | `Hooks \\| None` | `None` |" in text
    # The docstring's roles and literals, as markdown.
    assert ":class:" not in text
    assert "``" not in text


class _Undocumented(msgspec.Struct, kw_only=True):
    """Options.

    Args:
        shown: documented.
            On two lines.
    """

    shown: int = 0
    hidden: str = ""


def test_a_field_without_an_entry_fails_and_says_which() -> None:
    with pytest.raises(ValueError, match=r"no entry in the Args: section .* for hidden"):
        render(_Undocumented)


def test_an_entry_of_no_field_fails_and_says_which() -> None:
    class Stale(msgspec.Struct):
        """Options.

        Args:
            gone: was an option.
        """

    with pytest.raises(ValueError, match="documents gone, which is no field"):
        field_docs(Stale)


def test_an_entry_on_several_lines_is_one_text() -> None:
    class Two(msgspec.Struct):
        """Options.

        Args:
            shown: documented,
                on two lines (``code``, :class:`~agent_sdk.Budget`).

        Raises:
            ValueError: never.
        """

        shown: int = 0

    assert field_docs(Two) == {"shown": "documented, on two lines (`code`, `Budget`)."}


def test_the_check_mode_says_the_command_to_run(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "options.md").write_text("stale\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "agent_sdk._options.reference", "--check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert f"docs/options.md is out of date: run `{COMMAND}`" in proc.stdout
