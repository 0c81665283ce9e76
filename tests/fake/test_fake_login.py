"""The fake's login (docs/protocol.md §1, "Login, keychain and ``HOME``"): under
``FAKE_AGENT_REQUIRE_LOGIN`` a run needs ``auth.json`` in the config dir (or in ``HOME``
without one), unless it has a key or a token; without it the run says "Not logged in."
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fleet_runs import events, run

# --------------------------------------------------------------------------- login


def not_logged_in_stdout() -> bytes:
    return run("--output-format", "json", FAKE_AGENT_SCENARIO="not_logged_in").stdout


def test_not_logged_in_without_auth_json(tmp_path: Path) -> None:
    proc = run(
        "--output-format", "json", CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_REQUIRE_LOGIN="1"
    )
    assert proc.returncode == 1
    assert proc.stdout == not_logged_in_stdout()
    assert proc.stdout.startswith(b"Press any key to sign in...\nNot logged in.")


def test_logged_in_with_auth_json_in_the_config_dir(tmp_path: Path) -> None:
    (tmp_path / "auth.json").write_text("{}")
    proc = run(
        "--output-format",
        "stream-json",
        CURSOR_CONFIG_DIR=str(tmp_path),
        FAKE_AGENT_REQUIRE_LOGIN="1",
    )
    assert proc.returncode == 0
    found = events(proc.stdout)
    assert (found[0]["apiKeySource"], found[-1]["type"]) == ("login", "result")


def test_login_is_looked_up_in_home_without_config_dir(tmp_path: Path) -> None:
    assert run(HOME=str(tmp_path), FAKE_AGENT_REQUIRE_LOGIN="1").returncode == 1
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "auth.json").write_text("{}")
    assert run(HOME=str(tmp_path), FAKE_AGENT_REQUIRE_LOGIN="1").returncode == 0


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--api-key", "k"), {}),
        ((), {"CURSOR_API_KEY": "k"}),
        ((), {"CURSOR_AUTH_TOKEN": "t"}),
        ((), {"FAKE_AGENT_REQUIRE_LOGIN": "0"}),
        ((), {"FAKE_AGENT_REQUIRE_LOGIN": ""}),
    ],
)
def test_a_key_a_token_or_no_requirement_needs_no_auth_json(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str]
) -> None:
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_REQUIRE_LOGIN": "1", **env}
    assert run(*args, **env).returncode == 0


def test_a_bad_require_login_value_is_a_setup_error() -> None:
    proc = run(FAKE_AGENT_REQUIRE_LOGIN="yes")
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"FAKE_AGENT_REQUIRE_LOGIN must be 1 or 0" in proc.stderr
