"""The base class of the stream-json events: the fields every event has, and the
``type`` field msgspec tags them on.

Private: the public events subclass it in :mod:`agent_sdk.events` and
``agent_sdk/_interaction_events.py``, and the wire shapes in ``_protocol/wire.py``.
"""

from __future__ import annotations

import msgspec

__all__ = ["_Event"]


# gc=False: events hold no reference cycles, so the garbage collector need not track
# them; a run that keeps a million events would otherwise spend its time in GC passes.
class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False):
    session_id: str | None = None
    timestamp_ms: int | None = None
