"""docs/sessions.md's example runs as written, as a script from the repository's root,
with the bundled fake agent as the CLI, and leaves nothing behind (until tests/docs runs
every block of docs/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import fake_agent

ROOT = Path(__file__).resolve().parents[2]


def test_the_sessions_example_runs_as_written(tmp_path: Path, temp_dir: Path) -> None:
    text = (ROOT / "docs" / "sessions.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    script = tmp_path / "block.py"
    script.write_text(block)
    env = {**os.environ, "CURSOR_AGENT_BIN": fake_agent.executable()}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("('notes.md',) ('cart.py',)\n")
    assert "-TOTAL = 0\n+TOTAL = 42\n" in done.stdout
    assert done.stdout.endswith("('cart.py',) ('notes.md',)\n")
    assert os.listdir(temp_dir) == []  # its repository, the run's and ours: all gone
