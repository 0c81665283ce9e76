"""find_binary: where the SDK looks for cursor-agent (docs/protocol.md §1, "Finding the binary")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_sdk._transport.discovery import find_binary, installed_version
from agent_sdk.errors import AgentNotFoundError


def make_executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty home directory: no ~/.local/bin/cursor-agent unless a test makes one."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def empty_dir(tmp_path: Path) -> Path:
    path = tmp_path / "empty"
    path.mkdir()
    return path


def test_a_relative_path_stays_a_path_for_exec(
    tmp_path: Path, home: Path, empty_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # exec searches PATH for a bare name: `./my-agent` must not lose its `./`.
    make_executable(tmp_path / "my-agent")
    monkeypatch.chdir(tmp_path)
    environ = {"PATH": str(empty_dir), "HOME": str(home)}
    assert find_binary("./my-agent", environ) == "./my-agent"


def test_an_explicit_path_is_used(tmp_path: Path, home: Path, empty_dir: Path) -> None:
    binary = make_executable(tmp_path / "opt" / "my-agent")
    environ = {"PATH": str(empty_dir), "HOME": str(home)}
    assert find_binary(str(binary), environ) == str(binary)


def test_an_explicit_path_wins_over_cursor_agent_bin_and_path(tmp_path: Path, home: Path) -> None:
    binary = make_executable(tmp_path / "opt" / "my-agent")
    other = make_executable(tmp_path / "other" / "cursor-agent")
    environ = {"PATH": str(other.parent), "HOME": str(home), "CURSOR_AGENT_BIN": str(other)}
    assert find_binary(binary, environ) == str(binary)


def test_an_explicit_name_is_resolved_on_path(tmp_path: Path, home: Path) -> None:
    binary = make_executable(tmp_path / "bin" / "my-agent")
    environ = {"PATH": str(binary.parent), "HOME": str(home)}
    assert find_binary("my-agent", environ) == str(binary)


def test_a_missing_explicit_binary_raises_not_found_naming_it(
    tmp_path: Path, home: Path, empty_dir: Path
) -> None:
    missing = tmp_path / "nowhere" / "cursor-agent"
    environ = {"PATH": str(empty_dir), "HOME": str(home)}
    with pytest.raises(AgentNotFoundError, match="nowhere"):
        find_binary(str(missing), environ)


def test_a_missing_explicit_binary_is_not_replaced_by_one_on_path(
    tmp_path: Path, home: Path
) -> None:
    on_path = make_executable(tmp_path / "bin" / "cursor-agent")
    environ = {"PATH": str(on_path.parent), "HOME": str(home)}
    with pytest.raises(AgentNotFoundError, match="no-such-agent"):
        find_binary("no-such-agent", environ)


def test_a_non_executable_explicit_file_is_not_found(tmp_path: Path, home: Path) -> None:
    plain = tmp_path / "plain" / "cursor-agent"
    plain.parent.mkdir()
    plain.write_text("not executable\n")
    plain.chmod(0o644)
    with pytest.raises(AgentNotFoundError):
        find_binary(str(plain), {"PATH": "", "HOME": str(home)})


def test_cursor_agent_bin_is_used_without_an_explicit_binary(tmp_path: Path, home: Path) -> None:
    binary = make_executable(tmp_path / "opt" / "ca")
    on_path = make_executable(tmp_path / "bin" / "cursor-agent")
    environ = {"PATH": str(on_path.parent), "HOME": str(home), "CURSOR_AGENT_BIN": str(binary)}
    assert find_binary(None, environ) == str(binary)


def test_a_missing_cursor_agent_bin_raises_not_found_naming_the_variable(
    tmp_path: Path, home: Path, empty_dir: Path
) -> None:
    environ = {
        "PATH": str(empty_dir),
        "HOME": str(home),
        "CURSOR_AGENT_BIN": str(tmp_path / "gone"),
    }
    with pytest.raises(AgentNotFoundError, match="CURSOR_AGENT_BIN"):
        find_binary(None, environ)


def test_cursor_agent_on_path_is_found(tmp_path: Path, home: Path, empty_dir: Path) -> None:
    binary = make_executable(tmp_path / "bin" / "cursor-agent")
    environ = {"PATH": os.pathsep.join([str(empty_dir), str(binary.parent)]), "HOME": str(home)}
    assert find_binary(None, environ) == str(binary)


def test_cursor_agent_on_path_wins_over_the_home_install(tmp_path: Path, home: Path) -> None:
    make_executable(home / ".local" / "bin" / "cursor-agent")
    binary = make_executable(tmp_path / "bin" / "cursor-agent")
    environ = {"PATH": str(binary.parent), "HOME": str(home)}
    assert find_binary(None, environ) == str(binary)


def test_the_home_local_bin_install_is_found_via_home(home: Path, empty_dir: Path) -> None:
    binary = make_executable(home / ".local" / "bin" / "cursor-agent")
    environ = {"PATH": str(empty_dir), "HOME": str(home)}
    assert find_binary(None, environ) == str(binary)


def test_agent_on_path_is_used_when_it_links_into_a_cursor_agent_install(
    tmp_path: Path, home: Path
) -> None:
    real = make_executable(tmp_path / "share" / "cursor-agent" / "versions" / "2026.10.01" / "run")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "agent").symlink_to(real)
    environ = {"PATH": str(bin_dir), "HOME": str(home)}
    assert find_binary(None, environ) == str(bin_dir / "agent")


def test_agent_on_path_is_ignored_when_it_is_another_tool(tmp_path: Path, home: Path) -> None:
    make_executable(tmp_path / "bin" / "agent")
    environ = {"PATH": str(tmp_path / "bin"), "HOME": str(home)}
    with pytest.raises(AgentNotFoundError):
        find_binary(None, environ)


def test_agent_symlinked_to_another_tool_is_ignored(tmp_path: Path, home: Path) -> None:
    real = make_executable(tmp_path / "share" / "other-tool" / "agent")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "agent").symlink_to(real)
    with pytest.raises(AgentNotFoundError):
        find_binary(None, {"PATH": str(bin_dir), "HOME": str(home)})


def test_not_found_message_says_how_to_install(home: Path, empty_dir: Path) -> None:
    with pytest.raises(AgentNotFoundError, match=r"cursor\.com/install"):
        find_binary(None, {"PATH": str(empty_dir), "HOME": str(home)})


def test_not_found_message_mentions_cursor_agent_bin(home: Path, empty_dir: Path) -> None:
    with pytest.raises(AgentNotFoundError, match="CURSOR_AGENT_BIN"):
        find_binary(None, {"PATH": str(empty_dir), "HOME": str(home)})


def test_agent_under_a_lookalike_directory_is_ignored(tmp_path: Path, home: Path) -> None:
    real = make_executable(tmp_path / "src" / "cursor-agent-tools" / "agent")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "agent").symlink_to(real)
    with pytest.raises(AgentNotFoundError):
        find_binary(None, {"PATH": str(bin_dir), "HOME": str(home)})


def test_search_uses_only_the_given_path(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    on_real_path = make_executable(home / "elsewhere" / "cursor-agent")
    monkeypatch.setenv("PATH", str(on_real_path.parent))
    with pytest.raises(AgentNotFoundError):
        find_binary(None, {"HOME": str(home)})


# --- the version of the install (docs/protocol.md §1, "Finding the binary") -----------
def install(home: Path, version: str) -> Path:
    """The installer's layout: the release unpacked under versions/, ~/.local/bin links."""
    versions = home / ".local/share/cursor-agent/versions"
    release = make_executable(versions / version / "cursor-agent")
    bin_dir = home / ".local" / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in ("cursor-agent", "agent"):
        link = bin_dir / name
        link.unlink(missing_ok=True)
        link.symlink_to(release)
    return bin_dir / "agent"


