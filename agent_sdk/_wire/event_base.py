"""The base class of the stream-json events: the fields every event has, and the
``type`` field msgspec tags them on.

Private: the public events subclass it in :mod:`agent_sdk.events` and
``agent_sdk/_wire/interaction_events.py``, and the wire shapes in ``_wire/line_shapes.py``; the
tool-call events redeclare its fields and repr instead (``_wire/tool_call_events.py``: they
hold slots of their own).
"""

from __future__ import annotations

import msgspec

__all__ = ["_Event"]


# gc=False: events hold no reference cycles, so the garbage collector need not track
# them; a run that keeps a million events would otherwise spend its time in GC passes.
class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False):
    session_id: str | None = None
    timestamp_ms: int | None = None

    def __repr__(self) -> str:
        # msgspec's own repr shows a raw payload as ``<msgspec.Raw object at 0x...>``.
        values = zip(self.__struct_fields__, msgspec.structs.astuple(self), strict=True)
        shown = (f"{k}={_raw_repr(v) if type(v) is msgspec.Raw else repr(v)}" for k, v in values)
        return f"{type(self).__name__}({', '.join(shown)})"


_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(32), 127)}


def _raw_repr(raw: msgspec.Raw, shown: int = 100) -> str:
    """A raw JSON payload in a repr: ``<raw 412 bytes: {"readToolCall":{"args":…>``."""
    view = memoryview(raw)  # not bytes(raw): a 40 MB payload is not copied
    head = view[:shown].tobytes().decode("utf-8", "replace").translate(_CONTROLS)
    return f"<raw {len(view):,} bytes: {head}{'…' if len(view) > shown else ''}>"
