"""The one redaction (``agent_sdk/_options/redaction.py``): what a secret of a run is,
how text, bytes, events and errors are cleared of it, and that the outcome of a run
(docs/protocol.md §5) uses it."""

from __future__ import annotations

import json
import pickle
from typing import Any

import msgspec
import pytest

from agent_sdk import (
    AgentError,
    AgentOptions,
    AgentProcessError,
    AgentResultError,
    AgentTimeoutError,
    ErrorContext,
    RunResult,
)
from agent_sdk._options.redaction import (
    MASK,
    NO_SECRETS,
    Redaction,
    redaction_of,
    secrets_of,
)
from agent_sdk._run.outcome import failure_or_result, timeout_error
from agent_sdk._wire.stream import Stream
from agent_sdk.events import (
    AssistantEvent,
    ContentBlock,
    Message,
    PartialAssistantEvent,
    ResultEvent,
    ToolCallStarted,
    UnknownEvent,
)

KEY = "sk-live-9f8e7d6c5b4a"
TOKEN = "tok-3a2b1c0d"
TRICKY = 'sk-"quoted"\\back-é'  # appears escaped in a JSON line


def said(text: str) -> AssistantEvent:
    return AssistantEvent(message=Message(content=(ContentBlock(text=text),)))


# --- what a secret is ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "environ"),
    [
        (AgentOptions(api_key=KEY), {}),
        (AgentOptions(env={"CURSOR_API_KEY": KEY}), {}),
        (AgentOptions(), {"CURSOR_API_KEY": KEY}),
        (AgentOptions(auth_token=KEY), {}),
        (AgentOptions(env={"CURSOR_AUTH_TOKEN": KEY}), {}),
        (AgentOptions(), {"CURSOR_AUTH_TOKEN": KEY}),
        (AgentOptions(headers={"X-Api-Key": KEY}), {}),
    ],
    ids=["api_key", "env-key", "environ-key", "auth_token", "env-token", "environ-token", "header"],
)
def test_a_credential_from_any_source_is_a_secret(
    options: AgentOptions, environ: dict[str, str]
) -> None:
    assert KEY in secrets_of(options, environ)


def test_the_credential_after_a_header_scheme_word_is_a_secret_too() -> None:
    options = AgentOptions(headers={"Authorization": f"Bearer {TOKEN}"})
    assert set(secrets_of(options, {})) == {f"Bearer {TOKEN}", TOKEN}


def test_values_shorter_than_four_characters_are_not_secrets() -> None:
    options = AgentOptions(api_key="abc", headers={"X-Debug": "1"}, env={"CURSOR_API_KEY": ""})
    assert secrets_of(options, {}) == ()


def test_other_variables_of_the_environment_are_not_secrets() -> None:
    assert secrets_of(AgentOptions(), {"HOME": "/home/dev", "PATH": "/usr/bin"}) == ()


def test_a_run_without_secrets_gets_the_empty_redaction() -> None:
    assert redaction_of(AgentOptions(), {"HOME": "/home/dev"}) is NO_SECRETS
    assert not NO_SECRETS


# --- text and bytes -----------------------------------------------------------------
def test_a_secret_is_replaced_and_the_text_around_it_kept() -> None:
    assert Redaction([KEY]).text(f"key {KEY} refused") == f"key {MASK} refused"


def test_a_secret_holding_another_is_replaced_whole() -> None:
    inner = KEY[:8]
    assert Redaction([inner, KEY]).text(f"[{KEY}]") == f"[{MASK}]"


def test_a_secret_escaped_in_a_json_line_is_replaced() -> None:
    line = json.dumps({"text": f"key {TRICKY}"}, ensure_ascii=False)
    assert TRICKY not in json.loads(Redaction([TRICKY]).text(line))["text"]


def test_a_secret_escaped_as_ascii_in_a_json_line_is_replaced() -> None:
    line = json.dumps({"text": f"key {TRICKY}"}, ensure_ascii=True)
    assert json.loads(Redaction([TRICKY]).text(line)) == {"text": f"key {MASK}"}


def test_bytes_are_redacted_in_every_form() -> None:
    data = f"{TRICKY} {json.dumps(TRICKY)}".encode() + b"\xff"
    assert Redaction([TRICKY]).data(data) == f'{MASK} "{MASK}"'.encode() + b"\xff"


def test_a_redaction_told_a_short_value_ignores_it() -> None:
    assert Redaction(["a"]).text("a banana") == "a banana"


