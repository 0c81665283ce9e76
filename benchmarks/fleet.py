"""What a fleet costs per run, next to the loop a user would write on top of ``run()``.

    python benchmarks/fleet.py             # 200 runs, limit 50, 3 rounds (about a minute)
    python benchmarks/fleet.py --runs 40   # smaller

Both sides run the same runs of the bundled fake agent (scenario ``hello``) with the same
limit on live runs and no stagger: the hand-written side is a task group and a
``CapacityLimiter`` around ``run()``, which is what the fleet does plus its bookkeeping
(ids, progress, outcomes, the summary). A third side adds config isolation (a seeded
``CURSOR_CONFIG_DIR`` made and removed per task). Rounds take turns; the best of each is
kept. The figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

import fake_agent
from agent_sdk import AgentOptions, run
from agent_sdk.fleet import Fleet, Isolation


async def by_hand(runs: int, limit: int, options: AgentOptions) -> None:
    limiter = anyio.CapacityLimiter(limit)

    async def one() -> None:
        async with limiter, run("hi", options=options) as events:
            async for _ in events:
                pass

    async with anyio.create_task_group() as group:
        for _ in range(runs):
            group.start_soon(one)


async def fleet(runs: int, limit: int, options: AgentOptions, seed: Path | None) -> None:
    isolation: list[Isolation] = ["config"] if seed is not None else []
    tasks = ["hi"] * runs
    async with Fleet(
        tasks, options=options, limit=limit, stagger=0, isolation=isolation, config_seed=seed
    ) as running:
        summary = await running.wait()
    assert summary.succeeded == runs, summary.failures


def timed(job: Callable[[], Awaitable[None]]) -> float:
    started = time.perf_counter()
    anyio.run(job)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    options = AgentOptions(binary=fake_agent.executable(), env={"FAKE_AGENT_SCENARIO": "hello"})
    with tempfile.TemporaryDirectory() as seed_dir:
        seed = Path(seed_dir)
        (seed / "cli-config.json").write_text("{}")
        sides: dict[str, Callable[[], Awaitable[None]]] = {
            "run() in a task group": lambda: by_hand(args.runs, args.limit, options),
            "Fleet": lambda: fleet(args.runs, args.limit, options, None),
            "Fleet, config isolation": lambda: fleet(args.runs, args.limit, options, seed),
        }
        best = {name: float("inf") for name in sides}
        for _ in range(args.rounds):
            for name, job in sides.items():
                best[name] = min(best[name], timed(job))
    base = best["run() in a task group"]
    print(f"{args.runs} runs of the fake, limit {args.limit}, best of {args.rounds}:")
    for name, seconds in best.items():
        extra = (seconds - base) / args.runs * 1000
        print(f"  {name:26} {seconds:6.2f} s   {extra:+6.1f} ms per run")


if __name__ == "__main__":
    main()
