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
    # after a tool call (or an empty segment) adds none. The end of the text, not of its
    # last part: "\n" then the newline a first call added are a break together. Rare
    # (once per message): the walk back over the last parts costs nothing on the hot path.
    end = ""
    for part in reversed(parts):
        end = part[-len(MESSAGE_BREAK) :] + end  # its last characters only: no copy
        if len(end) >= len(MESSAGE_BREAK):
            break
    if end and not end.endswith(MESSAGE_BREAK):
        # Only the newline the text lacks: a segment may end with one (seen in a plan).
        parts.append("\n" if end.endswith("\n") else MESSAGE_BREAK)


def joined(parts: list[str]) -> str:
    """The reply the parts make; one that ends with a tool call ends with its text."""
    if len(parts) > 1:
        # One string from then on: asking again costs the new parts, not the whole reply.
        parts[:] = ["".join(parts)]
    return parts[0].removesuffix(MESSAGE_BREAK) if parts else ""
