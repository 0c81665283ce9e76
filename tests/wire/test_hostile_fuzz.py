"""Hostile output, checked with hypothesis: whatever bytes the CLI prints, split however
the pipe delivers them, Stream raises nothing, every line counts as it would alone, the
valid events come through intact and in order, and the result that decides the run follows
its rule (docs/protocol.md §3, §5)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import msgspec
from hostile.corpus import BIG_NUMBERS, BOM, deep_array
from hypothesis import given, settings
from hypothesis import strategies as st

import fake_agent
from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.stream import MAX_STDOUT_LINE_CHARS, MAX_STDOUT_LINES, Stream
from agent_sdk.events import Event, ResultEvent, UnknownEvent

DATA = Path(__file__).parents[1] / "data"
KNOWN = ["system", "user", "assistant", "thinking", "tool_call", "connection", "retry", "result"]


def valid_lines() -> list[bytes]:
    """Every wire event line we have: the protocol examples and the fake's scenarios."""
    lines = (DATA / "cli_protocol_examples.ndjson").read_bytes().splitlines()
    for name in fake_agent.scenario_names():
        lines += fake_agent.scenario_path(name).read_bytes().splitlines()
    return [line for line in lines if line.strip() and b'"fake"' not in line]


def result_line(is_error: bool, text: str) -> bytes:
    event = {"type": "result", "subtype": "success", "is_error": is_error, "result": text}
    return json.dumps(event).encode()


# --- well-formed lines: the contract's events, results of both kinds, a BOM or not ----
valid_line = st.one_of(
    st.sampled_from(valid_lines()),
    st.builds(result_line, st.booleans(), st.text(max_size=10)),
)
good_line = st.tuples(st.booleans(), valid_line)  # (BOM first?, line)

# --- hostile lines ---------------------------------------------------------------------
json_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
# Deep enough for any recursion limit, built by repetition: cheap at any depth. (Depths
# near the limit are left out: whether they decode depends on the caller's stack.)
depth = st.integers(min_value=1_500, max_value=20_000)
deep_value = st.builds(lambda n, closed: deep_array(n, closed=closed), depth, st.booleans())
big_number = st.sampled_from(BIG_NUMBERS)
field = st.sampled_from(["x_new", "timestamp_ms", "session_id", "result", "message", "tool_call"])


def object_line(kind: object, fields: dict[str, Any]) -> bytes:
    return json.dumps({"type": kind, **fields}).encode()


def with_raw_field(line: bytes, name: str, value: bytes) -> bytes:
    """``line``'s object with one more member, written as given (no JSON library could)."""
    return line.rstrip()[:-1] + b',"' + name.encode() + b'":' + value + b"}"


hostile_line = st.one_of(
    # `type` of every JSON kind, known or not, with fields of any shape
    st.builds(
        object_line,
        st.sampled_from([*KNOWN, "mystery"]) | json_value,
        st.dictionaries(st.sampled_from(["subtype", "is_error", "result", "message"]), json_value),
    ),
    # a valid event with deep nesting, or a number msgspec cannot hold, in some field
    st.builds(with_raw_field, valid_line, field, deep_value | big_number),
    # deep nesting as the whole line, closed or not, object or array
    st.builds(lambda brace, inner: brace + inner, st.sampled_from([b"", b'{"a":']), deep_value),
    # bytes of any kind: invalid UTF-8, NUL, stray braces
    st.binary(max_size=80),
    # a valid line cut short or with bytes spliced in
    st.builds(
        lambda line, at, junk: line[:at] + junk, valid_line, st.integers(0, 300), st.binary()
    ),
).map(lambda line: line.replace(b"\n", b" "))

# (is it well-formed?, BOM first?, line)
any_line = st.one_of(
    st.builds(lambda good: (True, *good), good_line),
    st.builds(lambda bad: (False, False, bad), hostile_line),
)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(cut, len(data)) for cut in cuts})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds) if b > a]


def fingerprint(events: list[Event]) -> list[bytes]:
    return [type(e).__name__.encode() + msgspec.json.encode(e) for e in events]


