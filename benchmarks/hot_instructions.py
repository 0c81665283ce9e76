"""Instructions per event of the print-mode hot path, counted by callgrind: a rendered
stream (``streams.py``) fed to a ``Stream`` in 256 KiB chunks, as a run reads its pipe.
Both of its mixes are counted: the realistic one (tool calls nearly half the events) and
the chatty one the figures before issue 24 were taken on.

    python benchmarks/hot_instructions.py                 # this checkout
    python benchmarks/hot_instructions.py OLD_CHECKOUT    # and another, in the same run
    python benchmarks/hot_instructions.py --run [OLD_CHECKOUT]
    python benchmarks/hot_instructions.py --modes [OLD_CHECKOUT]
    python benchmarks/hot_instructions.py --traced [OLD_CHECKOUT]
    python benchmarks/hot_instructions.py --run --budget [OLD_CHECKOUT]

``--modes`` also counts the realistic stream decoded as partial output (``Stream(partial=True)``,
as a run with ``stream_partial_output``) and with every event kept (``keep_events=True``,
as ``run_sync``): both take other branches of the decoder's pass.

``--traced`` also counts this checkout's realistic stream traced (docs/traces.md): with
the OpenTelemetry API imported and no provider set (``api``: the run's span records
nothing, so its tool calls are not watched), and with the OTel SDK's ``TracerProvider``
and no exporter (``traced``: a span per tool call, recorded, then dropped).

``--run`` counts whole streamed runs instead, on the realistic stream: ``run()`` of each
checkout reading the stream from a child (``cat``) through its pipe, the consumer's
``async for`` included; ``run().batches()`` of this checkout; and the asyncio
``readline()`` + ``json.loads`` wrapper ``hot_ratio.py`` times. The child is not counted
(callgrind follows only the Python process). ``--budget`` adds ``run()`` of this checkout
with a budget it never reaches: of tool calls, then also of one kind of them.

The count of a 4-event stream is taken away from that of the long one, so the import and
the interpreter's start are out of the figure. Instruction counts do not move with the
machine's load: two checkouts compare exactly. Needs ``valgrind`` on ``PATH``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import streams  # noqa: E402

EVENTS = 30_000
CALLGRIND = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]

FEED = """
import sys
try:
    from agent_sdk._wire.stream import Stream
except ImportError:  # a checkout from before issue 37's layout
    from agent_sdk._protocol.stream import Stream
data = open(sys.argv[1], "rb").read()
mode = sys.argv[2] if len(sys.argv) > 2 else ""
stream = Stream(partial=mode == "partial", keep_events=mode == "kept")
if mode in ("api", "traced"):
    from opentelemetry import trace
    if mode == "traced":
        from opentelemetry.sdk.trace import TracerProvider
        trace.set_tracer_provider(TracerProvider())
    from agent_sdk._options.agent_options import AgentOptions
    from agent_sdk._options.redaction import NO_SECRETS
    from agent_sdk._run.trace import run_span
    span = run_span(AgentOptions(), NO_SECRETS, stream)
for at in range(0, len(data), 262144):
    stream.feed(data[at : at + 262144])
stream.end()
"""


RUN = """
import os, sys
import anyio
from agent_sdk import AgentOptions, run

async def main(child, stream, batches):
    options = AgentOptions(binary=child, env={"BENCH_STREAM": stream})
    limits = os.environ.get("BENCH_BUDGET")
    if limits:  # limits never reached: the cost of counting (docs/benchmarks.md, "Budgets")
        from agent_sdk import Budget
        by_kind = {"shell": 10**9} if limits == "kinds" else None
        budget = Budget(tool_calls=10**9, tool_calls_by_kind=by_kind)
        options = AgentOptions(binary=child, env={"BENCH_STREAM": stream}, budget=budget)
    async with run("bench", options=options) as events:
        if batches:
            async for batch in events.batches():
                for _ in batch:
                    pass
        else:
            async for _ in events:
                pass

anyio.run(main, sys.argv[1], sys.argv[2], os.environ.get("BENCH_BATCHES") == "1")
"""

WRAPPER = """
import asyncio, json, os, sys

