"""The hostile corpus: every input the SDK's JSON entry points must survive, in one place
(tests/hostile/test_entry_points.py runs each entry point over all of it; the protocol
tests of tests/wire/test_hostile_*.py take their shapes from here too).

Each :data:`VALUES` item is bytes that an entry point places where a JSON value, or a
whole line, goes: some are valid JSON no decoder can hold (nesting, numbers), some are no
JSON at all (invalid UTF-8, a cut line), some are many lines (a flood).
:data:`RPC_CASES` are JSON-RPC lines that play with ids, for the ACP connection only.
"""

from __future__ import annotations

BOM = b"\xef\xbb\xbf"
DEEP = 100_000  # far beyond any recursion limit; costs 200 KB
SHALLOW_DEEP = 5_000  # beyond msgspec's limit, within reach of a careless recursive walk
HUGE_DIGITS = "9" * 5000  # more digits than int() converts from text
MEGABYTES = 4 * 1024 * 1024  # a huge line: pipes and buffers see a few MB at once
BIG_NUMBERS = [b"1e999", b"-1e999", b"1E400", b"9" * 4301, b"-" + b"1" * 5000, b"2" * 4299]
"""Numbers msgspec cannot hold (beyond a float, or more digits than ``int`` takes), and
one just within ``int``'s limit."""


def deep_array(depth: int = DEEP, *, closed: bool = True) -> bytes:
    """``[[[...]]]`` nested ``depth`` levels (built by repetition: cheap at any depth)."""
    return b"[" * depth + (b"]" * depth if closed else b"")


def deep_object(depth: int = DEEP) -> bytes:
    """``{"a":{"a":...{}...}}`` nested ``depth`` levels."""
    return b'{"a":' * depth + b"{}" + b"}" * depth


VALUES: dict[str, bytes] = {
    # nesting deeper than any recursion limit, and deeper than msgspec's own
    "deep array": deep_array(),
    "deep object": deep_object(),
    "deep array 5000": deep_array(SHALLOW_DEEP),
    "deep object 5000": deep_object(SHALLOW_DEEP),
    "deep and unclosed": deep_array(closed=False),
    # numbers
    "1e999999": b"1e999999",
    "-1e999999": b"-1e999999",
    "10**5000": b"1" + b"0" * 5000,
    "5000 nines": HUGE_DIGITS.encode(),
    "NaN": b"NaN",
    # size
    "huge string": b'"' + b"a" * MEGABYTES + b'"',
    "huge line": b"x" * MEGABYTES,
    "many keys": b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(100_000)) + b"}",
    # text that is not UTF-8, or not plain
    "invalid UTF-8": b'"\xff\xfe\xc3\x28 \xed\xa0\x80"',
    "BOM": BOM + b'{"a":1}',
    "lone high surrogate": b'"\\ud83d"',
    "lone low surrogate": b'"x\\udc00y"',
    "NUL raw": b'"a\x00b"',
    "NUL escaped": b'"a\\u0000b"',
    # shapes
    "truncated": b'{"a": [1, 2, "unfinish',
    "not an object": b"42",
    "null": b"null",
    "duplicate keys": b'{"a":1,"a":{"b":2},"a":[3]}',
    "blank lines": b"\r\n \r\n\t",
    "flood": b'{"type":"x","n":1}\n' * 50_000,
    # one event over several lines (docs/protocol.md §3: reported, unverified), and a flood
    # of lines that begin as one and never end (5,000: 78 times the rejoin's 64-line bound,
    # and a tenth of the cost of 50,000 through every entry point)
    "split by raw newlines": (  # raw line breaks in its string, not `\n` escapes
        b'{"type":"result","subtype":"success","is_error":false,"result":"a\nb\n\nc",'
        b'"session_id":"s"}'
    ),
    "broken starts": b'{"a":"x}\n' * 5_000,
}
"""Hostile values, by name (the test ids)."""

# JSON-RPC lines that answer or ask with odd ids, sent by the agent during a turn;
# ``{prompt}`` is the id of the client's pending ``session/prompt``.
RPC_CASES: dict[str, list[str]] = {
    "unknown id": ['{"jsonrpc":"2.0","id":987654,"result":{}}'],
    "unknown id error": ['{"jsonrpc":"2.0","id":987654,"error":{"code":-1,"message":"x"}}'],
    "id of another type": ['{"jsonrpc":"2.0","id":"{prompt}","result":{"stopReason":"x"}}'],
    "null id error": ['{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}'],
    "huge id": ['{"jsonrpc":"2.0","id":' + HUGE_DIGITS + ',"result":{}}'],
    "float id": ['{"jsonrpc":"2.0","id":1e999,"result":{}}'],
    "deep id": ['{"jsonrpc":"2.0","id":' + deep_array().decode() + ',"result":{}}'],
    "duplicate request ids": [
        '{"jsonrpc":"2.0","id":7,"method":"cursor/update_todos","params":{}}',
        '{"jsonrpc":"2.0","id":7,"method":"cursor/update_todos","params":{}}',
    ],
    "a request with a null id": ['{"jsonrpc":"2.0","id":null,"method":"x/y","params":{}}'],
    "unknown method request": ['{"jsonrpc":"2.0","id":8,"method":"x/unknown","params":[1]}'],
    "unknown notification": ['{"jsonrpc":"2.0","method":"x/unknown","params":{"a":1}}'],
    "result and error": [
        '{"jsonrpc":"2.0","id":{prompt},"result":{"stopReason":"end_turn"},'
        '"error":{"code":1,"message":"both"}}'
    ],
    "error of a wrong shape": ['{"jsonrpc":"2.0","id":{prompt},"error":{"code":"x"}}'],
    "duplicate response": ['{"jsonrpc":"2.0","id":{prompt},"result":{"stopReason":"end_turn"}}'],
    "no version": ['{"id":{prompt},"result":{"stopReason":"end_turn"}}'],
}
"""Odd ids, by name: each line is sent as is (after ``{prompt}`` is filled in)."""
