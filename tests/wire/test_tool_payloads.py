"""Tool-call events: every kind of docs/protocol.md §3.4 decodes into typed args and
results, unknown kinds and outcomes keep their payload as dicts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agent_sdk._wire.decode import LineDecoder
from agent_sdk.events import Event, ToolCallCompleted, ToolCallStarted
from agent_sdk.tools import (
    CommandArg,
    CreatePlanArgs,
    CreatePlanSuccess,
    DeleteArgs,
    DeleteSuccess,
    EditArgs,
    EditSuccess,
    ExecutableCommand,
    FunctionArgs,
    GetMcpToolsArgs,
    GetMcpToolsSuccess,
    GlobArgs,
    GlobSuccess,
    GrepArgs,
    GrepSuccess,
    LsArgs,
    LsSuccess,
    McpArgs,
    McpSuccess,
    ParsingResult,
    PermissionDenied,
    ReadArgs,
    ReadSuccess,
    Rejection,
    ShellArgs,
    ShellSuccess,
    ToolFailure,
    UpdateTodosArgs,
    UpdateTodosSuccess,
    WriteArgs,
    WritePermissionDenied,
    WriteSuccess,
)

TOOL_CALLS = Path(__file__).parents[1] / "data" / "tool_call_kinds.ndjson"


def decode(line: bytes | str) -> Event | None:
    if isinstance(line, str):
        line = line.encode()
    return LineDecoder(partial=False).decode(line)


def tool_call(call_id: str) -> ToolCallStarted | ToolCallCompleted:
    """The event of tests/data/tool_call_kinds.ndjson with this call_id."""
    for line in TOOL_CALLS.read_bytes().splitlines():
        event = decode(line)
        assert isinstance(event, ToolCallStarted | ToolCallCompleted)
        if event.call_id == call_id:
            return event
    raise LookupError(call_id)


def completed(call_id: str) -> ToolCallCompleted:
    event = tool_call(call_id)
    assert isinstance(event, ToolCallCompleted)
    return event


# call_id -> (kind, args class, result class, a field of the event, its value)
TOOL_KINDS: dict[str, tuple[str, type, type, Callable[[Any], Any], Any]] = {
    "call_read\nfc_01": (
        "readToolCall",
        ReadArgs,
        ReadSuccess,
        lambda e: (e.args.limit, e.result.total_lines, e.result.read_range.end_line),
        (40, 6, 6),
    ),
    "call_write\nfc_02": (
        "writeToolCall",
        WriteArgs,
        WriteSuccess,
        lambda e: (e.args.file_text, e.result.lines_created),
        ("def test_x():\n    pass\n", 2),
    ),
    "call_edit_str\nfc_03": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: (e.args.str_replace.new_text, e.result.lines_added),
        ('Decimal("0.00"))', 1),
    ),
    "call_edit_stream\nfc_04": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: (e.args.stream_content, e.result.after_full_file_content),
        ("import sys\n", "import sys\n"),
    ),
    "call_edit_multi\nfc_05": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: [(r.old_text, r.new_text) for r in e.args.multi_str_replace.edits],
        [("qty", "quantity"), ("price", "unit_price")],
    ),
    "call_edit_patch\nfc_06": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: e.args.apply_patch.patch_content.splitlines()[0],
        "*** Begin Patch",
    ),
    "call_shell\nfc_07": (
        "shellToolCall",
        ShellArgs,
        ShellSuccess,
        lambda e: (e.args.timeout, e.args.simple_commands, e.result.exit_code, e.result.stdout),
        (30000, ["pytest"], 0, "2 passed in 0.04s\n"),
    ),
    "call_grep_files\nfc_09": (
        "grepToolCall",
        GrepArgs,
        GrepSuccess,
        lambda e: e.result.workspace_results["/home/dev/shop"].files.files,
        ["src/cart.py", "tests/old_test_cart.py"],
    ),
    "call_grep_content\nfc_10": (
        "grepToolCall",
        GrepArgs,
        GrepSuccess,
        lambda e: (
            e.args.case_insensitive,
            e.result.workspace_results["/home/dev/shop"].content.matches[0].matches[0].line_number,
        ),
        (True, 4),
    ),
    "call_glob\nfc_11": (
        "globToolCall",
        GlobArgs,
        GlobSuccess,
        lambda e: (e.args.glob_pattern, e.result.total_files),
        ("tests/**/*.py", 1),
    ),
    "call_ls\nfc_12": (
        "lsToolCall",
        LsArgs,
        LsSuccess,
        lambda e: (e.args.ignore, e.result.directory_tree_root["absPath"]),
        (["node_modules", ".git"], "/home/dev/shop"),
    ),
    "call_delete\nfc_13": (
        "deleteToolCall",
        DeleteArgs,
        DeleteSuccess,
        lambda e: e.args.path,
        "tests/old_test_cart.py",
    ),
    "call_todos\nfc_14": (
        "updateTodosToolCall",
        UpdateTodosArgs,
        UpdateTodosSuccess,
        lambda e: [t.status for t in e.result.todos],
        ["TODO_STATUS_COMPLETED", "TODO_STATUS_IN_PROGRESS"],
    ),
    "call_mcp\nfc_15": (
        "mcpToolCall",
        McpArgs,
        McpSuccess,
        lambda e: (e.args.tool_name, e.args.args, e.result.content[0].text.text),
        ("get_issue", {"id": "SHOP-42"}, "SHOP-42: Cart totals must be rounded"),
    ),
    "call_function\nfc_17": (
        "function",
        FunctionArgs,
        dict,
        lambda e: (e.args.name, e.result),
        ("fetch_changelog", {"output": "1.2.1: round totals to cents"}),
    ),
    "call_plan\nfc_29": (
        "createPlanToolCall",
        CreatePlanArgs,
        CreatePlanSuccess,
        lambda e: (e.args.name, e.args.plan.splitlines()[0], e.args.is_project, e.args.phases),
        ("Round cart totals", "# Round cart totals", False, []),
    ),
    "call_mcp_tools\nfc_30": (
        "getMcpToolsToolCall",
        GetMcpToolsArgs,
        GetMcpToolsSuccess,
        lambda e: (e.args.server, e.args.pattern, e.result.parsed_content()[0]["name"]),
        ("linear", "issue", "get_issue"),
    ),
    "call_mcp_tool_one\nfc_32": (
        "getMcpToolsToolCall",
        GetMcpToolsArgs,
        GetMcpToolsSuccess,
        lambda e: (e.args.server, e.args.tool_name, e.result.parsed_content()["tool"]),
        ("cursor", "read_file", "read_file"),
    ),
}


# --- every kind ---------------------------------------------------------------------
@pytest.mark.parametrize("call_id", list(TOOL_KINDS), ids=lambda c: c.split("\n")[0])
def test_each_tool_kind_decodes_to_its_kind_typed_args_and_typed_success(call_id: str) -> None:
    kind, args_cls, result_cls, field, value = TOOL_KINDS[call_id]
    event = completed(call_id)
    assert (event.kind, type(event.args), event.outcome, type(event.result)) == (
        kind,
        args_cls,
        "success",
        result_cls,
    )
    assert field(event) == value


def test_an_mcp_completion_without_args_still_has_a_typed_result() -> None:
    event = completed("call_mcp_noargs\nfc_16")
    assert (event.kind, event.args, event.outcome) == ("mcpToolCall", None, "success")
    assert isinstance(event.result, McpSuccess)
    assert event.result.content[0].text is not None
    assert event.result.content[0].text.text == "Comment added."


def test_a_function_call_has_json_string_arguments_that_parse() -> None:
    event = tool_call("call_function_start\nfc_26")
    assert isinstance(event, ToolCallStarted)
    assert event.kind == "function"
    assert isinstance(event.args, FunctionArgs)
    assert event.args.arguments == '{"package":"shop","since":"1.2.0"}'
    assert event.args.parsed_arguments() == {"package": "shop", "since": "1.2.0"}


def test_invalid_function_arguments_raise_on_parse() -> None:
    with pytest.raises(msgspec.DecodeError):
        FunctionArgs(name="f", arguments="{not json").parsed_arguments()


def test_an_unknown_tool_kind_keeps_args_as_a_dict() -> None:
    event = completed("call_websearch\nfc_18")
    assert event.kind == "webSearchToolCall"
    assert event.args == {
        "searchTerm": "python decimal quantize",
        "toolCallId": "call_websearch\nfc_18",
    }


def test_an_unknown_tool_kind_keeps_its_result_as_a_dict() -> None:
    event = completed("call_websearch\nfc_18")
    assert (event.outcome, event.result) == (
        "success",
        {
            "references": [
                {"title": "decimal", "url": "https://docs.python.org/3/library/decimal.html"}
            ]
        },
    )


def test_an_unknown_tool_kind_keeps_the_raw_tool_call() -> None:
    event = completed("call_websearch\nfc_18")
    raw = msgspec.json.decode(event.tool_call)["webSearchToolCall"]
    assert raw["args"]["searchTerm"] == "python decimal quantize"


# --- sibling keys -------------------------------------------------------------------
def test_sibling_keys_are_parsed_into_tool_call_id_and_millisecond_ints() -> None:
    event = completed("call_siblings\nfc_25")
    assert (event.kind, event.tool_call_id, event.started_at_ms, event.completed_at_ms) == (
        "readToolCall",
        "call_siblings\nfc_25",
        1785515118821,
        1785515118990,
    )


def test_without_sibling_keys_id_and_millis_are_none() -> None:
    event = completed("call_read\nfc_01")
    assert (event.tool_call_id, event.started_at_ms, event.completed_at_ms) == (None, None, None)


def test_a_non_string_tool_call_id_and_a_non_numeric_started_at_are_none() -> None:
    event = decode(
        '{"type":"tool_call","subtype":"started","call_id":"c1",'
        '"tool_call":{"readToolCall":{"args":{"path":"a"}},"toolCallId":5,"startedAtMs":"soon"}}'
    )
    assert isinstance(event, ToolCallStarted)
    assert (event.tool_call_id, event.started_at_ms) == (None, None)


def test_a_tool_call_payload_that_is_not_an_object_is_kept_and_parses_to_nothing() -> None:
    # The payload is decoded on first access only (docs/benchmarks.md), so its shape is
    # not checked while the stream is read: the event arrives, and its views are empty.
    line = '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":"read"}'
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert bytes(event.tool_call) == b'"read"'
    assert (event.kind, event.args, event.tool_call_id) == ("", None, None)


# --- outcomes -----------------------------------------------------------------------
def test_a_rejected_outcome_is_a_rejection() -> None:
    event = completed("call_rejected\nfc_19")
    assert event.outcome == "rejected"
    assert isinstance(event.result, Rejection)
    assert event.result.reason == "not allowed without --force"


def test_an_error_outcome_is_a_tool_failure_with_its_message() -> None:
    event = completed("call_error\nfc_20")
    assert (event.outcome, event.result) == (
        "error",
        ToolFailure(message="File not found: tests/fixtures/missing.json"),
    )


@pytest.mark.parametrize(
    ("call_id", "outcome", "payload"),
    [
        (
            "call_timeout\nfc_21",
            "timeout",
            {"timeoutMs": 30000, "message": "grep timed out after 30000 ms"},
        ),
        ("call_quarantined\nfc_28", "quarantined", {"why": "policy", "until": "tomorrow"}),
    ],
    ids=["timeout", "quarantined"],
)
def test_an_outcome_without_a_type_keeps_its_key_and_payload(
    call_id: str, outcome: str, payload: dict[str, Any]
) -> None:
    event = completed(call_id)
    assert (event.outcome, event.result) == (outcome, payload)


def test_a_permission_denied_outcome_is_typed_with_the_command_and_error() -> None:
    event = completed("call_denied\nfc_22")
    assert (event.outcome, event.result) == (
        "permissionDenied",
        PermissionDenied(
            error="Command blocked by permissions configuration",
            command="rm -rf dist",
            working_directory="/home/dev/shop",
            is_readonly=False,
        ),
    )


def test_a_write_permission_denied_outcome_is_typed_with_the_path_and_error() -> None:
    event = completed("call_write_denied\nfc_27")
    assert (event.outcome, event.result) == (
        "writePermissionDenied",
        WritePermissionDenied(
            error="Write permission denied: /home/dev/shop/.env",
            path="/home/dev/shop/.env",
            is_readonly=False,
        ),
    )


def test_a_scalar_beside_a_denial_is_a_result_extra_not_the_outcome() -> None:
    event = completed("call_denied\nfc_22")
    assert (event.outcome, event.result_extras) == ("permissionDenied", {"isBackground": False})


def test_is_background_beside_success_does_not_change_the_outcome() -> None:
    event = completed("call_background\nfc_23")
    assert event.outcome == "success"
    assert isinstance(event.result, ShellSuccess)
    assert event.result.command == "npm run dev"


def test_a_shell_command_with_a_non_zero_exit_code_is_a_success_outcome() -> None:
    event = completed("call_shell_fail\nfc_08")
    assert event.outcome == "success"
    assert isinstance(event.result, ShellSuccess)
    assert event.result.exit_code == 1


def test_args_with_a_wrong_typed_field_fall_back_to_a_dict() -> None:
    event = completed("call_badargs\nfc_24")
    assert event.args == {"path": 5, "limit": "all"}


def test_a_started_event_has_no_outcome_attribute() -> None:
    event = tool_call("call_function_start\nfc_26")
    assert not hasattr(event, "outcome")


# --- fields added by 2026.10 CLIs ----------------------------------------------------
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


# --- timing -------------------------------------------------------------------------
def test_a_completed_event_takes_its_duration_from_the_at_ms_pair() -> None:
    # Its timestamp_ms (1785515200024) is from another clock: it plays no part.
    assert completed("call_siblings\nfc_25").duration_ms == 169


def test_a_completed_event_without_the_at_ms_pair_has_no_duration() -> None:
    assert completed("call_read\nfc_01").duration_ms is None
