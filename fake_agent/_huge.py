"""The payload of the ``huge_read`` directive: one read tool call with a giant result."""

from __future__ import annotations

from typing import Any

# Code-like ASCII lines; repeated to the size asked for.
_BLOCK = "".join(
    f"    def handler_{n:04d}(self, request: Request) -> Response:  "
    f"# line {n}: keep the cart totals in sync\n"
    for n in range(64)
)
# Multi-byte characters at the very end, so a reader that splits the line into chunks
# has a good chance of cutting one of them across a chunk seam.
_TAIL = "# fin: café, naïve, déjà vu 🎉🚀\n"


def huge_content(n_bytes: int) -> str:
    """Text whose UTF-8 encoding is exactly ``n_bytes`` long (ASCII, then a UTF-8 tail)."""
    tail = _TAIL if len(_TAIL.encode("utf-8")) <= n_bytes else ""
    ascii_len = n_bytes - len(tail.encode("utf-8"))
    body = _BLOCK * (ascii_len // len(_BLOCK) + 1)
    return body[:ascii_len] + tail


# Only characters below U+0100 (two UTF-8 bytes each): CPython then keeps the whole
# text at one byte per character, so a 100 MB line costs 100 MB of memory, not 400.
_LATIN1_TAIL = "# fin: café, naïve, déjà vu, Noël\n"


def huge_text(n_bytes: int) -> str:
    """Like :func:`huge_content`, but its multi-byte tail stays within Latin-1."""
    tail = _LATIN1_TAIL if len(_LATIN1_TAIL.encode("utf-8")) <= n_bytes else ""
    ascii_len = n_bytes - len(tail.encode("utf-8"))
    body = _BLOCK * (ascii_len // len(_BLOCK)) + _BLOCK[: ascii_len % len(_BLOCK)]
    return body + tail


def huge_read_events(n_bytes: int, spec: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``started`` and ``completed`` events of a read whose content is ``n_bytes``.

    ``spec`` may override ``path``, ``call_id`` and ``model_call_id``. The events have the
    2026 shape (sibling keys beside ``readToolCall``) and a placeholder ``session_id``
    that the run overwrites like any other.
    """
    path = str(spec.get("path", "logs/server.log"))
    call_id = str(spec.get("call_id", "call_hUg3\nfc_0b1g"))
    model_call_id = str(spec.get("model_call_id", "7d0c9a51-0b9e-4f8e-9c3a-5e2f1d6a4b20-0-hg7r"))
    content = huge_content(n_bytes)
    args = {"path": path}
    started = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": call_id,
        "tool_call": {
            "readToolCall": {"args": args},
            "toolCallId": call_id,
            "startedAtMs": "1785515300100",
            "hookAdditionalContexts": [],
        },
        "model_call_id": model_call_id,
        "session_id": "huge-read-session",
        "timestamp_ms": 1785515300098,
    }
    success = {
        "content": content,
        "isEmpty": n_bytes == 0,
        "exceededLimit": False,
        "totalLines": content.count("\n"),
        "fileSize": n_bytes,
        "path": path,
        "readRange": {"startLine": 1, "endLine": content.count("\n")},
    }
    completed = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": call_id,
        "tool_call": {
            "readToolCall": {"args": args, "result": {"success": success}},
            "toolCallId": call_id,
            "startedAtMs": "1785515300100",
            "completedAtMs": "1785515300480",
        },
        "session_id": "huge-read-session",
        "timestamp_ms": 1785515300481,
    }
    return started, completed
