"""The environment for spawning ``python -m fake_agent`` directly in the fake's own tests,
and the overlay that keeps inherited settings from choosing for a test's options."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fake_env(**extra: str) -> dict[str, str]:
    """This process's environment without inherited ``FAKE_AGENT_*`` settings or API key,
    with this checkout importable, and ``extra`` on top."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("FAKE_AGENT_") and k != "CURSOR_API_KEY"
    }
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env


def clean_env(**extra: str) -> dict[str, str]:
    """An ``AgentOptions(env=...)`` overlay: every inherited ``FAKE_AGENT_*`` setting and
    credential blanked (no scenario or login chosen for us), ``extra`` on top."""
    env = {k: "" for k in os.environ if k.startswith("FAKE_AGENT_")}
    env.update(CURSOR_API_KEY="", CURSOR_AUTH_TOKEN="")
    env.update(extra)
    return env
