"""``run_sync`` next to ``run()`` on a long stream, and the cold script, old code next to new.

    python benchmarks/sync_cold.py --base DIR          # DIR: a checkout of the old code
    python benchmarks/sync_cold.py --base DIR --quick  # small sizes: checks the harness

Every figure is the wall time of a fresh interpreter's work; the contenders take turns,
round after round, so that a noisy stretch of the machine hits them all alike, and each
is reported as min / median / max. The old code is a copy of ``DIR/agent_sdk`` put first
on ``PYTHONPATH`` (copied, so its bytecode caches get written as after ``pip install``).

- stream: ``run()`` with its defaults and ``run_sync()`` (keeps every event, as it must)
  over the same long realistic stream (``streams.py``), replayed by ``cat``; each worker
  warms up on a tiny stream first, as ``workers.py`` does, and has Python's default
  SIGINT handler, as a script started from a terminal has.
- cold: ``cold_sdk.py`` (import agent_sdk, one tiny ``run_sync`` of the fake agent) and
  ``cold_plain.py`` (the same job by hand), from start to exit.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import streams  # noqa: E402


def worker(api: str, stream: str, warmup: str) -> None:
    """Time one run of ``api`` (``run`` or ``run_sync``) over ``stream``; print seconds."""
    import signal

    import anyio

    # As in a script started from a terminal: a background job (nohup, `&`) inherits an
    # ignored SIGINT, and asyncio.run then installs no handler of its own; with one, it
    # formats its main task at the end (what issue 24 found in run_sync).
    signal.signal(signal.SIGINT, signal.default_int_handler)

    from agent_sdk import AgentOptions, run, run_sync

    def options(path: str) -> AgentOptions:
        return AgentOptions(binary=os.environ["BENCH_CHILD"], env={"BENCH_STREAM": path})

    async def streamed(path: str) -> int:
        count = 0
        async with run("bench", options=options(path)) as events:
            async for _ in events:
                count += 1
        return count

    async def by_hand(path: str, kept: list[object] | None) -> int:
        # The common wrapper (workers.py), keeping its dicts or not: what keeping costs
        # any wrapper in a fresh process.
        import asyncio
        import json

        proc = await asyncio.create_subprocess_exec(
            os.environ["BENCH_CHILD"],
            env={**os.environ, "BENCH_STREAM": path},
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 30,
        )
        assert proc.stdout is not None
        count = 0
        while line := await proc.stdout.readline():
            event = json.loads(line)
            if kept is not None:
                kept.append(event)
            count += 1
        await proc.wait()
        return count

    def once(path: str) -> object:
        if api == "run":
            return anyio.run(streamed, path)
        if api == "loads":
            return anyio.run(by_hand, path, None)
        if api == "loads_kept":
            kept: list[object] = []
            anyio.run(by_hand, path, kept)
            return kept
        return run_sync("bench", options=options(path))

    once(warmup)
    start = time.perf_counter()
    got = once(stream)  # the result is timed until it is returned, not until it is freed
    seconds = time.perf_counter() - start
    kept = len(got) if isinstance(got, list) else len(getattr(got, "events", ()))
    print(seconds, got if isinstance(got, int) else kept)


def _timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _worker_seconds(argv: list[str], env: dict[str, str]) -> float:
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def _spread(samples: list[float]) -> str:
    ms = [s * 1000 for s in (min(samples), statistics.median(samples), max(samples))]
    return " / ".join(f"{v:,.0f}" for v in ms) + " ms"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", required=True, help="a checkout of the old code")
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--events", type=int, default=150_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--cold-rounds", type=int, default=20)
    args = parser.parse_args()
    events, rounds, cold_rounds = (
        (5_000, 2, 3) if args.quick else (args.events, args.rounds, args.cold_rounds)
    )
    shm = Path("/dev/shm")
    work = Path(
        tempfile.mkdtemp(prefix="agent_sdk_bench_", dir=shm if os.access(shm, os.W_OK) else None)
    )
    try:
        return measure(Path(args.base), work, events, rounds, cold_rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(base: Path, work: Path, events: int, rounds: int, cold_rounds: int) -> int:
    import fake_agent

    old = work / "old"
    shutil.copytree(base / "agent_sdk", old / "agent_sdk")
    child = work / "child.sh"
    child.write_text('#!/bin/sh\nexec cat "$BENCH_STREAM"\n')
    child.chmod(0o755)
    stream, tiny = work / "long.ndjson", work / "tiny.ndjson"
    count = streams.write_stream(stream, events)
    streams.write_stream(tiny, 4, tools=False)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        BENCH_CHILD=str(child),
        BENCH_AGENT=fake_agent.executable(),
        FAKE_AGENT_SCENARIO="hello",
    )
    codes = {"new": str(HERE.parent), "old": str(old)}
    envs = {name: {**env, "PYTHONPATH": path} for name, path in codes.items()}

    # The stream: four contenders, taking turns.
    contenders = [(code, api) for code in codes for api in ("run", "run_sync")]
    me = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    seconds: dict[tuple[str, str], list[float]] = {c: [] for c in contenders}
    for _ in range(rounds):
        for code, api in contenders:
            argv = [*me, api, str(stream), str(tiny)]
            seconds[code, api].append(_worker_seconds(argv, envs[code]))
    # The common wrapper (new code's interpreter), keeping its dicts or not, taking turns.
    wrappers = {api: [] for api in ("loads", "loads_kept")}  # type: dict[str, list[float]]
    for _ in range(rounds):
        for api, samples in wrappers.items():
            argv = [*me, api, str(stream), str(tiny)]
            samples.append(_worker_seconds(argv, envs["new"]))
    print(f"{count:,} events, {rounds} rounds (min / median / max):")
    plain, kept = wrappers["loads"], wrappers["loads_kept"]
    ratios = sorted(k / p for k, p in zip(kept, plain, strict=True))
    print(
        f"  readline + json.loads: {_spread(plain)}; keeping the dicts {_spread(kept)}; "
        f"kept / not {ratios[0]:.2f} / {statistics.median(ratios):.2f} / {ratios[-1]:.2f}"
    )
    for code in codes:
        runs, syncs = seconds[code, "run"], seconds[code, "run_sync"]
        ratios = sorted(s / r for s, r in zip(syncs, runs, strict=True))
        print(
            f"  {code}: run() {_spread(runs)}; run_sync {_spread(syncs)}; run_sync / run() "
            f"{ratios[0]:.2f} / {statistics.median(ratios):.2f} / {ratios[-1]:.2f}"
        )

    # The cold script: the script by hand, then agent_sdk's, new and old, taking turns.
    scripts = {
        "plain": ([sys.executable, str(HERE / "cold_plain.py")], envs["new"]),
        "new": ([sys.executable, str(HERE / "cold_sdk.py")], envs["new"]),
        "old": ([sys.executable, str(HERE / "cold_sdk.py")], envs["old"]),
    }
    for argv, script_env in scripts.values():  # the bytecode caches, as after install
        subprocess.run(argv, env=script_env, stdout=subprocess.DEVNULL, check=True)
    cold: dict[str, list[float]] = {name: [] for name in scripts}
    for _ in range(cold_rounds):
        for name, (argv, script_env) in scripts.items():
            cold[name].append(_timed(argv, script_env))
    print(f"cold script, {cold_rounds} rounds (min / median / max):")
    for name in scripts:
        line = f"  {name}: {_spread(cold[name])}"
        if name != "plain":
            ratios = sorted(s / p for s, p in zip(cold[name], cold["plain"], strict=True))
            medians = statistics.median(cold[name]) / statistics.median(cold["plain"])
            line += (
                f"; / plain {ratios[0]:.2f} / {statistics.median(ratios):.2f} / {ratios[-1]:.2f}"
                f" (of the medians {medians:.2f})"
            )
        print(line)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(*sys.argv[2:5])
        sys.exit(0)
    sys.exit(main())
