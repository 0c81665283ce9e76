"""Properties of framing + decoding, checked with hypothesis: chunk boundaries never
matter, a block decodes as its lines do, and junk never costs a valid event."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

import fake_agent
from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.framing import LineFramer
from agent_sdk.events import Event

DATA = Path(__file__).parents[1] / "data"
KNOWN_TYPES = {
    "system",
    "user",
    "assistant",
    "thinking",
    "tool_call",
    "connection",
    "retry",
    "result",
}


def valid_lines() -> list[bytes]:
    """Every wire event line we have: the protocol examples and the fake's scenarios."""
    lines = (DATA / "cli_protocol_examples.ndjson").read_bytes().splitlines()
    for name in fake_agent.scenario_names():
        for line in fake_agent.scenario_path(name).read_bytes().splitlines():
            if line.strip() and b'"fake"' not in line:
                lines.append(line)
    return [line for line in lines if line.strip()]


VALID = valid_lines()


def pipeline(chunks: list[bytes], *, partial: bool = False) -> list[Event]:
    """Line by line: each chunk framed, each line decoded on its own."""
    framer = LineFramer()
    decoder = LineDecoder(partial=partial)
    lines = [line for chunk in chunks for line in framer.feed(chunk)]
    tail = framer.flush()
    if tail is not None:
        lines.append(tail)
    return [e for e in map(decoder.decode, lines) if e is not None]


def block_pipeline(chunks: list[bytes], *, partial: bool = False) -> list[Event]:
    """Block by block, as a run reads: each chunk's complete lines decoded at once."""
    framer = LineFramer()
    decoder = LineDecoder(partial=partial)
    events: list[Event] = []
    for chunk in chunks:
        for block in framer.feed_blocks(chunk):
            events += decoder.decode_block(block, [])[0]
    tail = framer.flush()
    if tail is not None:
        events += decoder.decode_block(tail, [])[0]
    return events


def fingerprint(events: list[Event]) -> list[bytes]:
    return [type(e).__name__.encode() + msgspec.json.encode(e) for e in events]


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds) if b > a]


@settings(max_examples=200, deadline=None)
@given(
    picks=st.lists(st.sampled_from(VALID), min_size=1, max_size=20),
    cuts=st.lists(st.integers(min_value=0, max_value=50_000), max_size=30),
)
def test_any_split_of_a_valid_stream_yields_the_same_events(
    picks: list[bytes], cuts: list[int]
) -> None:
    stream = b"\n".join(picks) + b"\n"
    whole = pipeline([stream])
    assert len(whole) == len(picks)
    assert fingerprint(pipeline(split(stream, cuts))) == fingerprint(whole)


@settings(max_examples=200, deadline=None)
@given(
    picks=st.lists(st.sampled_from(VALID), min_size=1, max_size=20),
    cuts=st.lists(st.integers(min_value=0, max_value=50_000), max_size=30),
    partial=st.booleans(),
)
def test_decoding_blocks_yields_the_events_of_decoding_each_line(
    picks: list[bytes], cuts: list[int], partial: bool
) -> None:
    stream = b"\n".join(picks) + b"\n"
    chunks = split(stream, cuts)
    got = fingerprint(block_pipeline(chunks, partial=partial))
    assert got == fingerprint(pipeline(chunks, partial=partial))


@settings(max_examples=50, deadline=None)
@given(picks=st.lists(st.sampled_from(VALID), min_size=1, max_size=5))
def test_a_one_byte_drip_yields_the_same_events(picks: list[bytes]) -> None:
    stream = b"\n".join(picks) + b"\n"
    drip = [stream[i : i + 1] for i in range(len(stream))]
    assert fingerprint(pipeline(drip)) == fingerprint(pipeline([stream]))


json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
junk_line = st.one_of(
    st.binary(max_size=200).map(lambda b: b.replace(b"\n", b" ")),
    st.text(max_size=100).map(lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass")),
    json_scalars.map(lambda v: json.dumps(v).encode()),
    st.builds(
        lambda t, extra: json.dumps({"type": t, **extra}).encode(),
        st.text(min_size=1, max_size=12).filter(lambda t: t not in KNOWN_TYPES),
        st.dictionaries(st.text(max_size=8), json_scalars, max_size=4),
    ),
)


def with_unknown_fields(line: bytes, extra: dict[str, object]) -> bytes:
    obj = json.loads(line)
    for key, value in extra.items():
        obj.setdefault(f"x_{key}", value)
    return json.dumps(obj).encode()


@settings(max_examples=200, deadline=None)
@given(
    picks=st.lists(
        st.tuples(
            st.sampled_from(VALID), st.dictionaries(st.text(max_size=8), json_scalars, max_size=3)
        ),
        min_size=1,
        max_size=10,
    ),
    junk=st.lists(st.tuples(st.integers(min_value=0, max_value=10), junk_line), max_size=10),
    cuts=st.lists(st.integers(min_value=0, max_value=20_000), max_size=20),
)
def test_junk_and_unknown_fields_never_crash_or_lose_a_valid_event(
    picks: list[tuple[bytes, dict[str, object]]],
    junk: list[tuple[int, bytes]],
    cuts: list[int],
) -> None:
    valid = [with_unknown_fields(line, extra) for line, extra in picks]
    expected = fingerprint(pipeline([b"\n".join(valid) + b"\n"]))
    lines: list[bytes] = list(valid)
    for position, line in sorted(junk, reverse=True):
        lines.insert(min(position, len(lines)), line)
    chunks = split(b"\n".join(lines) + b"\n", cuts)
    # Junk may add events (a JSON object of a new type is an UnknownEvent), but every
    # valid event must still be there, in order and unchanged: a subsequence.
    for decode_all in (pipeline, block_pipeline):
        got = iter(fingerprint(decode_all(chunks)))
        assert all(any(fp == seen for seen in got) for fp in expected)
