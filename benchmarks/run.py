"""agent_sdk benchmarks: what the SDK costs on top of the agent, next to its baselines.

    python benchmarks/run.py            # the full run (two minutes), prints the table
    python benchmarks/run.py --quick    # small sizes: checks the harness, not the numbers

Every figure is measured in a fresh interpreter, by one of the workers in
``benchmarks/workers.py`` (so memory and import figures are its own), against a child
process that replays a pre-rendered stream as fast as the pipe allows (`cat` of a file),
so the agent's own time is out of the picture. The cold figure times two whole short
scripts instead (``cold_sdk.py``, ``cold_plain.py``) against the bundled fake agent.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import streams  # noqa: E402


def measure(name: str, *args: object, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(HERE / "workers.py"), name, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"worker {name} failed:\n{out.stderr}")
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures


def import_times(choices: list[str], runs: int, env: dict[str, str]) -> list[float]:
    """The median import time of each choice of modules, in fresh interpreters that
    import nothing else first. The choices take turns, as in :func:`best_of_each`."""
    samples: list[list[float]] = [[] for _ in choices]
    for modules in choices:  # writes the bytecode caches, as after `pip install`
        subprocess.run([sys.executable, "-c", f"import {modules}"], env=env, check=True)
    for _ in range(runs):
        for i, modules in enumerate(choices):
            code = f"import time; t = time.perf_counter(); import {modules}; "
            code += "print(time.perf_counter() - t)"
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            samples[i].append(float(out.stdout))
    return [statistics.median(times) for times in samples]


def cold_times(runs: int, env: dict[str, str]) -> dict[str, list[float]]:
    """The wall time of each whole short script (``cold_sdk.py``, ``cold_plain.py``): a
    fresh interpreter from start to exit, the two taking turns, bytecode caches written
    first. Both must print the run's result."""
    import fake_agent

    env = {**env, "BENCH_AGENT": fake_agent.executable(), "FAKE_AGENT_SCENARIO": "hello"}
    scripts = {"sdk": HERE / "cold_sdk.py", "plain": HERE / "cold_plain.py"}
    said = {
        name: subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, check=True
        ).stdout
        for name, script in scripts.items()
    }
    if said["sdk"] != said["plain"]:
        raise SystemExit(f"the cold scripts disagree: {said}")
    samples: dict[str, list[float]] = {name: [] for name in scripts}
    for _ in range(runs):
        for name, script in scripts.items():
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, str(script)], env=env, stdout=subprocess.DEVNULL, check=True
            )
            samples[name].append(time.perf_counter() - start)
    return samples


