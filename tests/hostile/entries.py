"""The registry of the SDK's JSON entry points: each takes hostile bytes (tests/hostile/
corpus.py) where it takes input, and names the decode sites of ``agent_sdk`` it covers.

A new entry point joins by adding one :data:`ENTRIES` item; tests/hostile/
test_entry_points.py fails while a decode site of the package is claimed by none.

Each entry's callable raises nothing but its ``allowed`` errors (the typed error its docs
promise), and checks itself that what came around the hostile input still came through.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import io
import json
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import anyio
import anyio.abc
import msgspec
from asgi_request import asgi_scope, receive_body
from hostile import live_entries, split_entry

import fake_agent
from agent_sdk import AgentError, AgentOptions, Budget, ToolCall, queries
from agent_sdk._options.redaction import Redaction
from agent_sdk._run.output import OutputMismatchError, parse_output
from agent_sdk._run.spending import Spending, _kind_of, first_over
from agent_sdk._transport.owner import MARKER, PREFIXES, Owner, me, stale_dirs
from agent_sdk._wire.framing import LineBuffer
from agent_sdk._wire.stream import Stream
from agent_sdk.checkpoints import _checkpoints
from agent_sdk.checkpoints._lock import holders
from agent_sdk.cli._budget_arg import budget_arg
from agent_sdk.cli.batch import TasksError, read_tasks
from agent_sdk.cli.labels import call_notes
from agent_sdk.cli.live import JsonSink
from agent_sdk.cli.render import Renderer
from agent_sdk.cli.replay import replay
from agent_sdk.events import (
    AssistantEvent,
    InteractionRequest,
    InteractionResponse,
    ToolCallCompleted,
    ToolCallStarted,
    to_json,
)
from agent_sdk.extend import Hooks, tool
from agent_sdk.extend._hooks import EVENTS
from agent_sdk.extend._hooks import answer as answer_hook
from agent_sdk.extend._host import ToolHost
from agent_sdk.extend._mcp import McpServer
from agent_sdk.testing import record
from agent_sdk.tool_results import GetMcpToolsSuccess
from agent_sdk.tools import FunctionArgs

REPO = Path(__file__).resolve().parents[2]
SAY = (
    b'{"type":"assistant","message":{"role":"assistant",'
    b'"content":[{"type":"text","text":"Done."}]}}'
)


@dataclass(frozen=True)
class Entry:
    """One JSON entry point: ``run(value)`` feeds it ``value`` (sync or async), it may
    raise only ``allowed``, and it covers the decode ``sites`` (``module:qualname``)."""

    run: Callable[[bytes], None] | Callable[[bytes], Awaitable[None]]
    sites: tuple[str, ...]
    allowed: tuple[type[BaseException], ...] = ()


def text_of(value: bytes) -> str:
    """The hostile bytes as the str an API takes (as a pipe's reader decodes them)."""
    return value.decode("utf-8", "replace")


def with_field(line: bytes, name: str, value: bytes) -> bytes:
    """``line``'s object with one more member, written as given (no JSON library could)."""
    return line.rstrip()[:-1] + b',"' + name.encode() + b'":' + value + b"}"


# --- print mode ---------------------------------------------------------------------
def print_mode_stream(value: bytes) -> None:
    """The value as a line and as a field, between good events: both good ones arrive."""
    for partial in (False, True, None):
        stream = Stream(keep_events=True, partial=partial)
        data = SAY + b"\n" + value + b"\n" + with_field(SAY, "x_new", value) + b"\n" + SAY
        events = [*stream.feed(data + b"\n"), *stream.end()]
        said = [e for e in events if isinstance(e, AssistantEvent) and e.text == "Done."]
        assert events[0] == said[0]
        assert events[-1] == said[-1]
        assert len(said) >= 2


def tool_payload(value: bytes) -> None:
    """A tool call whose payload, args, result and timings are the value: every lazy
    property reads, the event redacts and encodes."""
    shapes = [
        b'{"readToolCall":{"args":V,"result":{"success":V}},"startedAtMs":V}',
        b'{"readToolCall":{"args":{"path":V},"result":V},"toolCallId":V}',
        b'{"functionToolCall":V}',
        b"V",
        # subagents and hooks' traces (docs/protocol.md §3.4b, §6.4)
        b'{"taskToolCall":{"args":V,"result":{"success":V}},"hookAdditionalContexts":V}',
        b'{"taskToolCall":{"args":{"subagentType":V,"prompt":V},"result":{"success":'
        b'{"durationMs":V,"conversationSteps":V,"isBackground":V}}}}',
        b'{"taskToolCall":{"args":{"subagentType":{"custom":V}},"result":{"success":'
        b'{"conversationSteps":[{"assistantMessage":V}]}}}}',
        b'{"editToolCall":{"args":{},"result":{"rejected":{"reason":V}}},'
        b'"hookAdditionalContexts":[V,{"text":V}]}',
    ]
    redaction = Redaction(["sk-live-7c1e5a3f9b2d4e6a8c0f"])
    for shape in shapes:
        payload = shape.replace(b"V", value)
        for subtype in (b"started", b"completed"):
            line = b'{"type":"tool_call","subtype":"' + subtype + b'","call_id":"c1","tool_call":'
            events = Stream(keep_events=True).feed(line + payload + b"}\n" + SAY + b"\n")
            assert isinstance(events[-1], AssistantEvent)
            for event in events:
                if isinstance(event, (ToolCallStarted, ToolCallCompleted)):
                    read_every_property(event)
                    to_json(redaction.event(event))


def budget_kind(value: bytes) -> None:
    """A tool call whose payload is the value, counted by a budget that limits a kind: its
    kind read from the payload's keys is the event's own (docs/budgets.md)."""
    spending = Spending(Budget(tool_calls_by_kind={"shell": 10**9}), "run")
    for shape in (b'{"shellToolCall":V}', b'{"shellToolCall":{"args":V},"toolCallId":V}', b"V"):
        payload = shape.replace(b"V", value)
        line = b'{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":'
        events = Stream().feed(line + payload + b"}\n" + SAY + b"\n")
        assert isinstance(events[-1], AssistantEvent)
        assert first_over(spending, events, False) is None
        for event in events:
            if isinstance(event, ToolCallStarted):
                fresh = ToolCallStarted(call_id="c1", tool_call=event.tool_call)
                assert _kind_of(event) == fresh.kind


def read_every_property(event: ToolCallStarted | ToolCallCompleted) -> None:
    names = ["kind", "args", "tool_call_id", "started_at_ms", "extras", "description"]
    names += ["hook_additional_contexts"]
    if isinstance(event, ToolCallCompleted):
        names += ["outcome", "status", "result", "result_extras", "completed_at_ms"]
        names += ["duration_ms", "is_background", "plan_uri"]
    for name in names:
        getattr(event, name)
    # What is worked out from them: a subagent, a hook's words, the notes shown of a call.
    call = ToolCall(event.call_id, None, event) if isinstance(event, ToolCallCompleted) else None
    call = call or ToolCall(event.call_id, event)
    call_notes(call)
    if call.subagent is not None:
        msgspec.json.encode(call.subagent)
    for value in (call.args, call.result):
        for name in ("subagent_name", "text", "duration_ms", "by_hook", "hook_message"):
            getattr(value, name, None)


def task_notification(value: bytes) -> None:
    """A ``system``/``task_notification`` whose fields, and whose whole line, are the
    value, between good events: rendered on screen, as JSON, and for the web page."""
    head = b'{"type":"system","subtype":"task_notification"'
    lines = [
        head + b',"' + name + b'":' + value + b"}" for name in (b"title", b"detail", b"status")
    ]
    lines.append(head + b',"task_id":' + value + b',"x":' + value + b"}")
    data = b"\n".join([SAY, *lines, SAY]) + b"\n"
    for partial in (False, True):
        events = Stream(keep_events=True, partial=partial).feed(data)
        assert events[0] == events[-1]
        err = io.StringIO()
        renderer = Renderer(io.StringIO(), err, color=True)
        for event in events:
            renderer.event(event)
            to_json(event)


# The query types typed by docs/protocol.md §3.6b, one untyped, and their answers' keys.
QUERIES = {
    b"createPlanRequestQuery": b"createPlanRequestResponse",
    b"webSearchRequestQuery": b"webSearchRequestResponse",
    b"webFetchRequestQuery": b"webFetchRequestResponse",
    b"askQuestionInteractionQuery": b"askQuestionInteractionResponse",
    b"shellRequestQuery": b"shellRequestResponse",
}


def interaction_payload(value: bytes) -> None:
    """An ``interaction_query`` request and response of each query type whose payload,
    args, id, answer or outcome is the value: every property reads, the event redacts
    and encodes, and the event after it arrives."""
    redaction = Redaction(["sk-live-7c1e5a3f9b2d4e6a8c0f"])
    for query, answer in QUERIES.items():
        shapes = [
            b'"request","query_type":"Q","query":{"id":1,"Q":{"args":V,"toolCallId":V}}',
            b'"request","query_type":"Q","query":{"id":1,"Q":{"args":{"title":V},'
            b'"skipApproval":V}}',
            b'"request","query_type":"Q","query":{"id":V,"Q":V}',
            b'"response","query_type":"Q","response":{"id":1,"A":V}',
            b'"response","query_type":"Q","response":{"id":1,"A":{"result":V}}',
            b'"response","query_type":"Q","response":{"id":1,"A":{"approved":V,"x":V}}',
        ]
        for shape in shapes:
            body = shape.replace(b"Q", query).replace(b"A", answer).replace(b"V", value)
            line = b'{"type":"interaction_query","subtype":' + body + b"}\n"
            events = Stream(keep_events=True).feed(line + SAY + b"\n")
            assert isinstance(events[-1], AssistantEvent)
            for event in events:
                if isinstance(event, (InteractionRequest, InteractionResponse)):
                    for name in INTERACTION_PROPERTIES:
                        getattr(event, name, None)
                    to_json(redaction.event(event))


INTERACTION_PROPERTIES = (
    *("id", "payload", "args", "tool_call_id", "skip_approval", "request"),
    *("response_key", "outcome", "reason", "approved", "plan_uri"),
)


def function_arguments(value: bytes) -> None:
    FunctionArgs(name="f", arguments=text_of(value)).parsed_arguments()


def mcp_tools_content(value: bytes) -> None:
    GetMcpToolsSuccess(content=text_of(value)).parsed_content()


# --- structured output ---------------------------------------------------------------
class Verdict(msgspec.Struct):
    verdict: str
    findings: list[Any] = []


def structured_reply(value: bytes) -> None:
    """The value fenced, bare after prose, and bare alone, against a struct and ``Any``."""
    text = text_of(value)
    for reply in (f"Here:\n```json\n{text}\n```", f"The plan: {text}", text):
        for output_type in (Verdict, Any):
            with contextlib.suppress(OutputMismatchError):
                parse_output(reply, output_type)


# --- the command line ----------------------------------------------------------------
def batch_tasks(value: bytes) -> None:
    """The value as a tasks line, and as a task's prompt, id and options (a budget's)."""
    lines = [
        value,
        b'{"prompt":' + value + b"}",
        b'{"prompt":"go","id":' + value + b"}",
        b'{"prompt":"go","options":{"model":' + value + b"}}",
        b'{"prompt":"go","options":{"budget":' + value + b"}}",
    ]
    for line in lines:
        with contextlib.suppress(TasksError):
            read_tasks(text_of(line), {})


def budget_flag(value: bytes) -> None:
    """The value as ``--budget``'s JSON, as a limit and as a kind's limit in it: a budget,
    or the usage error argparse shows (``ArgumentTypeError``)."""
    texts = [
        value,
        b'{"tool_calls":' + value + b"}",
        b'{"tool_calls_by_kind":' + value + b"}",
        b'{"tool_calls_by_kind":{"shell":' + value + b"}}",
    ]
    for text in texts:
        with contextlib.suppress(argparse.ArgumentTypeError):
            assert isinstance(budget_arg(text_of(text)), Budget)


def replayed(value: bytes) -> None:
    """A recording holding the value as a line and as a field, replayed both ways."""
    data = SAY + b"\n" + value + b"\n" + with_field(SAY, "x_new", value) + b"\n" + SAY + b"\n"
    for color in (False, True):
        out, err = io.StringIO(), io.StringIO()
        replay(io.BytesIO(data), Renderer(out, err, color=color), err)
        assert out.getvalue().count("Done.") >= 2
    out = io.StringIO()
    replay(io.BytesIO(data), JsonSink(out), io.StringIO())
    assert out.getvalue().count("Done.") >= 2


async def recorded(value: bytes) -> None:
    """A run that prints the value as a line is recorded, and the recording replays."""
    steps = [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "Auto"},
        {"fake": "raw", "base64": base64.b64encode(value + b"\n").decode(), "newline": False},
        json.loads(SAY),
        {"type": "result", "subtype": "success", "is_error": False, "result": "Done."},
    ]
    with tempfile.TemporaryDirectory() as tmp:
        scenario = Path(tmp, "hostile.ndjson")
        await anyio.Path(scenario).write_text("".join(json.dumps(step) + "\n" for step in steps))
        env = {"FAKE_AGENT_SCENARIO": str(scenario), "CURSOR_API_KEY": ""}
        options = AgentOptions(binary=fake_agent.executable(), env=env, timeout=120)
        path = await record("go", Path(tmp, "recorded.ndjson"), options=options)
        replayed_to = io.StringIO()
        replay(io.BytesIO(path.read_bytes()), JsonSink(replayed_to), io.StringIO())
        assert replayed_to.getvalue().count("Done.") >= 2


