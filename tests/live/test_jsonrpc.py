"""The IO-free JSON-RPC layer and the message shapes (agent_sdk/live/_jsonrpc.py, _messages.py)."""

from __future__ import annotations

import json

import msgspec

from agent_sdk._wire.framing import LineBuffer
from agent_sdk.live import _jsonrpc as rpc
from agent_sdk.live import _messages as m
from agent_sdk.live import _requests as r
from agent_sdk.live import _updates as u


def test_encode_lines_carry_the_version_and_one_newline() -> None:
    lines = [
        rpc.encode_request(1, "initialize", m.InitializeParams()),
        rpc.encode_notification("session/cancel", {"sessionId": "s"}),
        rpc.encode_result(0, r.RequestPermissionResult(outcome=r.CancelledOutcome())),
        rpc.encode_error(3, -32601, "nope"),
    ]
    for line in lines:
        assert line.endswith(b"\n")
        assert line.count(b"\n") == 1
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert "id" not in json.loads(lines[1])  # a cancel sent with an id cancels nothing (§3.7)
    assert json.loads(lines[2]) == {
        "jsonrpc": "2.0",
        "id": 0,
        "result": {"outcome": {"outcome": "cancelled"}},
    }
    assert json.loads(lines[3])["error"] == {"code": -32601, "message": "nope"}


def test_initialize_params_send_every_capability_false() -> None:
    sent = json.loads(rpc.encode_request(1, "initialize", m.InitializeParams()))["params"]
    assert sent["protocolVersion"] == 1
    assert sent["clientCapabilities"] == {
        "fs": {"readTextFile": False, "writeTextFile": False},
        "terminal": False,
    }


def test_new_session_params_always_send_mcp_servers() -> None:
    line = rpc.encode_request(2, "session/new", m.NewSessionParams(cwd="/x", mcp_servers=[]))
    assert json.loads(line)["params"] == {"cwd": "/x", "mcpServers": []}


def test_decode_each_kind_of_message() -> None:
    request = rpc.decode_line(
        b'{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"a":1},"x":9}'
    )
    assert isinstance(request, rpc.Request)
    assert request.id == 0
    assert request.params is not None
    assert json.loads(bytes(request.params)) == {"a": 1}
    note = rpc.decode_line(b'{"jsonrpc":"2.0","method":"session/update","params":{}}')
    assert isinstance(note, rpc.Notification)
    assert note.method == "session/update"
    result = rpc.decode_line(b'{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}\n')
    assert isinstance(result, rpc.Response)
    assert result.error is None
    assert result.result is not None
    assert msgspec.json.decode(result.result, type=m.PromptResult).stop_reason == "end_turn"
    null_result = rpc.decode_line(b'{"jsonrpc":"2.0","id":"s","result":null}')
    assert isinstance(null_result, rpc.Response)
    assert null_result.id == "s"


def test_error_response_keeps_code_message_and_any_data() -> None:
    for data in ([{"code": "invalid_type"}], {"details": "Session X not found"}, None):
        line = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 7,
                "error": {"code": -32603, "message": "Internal error", "data": data},
            }
        ).encode()
        response = rpc.decode_line(line)
        assert isinstance(response, rpc.Response)
        assert response.error is not None
        assert (response.error.code, response.error.rpc_message) == (-32603, "Internal error")
        assert response.error.data == data
    assert "Session X not found" in str(
        rpc.JsonRpcError(-32603, "Internal error", {"details": "Session X not found"})
    )


def test_malformed_lines_are_diagnostics() -> None:
    for line in (
        b"not json",
        b'{"jsonrpc":"2.0","id":1,"result":{"trunc',
        b'{"id":1,"result":{}}',
        b'{"jsonrpc":"2.0"}',
        b'{"jsonrpc":"2.0","id":1}',
        b"[1,2]",
        b"\xff\xfe",
    ):
        decoded = rpc.decode_line(line)
        assert isinstance(decoded, rpc.Malformed)
        assert decoded.line == line
        assert decoded.reason


def test_line_buffer_joins_split_lines_and_keeps_the_rest() -> None:
    buf = LineBuffer()
    assert buf.feed(b'{"a":') == []
    assert buf.feed(b'1}\n\n{"b":2}\n{"c"') == [b'{"a":1}', b'{"b":2}']
    assert buf.rest() == b'{"c"'


def test_ids_count_from_one() -> None:
    ids = rpc.IdAllocator()
    assert [ids(), ids(), ids()] == [1, 2, 3]


def test_updates_decode_typed_and_unknown_kinds_pass_through() -> None:
    chunk = u.decode_update(
        b'{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi"},"new":1}'
    )
    assert isinstance(chunk, u.AgentMessageChunk)
    assert chunk.content.text == "Hi"
    call = u.decode_update(
        b'{"sessionUpdate":"tool_call","toolCallId":"call-1\\nfc_1","title":"`ls`",'
        b'"kind":"execute","status":"pending","rawInput":{"command":"ls"}}'
    )
    assert isinstance(call, u.AcpToolCall)
    assert call.tool_call_id == "call-1\nfc_1"
    assert call.raw_input == {"command": "ls"}
    unknown = u.decode_update(b'{"sessionUpdate":"future_kind","used":1}')
    assert isinstance(unknown, u.UnknownUpdate)
    assert unknown.kind == "future_kind"
    assert unknown.data["used"] == 1
    misshapen = u.decode_update(b'{"sessionUpdate":"current_mode_update"}')
    assert isinstance(misshapen, u.UnknownUpdate)
    assert misshapen.kind == "current_mode_update"


def test_permission_and_extension_answers_are_nested() -> None:
    def enc(value: object) -> object:
        return json.loads(msgspec.json.encode(value))

    selected = r.RequestPermissionResult(outcome=r.SelectedOutcome(option_id="allow-once"))
    assert enc(selected) == {"outcome": {"outcome": "selected", "optionId": "allow-once"}}
    answered = r.AskQuestionResult(
        outcome=r.AnsweredOutcome(
            answers=[r.QuestionAnswer(question_id="q", selected_option_ids=["a"])]
        )
    )
    assert enc(answered) == {
        "outcome": {
            "outcome": "answered",
            "answers": [{"questionId": "q", "selectedOptionIds": ["a"]}],
        }
    }
    accepted = r.CreatePlanResult(outcome=r.PlanAcceptedOutcome())
    assert enc(accepted) == {"outcome": {"outcome": "accepted"}}
    params = msgspec.json.decode(
        b'{"sessionId":"s","toolCall":{"toolCallId":"t","status":"pending"},'
        b'"options":[{"optionId":"allow-once","name":"Allow once","kind":"allow_once"}]}',
        type=r.RequestPermissionParams,
    )
    assert params.options[0].kind == "allow_once"
    assert params.tool_call.tool_call_id == "t"
