"""The fake keeps up with reality: every shape the real captures show, some bundled
scenario produces.

A *shape fact* is an event type, a ``(type, subtype)`` pair, a tool kind, a key of a tool
call's ``result`` (the outcome and its siblings), and every key path of the wire objects
(``tool_call.tool_call.shellToolCall.args.parsingResult.redirects``; list items are
``[]``, the per-root keys of grep's ``workspaceResults`` are ``*``). The facts of the real
captures (``tests/recorded_runs.py`` says where; read in place, never copied) must all appear in the
output of the bundled scenarios, played by the fake as the CLI prints them: stream-json,
with and without ``--stream-partial-output``.

Skips when the captures are absent; fails then when ``$CI`` is set (CI always has them).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fake_env import fake_env
from recorded_runs import require_recorded_runs

import fake_agent

# Directives that make a run slow, keep it from ending on its own or leave processes
# behind: their scenarios are fault modes (their events are those of other scenarios)
# and are not played here.
SLOW_DIRECTIVES = frozenset(
    {
        "stall",
        "hang",
        "kill",
        "ignore_sigterm",
        "exit_leaving_child",
        "drip",
        "stderr_flood",
        "worker_server",
        "daemon",
    }
)
# Keys whose children are named by data (grep's workspace roots are absolute paths).
DATA_KEYED = frozenset({"workspaceResults"})

Fact = tuple[str, ...]


def shape_facts(event: dict[str, Any]) -> set[Fact]:
    """The shape facts of one wire object (see the module)."""
    kind = event.get("type")
    if not isinstance(kind, str):
        return set()
    facts: set[Fact] = {("type", kind), ("subtype", kind, str(event.get("subtype")))}

    def walk(value: Any, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                name = "*" if path[-1] in DATA_KEYED else key
                facts.add(("key", ".".join((*path, name))))
                walk(item, (*path, name))
        elif isinstance(value, list):
            for item in value:
                walk(item, (*path, "[]"))

    walk(event, (kind,))
    tool_call = event.get("tool_call")
    if kind == "tool_call" and isinstance(tool_call, dict):
        for key, body in tool_call.items():
            if key.endswith("ToolCall") or key == "function":
                facts.add(("tool kind", key))
                result = body.get("result") if isinstance(body, dict) else None
                if isinstance(result, dict):
                    facts.update(("result key", key, outcome) for outcome in result)
    return facts


def facts_of_lines(lines: Iterable[bytes]) -> set[Fact]:
    facts: set[Fact] = set()
    for line in lines:
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # banners, garbage: no wire shape
        if isinstance(obj, dict):
            facts |= shape_facts(obj)
    return facts


@functools.cache
def played(scenario: str, partial: bool) -> bytes:
    """stdout of the fake playing a bundled scenario in stream-json."""
    args = ["-p", "--trust", "--force", "--output-format", "stream-json"]
    if partial:
        args.append("--stream-partial-output")
    # In a scratch directory: some scenarios change files in their workspace. With a
    # counter that already passed every ``fail_first``: the whole scenario plays.
    with tempfile.TemporaryDirectory(prefix="fake-cover-") as scratch:
        counter = Path(scratch) / "count"
        counter.write_text("1000\n")
        env = fake_env(
            FAKE_AGENT_SCENARIO=scenario,
            FAKE_AGENT_HUGE_READ_BYTES="2000",
            FAKE_AGENT_HUGE_LINE_BYTES="2000",
            FAKE_AGENT_COUNTER=str(counter),
        )
        proc = subprocess.run(
            [sys.executable, "-m", "fake_agent", *args, "--", "cover the captures"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            cwd=scratch,
            timeout=60,
            check=False,
        )
    return proc.stdout


def is_slow(step: dict[str, Any]) -> bool:
    """A step of SLOW_DIRECTIVES, or a shell command (it runs for real, here with
    ``--force``) other than an ``echo`` in the foreground."""
    if step.get("fake") == "shell":
        return bool(step.get("background")) or not str(step["command"]).startswith("echo ")
    return step.get("fake") in SLOW_DIRECTIVES


def playable_scenarios() -> list[str]:
    names = []
    for name in fake_agent.scenario_names():
        text = fake_agent.scenario_path(name).read_text("utf-8")
        steps = [json.loads(line) for line in text.split("\n") if line.strip()]
        if not any(is_slow(step) for step in steps):
            names.append(name)
    return names


@functools.cache
def scenario_facts() -> frozenset[Fact]:
    facts: set[Fact] = set()
    for name in playable_scenarios():
        for partial in (False, True):
            facts |= facts_of_lines(played(name, partial).split(b"\n"))
    return frozenset(facts)


def capture_facts(files: list[Path]) -> set[Fact]:
    return {fact for path in files for fact in facts_of_lines(path.read_bytes().split(b"\n"))}


def test_every_shape_of_the_captures_is_played_by_a_bundled_scenario() -> None:
    files = require_recorded_runs()
    missing = sorted(capture_facts(files) - scenario_facts())
    listing = "\n".join(" ".join(fact) for fact in missing)
    assert not missing, f"shapes of the real captures no bundled scenario plays:\n{listing}"


def test_the_facts_cover_every_level_of_the_captures() -> None:
    facts = capture_facts(require_recorded_runs())
    kinds = {fact[0] for fact in facts}
    assert {"type", "subtype", "tool kind", "result key", "key"} <= kinds
    assert ("type", "result") in facts
    # Nested deep down, through lists, with data-named keys folded.
    assert any(fact[0] == "key" and ".[]." in fact[1] for fact in facts)
    assert not any(fact[0] == "key" and "\\" in fact[1] for fact in facts)


def test_most_scenarios_are_played_here() -> None:
    playable = playable_scenarios()
    assert {"hello", "tools", "plan", "denied", "hook_rejected", "windows"} <= set(playable)
    assert not {"stall", "hang_after_result", "killed", "slow_drip"} & set(playable)


def test_shape_facts_of_a_tool_call() -> None:
    event = {
        "type": "tool_call",
        "subtype": "completed",
        "tool_call": {
            "grepToolCall": {
                "args": {"pattern": "x"},
                "result": {"success": {"workspaceResults": {"C:\\w": {"files": {}}}}},
            },
            "toolCallId": "t",
        },
    }
    facts = shape_facts(event)
    assert ("tool kind", "grepToolCall") in facts
    assert ("result key", "grepToolCall", "success") in facts
    assert ("subtype", "tool_call", "completed") in facts
    prefix = "tool_call.tool_call.grepToolCall.result.success.workspaceResults"
    assert ("key", f"{prefix}.*.files") in facts
    assert ("key", "tool_call.tool_call.toolCallId") in facts
