"""The key and the ``agent-sdk`` command: what ``agent-sdk`` (a run) and ``agent-sdk
batch`` print on stdout and stderr, and the reports batch writes, hold it nowhere. The
command's key comes from the environment, an ``--env`` or ``--header`` flag (or, for
batch, a task's options)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from secrets_plant import KEY, MASK, SECRET_VARIABLES, write_scenario

from agent_sdk._options.redaction import Redaction
from agent_sdk.cli.live import RedactedText

Leaky = Callable[..., Path]

COMMAND_PLANTS: dict[str, tuple[list[str], dict[str, str]]] = {
    "environ": ([], {"CURSOR_API_KEY": KEY}),
    "environ token": ([], {"CURSOR_AUTH_TOKEN": KEY}),
    "--env": (["--env", f"CURSOR_API_KEY={KEY}"], {}),
    "--header": (["--header", f"Authorization: Bearer {KEY}"], {}),
}


def agent_sdk(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m agent_sdk ARGS`` run to completion, output captured."""
    drop = ("NO_COLOR", "FAKE_AGENT_SCENARIO", "CURSOR_AGENT_BIN", *SECRET_VARIABLES)
    environ = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run(
        [sys.executable, "-m", "agent_sdk", *args],
        capture_output=True,
        text=True,
        input="",
        timeout=120,
        env={**environ, **env},
    )


@pytest.mark.parametrize("mode", [[], ["--json"], ["--no-partial"]], ids=["human", "json", "whole"])
@pytest.mark.parametrize("plant", list(COMMAND_PLANTS))
def test_the_agent_sdk_command_prints_the_key_nowhere(
    leaky: Leaky, plant: str, mode: list[str]
) -> None:
    flags, env = COMMAND_PLANTS[plant]
    scenario = leaky({"fake": "exit", "code": 1})
    done = agent_sdk("--fake", str(scenario), *flags, *mode, "go", **env)
    assert done.returncode == 1, done.stderr  # the run failed, and said so
    assert KEY not in done.stdout + done.stderr


BATCH_PLANTS = {**COMMAND_PLANTS, "tasks file": ([], {})}


@pytest.mark.parametrize("plant", list(BATCH_PLANTS))
def test_agent_sdk_batch_prints_and_reports_the_key_nowhere(
    leaky: Leaky, plant: str, tmp_path: Path
) -> None:
    flags, env = BATCH_PLANTS[plant]
    options = {"api_key": KEY} if plant == "tasks file" else {}
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        "".join(
            json.dumps({"prompt": "go", "id": f"t{n}", "options": options}) + "\n" for n in (1, 2)
        )
    )
    scenario = leaky({"fake": "exit", "code": 1})
    report = tmp_path / "report.html"
    done = agent_sdk(
        "batch", str(tasks), "--fake", str(scenario), *flags, "--json", "--html", str(report), **env
    )
    assert done.returncode == 1, done.stderr  # the tasks failed, and it said so
    assert json.loads(done.stdout)["failed"] == 2  # the premise: both ran and failed,
    assert MASK in done.stdout  # saying what the CLI printed, the key masked
    assert KEY not in done.stdout + done.stderr
    assert KEY not in report.read_text()


# --- the reply on screen, as the command writes it ------------------------------------
def test_a_key_split_across_writes_of_the_reply_is_printed_masked() -> None:
    screen = io.StringIO()
    reply = RedactedText(screen, Redaction([KEY]))
    for piece in ("the key is ", KEY[:5], KEY[5:12], KEY[12:], " - done"):
        reply.write(piece)
    reply.release()
    assert screen.getvalue() == f"the key is {MASK} - done"


def test_the_reply_held_back_is_printed_when_released() -> None:
    screen = io.StringIO()
    reply = RedactedText(screen, Redaction([KEY]))
    reply.write("ok")
    reply.release()
    assert screen.getvalue() == "ok"


def _query(query_type: str, payload: dict[str, object]) -> dict[str, object]:
    return {
        "type": "interaction_query",
        "subtype": "request",
        "query_type": query_type,
        "query": {"id": 1, query_type: payload},
        "session_id": "s-1",
    }


@pytest.mark.parametrize("mode", [[], ["--json"]], ids=["human", "json"])
def test_the_interaction_lines_print_the_key_nowhere(tmp_path: Path, mode: list[str]) -> None:
    # The lines of a web search, a web fetch and a question show what they are about
    # (docs/protocol.md §3.6b): the agent can put the key there.
    steps = [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
        _query("webSearchRequestQuery", {"args": {"searchTerm": f"is {KEY} valid"}}),
        _query("webFetchRequestQuery", {"args": {"url": f"https://x.invalid/?k={KEY}"}}),
        _query("askQuestionInteractionQuery", {"args": {"title": f"Use {KEY}?"}}),
        {"type": "result", "subtype": "success", "is_error": False, "result": "ok"},
    ]
    scenario = tmp_path / "asks.ndjson"
    scenario.write_text("".join(json.dumps(step) + "\n" for step in steps))
    done = agent_sdk("--fake", str(scenario), *mode, "go", CURSOR_API_KEY=KEY)
    assert done.returncode == 0, done.stderr
    shown = done.stdout if mode else done.stderr
    assert shown.count(MASK) >= 3  # each line was there, the key masked
    assert KEY not in done.stdout + done.stderr


# --- checkpoints: a run's changes, a rewind, the list -----------------------------------
@pytest.mark.parametrize("mode", [[], ["--json"]], ids=["human", "json"])
def test_a_checkpointed_run_its_rewind_and_the_list_print_the_key_nowhere(
    mode: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitrepo import git, isolate_git

    isolate_git(monkeypatch, tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    written = f"{KEY}.txt"  # the agent writes the key in a file's name and in its text
    scenario = write_scenario(
        tmp_path / "writes.ndjson",
        [
            {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
            {"fake": "write_file", "path": written, "text": f"token={KEY}\n", "real": True},
            {"type": "result", "subtype": "success", "is_error": False, "result": "done"},
        ],
    )
    ran = agent_sdk(
        "--fake",
        str(scenario),
        "--cwd",
        str(repo),
        "--force",
        "--checkpoint",
        *mode,
        "go",
        CURSOR_API_KEY=KEY,
    )
    assert ran.returncode == 0, ran.stderr
    assert (repo / written).exists()  # the premise: the run changed the tree
    listed = agent_sdk("checkpoints", "--cwd", str(repo), CURSOR_API_KEY=KEY)
    rewound = agent_sdk("rewind", "--cwd", str(repo), CURSOR_API_KEY=KEY)
    assert rewound.returncode == 0, rewound.stderr
    assert not (repo / written).exists()
    for done in (ran, listed, rewound):
        assert KEY not in done.stdout + done.stderr
