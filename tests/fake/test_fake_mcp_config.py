"""Where the fake's print mode finds its MCP servers, as the contract says the CLI does
(docs/protocol.md §7-§8; fake_agent/scenarios/README.md "MCP servers"): the user's file
without approval, the project's (in the workspace or a parent) only with
``--approve-mcps``, which file wins, the variables expanded in an entry, its ``envFile``
and ``env``; and a broken mcp.json, entries of the wrong types, or an ``mcp_call`` without
a server or a tool.
"""

from __future__ import annotations

import os

from mcp_place import (
    Place,
    call,
    echoed,
    events,
    outcome,
    place_fixture,  # noqa: F401  (the fixture ``place``)
)

# ----------------------------------------------------------------------------- files, approval


def test_the_user_file_is_read_from_home_without_approval(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    assert "success" in outcome(place.run(call()))


def test_a_project_file_is_skipped_without_approve_mcps(place: Place) -> None:
    place.servers(place.workspace, echo=place.echo())
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": 'MCP server "echo" is not configured'}}
    assert not place.pid_file.exists()
    assert proc.stderr == b""


def test_a_project_file_is_used_with_approve_mcps(place: Place) -> None:
    place.servers(place.workspace, echo=place.echo())
    assert "success" in outcome(place.run(call(), flags=("--force", "--approve-mcps")))


def test_a_project_file_in_a_parent_of_the_workspace_is_found(place: Place) -> None:
    place.servers(place.project, echo=place.echo())
    assert "success" in outcome(place.run(call(), flags=("--force", "--approve-mcps")))


def test_the_workspaces_own_file_wins_over_the_user_file(place: Place) -> None:
    place.servers(place.home, echo=place.echo("from-home"))
    place.servers(place.workspace, echo=place.echo("from-project"))
    said = echoed(place.run(call(), flags=("--force", "--approve-mcps")))
    assert said["argv"] == ["from-project"]


def test_the_user_file_wins_over_a_parents_file(place: Place) -> None:
    place.servers(place.home, echo=place.echo("from-home"))
    place.servers(place.project, echo=place.echo("from-parent"))
    said = echoed(place.run(call(), flags=("--force", "--approve-mcps")))
    assert said["argv"] == ["from-home"]


def test_env_variables_are_expanded_in_env(place: Place) -> None:
    place.servers(place.home, echo=place.echo(ECHO_VALUE="${env:TOKEN_FOR_ECHO}"))
    said = echoed(place.run(call(), TOKEN_FOR_ECHO="t-123"))
    assert said["value"] == "t-123"


def test_workspace_and_home_variables_are_expanded_in_args(place: Place) -> None:
    argv = [
        "${workspaceFolder}",
        "${workspaceFolderBasename}",
        "${userHome}",
        "a${/}b${pathSeparator}c",
    ]
    place.servers(place.home, echo=place.echo(*argv))
    said = echoed(place.run(call()))
    sep = os.sep
    assert said["argv"] == [str(place.workspace), "ws", str(place.home), f"a{sep}b{sep}c"]


def test_env_file_lines_reach_the_server_and_env_wins_over_them(place: Place) -> None:
    env_file = place.root / "server.env"
    env_file.write_text("# comment\nECHO_VALUE=from-file\n")
    entry = {**place.echo(), "envFile": "${userHome}/../server.env"}
    place.servers(place.home, echo=entry)
    assert echoed(place.run(call()))["value"] == "from-file"
    place.servers(place.home, echo={**entry, "env": {"ECHO_VALUE": "from-env"}})
    assert echoed(place.run(call()))["value"] == "from-env"


def test_the_entry_env_is_added_to_the_fakes_environment(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    said = echoed(place.run(call(), ECHO_VALUE="inherited"))
    assert said["value"] == "inherited"


def test_an_mcp_json_that_is_not_json_is_skipped_silently(place: Place) -> None:
    (place.home / ".cursor").mkdir()
    (place.home / ".cursor" / "mcp.json").write_text('{"mcpServers": {"echo": ')
    proc = place.run(call())
    assert outcome(proc) == {"error": {"message": 'MCP server "echo" is not configured'}}
    assert proc.stderr == b""


def test_entries_of_the_wrong_types_are_skipped_or_fail_as_servers(place: Place) -> None:
    place.servers(place.home, echo="python", other={"command": 7, "args": "x", "env": []})
    proc = place.run(call(), call(server="other"))
    done = [e for e in events(proc) if e.get("subtype") == "completed"]
    results = [e["tool_call"]["mcpToolCall"]["result"]["error"]["message"] for e in done]
    assert results == [
        'MCP server "echo" is not configured',
        'MCP server "other" has no command (the fake runs stdio only)',
    ]


def test_mcp_call_needs_a_server_and_a_tool_when_the_scenario_loads(place: Place) -> None:
    proc = place.run({"fake": "mcp_call", "server": "", "tool": "t"})
    assert proc.returncode == 2
    assert b"needs a non-empty 'server' and 'tool'" in proc.stderr
