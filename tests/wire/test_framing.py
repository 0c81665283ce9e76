"""LineFramer: bytes in, lines out, split on ``\\n`` only, whatever the chunk seams."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_sdk._wire.framing import LineFramer


def feed_all(framer: LineFramer, chunks: list[bytes]) -> list[bytes]:
    lines: list[bytes] = []
    for chunk in chunks:
        lines += framer.feed(chunk)
    return lines


def test_several_lines_in_one_chunk_come_out_in_order() -> None:
    assert LineFramer().feed(b'{"a":1}\n{"b":2}\n{"c":3}\n') == [
        b'{"a":1}',
        b'{"b":2}',
        b'{"c":3}',
    ]


def test_one_line_across_many_chunks_comes_out_once_complete() -> None:
    framer = LineFramer()
    outputs = [framer.feed(chunk) for chunk in (b'{"ty', b'pe":"res', b'ult"', b"}\n")]
    assert outputs == [[], [], [], [b'{"type":"result"}']]


def test_a_multibyte_character_split_across_chunks_is_rejoined_byte_exact() -> None:
    line = "party 🎉 café".encode()
    cut = line.index("🎉".encode()) + 2  # inside the 4-byte emoji
    lines = feed_all(LineFramer(), [line[:cut], line[cut:] + b"\n"])
    assert lines == [line]
    assert lines[0].decode("utf-8") == "party 🎉 café"


def test_a_line_keeps_a_carriage_return_before_its_newline() -> None:
    assert LineFramer().feed(b"first\r\nsecond\r\n") == [b"first\r", b"second\r"]


def test_a_bare_carriage_return_does_not_end_a_line() -> None:
    assert LineFramer().feed(b"one\rtwo\n") == [b"one\rtwo"]


def test_empty_lines_are_dropped_by_default() -> None:
    assert LineFramer().feed(b"\na\n\n\nb\n\n") == [b"a", b"b"]


def test_blocks_keep_blank_lines_for_text_output() -> None:
    blocks = LineFramer().feed_blocks(b"a\n\nb\n")
    assert b"".join(blocks) == b"a\n\nb\n"


def test_a_line_begun_in_earlier_chunks_comes_first_and_whole() -> None:
    framer = LineFramer()
    assert framer.feed_blocks(b'{"ty') == []
    first, rest = framer.feed_blocks(b'pe":1}\n{"b":2}\n{"c"')
    assert bytes(first) == b'{"type":1}\n'
    assert bytes(rest) == b'{"b":2}\n'
    assert framer.flush() == b'{"c"'


def test_flush_returns_the_unterminated_last_line() -> None:
    framer = LineFramer()
    framer.feed(b"done\npartial ta")
    framer.feed(b"il")
    assert framer.flush() == b"partial tail"


def test_flush_returns_none_when_the_stream_ended_with_a_newline() -> None:
    framer = LineFramer()
    framer.feed(b"done\n")
    assert framer.flush() is None


def test_flush_returns_none_on_an_empty_stream() -> None:
    assert LineFramer().flush() is None


def test_flush_forgets_the_line_it_returned() -> None:
    framer = LineFramer()
    framer.feed(b"tail")
    framer.flush()
    assert framer.flush() is None


def test_a_40_mb_line_fed_in_64_kib_chunks_comes_out_as_one_line() -> None:
    size = 40_000_000
    payload = b'{"content":"' + b"x" * (size - 14) + b'"}'
    stream = payload + b"\n"
    framer = LineFramer()
    step = 64 * 1024
    lines = feed_all(framer, [stream[i : i + step] for i in range(0, len(stream), step)])
    assert len(lines) == 1
    assert len(lines[0]) == size
    assert lines[0] == payload


def test_whitespace_inside_a_line_at_a_chunk_seam_is_kept() -> None:
    chunks = [b'{"text":"a ', b" ", b' b"}\n']
    assert feed_all(LineFramer(), chunks) == [b'{"text":"a   b"}']


def test_whitespace_at_the_start_and_end_of_lines_at_chunk_seams_is_kept() -> None:
    chunks = [b"  lead", b"ing \n", b"\t", b"tab\t\n"]
    assert feed_all(LineFramer(), chunks) == [b"  leading ", b"\ttab\t"]


def test_a_chunk_of_only_whitespace_is_part_of_the_line() -> None:
    chunks = [b"a", b"    ", b"b\n"]
    assert feed_all(LineFramer(), chunks) == [b"a    b"]


_line = st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_line, max_size=20), data=st.data(), trailing_newline=st.booleans())
def test_any_chunking_of_a_stream_yields_exactly_its_lines(
    lines: list[bytes], data: st.DataObject, trailing_newline: bool
) -> None:
    stream = b"\n".join(lines) + (b"\n" if trailing_newline and lines else b"")
    cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=len(stream)), max_size=30)))
    bounds = [0, *cuts, len(stream)]
    chunks = [stream[a:b] for a, b in itertools.pairwise(bounds)]
    framer = LineFramer()
    out = feed_all(framer, chunks)
    last = framer.flush()
    if last is not None:
        out.append(last)
    assert out == lines
