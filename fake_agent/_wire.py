"""Encoding events as wire lines and writing bytes to the standard streams."""

from __future__ import annotations

import json
import re
import sys
import time
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


class _Drip:
    """How stdout is written: whole (the default) or in small, separately flushed pieces."""

    #: Bytes per piece; 0 means every write goes out whole.
    size = 0
    #: Seconds to sleep between two pieces.
    interval = 0.0
    #: Whether a dripped piece was written already (no sleep before the first one).
    started = False


def set_drip(size: int, interval: float) -> None:
    """From now on, split every stdout write into ``size``-byte pieces, each flushed on
    its own, ``interval`` seconds apart (the ``drip`` directive)."""
    _Drip.size = max(1, size)
    _Drip.interval = max(0.0, interval)


def write_stdout(data: bytes | str) -> None:
    """Write to stdout as UTF-8 bytes and flush, so a reader sees it at once."""
    raw = data if isinstance(data, bytes) else _encode_text(data)
    out = sys.stdout.buffer
    if not _Drip.size:
        out.write(raw)
        out.flush()
        return
    for start in range(0, len(raw), _Drip.size):
        if _Drip.started and _Drip.interval:
            time.sleep(_Drip.interval)
        _Drip.started = True
        out.write(raw[start : start + _Drip.size])
        out.flush()


def write_stderr(text: str) -> None:
    """Write text to stderr as UTF-8 bytes (whatever the locale) and flush."""
    sys.stderr.buffer.write(_encode_text(text))
    sys.stderr.buffer.flush()
