"""What a contract test says when the recorded runs of the real CLI are not here
(tests/recorded_runs.py): what is missing and where it goes, in a user's terms."""

from __future__ import annotations

from pathlib import Path

from recorded_runs import missing


def test_without_the_recorded_runs_the_reason_says_what_they_are_and_where_they_go(
    tmp_path: Path,
) -> None:
    reason = missing(tmp_path / "shared", contract=True)
    assert reason is not None
    assert reason.startswith("needs the recorded runs of the real cursor-agent, ")
    assert f"(captures/*.ndjson and cli-protocol.md) at {tmp_path / 'shared'}, " in reason
    assert "../shared" not in reason


def test_with_the_recorded_runs_there_is_no_reason_to_skip(tmp_path: Path) -> None:
    (tmp_path / "captures").mkdir()
    (tmp_path / "captures" / "run.ndjson").write_text("{}\n")
    assert missing(tmp_path) is None
    assert missing(tmp_path, contract=True) is not None  # no cli-protocol.md
    (tmp_path / "cli-protocol.md").write_text("# the contract\n")
    assert missing(tmp_path, contract=True) is None
