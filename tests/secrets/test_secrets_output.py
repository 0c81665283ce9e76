"""The key and structured output (docs/output.md): a reply whose JSON value holds the key
where it does not fit makes msgspec quote it; the ``AgentOutputError`` says what was
wrong without it. (Its ``reply`` and ``json`` are the agent's words, kept as they are;
the correction prompt, sent back on the next run's command line, is checked with every
process's argv in test_secrets_processes.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from secrets_plant import MakeOptions, Verdict, where_shown

from agent_sdk import AgentOutputError, run_async

pytestmark = pytest.mark.anyio


async def test_an_output_error_says_what_was_wrong_without_the_key(
    planted: MakeOptions, key_in_reply: Path
) -> None:
    with pytest.raises(AgentOutputError) as info:
        await run_async("review", output_type=Verdict, options=planted(key_in_reply))
    error = info.value
    said = {
        "str": str(error),
        "repr": repr(error),
        "message": error.message,
        "problem": error.problem,
        "hint": error.hint,
        "args": error.args,
    }
    assert "verdict" in error.problem  # the premise: the problem names the field
    assert where_shown(said) == []
