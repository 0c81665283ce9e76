"""The checkpoints' tests run real git, on a repository made for each test, with none of
the machine's git configuration, and a temp dir of their own (to see what stays there)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from checkpoint_trees import make_repo
from gitrepo import isolate_git


@pytest.fixture(autouse=True)
def git_setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path)


@pytest.fixture(autouse=True)
def temp_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The system's temp dir, for this test and the processes it starts: where the
    checkpoints' scratch directories go, and must not stay."""
    path = tmp_path / "tmp"
    path.mkdir()
    monkeypatch.setenv("TMPDIR", str(path))
    monkeypatch.setattr(tempfile, "tempdir", str(path))
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository on ``main`` (see ``make_repo``), with the user's work in progress."""
    return make_repo(tmp_path / "repo")
