"""Subagents (docs/protocol.md §3.4b) and hooks' traces (§6.4) on the example web page's
event stream (examples/sse_server.py, in-process, on asyncio and trio): a tool row's
notes, a background subagent's ``notice``. The page drawing them, in a real browser:
tests/process/test_web_page_traces.py."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from example_runs import get_sse, sse_server

pytestmark = pytest.mark.anyio

__all__ = ["sse_server"]  # the fixture, shared with test_example_sse_server.py


def finished_rows(events: list[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    return {
        data["label"]: data
        for kind, data in events
        if kind == "tool" and data["status"] != "running"
    }


async def test_a_subagent_row_notes_what_it_was_asked_and_answered(sse_server: Any) -> None:
    rows = finished_rows(await get_sse(sse_server, "scenario:subagents"))
    row = rows["subagent (reviewer) Review the cart module"]
    assert row["notes"] == [
        ["asked", "Read src/cart.py and list every rounding bug, with the line of each."],
        [
            "answered",
            "Two rounding bugs: line 12 rounds each item before summing; line 30 uses float"
            " for the tax.",
        ],
    ]


async def test_a_background_subagent_row_says_its_answer_comes_later(sse_server: Any) -> None:
    rows = finished_rows(await get_sse(sse_server, "scenario:subagents"))
    row = rows["subagent Check the docs"]
    assert row["detail"] == "in the background"
    assert ["runs in the background", "its answer comes when it finishes"] in row["notes"]


async def test_a_background_subagents_end_is_a_notice_with_its_answer(sse_server: Any) -> None:
    events = await get_sse(sse_server, "scenario:subagents")
    notices = [data for kind, data in events if kind == "notice"]
    assert notices == [
        {
            "title": "Check the docs",
            "status": "success",
            "detail": "docs/cart.md still describes tax as a flat 5%; src/cart.py reads the rate"
            " per region.",
        }
    ]
    kinds = [kind for kind, _ in events]
    assert kinds.index("notice") < kinds.index("done")


async def test_a_note_is_cut_for_the_page_only_past_its_limit(sse_server: Any) -> None:
    stream = importlib.import_module("_page_stream")  # what sse_server sends its page
    fits = "x" * stream.MAX_NOTE
    assert stream.long(fits) == fits
    assert stream.long(fits + "y") == "x" * (stream.MAX_NOTE - 1) + "…"


async def test_hook_contexts_are_notes_of_their_row(sse_server: Any) -> None:
    rows = finished_rows(await get_sse(sse_server, "scenario:hook_traces"))
    read = rows["read /home/dev/shop/src/cart.py"]
    assert read["notes"] == [
        ["hook context", "The cart module is owned by the payments team: keep its public names."]
    ]
    edit = rows["edit /home/dev/shop/src/cart.py"]
    assert edit["notes"] == [["hook context", "Edits to src/ need a ticket number in the commit."]]


async def test_a_hook_blocked_row_gives_the_hooks_words(sse_server: Any) -> None:
    rows = finished_rows(await get_sse(sse_server, "scenario:hook_traces"))
    assert [
        (row["status"], row["detail"]) for row in rows.values() if row["status"] == "blocked"
    ] == [
        ("blocked", "blocked by a hook: src/cart.py is frozen until the release"),
        ("blocked", "blocked by a hook: Only files under src/ may change"),
        ("blocked", "blocked by a hook"),
    ]
