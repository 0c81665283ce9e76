"""ACP messages checked against the official v1 JSON schema (tests/data/acp_schema/).

``check(message, method)`` validates one JSON-RPC message of either side: a request's or
a notification's ``params`` against the schema's type for its method, a response's
``result`` against the result type of the method it answers. Methods the v1 schema does
not define (Cursor's ``cursor/*`` extensions, the dropped ``session/set_model``) are
checked as JSON-RPC 2.0 only and reported by :func:`defined`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from needs import need

jsonschema = need("jsonschema", "a JSON Schema validator, for the official ACP schema")

SCHEMA = Path(__file__).parent / "data" / "acp_schema" / "schema-v1.json"

#: Method -> (the schema's type of its params, of its result; None for a notification).
METHODS: dict[str, tuple[str, str | None]] = {
    # client -> agent
    "initialize": ("InitializeRequest", "InitializeResponse"),
    "authenticate": ("AuthenticateRequest", "AuthenticateResponse"),
    "session/new": ("NewSessionRequest", "NewSessionResponse"),
    "session/load": ("LoadSessionRequest", "LoadSessionResponse"),
    "session/list": ("ListSessionsRequest", "ListSessionsResponse"),
    "session/prompt": ("PromptRequest", "PromptResponse"),
    "session/set_mode": ("SetSessionModeRequest", "SetSessionModeResponse"),
    "session/set_config_option": (
        "SetSessionConfigOptionRequest",
        "SetSessionConfigOptionResponse",
    ),
    "session/cancel": ("CancelNotification", None),
    # agent -> client
    "session/update": ("SessionNotification", None),
    "session/request_permission": ("RequestPermissionRequest", "RequestPermissionResponse"),
}


class SchemaError(AssertionError):
    """A message the official schema does not allow."""


@cache
def _defs() -> dict[str, Any]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    assert isinstance(defs, dict)
    return defs


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = {"$ref": f"#/$defs/{name}", "$defs": _defs()}
    return jsonschema.Draft202012Validator(schema)


def defined(method: str) -> bool:
    """Whether the v1 schema defines ``method``."""
    return method in METHODS


def validate(value: Any, name: str) -> None:
    """``value`` is an instance of the schema's type ``name``, or :class:`SchemaError`."""
    errors = sorted(_validator(name).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        where = "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:3])
        raise SchemaError(f"not a valid {name}: {where}")


def check(message: dict[str, Any], method: str | None = None) -> None:
    """One JSON-RPC message against the schema. ``method``: for a response, the method
    of the request it answers."""
    if message.get("jsonrpc") != "2.0":
        raise SchemaError(f"not JSON-RPC 2.0: {message}")
    if "method" in message:
        types = METHODS.get(message["method"])
        if types is not None:
            validate(message.get("params"), types[0])
        return
    if "error" in message:
        validate(message["error"], "Error")
        return
    types = METHODS.get(method or "")
    if types is not None and types[1] is not None:
        validate(message.get("result"), types[1])
