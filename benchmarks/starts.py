"""What a start costs: a tiny run (spawn to result) and 200 starts at once, this tree
against another checkout of agent_sdk, in one run (docs/benchmarks.md, issue 24); and a
tiny ``run_sync`` from a plain script (no event loop), of each.

    python benchmarks/starts.py [OTHER_CHECKOUT] [--rounds N] [--quick]

The child is the benchmarks' stand-in for the CLI (``#!/bin/sh`` ``exec cat`` of a
three-event stream: init, a reply, the result), so the figures are the start and the
SDK, not an agent. Each round starts a fresh interpreter per contender, the contenders
taking turns; a round's tiny-run figure is the median of its in-process repeats, after
one warm-up run. ``bare`` is the floor: ``anyio.open_process`` of the same child, read
to its end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

STREAM = "\n".join(
    (
        '{"type":"system","subtype":"init","session_id":"s"}',
        '{"type":"assistant","message":{"role":"assistant","content":'
        '[{"type":"text","text":"hi"}]},"session_id":"s"}',
        '{"type":"result","subtype":"success","is_error":false,"result":"hi","session_id":"s"}',
        "",
    )
)


def worker(kind: str, repeat: int, crowd: int) -> dict[str, float]:
    """In a fresh interpreter: the median tiny run, then ``crowd`` runs at once (``sync``:
    ``run_sync`` from a plain script, no event loop, and no crowd)."""
    if kind == "sync":
        return sync_worker(repeat)
    import anyio

    child = os.environ["BENCH_CHILD"]

    async def sdk_once() -> None:
        from agent_sdk import AgentOptions, run

        options = AgentOptions(binary=child, env={"BENCH_STREAM": os.environ["BENCH_STREAM"]})
        async with run("bench", options=options) as events:
            async for _ in events:
                pass

    async def bare_once() -> None:
        async with await anyio.open_process([child]) as proc:
            assert proc.stdout is not None
            async for _ in proc.stdout:
                pass

    once = sdk_once if kind != "bare" else bare_once

    async def main() -> dict[str, float]:
        await once()  # warm-up: imports, the loop's subprocess support, the watchdog
        tiny = []
        for _ in range(repeat):
            start = time.perf_counter()
            await once()
            tiny.append(time.perf_counter() - start)
        start = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for _ in range(crowd):
                tg.start_soon(once)
        return {"tiny": statistics.median(tiny), "crowd": time.perf_counter() - start}

    return anyio.run(main)


def sync_worker(repeat: int) -> dict[str, float]:
    """The median tiny ``run_sync`` (the blocking transport: no event loop), after one
    warm-up run."""
    from agent_sdk import AgentOptions, run_sync

    options = AgentOptions(
        binary=os.environ["BENCH_CHILD"], env={"BENCH_STREAM": os.environ["BENCH_STREAM"]}
    )
    run_sync("bench", options=options)  # warm-up: imports, the watchdog
    tiny = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_sync("bench", options=options)
        tiny.append(time.perf_counter() - start)
    return {"tiny": statistics.median(tiny)}


def measure(kind: str, root: Path, env: dict[str, str], repeat: int, crowd: int) -> Any:
    env = {**env, "PYTHONPATH": str(root)}
    argv = [sys.executable, str(HERE / "starts.py"), "--worker", kind, str(repeat), str(crowd)]
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("other", nargs="?", help="another checkout to compare (its root)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--worker", nargs=3)
    args = parser.parse_args()
    if args.worker:
        kind, repeat, crowd = args.worker
        print(json.dumps(worker(kind, int(repeat), int(crowd))))
        return
    rounds, repeat, crowd = (2, 5, 20) if args.quick else (args.rounds, 40, 200)
    contenders = {
        "this tree": HERE.parent,
        "this tree, run_sync": HERE.parent,
        "bare open_process": HERE.parent,
    }
    if args.other:
        contenders["other checkout"] = Path(args.other).resolve()
        contenders["other, run_sync"] = Path(args.other).resolve()
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as d:
        child, stream = Path(d) / "child.sh", Path(d) / "tiny.ndjson"
        child.write_text('#!/bin/sh\nexec cat "$BENCH_STREAM"\n')
        child.chmod(0o755)
        stream.write_text(STREAM)
        env = {**os.environ, "BENCH_CHILD": str(child), "BENCH_STREAM": str(stream)}
        figures: dict[str, list[dict[str, float]]] = {name: [] for name in contenders}
        for _ in range(rounds):
            for name, root in contenders.items():
                kind = "bare" if name.startswith("bare") else "sdk"
                kind = "sync" if name.endswith("run_sync") else kind
                figures[name].append(measure(kind, root, env, repeat, crowd))
    print(f"{rounds} rounds; min / median / max")
    for name, samples in figures.items():
        tiny = sorted(s["tiny"] * 1000 for s in samples)
        line = (
            f"{name:>19}: tiny run {tiny[0]:.2f} / {statistics.median(tiny):.2f} / "
            f"{tiny[-1]:.2f} ms"
        )
        if "crowd" in samples[0]:
            many = sorted(s["crowd"] for s in samples)
            line += (
                f";  {crowd} at once {many[0]:.3f} / "
                f"{statistics.median(many):.3f} / {many[-1]:.3f} s"
            )
        print(line)


if __name__ == "__main__":
    main()
