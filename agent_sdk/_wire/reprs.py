"""Short reprs for what holds a whole run: a result, an error, its context.

A repr that walked every kept event would cost seconds on a long run, and a log line or
a debugger would print megabytes (docs/benchmarks.md, issue 24). These show counts and
the start of the text instead; the events stay one attribute away.
"""

from __future__ import annotations

from collections.abc import Sized

__all__ = ["count", "short", "start"]

_SHOWN = 60  # characters of a text kept in a repr


def start(text: str, shown: int = _SHOWN) -> str:
    """``'The cart sums…' (1,234 chars)``: the repr of a text, cut when it is long."""
    if len(text) <= shown:
        return repr(text)
    return f"{text[:shown]!r}… ({len(text):,} chars)"


def count(items: Sized) -> str:
    """``<150,000 items>``: what a list shows in a short repr."""
    n = len(items)
    return f"<{n:,} item{'' if n == 1 else 's'}>"


def short(name: str, *fields: tuple[str, str]) -> str:
    """``Name(a=1, b=<3 items>)`` from fields already shown; a field with no key shows
    its value alone (an exception's message)."""
    shown = (f"{key}={value}" if key else value for key, value in fields)
    return f"{name}({', '.join(shown)})"
