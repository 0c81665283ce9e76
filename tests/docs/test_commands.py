"""The README's shell commands are the ones CI runs, and its one-liners work as written.

``.ci/run`` runs the README's two commands (the main job, the tests) and the heavy tests of
"Development" step by step, so that a failure says which step: each step of each README
command must be there, with the same arguments (CI may only add quiet flags). The export
line of the tour is run here: it must point agent_sdk at the bundled fake agent.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from blocks import README, ROOT, fenced_blocks

import fake_agent

CI = ROOT / ".ci" / "run"
QUIET = {"--quiet", "--disable-pip-version-check", "-q", "-p", "no:cacheprovider"}
BIN = Path(sys.executable).parent


def readme_commands() -> list[str]:
    """Every command line of the README's sh blocks."""
    lines = []
    for lang, _heading, _line, code in fenced_blocks(README.read_text(encoding="utf-8")):
        if lang in {"sh", "bash", "console"}:
            lines += [line.strip() for line in code.splitlines() if line.strip()]
    return lines


def steps(line: str) -> list[list[str]]:
    """A command line's steps (split on ``&&``), each without CI's quiet flags."""
    words = [word for word in shlex.split(line) if word not in QUIET]
    out: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            out.append([])
        else:
            out[-1].append(word)
    return [step for step in out if step]


def ci_steps() -> list[list[str]]:
    found = []
    for line in CI.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and line.startswith((".venv/", "python3", "AGENT")):
            words = shlex.split(line, comments=True)
            words = [w for w in words if "=" not in w or w.startswith("-")]  # env assignments
            if ">" in words:  # a redirection: not part of the command
                at = words.index(">")
                words = words[:at] + words[at + 2 :]
            found += steps(shlex.join(words))
    return found


INSTALL_AND_TEST = [line for line in readme_commands() if "pip install" in line]


def test_the_readme_has_the_two_commands_and_the_heavy_one() -> None:
    assert len(INSTALL_AND_TEST) == 3, INSTALL_AND_TEST
    assert "--fake-if-missing" in INSTALL_AND_TEST[0]
    assert "'.[test]'" in INSTALL_AND_TEST[1]
    assert "-m heavy" in INSTALL_AND_TEST[2]


@pytest.mark.parametrize("line", INSTALL_AND_TEST)
def test_ci_runs_every_step_of_the_readmes_commands(line: str) -> None:
    ran = ci_steps()
    for step in steps(line):
        if step[0].endswith("/pip") and "." in step[-1] and step[-1].startswith("."):
            continue  # `pip install .` of the main job: CI installs the same checkout with -e
        assert step in ran, f"the README runs {shlex.join(step)!r}; .ci/run does not"


def test_the_tours_export_line_points_agent_sdk_at_the_fake(tmp_path: Path) -> None:
    (export,) = [line for line in readme_commands() if line.startswith("export CURSOR_AGENT_BIN")]
    command = export.split('"$(', 1)[1].split(')"', 1)[0]
    words = shlex.split(command)
    assert words[0] == ".venv/bin/agent-sdk"
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("CURSOR_AGENT_BIN", None)
    done = subprocess.run(
        [str(BIN / "agent-sdk"), *words[1:]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == fake_agent.executable()
