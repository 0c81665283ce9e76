"""The hostile corpus inside an event split over lines by raw newlines (docs/protocol.md
§3, an unverified report about ``result`` lines): the entry of tests/hostile/entries.py
that feeds the print-mode stream such a result, its text the hostile value."""

from __future__ import annotations

import json

from agent_sdk._wire.stream import Stream
from agent_sdk.events import AssistantEvent, ResultEvent

SAY = json.dumps({"type": "assistant", "message": {"content": [{"type": "text", "text": "Hi."}]}})


def split_result(value: bytes) -> None:
    """A result whose text holds the value between line breaks, each ``\\n`` escape of
    its line a raw newline, between two good events: the good ones arrive first and last;
    a result rejoined is the one written, text and all; nothing raises."""
    text = "start\n" + value.decode("utf-8", "replace") + "\nend"
    line = json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": text})
    split = line.encode().replace(b"\\n", b"\n")
    data = SAY.encode() + b"\n" + split + b"\n" + SAY.encode() + b"\n"
    for partial in (False, True, None):
        for cut in (len(data), len(data) // 2):  # in one read, and in two
            stream = Stream(keep_events=True, partial=partial)
            events = [*stream.feed(data[:cut]), *stream.feed(data[cut:]), *stream.end()]
            assert isinstance(events[0], AssistantEvent)
            assert isinstance(events[-1], AssistantEvent)
            results = [e for e in events if isinstance(e, ResultEvent)]
            assert len(results) == stream.rejoined_events  # a result only if rejoined
            if results:
                assert results[0].result == text
