"""The agent changing files: ``write_file``, ``delete_file`` and the ``fix_tests`` scenario,
in the run's workspace, shown as the real CLI's writeToolCall/deleteToolCall; simulated
unless a scenario line or the run asks for real changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fake_env import clean_env, fake_env

import fake_agent
from agent_sdk import AgentOptions, run_sync
from fake_agent import SCENARIOS_DIR

WAIT = 60


def run(
    cwd: Path,
    *args: str,
    scenario: str | Path,
    force: bool = True,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    flags = ["-p", "--trust", "--output-format", "stream-json", *(["--force"] if force else [])]
    return subprocess.run(
        [sys.executable, "-m", "fake_agent", *flags, *args, "--", "go"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(FAKE_AGENT_SCENARIO=str(scenario), **(env or {})),
        cwd=cwd,
        timeout=WAIT,
        check=False,
    )


def scenario(tmp_path: Path, *steps: dict[str, Any]) -> Path:
    """init, user, ``steps``, then a successful result."""
    hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
    lines = [*hello[:2], *(json.dumps(step) for step in steps), *hello[2:]]
    path = tmp_path / "scenario.ndjson"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def tool_calls(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    found = [json.loads(line) for line in proc.stdout.split(b"\n") if line]
    return [e for e in found if e["type"] == "tool_call"]


def outcome(event: dict[str, Any], kind: str) -> dict[str, Any]:
    result: dict[str, Any] = event["tool_call"][kind]["result"]
    return result


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    """(where the scenario lives, an empty workspace)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return tmp_path, workspace


def test_write_file_writes_in_the_workspace_and_shows_a_write_tool_call(
    dirs: tuple[Path, Path],
) -> None:
    here, ws = dirs
    text = "print('héllo')\nx = 1"
    step = {
        "fake": "write_file",
        "path": "src/pkg/x.py",
        "text": text,
        "call_id": "c1",
        "real": True,
    }
    proc = run(here, f"--workspace={ws}", scenario=scenario(here, step))
    assert proc.returncode == 0
    assert (ws / "src" / "pkg" / "x.py").read_bytes() == text.encode()
    assert sorted(p.name for p in here.iterdir()) == ["scenario.ndjson", "ws"]
    started, completed = tool_calls(proc)
    args = {"path": "src/pkg/x.py", "fileText": text, "toolCallId": "c1"}
    assert started["subtype"] == "started"
    assert started["tool_call"]["writeToolCall"] == {"args": args}
    assert started["call_id"] == completed["call_id"] == "c1"
    assert completed["tool_call"]["writeToolCall"]["args"] == args
    success = {"path": str(ws / "src" / "pkg" / "x.py"), "linesCreated": 2, "fileSize": 21}
    assert outcome(completed, "writeToolCall") == {"success": success}
    times = completed["tool_call"]
    assert int(times["startedAtMs"]) <= int(times["completedAtMs"])
    assert started["session_id"] == completed["session_id"] != "fake-files-session"


def test_write_file_replaces_a_file_in_the_current_directory(dirs: tuple[Path, Path]) -> None:
    here, ws = dirs
    (ws / "a.txt").write_text("old old old\n")
    step = {"fake": "write_file", "path": "./a.txt", "text": "new\n", "real": True}
    proc = run(ws, scenario=scenario(here, step))
    assert proc.returncode == 0
    assert (ws / "a.txt").read_text() == "new\n"
    completed = tool_calls(proc)[1]
    assert completed["call_id"].startswith("tool_")
    assert outcome(completed, "writeToolCall")["success"]["linesCreated"] == 1


def test_without_force_the_calls_are_rejected_and_nothing_changes(
    dirs: tuple[Path, Path],
) -> None:
    here, ws = dirs
    (ws / "keep.txt").write_text("keep\n")
    steps = [
        {"fake": "write_file", "path": "new.txt", "text": "x", "real": True},
        {"fake": "delete_file", "path": "keep.txt", "real": True},
    ]
    proc = run(ws, scenario=scenario(here, *steps), force=False)
    assert proc.returncode == 0
    assert sorted(p.name for p in ws.iterdir()) == ["keep.txt"]
    calls = tool_calls(proc)
    rejected = {"rejected": {"path": "", "reason": ""}}
    assert outcome(calls[1], "writeToolCall") == rejected
    assert outcome(calls[3], "deleteToolCall") == rejected


