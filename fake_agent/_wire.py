"""Encoding events as wire lines and writing bytes to the standard streams."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

# A str decoded from JSON holds a lone surrogate only where the source had an
# unpaired ``\udXXX`` escape (json.loads joins real pairs into one code point).
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def encode_line(event: Any) -> bytes:
    """Encode one event as a compact JSON line (with its trailing newline) in UTF-8.

    Non-ASCII text stays raw UTF-8 like Node's ``JSON.stringify``. A lone UTF-16
    surrogate (Node emits one when it cuts text mid-emoji) cannot be encoded as
    UTF-8, so it is written back as a ``\\udXXX`` escape, exactly as Node does.
    """
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        # A surrogate can only sit inside a JSON string literal, so replacing it by
        # its escape keeps the line valid JSON meaning the same thing.
        data = _SURROGATE.sub(_escape_surrogate, text).encode("utf-8")
    return data + b"\n"


def _encode_text(text: str) -> bytes:
    # Scenario text may hold anything; never let an odd code point crash the fake.
    return text.encode("utf-8", errors="backslashreplace")


def write_stdout(data: bytes | str) -> None:
    """Write to stdout as UTF-8 bytes and flush, so a reader sees it at once."""
    sys.stdout.buffer.write(data if isinstance(data, bytes) else _encode_text(data))
    sys.stdout.buffer.flush()


def write_stderr(text: str) -> None:
    """Write text to stderr as UTF-8 bytes (whatever the locale) and flush."""
    sys.stderr.buffer.write(_encode_text(text))
    sys.stderr.buffer.flush()
