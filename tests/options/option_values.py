"""What the tests of AgentOptions' checks share (agent_sdk/_options/checks.py): a
credential, the fields, the path options, a refused construction, a tool."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from agent_sdk import AgentConfigError, AgentOptions
from agent_sdk.extend import tool

SECRET = "key_sk-live-9f8e7d6c5b4a"
FIELDS = {field.name: field for field in msgspec.structs.fields(AgentOptions)}
PATHS = ["binary", "cwd", "workspace"]


def refused(**options: Any) -> AgentConfigError:
    with pytest.raises(AgentConfigError) as info:
        AgentOptions(**options)
    return info.value


@tool
def _a_tool(number: int) -> int:
    """Echo a number."""
    return number
