"""LineDecoder: one stdout line in, one typed event out (cli-protocol.md §3)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agent_sdk._decode import LineDecoder
from agent_sdk.events import (
    AssistantEvent,
    ConnectionEvent,
    Event,
    ResultEvent,
    RetryEvent,
    SystemEvent,
    SystemInit,
    ThinkingCompleted,
    ThinkingDelta,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    UserEvent,
)
from agent_sdk.tools import (
    DeleteArgs,
    DeleteSuccess,
    EditArgs,
    EditSuccess,
    FunctionArgs,
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
    Rejection,
    ShellArgs,
    ShellSuccess,
    ToolFailure,
    UpdateTodosArgs,
    UpdateTodosSuccess,
    WriteArgs,
    WriteSuccess,
)

DATA = Path(__file__).parent / "data"
EXAMPLES = DATA / "cli_protocol_examples.ndjson"
TOOL_CALLS = DATA / "tool_call_kinds.ndjson"
PROTOCOL_DOC = Path(__file__).parents[2] / "shared" / "cli-protocol.md"
SCENARIOS = Path(__file__).parents[1] / "fake_agent" / "scenarios"

SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


def decode(line: bytes | str, *, partial: bool = False) -> Event | None:
    if isinstance(line, str):
        line = line.encode()
    return LineDecoder(partial=partial).decode(line)


def example_lines() -> list[bytes]:
    return EXAMPLES.read_bytes().splitlines()


# --- every example of the protocol doc ----------------------------------------------
# line index in cli_protocol_examples.ndjson -> (class, type, subtype, key fields)
EXPECTED_EXAMPLES: dict[int, tuple[type, str, str | None, dict[str, Any]]] = {
    0: (
        ResultEvent,
        "result",
        "success",
        {
            "is_error": False,
            "result": "Done. I added the test.",
            "duration_ms": 4210,
            "session_id": SESSION,
            "request_id": "9e1f0c3a-7d2b-4c65-8a0e-2b5d6f7a8c91",
            "usage": Usage(
                inputTokens=18211, outputTokens=96, cacheReadTokens=5120, cacheWriteTokens=0
            ),
        },
    ),
    1: (
        SystemInit,
        "system",
        "init",
        {
            "apiKeySource": "env",
            "cwd": "/home/dev/shop",
            "session_id": SESSION,
            "model": "Claude 4.5 Sonnet",
            "permissionMode": "default",
        },
    ),
    2: (UserEvent, "user", None, {"text": "Add a test for cart totals", "session_id": SESSION}),
    3: (
        AssistantEvent,
        "assistant",
        None,
        {
            "text": "I'll read the cart module first.",
            "new_text": "I'll read the cart module first.",
            "model_call_id": "9e1f0c3a-...-0-kq3z",
            "timestamp_ms": 1785515118001,
        },
    ),
    4: (
        ToolCallStarted,
        "tool_call",
        "started",
        {
            "call_id": "call_7Qx2\nfc_01ab",
            "kind": "readToolCall",
            "args": ReadArgs(path="src/cart.py"),
            "tool_call_id": "call_7Qx2\nfc_01ab",
            "started_at_ms": 1785515118821,
            "model_call_id": "9e1f0c3a-...-0-kq3z",
            "timestamp_ms": 1785515118818,
        },
    ),
    5: (
        ToolCallCompleted,
        "tool_call",
        "completed",
        {
            "call_id": "call_7Qx2\nfc_01ab",
            "kind": "readToolCall",
            "outcome": "success",
            "result": ReadSuccess(
                content="def total(items):\n    ...",
                totalLines=54,
                totalChars=1254,
            ),
            "completed_at_ms": 1785515118990,
        },
    ),
    6: (
        ToolCallCompleted,
        "tool_call",
        "completed",
        {
            "call_id": "call_9",
            "kind": "shellToolCall",
            "outcome": "rejected",
            "result": Rejection(
                command="pytest -q", workingDirectory="/home/dev/shop", reason="", isReadonly=False
            ),
        },
    ),
    7: (
        ThinkingDelta,
        "thinking",
        "delta",
        {"text": "**Planning the change", "timestamp_ms": 1785515117001},
    ),
    8: (ThinkingCompleted, "thinking", "completed", {"timestamp_ms": 1785515117950}),
    9: (
        ConnectionEvent,
        "connection",
        "reconnecting",
        {"attempt": 1, "endpoint_url": "https://api.example.invalid"},
    ),
    10: (RetryEvent, "retry", "starting", {"attempt": 1, "is_resume": True}),
    11: (ConnectionEvent, "connection", "reconnected", {"attempt": None}),
    12: (
        ResultEvent,
        "result",
        "success",
        {
            "duration_ms": 18788,
            "result": "I'll read the cart module first.The test is added and passes.",
            "usage": Usage(
                inputTokens=115, outputTokens=18, cacheReadTokens=19776, cacheWriteTokens=0
            ),
        },
    ),
}


def test_the_example_table_covers_every_line_of_the_data_file() -> None:
    assert sorted(EXPECTED_EXAMPLES) == list(range(len(example_lines())))


@pytest.mark.parametrize("index", sorted(EXPECTED_EXAMPLES))
def test_each_protocol_example_decodes_to_its_class_and_fields(index: int) -> None:
    cls, type_, subtype, fields = EXPECTED_EXAMPLES[index]
    event = decode(example_lines()[index])
    assert type(event) is cls
    assert (event.type, event.subtype) == (type_, subtype)
    assert {name: getattr(event, name) for name in fields} == fields


def test_the_data_file_holds_every_json_example_of_the_protocol_doc() -> None:
    if not PROTOCOL_DOC.is_file():
        pytest.skip(f"{PROTOCOL_DOC} is not there")
    blocks = re.findall(r"```json\n(.*?)```", PROTOCOL_DOC.read_text("utf-8"), re.DOTALL)
    doc_lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    data_lines = EXAMPLES.read_text("utf-8").splitlines()
    assert doc_lines
    assert [line for line in doc_lines if line not in data_lines] == []


# --- tolerance: unknown things pass through -----------------------------------------
def test_unknown_fields_are_ignored() -> None:
    event = decode(
        '{"type":"result","subtype":"success","is_error":false,"result":"ok",'
        '"brand_new":{"nested":[1,2]},"session_id":"s1"}'
    )
    assert isinstance(event, ResultEvent)
    assert (event.result, event.session_id) == ("ok", "s1")


def test_an_unknown_event_type_becomes_unknown_event_keeping_the_raw_object() -> None:
    line = '{"type":"interaction_query","subtype":"request","query_id":"iq_1","session_id":"s1"}'
    event = decode(line)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.subtype, event.raw) == (
        "interaction_query",
        "request",
        json.loads(line),
    )


def test_an_unknown_event_type_is_not_an_error() -> None:
    event = decode('{"type":"telemetry","subtype":"heartbeat","seq":7}')
    assert isinstance(event, UnknownEvent)
    assert event.error is None


def test_an_unknown_event_keeps_its_session_id() -> None:
    event = decode('{"type":"telemetry","session_id":"s1"}')
    assert isinstance(event, UnknownEvent)
    assert event.session_id == "s1"


def test_an_object_without_a_type_becomes_unknown_event() -> None:
    event = decode('{"hello":"world"}')
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.raw) == ("", {"hello": "world"})


def test_an_unknown_system_subtype_becomes_system_event_with_raw() -> None:
    line = '{"type":"system","subtype":"task_notification","task":{"id":"t1"},"session_id":"s1"}'
    event = decode(line)
    assert isinstance(event, SystemEvent)
    assert (event.subtype, event.raw, event.session_id) == (
        "task_notification",
        json.loads(line),
        "s1",
    )


@pytest.mark.parametrize("type_", ["thinking", "tool_call"])
def test_an_unknown_subtype_of_thinking_or_tool_call_becomes_unknown_event(type_: str) -> None:
    line = json.dumps({"type": type_, "subtype": "paused", "session_id": "s1"})
    event = decode(line)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.subtype, event.raw) == (type_, "paused", json.loads(line))


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"result","subtype":"success","duration_ms":"slow","result":"x"}',
        '{"type":"assistant","message":{"content":"not a list"}}',
        '{"type":"system","subtype":"init","cwd":42}',
        '{"type":"thinking","subtype":"delta","text":7}',
        '{"type":"tool_call","subtype":"started","call_id":7,"tool_call":{}}',
        '{"type":"connection","subtype":"reconnecting","attempt":"one"}',
    ],
)
def test_a_known_type_with_a_wrong_typed_field_becomes_unknown_event_with_error(line: str) -> None:
    event = decode(line)
    assert isinstance(event, UnknownEvent)
    assert event.raw == json.loads(line)
    assert event.error


def test_a_tool_call_payload_that_is_not_an_object_is_kept_and_parses_to_nothing() -> None:
    # The payload is decoded on first access only (benchmarks/), so its shape is not
    # checked while the stream is read: the event arrives, and its views are empty.
    line = '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":"read"}'
    event = decode(line)
    assert isinstance(event, ToolCallStarted)
    assert bytes(event.tool_call) == b'"read"'
    assert (event.kind, event.args, event.tool_call_id) == ("", None, None)


# --- lines that are not events ------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        b"Cursor Agent 2026.10.01 (headless)",
        b"T: 1785515150000 waiting for model response",
        b"\xe2\x9a\xa0 Warning: The provided API key is invalid.",
        b"\xff\xfe garbage",
    ],
)
def test_a_non_json_line_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


@pytest.mark.parametrize("line", [b"42", b'"x"', b"[1]", b"null", b"true", b'[{"type":"result"}]'])
def test_valid_json_that_is_not_an_object_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"result","subtype":"success","result":"Done',
        b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":',
        b'{"type":"result","result":"cut \\ud83d',
    ],
)
def test_truncated_json_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


def test_a_trailing_carriage_return_is_json_whitespace() -> None:
    event = decode(b'{"type":"result","result":"ok"}\r')
    assert isinstance(event, ResultEvent)
    assert event.result == "ok"


# --- text repair --------------------------------------------------------------------
def result_text(line: bytes) -> str:
    event = decode(line)
    assert isinstance(event, ResultEvent)
    return event.result


def test_a_lone_high_surrogate_decodes_as_replacement_character() -> None:
    assert result_text(b'{"type":"result","result":"party \\ud83d"}') == "party \ufffd"


def test_a_lone_low_surrogate_decodes_as_replacement_character() -> None:
    assert result_text(b'{"type":"result","result":"a\\ude00b"}') == "a\ufffdb"


def test_a_valid_surrogate_pair_is_kept_as_the_emoji() -> None:
    assert result_text(b'{"type":"result","result":"party \\ud83c\\udf89"}') == "party 🎉"


def test_a_lone_surrogate_before_a_valid_pair_only_replaces_the_lone_one() -> None:
    assert result_text(b'{"type":"result","result":"\\ud83d\\ud83d\\ude00"}') == "\ufffd😀"


def test_an_escaped_backslash_before_u_d83d_is_literal_text() -> None:
    # JSON `\\ud83d` is a backslash followed by the six characters `ud83d`, not an escape.
    assert result_text(b'{"type":"result","result":"C:\\\\ud83d"}') == "C:\\ud83d"


def test_a_lone_surrogate_after_an_escaped_backslash_is_still_replaced() -> None:
    # JSON `\\\ud83d`: a literal backslash, then a lone surrogate escape.
    assert result_text(b'{"type":"result","result":"\\\\\\ud83d"}') == "\\\ufffd"


def test_invalid_utf8_inside_a_string_decodes_with_replacement_characters() -> None:
    assert result_text(b'{"type":"result","result":"caf\xc3 ok \xff"}') == "caf\ufffd ok \ufffd"


def test_a_lone_surrogate_in_a_tool_result_is_repaired() -> None:
    line = (
        b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":'
        b'{"args":{"path":"notes.md"},"result":{"success":{"content":"party time \\ud83d"}}}}}'
    )
    event = decode(line)
    assert isinstance(event, ToolCallCompleted)
    assert isinstance(event.result, ReadSuccess)
    assert event.result.content == "party time \ufffd"


def test_a_call_id_with_an_escaped_newline_is_preserved_exactly() -> None:
    event = decode(example_lines()[4])
    assert isinstance(event, ToolCallStarted)
    assert event.call_id == "call_7Qx2\nfc_01ab"


# --- tool calls: every kind of §3.4 -------------------------------------------------
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
        lambda e: (e.args.limit, e.result.totalLines, e.result.readRange.endLine),
        (40, 6, 6),
    ),
    "call_write\nfc_02": (
        "writeToolCall",
        WriteArgs,
        WriteSuccess,
        lambda e: (e.args.fileText, e.result.linesCreated),
        ("def test_x():\n    pass\n", 2),
    ),
    "call_edit_str\nfc_03": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: (e.args.strReplace.newText, e.result.linesAdded),
        ('Decimal("0.00"))', 1),
    ),
    "call_edit_stream\nfc_04": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: (e.args.streamContent, e.result.afterFullFileContent),
        ("import sys\n", "import sys\n"),
    ),
    "call_edit_multi\nfc_05": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: [(r.oldText, r.newText) for r in e.args.multiStrReplace.edits],
        [("qty", "quantity"), ("price", "unit_price")],
    ),
    "call_edit_patch\nfc_06": (
        "editToolCall",
        EditArgs,
        EditSuccess,
        lambda e: e.args.applyPatch.patchContent.splitlines()[0],
        "*** Begin Patch",
    ),
    "call_shell\nfc_07": (
        "shellToolCall",
        ShellArgs,
        ShellSuccess,
        lambda e: (e.args.timeout, e.args.simpleCommands, e.result.exitCode, e.result.stdout),
        (30000, ["pytest"], 0, "2 passed in 0.04s\n"),
    ),
    "call_grep_files\nfc_09": (
        "grepToolCall",
        GrepArgs,
        GrepSuccess,
        lambda e: e.result.workspaceResults["/home/dev/shop"].files.files,
        ["src/cart.py", "tests/old_test_cart.py"],
    ),
    "call_grep_content\nfc_10": (
        "grepToolCall",
        GrepArgs,
        GrepSuccess,
        lambda e: (
            e.args.caseInsensitive,
            e.result.workspaceResults["/home/dev/shop"].content.matches[0].matches[0].lineNumber,
        ),
        (True, 4),
    ),
    "call_glob\nfc_11": (
        "globToolCall",
        GlobArgs,
        GlobSuccess,
        lambda e: (e.args.globPattern, e.result.totalFiles),
        ("tests/**/*.py", 1),
    ),
    "call_ls\nfc_12": (
        "lsToolCall",
        LsArgs,
        LsSuccess,
        lambda e: (e.args.ignore, e.result.directoryTreeRoot["absPath"]),
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
        lambda e: (e.args.toolName, e.args.args, e.result.content[0].text.text),
        ("get_issue", {"id": "SHOP-42"}, "SHOP-42: Cart totals must be rounded"),
    ),
    "call_function\nfc_17": (
        "function",
        FunctionArgs,
        dict,
        lambda e: (e.args.name, e.result),
        ("fetch_changelog", {"output": "1.2.1: round totals to cents"}),
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


def test_an_unknown_tool_kind_keeps_args_and_result_as_dicts() -> None:
    event = completed("call_websearch\nfc_18")
    assert event.kind == "webSearchToolCall"
    assert event.args == {
        "searchTerm": "python decimal quantize",
        "toolCallId": "call_websearch\nfc_18",
    }
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


def test_a_non_string_tool_call_id_is_none() -> None:
    event = decode(
        '{"type":"tool_call","subtype":"started","call_id":"c1",'
        '"tool_call":{"readToolCall":{"args":{"path":"a"}},"toolCallId":5,"startedAtMs":"soon"}}'
    )
    assert isinstance(event, ToolCallStarted)
    assert (event.tool_call_id, event.started_at_ms) == (None, None)


# --- tool calls: outcomes -----------------------------------------------------------
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
        ("call_denied\nfc_22", "permissionDenied", {"reason": "sandbox"}),
    ],
)
def test_an_unknown_outcome_keeps_its_key_and_payload(
    call_id: str, outcome: str, payload: dict[str, Any]
) -> None:
    event = completed(call_id)
    assert (event.outcome, event.result) == (outcome, payload)


def test_is_background_beside_success_does_not_change_the_outcome() -> None:
    event = completed("call_background\nfc_23")
    assert event.outcome == "success"
    assert isinstance(event.result, ShellSuccess)
    assert event.result.command == "npm run dev"


def test_a_shell_command_with_a_non_zero_exit_code_is_a_success_outcome() -> None:
    event = completed("call_shell_fail\nfc_08")
    assert event.outcome == "success"
    assert isinstance(event.result, ShellSuccess)
    assert event.result.exitCode == 1


def test_args_with_a_wrong_typed_field_fall_back_to_a_dict() -> None:
    event = completed("call_badargs\nfc_24")
    assert event.args == {"path": 5, "limit": "all"}


def test_a_started_event_has_no_outcome_attribute() -> None:
    event = tool_call("call_function_start\nfc_26")
    assert not hasattr(event, "outcome")


# --- assistant text (§3.3) ----------------------------------------------------------
def assistant(*, model_call_id: bool, timestamp: bool) -> bytes:
    event: dict[str, Any] = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "Hello there."}]},
        "session_id": "s1",
    }
    if model_call_id:
        event["model_call_id"] = "m-0-abc"
    if timestamp:
        event["timestamp_ms"] = 1785515118001
    return json.dumps(event).encode()


@pytest.mark.parametrize("model_call_id", [True, False])
@pytest.mark.parametrize("timestamp", [True, False])
def test_without_partial_output_every_assistant_event_is_new_text(
    model_call_id: bool, timestamp: bool
) -> None:
    event = decode(assistant(model_call_id=model_call_id, timestamp=timestamp), partial=False)
    assert isinstance(event, AssistantEvent)
    assert event.new_text == event.text == "Hello there."


def test_with_partial_output_a_delta_is_new_text() -> None:
    event = decode(assistant(model_call_id=False, timestamp=True), partial=True)
    assert isinstance(event, AssistantEvent)
    assert event.new_text == "Hello there."


def test_with_partial_output_the_flush_before_a_tool_call_adds_no_text() -> None:
    event = decode(assistant(model_call_id=True, timestamp=True), partial=True)
    assert isinstance(event, AssistantEvent)
    assert (event.text, event.new_text) == ("Hello there.", "")


def test_with_partial_output_the_end_of_turn_flush_adds_no_text() -> None:
    event = decode(assistant(model_call_id=False, timestamp=False), partial=True)
    assert isinstance(event, AssistantEvent)
    assert (event.text, event.new_text) == ("Hello there.", "")


def test_assistant_text_joins_text_blocks_with_no_separator() -> None:
    event = decode(
        '{"type":"assistant","message":{"content":[{"type":"text","text":"in bash."},'
        '{"type":"image","text":"ignored"},{"type":"text","text":"Both commands"}]}}'
    )
    assert isinstance(event, AssistantEvent)
    assert event.text == "in bash.Both commands"


# --- the fake agent's scenarios -----------------------------------------------------
def scenario_events() -> list[tuple[str, int, bytes]]:
    cases = []
    for path in sorted(SCENARIOS.glob("*.ndjson")):
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            if line.strip() and "fake" not in json.loads(line):
                cases.append((path.stem, number, line))
    return cases


def test_the_scenarios_have_events() -> None:
    assert len(scenario_events()) > 50


@pytest.mark.parametrize(
    ("scenario", "number", "line"),
    scenario_events(),
    ids=[f"{name}:{number}" for name, number, _ in scenario_events()],
)
def test_every_scenario_event_decodes(scenario: str, number: int, line: bytes) -> None:
    event = decode(line)
    assert event is not None
    if scenario != "unknown_events":
        assert not isinstance(event, UnknownEvent), event
