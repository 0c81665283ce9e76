"""The CLI's own failure messages become typed errors with a hint that says the fix."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_sdk import (
    AgentAuthError,
    AgentError,
    AgentModelError,
    AgentOptionError,
    AgentOptions,
    AgentProcessError,
    AgentRetriableError,
    AgentTrustError,
    AgentUsageLimitError,
    AgentWorkspaceError,
    run_async,
)
from agent_sdk.errors import AgentConfigRaceError, AgentRefusedError

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]

# (scenario, options, expected error, words the hint must contain)
CASES: list[tuple[str, dict[str, Any], type[AgentProcessError], str]] = [
    ("not_logged_in", {}, AgentAuthError, "cursor-agent login"),
    ("invalid_api_key", {}, AgentAuthError, "api_key"),
    ("hello", {"model": "nope"}, AgentModelError, "AgentOptions(model=...)"),
    ("hello", {"trust": False}, AgentTrustError, "trust=True"),
    ("hello", {"workspace": "/no/such/dir"}, AgentWorkspaceError, "workspace"),
    ("hello", {"extra_args": ["--frobnicate"]}, AgentOptionError, "extra_args"),
    ("hello", {"extra_args": ["--sandbox=maybe"]}, AgentOptionError, "extra_args"),
    ("stdout_error", {}, AgentUsageLimitError, "limit resets"),
    ("usage_limit", {}, AgentUsageLimitError, "limit resets"),
    ("retriable_error", {}, AgentRetriableError, "try again"),
    ("refused_argument", {}, AgentRefusedError, "fails the same way"),
    ("unknown_model", {}, AgentModelError, "AgentOptions(model=...)"),
    ("config_race", {}, AgentConfigRaceError, "retry is safe"),
]


@pytest.mark.parametrize(
    ("scenario", "options", "error_type", "hint"),
    CASES,
    ids=[f"{c[2].__name__}-{c[0]}-{'-'.join(c[1])}" for c in CASES],
)
async def test_recognised_failure_raises_its_type_with_a_hint(
    fake_options: MakeOptions,
    scenario: str,
    options: dict[str, Any],
    error_type: type[AgentProcessError],
    hint: str,
) -> None:
    with pytest.raises(error_type) as info:
        await run_async("go", options=fake_options(scenario, **options))
    error = info.value
    assert error.hint is not None
    assert hint in error.hint
    assert f"Hint: {error.hint}" in str(error)
    assert error.exit_code == 1


async def test_unrecognised_failure_stays_a_plain_process_error_with_the_cli_text(
    fake_options: MakeOptions,
) -> None:
    with pytest.raises(AgentProcessError) as info:
        await run_async("go", options=fake_options("crash"))
    assert type(info.value) is AgentProcessError
    assert info.value.hint is None
    assert "Cannot read properties of undefined" in str(info.value)


# Reported in 2026.10 (docs/protocol.md §5) with exit codes nobody recorded: the fake's
# own scenarios do not invent one, so these scenarios are the tests' (exit 1, as the CLI's
# other refusals).
REPORTED: list[tuple[str, type[AgentProcessError], str]] = [
    ("Named models unavailable Free plans can only use Auto", AgentModelError, "model='auto'"),
    (
        'Failed to save the "cursor-access-token" credential',
        AgentAuthError,
        "AGENT_CLI_CREDENTIAL_STORE=file",
    ),
]


@pytest.mark.parametrize(("said", "error_type", "hint"), REPORTED, ids=["free-plan", "keychain"])
async def test_a_reported_failure_raises_its_type_with_a_hint(
    fake_options: MakeOptions,
    tmp_path: Path,
    said: str,
    error_type: type[AgentProcessError],
    hint: str,
) -> None:
    scenario = tmp_path / "reported.ndjson"
    lines = [{"fake": "stderr", "text": said}, {"fake": "exit", "code": 1}]
    scenario.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(error_type) as info:
        await run_async("go", options=fake_options(scenario, model="gpt-5"))
    assert type(info.value) is error_type
    assert info.value.hint is not None
    assert hint in info.value.hint
    assert said in info.value.message


async def test_unknown_model_lists_the_available_models(fake_options: MakeOptions) -> None:
    import fake_agent

    with pytest.raises(AgentModelError) as info:
        await run_async("go", options=fake_options(model="nope"))
    assert info.value.available_models == list(fake_agent.FAKE_MODELS)


def scripted_models() -> list[str]:
    """The ids the unknown_model scenario's ~6 KB stderr line lists."""
    import fake_agent

    text = fake_agent.scenario_path("unknown_model").read_text("utf-8")
    line = json.loads(text.splitlines()[0])["text"]
    return str(line).split("Available models: ", 1)[1].split(", ")


async def test_the_real_unknown_model_line_gives_every_model(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentModelError) as info:
        await run_async("go", options=fake_options("unknown_model"))
    assert info.value.available_models == scripted_models()


async def test_the_real_unknown_model_message_counts_the_models_it_does_not_quote(
    fake_options: MakeOptions,
) -> None:
    models = scripted_models()
    with pytest.raises(AgentModelError) as info:
        await run_async("go", options=fake_options("unknown_model"))
    text = str(info.value)
    assert "exited with code 1: Cannot use this model: gpt-4-turbo-preview. " in text
    assert f"... and {len(models) - 3} more; see .available_models" in text
    assert models[-1] not in text


async def test_a_run_that_lost_the_config_race_is_retriable(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentRetriableError) as info:
        await run_async("go", options=fake_options("config_race"))
    assert type(info.value) is AgentConfigRaceError
    assert info.value.events == []


async def test_failure_after_events_keeps_the_session_id_to_resume(
    fake_options: MakeOptions,
) -> None:
    with pytest.raises(AgentRetriableError) as info:
        await run_async("go", options=fake_options("retriable_error"))
    assert info.value.session_id is not None
    assert info.value.session_id in {e.session_id for e in info.value.events}


async def test_api_key_is_never_logged_nor_in_the_error(
    fake_options: MakeOptions, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    key = "sk-live-do-not-leak"
    scenario = tmp_path / "leaky.ndjson"
    scenario.write_text(
        f'{{"fake":"stdout","text":"key {key} rejected"}}\n'
        f'{{"fake":"stderr","text":"Not logged in ({key})"}}\n'
        '{"fake":"exit","code":1}\n'
    )
    caplog.set_level(logging.DEBUG)
    options = fake_options(scenario, api_key=key)
    with pytest.raises(AgentError) as info:
        await run_async("go", options=options)
    error = info.value
    everything = [str(error), repr(error), error.stderr, *error.stdout_lines, repr(options)]
    everything += [record.getMessage() for record in caplog.records]
    assert not [text for text in everything if key in text]


async def test_a_failed_run_still_offers_its_tool_calls(fake_options: MakeOptions) -> None:
    with pytest.raises(AgentProcessError) as info:
        await run_async("go", options=fake_options("crash_mid_stream"))
    (call,) = info.value.tool_calls
    assert call.kind == "shellToolCall"
    assert call.is_finished
