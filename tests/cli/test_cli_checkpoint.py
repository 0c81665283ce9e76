"""``agent-sdk --checkpoint``, ``agent-sdk rewind`` and ``agent-sdk checkpoints`` end to end
(docs/cli.md, "Checkpoints"): ``python -m agent_sdk`` against the fake agent writing for
real, in a repository of real git with the user's work in progress in it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_process import cli
from gitrepo import git, isolate_git

from agent_sdk.checkpoints._lock import Hold, hold

WRITES = (
    '{"type": "system", "subtype": "init", "model": "Fake"}\n'
    '{"fake": "write_file", "path": "a.txt", "text": "the agent\'s\\n", "real": true}\n'
    '{"fake": "write_file", "path": "new/made.txt", "text": "new\\n", "real": true}\n'
    '{"fake": "delete_file", "path": "gone.txt", "real": true}\n'
    '{"type": "result", "subtype": "success", "is_error": false, "result": "done"}\n'
)


@pytest.fixture
def repo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A repository with a commit, a branch, a stash, a staged change and an untracked
    file: the user's, which no command here may disturb."""
    isolate_git(monkeypatch, tmp_path)
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q")
    (path / "a.txt").write_text("one\n")
    (path / "gone.txt").write_text("doomed\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    git(path, "branch", "feature")
    (path / "a.txt").write_text("stashed\n")
    git(path, "stash", "-q")
    (path / "a.txt").write_text("one\nstaged\n")
    git(path, "add", "a.txt")
    (path / "notes.txt").write_text("mine\n")
    return path


@pytest.fixture
def played(tmp_path: Path) -> Path:
    path = tmp_path / "writes.ndjson"
    path.write_text(WRITES)
    return path


def _state(repo: Path) -> tuple[str, ...]:
    return (
        git(repo, "status", "--porcelain=v1", "-uall"),
        git(repo, "stash", "list"),
        git(repo, "for-each-ref", "refs/heads"),
        git(repo, "ls-files", "-s"),
    )


def _run(repo: Path, played: Path, *flags: str) -> tuple[int, str, str]:
    done = cli("--fake", str(played), "--force", "--checkpoint", "--cwd", str(repo), *flags, "go")
    return done.returncode, done.stdout, done.stderr


def test_a_checkpointed_run_shows_its_changes_and_the_rewind_undoes_them(
    repo: Path, played: Path
) -> None:
    before = _state(repo)
    code, _, err = _run(repo, played)
    assert code == 0, err
    assert "changes  3 files: 1 added, 1 modified, 1 deleted" in err
    assert "+ new/made.txt" in err
    assert "~ a.txt" in err
    assert "- gone.txt" in err
    undo = re.search(r"undo     (agent-sdk rewind (\S+) --cwd (\S+))", err)
    assert undo is not None, err
    assert undo.group(3) == str(repo)
    assert "its writes are real" in err  # the fake's note does not say it changed nothing

    done = cli("rewind", undo.group(2), "--cwd", str(repo))
    assert done.returncode == 0, done.stderr
    assert "rewound to checkpoint" in done.stdout
    assert "  restored  a.txt\n  restored  gone.txt\n  removed   new/made.txt\n" in done.stdout
    assert (repo / "a.txt").read_text() == "one\nstaged\n"
    assert _state(repo) == before  # index, stash, branches, untracked: as they were

    again = cli("rewind", "--cwd", str(repo))  # the newest, rewound already
    assert again.returncode == 0
    assert "nothing to put back" in again.stdout


def test_json_ends_with_the_changes(repo: Path, played: Path) -> None:
    code, out, err = _run(repo, played, "--json")
    assert code == 0, err
    last = json.loads(out.splitlines()[-1])
    assert last["type"] == "checkpoint"
    assert last["changes"] == {
        "added": ["new/made.txt"],
        "modified": ["a.txt"],
        "deleted": ["gone.txt"],
    }
    assert last["checkpoint"]["root"] == str(repo)
    assert last["undo"].startswith(f"agent-sdk rewind {last['checkpoint']['id']}")
    assert all(json.loads(line)["type"] != "checkpoint" for line in out.splitlines()[:-1])


def test_outside_git_the_run_is_a_usage_error_before_anything_runs(
    tmp_path: Path, played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git(monkeypatch, tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    code, _, err = _run(outside, played)
    assert code == 2
    assert "--checkpoint: cannot checkpoint" in err
    assert "or run without --checkpoint" in err
    assert not (outside / "new").exists()


def test_a_rewind_refused_says_how_in_flags(repo: Path, played: Path) -> None:
    assert _run(repo, played)[0] == 0
    (repo / "a.txt").write_text("my own edit\n")
    done = cli("rewind", "--cwd", str(repo))
    assert done.returncode == 1
    assert "changed since the run ended" in done.stderr
    assert "--force" in done.stderr
    assert (repo / "a.txt").read_text() == "my own edit\n"
    forced = cli("rewind", "--cwd", str(repo), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (repo / "a.txt").read_text() == "one\nstaged\n"


def test_a_rewind_is_refused_while_a_run_holds_the_tree(repo: Path, played: Path) -> None:
    assert _run(repo, played)[0] == 0
    with hold(repo / ".git", Hold.RUN, "another run"):
        done = cli("rewind", "--cwd", str(repo))
    assert done.returncode == 1
    assert "a run is in progress" in done.stderr
    assert "(another run)" in done.stderr
    assert (repo / "new" / "made.txt").exists()


def test_rewind_usage_errors(repo: Path, tmp_path: Path) -> None:
    none = cli("rewind", "--cwd", str(repo))
    assert none.returncode == 1
    assert "no checkpoint to rewind to" in none.stderr
    unknown = cli("rewind", "20260101-000000-abcdef", "--cwd", str(repo))
    assert unknown.returncode == 2
    assert "agent-sdk checkpoints lists" in unknown.stderr
    assert cli("rewind", "--cwd", str(tmp_path / "nowhere")).returncode == 2
    outside = cli("rewind", "--cwd", str(tmp_path))
    assert outside.returncode == 2
    assert "not in a git working tree" in outside.stderr


def test_checkpoints_lists_and_prunes(repo: Path, played: Path) -> None:
    assert _run(repo, played)[0] == 0
    assert _run(repo, played)[0] == 0  # changes nothing: the files are so already
    listed = cli("checkpoints", "--cwd", str(repo))
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("3 files")
    assert lines[1].endswith("0 files")
    pruned = cli("checkpoints", "--cwd", str(repo), "--keep", "0")
    assert pruned.stdout == "removed 2 checkpoints\nno checkpoint in this tree\n"
    assert git(repo, "for-each-ref", "refs/agent-sdk") == ""


def test_batch_shows_a_checkpointed_tasks_changes(repo: Path, played: Path, tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    line = {"prompt": "go", "id": "one", "repo": str(repo)}
    tasks.write_text(json.dumps(line) + "\n" + json.dumps({**line, "id": "two"}) + "\n")
    flags = ("--fake", str(played), "--force", "--checkpoint")
    refused = cli("batch", *flags, str(tasks))
    assert refused.returncode == 2
    assert "one working tree" in refused.stderr
    assert "--limit 1" in refused.stderr

    report = tmp_path / "report.html"
    done = cli("batch", *flags, "--limit", "1", "--json", "--html", str(report), str(tasks))
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert results[0]["changes"] == {
        "added": ["new/made.txt"],
        "modified": ["a.txt"],
        "deleted": ["gone.txt"],
    }
    assert results[1]["changes"] == {"added": [], "modified": [], "deleted": []}
    html = report.read_text()
    assert "<h3>Changes</h3>" in html
    assert "added: new/made.txt; modified: a.txt; deleted: gone.txt" in html
    labels = cli("checkpoints", "--cwd", str(repo)).stdout
    assert "  one\n" in labels
    assert labels.endswith("  two\n")
