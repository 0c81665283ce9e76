"""A short script pays for what it uses: ``import agent_sdk`` loads no event loop and no
optional part, and a plain run (``run_sync`` or ``run()``, without tools, hooks, a fleet,
the live agent or traces) loads neither an event loop (``run_sync``) nor the output, the
private-config, the custom-tool, the fleet, the live agent's nor the tracing machinery
(docs/benchmarks.md, "A short script: the cold figure"). Each check runs in a fresh
interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import fake_agent

SCRIPT = """
import sys
before = set(sys.modules)
import agent_sdk
options = agent_sdk.AgentOptions(binary=sys.argv[2])
if sys.argv[1] == "run":
    result = agent_sdk.run_sync("hi", options=options)
    assert result.tool_calls, "the scenario makes tool calls"  # their types were read
elif sys.argv[1] != "import":
    import anyio
    async def main():
        async with agent_sdk.run("hi", options=options) as events:
            async for event in events:
                getattr(event, "args", None)  # a tool call's arguments, typed
    anyio.run(main, backend=sys.argv[1])
print(" ".join(sorted(set(sys.modules) - before)))
"""

# What `import agent_sdk` may load of agent_sdk: the options, events, results and errors,
# and run_sync's front (the run's engine and argv builder load with the first run), and
# the layer folders they are in (empty packages). A module added here is paid by every
# script that imports agent_sdk (about 0.3 ms each; docs/benchmarks.md, "A short script:
# the cold figure"): load it at first use instead.
ON_IMPORT = {
    "agent_sdk",
    "agent_sdk._options",
    "agent_sdk._options.agent_options",
    "agent_sdk._options.checks",
    "agent_sdk._options.keywords",
    "agent_sdk._run",
    "agent_sdk._run.run_sync",
    "agent_sdk._version",
    "agent_sdk._wire",
    "agent_sdk._wire.cli_messages",
    "agent_sdk._wire.error_context",
    "agent_sdk._wire.event_base",
    "agent_sdk._wire.interaction_events",
    "agent_sdk._wire.reprs",
    "agent_sdk._wire.system_events",
    "agent_sdk._wire.tool_call",
    "agent_sdk._wire.tool_call_events",
    "agent_sdk._wire.tool_status",
    "agent_sdk.budget",
    "agent_sdk.errors",
    "agent_sdk.events",
    "agent_sdk.result",
    "agent_sdk.subagents",
    "agent_sdk.tool_calls",
}

# What no plain run loads: extensions (custom tools, hooks: agent_sdk.extend), budgets,
# the fleet, the live agent, tracing, the command line, sessions, checkpoints.
OPTIONAL = (
    "agent_sdk.checkpoints",
    "agent_sdk.checkpoints._git",
    "agent_sdk.checkpoints._lock",
    "agent_sdk.checkpoints._rewind",
    "agent_sdk._run.checkpointed",
    "agent_sdk._transport.git",
    "agent_sdk.changes",
    "agent_sdk.extend",
    "agent_sdk._run.custom_tools",
    "agent_sdk._run.spending",
    "agent_sdk.fleet",
    "agent_sdk.live",
    "agent_sdk._run.trace",
    "agent_sdk.cli",
    "agent_sdk.session",
)


def _loaded(what: str, scenario: str = "hello", cwd: Path | None = None) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, what, fake_agent.executable()],
        capture_output=True,
        text=True,
        check=True,
        env={"FAKE_AGENT_SCENARIO": scenario, "PATH": "/usr/bin:/bin"},
        timeout=60,
        cwd=cwd,
    )
    return set(out.stdout.split())


def _optional(loaded: set[str]) -> list[str]:
    return sorted(
        name
        for name in loaded
        if any(name == part or name.startswith(part + ".") for part in OPTIONAL)
    )


@pytest.mark.parametrize(
    "module",
    [
        "asyncio",
        "trio",
        "ray",
        "subprocess",
        "threading",
        "json",
        "agent_sdk.fleet",
        "agent_sdk.live",
        "agent_sdk.cli",
        "agent_sdk.session",
        "agent_sdk._run.structured",
    ],
)
def test_importing_agent_sdk_loads_no_event_loop_and_no_optional_part(module: str) -> None:
    assert module not in _loaded("import")


def test_importing_agent_sdk_loads_only_the_modules_of_a_run() -> None:
    ours = {name for name in _loaded("import") if name.startswith("agent_sdk")}
    assert _optional(ours) == []
    assert sorted(ours - ON_IMPORT) == []


@pytest.mark.parametrize("how", ["run", "asyncio", "trio"])
def test_a_plain_run_loads_no_extension_fleet_live_agent_nor_tracing(
    how: str, tmp_path: Path
) -> None:
    # A scenario with tool calls (in a workspace of its own): their typed arguments are
    # read, as a program reads them.
    assert _optional(_loaded(how, "fix_tests", tmp_path)) == []


def test_a_run_without_a_model_or_an_output_type_loads_neither_machinery(
    tmp_path: Path,
) -> None:
    loaded = _loaded("run", "fix_tests", tmp_path)
    assert "agent_sdk._transport.blocking" in loaded
    assert not loaded & {
        "agent_sdk._run.structured",
        "agent_sdk._run.output",
        "agent_sdk._transport.config_dir",
        "tempfile",
        "shutil",
    }


def test_run_sync_from_a_plain_script_loads_no_event_loop(tmp_path: Path) -> None:
    loaded = _loaded("run", "fix_tests", tmp_path)
    assert "agent_sdk._transport.blocking" in loaded  # it did run
    assert not loaded & {"asyncio", "trio", "anyio._backends._asyncio", "concurrent.futures"}


def test_what_loads_on_first_use_is_found_where_it_was() -> None:
    # In a fresh interpreter, where nothing but `import agent_sdk` ran: every public name,
    # and the public module of build_invocation, as an attribute of agent_sdk.
    code = (
        "import agent_sdk\n"
        "assert callable(agent_sdk.options.build_invocation)\n"
        "for name in agent_sdk.__all__:\n"
        "    getattr(agent_sdk, name)\n"
        "from agent_sdk import Run, Transport, run, run_async\n"
        "assert Run.__module__ == 'agent_sdk._run.run' and run is agent_sdk.run\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
