"""The output's type is the caller's type, for mypy --strict: checked by running mypy on
code that uses it (the pytest-mypy route would type-check the whole suite)."""

from __future__ import annotations

from pathlib import Path

import pytest

CODE = """
from typing import TypedDict, assert_type

import msgspec

from agent_sdk import Plan, RunResult, Session, run_async, run_sync
from agent_sdk.fleet import Task


class Review(msgspec.Struct):
    verdict: str


class Point(TypedDict):
    x: int


async def main() -> None:
    assert_type(run_sync("p", output_type=Review).output, Review)
    assert_type(run_sync("p").output, None)
    assert_type(run_sync("p").plan, Plan | None)
    assert_type((await run_async("p", output_type=list[int])).output, list[int])
    assert_type((await Session().send("p", output_type=Point)).output, Point)
    result: RunResult[Review] = run_sync("p", output_type=Review)
    wrong: RunResult[int] = run_sync("p", output_type=Review)  # the one error
    Task(prompt="p", output_type=Review)
"""


def test_mypy_sees_the_output_as_the_output_type(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed: pip install -e '.[test]'")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\npython_version = 3.11\n")
    out, _, status = api.run(
        ["--config-file", str(config), "--cache-dir", str(tmp_path / "cache"), "-c", CODE]
    )
    assert status == 1, out
    assert out.count("error:") == 1, out
    # Only the wrong line: every assert_type above holds.
    assert '"type[Review]"; expected "type[int]"' in out