async def main(child, stream):
    env = {**os.environ, "BENCH_STREAM": stream}
    proc = await asyncio.create_subprocess_exec(
        child, env=env, stdout=asyncio.subprocess.PIPE, limit=1 << 30
    )
    while line := await proc.stdout.readline():
        json.loads(line)
    await proc.wait()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def instructions(
    checkout: Path,
    stream: Path,
    code: str = FEED,
    child: str = "",
    batches: bool = False,
    mode: str = "",
    budget: str = "",
) -> int:
    """What callgrind counts for ``code`` with ``checkout``'s agent_sdk: by default,
    feeding ``stream`` to a ``Stream`` (``mode``: ``"partial"``, ``"kept"`` or plain);
    ``RUN`` and ``WRAPPER`` read it from ``child`` (``budget``: ``RUN`` with a budget of
    tool calls, ``"calls"``, or of tool calls and shell calls, ``"kinds"``)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "BENCH_BATCHES": "1" if batches else "",
        "BENCH_BUDGET": budget,
    }
    argv = [str(stream), mode] if code == FEED else [child, str(stream)]
    done = subprocess.run(
        [*CALLGRIND, sys.executable, "-c", code, *argv],
        env=env,
        # `-c` puts the working directory first on sys.path: run in the checkout, or
        # every checkout would import the agent_sdk of the directory it was started from.
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr}")
    return int(found.group(1))


def main() -> None:
    flags = {"--run", "--modes", "--traced", "--budget"}
    others = [Path(arg).resolve() for arg in sys.argv[1:] if arg not in flags]
    checkouts = [HERE.parent, *others]
    if "--run" in sys.argv[1:]:
        count_runs(checkouts)
        return
    runs = [("realistic", True, ""), ("chatty", False, "")]
    if "--modes" in sys.argv[1:]:
        runs += [("realistic", True, "partial"), ("realistic", True, "kept")]
    if "--traced" in sys.argv[1:]:
        runs += [("realistic", True, "api"), ("realistic", True, "traced")]
    with tempfile.TemporaryDirectory() as tmp:
        short = Path(tmp, "short.ndjson")
        streams.write_stream(short, 4)
        for mix, realistic, mode in runs:
            long = Path(tmp, f"{mix}.ndjson")
            streams.write_stream(long, EVENTS, realistic=realistic)
            what = f"{mix} stream" + (f", {mode}" if mode else "")
            for checkout in checkouts if mode not in ("api", "traced") else checkouts[:1]:
                counts = (instructions(checkout, s, mode=mode) for s in (long, short))
                per_event = (next(counts) - next(counts)) / (EVENTS - 4)
                print(f"{per_event:,.0f} instructions per event, {what}  {checkout}")


def count_runs(checkouts: list[Path]) -> None:
    """Instructions per event of whole streamed runs (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        child = Path(tmp, "child.sh")
        child.write_text('#!/bin/sh\nexec cat "$BENCH_STREAM"\n')
        child.chmod(0o755)
        short, long = Path(tmp, "short.ndjson"), Path(tmp, "realistic.ndjson")
        streams.write_stream(short, 4)
        streams.write_stream(long, EVENTS)
        contenders = [(c, RUN, False, "", "run()") for c in checkouts]
        contenders.append((checkouts[0], RUN, True, "", "run().batches()"))
        contenders.append((checkouts[0], WRAPPER, False, "", "readline + json.loads"))
        if "--budget" in sys.argv[1:]:
            contenders.append((checkouts[0], RUN, False, "calls", "run(), Budget(tool_calls)"))
            what = "run(), Budget(tool_calls, tool_calls_by_kind)"
            contenders.append((checkouts[0], RUN, False, "kinds", what))
        for checkout, code, batches, budget, what in contenders:
            long_count, short_count = (
                instructions(checkout, stream, code, str(child), batches, budget=budget)
                for stream in (long, short)
            )
            per_event = (long_count - short_count) / (EVENTS - 4)
            print(f"{per_event:,.0f} instructions per event, {what}  {checkout}")


if __name__ == "__main__":
    main()