class _Untouchable(str):
    """Text that fails the test if anything looks into it."""

    def __contains__(self, other: object) -> bool:
        raise AssertionError("the text was scanned")

    def replace(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("the text was scanned")


def test_without_secrets_text_is_returned_without_being_scanned() -> None:
    text = _Untouchable("a line the CLI printed")
    assert NO_SECRETS.text(text) is text


# --- events -------------------------------------------------------------------------
def test_an_event_without_a_secret_is_kept_as_it_is() -> None:
    event = said("nothing to hide")
    assert Redaction([KEY]).event(event) is event


def test_an_event_holding_a_secret_becomes_a_redacted_copy_of_its_type() -> None:
    event = PartialAssistantEvent(
        timestamp_ms=5, message=Message(content=(ContentBlock(text=f"key {KEY}"),))
    )
    copy = Redaction([KEY]).event(event)
    assert (type(copy), copy.text, copy.timestamp_ms) == (PartialAssistantEvent, f"key {MASK}", 5)


def test_a_secret_escaped_in_an_event_is_found() -> None:
    copy = Redaction([TRICKY]).event(said(f"key {TRICKY}!"))
    assert copy.text == f"key {MASK}!"


def test_a_tool_call_payload_is_redacted_and_still_parses() -> None:
    payload = {"shellToolCall": {"args": {"command": f"curl -H 'Authorization: {KEY}' x"}}}
    event = ToolCallStarted(call_id="c1", tool_call=msgspec.Raw(msgspec.json.encode(payload)))
    copy = Redaction([KEY]).event(event)
    assert copy.kind == "shellToolCall"
    assert KEY not in bytes(copy.tool_call).decode()


def test_an_unknown_events_raw_object_is_redacted_keys_and_all() -> None:
    event = UnknownEvent(type="debug", raw={"type": "debug", KEY: [f"key={KEY}"]})
    assert Redaction([KEY]).event(event).raw == {"type": "debug", MASK: [f"key={MASK}"]}


def test_an_event_nested_too_deep_to_walk_is_redacted_without_raising() -> None:
    # A hostile line (docs/protocol.md §5) must not turn an error into a crash.
    nested: dict[str, Any] = {"text": KEY}
    for _ in range(20_000):
        nested = {"a": nested}
    event = UnknownEvent(type="debug", subtype=KEY, raw=nested)
    assert KEY not in repr(Redaction([KEY]).event(event))


def test_a_list_of_events_without_secrets_is_the_same_list() -> None:
    events: list[Any] = [said("a"), said("b")]
    assert Redaction([KEY]).events(events) is events


# --- errors -------------------------------------------------------------------------
def test_an_error_is_redacted_in_every_attribute() -> None:
    context = ErrorContext(
        exit_code=1,
        stderr=f"bad key {KEY}",
        stdout_lines=[f"key={KEY}"],
        events=[said(f"the key is {KEY}")],
    )
    error = AgentProcessError(f"exited: {KEY}", context=context, hint=f"check {KEY}")
    Redaction([KEY]).error(error)
    shown = [str(error), repr(error), error.message, error.hint or "", error.stderr]
    shown += [*error.stdout_lines, repr(error.events), repr(error.tool_calls)]
    assert [text for text in shown if KEY in text] == []


def test_a_result_errors_event_is_a_redacted_copy() -> None:
    event = ResultEvent(subtype="error", is_error=True, result=f"key {KEY} refused")
    error = Redaction([KEY]).error(AgentResultError("failed", event=event))
    assert error.event.result == f"key {MASK} refused"
    assert error.event.is_error


class _ErrorOfANewSurface(AgentError):
    """An error class the redaction was never told about, with attributes of its own."""

    def __init__(self, message: str, *, quoted: str, data: Any, raw: bytes) -> None:
        super().__init__(message)
        self.quoted = quoted
        self.data = data
        self.raw = raw


def test_an_errors_own_attributes_are_redacted_whatever_its_class() -> None:
    error = _ErrorOfANewSurface(
        "failed",
        quoted=f"the reply said {KEY}",
        data={"detail": [f"Bearer {KEY}"], KEY: 1},
        raw=f'{{"key": "{KEY}"}}'.encode(),
    )
    error.add_note(f"while sending {KEY}")
    Redaction([KEY]).error(error)
    assert KEY not in repr(vars(error))
    assert KEY.encode() not in pickle.dumps(error)
    assert error.quoted == f"the reply said {MASK}"


def test_an_errors_args_that_are_not_text_are_redacted_too() -> None:
    error = AgentError("failed")
    error.args = ("failed", {"said": KEY})
    Redaction([KEY]).error(error)
    assert KEY not in repr(error.args)


# --- the outcome of a run uses it ---------------------------------------------------
def stream_of(*lines: bytes) -> Stream:
    stream = Stream(keep_events=True)
    for line in lines:
        stream.feed(line)
    stream.end()
    return stream


def wire(**event: Any) -> bytes:
    return json.dumps(event).encode() + b"\n"


def leaky_error_result() -> bytes:
    return wire(type="result", subtype="error", is_error=True, result=f"key {KEY}")


def test_a_key_of_the_process_environment_is_redacted_from_a_runs_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CURSOR_API_KEY", KEY)
    error = failure_or_result(
        stream_of(leaky_error_result()),
        exit_code=0,
        ended_by_us=False,
        stderr=f"key {KEY}",
        options=AgentOptions(),
    )
    assert isinstance(error, AgentResultError)
    assert KEY not in repr(error.event) + repr(error.events) + str(error) + error.stderr


def test_a_timeout_errors_events_are_redacted() -> None:
    error = timeout_error(
        stream_of(wire(type="assistant", message={"content": [{"text": f"k {KEY}"}]})),
        "timeout",
        exit_code=None,
        stderr="",
        options=AgentOptions(timeout=1, api_key=KEY),
    )
    assert isinstance(error, AgentTimeoutError)
    assert KEY not in repr(error.events)


def succeeded(stderr: str = "") -> RunResult:
    result_line = wire(type="result", subtype="success", is_error=False, result=f"key {KEY}")
    result = failure_or_result(
        stream_of(result_line),
        exit_code=0,
        ended_by_us=False,
        stderr=stderr,
        options=AgentOptions(api_key=KEY),
    )
    assert isinstance(result, RunResult)
    return result


def test_a_successful_runs_reply_is_the_users_data_and_left_alone() -> None:
    assert succeeded().result == f"key {KEY}"


def test_a_successful_runs_stderr_is_redacted() -> None:
    assert succeeded(stderr=f"debug: key {KEY}").stderr == f"debug: key {MASK}"
