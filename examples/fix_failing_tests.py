"""Fix every failing test of a repository: one agent per failing test module, each in its
own git worktree, then a report of what each changed.

    python examples/fix_failing_tests.py                  # on a small generated repository
    python examples/fix_failing_tests.py ~/src/shop       # on yours (tests/test_*.py, unittest)
    python examples/fix_failing_tests.py --report fixes.html

It finds the failing modules with ``python -m unittest`` (no test runner to install), hands
one task per module to ``agent-sdk batch`` (a fleet: at most 3 agents at once, each in a
worktree of the repository, a retry for failures worth retrying), reads back its ``--json``
summary and prints, for each module, whether the agent succeeded and which files it
changed. The repository itself is never touched: the changes are in the report's diffs,
to review and apply. The report is a page to open in a browser, written where
``--report`` says, else into a new temporary directory (never into the directory you run
this from); ``agent-sdk batch`` says where, once, as it ends.

With the bundled fake agent (see ``_agent.py``) every task plays the ``fix_tests``
scenario, which really rewrites ``src/cart.py`` and adds ``tests/test_cart_totals.py`` in
its worktree.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__:
    from ._agent import default_options, using_fake
else:
    from _agent import default_options, using_fake

CART = '''def total(items):
    """The total price of the cart."""
    return sum(float(item["price"]) for item in items)
'''
TEST = """import unittest

from src.cart import total


class {name}(unittest.TestCase):
    def test_{case}(self):
        self.assertEqual(total({items}), {expected})
"""
CASES = {
    "test_quantities": ("Quantities", "three_of_one", '[{"price": "2", "qty": 3}]', 6),
    "test_mixed": ("Mixed", "two_lines", '[{"price": "1", "qty": 2}, {"price": "3"}]', 5),
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def make_shop(where: Path) -> Path:
    """A small git repository whose cart ignores quantities, and two failing test modules."""
    repo = where / "shop"
    (repo / "src").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "src" / "__init__.py").write_text("")
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "src" / "cart.py").write_text(CART)
    for module, (name, case, items, expected) in CASES.items():
        test = TEST.format(name=name, case=case, items=items, expected=expected)
        (repo / "tests" / f"{module}.py").write_text(test)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    identity = ["-c", "user.name=agent_sdk example", "-c", "user.email=example@invalid"]
    git(repo, *identity, "commit", "-q", "-m", "A shop whose totals ignore quantities")
    return repo


def failing_modules(repo: Path) -> list[str]:
    """The test modules of ``repo`` that fail, as ``tests.test_x``."""
    failing = []
    for path in sorted((repo / "tests").glob("test_*.py")):
        module = f"tests.{path.stem}"
        done = subprocess.run(
            [sys.executable, "-m", "unittest", module], cwd=repo, capture_output=True
        )
        if done.returncode != 0:
            failing.append(module)
    return failing


def batch(repo: Path, modules: list[str], work: Path, report: Path) -> dict[str, object]:
    """Run one agent per module with ``agent-sdk batch``; its JSON summary."""
    tasks = work / "tasks.jsonl"
    lines = [
        {
            "id": module,
            "prompt": f"The tests in {module.replace('.', '/')}.py fail. Find out why from "
            "the code under test and fix it there; do not weaken the tests.",
            "repo": str(repo),
            "options": {"force": True},  # the agent edits files in its own worktree
        }
        for module in modules
    ]
    tasks.write_text("".join(json.dumps(line) + "\n" for line in lines))
    agent = ["--fake", "fix_tests"] if using_fake() else []
    argv = [sys.executable, "-m", "agent_sdk", "batch", str(tasks), *agent]
    argv += ["--limit", "3", "--isolate", "worktree", "--retries", "1"]
    argv += ["--json", "--html", str(report)]
    done = subprocess.run(argv, stdout=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):  # 1: some task failed, which the summary says
        raise SystemExit(f"agent-sdk batch failed with exit status {done.returncode}")
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", nargs="?", help="a git repository (default: a generated one)")
    parser.add_argument(
        "--report", help="where the HTML report goes (default: a new temporary directory)"
    )
    args = parser.parse_args()
    default_options()  # says on stderr which agent the tasks will run
    if args.report is None:  # not into the repository, or wherever the user happens to be
        report = Path(tempfile.mkdtemp(prefix="agent_sdk_fixes_")) / "fix_failing_tests.html"
    else:
        report = Path(args.report).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        repo = Path(args.repo).resolve() if args.repo else make_shop(work)
        modules = failing_modules(repo)
        if not modules:
            print(f"no failing test module in {repo}")
            return 0
        # Before the batch's own lines, which go straight to the terminal.
        print(f"{len(modules)} failing: {', '.join(modules)}", flush=True)
        summary = batch(repo, modules, work, report)
    results = summary["results"]
    assert isinstance(results, list)
    for result in results:
        changes = result.get("changes") or {}
        files = [*changes.get("modified", []), *changes.get("added", [])]
        mark = "✓" if result["ok"] else "✗"
        print(f"{mark} {result['id']}: {', '.join(files) or 'no change'}")
    # Where the report is, agent-sdk batch said on stderr as it ended: not twice.
    return 0 if summary["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
