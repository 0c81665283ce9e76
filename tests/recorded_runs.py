"""The recorded runs of the real ``cursor-agent`` that the contract tests check agent_sdk
against, and what a test says when they are not here.

They are the stdout of real runs, published by third parties (the sources are listed in
the folder's ``captures/README.md``), with the contract that was read from them
(``cli-protocol.md``). They are not ours to copy, so they stay out of this repository, in
a folder ``shared`` beside the checkout. Without it the tests that read them skip, saying
what is missing and where it goes; under CI (``$CI`` set) they fail instead: CI always
has the folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

__all__ = ["CAPTURES", "CONTRACT", "SHARED", "missing", "require_recorded_runs"]

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CAPTURES = SHARED / "captures"
CONTRACT = SHARED / "cli-protocol.md"


def missing(shared: Path = SHARED, *, contract: bool = False) -> str | None:
    """Why the recorded runs in ``shared`` cannot be read, in a user's terms; ``None``
    when they can (and the contract too, with ``contract``)."""
    runs = shared / "captures"
    has_runs = runs.is_dir() and any(runs.glob("*.ndjson"))
    if has_runs and (not contract or (shared / "cli-protocol.md").is_file()):
        return None
    needed = "captures/*.ndjson and cli-protocol.md" if contract else "captures/*.ndjson"
    return (
        "needs the recorded runs of the real cursor-agent, which are not in this repository "
        f"(third parties' output, not ours to copy): put the folder that holds them ({needed}) "
        f"at {shared}, beside this checkout, to run it"
    )


def require_recorded_runs(*, contract: bool = False) -> list[Path]:
    """The recorded runs (``.ndjson`` files); skip the test when they are not here (with
    ``contract``: nor the contract), or fail it under CI."""
    reason = missing(contract=contract)
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must have them")
        pytest.skip(reason)
    return sorted(CAPTURES.glob("*.ndjson"))
