"""The reply text: the agent's messages, a blank line between two a tool call split
(docs/protocol.md §3.3; the CLI's own ``result`` joins them with nothing between).

The reply is kept as a list of parts, appended as events arrive; :func:`end_message`
marks where a message ends, and :func:`joined` gives the text.
"""

from __future__ import annotations

MESSAGE_BREAK = "\n\n"
"""What the reply puts between two messages a tool call split."""


def end_message(parts: list[str]) -> None:
    """The message so far ends here (a tool call comes next)."""
    # Once, and only after some text: a reply never starts with a break, and a tool call
    # after a tool call (or an empty segment) adds none. Rare (once per message): the
    # walk back over empty parts costs nothing on the hot path.
    last = next((part for part in reversed(parts) if part), "")
    if last and not last.endswith(MESSAGE_BREAK):
        # Only the newline the text lacks: a segment may end with one (seen in a plan).
        parts.append("\n" if last.endswith("\n") else MESSAGE_BREAK)


def joined(parts: list[str]) -> str:
    """The reply the parts make; one that ends with a tool call ends with its text."""
    if len(parts) > 1:
        # One string from then on: asking again costs the new parts, not the whole reply.
        parts[:] = ["".join(parts)]
    return parts[0].removesuffix(MESSAGE_BREAK) if parts else ""
