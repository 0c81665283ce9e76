"""The fake's hidden ``--new-session-id <uuid>`` (docs/protocol.md §1, "Hidden flags"; §5):
the run's chat is that id; a second run with it fails as the real CLI does; the store is
kept only under ``$CURSOR_CONFIG_DIR``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fake_env import fake_env

CHOSEN = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
IN_USE = f'Error: Session ID "{CHOSEN}" is already in use.\n'


def run(
    cwd: Path, *args: str, home: Path, config: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """A print run of the fake in ``cwd``, with its own ``HOME`` (a store written there
    would be seen) and, when given, ``CURSOR_CONFIG_DIR``."""
    extra = {"HOME": str(home), "FAKE_AGENT_SCENARIO": "hello", **env}
    environ = fake_env(**extra)
    environ.pop("CURSOR_CONFIG_DIR", None)
    if config is not None:
        environ["CURSOR_CONFIG_DIR"] = str(config)
    return subprocess.run(
        [sys.executable, "-m", "fake_agent", "-p", "--trust", *args, "hi"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=environ,
        cwd=cwd,
        timeout=30,
        check=False,
    )


def session_ids(proc: subprocess.CompletedProcess[str]) -> set[str]:
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    return {event["session_id"] for event in events if "session_id" in event}


def chats(config: Path) -> list[Path]:
    return sorted(path.relative_to(config) for path in (config / "chats").glob("*/*"))


def test_the_run_s_chat_is_the_given_id_in_init_and_result(tmp_path: Path) -> None:
    proc = run(
        tmp_path,
        "--output-format",
        "stream-json",
        "--new-session-id",
        CHOSEN,
        home=tmp_path,
        config=tmp_path / "config",
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[0]["subtype"] == "init"
    assert lines[0]["session_id"] == CHOSEN
    assert lines[-1]["type"] == "result"
    assert lines[-1]["session_id"] == CHOSEN
    assert session_ids(proc) == {CHOSEN}


def test_the_value_may_be_attached_and_the_json_format_has_it(tmp_path: Path) -> None:
    proc = run(tmp_path, "--output-format=json", f"--new-session-id={CHOSEN}", home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["session_id"] == CHOSEN


def test_a_second_run_with_the_id_fails_as_the_real_cli(tmp_path: Path) -> None:
    config = tmp_path / "config"
    args = ("--output-format", "stream-json", "--new-session-id", CHOSEN)
    assert run(tmp_path, *args, home=tmp_path, config=config).returncode == 0
    again = run(tmp_path, *args, home=tmp_path, config=config)
    assert (again.returncode, again.stdout, again.stderr) == (1, "", IN_USE)


def test_the_id_is_taken_from_another_workspace_too(tmp_path: Path) -> None:
    config = tmp_path / "config"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert (
        run(tmp_path / "a", "--new-session-id", CHOSEN, home=tmp_path, config=config).returncode
        == 0
    )
    again = run(tmp_path / "b", "--new-session-id", CHOSEN, home=tmp_path, config=config)
    assert (again.returncode, again.stderr) == (1, IN_USE)


def test_the_chat_is_stored_under_the_config_dir_by_workspace(tmp_path: Path) -> None:
    config = tmp_path / "config"
    run(tmp_path, "--new-session-id", CHOSEN, home=tmp_path / "home", config=config)
    [chat] = chats(config)
    assert chat.parts[0] == "chats"
    assert len(chat.parts[1]) == 32  # the workspace's hash
    assert chat.name == CHOSEN


def test_resuming_the_chat_of_a_chosen_id_works_and_takes_no_id(tmp_path: Path) -> None:
    config = tmp_path / "config"
    run(tmp_path, "--new-session-id", CHOSEN, home=tmp_path, config=config)
    resumed = run(
        tmp_path, "--output-format=json", "--resume", CHOSEN, home=tmp_path, config=config
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["session_id"] == CHOSEN
    assert len(chats(config)) == 1


def test_other_ids_and_plain_runs_are_not_refused(tmp_path: Path) -> None:
    config = tmp_path / "config"
    other = "1c8d3b0f-62e5-4a1f-8b66-2d4f9a3e8c21"
    assert run(tmp_path, "--new-session-id", CHOSEN, home=tmp_path, config=config).returncode == 0
    assert run(tmp_path, "--new-session-id", other, home=tmp_path, config=config).returncode == 0
    assert run(tmp_path, home=tmp_path, config=config).returncode == 0
    assert [chat.name for chat in chats(config)] == sorted([CHOSEN, other])


def test_without_a_config_dir_nothing_is_written_and_no_reuse_is_caught(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    for _ in range(2):
        proc = run(work, "--output-format=json", "--new-session-id", CHOSEN, home=home)
        assert proc.returncode == 0, proc.stderr
    assert list(home.iterdir()) == []
    assert list(work.iterdir()) == []


def test_a_signed_out_run_makes_no_chat(tmp_path: Path) -> None:
    config = tmp_path / "config"
    signed_out = run(
        tmp_path,
        "--new-session-id",
        CHOSEN,
        home=tmp_path,
        config=config,
        FAKE_AGENT_REQUIRE_LOGIN="1",
    )
    assert signed_out.returncode == 1
    assert chats(config) == []
    (config / "auth.json").write_text("{}")
    assert run(tmp_path, "--new-session-id", CHOSEN, home=tmp_path, config=config).returncode == 0


def test_an_id_that_is_no_folder_name_is_played_and_stored_nowhere(tmp_path: Path) -> None:
    config = tmp_path / "config"
    proc = run(
        tmp_path, "--output-format=json", "--new-session-id", "../x", home=tmp_path, config=config
    )
    assert json.loads(proc.stdout)["session_id"] == "../x"
    assert chats(config) == []
    assert not (config / "x").exists()


def test_the_flag_is_hidden_from_help(tmp_path: Path) -> None:
    proc = run(tmp_path, "--help", home=tmp_path)
    assert "--resume" in proc.stdout
    assert "--new-session-id" not in proc.stdout
