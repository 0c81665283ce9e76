"""Tool-call events: every kind of docs/protocol.md §3.4 decodes into typed args and a
typed success; an unknown kind keeps its args, result and raw payload as dicts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from tool_payload_events import completed, tool_call

from agent_sdk.events import ToolCallStarted
from agent_sdk.tools import (
    CreatePlanArgs,
    CreatePlanSuccess,
    DeleteArgs,
    DeleteSuccess,
    EditArgs,
    EditSuccess,
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
    ReadArgs,
    ReadSuccess,
    ShellArgs,
    ShellSuccess,
    UpdateTodosArgs,
    UpdateTodosSuccess,
    WriteArgs,
    WriteSuccess,
)

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
