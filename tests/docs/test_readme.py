"""Every ```python block of README.md runs, verbatim, against the bundled fake agent.

Each block is written to a file and run as a script (``python block.py``) in a fresh
directory, with ``CURSOR_AGENT_BIN`` pointing agent_sdk at the fake: the code a reader
copies is the code tested, with nothing added or taken away. A block that needs more (a
scenario) gets it through the environment (``BLOCK_ENV``), as the README shows it, never
by editing its code. A block that defines pytest tests (``def test_...``) is also run
under pytest, since as a script it only defines them. The README's shell commands (the
main job, the tests) are run by ``.ci/run``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

import fake_agent

README = Path(__file__).resolve().parents[2] / "README.md"
HANG_GUARD = 120  # seconds: only so that a broken block fails instead of hanging

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<lang>[^\s`]*)")
HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
PYTHON = {"python", "py", "python3"}


class Block(NamedTuple):
    heading: str  # the heading the block sits under
    number: int  # 1-based, among the python blocks under that heading
    line: int  # 1-based line of the opening fence in README.md
    code: str

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.heading.lower()).strip("-")
        return f"{slug}-{self.number}"


def fenced_blocks(text: str) -> list[tuple[str, str, int, str]]:
    """(language, heading, line, code) of every fenced block, in order."""
    blocks = []
    heading = "top"
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            if (match := HEADING.match(lines[i])) is not None:
                heading = match.group("title")
            i += 1
            continue
        fence, indent = opening.group("fence"), len(opening.group("indent"))
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        assert i < len(lines), f"README.md:{start + 1}: a fenced block is never closed"
        i += 1  # the closing fence
        lang = opening.group("lang").lower()
        blocks.append((lang, heading, start + 1, "\n".join(body) + "\n"))
    return blocks


def python_blocks() -> list[Block]:
    blocks: list[Block] = []
    per_heading: dict[str, int] = {}
    for lang, heading, line, code in fenced_blocks(README.read_text(encoding="utf-8")):
        if lang in PYTHON:
            per_heading[heading] = per_heading.get(heading, 0) + 1
            blocks.append(Block(heading, per_heading[heading], line, code))
    return blocks


BLOCKS = python_blocks()

# What a block needs beyond the defaults, by id: only ever environment variables. A
# scenario with tool calls, so that the blocks' tool-call branches run too.
BLOCK_ENV: dict[str, dict[str, str]] = {
    "many-runs-at-once-2": {"RAY_USAGE_STATS_ENABLED": "0"},  # no report home from CI
    "a-live-agent-acp-mode-1": {"FAKE_AGENT_ACP_SCENARIO": "permission"},  # asks for pytest
    "your-own-tools-1": {"FAKE_AGENT_SCENARIO": "custom_tools"},  # calls two tools
    "hooks-that-decide-1": {"FAKE_AGENT_SCENARIO": "issue_bot"},  # a shell call, a write
    "budgets-1": {"FAKE_AGENT_SCENARIO": "fix_tests"},  # runs pytest twice
}
# Text a block's output must hold, by id: a block that catches an error would pass
# unnoticed if the error never came.
BLOCK_OUTPUT: dict[str, list[str]] = {
    "quick-start-1": ["I'll read the cart module", "[readToolCall]", "session: "],
    "quick-start-2": ["I'll read the cart module and look", "Both tests pass.", "session: "],
    "quick-start-3": ["✓ $ pytest -q tests/test_cart.py 0"],
    "errors-1": ["Cannot use this model: nope", "'gpt-5'"],
    "budgets-1": ["tool_calls_by_kind shell: 2 of 1", "'$ pytest -q']"],
    "many-runs-at-once-1": ["task-1 ok", "3 of 3 succeeded"],
    "many-runs-at-once-2": ["2 of 2 succeeded on Ray"],
    "structured-output-1": ["approve\nexample:1 ["],  # the fake's example of the schema
    "traces-and-logs-1": ["execute_tool readToolCall read ", "invoke_agent cursor-agent"],
    "your-own-tools-1": [
        "lookup_issue {'number': 26} -> #26: custom tools for the agent (open)",
        "fail {'reason': 'the tracker is down'} -> RuntimeError: the tracker is down (error)",
    ],
    "hooks-that-decide-1": [
        "asked: tool lookup_issue\nasked: run: echo tests pass\nasked: write ",
        "mcpToolCall success \nshellToolCall rejected (by a hook)\nwriteToolCall success",
        '[["this repository\'s tests are slow"]]',
    ],
    # Both turns asked for `pytest -q` and the callback allowed it.
    "a-live-agent-acp-mode-1": [
        "Running the tests: all 12 pass.\nRunning the tests: all 12 pass. end_turn"
    ],
}


def block_env(block: Block) -> dict[str, str]:
    env = {**os.environ, "CURSOR_AGENT_BIN": fake_agent.executable()}
    for name in ("FAKE_AGENT_SCENARIO", "CURSOR_API_KEY", "CURSOR_AUTH_TOKEN", "PYTHONPATH"):
        env.pop(name, None)  # the block runs as a reader's script would, on the defaults
    env.update(BLOCK_ENV.get(block.id, {}))
    return env


def run_block(block: Block, tmp_path: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *command],
        cwd=tmp_path,
        env=block_env(block),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def failure(block: Block, proc: subprocess.CompletedProcess[str]) -> str:
    return (
        f"README.md:{block.line} ({block.heading!r}, block {block.number}) exited with "
        f"{proc.returncode}\n--- code\n{block.code}--- stdout\n{proc.stdout}"
        f"--- stderr\n{proc.stderr}"
    )


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_readme_python_block_runs_verbatim(block: Block, tmp_path: Path) -> None:
    script = tmp_path / "readme_block.py"
    script.write_text(block.code, encoding="utf-8")
    proc = run_block(block, tmp_path, str(script))
    assert proc.returncode == 0, failure(block, proc)
    for expected in BLOCK_OUTPUT.get(block.id, []):
        assert expected in proc.stdout, failure(block, proc)


TEST_BLOCKS = [block for block in BLOCKS if re.search(r"^def test_", block.code, re.MULTILINE)]


@pytest.mark.parametrize("block", TEST_BLOCKS, ids=[block.id for block in TEST_BLOCKS])
def test_readme_pytest_block_passes_under_pytest(block: Block, tmp_path: Path) -> None:
    script = tmp_path / "test_readme_block.py"
    script.write_text(block.code, encoding="utf-8")
    proc = run_block(block, tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider", script.name)
    assert proc.returncode == 0, failure(block, proc)
    assert re.search(r"\b[1-9]\d* passed\b", proc.stdout), failure(block, proc)


def test_readme_has_python_blocks_and_every_one_is_extracted() -> None:
    text = README.read_text(encoding="utf-8")
    assert BLOCKS, "no ```python block found in README.md"
    assert TEST_BLOCKS, "no block of README.md defines a pytest test"
    # Every opening fence that says python is a block above: none slips through.
    openings = [
        line
        for line in text.splitlines()
        if (m := FENCE.match(line)) and m.group("lang").lower() in PYTHON
    ]
    assert len(openings) == len(BLOCKS)
    assert all(block.code.strip() for block in BLOCKS)


@pytest.mark.parametrize(
    ("name", "value"),
    sorted({item for env in BLOCK_ENV.values() for item in env.items()}),
)
def test_what_a_block_needs_is_shown_in_the_readme(name: str, value: str) -> None:
    """A reader sees every variable a block runs with: nothing set out of sight."""
    assert f"{name}={value}" in README.read_text(encoding="utf-8")


def test_readme_block_ids_are_unique() -> None:
    ids = [block.id for block in BLOCKS]
    assert len(ids) == len(set(ids)), ids
    for table in (BLOCK_ENV, BLOCK_OUTPUT):
        assert set(table) <= set(ids), "a table names a block the README no longer has"


def test_extraction_reads_fences_and_headings() -> None:
    text = (
        "# Title\n\n```python\nprint(1)\n```\n\n## Part two\n\n```sh\necho hi\n```\n\n"
        "  ```python\n  if True:\n      print(2)\n  ```\n"
    )
    assert fenced_blocks(text) == [
        ("python", "Title", 3, "print(1)\n"),
        ("sh", "Part two", 9, "echo hi\n"),
        ("python", "Part two", 13, "if True:\n    print(2)\n"),
    ]
