"""Without OpenTelemetry, nothing of it is imported and nothing of the tracing runs
(docs/traces.md): a run in a fresh interpreter where ``import opentelemetry`` fails, and one
where it would work but the program never imported it. The modules loaded are compared."""

from __future__ import annotations

import subprocess
import sys

import pytest

import fake_agent

# A meta-path finder that refuses every opentelemetry module, as if it were not installed
# (the test venv has the API: the mcp test extra pulls it in).
BLOCK = """
import sys
class _NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name == "opentelemetry" or name.startswith("opentelemetry."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NotInstalled())
"""

RUN = """
import sys
import agent_sdk
binary = sys.argv[2]
options = agent_sdk.AgentOptions(binary=binary)
if sys.argv[1] == "sync":
    agent_sdk.run_sync("hi", options=options)
else:
    import anyio
    async def main():
        async with agent_sdk.run("hi", options=options) as events:
            async for _ in events:
                pass
    anyio.run(main, backend=sys.argv[1])
print(" ".join(sorted(sys.modules)))
"""


def _loaded(how: str, *, blocked: bool) -> set[str]:
    code = (BLOCK if blocked else "") + RUN
    out = subprocess.run(
        [sys.executable, "-c", code, how, fake_agent.executable()],
        capture_output=True,
        text=True,
        check=True,
        env={"FAKE_AGENT_SCENARIO": "fix_tests", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    return set(out.stdout.split())


@pytest.mark.parametrize("how", ["sync", "asyncio", "trio"])
@pytest.mark.parametrize("blocked", [True, False], ids=["not-installed", "not-imported"])
def test_a_run_imports_nothing_of_opentelemetry_nor_the_sdks_tracing(
    how: str, blocked: bool
) -> None:
    loaded = _loaded(how, blocked=blocked)
    assert "agent_sdk._run.run" in loaded  # it did run
    assert not [name for name in loaded if name.split(".")[0] == "opentelemetry"]
    assert "agent_sdk._run.trace" not in loaded


def test_a_plain_script_run_does_not_import_logging() -> None:
    assert "logging" not in _loaded("sync", blocked=True)