def test_delete_file_deletes_and_a_missing_file_is_an_error_outcome(
    dirs: tuple[Path, Path],
) -> None:
    here, ws = dirs
    (ws / "old").mkdir()
    (ws / "old" / "gone.py").write_text("x = 1\n")
    steps = [
        {"fake": "delete_file", "path": "old/gone.py", "call_id": "d1", "real": True},
        {"fake": "delete_file", "path": "old/gone.py", "call_id": "d2", "real": True},
    ]
    proc = run(here, f"--workspace={ws}", scenario=scenario(here, *steps))
    assert proc.returncode == 0
    assert not (ws / "old" / "gone.py").exists()
    calls = tool_calls(proc)
    assert calls[0]["tool_call"]["deleteToolCall"] == {
        "args": {"path": "old/gone.py", "toolCallId": "d1"}
    }
    assert outcome(calls[1], "deleteToolCall") == {"success": {}}
    error = outcome(calls[3], "deleteToolCall")["error"]["message"]
    assert "No such file or directory" in error
    assert str(ws / "old" / "gone.py") in error


@pytest.mark.parametrize("path", ["/etc/x", "../x", "a/../../x", ".", "a/..", "\\x", "C:\\x", ""])
@pytest.mark.parametrize("kind", ["write_file", "delete_file"])
def test_paths_leaving_the_workspace_are_refused_at_load(
    dirs: tuple[Path, Path], kind: str, path: str
) -> None:
    here, ws = dirs
    step = {"fake": kind, "path": path, **({"text": "x"} if kind == "write_file" else {})}
    proc = run(ws, scenario=scenario(here, step))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert f"directive {kind!r}".encode() in proc.stderr
    assert list(ws.iterdir()) == []


def test_a_symlink_out_of_the_workspace_is_an_error_outcome(dirs: tuple[Path, Path]) -> None:
    here, ws = dirs
    outside = here / "outside"
    outside.mkdir()
    os.symlink(outside, ws / "link")
    step = {"fake": "write_file", "path": "link/x", "text": "x", "real": True}
    proc = run(ws, scenario=scenario(here, step))
    assert proc.returncode == 0
    assert list(outside.iterdir()) == []
    assert (
        "outside the workspace" in outcome(tool_calls(proc)[1], "writeToolCall")["error"]["message"]
    )


# --------------------------------------------------------------- simulated or real
# A run leaves the user's files alone unless it asks for real changes: a reader who plays
# a bundled scenario from their own checkout (README.md's hooks block, issue_bot) finds
# nothing left behind. The calls, their outcomes and the hooks are the same either way.
def test_a_file_change_is_simulated_unless_asked_for(dirs: tuple[Path, Path]) -> None:
    here, ws = dirs
    (ws / "old.txt").write_text("old\n")
    steps = [
        {"fake": "write_file", "path": "src/new.py", "text": "x = 1\n", "call_id": "w"},
        {"fake": "delete_file", "path": "old.txt", "call_id": "d"},
        {"fake": "delete_file", "path": "missing.txt", "call_id": "m"},
    ]
    proc = run(here, f"--workspace={ws}", scenario=scenario(here, *steps))
    assert proc.returncode == 0
    assert sorted(p.name for p in ws.iterdir()) == ["old.txt"]  # as it was
    assert (ws / "old.txt").read_text() == "old\n"
    calls = tool_calls(proc)
    success = {"path": str(ws / "src" / "new.py"), "linesCreated": 1, "fileSize": 6}
    assert outcome(calls[1], "writeToolCall") == {"success": success}
    assert outcome(calls[3], "deleteToolCall") == {"success": {}}
    # What a real delete of a missing file says, though nothing was deleted.
    missing = f"No such file or directory: {ws / 'missing.txt'}"
    assert outcome(calls[5], "deleteToolCall") == {"error": {"message": missing}}


