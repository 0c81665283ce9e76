"""What the example web page says of a tool call (examples/_web_words.py, _page_stream.py,
_live_web.py): the arguments a person reads, as text; a live call's title without its
Markdown backticks; the live model by its name. Pure functions, called here directly; the
page drawing them, in a real browser: test_web_page_words.py and test_web_page_live.py.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace
from typing import Any

import msgspec
import pytest
from example_runs import EXAMPLES

from agent_sdk import ToolCall, ToolCallCompleted, ToolCallStarted
from agent_sdk._options.redaction import (
    Redaction,  # the page's, as _page_stream uses it
)
from agent_sdk.live import ConfigOption, ModelInfo, RequestPermissionParams

# A shell call's arguments as the CLI sends them (fake_agent/scenarios/denied.ndjson): the
# command, its directory and timeout, and the CLI's own bookkeeping, never for a person.
SHELL_ARGS = {
    "command": "pytest -q tests",
    "workingDirectory": "/home/dev/shop",
    "timeout": 30000,
    "toolCallId": "call_Dn01\nfc_7e01",
    "simpleCommands": ["pytest"],
    "hasInputRedirect": False,
    "hasOutputRedirect": False,
    "parsingResult": {
        "parsingFailed": False,
        "executableCommands": [
            {"name": "pytest", "args": [{"type": "word", "value": "-q"}], "fullText": "pytest -q"}
        ],
        "hasRedirects": False,
        "hasCommandSubstitution": False,
        "redirects": [],
    },
    "fileOutputThresholdBytes": "40000",
    "isBackground": False,
    "skipApproval": False,
    "timeoutBehavior": "TIMEOUT_BEHAVIOR_BACKGROUND",
    "hardTimeout": 600000,
    "closeStdin": True,
    "conversationId": "5e0d1c2b-7a3f-4b9e-8c61-2f4a6d8b0e13",
    "adminCommandDenylist": [],
    "requestId": "7b2e4d61-0c9a-4f3e-8d15-6a4c2e0b9f37",
}
INTERNALS = (
    "toolCallId",
    "simpleCommands",
    "parsingResult",
    "conversationId",
    "requestId",
    "closeStdin",
    "skipApproval",
    "fileOutputThresholdBytes",
    "adminCommandDenylist",
)


@pytest.fixture(scope="module")
def examples() -> Iterator[SimpleNamespace]:
    """The page's modules, imported as sse_server.py imports them (examples/ on the path)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(EXAMPLES))
        names = ("_web_words", "_page_stream", "_live_web")
        modules: list[ModuleType] = [importlib.import_module(name) for name in names]
        yield SimpleNamespace(words=modules[0], stream=modules[1], live=modules[2])


def call(kind: str, body: dict[str, Any], result: dict[str, Any] | None = None) -> ToolCall:
    """A tool call of ``kind``: started, and completed with ``result`` if given."""
    started = ToolCallStarted(call_id="c1", tool_call=msgspec.Raw(json.dumps({kind: body})))
    if result is None:
        return ToolCall("c1", started)
    done = json.dumps({kind: {**body, "result": result}})
    return ToolCall("c1", started, ToolCallCompleted(call_id="c1", tool_call=msgspec.Raw(done)))


def shell(**args: Any) -> ToolCall:
    return call("shellToolCall", {"args": {**SHELL_ARGS, **args}})


# --- print mode: the arguments a person reads ------------------------------------------
def test_a_shell_card_shows_its_timeout_and_none_of_the_clis_bookkeeping(
    examples: SimpleNamespace,
) -> None:
    shown = examples.stream.tool_for_page(shell(), "/home/dev/shop")
    assert shown["label"] == "$ pytest -q tests"
    assert shown["args"] == [["timeout", "30 s, then in the background"]]
    text = json.dumps(shown)
    for internal in INTERNALS:
        assert internal not in text
        assert examples.words.words(internal) not in text  # not even as words


def test_a_shell_card_names_its_directory_only_when_it_is_not_the_runs(
    examples: SimpleNamespace,
) -> None:
    args = examples.words.args_for_page
    assert ["in", "/home/dev/shop"] not in args(shell(), "/home/dev/shop/")
    assert ["in", "/home/dev/shop"] in args(shell(), "/home/dev/other")


