"""The examples as a new user first runs them: from a fresh shell, with the default
arguments, maybe before installing the web extra.

Each runs as ``python examples/x.py`` against the bundled fake agent, from a directory of
its own standing for the repository's root: an example must leave nothing there (it
writes where the user says, else under a temporary directory, and says where).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from example_runs import EXAMPLES, run_example

# Makes `import starlette` and `import uvicorn` fail, as they do after `pip install .`
# without the web extra.
_NO_WEB = """
import sys


class _NoWeb:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("starlette", "uvicorn"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoWeb())
"""


def _without_the_web_extra(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(_NO_WEB)
    env = {**os.environ, "AGENT_SDK_EXAMPLES_FAKE": "1", "PYTHONPATH": str(tmp_path)}
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "sse_server.py"), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


# --- sse_server.py ------------------------------------------------------------------------
def test_sse_server_help_needs_no_web_extra(tmp_path: Path) -> None:
    done = _without_the_web_extra(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: sse_server.py ")
    assert "--max-runs N" in done.stdout
    assert done.stderr == ""


def test_sse_server_without_the_web_extra_says_what_to_install(tmp_path: Path) -> None:
    done = _without_the_web_extra(tmp_path, "0")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        "sse_server.py: error: the web page needs Starlette and uvicorn, which are not "
        "installed: pip install -e '.[web]' (from the repository's root)"
    )


# --- batch.py -----------------------------------------------------------------------------
def test_batch_leaves_nothing_where_it_runs_and_says_where_its_summary_is(
    tmp_path: Path,
) -> None:
    root = tmp_path / "checkout"
    root.mkdir()
    done = run_example("batch.py", cwd=root)
    assert done.returncode == 1, done.stderr  # three of the built-in prompts fail
    assert list(root.iterdir()) == []
    said = done.stdout.splitlines()[-1]
    assert said.startswith("9 ok, 3 failed; summary in ")
    where = Path(said.removeprefix("9 ok, 3 failed; summary in ").split(" (")[0])
    assert where.is_absolute()
    assert json.loads(where.read_text(encoding="utf-8"))["total"] == 12
    assert said.endswith(" (--out FILE puts it elsewhere)")


def test_batch_writes_its_summary_where_the_user_says(tmp_path: Path) -> None:
    out = tmp_path / "mine.json"
    done = run_example("batch.py", "--out", out, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == f"9 ok, 3 failed; summary in {out}"
    assert json.loads(out.read_text(encoding="utf-8"))["failed"] == 3


# --- fix_failing_tests.py -----------------------------------------------------------------
def test_fix_failing_tests_leaves_nothing_where_it_runs_and_says_where_its_report_is(
    tmp_path: Path,
) -> None:
    root = tmp_path / "checkout"
    root.mkdir()
    done = run_example("fix_failing_tests.py", cwd=root)
    assert done.returncode == 0, done.stderr
    assert list(root.iterdir()) == []
    output = done.stdout + done.stderr
    assert output.count("report:") == 1, output
    said = next(line for line in output.splitlines() if line.startswith("report: "))
    report = Path(said.removeprefix("report: "))
    assert report.is_absolute()
    assert "tests.test_quantities" in report.read_text(encoding="utf-8")