def test_the_version_is_read_from_the_release_the_link_points_into(home: Path) -> None:
    agent = install(home, "2026.10.01-e373342")
    assert installed_version(str(agent)) == "2026.10.01-e373342"
    assert installed_version(str(agent.with_name("cursor-agent"))) == "2026.10.01-e373342"


def test_an_update_between_runs_is_seen_by_the_next_read(home: Path) -> None:
    # The CLI re-links ~/.local/bin on its own (§1): the whole string tells the builds apart.
    agent = install(home, "2026.10.01-e373342")
    assert installed_version(str(agent)) == "2026.10.01-e373342"
    install(home, "2026.10.01-14929f9")
    assert installed_version(str(agent)) == "2026.10.01-14929f9"


def test_a_release_binary_named_directly_has_its_version(home: Path) -> None:
    install(home, "2026.09.28-64d2043")
    release = home / ".local/share/cursor-agent/versions/2026.09.28-64d2043/cursor-agent"
    assert installed_version(str(release)) == "2026.09.28-64d2043"


def test_a_relative_binary_is_read_from_the_run_cwd(home: Path) -> None:
    install(home, "2026.10.01-e373342")
    assert installed_version("./.local/bin/agent", home) == "2026.10.01-e373342"


@pytest.mark.parametrize(
    "where",
    [
        "opt/my-agent",  # no install layout
        "versions/2026.10.01-e373342/cursor-agent",  # `versions` of some other tool
        "other-tool/versions/1.2.3/cursor-agent",
    ],
)
def test_a_binary_outside_the_layout_has_no_version(tmp_path: Path, where: str) -> None:
    binary = make_executable(tmp_path / where)
    assert installed_version(str(binary)) is None