def test_a_shell_card_shows_what_the_agent_said_the_command_is_for(
    examples: SimpleNamespace,
) -> None:
    described = shell(description="Run the unit tests")
    assert examples.words.args_for_page(described)[0] == ["about", "Run the unit tests"]


def test_a_command_that_exited_1_is_failed_with_its_exit_code(examples: SimpleNamespace) -> None:
    exited = call(
        "shellToolCall", {"args": {"command": "ruff check"}}, {"success": {"exitCode": 1}}
    )
    shown = examples.stream.tool_for_page(exited)
    assert (shown["status"], shown["outcome"], shown["exit_code"]) == ("failed", "exit 1", 1)
    ran = call("shellToolCall", {"args": {"command": "ls"}}, {"success": {"exitCode": 0}})
    assert examples.stream.tool_for_page(ran)["status"] == "succeeded"


def test_a_read_card_shows_its_line_range(examples: SimpleNamespace) -> None:
    read = call("readToolCall", {"args": {"path": "src/cart.py", "offset": 1, "limit": 40}})
    assert examples.words.args_for_page(read) == [["lines", "1–40"]]


def test_values_are_text_not_json(examples: SimpleNamespace) -> None:
    text_of = examples.words.text_of
    assert text_of(["node_modules", ".git"]) == "node_modules, .git"
    assert text_of({"id": "SHOP-42", "draft": False}) == "id: SHOP-42; draft: no"
    assert text_of(30) == "30"
    mcp = {"name": "linear-get_issue", "toolName": "get_issue", "providerIdentifier": "linear"}
    mcp["args"] = {"id": "SHOP-42", "labels": ["bug", "cart"]}  # type: ignore[assignment]
    shown = examples.words.args_for_page(call("mcpToolCall", {"args": mcp}))
    assert shown == [["id", "SHOP-42"], ["labels", "bug, cart"]]


def test_a_functions_json_arguments_are_shown_by_name(examples: SimpleNamespace) -> None:
    function = call("function", {"name": "fetch_changelog", "arguments": '{"since": "1.2.0"}'})
    assert examples.words.args_for_page(function) == [["since", "1.2.0"]]


def test_an_untyped_calls_ids_and_what_its_label_says_are_left_out(
    examples: SimpleNamespace,
) -> None:
    args = {"searchTerm": "python decimal", "toolCallId": "c1", "maxResults": 5}
    web = call("webSearchToolCall", {"args": args})
    assert web.label == "web search python decimal"
    assert examples.words.args_for_page(web) == [["max results", "5"]]


def test_todos_show_their_status_in_words(examples: SimpleNamespace) -> None:
    todos = [
        {"id": "1", "content": "Read src/cart.py", "status": "TODO_STATUS_COMPLETED"},
        {"id": "2", "content": "Fix the lint warning", "status": "TODO_STATUS_PENDING"},
    ]
    shown = examples.words.args_for_page(call("updateTodosToolCall", {"args": {"todos": todos}}))
    assert shown == [["done", "Read src/cart.py"], ["to do", "Fix the lint warning"]]


def test_values_and_arguments_keep_the_pages_caps(examples: SimpleNamespace) -> None:
    words = examples.words
    long = "x" * (words.MAX_VALUE + 5)
    assert words.short(long) == "x" * (words.MAX_VALUE - 1) + "…"
    assert words.short("first line\nsecond") == "first line…"
    many = {f"key{i}": str(i) for i in range(words.MAX_ARGS + 3)}
    shown = words.args_for_page(call("fooToolCall", {"args": many}))
    assert len(shown) == words.MAX_ARGS


@pytest.mark.anyio
async def test_a_key_where_the_page_cuts_a_line_is_hidden_whole(examples: SimpleNamespace) -> None:
    # The label and each value are cut to fit (MAX_VALUE); cut first, the start of a key
    # would no longer match the key, and show.
    key = "sk-live-0123456789abcdefghijklmnop"
    command = "echo " + "x" * 60 + " " + key
    body = {"args": {"command": command, "description": "y" * 70 + " " + key}}
    started = ToolCallStarted(
        call_id="c1", tool_call=msgspec.Raw(json.dumps({"shellToolCall": body}))
    )
    sent: list[bytes] = []

    async def send(chunk: bytes) -> None:
        sent.append(chunk)

    await examples.stream.PageStream(send, Redaction([key])).draw(started)
    [event] = sent
    assert b"***" in event
    assert b"sk-" not in event


