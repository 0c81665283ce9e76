"""What hooks leave in a print-mode stream (docs/protocol.md §6.4, §3.4): the reason of a
call a hook blocked, told apart from other rejections, with the hook's own words taken out
of the CLI's fixed paragraphs; and the texts of ``hookAdditionalContexts``.

Read lazily, from properties (never on the decode path): a few string operations on the
one reason or list a user asks about.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["HookReason", "context_texts", "hook_reason"]

# The paragraphs the CLI adds after a hook's words (seen in 2026.10.01 runs): the note
# to the model, and where to change hooks (after a beforeShellExecution deny).
_FIXED_STARTS = ("Agent note:", "To view or modify configured hooks")
# How the CLI introduces a hook's words (a preToolUse hook that exited 2).
_WITH_MESSAGE = "Hook blocked with message:"
# The CLI's own sentences for a hook that blocked without words shown: a
# beforeShellExecution deny, and a preToolUse deny whose reason the CLI dropped
# ("Shell blocked by preToolUse hook", for a camelCase or bare `reason` answer).
_NO_MESSAGE = "Command execution was blocked by a hook."
_NO_MESSAGE_ENDS = " hook"
_NO_MESSAGE_MIDDLE = " blocked by "


class HookReason(NamedTuple):
    by_hook: bool
    """Whether the reason says a hook blocked the call."""
    message: str | None
    """The hook's own words, if the CLI showed them."""


_NOT_A_HOOK = HookReason(False, None)


def hook_reason(reason: str) -> HookReason:
    """What a ``rejected`` reason says of hooks. Three spellings are known (docs/protocol.md
    §6.4): ``Hook blocked with message: <words>`` then the agent note; the hook's words
    alone then the agent note; a fixed sentence (``Command execution was blocked by a
    hook.``) then fixed paragraphs. Any reason ending in the agent note is a hook's."""
    paragraphs = [part.strip() for part in reason.strip().split("\n\n")]
    own = [part for part in paragraphs if part and not part.startswith(_FIXED_STARTS)]
    noted = len(own) < len([part for part in paragraphs if part])
    first = own[0] if own else ""
    if first.startswith(_WITH_MESSAGE):
        own[0] = first[len(_WITH_MESSAGE) :].strip()
        return HookReason(True, "\n\n".join(part for part in own if part) or None)
    if first == _NO_MESSAGE or (
        noted and len(own) == 1 and first.endswith(_NO_MESSAGE_ENDS) and _NO_MESSAGE_MIDDLE in first
    ):
        return HookReason(True, None)
    if noted:
        return HookReason(True, "\n\n".join(own) or None)
    return _NOT_A_HOOK


# Keys an entry of ``hookAdditionalContexts`` may hold its text under: the shape of an
# entry is unknown (docs/protocol.md §3.4; every capture has an empty list), so a string
# is its own text and an object is read by the names hooks answer with.
_TEXT_KEYS = ("additional_context", "additionalContext", "context", "text", "content")


def context_texts(contexts: list[Any]) -> list[str]:
    """The texts of ``hookAdditionalContexts`` entries: a string as it is, an object's
    text under a known key, else the object's first string value; entries with no text
    are left out."""
    texts = []
    for entry in contexts:
        text = entry if isinstance(entry, str) else _text_of(entry)
        if text:
            texts.append(text)
    return texts


def _text_of(entry: Any) -> str:
    if not isinstance(entry, dict):
        return ""
    for key in _TEXT_KEYS:
        value = entry.get(key)
        if isinstance(value, str) and value:
            return value
    return next((value for value in entry.values() if isinstance(value, str) and value), "")