# --- the fleet's owner markers ----------------------------------------------------
def owner_marker(value: bytes) -> None:
    """A marker holding the value, in the temp dir any local user writes to, beside the
    marker of a dead owner: the sweep skips the one and still finds the other."""
    with tempfile.TemporaryDirectory() as tmp:
        hostile = Path(tmp, f"{PREFIXES[0]}hostile")
        hostile.mkdir()
        Path(hostile, MARKER).write_bytes(value)
        dead = Path(tmp, f"{PREFIXES[0]}dead")
        dead.mkdir()
        Path(dead, MARKER).write_bytes(msgspec.json.encode(dead_owner()))
        assert [found for found, _ in stale_dirs(Path(tmp))] == [dead]


# --- checkpoints (docs/sessions.md) -------------------------------------------------------
def checkpoint_metadata(value: bytes) -> None:
    """A checkpoint commit's message (anyone who can write the repository can make a ref under
    refs/agent-sdk/checkpoints/): the value as the message, and as fields of ours."""
    ours = b'{"id":"0123abcd","root":"/r","cwd":"/r","created":"2026-11-28T00:00:00Z"}'
    for body in (value, with_field(ours, "label", value), with_field(ours, "x_new", value)):
        _checkpoints._parsed("a" * 40, "b" * 40, text_of(body))


