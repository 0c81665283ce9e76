"""AgentOptions(new_session_id=...): a chat id chosen up front (docs/sessions.md), checked
when the options are built; agent_sdk.new_session_id() mints one; the CLI's "already in
use" refusal is recognised (docs/protocol.md §5)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import msgspec
import pytest

import agent_sdk
from agent_sdk import AgentConfigError, AgentOptions, AgentProcessError, AgentSessionInUseError
from agent_sdk._wire.classify import classify, process_error
from agent_sdk.cli.hints import in_flag_terms
from agent_sdk.errors import ErrorContext

CHOSEN = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
IN_USE = f'Error: Session ID "{CHOSEN}" is already in use.'
CANONICAL = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def refused(**options: Any) -> AgentConfigError:
    with pytest.raises(AgentConfigError) as caught:
        AgentOptions(**options)
    return caught.value


# --- the option ----------------------------------------------------------------------
def test_a_lowercase_uuid_is_taken_and_shown_in_the_options_repr() -> None:
    options = AgentOptions(new_session_id=CHOSEN)
    assert options.new_session_id == CHOSEN
    assert repr(options) == f"AgentOptions(new_session_id={CHOSEN!r})"


def test_the_option_is_unset_by_default() -> None:
    assert AgentOptions().new_session_id is None


@pytest.mark.parametrize(
    "value",
    ["", "abc", CHOSEN[:-1], CHOSEN + "0", CHOSEN.replace("-", ""), "{" + CHOSEN[1:-1] + "}"],
)
def test_what_is_no_uuid_is_refused_with_how_to_make_one(value: str) -> None:
    error = refused(new_session_id=value)
    assert "must be a UUID" in error.message
    assert f"new_session_id={value!r}" in error.message
    assert error.hint is not None
    assert "str(uuid.uuid4())" in error.hint
    assert "agent_sdk.new_session_id()" in error.hint


def test_a_uuid_in_capitals_is_refused_with_its_lowercase_form() -> None:
    error = refused(new_session_id=CHOSEN.upper())
    assert "capitals" in error.message
    assert error.hint == f"write it in lowercase: {CHOSEN!r}"


def test_a_uuid_object_is_refused_with_the_conversion() -> None:
    error = refused(new_session_id=uuid.UUID(CHOSEN))
    assert "must be a str" in error.message
    assert error.hint == "pass text: new_session_id=str(value)"


def test_a_very_long_value_is_quoted_cut() -> None:
    error = refused(new_session_id="x" * 500)
    assert len(error.message) < 200


@pytest.mark.parametrize(
    ("other", "named"),
    [({"resume": CHOSEN}, f"resume={CHOSEN!r}"), ({"continue_session": True}, "continue_session")],
)
def test_it_cannot_go_with_resume_or_continue(other: dict[str, Any], named: str) -> None:
    error = refused(new_session_id=CHOSEN, **other)
    assert named in error.message
    assert error.hint is not None
    assert "single use" in error.hint


def test_the_rules_hold_for_options_made_by_replace() -> None:
    options = AgentOptions(new_session_id=CHOSEN)
    with pytest.raises(AgentConfigError, match="not both"):
        msgspec.structs.replace(options, resume=CHOSEN)
    with pytest.raises(AgentConfigError, match="must be a UUID"):
        msgspec.structs.replace(options, new_session_id="nope")
    again = msgspec.structs.replace(options, resume=CHOSEN, new_session_id=None)
    assert (again.resume, again.new_session_id) == (CHOSEN, None)


def test_in_flag_terms_the_errors_name_the_flags() -> None:
    said = in_flag_terms(str(refused(new_session_id=CHOSEN, resume="x")))
    assert "--new-session-id UUID" in said
    assert "--resume x" in said
    said = in_flag_terms(str(refused(new_session_id="abc")))
    assert said.startswith("--new-session-id abc: ")
    assert "agent_sdk" not in said


# --- minting one ---------------------------------------------------------------------
def test_new_session_id_gives_a_fresh_canonical_uuid4_the_options_take() -> None:
    first, second = agent_sdk.new_session_id(), agent_sdk.new_session_id()
    assert CANONICAL.fullmatch(first)
    assert first != second
    assert AgentOptions(new_session_id=first).new_session_id == first


# --- the CLI's refusal of a reused id ------------------------------------------------
def test_the_in_use_message_is_an_agent_session_in_use_error_with_a_hint() -> None:
    error_type, hint = classify(IN_USE)
    assert error_type is AgentSessionInUseError
    assert issubclass(error_type, AgentProcessError)
    assert hint is not None
    assert "single use" in hint
    assert f"AgentOptions(resume={CHOSEN!r})" in hint
    assert f"Session({CHOSEN!r})" in hint
    assert "new_session_id()" in hint


@pytest.mark.parametrize("where", ["stderr", "stdout"])
def test_the_message_is_recognised_on_either_stream(where: str) -> None:
    # Some of the CLI's text errors go to stdout (docs/protocol.md §5).
    context = ErrorContext(
        exit_code=1,
        session_id=CHOSEN,
        stderr=IN_USE + "\n" if where == "stderr" else "",
        stdout_lines=[IN_USE] if where == "stdout" else [],
    )
    error = process_error(IN_USE, context)
    assert type(error) is AgentSessionInUseError
    assert error.session_id == CHOSEN
    assert IN_USE in error.message


def test_other_failures_are_not_taken_for_it() -> None:
    assert classify("Error: Session ID is required")[0] is AgentProcessError
    assert classify("Error: Workspace path does not exist: /x")[0] is not AgentSessionInUseError


def test_the_hint_in_flag_terms_speaks_of_resume_and_no_python() -> None:
    hint = classify(IN_USE)[1]
    assert hint is not None
    said = in_flag_terms(hint, CHOSEN)
    assert f"--resume {CHOSEN}" in said
    assert "Session(" not in said
    assert "agent_sdk" not in said
    assert "--new-session-id" in said


def test_a_live_agent_refuses_it_rather_than_ignore_it() -> None:
    from agent_sdk.live import LiveAgent

    with pytest.raises(AgentConfigError, match="for print-mode runs") as caught:
        LiveAgent(AgentOptions(new_session_id=CHOSEN))
    assert "load_session" in (caught.value.hint or "")
