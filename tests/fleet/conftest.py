"""The fleet's tests run real git: on any machine, with none of its configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import isolate_git


@pytest.fixture(autouse=True)
def git_setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path)