def checkpoint_holder_file(value: bytes) -> None:
    """A holder file of a tree's lock (under the repository's git dir) holding the value."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = Path(tmp, "agent-sdk", "runs")
        runs.mkdir(parents=True)
        Path(runs, "hostile").write_bytes(value)
        holders(Path(tmp))


def dead_owner() -> Owner:
    """This host's owner record of a process that has ended."""
    child = subprocess.Popen(["true"])
    child.wait()
    return msgspec.structs.replace(me(None), pid=child.pid, started=None)


# --- the example web page ---------------------------------------------------------
async def web_run_request(value: bytes) -> None:
    """``POST /run`` of examples/sse_server.py with the value as its body, and as a field
    of it (one ASGI message, as uvicorn hands a body over): refused with a 4xx."""
    sys.path.insert(0, str(REPO))
    from examples import sse_server

    for body in (value, with_field(b'{"prompt":""}', "x_new", value)):
        started: list[dict[str, Any]] = []

        async def send(message: dict[str, Any], started: list[Any] = started) -> None:
            if message["type"] == "http.response.start":
                started.append(message)

        await sse_server.app(asgi_scope(), receive_body(body), send)
        assert 400 <= started[0]["status"] < 500, started[0]["status"]


# --- queries -------------------------------------------------------------------------
async def queried_status(value: bytes) -> None:
    """``status()`` when the CLI prints the value: as its output, or inside the object."""
    for out in (value, b'{"isAuthenticated":true,"email":' + value + b"}"):

        async def printed(args: list[str], options: AgentOptions | None, out: bytes = out) -> str:
            return text_of(out)

        with mock.patch.object(queries, "_output", printed):
            await queries.status()


