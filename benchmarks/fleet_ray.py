"""What running a fleet's tasks on Ray costs per task, next to the same fleet in-process.

    python benchmarks/fleet_ray.py               # 50 tasks, limit 8, 3 rounds
    python benchmarks/fleet_ray.py --tasks 200   # more

Both sides run the same tasks of the bundled fake agent (scenario ``hello``, a run of a
few milliseconds) with the same limit and no stagger, so what differs is the backend: a
Ray task per fleet task (submission, a worker's event loop, progress streamed back) on a
local Ray instance of ``--cpus`` CPUs, each task reserving ``--cpus / --limit`` of them.
Ray is started once, before the rounds, and its workers warmed up by a first round that
is not counted. Rounds take turns; the best of each side is kept.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Awaitable, Callable

from fleet import timed  # benchmarks/fleet.py: this folder is on sys.path when run

import fake_agent
from agent_sdk import AgentOptions
from agent_sdk.fleet import Backend, Fleet, LocalBackend, Progress, RayBackend


async def fleet(tasks: int, limit: int, backend: Backend, options: AgentOptions) -> None:
    events = 0

    def count(progress: Progress) -> None:
        nonlocal events
        events += 1

    async with Fleet(
        ["hi"] * tasks, options=options, limit=limit, stagger=0, backend=backend, on_progress=count
    ) as running:
        summary = await running.wait()
    assert summary.succeeded == tasks, summary.failures
    assert events > tasks * 3  # progress came back, not only outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--limit", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    ray_start = time.perf_counter() - started
    options = AgentOptions(binary=fake_agent.executable(), env={"FAKE_AGENT_SCENARIO": "hello"})
    on_ray = RayBackend(num_cpus=args.cpus / args.limit)
    sides: dict[str, Callable[[], Awaitable[None]]] = {
        "Fleet, LocalBackend": lambda: fleet(args.tasks, args.limit, LocalBackend(), options),
        "Fleet, RayBackend": lambda: fleet(args.tasks, args.limit, on_ray, options),
    }
    try:
        timed(sides["Fleet, RayBackend"])  # warm-up: Ray starts its worker processes
        best = {name: float("inf") for name in sides}
        for _ in range(args.rounds):
            for name, job in sides.items():
                best[name] = min(best[name], timed(job))
    finally:
        ray.shutdown()
    base = best["Fleet, LocalBackend"]
    print(
        f"{args.tasks} tasks of the fake, limit {args.limit}, best of {args.rounds} "
        f"(ray.init: {ray_start:.1f} s, {args.cpus} CPUs):"
    )
    for name, seconds in best.items():
        extra = (seconds - base) / args.tasks * 1000
        print(f"  {name:22} {seconds:6.2f} s   {extra:+7.1f} ms per task")


if __name__ == "__main__":
    main()
