"""The measured side of the benchmarks: each worker runs in a fresh interpreter, measures
one thing and prints one JSON object. ``benchmarks/run.py`` starts them and makes the table.

    python benchmarks/workers.py NAME ARGS...   # e.g. `sdk STREAM default`
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _options(stream: str, **kw: Any) -> Any:
    from agent_sdk import AgentOptions

    return AgentOptions(binary=os.environ["BENCH_CHILD"], env={"BENCH_STREAM": stream}, **kw)


def worker_sdk(stream: str, keep: str = "default") -> dict[str, Any]:
    """``run()`` with its defaults (streamed: keeps nothing), or (keep) keeping every event,
    or (batches) streamed and consumed a read at a time (``Run.batches()``)."""
    import anyio

    from agent_sdk import run

    keep_events = True if keep == "keep" else None

    async def main(stream: str) -> int:
        count = 0
        async with run("bench", options=_options(stream, keep_events=keep_events)) as events:
            if keep == "batches":
                async for batch in events.batches():
                    for _ in batch:
                        count += 1
            else:
                async for _ in events:
                    count += 1
        return count

    # Warm up on a tiny stream: the one-off costs of a process's first run (loading
    # the event loop backend and subprocess machinery) are the start-up figure's, not
    # throughput's; a bot pays them once.
    anyio.run(main, os.environ["BENCH_WARMUP"])
    start = time.perf_counter()
    count = anyio.run(main, stream)
    return {"seconds": time.perf_counter() - start, "events": count, "rss_mb": _peak_rss_mb()}


def worker_raw(stream: str) -> dict[str, Any]:
    """The limit: the same child, pipe size and read size as agent_sdk, nothing parsed."""
    from agent_sdk._transport.subprocess import CHUNK_BYTES, grow_pipe

    start = time.perf_counter()
    proc = subprocess.Popen(
        [os.environ["BENCH_CHILD"]],
        env={**os.environ, "BENCH_STREAM": stream},
        stdout=subprocess.PIPE,
        bufsize=0,
    )
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    grow_pipe(fd)
    total = 0
    while data := os.read(fd, CHUNK_BYTES):
        total += len(data)
    proc.wait()
    return {"seconds": time.perf_counter() - start, "bytes": total}


def worker_floor(stream: str) -> dict[str, Any]:
    """The least any async iterator of typed events over this pipe does: the same pipe,
    reads, framing and decoder as agent_sdk, one ``decode_lines`` per block, one ``async
    def __anext__`` per event; no timeouts, stderr, checks, tool calls or errors."""
    from collections import deque

    import anyio

    from agent_sdk._transport.subprocess import CHUNK_BYTES, grow_pipe
    from agent_sdk._wire.framing import LineFramer
    from agent_sdk._wire.line_shapes import decoder

    # msgspec's decoder into the wire events, as LineDecoder calls it (one decode_lines
    # per block) without LineDecoder's pass over each block: that pass is run()'s work.
    decode_lines = decoder(False).decode_lines

    class Events:
        def __init__(self, fd: int) -> None:
            self.fd = fd
            self.ready: deque[Any] = deque()
            self.framer = LineFramer()

        def __aiter__(self) -> Events:
            return self

        async def __anext__(self) -> Any:
            if self.ready:
                return self.ready.popleft()
            while not self.ready:
                try:
                    data = os.read(self.fd, CHUNK_BYTES)
                except BlockingIOError:
                    await anyio.wait_readable(self.fd)
                    continue
                if not data:
                    raise StopAsyncIteration
                for block in self.framer.feed_blocks(data):
                    self.ready.extend(decode_lines(block))
            return self.ready.popleft()

    async def drain(fd: int) -> int:
        count = 0
        async for _ in Events(fd):
            count += 1
        return count

    def main(stream: str) -> int:
        proc = subprocess.Popen(
            [os.environ["BENCH_CHILD"]], env={**os.environ, "BENCH_STREAM": stream}, stdout=-1
        )
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        grow_pipe(fd)
        os.set_blocking(fd, False)
        count = anyio.run(drain, fd)
        proc.wait()
        return count

    main(os.environ["BENCH_WARMUP"])
    start = time.perf_counter()
    count = main(stream)
    return {"seconds": time.perf_counter() - start, "events": count}


def worker_memory_decode(stream: str, typed: str = "1") -> dict[str, Any]:
    """msgspec alone, from memory: into agent_sdk's event types, or (typed=0) into dicts."""
    import msgspec

    from agent_sdk._wire.line_shapes import decoder

    decode = decoder(False).decode if typed == "1" else msgspec.json.decode
    lines = Path(stream).read_bytes().splitlines()
    start = time.perf_counter()
    for line in lines:
        decode(line)
    return {"seconds": time.perf_counter() - start, "events": len(lines)}