# --- the tools' MCP server ---------------------------------------------------------------
@tool
def echo(text: str, times: int = 1) -> dict[str, Any]:
    """The text, as many times as asked."""
    return {"text": text * times}


PING = b'{"jsonrpc":"2.0","id":"p","method":"ping"}'
PONG = b'{"jsonrpc":"2.0","id":"p","result":{}}\n'


def _rpc(members: bytes) -> bytes:
    return b'{"jsonrpc":"2.0",' + members + b"}"


async def mcp_server_message(value: bytes) -> None:
    """The value as a line, as a request's id and params, as a tool's arguments and an
    argument, as a cancelled request's id and as an unknown member, each line split as the
    stdio runner splits its input: every answer is one JSON line, and a ping after each is
    answered."""
    server = McpServer([echo], redact=Redaction(["sk-live-7c1e5a3f9b2d4e6a8c0f"]).text)
    call = b'"method":"tools/call","params":{"name":"echo","arguments":'
    lines = [
        value,
        _rpc(b'"id":' + value + b',"method":"ping"'),
        _rpc(b'"id":1,"method":"initialize","params":' + value),
        _rpc(b'"id":2,"method":"tools/call","params":' + value),
        _rpc(b'"id":3,' + call + value + b"}"),
        _rpc(b'"id":4,' + call + b'{"text":' + value + b"}}"),
        _rpc(b'"id":5,' + call + b'{"text":"a","times":' + value + b"}}"),
        _rpc(b'"id":6,"method":"tools/list","params":' + value),
        _rpc(b'"method":"notifications/cancelled","params":{"requestId":' + value + b"}"),
        with_field(PING, "x_new", value),
    ]
    for line in lines:
        for part in LineBuffer().feed(line + b"\n"):
            reply = await server.handle(part)
            if reply is not None:
                assert reply.endswith(b"\n")
                assert reply.count(b"\n") == 1
                msgspec.json.decode(reply)
        assert await server.handle(PING) == PONG


