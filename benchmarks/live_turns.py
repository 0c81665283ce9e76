"""Ten turns on one live agent (ACP mode) against ten turns of a print-mode ``Session``.

    python benchmarks/live_turns.py             # 10 turns, 7 rounds (about 15 s)
    python benchmarks/live_turns.py --quick     # 3 turns, 1 round: checks the harness
    python benchmarks/live_turns.py --json FILE # also writes the raw figures

Both sides run the bundled fake agent (``fake_agent.executable()``) on its ``hello``
scenario, print mode and ACP alike, so the agent's own thinking is out of the picture:

* **print mode**: ``agent_sdk.Session`` and ``await session.send("hi")``, turn after
  turn: every turn starts a ``cursor-agent`` process (``--resume`` after the first);
* **live**: one ``LiveAgent`` started once (``initialize``), one ``session/new``, then
  ``await session.send("hi")`` turn after turn on that one process.

Each turn is timed on its own (``time.perf_counter`` around ``send``); the live start
(entering ``LiveAgent`` and ``session/new``) is timed apart. The two sides take turns,
round after round, and the median of every turn of a side over all rounds is reported:
the saving per turn is what a print-mode turn pays to start a process, and the live
start is what it costs once. The figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

import fake_agent
from agent_sdk import AgentOptions, Session
from agent_sdk.live import LiveAgent

PROMPT = "hi"
REPLY = "Hello! How can I help?"  # the ACP hello scenario's reply
PRINT_REPLY = "Done. I added the test."  # the print-mode hello scenario's result


def fake_options() -> AgentOptions:
    """The fake agent, on ``hello`` in both modes, whatever the caller's environment says."""
    env = {k: "" for k in os.environ if k.startswith("FAKE_AGENT_")}
    env.update(FAKE_AGENT_SCENARIO="hello", FAKE_AGENT_ACP_SCENARIO="hello")
    return AgentOptions(binary=fake_agent.executable(), env=env)


async def print_turns(turns: int, options: AgentOptions) -> list[float]:
    """Seconds per turn of one print-mode ``Session`` (a process per turn)."""
    session = Session(options=options)
    times = []
    for _ in range(turns):
        started = time.perf_counter()
        result = await session.send(PROMPT)
        times.append(time.perf_counter() - started)
        assert result.result == PRINT_REPLY, result.result
    return times


async def live_turns(turns: int, options: AgentOptions) -> tuple[float, list[float]]:
    """Seconds to start the live agent and open a session, and per turn on it."""
    started = time.perf_counter()
    async with LiveAgent(options) as agent:
        session = await agent.new_session()
        start = time.perf_counter() - started
        times = []
        for _ in range(turns):
            started = time.perf_counter()
            result = await session.send(PROMPT)
            times.append(time.perf_counter() - started)
            assert result.stop_reason == "end_turn", result
            assert result.text == REPLY, result
    return start, times


def measure(turns: int, rounds: int) -> dict[str, Any]:
    """Every round runs both sides, each in a fresh event loop; the raw times of all."""
    options = fake_options()
    figures: dict[str, Any] = {"turns": turns, "rounds": rounds, "print": [], "live": []}
    figures["live_start"] = []
    for _ in range(rounds):
        figures["print"].append(anyio.run(print_turns, turns, options))
        start, times = anyio.run(live_turns, turns, options)
        figures["live_start"].append(start)
        figures["live"].append(times)
    return figures


def summary(figures: dict[str, Any]) -> dict[str, float]:
    """Medians in milliseconds: a print turn, a live turn, the live start; the saving per
    turn; the turns after which the live side is ahead; both sides' totals."""
    turns = figures["turns"]
    per_print = statistics.median(t for run in figures["print"] for t in run) * 1000
    per_live = statistics.median(t for run in figures["live"] for t in run) * 1000
    start = statistics.median(figures["live_start"]) * 1000
    saved = per_print - per_live
    return {
        "print_turn_ms": per_print,
        "live_turn_ms": per_live,
        "live_start_ms": start,
        "saved_per_turn_ms": saved,
        "break_even_turns": start / saved if saved > 0 else float("inf"),
        "print_total_ms": statistics.median(sum(run) for run in figures["print"]) * 1000,
        "live_total_ms": statistics.median(
            s + sum(run) for s, run in zip(figures["live_start"], figures["live"], strict=True)
        )
        * 1000,
        "turns": turns,
    }


def report(s: dict[str, float], rounds: int) -> str:
    turns = int(s["turns"])
    return "\n".join(
        [
            f"{turns} sequential turns on the fake agent (hello), median of {rounds} rounds:",
            f"  print-mode Session, per turn   {s['print_turn_ms']:8.1f} ms",
            f"  live agent, per turn           {s['live_turn_ms']:8.1f} ms",
            f"  saved per turn (the spawn)     {s['saved_per_turn_ms']:8.1f} ms",
            f"  live start, once (+ session)   {s['live_start_ms']:8.1f} ms",
            f"  live ahead after               {s['break_even_turns']:8.1f} turns",
            f"  {turns} turns, print mode         {s['print_total_ms']:8.1f} ms",
            f"  {turns} turns, live, with start   {s['live_total_ms']:8.1f} ms",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 turns, 1 round")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()
    turns, rounds = (3, 1) if args.quick else (args.turns, args.rounds)
    figures = measure(turns, rounds)
    figures["summary"] = figures_summary = summary(figures)
    print(report(figures_summary, rounds))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
