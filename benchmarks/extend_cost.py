"""What custom tools cost a run, on the bundled fake agent (docs/benchmarks.md, issue 26).

    python benchmarks/extend_cost.py [--rounds N] [--repeat K] [--quick]

Four contenders take turns in one process (after a warm-up of each), each a whole run of
the fake from spawn to result, ``K`` times a round, the round's figure the median:

- ``plain``: a run without tools (the scenario makes no MCP call);
- ``tools``: the same run given one tool it never calls: what giving tools costs (the
  run's own HOME and config dir, the host's socket);
- ``1 call``: the agent calls it once: the relay's start (a ``python -I -S`` process the
  fake starts, as the CLI would), MCP's handshake and one round trip;
- ``10 calls``: ten calls: each one after the first is a round trip only;
- ``hooks``: the plain run given a ``before_shell`` hook it never fires;
- ``1 hook`` / ``10 hooks``: one and ten ``echo`` commands, each asked of the hook first:
  the CLI starts the relay (in hook mode) for every hook call, so each costs a start.

The figures are the fake's and this machine's: a real CLI adds its own start and its own
MCP client. Reported as min / median / max of the rounds' medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

import fake_agent
from agent_sdk import AgentOptions, run
from agent_sdk.extend import Decision, Hooks, ShellCommand, tool

SESSION = "b7e1c0d2-6a4f-4c3e-9d18-2f5a7c9e1b46"


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue.

    Args:
        number: the issue's number.
    """
    return f"#{number}: open"


def allow(command: ShellCommand) -> Decision:
    return "allow"


def scenario(path: Path, calls: int, shell: bool = False) -> Path:
    lines: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": SESSION, "model": "Composer 2"},
    ]
    lines += [
        {"fake": "shell", "command": f"echo {n}"}
        if shell
        else {
            "fake": "mcp_call",
            "server": "agent_sdk",
            "tool": "lookup_issue",
            "args": {"number": n},
        }
        for n in range(calls)
    ]
    lines.append(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": "done",
            "session_id": SESSION,
        }
    )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


async def once(options: AgentOptions) -> None:
    async with run("bench", options=options) as events:
        async for _ in events:
            pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one run each: checks the harness")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.repeat = 1, 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)

        def options(calls: int, tools: bool = False, hooks: bool = False) -> AgentOptions:
            path = scenario(work / f"s{calls}{hooks}.ndjson", calls, shell=hooks)
            return AgentOptions(
                binary=fake_agent.executable(),
                env={"FAKE_AGENT_SCENARIO": str(path)},
                force=True,
                tools=[lookup_issue] if tools else (),
                hooks=Hooks(before_shell=allow) if hooks else None,
            )

        contenders = {
            "plain": options(0),
            "tools": options(0, tools=True),
            "1 call": options(1, tools=True),
            "10 calls": options(10, tools=True),
            "hooks": options(0, hooks=True),
            "1 hook": options(1, hooks=True),
            "10 hooks": options(10, hooks=True),
        }
        for chosen in contenders.values():
            anyio.run(once, chosen)  # warm-up: imports, bytecode, the fake's own caches
        seconds: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.rounds):
            for name, chosen in contenders.items():
                samples = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    anyio.run(once, chosen)
                    samples.append(time.perf_counter() - start)
                seconds[name].append(statistics.median(samples))

    def spread(values: list[float]) -> str:
        ms = sorted(v * 1000 for v in values)
        return f"{ms[0]:.1f} / {statistics.median(ms):.1f} / {ms[-1]:.1f} ms"

    print(f"{args.rounds} rounds of {args.repeat} runs each (min / median / max):")
    for name, values in seconds.items():
        print(f"  {name:9} {spread(values)}")
    med = {name: statistics.median(values) for name, values in seconds.items()}
    print(f"  giving tools: +{(med['tools'] - med['plain']) * 1000:.1f} ms a run")
    print(f"  the first call: +{(med['1 call'] - med['tools']) * 1000:.1f} ms")
    print(f"  each later call: +{(med['10 calls'] - med['1 call']) * 1000 / 9:.2f} ms")
    print(f"  giving hooks: +{(med['hooks'] - med['plain']) * 1000:.1f} ms a run")
    print(f"  the first hook call: +{(med['1 hook'] - med['hooks']) * 1000:.1f} ms")
    print(f"  each later hook call: +{(med['10 hooks'] - med['1 hook']) * 1000 / 9:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