# --- hooks ---------------------------------------------------------------------------------
ALLOW_ALL = Hooks(
    before_tool=lambda call: "allow",
    before_shell=lambda call: "allow",
    after_tool=lambda call: "noted",
    after_edit=lambda call: None,
    session_start=lambda call: "hello",
    session_end=lambda call: None,
)
HOOK_KEYS = (
    "session_id", "model", "workspace_roots", "tool_name", "tool_input", "tool_output",
    "command", "sandbox", "duration", "file_path", "edits", "reason", "duration_ms",
)  # fmt: skip


async def hook_input(value: bytes) -> None:
    """The value as a hook's whole input, and as each key of each event's input: the
    answer is an exit code of 0 or 2 and, on stdout, nothing or one JSON object; a gate
    that cannot read its input never allows."""
    lines = [value]
    for event in EVENTS:
        head = b'{"hook_event_name":"' + event.encode() + b'"'
        lines += [head + b',"' + key.encode() + b'":' + value + b"}" for key in HOOK_KEYS]
    for line in lines:
        reply = await answer_hook(ALLOW_ALL, line, [])
        assert reply.exit_code in (0, 2)
        if reply.stdout:
            assert type(msgspec.json.decode(reply.stdout)) is dict


async def _first_answer(stream: anyio.abc.ByteStream, lines: bytes) -> bytes:
    """What the host sends back on a connection that sent ``lines`` (sent while the
    answers are read: neither side waits on the other), up to the answer to the ping with
    id "p"; what came before the host closed (maybe before all was sent) otherwise."""

    async def send() -> None:
        with contextlib.suppress(anyio.BrokenResourceError):
            await stream.send(lines)

    chunks: list[bytes] = []
    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            group.start_soon(send)
            while True:
                try:
                    chunks.append(await stream.receive())
                except (anyio.EndOfStream, anyio.BrokenResourceError):
                    break
                if b'"id":"p"' in chunks[-1] or b'"id":"p"' in b"".join(chunks[-2:]):
                    break
            group.cancel_scope.cancel()
    return b"".join(chunks)


