"""Every ```python block of the docs/ pages listed here runs as a script, verbatim, from the
repository root, with ``CURSOR_AGENT_BIN`` pointing agent_sdk at the bundled fake agent,
and leaves no file behind there; a block that defines pytest tests also passes under
pytest. (README.md's blocks: test_readme.py, whose extraction this reuses.)

Only docs/testing.md for now: the other pages join once their blocks are written to run
this way.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from test_readme import FENCE, PYTHON, fenced_blocks

import fake_agent

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["docs/testing.md"]
HANG_GUARD = 120  # seconds: only so that a broken block fails instead of hanging

# Text a block's output must hold, by id: a block that checks nothing would pass unnoticed.
BLOCK_OUTPUT: dict[str, list[str]] = {
    "docs/testing.md:1": ["played: Hi"],
    "docs/testing.md:2": ["$ touch deployed rejected (by the hook)"],
}


class Block(NamedTuple):
    page: str
    number: int  # 1-based, among the page's python blocks
    line: int  # 1-based line of the opening fence
    code: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.number}"


def python_blocks(page: str) -> list[Block]:
    blocks = fenced_blocks((ROOT / page).read_text(encoding="utf-8"))
    python = [(line, code) for lang, _, line, code in blocks if lang in PYTHON]
    return [Block(page, n, line, code) for n, (line, code) in enumerate(python, 1)]


BLOCKS = [block for page in PAGES for block in python_blocks(page)]
TEST_BLOCKS = [block for block in BLOCKS if re.search(r"^def test_", block.code, re.MULTILINE)]


def run(block: Block, script: Path, cwd: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CURSOR_AGENT_BIN": fake_agent.executable()}
    for name in ("CURSOR_API_KEY", "CURSOR_AUTH_TOKEN", "PYTHONPATH"):
        env.pop(name, None)  # as a reader's script runs, on the defaults
    for name in [name for name in env if name.startswith("FAKE_AGENT_")]:
        env.pop(name)
    return subprocess.run(
        [sys.executable, *flags, str(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def failure(block: Block, proc: subprocess.CompletedProcess[str]) -> str:
    return (
        f"{block.page}:{block.line} (block {block.number}) exited with {proc.returncode}\n"
        f"--- code\n{block.code}--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}"
    )


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_a_docs_python_block_runs_from_the_root_and_leaves_nothing(
    block: Block, tmp_path: Path
) -> None:
    script = tmp_path / "docs_block.py"
    script.write_text(block.code, encoding="utf-8")
    before = sorted(os.listdir(ROOT))
    proc = run(block, script, ROOT)
    assert proc.returncode == 0, failure(block, proc)
    for expected in BLOCK_OUTPUT.get(block.id, []):
        assert expected in proc.stdout, failure(block, proc)
    assert sorted(os.listdir(ROOT)) == before, f"{block.id} left a file in the repository root"


@pytest.mark.parametrize("block", TEST_BLOCKS, ids=[block.id for block in TEST_BLOCKS])
def test_a_docs_pytest_block_passes_under_pytest(block: Block, tmp_path: Path) -> None:
    script = tmp_path / "test_docs_block.py"
    script.write_text(block.code, encoding="utf-8")
    proc = run(block, script, tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert proc.returncode == 0, failure(block, proc)
    assert re.search(r"\b[1-9]\d* passed\b", proc.stdout), failure(block, proc)


def test_every_python_block_of_the_pages_is_extracted() -> None:
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        openings = [
            line
            for line in text.splitlines()
            if (m := FENCE.match(line)) and m.group("lang").lower() in PYTHON
        ]
        assert len(openings) == len(python_blocks(page)) > 0, page
    assert set(BLOCK_OUTPUT) <= {block.id for block in BLOCKS}
    assert TEST_BLOCKS, "the recipe of docs/testing.md is a pytest test"