def test_a_missing_binary_has_no_version(tmp_path: Path) -> None:
    assert installed_version(str(tmp_path / "nothing")) is None


# --- CURSOR_AGENT_BIN set but wrong (issue 35) -------------------------------------------
@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_cursor_agent_bin_says_so_and_how_to_fix_it(
    tmp_path: Path, home: Path, value: str
) -> None:
    # `export CURSOR_AGENT_BIN="$(...)"` whose command failed: the variable is empty. It is
    # no search's fallback (a real cursor-agent on PATH would run where the fake was meant).
    on_path = make_executable(tmp_path / "bin" / "cursor-agent")
    environ = {"PATH": str(on_path.parent), "HOME": str(home), "CURSOR_AGENT_BIN": value}
    with pytest.raises(AgentNotFoundError) as caught:
        find_binary(None, environ)
    assert caught.value.message == "CURSOR_AGENT_BIN is set but empty"
    hint = caught.value.hint or ""
    assert "unset CURSOR_AGENT_BIN" in hint
    assert "--fake-path" in hint


def test_a_cursor_agent_bin_naming_a_missing_file_says_it_does_not_exist(
    tmp_path: Path, home: Path, empty_dir: Path
) -> None:
    gone = tmp_path / "gone" / "cursor-agent"
    environ = {"PATH": str(empty_dir), "HOME": str(home), "CURSOR_AGENT_BIN": str(gone)}
    with pytest.raises(AgentNotFoundError) as caught:
        find_binary(None, environ)
    assert caught.value.message == f"CURSOR_AGENT_BIN is {str(gone)!r}, which does not exist"
    hint = caught.value.hint or ""
    # What to do about the variable, not how to install the CLI from scratch.
    assert hint.startswith("set CURSOR_AGENT_BIN to the path of cursor-agent")
    assert "unset CURSOR_AGENT_BIN" in hint
    assert "--fake-path" in hint


def test_a_cursor_agent_bin_naming_a_file_that_cannot_run_says_so(
    tmp_path: Path, home: Path, empty_dir: Path
) -> None:
    plain = tmp_path / "cursor-agent"
    plain.write_text("not executable\n")
    plain.chmod(0o644)
    environ = {"PATH": str(empty_dir), "HOME": str(home), "CURSOR_AGENT_BIN": str(plain)}
    with pytest.raises(AgentNotFoundError, match="which is not executable"):
        find_binary(None, environ)


def test_a_cursor_agent_bin_naming_a_directory_says_so(
    tmp_path: Path, home: Path, empty_dir: Path
) -> None:
    environ = {"PATH": str(empty_dir), "HOME": str(home), "CURSOR_AGENT_BIN": str(tmp_path)}
    with pytest.raises(AgentNotFoundError, match="which is a directory"):
        find_binary(None, environ)


def test_a_cursor_agent_bin_naming_a_command_not_on_path_says_so(
    home: Path, empty_dir: Path
) -> None:
    environ = {"PATH": str(empty_dir), "HOME": str(home), "CURSOR_AGENT_BIN": "my-agent"}
    with pytest.raises(AgentNotFoundError, match="'my-agent', which is not on PATH"):
        find_binary(None, environ)
