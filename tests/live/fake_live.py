"""The fake's ACP mode for the live tests: the hang guard of every wait, and a scenario
a test writes for the fake to play."""

from __future__ import annotations

from pathlib import Path

import msgspec
from fake_env import clean_env

from agent_sdk import AgentOptions

LIMIT = 30.0  # only a broken client or fake waits this long


def playing(options: AgentOptions, tmp_path: Path, *lines: str) -> AgentOptions:
    """``options`` whose every prompt plays ``lines`` (a scenario file of this test)."""
    path = tmp_path / "scenario.ndjson"
    path.write_text("\n".join(lines) + "\n")
    return msgspec.structs.replace(options, env=clean_env(FAKE_AGENT_ACP_SCENARIO=str(path)))


def message(text: str) -> str:
    return msgspec.json.encode(
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    ).decode()
