"""A crowd of runs with too few file descriptors, for test_start_errors.py.

``python crowd_program.py BACKEND CLI RUNS LIMIT``: lowers this process's limit of open
descriptors (``ulimit -n``) to ``LIMIT``, starts ``RUNS`` runs of ``CLI`` at once on
``BACKEND``, and prints as JSON how each ended (``ok``, ``AgentStartError``, or the type
and message of anything else) and how many descriptors were open before and after.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
from collections import Counter

import anyio

from agent_sdk import AgentOptions, AgentStartError, run_async


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def crowd(cli: str, runs: int, limit: int) -> dict[str, object]:
    options = AgentOptions(binary=cli)
    await run_async("warm-up", options=options)  # the loop's own descriptors, once
    gc.collect()
    before = open_fds()
    ended: Counter[str] = Counter()

    async def one() -> None:
        try:
            await run_async("hi", options=options)
            ended["ok"] += 1
        except AgentStartError:
            ended["AgentStartError"] += 1
        except Exception as exc:
            ended[f"{type(exc).__name__}: {exc}"] += 1

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    async with anyio.create_task_group() as tg:
        for _ in range(runs):
            tg.start_soon(one)
    gc.collect()
    return {"ended": ended, "fds_before": before, "fds_after": open_fds()}


def main() -> None:
    backend, cli, runs, limit = sys.argv[1:5]
    print(json.dumps(anyio.run(crowd, cli, int(runs), int(limit), backend=backend)))


if __name__ == "__main__":
    main()