def worker_json_loads(stream: str) -> dict[str, Any]:
    """The common wrapper: asyncio subprocess, ``readline()``, ``json.loads`` into dicts."""

    async def main(stream: str) -> int:
        proc = await asyncio.create_subprocess_exec(
            os.environ["BENCH_CHILD"],
            env={**os.environ, "BENCH_STREAM": stream},
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 30,  # the default 64 KiB limit would fail on big lines
        )
        assert proc.stdout is not None
        count = 0
        while line := await proc.stdout.readline():
            json.loads(line)
            count += 1
        await proc.wait()
        return count

    asyncio.run(main(os.environ["BENCH_WARMUP"]))  # warmed up like worker_sdk
    start = time.perf_counter()
    count = asyncio.run(main(stream))
    return {"seconds": time.perf_counter() - start, "events": count}


def worker_startup(stream: str, repeat: str) -> dict[str, Any]:
    import anyio

    from agent_sdk import run

    child = os.environ["BENCH_CHILD"]
    env = {**os.environ, "BENCH_STREAM": stream}

    async def sdk() -> tuple[float, float]:
        start = time.perf_counter()
        first = None
        async with run("bench", options=_options(stream)) as events:
            async for _ in events:
                if first is None:
                    first = time.perf_counter() - start
        return first or 0.0, time.perf_counter() - start

    async def bare() -> tuple[float, float]:
        start = time.perf_counter()
        first = None
        async with await anyio.open_process([child], env=env) as proc:
            assert proc.stdout is not None
            async for _ in proc.stdout:
                if first is None:
                    first = time.perf_counter() - start
        return first or 0.0, time.perf_counter() - start

    async def main() -> dict[str, list[float]]:
        out: dict[str, list[float]] = {
            "sdk_first": [],
            "sdk_total": [],
            "bare_first": [],
            "bare_total": [],
        }
        await sdk(), await bare()  # warm-up: thread pool, imports, page cache
        for _ in range(int(repeat)):
            for name, fn in (("sdk", sdk), ("bare", bare)):
                first, total = await fn()
                out[f"{name}_first"].append(first)
                out[f"{name}_total"].append(total)
        return out

    samples = anyio.run(main)
    return {name: statistics.median(values) for name, values in samples.items()}


def worker_startup_sync(stream: str, repeat: str) -> dict[str, Any]:
    """A tiny ``run_sync`` from a plain script (no event loop: the blocking transport),
    spawn to result, after a warm-up run: what ``worker_startup``'s ``sdk_total`` is for
    ``run()``."""
    from agent_sdk import run_sync

    run_sync("bench", options=_options(stream))  # warm-up: imports, the watchdog
    totals = []
    for _ in range(int(repeat)):
        start = time.perf_counter()
        run_sync("bench", options=_options(stream))
        totals.append(time.perf_counter() - start)
    return {"sync_total": statistics.median(totals)}


def _current_rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def worker_concurrent(stream: str, runs: str) -> dict[str, Any]:
    """``runs`` runs at once; memory is sampled while every one of them is open."""
    import anyio

    from agent_sdk import run

    count = int(runs)

    async def main() -> float:
        opened = 0
        all_open = anyio.Event()
        sample: list[float] = []

        async def one() -> None:
            nonlocal opened
            async with run("bench", options=_options(stream)) as events:
                first = True
                async for _ in events:
                    if first:
                        first = False
                        opened += 1
                        if opened == count:
                            sample.append(_current_rss_mb())
                            all_open.set()
                        await all_open.wait()

        async with anyio.create_task_group() as tg:
            for _ in range(count):
                tg.start_soon(one)
        return sample[0]

    base = _current_rss_mb()
    start = time.perf_counter()
    during = anyio.run(main)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "rss_per_run_kb": (during - base) * 1024 / count}


WORKERS: dict[str, Callable[..., dict[str, Any]]] = {
    name.removeprefix("worker_"): fn for name, fn in globals().items() if name.startswith("worker_")
}


if __name__ == "__main__":
    name, *args = sys.argv[1:]
    print(json.dumps(WORKERS[name](*args)))
