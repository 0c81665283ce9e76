"""Structured output, without I/O: what the SDK adds to the prompt, and how it takes the
JSON value back from the reply and checks it against the caller's type (docs/output.md).

The CLI has no schema flag. So the prompt gets a short instruction with the type's JSON
Schema (``msgspec.json.schema``), the reply's last JSON value is taken from the
``result`` text, and msgspec decodes it against the type; a reply that does not fit gets
a correction quoting what was wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

__all__ = [
    "MAX_DEPTH",
    "MAX_QUOTED",
    "OutputMismatchError",
    "correction",
    "extract_json",
    "instruction",
    "parse_output",
    "quoted",
    "schema_text",
]

MAX_DEPTH = 500
"""Levels of nesting a JSON value may have: a deeper one is "nested too deep", whatever
the interpreter's recursion limit (a library may raise it: mypy's API sets 16,384)."""

MAX_QUOTED = 300
"""Characters of a problem quoted back to the agent, or in an error's message, at most:
msgspec's message quotes the wrong value, which is the agent's own text and may be long."""

# The words are the SDK's, sent as they are: users must know what is sent (docs/output.md).
_INSTRUCTION = (
    "\n\n---\nWhen you are done, end your reply with one JSON value that matches the JSON "
    "Schema below, in a fenced code block marked json (```json ... ```), with nothing after "
    "it.\n\n{schema}\n"
)
# The problem goes back as one JSON string, never as lines of its own: it may quote the
# reply, which holds whatever the agent read, and must not read as the user's words.
_CORRECTION = (
    "The JSON value at the end of your reply does not match the JSON Schema I gave you. "
    "What was wrong, as one JSON string (it may quote your reply):\n{problem}\n"
    "Reply with only the corrected JSON value, in a fenced code block marked json "
    "(```json ... ```)."
)
_FENCE = "```"
# The info string's first word: ```json, ``` JSON {.class}, ```python.
_INFO_WORD = re.compile(r"[ \t]*([A-Za-z0-9_+-]*)")
# What the search for a bare value looks at; the text between is skipped in C.
_SIGNIFICANT = re.compile(r'[][{}"\\]')
_CLOSER = {"[": "]", "{": "}"}


class OutputMismatchError(ValueError):
    """The reply holds no JSON value of the wanted type.

    Attributes:
        json: the JSON text taken from the reply, or ``None`` when it held none.
        problem: what was wrong, in msgspec's words (``Expected `int`, got `str` - at
            `$.findings[0].line```) or ours.
    """

    def __init__(self, problem: str, json_text: str | None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.json = json_text


def schema_text(output_type: Any) -> str:
    """The JSON Schema of ``output_type``, indented, as the prompt shows it.

    Raises:
        TypeError: msgspec cannot describe the type (``str()`` says why).
    """
    schema = msgspec.json.schema(output_type)
    return msgspec.json.format(msgspec.json.encode(schema), indent=2).decode()


def instruction(output_type: Any) -> str:
    """What the SDK appends to the prompt for ``output_type``."""
    return _INSTRUCTION.format(schema=schema_text(output_type))


def quoted(text: str) -> str:
    """``text`` as one JSON string literal, ASCII only, cut after :data:`MAX_QUOTED`
    characters (the cut said in the string): no line break, no quote left bare."""
    if len(text) > MAX_QUOTED:
        text = f"{text[:MAX_QUOTED]}... ({len(text) - MAX_QUOTED} more characters)"
    return json.dumps(text, ensure_ascii=True)


def correction(problem: str) -> str:
    """The prompt of the turn that asks the agent to correct its JSON value: ``problem``
    :func:`quoted`."""
    return _CORRECTION.format(problem=quoted(problem))


def extract_json(text: str) -> str | None:
    """The JSON value a reply ends with: the last ```json block (or the last fenced block
    that parses as JSON), else the last bare JSON object or array outside other brackets;
    ``None`` if none.

    A fenced block marked json is taken even when it does not parse, so that the
    correction can say what is wrong with it. One pass over the text, and each part of it
    decoded at most once: a reply built to make the search rescan it costs what its
    length does (docs/output.md).
    """
    fenced = _fenced_blocks(text)
    for info, body in reversed(fenced):
        if info == "json":
            return body
    for _, body in reversed(fenced):
        if _parses(body):
            return body
    for start, end in reversed(_scan(text)[0]):
        if _parses(text[start:end]):
            return text[start:end]
    return None


def parse_output(text: str, output_type: Any) -> Any:
    """The value of ``output_type`` the reply ``text`` ends with.

    Raises:
        OutputMismatchError: no JSON value in the reply, JSON that does not parse or is
            nested too deep to decode, or a value that does not fit the type.
    """
    found = extract_json(text)
    if found is None:
        raise OutputMismatchError("the reply holds no JSON value", None)
    too_deep = OutputMismatchError(
        f"the JSON value is nested too deep to decode (more than {MAX_DEPTH} levels)", found
    )
    if _scan(found)[1] > MAX_DEPTH:
        raise too_deep
    try:
        return msgspec.json.decode(found, type=output_type)
    except msgspec.ValidationError as error:
        raise OutputMismatchError(str(error), found) from None
    except msgspec.DecodeError as error:
        raise OutputMismatchError(f"the JSON does not parse: {error}", found) from None
    except RecursionError:  # deep enough for the stack this runs on, not for MAX_DEPTH
        raise too_deep from None


def _parses(text: str) -> bool:
    """Whether ``text`` is one JSON value msgspec can decode, :data:`MAX_DEPTH` deep at
    most."""
    if _scan(text)[1] > MAX_DEPTH:
        return False
    try:
        msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


def _fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced block's info word (lowercased) and body (stripped), in order: a fence,
    the rest of its line, then the body up to the next fence. One pass: each search
    starts where the last one ended."""
    blocks: list[tuple[str, str]] = []
    position = 0
    while (opening := text.find(_FENCE, position)) >= 0:
        line_end = text.find("\n", opening + len(_FENCE))
        if line_end < 0:
            break  # no line after it: no fence after it has a body either
        closing = text.find(_FENCE, line_end + 1)
        if closing < 0:
            break
        word = _INFO_WORD.match(text, opening + len(_FENCE), line_end)
        info = word.group(1).lower() if word is not None else ""
        blocks.append((info, text[line_end + 1 : closing].strip()))
        position = closing + len(_FENCE)
    return blocks


def _scan(text: str) -> tuple[list[tuple[int, int]], int]:
    """The spans of ``text`` from an opening ``{`` or ``[`` to its closing bracket that
    are inside no other such span, in order, and the deepest nesting of brackets. One
    pass: strings (between brackets) are skipped, so a bracket inside one does not
    count; a closer of the wrong kind abandons the brackets open before it, as prose
    does (``[1, 2}``)."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    deepest = 0
    in_string = False
    skip_to = 0  # the character after a backslash in a string is not looked at
    for match in _SIGNIFICANT.finditer(text):
        at, char = match.start(), match.group()
        if at < skip_to:
            continue
        if in_string:
            if char == "\\":
                skip_to = at + 2
            elif char == '"':
                in_string = False
        elif char in _CLOSER:
            opened.append(at)
            deepest = max(deepest, len(opened))
        elif char == '"':
            in_string = bool(opened)
        elif char != "\\" and opened:
            start = opened.pop()
            if _CLOSER[text[start]] != char:
                opened.clear()
                continue
            while spans and spans[-1][0] > start:
                spans.pop()  # inside this one
            spans.append((start, at + 1))
    return spans, deepest
