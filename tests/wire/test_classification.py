"""Recognising the CLI's failures from what it printed (docs/protocol.md §5), in memory:
the 2026.10 unknown-model line (~6 KB, ~250 ids) and the config-file race (§1), and how a
long quote is cut for a message (``_wire/classify.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import fake_agent
from agent_sdk import (
    AgentAuthError,
    AgentModelError,
    AgentProcessError,
    AgentRetriableError,
    ErrorContext,
)
from agent_sdk._run.outcome import what_the_cli_said
from agent_sdk._wire.classify import (
    MESSAGE_CHARS,
    REFUSING_CODES,
    classify,
    process_error,
    shorten,
)
from agent_sdk.errors import AgentConfigRaceError, AgentOptionError, AgentRefusedError


def scenario_stderr(name: str) -> str:
    """The stderr a bundled scenario scripts: the realistic text of that failure."""
    lines = fake_agent.scenario_path(name).read_text("utf-8").splitlines()
    said = [json.loads(line) for line in lines if line.strip()]
    return "".join(obj["text"] + "\n" for obj in said if obj.get("fake") == "stderr")


UNKNOWN_MODEL = scenario_stderr("unknown_model")
REFUSED = scenario_stderr("refused_argument")
MODELS = UNKNOWN_MODEL.split("Available models: ", 1)[1].strip().split(", ")
CONFIG_RACE = scenario_stderr("config_race")


def failure(stderr: str) -> AgentProcessError:
    """The error of a CLI that exited 1 having written ``stderr``, built as a run and a
    query build it (``_run/outcome.py``, ``queries.py``)."""
    context = ErrorContext(exit_code=1, stderr=stderr)
    return process_error(
        what_the_cli_said(context), context, whole=what_the_cli_said(context, whole=True)
    )


def model_error() -> AgentModelError:
    error = failure(UNKNOWN_MODEL)
    assert isinstance(error, AgentModelError)
    return error


# --- the unknown-model line of 2026.10 ------------------------------------------------
def test_the_scenario_line_is_as_long_as_the_real_one() -> None:
    assert len(UNKNOWN_MODEL.encode()) > 5500
    assert UNKNOWN_MODEL.count("\n") == 1
    assert len(MODELS) >= 240


def test_the_long_unknown_model_line_is_classified_as_a_model_error() -> None:
    assert classify(UNKNOWN_MODEL)[0] is AgentModelError


def test_its_cut_tail_alone_would_not_be_recognised() -> None:
    # Why classification must read the whole text: the old quote, the last 2,000 chars.
    assert classify(UNKNOWN_MODEL[-MESSAGE_CHARS:])[0] is AgentProcessError


def test_a_shortened_quote_is_classified_from_the_context_when_no_whole_is_given() -> None:
    cut = "..." + UNKNOWN_MODEL[-MESSAGE_CHARS:]
    error = process_error(cut, ErrorContext(exit_code=1, stderr=UNKNOWN_MODEL))
    assert isinstance(error, AgentModelError)


def test_a_shortened_quote_is_classified_from_whole_when_given() -> None:
    cut = "..." + UNKNOWN_MODEL[-MESSAGE_CHARS:]
    error = process_error(cut, ErrorContext(exit_code=1), whole=UNKNOWN_MODEL)
    assert isinstance(error, AgentModelError)


def test_the_model_error_has_every_listed_model_in_order() -> None:
    assert model_error().available_models == MODELS


def test_the_model_error_message_keeps_the_start_of_the_cli_message() -> None:
    message = model_error().message
    assert message.startswith(
        "cursor-agent exited with code 1: Cannot use this model: gpt-4-turbo-preview. "
        "Available models: auto, composer-1, composer-1-fast, "
    )


def test_the_model_error_message_counts_the_models_it_leaves_out() -> None:
    assert f"... and {len(MODELS) - 3} more; see .available_models" in model_error().message


def test_the_model_error_message_does_not_list_every_model() -> None:
    text = str(model_error())
    assert [model for model in MODELS[3:] if f" {model}," in text or text.endswith(model)] == []
    assert len(text) < 500


def test_the_model_error_hint_counts_the_models_instead_of_listing_them() -> None:
    hint = model_error().hint
    assert hint is not None
    assert f"all {len(MODELS)} in .available_models" in hint
    assert MODELS[-1] not in hint


def test_a_list_of_ten_models_is_quoted_whole() -> None:
    models = ", ".join(MODELS[:10])
    error = failure(f"Cannot use this model: x. Available models: {models}\n")
    assert error.message.endswith(f"Available models: {models}")


def test_a_list_of_eleven_models_is_quoted_in_part() -> None:
    models = ", ".join(MODELS[:11])
    error = failure(f"Cannot use this model: x. Available models: {models}\n")
    assert error.message.endswith(f"{MODELS[2]}, ... and 8 more; see .available_models")


def test_a_model_error_after_other_output_keeps_that_output_in_the_message() -> None:
    error = failure("T: starting\n" + UNKNOWN_MODEL)
    assert error.message.startswith("cursor-agent exited with code 1: T: starting\nCannot use")


# --- the config-file race -------------------------------------------------------------
def test_the_config_race_is_a_config_race_error() -> None:
    assert type(failure(CONFIG_RACE)) is AgentConfigRaceError


def test_the_config_race_error_is_a_retriable_error() -> None:
    assert isinstance(failure(CONFIG_RACE), AgentRetriableError)


def test_the_config_race_is_recognised_in_any_config_dir() -> None:
    stderr = (
        "Error: ENOENT: no such file or directory, rename "
        "'/tmp/run-7/cli-config.json.tmp' -> '/tmp/run-7/cli-config.json'\n"
    )
    assert type(failure(stderr)) is AgentConfigRaceError


def test_another_enoent_is_not_the_config_race() -> None:
    stderr = "Error: ENOENT: no such file or directory, open '/home/dev/shop/a.py'\n"
    assert type(failure(stderr)) is AgentProcessError


@pytest.mark.parametrize("words", ["nothing was done", "retry is safe", "CURSOR_CONFIG_DIR"])
def test_the_config_race_hint_says_retrying_is_safe_and_how_to_avoid_it(words: str) -> None:
    hint = failure(CONFIG_RACE).hint
    assert hint is not None
    assert words in hint


def test_the_config_race_hint_is_not_the_server_retry_hint() -> None:
    retriable = failure("RetriableError: [unavailable] try later\n")
    assert type(retriable) is AgentRetriableError
    assert failure(CONFIG_RACE).hint != retriable.hint


# --- RetriableError: classified by the code in brackets (§3.6) ---------------------------
def test_the_scenario_refusal_is_an_invalid_argument_retriable_error_line() -> None:
    assert REFUSED.startswith("RetriableError: [invalid_argument] unknown option '--")


def test_an_invalid_argument_refusal_is_a_refused_error() -> None:
    assert type(failure(REFUSED)) is AgentRefusedError


def test_a_refusal_is_not_a_retriable_error() -> None:
    assert not isinstance(failure(REFUSED), AgentRetriableError)


def test_a_refusal_naming_an_unknown_option_is_not_taken_for_the_clis_own_option_error() -> None:
    # The CLI accepted the flag; the service refused it (§3.6): not "update the CLI".
    assert not isinstance(failure(REFUSED), AgentOptionError)


def test_a_refusal_keeps_the_code_in_brackets() -> None:
    assert failure(REFUSED).code == "invalid_argument"


def test_a_refusal_keeps_the_services_words() -> None:
    reason = failure(REFUSED).reason
    assert reason == REFUSED.split("] ", 1)[1].strip()


def test_the_refusal_hint_quotes_the_service() -> None:
    hint = failure(REFUSED).hint
    assert hint is not None
    assert REFUSED.split("] ", 1)[1].strip() in hint


@pytest.mark.parametrize("words", ["already retried", "fails the same way", "extra_args"])
def test_the_refusal_hint_says_a_retry_cannot_help_and_what_to_change(words: str) -> None:
    hint = failure(REFUSED).hint
    assert hint is not None
    assert words in hint


def test_the_refusal_hint_does_not_say_to_update_the_cli() -> None:
    hint = failure(REFUSED).hint
    assert hint is not None
    assert "update" not in hint


def test_a_refusal_printed_on_stdout_is_recognised() -> None:
    # The published 2026.10 file had the line among the JSON lines (§3.6).
    context = ErrorContext(exit_code=1, stdout_lines=[REFUSED.strip()])
    assert type(process_error(REFUSED.strip(), context)) is AgentRefusedError


@pytest.mark.parametrize(
    "code",
    [
        "failed_precondition",
        "out_of_range",
        "permission_denied",
        "unauthenticated",
        "not_found",
        "already_exists",
        "unimplemented",
    ],
)
def test_a_code_that_refuses_the_request_as_sent_is_a_refused_error(code: str) -> None:
    assert type(failure(f"RetriableError: [{code}] no\n")) is AgentRefusedError


@pytest.mark.parametrize(
    "code",
    ["unavailable", "deadline_exceeded", "resource_exhausted", "aborted", "internal", "unknown"],
)
def test_any_other_code_stays_a_retriable_error(code: str) -> None:
    error = failure(f"RetriableError: [{code}] the service did not answer\n")
    assert type(error) is AgentRetriableError
    assert error.code == code


def test_a_retriable_error_without_a_code_stays_a_retriable_error() -> None:
    error = failure("RetriableError: the connection gave up\n")
    assert type(error) is AgentRetriableError
    assert error.code is None


def test_a_retriable_error_keeps_the_services_words() -> None:
    error = failure("RetriableError: [unavailable] upstream connect error\n")
    assert error.reason == "upstream connect error"


PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_docs_list_exactly_the_codes_that_are_never_retried() -> None:
    text = PROTOCOL.read_text("utf-8")
    listed = text.split("(`service_error`):", 1)[1].split("- any other code", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", listed)) == REFUSING_CODES


def test_the_docs_failure_table_names_the_refused_error() -> None:
    rows = [line for line in PROTOCOL.read_text("utf-8").splitlines() if line.startswith("|")]
    assert any("[invalid_argument]" in row and "`AgentRefusedError`" in row for row in rows)


def test_the_config_race_has_no_service_code() -> None:
    assert failure(CONFIG_RACE).code is None


# --- cutting a long quote: start and end kept, the middle counted ------------------------
LOG = "".join(f"line {i} of the log\n" for i in range(1000))


def test_a_short_text_is_not_cut() -> None:
    assert shorten("Error: x\nat y", 20) == "Error: x\nat y"


def test_a_long_text_keeps_its_start() -> None:
    assert shorten(LOG).startswith("line 0 of the log\nline 1 of the log\n")


def test_a_long_text_keeps_its_end() -> None:
    assert shorten(LOG).endswith("line 999 of the log\n")


def test_a_long_text_says_how_much_was_cut() -> None:
    cut = shorten(LOG)
    left_out = int(cut.split("[... ", 1)[1].split(" characters cut", 1)[0])
    kept = cut.replace(f" [... {left_out} characters cut ...] ", "")
    assert len(kept) + left_out == len(LOG)


def test_a_long_text_is_cut_to_about_the_limit() -> None:
    assert MESSAGE_CHARS - 100 < len(shorten(LOG)) <= MESSAGE_CHARS + 40


def test_a_long_line_of_words_is_not_cut_mid_word() -> None:
    words = [f"word{i:04d}" for i in range(1000)]
    cut = shorten(" ".join(words))
    head, tail = cut.split(" [... ", 1)
    tail = tail.split("cut ...] ", 1)[1]
    assert head.split(" ")[-1] in words
    assert tail.split(" ")[0] in words


def test_a_text_without_spaces_is_still_cut_to_the_limit() -> None:
    assert len(shorten("x" * 10_000)) <= MESSAGE_CHARS + 40


# --- the failures reported in 2026.10 (docs/protocol.md §5): exit codes unknown ----------
FREE_PLAN = "Named models unavailable Free plans can only use Auto"
KEYCHAIN = 'Failed to save the "cursor-access-token" credential'


@pytest.mark.parametrize(
    "said", [FREE_PLAN, "Named models unavailable\nFree plans can only use Auto\n"]
)
def test_a_named_model_on_a_free_plan_is_a_model_error_whose_hint_says_auto(said: str) -> None:
    error = failure(said)
    assert type(error) is AgentModelError
    assert error.hint is not None
    assert "Free plan" in error.hint
    assert "AgentOptions(model='auto')" in error.hint
    assert "leave model unset" in error.hint
    assert error.available_models == []  # the message lists no ids


def test_the_keychain_failure_is_an_auth_error_whose_hint_says_what_to_do_with_home() -> None:
    error = failure(f"Error: {KEYCHAIN}\n")
    assert type(error) is AgentAuthError
    assert error.hint is not None
    assert "HOME" in error.hint
    assert "AGENT_CLI_CREDENTIAL_STORE=file" in error.hint
    assert "AgentOptions(api_key=...)" in error.hint


def test_the_keychain_hint_wins_over_not_logged_in() -> None:
    # A CLI signed out by the keychain may say both: the keychain's hint is the one that helps.
    _, hint = classify(f"{KEYCHAIN}\nNot logged in.")
    assert hint is not None
    assert "keychain" in hint
