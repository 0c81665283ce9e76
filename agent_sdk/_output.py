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
    "OutputMismatchError",
    "correction",
    "extract_json",
    "instruction",
    "parse_output",
    "schema_text",
]

# The words are the SDK's, sent as they are: users must know what is sent (docs/output.md).
_INSTRUCTION = (
    "\n\n---\nWhen you are done, end your reply with one JSON value that matches the JSON "
    "Schema below, in a fenced code block marked json (```json ... ```), with nothing after "
    "it.\n\n{schema}\n"
)
_CORRECTION = (
    "The JSON value at the end of your reply does not match the JSON Schema I gave you: "
    "{problem}\nReply with only the corrected JSON value, in a fenced code block marked "
    "json (```json ... ```)."
)
# ```json ... ``` (or ``` ... ```): the info string, then the body up to the closing fence.
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


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


def correction(problem: str) -> str:
    """The prompt of the turn that asks the agent to correct its JSON value."""
    return _CORRECTION.format(problem=problem)


def extract_json(text: str) -> str | None:
    """The JSON value a reply ends with: the last ```json block (or the last fenced block
    that parses as JSON), else the last bare JSON object or array; ``None`` if none.

    A fenced block marked json is taken even when it does not parse, so that the
    correction can say what is wrong with it.
    """
    fenced: list[tuple[str, str]] = [
        (match.group(1).lower(), match.group(2).strip()) for match in _FENCE.finditer(text)
    ]
    marked = [body for info, body in fenced if info == "json"]
    if marked:
        return marked[-1]
    parsing = [body for info, body in fenced if _parses(body)]
    if parsing:
        return parsing[-1]
    return _last_bare_value(text)


def parse_output(text: str, output_type: Any) -> Any:
    """The value of ``output_type`` the reply ``text`` ends with.

    Raises:
        OutputMismatchError: no JSON value in the reply, JSON that does not parse, or a value
            that does not fit the type.
    """
    found = extract_json(text)
    if found is None:
        raise OutputMismatchError("the reply holds no JSON value", None)
    try:
        return msgspec.json.decode(found.encode(), type=output_type)
    except msgspec.ValidationError as error:
        raise OutputMismatchError(str(error), found) from None
    except msgspec.DecodeError as error:
        raise OutputMismatchError(f"the JSON does not parse: {error}", found) from None


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _last_bare_value(text: str) -> str | None:
    """The last top-level JSON object or array in ``text``, as it is written there."""
    last: tuple[int, int] | None = None
    position = 0
    while True:
        start = min(
            (i for i in (text.find("{", position), text.find("[", position)) if i >= 0), default=-1
        )
        if start < 0:
            break
        try:
            _, end = _DECODER.raw_decode(text, start)
        except ValueError:
            position = start + 1
            continue
        last = (start, end)
        position = end  # a value inside this one is not a top-level value
    return text[last[0] : last[1]] if last is not None else None
