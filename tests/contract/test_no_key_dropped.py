"""No key dropped (issue 23): every key of every line of every real capture
(``tests/recorded_runs.py``: read in place, never copied) is reachable through an attribute
of the event the line decodes to, and so is every key of the fake's bundled scenarios.

How a wire key is reached, from the decoded event down:

- an attribute of the same name (the wire names: ``message``, ``usage``, ``toolCallId``
  of a typed payload, ...), or its snake_case form (``startedAtMs`` is ``started_at_ms``,
  ``isBackground`` beside an outcome is ``is_background``); never a method;
- the structural keys the SDK unwraps: in a tool call, the kind key (``shellToolCall``)
  is the event itself, its ``args`` the typed ``args``, its ``result`` the event again,
  whose outcome key (``success``) is the typed ``result``; in an ``interaction_query``,
  ``query`` / ``response`` and the key under them (``query_type``, ``response_key``) are
  the event, an answer's ``result`` is the event again and its outcome key is named by
  ``outcome``, whose body's keys are the event's (``reason``);
- items of a list, one by one.

A plain ``dict`` (``raw``, ``extras``, ``result_extras``, an untyped payload) does not
count: a key the contract names must come out typed. Keys the contract does not name are
handled two ways, and only these: values whose keys are data or whose shape the contract
leaves open are listed in :data:`FREE_FORM` (their keys are read from the dict); and a
line of an event type, ``system`` subtype or ``interaction_query`` type the contract
gives no shape for is kept whole in ``raw`` / ``payload`` (:func:`is_shapeless`). A
capture line of such a type fails the test anyway: the contract is behind.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from test_captures import (
    CAPTURES,
    contract_kinds,
    contract_outcomes,
    readme_flags,
    require_captures,
)

import fake_agent
from agent_sdk._wire.decode import LineDecoder
from agent_sdk._wire.line_shapes import KNOWN_TYPES
from agent_sdk.events import (
    InteractionRequest,
    InteractionResponse,
    SystemEvent,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
)
from agent_sdk.tools import FunctionArgs, GrepSuccess, LsSuccess, McpArgs

# (payload type, field) whose value is a dict with data for keys, or a shape the contract
# leaves open: grep's per-root results are keyed by absolute paths, an MCP tool's own
# arguments are that tool's, `directoryTreeRoot{...}` is a nested tree of no given shape.
FREE_FORM = frozenset(
    {
        (GrepSuccess, "workspaceResults"),
        (McpArgs, "args"),
        (LsSuccess, "directoryTreeRoot"),
        # The shape of an entry is unknown (docs/protocol.md §6.5): kept as plain values.
        (ToolCallStarted, "hookAdditionalContexts"),
        (ToolCallCompleted, "hookAdditionalContexts"),
    }
)

MISSING = object()

# Scenarios that invent unknown fields, kinds and shapes on purpose (to test that they
# are kept): their keys are not the contract's.
INVENTED = frozenset({"unknown_events"})


class _Free:
    """A value the contract gives no shape for, so its keys may be read from a dict: the
    args of a tool kind not in the contract's table, the payload of an outcome it lists
    with no shape (``timeout``, ...) or of a kind whose success it does not describe."""

    def __init__(self, value: Any) -> None:
        self.value = value


def snake(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).lower()


def attribute(obj: Any, key: str) -> Any:
    """``obj``'s attribute for the wire key ``key`` (same name, or snake_case), or
    :data:`MISSING`. Methods, private names and plain containers do not count."""
    if isinstance(obj, (dict, list, tuple, str, int, float, bool)) or obj is None:
        return MISSING
    for name in dict.fromkeys((key, snake(key))):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        if not callable(value) or isinstance(value, msgspec.Struct):
            return value
    return MISSING


class _View:
    """A wire object the SDK unwraps into the attributes of ``event``."""

    def __init__(self, event: Any) -> None:
        self.event = event

    def reach(self, key: str) -> Any:
        return attribute(self.event, key)


class _ToolCallObject(_View):  # `tool_call`: the kind key, and sibling keys
    def reach(self, key: str) -> Any:
        return _KindObject(self.event) if key == self.event.kind else super().reach(key)


class _KindObject(_View):  # `shellToolCall`: `args`, `result`, extras such as `description`
    def reach(self, key: str) -> Any:
        if key == "args":
            shaped = self.event.kind in contract_kinds()
            return self.event.args if shaped else _Free(self.event.args)
        if key == "result" and isinstance(self.event, ToolCallCompleted):
            return _ToolOutcome(self.event)
        if self.event.kind == "function" and isinstance(self.event.args, FunctionArgs):
            found = attribute(self.event.args, key)  # `function` holds its args inline
            if found is not MISSING:
                return found
        return super().reach(key)


class _ToolOutcome(_View):  # `result`: the outcome key, and siblings (`isBackground`)
    def reach(self, key: str) -> Any:
        event = self.event
        if key != event.outcome:
            return super().reach(key)
        shaped = event.outcome in contract_outcomes() and (
            event.outcome != "success" or contract_kinds().get(event.kind, False)
        )
        return event.result if shaped else _Free(event.result)


class _Query(_View):  # `query` / `response`: `id`, and the one key beside it
    def reach(self, key: str) -> Any:
        event = self.event
        if key == "id":
            return event.id
        if isinstance(event, InteractionRequest) and key == event.query_type:
            if type(event) is InteractionRequest:  # a query type of no given shape
                return event.payload
            return _View(event)
        if isinstance(event, InteractionResponse) and key == getattr(event, "response_key", ""):
            return _Answer(event)
        return MISSING


class _Answer(_View):  # `createPlanRequestResponse`, ...: `result`, or the outcome itself
    def reach(self, key: str) -> Any:
        if key == "result":
            return _Answer(self.event)
        if key == self.event.outcome:
            return _View(self.event)  # the outcome's body: `reason`, ...
        return super().reach(key)


def enter(event: Any, key: str) -> Any:
    """The first step down from a decoded event: structural keys, then attributes."""
    if isinstance(event, (ToolCallStarted, ToolCallCompleted)) and key == "tool_call":
        return _ToolCallObject(event)
    if isinstance(event, InteractionRequest) and key == "query":
        return _Query(event)
    if isinstance(event, InteractionResponse) and key == "response":
        return _Query(event)
    return attribute(event, key)


def unreached(wire: Any, found: Any, path: str, free: bool = False) -> list[str]:
    """The key paths of ``wire`` that ``found`` (what the SDK gives for it) does not reach."""
    lost: list[str] = []
    if isinstance(wire, dict):
        for key, value in wire.items():
            if free and isinstance(found, dict):
                below, free_below = found.get(key, MISSING), True
            elif isinstance(found, _View):
                below = found.reach(key)
                free_below = (type(found.event), key) in FREE_FORM
            else:
                below = attribute(found, key)
                free_below = (type(found), key) in FREE_FORM or (type(found), snake(key)) in (
                    FREE_FORM
                )
            if isinstance(below, _Free):
                below, free_below = below.value, True
            if below is MISSING:
                lost.append(f"{path}.{key}")
                continue
            lost += unreached(value, below, f"{path}.{key}", free_below)
    elif isinstance(wire, list):
        items = list(found) if isinstance(found, (list, tuple)) else []
        if len(items) != len(wire):
            return [f"{path}[] (not a list of {len(wire)} items)"] if wire else []
        for wire_item, item in zip(wire, items, strict=True):
            lost += unreached(wire_item, item, f"{path}[]", free)
    return lost


def is_shapeless(event: Any) -> bool:
    """A line of a type the contract gives no shape for: kept whole, ``raw`` counts."""
    if isinstance(event, UnknownEvent):
        return event.error is None and event.type not in KNOWN_TYPES
    if isinstance(event, SystemEvent):
        return event.subtype not in ("task_notification",)
    return type(event) is InteractionRequest or type(event) is InteractionResponse


def lost_keys(line: bytes, *, partial: bool, shapeless_ok: bool) -> list[str]:
    wire = json.loads(line)
    event = LineDecoder(partial=partial).decode(line)
    if shapeless_ok and is_shapeless(event):
        return []
    lost: list[str] = []
    for key, value in wire.items():
        below = enter(event, key)
        if below is MISSING:
            lost.append(key)
        else:
            lost += unreached(value, below, key)
    prefix = f"{wire.get('type')}/{wire.get('subtype')}"
    return [f"{prefix}: {path}" for path in lost]


# --- the real captures ----------------------------------------------------------------
def capture_names() -> list[str]:
    names = sorted(path.name for path in CAPTURES.glob("*.ndjson")) if CAPTURES.is_dir() else []
    return names or ["no-recorded-runs"]


@pytest.mark.parametrize("name", capture_names())
def test_every_key_of_a_capture_is_reachable_through_the_decoded_event(name: str) -> None:
    require_captures()
    partial = "--stream-partial-output" in readme_flags().get(name, "")
    lost: set[str] = set()
    for line in (CAPTURES / name).read_bytes().splitlines():
        if line.strip():
            lost.update(lost_keys(line, partial=partial, shapeless_ok=False))
    assert sorted(lost) == [], f"{name}: keys no attribute reaches"


# --- the fake's scenarios -------------------------------------------------------------
def scenario_paths() -> list[Path]:
    return [fake_agent.scenario_path(name) for name in fake_agent.scenario_names()]


@pytest.mark.parametrize(
    "path", [p for p in scenario_paths() if p.stem not in INVENTED], ids=lambda p: p.stem
)
def test_every_key_of_a_bundled_scenario_is_reachable_through_the_decoded_event(
    path: Path,
) -> None:
    require_captures()  # for the contract's tables
    lost: set[str] = set()
    for line in path.read_bytes().splitlines():
        try:
            wire = json.loads(line)
        except ValueError:
            continue  # blank
        if not isinstance(wire, dict) or "fake" in wire or wire.get("type") not in KNOWN_TYPES:
            continue  # a directive, or an event type the scenario invents on purpose
        lost.update(lost_keys(line, partial=False, shapeless_ok=True))
    assert sorted(lost) == [], f"{path.name}: keys no attribute reaches"


# --- the walk itself can fail -----------------------------------------------------------
def test_the_walk_reports_a_key_the_event_drops() -> None:
    line = b'{"type":"result","subtype":"success","result":"ok","brand_new":1}'
    assert lost_keys(line, partial=False, shapeless_ok=False) == ["result/success: brand_new"]


def test_the_walk_does_not_count_raw() -> None:
    line = b'{"type":"system","subtype":"background_shell_timeout","shell_id":"b1"}'
    assert lost_keys(line, partial=False, shapeless_ok=False) == [
        "system/background_shell_timeout: shell_id"
    ]


def test_the_walk_reports_an_unknown_key_inside_a_typed_payload() -> None:
    require_captures()  # for the contract's tables
    line = (
        b'{"type":"tool_call","subtype":"started","call_id":"c","tool_call":{"readToolCall":'
        b'{"args":{"path":"a.py","brandNew":1}}}}'
    )
    assert lost_keys(line, partial=False, shapeless_ok=False) == [
        "tool_call/started: tool_call.readToolCall.args.brandNew"
    ]