def best_of_each(
    runs: int, workers: list[tuple[object, ...]], env: dict[str, str]
) -> list[dict[str, Any]]:
    """The fastest of several runs of each worker. The workers take turns, round after
    round, so that a noisy stretch of the machine hits them all alike."""
    results: list[list[dict[str, Any]]] = [[] for _ in workers]
    for _ in range(runs):
        for i, (name, *args) in enumerate(workers):
            results[i].append(measure(str(name), *args, env=env))
    return [min(rs, key=lambda r: r["seconds"]) for rs in results]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, to check the harness")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    # The streams live in memory (tmpfs) where there is one: on a disk, the host may evict
    # them from the page cache between runs, and the child then waits on the disk.
    shm = Path("/dev/shm")
    work = Path(
        tempfile.mkdtemp(prefix="agent_sdk_bench_", dir=shm if os.access(shm, os.W_OK) else None)
    )
    try:
        return measure_all(args.quick, args.json, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure_all(quick: bool, json_file: str | None, work: Path) -> int:
    sizes: dict[str, Any] = {
        "throughput_events": 20_000 if quick else 300_000,
        "memory_events": (5_000, 20_000) if quick else (250_000, 1_000_000),
        "huge_line": 5_000_000 if quick else 100_000_000,
        "concurrent": 20 if quick else 200,
        "repeat": 2 if quick else 7,
        "startup_repeat": 5 if quick else 40,
        "cold_repeat": 3 if quick else 20,
    }
    child = work / "child.sh"
    child.write_text('#!/bin/sh\nexec cat "$BENCH_STREAM"\n')
    child.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["BENCH_CHILD"] = str(child)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent), env.get("PYTHONPATH", "")])

    def stream(name: str, events: int, **kw: Any) -> tuple[str, int, int]:
        path = work / f"{name}.ndjson"
        count = streams.write_stream(path, events, **kw)
        return str(path), count, path.stat().st_size

    rows: list[tuple[str, str, str, str]] = []
    figures: dict[str, Any] = {"quick": quick, "sizes": sizes}
    r = sizes["repeat"]
    tiny, _, _ = stream("tiny", 4, tools=False)
    env["BENCH_WARMUP"] = tiny

    # 1. Throughput
    path, count, size = stream("throughput", sizes["throughput_events"])
    sdk, sdk_kept, floor, raw, typed, untyped, loads = best_of_each(
        r,
        [
            ("sdk", path, "default"),
            ("sdk", path, "keep"),
            ("floor", path),
            ("raw", path),
            ("memory_decode", path, "1"),
            ("memory_decode", path, "0"),
            ("json_loads", path),
        ],
        env=env,
    )
    mb = size / 1e6

    def rate(fig: dict[str, Any]) -> float:
        return count / float(fig["seconds"])

    figures["throughput"] = {
        "events": count,
        "mb": mb,
        "sdk": sdk,
        "sdk_keep_events": sdk_kept,
        "floor": floor,
        "raw": raw,
        "msgspec_typed": typed,
        "msgspec_untyped": untyped,
        "json_loads": loads,
    }
    rows += [
        (
            "throughput: run() → typed events",
            f"{rate(sdk):,.0f} ev/s",
            f"{mb / sdk['seconds']:,.0f} MB/s",
            "the defaults (streamed: keeps no events)",
        ),
        (
            "  run(), keep_events=True",
            f"{rate(sdk_kept):,.0f} ev/s",
            f"{mb / sdk_kept['seconds']:,.0f} MB/s",
            f"keeps every event, as run_sync does: {rate(sdk_kept) / rate(loads):.1f}× json.loads",
        ),
        ("  limit: the pipe, no parsing", "", f"{mb / raw['seconds']:,.0f} MB/s", ""),
        (
            "  floor: simplest async iterator",
            f"{rate(floor):,.0f} ev/s",
            f"{mb / floor['seconds']:,.0f} MB/s",
            f"run() = {rate(sdk) / rate(floor):.0%}; floor = {rate(floor) / rate(typed):.0%} typed",
        ),
        (
            "  msgspec from memory, typed",
            f"{rate(typed):,.0f} ev/s",
            f"{mb / typed['seconds']:,.0f} MB/s",
            f"run() = {rate(sdk) / rate(typed):.0%}",
        ),
        (
            "  msgspec from memory, untyped",
            f"{rate(untyped):,.0f} ev/s",
            f"{mb / untyped['seconds']:,.0f} MB/s",
            f"run() = {rate(sdk) / rate(untyped):.0%} (target ≥ 60%)",
        ),
        (
            "  asyncio readline + json.loads",
            f"{rate(loads):,.0f} ev/s",
            f"{mb / loads['seconds']:,.0f} MB/s",
            f"run() = {rate(sdk) / rate(loads):.1f}× (target ≥ 5×)",
        ),
    ]

    # 2. Start-up: run() next to a bare open_process in one process, and run_sync from a
    # plain script (no event loop) in another, each the median of its repeats.
    st = measure("startup", tiny, sizes["startup_repeat"], env=env)
    st.update(measure("startup_sync", tiny, sizes["startup_repeat"], env=env))
    figures["startup"] = st
    gap = (st["sdk_first"] - st["bare_first"]) * 1000
    sync_gap = (st["sync_total"] - st["sdk_total"]) * 1000
    rows += [
        (
            "start-up: first event, run()",
            f"{st['sdk_first'] * 1000:.1f} ms",
            f"total {st['sdk_total'] * 1000:.1f} ms",
            f"+{gap:.1f} ms over bare (target ≤ 5 ms)",
        ),
        (
            "  bare anyio.open_process",
            f"{st['bare_first'] * 1000:.1f} ms",
            f"total {st['bare_total'] * 1000:.1f} ms",
            "",
        ),
        (
            "  tiny run_sync, no event loop",
            "",
            f"total {st['sync_total'] * 1000:.1f} ms",
            f"{sync_gap:+.1f} ms against run()'s total (target ≤ +1 ms)",
        ),
    ]

    # 3. Import time: median over fresh interpreters that import nothing else first,
    # with bytecode caches written (as after `pip install`).
    n = 5 if quick else 30
    imp_sdk, imp_base = import_times(["agent_sdk", "anyio, msgspec"], n, env)
    figures["import"] = {"agent_sdk": imp_sdk, "anyio_msgspec": imp_base}
    rows += [
        (
            "import agent_sdk",
            f"{imp_sdk * 1000:.1f} ms",
            "",
            f"{imp_sdk / imp_base:.2f}× (target ≤ 1.2×)",
        ),
        ("  import anyio, msgspec", f"{imp_base * 1000:.1f} ms", "", ""),
    ]

    # 4. Cold: a whole short script, from a fresh interpreter to its exit (median of
    # the repeats), next to the same job done by hand with subprocess.run + json.loads.
    cold = cold_times(sizes["cold_repeat"], env)
    cold_sdk, cold_plain = (statistics.median(cold[name]) for name in ("sdk", "plain"))
    figures["cold"] = {"sdk": cold_sdk, "plain": cold_plain, "samples": cold}
    rows += [
        (
            "cold: script with one run_sync",
            f"{cold_sdk * 1000:.0f} ms",
            f"+{(cold_sdk - cold_plain) * 1000:.0f} ms",
            f"{cold_sdk / cold_plain:.2f}× the script by hand",
        ),
        ("  subprocess.run + json.loads", f"{cold_plain * 1000:.0f} ms", "", ""),
    ]

    # 5. Memory
    small_n, large_n = sizes["memory_events"]
    small, small_count, _ = stream("mem_small", small_n, tools=False)
    large, large_count, large_size = stream("mem_large", large_n, tools=False)
    flat_small = measure("sdk", small, "default", env=env)
    flat_large = measure("sdk", large, "default", env=env)
    kept_large = measure("sdk", large, "keep", env=env)
    huge = work / "huge.ndjson"
    streams.write_huge_line(huge, sizes["huge_line"])
    huge_run = measure("sdk", str(huge), "default", env=env)
    line_mb = sizes["huge_line"] / 1e6
    figures["memory"] = {
        "events_small": small_count,
        "events_large": large_count,
        "flat_small": flat_small,
        "flat_large": flat_large,
        "kept_large": kept_large,
        "huge_line_mb": line_mb,
        "huge": huge_run,
    }
    rows += [
        (
            f"peak RSS, {small_count:,} events",
            f"{flat_small['rss_mb']:.0f} MB",
            "run() defaults",
            "",
        ),
        (
            f"peak RSS, {large_count:,} events",
            f"{flat_large['rss_mb']:.0f} MB",
            "run() defaults",
            f"{flat_large['rss_mb'] / flat_small['rss_mb']:.2f}× for "
            f"{large_count / small_count:.0f}× the stream (target: flat, 1.00×)",
        ),
        (
            "  same, keep_events=True",
            f"{kept_large['rss_mb']:.0f} MB",
            f"stream {large_size / 1e6:.0f} MB",
            "grows with the stream, as kept events must",
        ),
        (
            f"peak RSS, one {line_mb:,.0f} MB line",
            f"{huge_run['rss_mb']:.0f} MB",
            "",
            f"{huge_run['rss_mb'] / line_mb:.1f}× the line (target < 4×)",
        ),
    ]

    # 6. Concurrency
    conc_stream, conc_events, _ = stream("concurrent", 200)
    conc = measure("concurrent", conc_stream, sizes["concurrent"], env=env)
    figures["concurrency"] = conc
    rows.append(
        (
            f"{sizes['concurrent']} concurrent runs × {conc_events} events",
            f"{conc['seconds']:.2f} s",
            f"{conc['rss_per_run_kb']:.0f} KB/run",
            "",
        )
    )

    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    print(f"agent_sdk benchmarks{' (quick: sizes too small for the targets)' if quick else ''}")
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores"
    )
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    if json_file:
        Path(json_file).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