def deciding(events: list[Event]) -> ResultEvent | UnknownEvent | None:
    """The result that decides a run: the latest, but an error result once seen stays;
    a result that did not decode counts only if it says ``is_error``."""
    decided: ResultEvent | UnknownEvent | None = None
    for event in events:
        if decided is not None and _is_error(decided):
            break
        if type(event) is ResultEvent or (
            type(event) is UnknownEvent and event.type == "result" and _is_error(event)
        ):
            decided = event
    return decided


def _is_error(event: ResultEvent | UnknownEvent) -> bool:
    if isinstance(event, ResultEvent):
        return event.is_error
    return event.raw.get("is_error") is True


def read(lines: list[bytes], cuts: list[int], *, newline_last: bool, **options: Any) -> Stream:
    """A Stream fed ``lines`` in the chunks ``cuts`` makes; every event kept."""
    data = b"\n".join(lines) + (b"\n" if newline_last else b"")
    stream = Stream(keep_events=True, **options)
    delivered: list[Event] = []
    for chunk in split(data, cuts):
        delivered += stream.feed(chunk)
    delivered += stream.end()
    assert delivered == stream.events
    return stream


hostile_stream = st.lists(any_line, min_size=1, max_size=12)
cut_points = st.lists(st.integers(min_value=0, max_value=60_000), max_size=12)


@settings(max_examples=100, deadline=None)
@given(picked=hostile_stream, cuts=cut_points, partial=st.booleans(), newline_last=st.booleans())
def test_every_line_counts_as_it_would_alone_whatever_the_chunks(
    picked: list[tuple[bool, bool, bytes]], cuts: list[int], partial: bool, newline_last: bool
) -> None:
    lines = [BOM + line if bom else line for _, bom, line in picked]
    stream = read(lines, cuts, newline_last=newline_last, partial=partial)
    alone = [LineDecoder(partial=partial).decode(line) for line in lines]
    assert fingerprint(stream.events) == fingerprint([e for e in alone if e is not None])
    others = [
        line.decode("utf-8", "replace").rstrip("\r").lstrip("\ufeff")[:MAX_STDOUT_LINE_CHARS]
        for line, event in zip(lines, alone, strict=True)
        if event is None and line and not line.isspace()
    ]
    assert list(stream.stdout_lines) == others[-MAX_STDOUT_LINES:]


@settings(max_examples=100, deadline=None)
@given(picked=hostile_stream, cuts=cut_points, partial=st.booleans(), newline_last=st.booleans())
def test_valid_events_come_through_intact_and_in_order_among_hostile_lines(
    picked: list[tuple[bool, bool, bytes]], cuts: list[int], partial: bool, newline_last: bool
) -> None:
    lines = [BOM + line if bom else line for _, bom, line in picked]
    stream = read(lines, cuts, newline_last=newline_last, partial=partial)
    valid = [line for good, _, line in picked if good]
    expected = read(valid, [], newline_last=True, partial=partial).events
    assert len(expected) == len(valid)
    got = iter(fingerprint(stream.events))
    assert all(any(seen == want for seen in got) for want in fingerprint(expected))


@settings(max_examples=100, deadline=None)
@given(picked=hostile_stream, cuts=cut_points, newline_last=st.booleans())
def test_the_result_that_decides_the_run_follows_the_rule(
    picked: list[tuple[bool, bool, bytes]], cuts: list[int], newline_last: bool
) -> None:
    lines = [BOM + line if bom else line for _, bom, line in picked]
    stream = read(lines, cuts, newline_last=newline_last)
    decided = deciding(stream.events)
    if isinstance(decided, UnknownEvent):  # stands for a failed result, built from it
        assert stream.result_event is not None
        assert stream.result_event.is_error
        said = decided.raw.get("result")
        assert stream.result_event.result == (said if isinstance(said, str) else "")
    else:
        assert stream.result_event is decided


@settings(max_examples=50, deadline=None)
@given(picked=hostile_stream, cuts=cut_points, output_format=st.sampled_from(["text", "json"]))
def test_hostile_output_never_raises_when_partial_is_detected_or_the_run_is_text(
    picked: list[tuple[bool, bool, bytes]], cuts: list[int], output_format: str
) -> None:
    lines = [line for _, _, line in picked]
    stream = read(lines, cuts, newline_last=True, partial=None, output_format=output_format)
    alone = [LineDecoder(partial=False).decode(line) for line in lines]
    expected = len(lines) if output_format == "text" else sum(e is not None for e in alone)
    assert stream.received == expected
