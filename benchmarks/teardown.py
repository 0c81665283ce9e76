"""What the end of a run costs now that it ends what the CLI started outside its group
(docs/lifecycle.md, "Everything the CLI starts"; figures in docs/benchmarks.md, "A run's
end").

    python benchmarks/teardown.py [--strays N] [--crowd M] [--rounds K] [--quick]

Each figure is the median over ``--rounds`` of ``groups.end()`` on a stand-in CLI (a
``sleep`` leading its own group, as the real one does) that was started with a run's mark:

- ``quiet``: the CLI left nothing behind (the common end of a short run);
- ``strays``: it left ``N`` commands, each leading a session of its own, with its mark;
- each again with ``M`` other processes on the machine (``--crowd``: unmarked sleepers,
  the user's), read by the sweep of a long run (every pid) and skipped by a short one's
  (only the pids given out since the CLI's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agent_sdk._transport import groups, strays  # noqa: E402  (the checkout's own)
from agent_sdk._transport.sweep_memory import MEMORY  # noqa: E402

#: The stand-in CLI: its own session; starts ``N`` sleepers in sessions of their own.
CLI = """
import os, subprocess, sys, time
for _ in range(int(sys.argv[1])):
    subprocess.Popen(["sleep", "300"], start_new_session=True, stdout=-3, stderr=-3)
print("ready", flush=True)
time.sleep(300)
"""


def one_end(n_strays: int, long_run: bool) -> float:
    """Seconds ``groups.end()`` takes for one stand-in CLI that left ``n_strays``."""
    mark = groups.new_mark()
    env = {"PATH": "/usr/bin:/bin", strays.VARIABLE: mark}
    cli = subprocess.Popen(
        [sys.executable, "-c", CLI, str(n_strays)],
        env=env,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert cli.stdout is not None
    cli.stdout.readline()
    groups.track(cli.pid, mark)
    if long_run:  # as if it had started an hour ago: every pid is read
        pgid_mark, _ = groups._groups[cli.pid]
        groups._groups[cli.pid] = (pgid_mark, time.monotonic() - 3600)
    MEMORY.clear()  # a lone end: no earlier sweep's reads (runs ending together share them)
    began = time.perf_counter()
    groups.end(cli.pid)
    took = time.perf_counter() - began
    cli.wait()
    return took


def crowd(n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen(["sleep", "300"]) for _ in range(n)]


def figures(n_strays: int, n_crowd: int, rounds: int) -> dict[str, float]:
    out: dict[str, float] = {}
    others = crowd(n_crowd)
    try:
        time.sleep(0.5 if n_crowd else 0)
        for label, count in (("quiet", 0), ("strays", n_strays)):
            for mode, long_run in (("short run", False), ("long run", True)):
                times = [one_end(count, long_run) for _ in range(rounds)]
                out[f"{label}, {mode}, {n_crowd} others (ms)"] = statistics.median(times) * 1e3
    finally:
        for process in others:
            process.kill()
            process.wait()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strays", type=int, default=10)
    parser.add_argument("--crowd", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="one round, small: checks the harness")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.quick:
        args.strays, args.crowd, args.rounds = 2, 5, 1
    processes = sum(1 for p in Path("/proc").iterdir() if p.name.isdigit())
    print(f"processes on this machine: {processes}; CPUs: {os.cpu_count()}")
    results = figures(args.strays, 0, args.rounds)
    results |= figures(args.strays, args.crowd, args.rounds)
    for name, value in results.items():
        print(f"{name:45} {value:8.2f}")
    if args.json is not None:
        args.json.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
