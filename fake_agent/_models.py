"""The models and version the fake CLI claims to have."""

from __future__ import annotations

#: What ``--version`` prints; the suffix marks it as the fake in any log.
VERSION = "2026.10.01-fake0001"

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
