"""What a checkpoint costs (docs/sessions.md, "Checkpoints"): on a repository of 1,000 files
and one of 50,000, each committed, its index fresh (as after the user's ``git status``).

    python benchmarks/checkpoints.py                  # 1,000 and 50,000 files (a few minutes)
    python benchmarks/checkpoints.py --files 1000     # one size

For each size: ``git status`` (what the user pays already, for scale), a checkpoint of
the clean tree, ``running`` entered and left (what a run holding the tree pays), then a
"run" that modifies 10 files, deletes 5 and adds 10, and:
``finish`` (the snapshot after it), ``changes`` (the diff as values) and ``rewind`` (the
25 files put back). Every round makes and rewinds its own checkpoint and removes it; the
best of the rounds is kept. The figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import anyio

from agent_sdk import checkpoints

T = TypeVar("T")
PER_DIR = 100
STEPS = ("git status", "checkpoint", "running", "finish", "changes", "rewind")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def make_repo(where: Path, count: int) -> Path:
    """``count`` small text files in directories of 100, committed."""
    repo = where / f"repo-{count}"
    repo.mkdir()
    for i in range(count):
        folder = repo / f"d{i // PER_DIR:04}"
        if i % PER_DIR == 0:
            folder.mkdir()
        (folder / f"f{i:06}.py").write_text(f"# file {i}\nVALUE = {i}\n" + "x = 1\n" * 20)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b"}
    env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "base"], check=True, env=env)
    git(repo, "status", "--porcelain")  # the index's stat cache fresh, as the user's is
    return repo


def the_run(repo: Path, count: int) -> None:
    """What the benchmark's "run" changes: 10 files modified, 5 deleted, 10 added."""
    step = max(1, count // 25)
    names = [repo / f"d{i // PER_DIR:04}" / f"f{i:06}.py" for i in range(0, count, step)][:15]
    for path in names[:10]:
        path.write_text(path.read_text() + "# the agent was here\n")
    for path in names[10:15]:
        path.unlink()
    (repo / "new").mkdir()
    for i in range(10):
        (repo / "new" / f"n{i}.py").write_text(f"NEW = {i}\n")


async def timed(job: Callable[[], Awaitable[T]]) -> tuple[float, T]:
    started = time.perf_counter()
    result = await job()
    return time.perf_counter() - started, result


async def git_status(repo: Path) -> None:
    await anyio.run_process(["git", "-C", str(repo), "status", "--porcelain"])


async def hold(repo: Path) -> None:
    async with checkpoints.running(repo):
        pass


async def one_round(repo: Path, count: int) -> dict[str, float]:
    took: dict[str, float] = {}
    took["git status"], _ = await timed(lambda: git_status(repo))
    took["checkpoint"], cp = await timed(lambda: checkpoints.checkpoint(repo))
    took["running"], _ = await timed(lambda: hold(repo))
    the_run(repo, count)
    took["finish"], cp = await timed(lambda: checkpoints.finish(cp))
    took["changes"], changed = await timed(lambda: checkpoints.changes(cp))
    assert len(changed.files) == 25, changed.files
    took["rewind"], result = await timed(lambda: checkpoints.rewind(cp))
    assert len(result.restored) + len(result.removed) == 25, result
    await checkpoints.remove_checkpoint(cp)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, nargs="+", default=[1000, 50000])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    where = Path(tempfile.mkdtemp(prefix="bench-checkpoints-"))
    try:
        print(f"best of {args.rounds} rounds, in milliseconds")
        print("| files | " + " | ".join(STEPS) + " |")
        print("| --- |" + " --- |" * len(STEPS))
        for count in args.files:
            started = time.perf_counter()
            repo = make_repo(where, count)
            made = time.perf_counter() - started
            best = dict.fromkeys(STEPS, float("inf"))
            for _ in range(args.rounds):
                took = anyio.run(one_round, repo, count)
                best = {step: min(best[step], took[step]) for step in STEPS}
            figures = " | ".join(f"{best[step] * 1000:.0f}" for step in STEPS)
            print(f"| {count:,} | {figures} |   (repository made in {made:.0f} s)")
            shutil.rmtree(repo)
    finally:
        shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()
