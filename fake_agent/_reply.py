"""The reply a run ends with, when the test or the prompt decides it rather than the scenario.

- ``$FAKE_AGENT_REPLY``: the scenario is played as written, but its last reply (the last
  assistant message, and the result's text) is this text instead. A test gets any reply,
  a JSON value for an ``output_type`` included, without writing a scenario.
- A prompt that asks for a JSON value matching a JSON Schema (agent_sdk's ``output_type``
  instruction, docs/output.md), on a scenario whose last reply holds no JSON value: the
  fake does what an agent asked for JSON does, and ends its reply with an example of the
  schema in a ```json block. Scenarios that script their own JSON answer (``json_*``)
  are played as written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["REPLY_ENV", "with_reply"]

#: Env var holding the text of the run's last reply.
REPLY_ENV = "FAKE_AGENT_REPLY"

# The request agent_sdk appends (agent_sdk/_run/output.py), and the schema that follows it.
_ASKS_FOR_JSON = re.compile(r"matches the JSON Schema below.*?\n\n(\{.*\})\s*$", re.DOTALL)
_FENCE = "```"


def with_reply(steps: list[dict[str, Any]], prompt: str, environ: Mapping[str, str]) -> None:
    """Give ``steps`` the reply the environment or the prompt asks for (see the module);
    they are changed in place."""
    reply = environ.get(REPLY_ENV)
    if reply is None:
        schema = _schema_asked(prompt)
        if schema is None or _holds_json(_last_reply(steps)):
            return
        value = json.dumps(example_of(schema, schema), indent=2)
        reply = f"Here it is.\n\n{_FENCE}json\n{value}\n{_FENCE}"
    _replace_last_reply(steps, reply)


def example_of(schema: Any, root: Mapping[str, Any], depth: int = 0) -> Any:
    """A small value that matches the JSON Schema ``schema`` (``$ref`` resolved in
    ``root``): the first choice of every ``enum``/``anyOf``, one item per array."""
    if not isinstance(schema, dict) or depth > 20:
        return None
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return example_of(root.get("$defs", {}).get(name), root, depth + 1)
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = [o for o in schema.get(key, []) if o.get("type") != "null"]
        if options:
            return example_of(options[0], root, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "object":
        properties = schema.get("properties", {})
        return {
            name: example_of(properties[name], root, depth + 1)
            for name in schema.get("required", list(properties))
            if name in properties
        }
    if kind == "array":
        count = max(1, int(schema.get("minItems", 1)))
        return [example_of(schema.get("items", {}), root, depth + 1) for _ in range(count)]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        low = low if isinstance(low, (int, float)) else 0
        return int(low) + 1 if kind == "integer" else float(low) + 1
    if kind == "boolean":
        return True
    if kind == "string":
        return "example" + "x" * max(0, int(schema.get("minLength", 0)) - 7)
    return None


def _schema_asked(prompt: str) -> dict[str, Any] | None:
    found = _ASKS_FOR_JSON.search(prompt)
    if found is None:
        return None
    try:
        schema = json.loads(found.group(1))
    except ValueError:
        return None
    return schema if isinstance(schema, dict) else None


def _last_reply(steps: list[dict[str, Any]]) -> str:
    """The last assistant message, else the result's text (a scenario may script only
    the result)."""
    for step in reversed(steps):
        if step.get("type") == "assistant":
            return _text(step)
    for step in reversed(steps):
        if step.get("type") == "result" and isinstance(step.get("result"), str):
            return str(step["result"])
    return ""


def _holds_json(text: str) -> bool:
    return _FENCE + "json" in text or text.rstrip().endswith(("}", "]"))


def _text(step: dict[str, Any]) -> str:
    content = step.get("message", {}).get("content", [])
    return "".join(c.get("text", "") for c in content if isinstance(c, dict))


def _replace_last_reply(steps: list[dict[str, Any]], reply: str) -> None:
    old = None
    for step in reversed(steps):
        if step.get("type") == "assistant":
            old = _text(step)
            step["message"]["content"] = [{"type": "text", "text": reply}]
            break
    for step in steps:
        if step.get("type") == "result" and isinstance(step.get("result"), str):
            said = step["result"]
            # The result joins the run's messages; only the last one changes.
            keep = said[: -len(old)] if old and said.endswith(old) else ""
            step["result"] = keep + reply
