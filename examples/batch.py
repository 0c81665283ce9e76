"""Batch automation: many prompts, a few at a time, one summary at the end.

    python examples/batch.py                      # the 12 built-in prompts
    python examples/batch.py prompts.txt          # one prompt per line ('#' comments)
    python examples/batch.py prompts.txt --out results.json --concurrency 8

Every prompt is one run of the agent; at most ``--concurrency`` (4) run at a time. A run
that fails does not stop the others: each task's outcome (ok, or the AgentError class and
message), duration, token counts and tool calls go into a JSON summary and a table on
stdout. The summary goes where ``--out`` says, else into a new temporary directory (never
into the directory you run it from); the last line says where. Exits 1 if any task
failed, 2 on a usage error (a prompts file that cannot be read).

With the fake agent the built-in prompts carry ``scenario:NAME`` tokens, so some tasks
fail the way the real CLI can (a crash, an error result, the usage limit).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import anyio
from _agent import default_options, using_fake

from agent_sdk import AgentError, AgentOptions, ToolCallStarted, run_async

PROMPTS = [
    "Summarise what src/cart.py does",
    "Add a test for cart totals",
    "Add type hints to src/cart.py",
    "Find the TODO comments and list them",
    "Explain the checkout flow",
    "Rename total() to cart_total() everywhere",
    "Check that the README's examples still run",
    "Suggest three refactorings for src/orders.py",
    "Write a docstring for every public function in src/",
    "List the dependencies and what each one is for",
    "Find dead code",
    "Add logging to the payment module",
]
# What the fake agent plays for each built-in prompt: three of them fail.
FAKE_SCENARIOS = [
    "hello", "cart", "tools", "hello", "crash", "thinking",
    "rejected", "is_error", "cart", "hello", "usage_limit", "tools",
]  # fmt: skip


@dataclass
class Outcome:
    """One task of the batch, as it goes into the summary."""

    index: int
    prompt: str
    outcome: str = "failed"  # "ok" or "failed"
    error_type: str | None = None  # the AgentError subclass, e.g. "AgentProcessError"
    error: str | None = None
    result: str | None = None
    session_id: str | None = None
    duration_s: float = 0.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    tool_calls: int = 0
    tool_kinds: dict[str, int] = field(default_factory=dict)


async def run_task(outcome: Outcome, options: AgentOptions, limiter: anyio.CapacityLimiter) -> None:
    async with limiter:  # at most `concurrency` runs at a time
        started = anyio.current_time()
        try:
            result = await run_async(outcome.prompt, options=options)
        except AgentError as exc:
            outcome.error_type = type(exc).__name__
            outcome.error = exc.message
            outcome.session_id = exc.session_id
            # A failed run keeps the events it received: count its tool calls too.
            kinds = [e.kind for e in exc.events if isinstance(e, ToolCallStarted)]
        else:
            outcome.outcome = "ok"
            outcome.result = result.text
            outcome.session_id = result.session_id
            if result.usage is not None:
                outcome.input_tokens = result.usage.input_tokens
                outcome.output_tokens = result.usage.output_tokens
            kinds = [call.kind for call in result.tool_calls]
        outcome.duration_s = round(anyio.current_time() - started, 3)
        outcome.tool_calls = len(kinds)
        for kind in kinds:
            outcome.tool_kinds[kind] = outcome.tool_kinds.get(kind, 0) + 1


async def run_batch(prompts: list[str], options: AgentOptions, concurrency: int) -> list[Outcome]:
    outcomes = [Outcome(index=i, prompt=p) for i, p in enumerate(prompts, 1)]
    limiter = anyio.CapacityLimiter(concurrency)
    # run_task never raises an AgentError, so one failure does not cancel the others.
    async with anyio.create_task_group() as tg:
        for outcome in outcomes:
            tg.start_soon(run_task, outcome, options, limiter)
    return outcomes


def print_table(outcomes: list[Outcome]) -> None:
    print(f"{'#':>3}  {'outcome':<7} {'secs':>6} {'tokens in/out':>13} {'tools':>5}  prompt")
    for o in outcomes:
        tokens = f"{o.input_tokens}/{o.output_tokens}" if o.input_tokens is not None else "-"
        print(
            f"{o.index:>3}  {o.outcome:<7} {o.duration_s:>6.2f} {tokens:>13} {o.tool_calls:>5}  "
            f"{o.prompt[:60]}"
        )
        if o.error is not None:
            first_line = o.error.splitlines()[0] if o.error else ""
            print(f"{'':>5}↳ {o.error_type}: {first_line[:90]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("prompts", nargs="?", type=Path, help="file with one prompt per line")
    parser.add_argument(
        "--out", type=Path, help="where the JSON summary goes (default: a new temporary directory)"
    )
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    if args.prompts is not None:
        try:
            lines = args.prompts.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            # A usage error, reported as argparse reports its own: one line, exit 2.
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            print(
                f"{parser.prog}: error: cannot read the prompts file {str(args.prompts)!r}: "
                f"{reason}",
                file=sys.stderr,
            )
            return 2
        prompts = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    elif using_fake():
        prompts = [f"{p} scenario:{s}" for p, s in zip(PROMPTS, FAKE_SCENARIOS, strict=True)]
    else:
        prompts = PROMPTS
    # A generous timeout: a stuck run fails alone instead of holding up the batch.
    options = default_options(timeout=600)

    outcomes = anyio.run(run_batch, prompts, options, args.concurrency)

    print_table(outcomes)
    failed = sum(o.outcome != "ok" for o in outcomes)
    summary = {
        "total": len(outcomes),
        "succeeded": len(outcomes) - failed,
        "failed": failed,
        "tasks": [asdict(o) for o in outcomes],
    }
    out, elsewhere = args.out, ""
    if out is None:  # not into the repository, or wherever the user happens to be
        out = Path(tempfile.mkdtemp(prefix="agent_sdk_batch_")) / "summary.json"
        elsewhere = " (--out FILE puts it elsewhere)"
    out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"\n{len(outcomes) - failed} ok, {failed} failed; summary in {out}{elsewhere}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
