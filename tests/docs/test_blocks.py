"""Every ```python block of README.md and docs/ runs, verbatim, against the bundled fake agent.

Each block is written to a file and run as a script (``python block.py``) in a fresh empty
directory, with ``CURSOR_AGENT_BIN`` pointing agent_sdk at the fake: the code a reader
copies is the code tested, with nothing added or taken away. A block that needs more (a
scenario) gets it through the environment (``BLOCK_ENV``), as its page shows it, never by
editing its code. A block that defines pytest tests (``def test_...``) is also run under
pytest, since as a script it only defines them. A block leaves nothing behind in the
directory it ran in. The README's shell commands (the main job, the tests) are run by
``.ci/run``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from blocks import FENCE, PYTHON, README, Block, documents, fenced_blocks, python_blocks
from heavy import lean_sample

import fake_agent

HANG_GUARD = 120  # seconds: only so that a broken block fails instead of hanging

BLOCKS = python_blocks()

# What a block needs beyond the defaults, by id: only ever environment variables, each
# shown on the block's page. A scenario with tool calls, so that the blocks' tool-call
# branches run too.
BLOCK_ENV: dict[str, dict[str, str]] = {
    "readme:your-own-tool-with-a-gate-and-a-budget-1": {"FAKE_AGENT_SCENARIO": "issue_bot"},
    "extend:extending-the-agent-from-python-custom-tools-and-hooks-1": {
        "FAKE_AGENT_SCENARIO": "custom_tools"
    },
    "extend:when-your-code-fails-1": {"FAKE_AGENT_SCENARIO": "custom_tools"},
    "extend:hooks-that-decide-print-mode-1": {"FAKE_AGENT_SCENARIO": "issue_bot"},
    "extend:hooks-that-decide-print-mode-3": {"FAKE_AGENT_SCENARIO": "issue_bot"},
    "errors:the-message-and-the-hint-once-1": {"FAKE_AGENT_SCENARIO": "not_logged_in"},
    "budgets:budgets-1": {"FAKE_AGENT_SCENARIO": "fix_tests"},
    "budgets:whose-budget-1": {"FAKE_AGENT_SCENARIO": "fix_tests"},
    "live:turns-and-events-1": {"FAKE_AGENT_ACP_SCENARIO": "tools"},
    "live:approvals-1": {"FAKE_AGENT_ACP_SCENARIO": "permission"},
    "live:subagents-1": {"FAKE_AGENT_ACP_SCENARIO": "subagent"},
    "live:cancel-and-timeouts-1": {"FAKE_AGENT_ACP_SCENARIO": "shell_sleep"},
    "fleet:isolation-1": {"FAKE_AGENT_SCENARIO": "fix_tests"},
    "sessions:checkpointed-runs-1": {"FAKE_AGENT_SCENARIO": "fix_tests"},
    "fleet:on-a-ray-cluster-1": {"RAY_USAGE_STATS_ENABLED": "0"},  # no report home from CI
}
# Text a block's output must hold, by id: a block that catches an error would pass
# unnoticed if the error never came.
BLOCK_OUTPUT: dict[str, list[str]] = {
    "readme:stream-a-run-1": ["I'll read the cart module", "read src/cart.py", "session: "],
    "readme:one-call-in-a-script-1": ["✓ read src/cart.py\n", "✓ $ pytest -q tests/test_cart.py\n"],
    "readme:your-own-tool-with-a-gate-and-a-budget-1": [
        "comment on #26: ",
        "$ echo tests pass -> blocked",
    ],
    "running:streaming-1": ["I'll read the cart module", "read src/cart.py", "session: "],
    "running:a-read-at-a-time-1": ["I'll read the cart module and look", "session: "],
    "running:one-call-in-a-script-1": ["✓ $ pytest -q tests/test_cart.py 0"],
    "errors:the-errors-1": ["Cannot use this model: nope", "'gpt-5'"],
    "errors:the-message-and-the-hint-once-1": [
        "error: cursor-agent exited with code 1: Press any key to sign in...\nNot logged in.",
        "CURSOR_API_KEY.\nHint: log in once with `cursor-agent login`",
        "{'error': 'AgentAuthError', 'message': 'cursor-agent exited with code 1: ",
        "'hint': 'log in once with `cursor-agent login`",
    ],
    "budgets:budgets-1": ["tool_calls_by_kind shell: 2 of 1", "'$ pytest -q']"],
    "budgets:whose-budget-1": ["tool_calls_by_kind shell 4 3 session"],
    "extend:extending-the-agent-from-python-custom-tools-and-hooks-1": [
        "lookup_issue {'number': 26} -> #26: custom tools for the agent (open)",
        "fail {'reason': 'the tracker is down'} -> RuntimeError: the tracker is down (error)",
    ],
    "extend:defining-a-tool-1": [
        "'description': \"the issue's number, e.g. 26.\"",
        "\nIssue\n#26: Looking into it\npost_comment posted\nIssue(number=26, ",
    ],
    "extend:when-your-code-fails-1": ["[SystemExit('issue 26 is private')]"],
    "extend:hooks-that-decide-print-mode-1": [
        "asked: tool lookup_issue\nasked: $ echo tests pass\nasked: write ",
        "mcpToolCall success \nshellToolCall rejected (by a hook)\nwriteToolCall success",
        '[["this repository\'s tests are slow"]]',
    ],
    "extend:hooks-that-decide-print-mode-3": [
        "a hook failed: ConnectionError('the policy service is down')"
    ],
    "extend:never-silently-bypassed-1": ["('tools',) plugin"],
    "fleet:many-runs-at-once-the-fleet-1": ["3 of 3 succeeded in "],
    "fleet:isolation-1": [
        "task-1 ('src/cart.py', 'tests/test_cart_totals.py')",
        "task-2 ('src/cart.py', 'tests/test_cart_totals.py')",
        "2 of 2 succeeded",
    ],
    "fleet:on-a-ray-cluster-1": ["2 of 2 succeeded on Ray"],
    "testing:testing-code-built-on-agent-sdk-1": ["played: Hi"],
    "testing:recipe-a-hook-against-a-command-you-choose-1": [
        "$ touch deployed rejected (by the hook)"
    ],
    "sessions:the-chat-id-chosen-up-front-1": ["True"],
    "sessions:checkpointed-runs-1": [
        "('src/cart.py',) ('tests/test_cart_totals.py',)\n('src/cart.py',) "
        "('tests/test_cart_totals.py',)\n"
    ],
    "traces:tracing-a-run-1": [
        "execute_tool readToolCall read src/cart.py\n",
        "execute_tool shellToolCall $ pytest -q tests/test_cart.py\n",
        "invoke_agent cursor-agent",
    ],
    "traces:spans-1": [
        '"name": "invoke_agent cursor-agent"',
        '"agent_sdk.tool.label": "$ pytest -q tests/test_cart.py"',
    ],
    # The fake's example value of the schema: the first verdict, one finding.
    "output:structured-output-ask-for-a-type-get-a-validated-value-1": ["approve\nexample:1 ["],
    "live:sessions-1": [" Say Hello\n"],  # the loaded session's title
    "live:turns-and-events-1": [
        "shellToolCall ShellArgs(command='ls tests'",
        "Added tests/test_cart.py.\nend_turn ",
    ],
    "live:subagents-1": [
        "] cart.py, test_cart.py, README.md.\n",
        "generalPurpose completed List the files",
    ],
    "live:cancel-and-timeouts-1": ["cancelling: $ sleep 40\nTrue cancelled"],
    # Both turns asked for `pytest -q` and the callback allowed it.
    "live:approvals-1": [
        "Running the tests: all 12 pass.\nRunning the tests: all 12 pass. end_turn"
    ],
}
# A block that needs a package the lean `test` extra leaves out, by id: the module it
# imports, and the reason a reader sees when it is missing.
FULL = "pip install -e '.[test-full]' to run it"
BLOCK_NEEDS: dict[str, tuple[str, str]] = {
    "fleet:on-a-ray-cluster-1": ("ray", f"needs Ray ({FULL})"),
    "traces:tracing-a-run-1": ("opentelemetry.sdk", f"needs the OpenTelemetry SDK ({FULL})"),
    "traces:spans-1": ("opentelemetry.sdk", f"needs the OpenTelemetry SDK ({FULL})"),
}


def block_env(block: Block) -> dict[str, str]:
    env = {**os.environ, "CURSOR_AGENT_BIN": fake_agent.executable()}
    for name in ("FAKE_AGENT_SCENARIO", "CURSOR_API_KEY", "CURSOR_AUTH_TOKEN", "PYTHONPATH"):
        env.pop(name, None)  # the block runs as a reader's script would, on the defaults
    env.update(BLOCK_ENV.get(block.id, {}))
    return env


def run_block(block: Block, where: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *command],
        cwd=where,
        env=block_env(block),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def failure(block: Block, proc: subprocess.CompletedProcess[str]) -> str:
    return (
        f"{block.where} ({block.heading!r}, block {block.number}) exited with "
        f"{proc.returncode}\n--- code\n{block.code}--- stdout\n{proc.stdout}"
        f"--- stderr\n{proc.stderr}"
    )


def skip_unless_installed(block: Block) -> None:
    if (need := BLOCK_NEEDS.get(block.id)) is not None:
        module, reason = need
        if importlib.util.find_spec(module.split(".")[0]) is None or (
            importlib.util.find_spec(module) is None
        ):
            pytest.skip(f"{block.where}: {reason}")


def left_behind(where: Path, script: Path) -> list[str]:
    return sorted(str(p.relative_to(where)) for p in where.rglob("*") if p != script)


# The README's blocks in the README's test command; those of docs/ in CI (tests/heavy.py).
LEAN_BLOCKS = [block for block in BLOCKS if block.path == README]


@pytest.mark.parametrize(
    "block", lean_sample(BLOCKS, LEAN_BLOCKS), ids=[block.id for block in BLOCKS]
)
def test_python_block_runs_verbatim(block: Block, tmp_path: Path) -> None:
    skip_unless_installed(block)
    where = tmp_path / "reader"
    where.mkdir()
    script = where / "block.py"
    script.write_text(block.code, encoding="utf-8")
    proc = run_block(block, where, str(script))
    assert proc.returncode == 0, failure(block, proc)
    for expected in BLOCK_OUTPUT.get(block.id, []):
        assert expected in proc.stdout, failure(block, proc)
    assert left_behind(where, script) == [], f"{block.where}: a reader's directory got files"


TEST_BLOCKS = [block for block in BLOCKS if re.search(r"^def test_", block.code, re.MULTILINE)]


@pytest.mark.parametrize(
    "block",
    lean_sample(TEST_BLOCKS, [block for block in TEST_BLOCKS if block.path == README]),
    ids=[block.id for block in TEST_BLOCKS],
)
def test_pytest_block_passes_under_pytest(block: Block, tmp_path: Path) -> None:
    skip_unless_installed(block)
    script = tmp_path / "test_block.py"
    script.write_text(block.code, encoding="utf-8")
    proc = run_block(block, tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider", script.name)
    assert proc.returncode == 0, failure(block, proc)
    assert re.search(r"\b[1-9]\d* passed\b", proc.stdout), failure(block, proc)


@pytest.mark.parametrize("path", documents(), ids=lambda path: path.name)
def test_every_python_fence_is_a_block(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    openings = [
        line
        for line in text.splitlines()
        if (m := FENCE.match(line)) and m.group("lang").lower() in PYTHON
    ]
    found = [block for block in BLOCKS if block.path == path]
    assert len(openings) == len(found)
    assert all(block.code.strip() for block in found)


def test_the_readme_has_python_blocks_and_a_pytest_one() -> None:
    readme = [block for block in BLOCKS if block.id.startswith("readme:")]
    assert readme, "no ```python block found in README.md"
    assert [block for block in TEST_BLOCKS if block.id.startswith("readme:")]


@pytest.mark.parametrize(
    ("block_id", "name", "value"),
    sorted((bid, *item) for bid, env in BLOCK_ENV.items() for item in env.items()),
)
def test_what_a_block_needs_is_shown_on_its_page(block_id: str, name: str, value: str) -> None:
    """A reader sees every variable a block runs with: nothing set out of sight."""
    (block,) = [block for block in BLOCKS if block.id == block_id]
    assert f"{name}={value}" in block.path.read_text(encoding="utf-8")


def test_block_ids_are_unique_and_the_tables_name_real_blocks() -> None:
    ids = [block.id for block in BLOCKS]
    assert len(ids) == len(set(ids)), ids
    for table in (BLOCK_ENV, BLOCK_OUTPUT, BLOCK_NEEDS):
        assert set(table) <= set(ids), sorted(set(table) - set(ids))


def test_extraction_reads_fences_and_headings() -> None:
    text = (
        "# Title\n\n```python\nprint(1)\n```\n\n## Part two\n\n```sh\necho hi\n```\n\n"
        "  ```python\n  if True:\n      print(2)\n  ```\n"
    )
    assert fenced_blocks(text) == [
        ("python", "Title", 3, "print(1)\n"),
        ("sh", "Part two", 9, "echo hi\n"),
        ("python", "Part two", 13, "if True:\n    print(2)\n"),
    ]