async def tools_host_connection(value: bytes) -> None:
    """The value as the token line of a connection to a run's tools host (closed, nothing
    served), and after the right token as a line, as a tool's arguments (recorded) and an
    argument: a ping after them is answered, and the host still serves."""
    host = ToolHost([echo], peers=lambda peer, mode, token: None)  # the test connects
    host.open()
    host.start()
    try:
        async with await anyio.connect_unix(host.socket_path) as stream:
            assert await _first_answer(stream, value + b"\n" + PING + b"\n") == b""
        call = b'"method":"tools/call","params":{"name":"echo","arguments":'
        lines = [
            value,
            _rpc(b'"id":3,' + call + value + b"}"),
            _rpc(b'"id":4,' + call + b'{"text":' + value + b"}}"),
        ]
        async with await anyio.connect_unix(host.socket_path) as stream:
            sent = host.token.encode() + b"\n" + b"\n".join(lines) + b"\n" + PING + b"\n"
            assert PONG in await _first_answer(stream, sent)
        for served in host.calls:
            assert isinstance(served.result, str)
    finally:
        await host.aclose()


def tools_cli_config(value: bytes) -> None:
    """The value as the user's cli-config.json (and as its ``permissions`` and
    ``permissions.allow``) that a run with tools copies and adds its allow rule to: the
    copy allows our server, or AgentStartError says the file is broken."""
    from agent_sdk.extend._home import ALLOW_RULE, allow_rule_added

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "cli-config.json")
        for data in (
            value,
            b'{"permissions":' + value + b"}",
            b'{"permissions":{"allow":' + value + b"}}",
        ):
            path.write_bytes(data)
            try:
                allow_rule_added(path)
            except AgentError:
                continue
            assert ALLOW_RULE in json.loads(path.read_bytes())["permissions"]["allow"]


def users_hooks_file(value: bytes) -> None:
    """The value as the user's ``~/.cursor/hooks.json`` (and as its ``hooks`` and as one
    event's entries) that a run with hooks merges into its own: the run's file is always
    one the CLI runs (``"version": 1``), with our entry for each of our events."""
    from agent_sdk.extend._home import hooks_json

    host = ToolHost([], hooks=Hooks(before_tool=lambda call: "allow"))
    host.open()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "hooks.json")
            for data in (
                value,
                b'{"version":1,"hooks":' + value + b"}",
                b'{"version":1,"hooks":{"preToolUse":' + value + b"}}",
            ):
                path.write_bytes(data)
                merged = json.loads(hooks_json(host, path))
                assert merged["version"] == 1
                ours = merged["hooks"]["preToolUse"][-1]
                assert ours["failClosed"] is True
                assert host.socket_path in ours["command"]
    finally:
        host.close()


def hook_relay_stdin(value: bytes) -> None:
    """The value as what the CLI writes on the stdin of the relay in hook mode: read
    whole, as sent (the host judges it)."""
    import os
    import threading

    from agent_sdk.extend._relay import _read_payload

    sent = value + b"\n"
    read_end, write_end = os.pipe()

    def write() -> None:
        with os.fdopen(write_end, "wb") as out:
            out.write(sent)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        got = _read_payload(read_end)
    finally:
        writer.join()
        os.close(read_end)
    assert sent.startswith(got)
    assert got.endswith(b"\n")
    # What the relay answers when it cannot reach the program: it reads the event's name
    # from the same input (its stdout, fd 1, is the CLI's: sent to /dev/null here).
    from agent_sdk.extend._relay import _unreached

    saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        code = _unreached("the hostile-input harness", got)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    assert code in (0, 2)


