"""What the fake cursor-agent fills in from its command line and environment
(docs/protocol.md §3.1-§3.2): one session id on every event (``--resume``'s, or a fresh
UUID4), the prompt in the user event, and the init event's model, API key source,
permission mode and workspace.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from fake_env import ROOT
from fake_play import _env, events, play, run

# --------------------------------------------------------------------------- session ids


def test_resume_keeps_the_session_id_on_every_event() -> None:
    proc = play("tools", extra=("--resume=chat-123",))
    with_id = [e for e in events(proc) if "session_id" in e]
    assert len(with_id) > 10
    assert {e["session_id"] for e in with_id} == {"chat-123"}


def test_resume_with_separate_value_keeps_the_session_id() -> None:
    proc = run("-p", "--trust", "--output-format", "json", "--resume", "abc-1", "--", "x")
    assert json.loads(proc.stdout)["session_id"] == "abc-1"


def test_fresh_run_uses_one_uuid4_on_all_events() -> None:
    ids = {e["session_id"] for e in events(play("tools")) if "session_id" in e}
    assert len(ids) == 1
    assert uuid.UUID(ids.pop()).version == 4


def test_fresh_runs_get_distinct_session_ids() -> None:
    first = json.loads(run("-p", "--trust", "--output-format", "json", "--", "a").stdout)
    second = json.loads(run("-p", "--trust", "--output-format", "json", "--", "a").stdout)
    assert first["session_id"] != second["session_id"]


def test_session_id_is_not_added_to_a_user_event_without_one() -> None:
    user = next(e for e in events(play("unknown_events")) if e["type"] == "user")
    assert "session_id" not in user


# --------------------------------------------------------------------------- patched events


def test_user_event_carries_the_actual_prompt() -> None:
    user = next(e for e in events(play("hello")) if e["type"] == "user")
    assert user["message"]["content"] == [{"type": "text", "text": "hi there"}]


def test_init_defaults() -> None:
    init = events(play("hello"))[0]
    assert (init["model"], init["apiKeySource"], init["permissionMode"]) == (
        "Auto",
        "login",
        "default",
    )
    assert init["cwd"] == str(ROOT)


def test_init_reflects_model_force_and_workspace(tmp_path: Path) -> None:
    proc = run(
        "-p",
        "-f",
        "--output-format=stream-json",
        "--model",
        "sonnet-4.5",
        f"--workspace={tmp_path}",
        "--",
        "x",
    )
    init = events(proc)[0]
    assert (init["model"], init["permissionMode"], init["cwd"]) == (
        "Claude 4.5 Sonnet",
        "default",
        str(tmp_path),
    )


def test_api_key_source_is_flag_with_api_key() -> None:
    proc = run("-p", "--trust", "--output-format=stream-json", "--api-key=k", "--", "x")
    assert events(proc)[0]["apiKeySource"] == "flag"


def test_api_key_source_is_env_with_cursor_api_key() -> None:
    proc = run(
        "-p", "--trust", "--output-format=stream-json", "--", "x", env=_env(CURSOR_API_KEY="k")
    )
    assert events(proc)[0]["apiKeySource"] == "env"


@pytest.mark.parametrize("flag", ["-f", "--force", "--yolo"])
def test_force_aliases_trust_and_keep_the_default_permission_mode(flag: str) -> None:
    proc = run("-p", flag, "--output-format=stream-json", "--", "x")
    assert (proc.returncode, events(proc)[0]["permissionMode"]) == (0, "default")
