"""Tool-call events: the fields added by 2026.10 CLIs (docs/protocol.md §3.4), typed
where we know them (plans, shell args and their parsing, MCP tool lookups, grep
truncation), extras where we do not, unknown fields of a known kind ignored."""

from __future__ import annotations

import pytest
from tool_payload_events import completed, decode

from agent_sdk.events import ToolCallStarted
from agent_sdk.tools import (
    CommandArg,
    CreatePlanArgs,
    ExecutableCommand,
    GetMcpToolsArgs,
    GetMcpToolsSuccess,
    GrepArgs,
    GrepSuccess,
    ParsingResult,
    ReadSuccess,
    ShellArgs,
    ShellSuccess,
)


def test_a_plan_call_has_its_todos_with_dependencies_and_times() -> None:
    args = completed("call_plan\nfc_29").args
    assert isinstance(args, CreatePlanArgs)
    assert [(t.id, t.status, t.dependencies, t.created_at) for t in args.todos] == [
        ("quantize", "TODO_STATUS_PENDING", [], "1785515300000"),
        ("test", "TODO_STATUS_PENDING", ["quantize"], "1785515300000"),
    ]


def test_a_plan_uri_beside_the_success_is_a_result_extra() -> None:
    event = completed("call_plan\nfc_29")
    assert (event.outcome, event.result_extras) == (
        "success",
        {"planUri": "file:///home/dev/.cursor/plans/round-cart-totals.plan.md"},
    )


def test_the_mcp_tools_content_stays_a_json_string() -> None:
    result = completed("call_mcp_tools\nfc_30").result
    assert isinstance(result, GetMcpToolsSuccess)
    assert result.content.startswith("[\n  {")


def test_new_shell_args_are_typed() -> None:
    args = completed("call_shell_new\nfc_31").args
    assert isinstance(args, ShellArgs)
    assert (
        args.hard_timeout,
        args.timeout_behavior,
        args.description,
        args.close_stdin,
        args.skip_approval,
        args.has_input_redirect,
        args.has_output_redirect,
        args.conversation_id,
        args.request_id,
        args.admin_command_denylist,
    ) == (
        86400000,
        "TIMEOUT_BEHAVIOR_BACKGROUND",
        "Lint the project",
        True,
        False,
        False,
        True,
        "conv-7f1e",
        "req-51c2",
        ["shutdown"],
    )


@pytest.mark.parametrize(
    ("wire", "number"),
    [("40000", 40000), (40000, 40000), ("forty", None), (None, None)],
    ids=["string", "int", "not-digits", "absent"],
)
def test_the_file_output_threshold_string_reads_as_a_number(
    wire: str | int | None, number: int | None
) -> None:
    assert ShellArgs(_file_output_threshold_bytes=wire).file_output_threshold_bytes == number


def test_a_looked_up_mcp_tool_is_named_by_tool_name_and_has_no_pattern() -> None:
    args = completed("call_mcp_tool_one\nfc_32").args
    assert isinstance(args, GetMcpToolsArgs)
    assert (args.tool_name, args.pattern) == ("read_file", "")


def test_a_search_of_mcp_tools_has_a_pattern_and_no_tool_name() -> None:
    args = completed("call_mcp_tools\nfc_30").args
    assert isinstance(args, GetMcpToolsArgs)
    assert (args.pattern, args.tool_name) == ("issue", None)


def test_how_the_cli_parsed_a_shell_command_is_typed() -> None:
    args = completed("call_shell_new\nfc_31").args
    assert isinstance(args, ShellArgs)
    assert args.parsing_result == ParsingResult(
        parsing_failed=False,
        executable_commands=[
            ExecutableCommand(
                name="make", args=[CommandArg(type="word", value="lint")], full_text="make lint"
            )
        ],
        has_redirects=False,
        has_command_substitution=False,
        redirects=[],
    )


def test_a_parsing_result_with_fields_of_another_shape_keeps_the_args_as_a_dict() -> None:
    line = (
        '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":'
        '{"args":{"command":"ls","parsingResult":{"executableCommands":"ls"}}}}}'
    )
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert event.args == {"command": "ls", "parsingResult": {"executableCommands": "ls"}}


def test_a_shell_call_says_whether_it_went_to_the_background() -> None:
    assert completed("call_shell_new\nfc_31").is_background is False


def test_a_call_without_is_background_beside_its_outcome_has_none() -> None:
    assert completed("call_read\nfc_01").is_background is None


def test_a_plan_calls_plan_uri_is_read_beside_its_outcome() -> None:
    event = completed("call_plan\nfc_29")
    assert event.plan_uri == "file:///home/dev/.cursor/plans/round-cart-totals.plan.md"


def test_a_shell_success_has_its_local_execution_time() -> None:
    result = completed("call_shell_new\nfc_31").result
    assert isinstance(result, ShellSuccess)
    assert (result.execution_time, result.local_execution_time_ms) == (812, 790)


def test_a_description_inside_the_kind_object_is_an_extra() -> None:
    event = completed("call_shell_new\nfc_31")
    assert event.extras == {"description": "Lint the project"}


def test_the_description_comes_from_the_kind_object() -> None:
    line = (
        '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":'
        '{"args":{"command":"ls"},"description":"List the files"}}}'
    )
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert event.description == "List the files"


def test_the_description_falls_back_to_the_shell_args() -> None:
    line = (
        '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":'
        '{"args":{"command":"ls","description":"List them"}}}}'
    )
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert event.description == "List them"


def test_a_call_without_a_description_has_none_and_no_extras() -> None:
    event = completed("call_read\nfc_01")
    assert (event.description, event.extras, event.result_extras) == (None, {}, {})


def test_a_read_has_its_related_cursor_rules() -> None:
    result = completed("call_read_rules\nfc_32").result
    assert isinstance(result, ReadSuccess)
    assert (result.related_cursor_rule_paths, result.related_cursor_rules) == (
        [".cursor/rules/python.mdc"],
        [{"path": ".cursor/rules/python.mdc"}],
    )


def test_grep_args_have_glob_offset_and_tool_call_id() -> None:
    args = completed("call_grep_glob\nfc_33").args
    assert isinstance(args, GrepArgs)
    assert (args.glob, args.offset, args.tool_call_id) == (
        "**/*.py",
        20,
        "call_grep_glob\nfc_33",
    )


def test_grep_content_has_its_truncation_and_context_flags() -> None:
    result = completed("call_grep_glob\nfc_33").result
    assert isinstance(result, GrepSuccess)
    content = result.workspace_results["/home/dev/shop"].content
    assert content is not None
    lines = content.matches[0].matches
    assert (content.client_truncated, content.ripgrep_truncated) == (True, False)
    assert [(m.content_truncated, m.is_context_line) for m in lines] == [
        (False, True),
        (True, False),
    ]


def test_grep_files_have_their_truncation_flags() -> None:
    result = completed("call_grep_files_cut\nfc_34").result
    assert isinstance(result, GrepSuccess)
    files = result.workspace_results["/home/dev/shop"].files
    assert files is not None
    assert (files.client_truncated, files.ripgrep_truncated) == (False, True)


def test_unknown_fields_of_a_known_kind_are_ignored() -> None:
    line = (
        '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"grepToolCall":'
        '{"args":{"pattern":"x","someFutureFlag":{"deep":[1,2]}}}}}'
    )
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert event.args == GrepArgs(pattern="x")
