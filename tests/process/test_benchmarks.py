"""The benchmark harness runs (its quick mode): a smoke test, not a timing claim."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def quick(script: str, figures_file: Path) -> subprocess.CompletedProcess[str]:
    """``benchmarks/<script> --quick --json <figures_file>``; it must succeed."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--quick", "--json", str(figures_file)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done


def test_quick_benchmark_prints_every_figure(tmp_path: Path) -> None:
    figures_file = tmp_path / "figures.json"
    done = quick("run.py", figures_file)
    for row in (
        "throughput",
        "start-up",
        "tiny run_sync",
        "import agent_sdk",
        "cold: script",
        "peak RSS",
        "concurrent runs",
    ):
        assert row in done.stdout
    figures = json.loads(figures_file.read_text())
    assert figures["throughput"]["sdk"]["events"] == figures["throughput"]["events"]
    assert figures["memory"]["flat_large"]["events"] == figures["memory"]["events_large"]
    assert figures["startup"]["sync_total"] > 0
    assert figures["cold"]["sdk"] > 0
    assert figures["cold"]["plain"] > 0


def test_quick_live_turns_benchmark_prints_every_figure(tmp_path: Path) -> None:
    figures_file = tmp_path / "live_turns.json"
    done = quick("live_turns.py", figures_file)
    for row in ("print-mode Session, per turn", "live agent, per turn", "saved per turn"):
        assert row in done.stdout
    figures = json.loads(figures_file.read_text())
    assert [len(run) for run in figures["print"]] == [figures["turns"]]
    assert [len(run) for run in figures["live"]] == [figures["turns"]]
    assert figures["summary"]["live_start_ms"] > 0


def test_quick_sync_and_cold_benchmark_prints_every_figure() -> None:
    # The old code is the repository itself here: the harness is checked, not a figure.
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sync_cold.py"), "--quick", "--base", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for row in ("new: run()", "old: run()", "run_sync / run()", "plain:", "/ plain"):
        assert row in done.stdout


def test_quick_extend_cost_benchmark_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "extend_cost.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = ("plain", "1 call", "10 calls", "giving tools", "each later call", "10 hooks")
    for row in (*rows, "giving hooks", "each later hook call"):
        assert row in done.stdout
