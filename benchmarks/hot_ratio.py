"""``run()`` against the common asyncio ``readline()`` + ``json.loads`` wrapper, for this
checkout and others, in one run: the contenders take turns, round after round, on the
same realistic stream (``streams.py``), so a noisy stretch of the machine hits them all.

    python benchmarks/hot_ratio.py                      # this checkout
    python benchmarks/hot_ratio.py OLD_CHECKOUT [...]   # and others, interleaved

Prints, per checkout, how many times faster than the wrapper ``run()`` went in each round
(each round times the wrapper once): min, median and max; for this checkout also
``run().batches()``, the same run consumed a read at a time (a list of events per read).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import streams  # noqa: E402
from run import measure  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("checkouts", nargs="*", type=Path, help="other checkouts to compare")
    parser.add_argument("--events", type=int, default=150_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--chatty", action="store_true", help="the chatty stream instead")
    args = parser.parse_args()
    checkouts = [HERE.parent, *(c.resolve() for c in args.checkouts)]
    shm = Path("/dev/shm")
    work = Path(
        tempfile.mkdtemp(prefix="agent_sdk_ratio_", dir=shm if os.access(shm, os.W_OK) else None)
    )
    try:
        child = work / "child.sh"
        child.write_text('#!/bin/sh\nexec cat "$BENCH_STREAM"\n')
        child.chmod(0o755)
        stream, tiny = work / "stream.ndjson", work / "tiny.ndjson"
        count = streams.write_stream(stream, args.events, realistic=not args.chatty)
        streams.write_stream(tiny, 4, tools=False)
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base |= {"BENCH_CHILD": str(child), "BENCH_WARMUP": str(tiny)}
        envs = [{**base, "PYTHONPATH": str(checkout)} for checkout in checkouts]
        # Contenders: run() of each checkout, and this checkout's run().batches().
        contenders = [(env, "default", str(c)) for env, c in zip(envs, checkouts, strict=True)]
        contenders.append((envs[0], "batches", f"{checkouts[0]}  run().batches()"))
        ratios: list[list[float]] = [[] for _ in contenders]
        for _ in range(args.rounds):
            loads = measure("json_loads", stream, env=envs[0])["seconds"]
            for i, (env, mode, _) in enumerate(contenders):
                ratios[i].append(loads / measure("sdk", stream, mode, env=env)["seconds"])
        print(f"run() against readline + json.loads, {count:,} events, {args.rounds} rounds")
        for (_, _, name), rs in zip(contenders, ratios, strict=True):
            print(
                f"{min(rs):.2f}× / {statistics.median(rs):.2f}× / {max(rs):.2f}× "
                f"(min / median / max)  {name}"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