# --- live mode: titles without backticks, the model by its name -------------------------
@pytest.mark.parametrize(
    ("title", "parts"),
    [
        ("`pytest -q`", [["pytest -q", True]]),
        ("Read File", [["Read File", False]]),
        (
            "Delete `a.txt` and `b.txt`",
            [["Delete ", False], ["a.txt", True], [" and ", False], ["b.txt", True]],
        ),
        ("`` echo `x` ``", [["echo `x`", True]]),  # a longer run holds a backtick
        ("it`s", [["it`s", False]]),  # a lone backtick is text
    ],
)
def test_a_titles_code_spans_are_code_without_their_backticks(
    examples: SimpleNamespace, title: str, parts: list[list[Any]]
) -> None:
    assert examples.words.code_spans(title) == parts


def test_a_live_calls_label_is_its_title_without_backticks(examples: SimpleNamespace) -> None:
    # How the live agent writes an ACP `execute` call (agent_sdk/live/_bridge.py).
    body = {"args": {"command": "pytest -q"}, "title": "`pytest -q`", "acpKind": "execute"}
    shown = examples.stream.tool_for_page(call("shellToolCall", body))
    assert shown["label"] == "pytest -q"
    assert shown["label_parts"] == [["pytest -q", True]]


def test_an_acp_edit_card_names_the_file_it_changed(examples: SimpleNamespace) -> None:
    diff = {"type": "diff", "path": "/home/dev/shop/tests/test_cart.py", "newText": "x"}
    body = {"args": {}, "title": "Edit File", "acpKind": "edit", "content": [diff]}
    shown = examples.stream.tool_for_page(call("edit", body), "/home/dev/shop")
    assert (shown["label"], shown["args"]) == ("Edit File", [["file", "tests/test_cart.py"]])


def test_an_acp_calls_input_leaves_out_what_its_title_says_and_internals(
    examples: SimpleNamespace,
) -> None:
    # A subagent call in ACP (docs/acp.md §3.10): its title holds the description.
    raw = {
        "_toolName": "task",
        "description": "Explore the repository",
        "prompt": "List the modules",
        "subagentType": {"custom": {"unspecified": {}}},
    }
    body = {"args": raw, "title": "Task: Explore the repository", "acpKind": "other"}
    assert examples.words.args_for_page(call("other", body)) == [["prompt", "List the modules"]]


def test_the_approval_card_gets_the_title_without_backticks(examples: SimpleNamespace) -> None:
    params = msgspec.convert(
        {
            "sessionId": "s1",
            "toolCall": {"toolCallId": "c1", "title": "`pytest -q`", "kind": "execute"},
            "options": [],
        },
        RequestPermissionParams,
    )
    card = examples.live.permission_for_page(1, params)
    assert (card["title"], card["title_parts"]) == ("pytest -q", [["pytest -q", True]])
    assert card["command"] == "pytest -q"


def session(current: str, options: list[Any], models: list[Any]) -> Any:
    """What model_name reads of a LiveSession."""
    config = msgspec.convert(options, list[ConfigOption])
    listed = msgspec.convert(models, list[ModelInfo])
    return SimpleNamespace(current_model_id=current, config_options=config, models=listed)


def test_the_live_model_is_named_as_the_person_picked_it(examples: SimpleNamespace) -> None:
    choices = [{"value": "default[]", "name": "Auto"}, {"value": "gpt-5.4[]", "name": "GPT-5.4"}]
    option = {"id": "model", "type": "select", "currentValue": "default[]", "options": choices}
    listed = [{"modelId": "default[]", "name": "Auto (listed)"}]
    model_name = examples.live.model_name
    assert model_name(session("default[]", [option], listed)) == "Auto"  # the option's name
    assert model_name(session("default[]", [], listed)) == "Auto (listed)"  # else the list's
    assert model_name(session("mystery[]", [option], listed)) == "mystery[]"  # else the id
