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


def install_fake(home: Path, version: str, fake_binary: str) -> Path:
    """A copy of the fake's script installed as the real CLI's installer lays a release
    out (docs/protocol.md §1, "Finding the binary"): ``versions/<version>/cursor-agent``
    under ``home/.local/share/cursor-agent``, with ``home/.local/bin/agent`` and
    ``cursor-agent`` linked to it (re-linked when called again: the CLI's self-update).
    Returns the ``agent`` link; the copy's ``--version`` prints ``version``."""
    release = home / ".local/share/cursor-agent/versions" / version / "cursor-agent"
    release.parent.mkdir(parents=True, exist_ok=True)
    release.write_bytes(Path(fake_binary).read_bytes())
    release.chmod(0o755)
    bin_dir = home / ".local" / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in ("cursor-agent", "agent"):
        link = bin_dir / name
        link.unlink(missing_ok=True)
        link.symlink_to(release)
    return bin_dir / "agent"
