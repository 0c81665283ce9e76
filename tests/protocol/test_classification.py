"""Recognising the CLI's failures from what it printed (docs/protocol.md §5), in memory:
the 2026.10 unknown-model line (~6 KB, ~250 ids) and the config-file race (§1), and how a
long quote is cut for a message (``_protocol/classify.py``)."""

from __future__ import annotations

import json

import pytest

import fake_agent
from agent_sdk import AgentModelError, AgentProcessError, AgentRetriableError, ErrorContext
from agent_sdk._protocol.classify import MESSAGE_CHARS, classify, process_error, shorten
from agent_sdk._protocol.outcome import what_the_cli_said
from agent_sdk.errors import AgentConfigRaceError


def scenario_stderr(name: str) -> str:
    """The stderr a bundled scenario scripts: the realistic text of that failure."""
    lines = fake_agent.scenario_path(name).read_text("utf-8").splitlines()
    said = [json.loads(line) for line in lines if line.strip()]
    return "".join(obj["text"] + "\n" for obj in said if obj.get("fake") == "stderr")


UNKNOWN_MODEL = scenario_stderr("unknown_model")
MODELS = UNKNOWN_MODEL.split("Available models: ", 1)[1].strip().split(", ")
CONFIG_RACE = scenario_stderr("config_race")


def failure(stderr: str) -> AgentProcessError:
    """The error of a CLI that exited 1 having written ``stderr``, built as a run and a
    query build it (``_protocol/outcome.py``, ``queries.py``)."""
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
