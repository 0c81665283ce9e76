"""How a run ended (docs/protocol.md §5): every error ``failure_or_result`` makes carries
an ErrorContext (session id, exit code, stderr, stdout lines, the kept events)."""

from __future__ import annotations

from typing import Any

import pytest
from outcome_streams import (
    INIT,
    SESSION,
    error_result,
    failed,
    stream_of,
)

from agent_sdk import (
    ErrorContext,
)

FAILURES: dict[str, tuple[dict[str, Any], tuple[bytes, ...]]] = {
    "process": ({"exit_code": 1, "stderr": "Error: x\n"}, (INIT,)),
    "recognised": ({"exit_code": 1, "stderr": "Not logged in\n"}, (INIT,)),
    "signal": ({"exit_code": -9}, (INIT,)),
    "no-result": ({"exit_code": 0}, (INIT,)),
    "is-error": ({"exit_code": 0}, (INIT, error_result())),
    "ended-without-result": ({"exit_code": -9, "ended_by_us": True}, (INIT,)),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_every_error_has_an_error_context(case: str) -> None:
    kwargs, lines = FAILURES[case]
    error = failed(stream_of(*lines, b"a banner\n"), **{"stderr": "warn\n", **kwargs})
    assert isinstance(error.context, ErrorContext)
    assert (error.context.session_id, error.context.stdout_lines) == (SESSION, ["a banner"])


@pytest.mark.parametrize("case", list(FAILURES))
def test_every_error_carries_the_events_the_stream_kept(case: str) -> None:
    kwargs, lines = FAILURES[case]
    stream = stream_of(*lines, keep_events=True)
    error = failed(stream, **kwargs)
    assert error.events == stream.events
    assert error.events


def test_the_error_properties_read_its_context() -> None:
    error = failed(stream_of(INIT, b"banner\n"), exit_code=2, stderr="boom\n")
    context = error.context
    assert (error.session_id, error.exit_code, error.stderr, error.stdout_lines) == (
        context.session_id,
        context.exit_code,
        context.stderr,
        context.stdout_lines,
    )
