"""The fixture the tests of ``agent-sdk batch`` share (test_cli_batch_signals.py,
test_cli_batch_worktrees.py): ``git_env``, git isolated from the machine's configuration
(tests/gitrepo.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import isolate_git


@pytest.fixture
def git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path)
