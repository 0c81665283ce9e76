"""benchmarks/checkpoints.py runs, at a small size: a smoke test, not a timing claim (the
figures are in docs/benchmarks.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_checkpoints_benchmark_prints_every_figure() -> None:
    script = str(ROOT / "benchmarks" / "checkpoints.py")
    done = subprocess.run(
        [sys.executable, script, "--files", "100", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    header, _, row = done.stdout.splitlines()[1:4]
    assert header == "| files | git status | checkpoint | running | finish | changes | rewind |"
    assert row.startswith("| 100 | ")
    assert all(cell.strip().isdigit() for cell in row.split("|")[2:8])