@pytest.mark.parametrize(
    ("line", "files", "real"),
    [
        ({"real": True}, None, True),  # the scenario asks
        ({}, "real", True),  # the run asks
        ({"real": True}, "simulated", False),  # the run overrides the scenario
        ({}, "", False),  # empty: as unset
    ],
)
def test_a_scenario_line_or_the_run_asks_for_real_changes(
    dirs: tuple[Path, Path], line: dict[str, Any], files: str | None, real: bool
) -> None:
    here, ws = dirs
    step = {"fake": "write_file", "path": "notes.txt", "text": "hi\n", **line}
    env = {} if files is None else {"FAKE_AGENT_FILES": files}
    proc = run(here, f"--workspace={ws}", scenario=scenario(here, step), env=env)
    assert proc.returncode == 0, proc.stderr
    assert (ws / "notes.txt").exists() is real
    assert "success" in outcome(tool_calls(proc)[1], "writeToolCall")


def test_an_unknown_files_setting_fails_before_any_output(dirs: tuple[Path, Path]) -> None:
    here, ws = dirs
    step = {"fake": "write_file", "path": "notes.txt", "text": "hi\n"}
    proc = run(ws, scenario=scenario(here, step), env={"FAKE_AGENT_FILES": "yes"})
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"FAKE_AGENT_FILES must be one of 'real', 'simulated', not 'yes'" in proc.stderr


def test_real_must_be_a_bool(dirs: tuple[Path, Path]) -> None:
    here, ws = dirs
    step = {"fake": "write_file", "path": "notes.txt", "text": "hi\n", "real": "yes"}
    proc = run(ws, scenario=scenario(here, step))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"real" in proc.stderr


def test_the_issue_bot_scenario_leaves_the_directory_it_runs_in_unchanged(
    tmp_path: Path,
) -> None:
    # README.md's hooks block, as a reader runs it from their checkout: force=True, and a
    # scenario that writes triage.md.
    cwd, home = tmp_path / "checkout", tmp_path / "home"
    cwd.mkdir()
    home.mkdir()
    env = clean_env(FAKE_AGENT_SCENARIO="issue_bot", HOME=str(home))
    options = AgentOptions(binary=fake_agent.executable(), cwd=cwd, force=True, env=env)
    result = run_sync("Triage issue 26", options=options)
    (write,) = [call for call in result.tool_calls if call.kind == "writeToolCall"]
    assert write.outcome == "success"
    assert list(cwd.iterdir()) == []
    # Asked for, the write is real.
    env["FAKE_AGENT_FILES"] = "real"
    run_sync("Triage issue 26", options=msgspec.structs.replace(options, env=env))
    assert (cwd / "triage.md").read_text() == "issue 26: triaged\n"


# --------------------------------------------------------------------------- fix_tests


def fix_tests_writes() -> dict[str, str]:
    lines = (SCENARIOS_DIR / "fix_tests.ndjson").read_text("utf-8").splitlines()
    steps = [json.loads(line) for line in lines]
    return {s["path"]: s["text"] for s in steps if s.get("fake") == "write_file"}


def test_fix_tests_fixes_the_cart_and_adds_a_test_file(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "cart.py").write_text("def total(items):\n    return 0\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_cart.py").write_text("# untouched\n")
    proc = run(tmp_path, scenario="fix_tests")
    assert (proc.returncode, proc.stderr) == (0, b"")
    writes = fix_tests_writes()
    assert set(writes) == {"src/cart.py", "tests/test_cart_totals.py"}
    for path, text in writes.items():
        assert (tmp_path / path).read_text() == text
    assert (tmp_path / "tests" / "test_cart.py").read_text() == "# untouched\n"
    completed = [e for e in tool_calls(proc) if e["subtype"] == "completed"]
    kinds = [next(k for k in e["tool_call"] if k.endswith("ToolCall")) for e in completed]
    assert kinds == [
        "shellToolCall",
        "readToolCall",
        "writeToolCall",
        "writeToolCall",
        "shellToolCall",
    ]
    assert [outcome(e, "writeToolCall")["success"]["path"] for e in completed[2:4]] == [
        str(tmp_path / "src" / "cart.py"),
        str(tmp_path / "tests" / "test_cart_totals.py"),
    ]


def test_fix_tests_works_in_an_empty_directory_and_its_fix_passes_its_test(
    tmp_path: Path,
) -> None:
    assert run(tmp_path, scenario="fix_tests").returncode == 0
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py")) == [
        "src/cart.py",
        "tests/test_cart_totals.py",
    ]
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        capture_output=True,
        cwd=tmp_path,
        env=fake_env(),
        timeout=WAIT,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout.decode()