P = "agent_sdk._wire"
L = "agent_sdk.live"
DECODE = (f"{L}._jsonrpc:decode",)
ENTRIES: dict[str, Entry] = {
    "print-mode stream": Entry(
        print_mode_stream,
        (
            f"{P}.stream:Stream.__init__",
            f"{P}.stream:Stream._detect_partial_output",
            f"{P}.line_shapes:_decoder",
            f"{P}.line_shapes:_partial_decoder",
            f"{P}.fallback:_any_decoder",
            f"{P}.json_repair:decode_with_decimals",
            f"{P}.fallback:_string",
        ),
    ),
    "print-mode event split by raw newlines": Entry(split_entry.split_result, ()),
    "tool-call payload": Entry(
        tool_payload,
        ("agent_sdk._wire.tool_payloads:_decoder", "agent_sdk._options.redaction:Redaction._raw"),
    ),
    "budget's kind of a tool call": Entry(budget_kind, ("agent_sdk._run.spending:<module>",)),
    "task notification": Entry(task_notification, ()),  # through the print-mode stream
    "interaction_query payload": Entry(interaction_payload, ()),  # decodes through the stream
    "function tool arguments": Entry(
        function_arguments,
        ("agent_sdk.tool_results:_decode_json",),
        (msgspec.DecodeError,),  # documented: "raises msgspec.DecodeError if invalid"
    ),
    "getMcpTools content": Entry(
        mcp_tools_content,
        ("agent_sdk.tool_results:_decode_json",),
        (msgspec.DecodeError,),  # documented: "raises msgspec.DecodeError if not JSON"
    ),
    "structured-output reply": Entry(
        structured_reply,
        (
            "agent_sdk._run.output:parse_output",
            "agent_sdk._run.output:_parses",
        ),
    ),
    "batch tasks file": Entry(batch_tasks, ("agent_sdk.cli._tasks_file:read_tasks",)),
    "budget flag": Entry(
        budget_flag,
        (
            "agent_sdk.cli._budget_arg:budget_arg",
            # where a number out of range is (issue 34): the members, undecoded
            "agent_sdk.cli._budget_arg:<module>",
            "agent_sdk.cli._budget_arg:_out_of_range",
        ),
    ),
    "replay": Entry(replayed, ()),  # decodes through the print-mode stream
    "record": Entry(recorded, ("agent_sdk.testing._record:_scenario_lines",), (AgentError,)),
    "fleet owner marker": Entry(owner_marker, ("agent_sdk._transport.owner:_read_marker",)),
    "checkpoint metadata": Entry(
        checkpoint_metadata, ("agent_sdk.checkpoints._checkpoints:_parsed",)
    ),
    "checkpoint holder file": Entry(
        checkpoint_holder_file, ("agent_sdk.checkpoints._lock:holders",)
    ),
    "web page run request": Entry(web_run_request, ()),  # examples/: not in the walk
    "queries status": Entry(queried_status, ("agent_sdk.queries:status",), (AgentError,)),
    "tools' MCP server message": Entry(
        mcp_server_message, ("agent_sdk.extend._mcp_messages:decode",)
    ),
    "hook input": Entry(
        hook_input, ("agent_sdk.extend._hooks:answer", "agent_sdk.extend._hooks:_mcp_payload")
    ),
    "tools run's cli-config.json": Entry(
        tools_cli_config, ("agent_sdk.extend._home:allow_rule_added",), (AgentError,)
    ),
    "user's hooks.json merged": Entry(users_hooks_file, ("agent_sdk.extend._home:hooks_json",)),
    "hook relay stdin": Entry(
        hook_relay_stdin,
        ("agent_sdk.extend._relay:_read_payload", "agent_sdk.extend._relay:_unreached"),
    ),
    "tools host connection": Entry(
        tools_host_connection, ("agent_sdk.extend._host:ToolHost._record",)
    ),
    # the live agent (ACP): see live_entries.py; every placement decodes through one site
    "acp line": Entry(live_entries.line, (f"{L}._jsonrpc:<module>", f"{L}._jsonrpc:_scalar")),
    "acp notification params": Entry(live_entries.notification_params, DECODE),
    "acp session update": Entry(live_entries.session_update, DECODE),
    "acp request params": Entry(live_entries.request_params, DECODE),
    "acp subagent update": Entry(live_entries.subagent_update, DECODE),
    "acp cursor/task params": Entry(live_entries.task_params, DECODE),
    "acp initialize result": Entry(live_entries.initialize_result, DECODE, (AgentError,)),
    "acp session/new result": Entry(live_entries.new_session_result, DECODE, (AgentError,)),
    "acp session/load result": Entry(live_entries.load_session_result, DECODE, (AgentError,)),
    "acp session/list result": Entry(live_entries.list_sessions_result, DECODE, (AgentError,)),
    "acp session/prompt result": Entry(live_entries.prompt_result, DECODE, (AgentError,)),
    "acp set_config_option result": Entry(
        live_entries.config_option_result,
        DECODE,
        (AgentError,),
    ),
}
"""Every JSON entry point of the SDK, by name (the test ids)."""

EXEMPT: dict[str, str] = {
    "agent_sdk.cli._doctor_checks:_wire": (
        "agent-sdk doctor decodes what msgspec just encoded of the run's own events"
    ),
    "agent_sdk.testing.memory_acp:ScriptedAgent.receive": (
        "the in-memory agent of the testing kit decodes only what LiveAgent itself wrote"
    ),
}
"""Decode sites that take no input from outside the SDK, and why."""
