"""The fake's hooks files as the contract says the CLI reads them (docs/protocol.md §6.1,
§6.3; fake_agent/scenarios/README.md "Hooks"): the user's and the project's (project
first, a workspace trusted by ``--force`` alone), each run from its own directory, version
1 only, no Claude-style groups, a file that is not JSON or entries of the wrong types
ignored; and what every hook gets: the payload's common keys and its environment.
"""

from __future__ import annotations

import json

from hook_place import (
    WRITE,
    Place,
    place_fixture,  # noqa: F401  (the fixture ``place``)
    result,
)

# ----------------------------------------------------------------------------- files, format


def test_a_user_hook_runs_from_the_users_cursor_dir(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    assert [entry["cwd"] for entry in place.seen()] == [str(place.home / ".cursor")]


def test_a_project_hook_runs_from_the_workspace_root(place: Place) -> None:
    place.hooks(place.workspace, preToolUse=[place.hook()])
    place.run(WRITE)
    assert [entry["cwd"] for entry in place.seen()] == [str(place.workspace)]


def test_project_hooks_run_in_a_workspace_trusted_by_force_alone(place: Place) -> None:
    place.hooks(place.workspace, preToolUse=[place.hook()])
    place.run(WRITE, flags=("--force",))
    assert place.events_seen() == ["preToolUse"]


def test_project_and_user_hooks_both_run_project_first(place: Place) -> None:
    place.hooks(place.workspace, preToolUse=[place.hook()])
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    assert [entry["cwd"] for entry in place.seen()] == [
        str(place.workspace),
        str(place.home / ".cursor"),
    ]


def test_a_file_without_version_1_is_rejected_with_a_line_on_stderr(place: Place) -> None:
    place.hooks(place.home, {"hooks": {"preToolUse": [place.hook()]}})
    proc = place.run(WRITE)
    assert place.seen() == []
    path = place.home / ".cursor" / "hooks.json"
    message = f'Ignoring hooks file {path}: it needs "version": 1 and a "hooks" object\n'
    assert proc.stderr.decode() == message
    assert proc.returncode == 0


def test_a_nested_claude_style_group_does_not_fire(place: Place) -> None:
    group = {"matcher": "Write", "hooks": [place.hook()]}
    place.hooks(place.home, preToolUse=[group])
    place.run(WRITE)
    assert place.seen() == []


def test_the_payload_has_the_common_keys_of_the_contract(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    proc = place.run(WRITE)
    session_id = json.loads(proc.stdout.split(b"\n")[0])["session_id"]
    payload = place.seen()[0]["payload"]
    assert payload["conversation_id"] == payload["session_id"] == session_id
    assert payload["generation_id"] == session_id
    assert payload["hook_event_name"] == "preToolUse"
    assert payload["workspace_roots"] == [str(place.workspace)]
    assert payload["cursor_version"].startswith("2026.")
    assert payload["model"] == "auto"
    assert payload["transcript_path"] is None


def test_a_hook_gets_the_project_dir_and_version_but_not_the_conversation_id(
    place: Place,
) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    env = place.seen()[0]["env"]
    assert env["CURSOR_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"] == str(place.workspace)
    assert env["CURSOR_VERSION"].startswith("2026.")
    assert "CURSOR_CONVERSATION_ID" not in env


# ----------------------------------------------------------------------------- hostile input


def test_a_hooks_file_that_is_not_json_is_rejected_with_a_line_on_stderr(place: Place) -> None:
    (place.home / ".cursor" / "hooks.json").write_text('{"version": 1, "hooks": {')
    proc = place.run(WRITE)
    assert proc.stderr.decode().startswith("Ignoring hooks file ")
    assert "success" in result(proc)


def test_entries_of_the_wrong_types_never_fire_and_break_nothing(place: Place) -> None:
    garbage = [1, "sh", None, {"command": 5}, {"command": "true", "type": "prompt"}]
    place.hooks(place.home, preToolUse="x", postToolUse=garbage)
    proc = place.run(WRITE)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert "success" in result(proc)
