"""Which agent the examples drive: the real ``cursor-agent``, or the bundled fake.

Every example builds its options with :func:`default_options`. It picks the fake agent
(``fake_agent``, shipped with agent_sdk; it replays scripted runs, no network) when

* ``AGENT_SDK_EXAMPLES_FAKE=1`` is set (the tests do this), or
* neither ``cursor-agent`` is on ``PATH`` nor ``$CURSOR_AGENT_BIN`` is set,

and otherwise lets agent_sdk find the real CLI. The fake chooses what to play from a
``scenario:NAME`` token in the prompt (``scenario:cart``, ``scenario:crash``, ...; see
``fake_agent/scenarios/README.md``); without one it plays ``demo``
(``fake_agent.DEFAULT_SCENARIO``).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import fake_agent
from agent_sdk import AgentOptions

__all__ = ["default_options", "using_fake"]

_announced = False


def using_fake() -> bool:
    """Whether the examples run the bundled fake agent instead of the real CLI."""
    if os.environ.get("AGENT_SDK_EXAMPLES_FAKE") == "1":
        return True
    return shutil.which("cursor-agent") is None and not os.environ.get("CURSOR_AGENT_BIN")


def default_options(**overrides: Any) -> AgentOptions:
    """``AgentOptions(**overrides)`` for the chosen agent.

    The first call prints one line on stderr saying which agent that is.
    """
    global _announced
    fake = using_fake()
    if not _announced:
        _announced = True
        which = (
            f"the bundled fake agent ({fake_agent.executable()})"
            if fake
            else "the real cursor-agent"
        )
        print(f"[agent_sdk examples: using {which}]", file=sys.stderr)
    if fake:
        overrides.setdefault("binary", fake_agent.executable())
    return AgentOptions(**overrides)
