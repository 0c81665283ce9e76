"""The models and version the fake CLI claims to have."""

from __future__ import annotations

import os
import sys

#: The version of a fake run from anywhere but an install's layout; the suffix marks it
#: as the fake in any log.
FAKE_VERSION = "2026.10.01-fake0001"


def _installed_version() -> str | None:
    """The release a copy of the fake's script was installed as, as the real CLI is:
    ``…/cursor-agent/versions/<version>/cursor-agent``, reached through the links in
    ``~/.local/bin`` (docs/protocol.md §1, "Finding the binary"). Its ``--version`` then
    prints ``<version>``, as the real release would."""
    real = os.path.realpath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    release = os.path.dirname(real)
    versions = os.path.dirname(release)
    if (
        os.path.basename(versions) == "versions"
        and os.path.basename(os.path.dirname(versions)) == "cursor-agent"
    ):
        return os.path.basename(release) or None
    return None


#: What ``--version`` prints (and ``about``, and the hooks' ``cursor_version``).
VERSION = _installed_version() or FAKE_VERSION

#: Model id -> display name, in the order ``models`` lists them. The ``system/init``
#: event carries the display name, never the id (as the real CLI does).
FAKE_MODELS: dict[str, str] = {
    "auto": "Auto",
    "composer-1": "Composer 1",
    "gpt-5": "GPT-5",
    "gpt-5-codex": "GPT-5 Codex",
    "sonnet-4": "Claude 4 Sonnet",
    "sonnet-4.5": "Claude 4.5 Sonnet",
    "sonnet-4.5-thinking": "Claude 4.5 Sonnet (Thinking)",
    "opus-4.1": "Claude 4.1 Opus",
    "grok": "Grok",
}

#: The model used when ``--model`` is not given.
DEFAULT_MODEL = "auto"
