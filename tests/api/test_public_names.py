"""Public attributes are snake_case (docs/protocol.md, "Names"): msgspec maps them to the
wire's camelCase, and encoding gives the wire's names back.

The walk covers every class a public module of ``agent_sdk`` exports, so a new public
struct is checked without being listed here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator

import msgspec
import pytest

import agent_sdk
from agent_sdk import Status, SystemInit, Usage
from agent_sdk.tools import ShellSuccess, TaskSuccess

CAMEL = re.compile(r"[a-z0-9][A-Z]")


def public_modules() -> Iterator[str]:
    yield "agent_sdk"
    for module in pkgutil.walk_packages(agent_sdk.__path__, "agent_sdk."):
        if not any(part.startswith("_") for part in module.name.split(".")[1:]):
            yield module.name


def public_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for exported in getattr(module, "__all__", ()):
            value = getattr(module, exported)
            if inspect.isclass(value) and value.__module__.startswith("agent_sdk"):
                found.setdefault(f"{value.__module__}.{value.__qualname__}", value)
    return found


def public_attributes(cls: type) -> set[str]:
    names = set(getattr(cls, "__struct_fields__", ()))
    for klass in cls.__mro__:
        if klass.__module__.startswith("agent_sdk"):
            names.update(vars(klass))
            names.update(getattr(klass, "__annotations__", {}))
    return {name for name in names if not name.startswith("_")}


CLASSES = public_classes()


def test_the_walk_finds_the_public_structs() -> None:
    assert {"agent_sdk.events.Usage", "agent_sdk.tool_results.ShellSuccess"} <= set(CLASSES)


@pytest.mark.parametrize("qualified", sorted(CLASSES))
def test_every_public_attribute_is_snake_case(qualified: str) -> None:
    camel = sorted(n for n in public_attributes(CLASSES[qualified]) if CAMEL.search(n))
    assert camel == []


def test_a_payload_decodes_from_the_wires_names() -> None:
    wire = b'{"exitCode": 1, "workingDirectory": "/src", "localExecutionTimeMs": 7}'
    result = msgspec.json.decode(wire, type=ShellSuccess)
    assert (result.exit_code, result.working_directory) == (1, "/src")
    assert result.local_execution_time_ms == 7


def test_encoding_gives_the_wires_names_back() -> None:
    encoded = msgspec.json.decode(msgspec.json.encode(Usage(input_tokens=3, cache_read_tokens=2)))
    assert encoded == {
        "inputTokens": 3,
        "outputTokens": 0,
        "cacheReadTokens": 2,
        "cacheWriteTokens": 0,
    }


def test_snake_case_wire_names_stay_as_they_are() -> None:
    """``system/init`` mixes the two spellings on the wire (docs/protocol.md §3.1)."""
    wire = (
        b'{"type":"system","subtype":"init","session_id":"s",'
        b'"apiKeySource":"env","permissionMode":"default"}'
    )
    init = msgspec.json.decode(wire, type=SystemInit)
    assert (init.session_id, init.api_key_source, init.permission_mode) == ("s", "env", "default")


def test_a_converted_wire_value_keeps_its_public_name() -> None:
    """``durationMs`` comes as a number or a string of digits; ``duration_ms`` is a number."""
    assert msgspec.json.decode(b'{"durationMs": "1250"}', type=TaskSuccess).duration_ms == 1250


def test_status_reads_the_wires_login_fields() -> None:
    wire = b'{"status":"ok","isAuthenticated":true,"hasAccessToken":true,"userInfo":{"a":1}}'
    status = msgspec.json.decode(wire, type=Status)
    assert (status.is_authenticated, status.has_access_token, status.user_info) == (
        True,
        True,
        {"a": 1},
    )
