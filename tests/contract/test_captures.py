"""Recorded runs of the real ``cursor-agent`` (captures, ``tests/recorded_runs.py`` says
where they are) as contract tests.

Every capture is played by the fake agent, byte for byte, with the flags its README lists,
through ``run()`` (on asyncio and trio) and ``run_sync()``; the captures that the fake can
play as a scenario (stream-json without partial output, json) are also played that way.
Each run must give one typed event per line (json format: the result), no
``UnknownEvent``, a typed payload for every tool kind and outcome the contract
(``cli-protocol.md`` §3.4, beside the captures) describes, every tool call paired, the reply
assembled exactly (the assistant events' text glued is ``RunResult.result``, and
``RunResult.text`` keeps apart the messages a tool call split) and the usage decoded.

The captures are never copied into the project: the tests read them where they are, and
skip when they are absent (fail when ``$CI`` is set: CI always has them).
"""

from __future__ import annotations

import base64
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from recorded_runs import CAPTURES, CONTRACT, require_recorded_runs
from replies import glued, reply_of

import fake_agent
from agent_sdk import (
    AgentOptions,
    Event,
    ResultEvent,
    RunResult,
    TextLine,
    ToolCallCompleted,
    ToolCallStarted,
    UnknownEvent,
    Usage,
    run,
    run_sync,
)

pytestmark = pytest.mark.anyio


def require_captures() -> None:
    """Skip (fail under CI) unless the recorded runs and the contract are there."""
    require_recorded_runs(contract=True)


def capture_params() -> list[Any]:
    """(capture, how to play it) pairs: see :func:`verbatim_scenario`, :func:`as_scenario`."""
    files = sorted(CAPTURES.glob("*.ndjson")) if CAPTURES.is_dir() else []
    if not files:
        # One placeholder, so the rule above runs (skip, or fail under CI).
        return [pytest.param(None, "verbatim", id="no-recorded-runs")]
    flags = readme_flags() if (CAPTURES / "README.md").is_file() else {}
    return [
        pytest.param(path.name, how, id=f"{path.stem}-{how}")
        for path in files
        for how in ("verbatim", "as-scenario")
        if how == "verbatim" or "--stream-partial-output" not in flags.get(path.name, "")
    ]


# --- what the README and the contract say ----------------------------------------------
@functools.cache
def readme_flags() -> dict[str, str]:
    """capture file name -> its flags column (``same`` resolved to the row above)."""
    flags: dict[str, str] = {}
    previous = ""
    for line in (CAPTURES / "README.md").read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].endswith(".ndjson"):
            continue
        column = previous if cells[2].lower() in ("same", "same as above") else cells[2]
        flags[cells[0]] = previous = column
    return flags


@functools.cache
def contract_kinds() -> dict[str, bool]:
    """The tool kinds of the contract's §3.4 table -> whether it gives a success payload."""
    kinds: dict[str, bool] = {}
    in_table = False
    for line in CONTRACT.read_text("utf-8").splitlines():
        if line.startswith("| kind | args | success payload"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        match = re.match(r"\| `(\w+)`", line) if in_table else None
        if match:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            kinds[match.group(1)] = cells[-1] not in ("—", "-", "")
    assert kinds, f"no tool kind table found in {CONTRACT}"
    return kinds


@functools.cache
def contract_outcomes() -> frozenset[str]:
    """The outcomes the contract's §3.4 lists with a shape (not the "reported, unseen")."""
    text = CONTRACT.read_text("utf-8")
    section = text[text.index("Outcomes:") : text.index("Tool kinds and their shapes")]
    outcomes = frozenset(re.findall(r"^  - `(\w+)`", section, flags=re.MULTILINE))
    assert "success" in outcomes, f"no outcome list found in {CONTRACT}"
    return outcomes


@dataclass(frozen=True)
class Capture:
    name: str
    data: bytes
    lines: list[dict[str, Any]]
    flags: str

    @property
    def output_format(self) -> str:
        return "json" if re.search(r"--output-format[ =]json\b", self.flags) else "stream-json"

    @property
    def partial(self) -> bool:
        return "--stream-partial-output" in self.flags

    @property
    def result_line(self) -> dict[str, Any]:
        results = [line for line in self.lines if line.get("type") == "result"]
        assert len(results) == 1, f"{self.name}: {len(results)} result lines"
        return results[0]

    def options(self, **kwargs: Any) -> dict[str, Any]:
        mode = re.search(r"--mode[ =](plan|ask)\b", self.flags)
        return {
            "output_format": self.output_format,
            "stream_partial_output": self.partial,
            "mode": mode.group(1) if mode else None,
            "force": bool(re.search(r"(?<!\S)(--force|-f|--yolo)(?!\S)", self.flags)),
            "trust": True,
            **kwargs,
        }

    def tool_call_ids(self, subtype: str) -> list[str]:
        return [
            str(line["call_id"])
            for line in self.lines
            if line.get("type") == "tool_call" and line.get("subtype") == subtype
        ]


def load(name: str | None) -> Capture:
    require_captures()
    assert name is not None
    path = CAPTURES / name
    data = path.read_bytes()
    lines = [json.loads(line) for line in data.split(b"\n") if line.strip()]
    flags = readme_flags()
    assert name in flags, f"{CAPTURES / 'README.md'} lists no flags for {name}"
    return Capture(name, data, lines, flags[name])


# --- two ways of playing a capture through the fake ------------------------------------
def verbatim_scenario(capture: Capture, directory: Path) -> Path:
    """A scenario (outside the project) whose one ``raw`` directive writes the capture's
    bytes exactly, in any output format and with any flag."""
    raw = base64.b64encode(capture.data).decode("ascii")
    path = directory / f"verbatim-{capture.name}"
    path.write_text(json.dumps({"fake": "raw", "base64": raw, "newline": False}) + "\n", "utf-8")
    return path


def as_scenario(capture: Capture) -> Path:
    """The capture itself as the scenario: the fake renders its events, as it would ours.
    Only where the fake's rendering is the capture's format (no partial output: the fake
    would cut the capture's deltas into deltas again)."""
    assert not capture.partial, "scenarios hold whole segments, not a capture's deltas"
    path = CAPTURES / capture.name
    assert fake_agent.is_scenario_path(str(path))
    return fake_agent.resolve_scenario(path)


def options_for(capture: Capture, how: str, tmp_path: Path, **kwargs: Any) -> AgentOptions:
    scenario = verbatim_scenario(capture, tmp_path) if how == "verbatim" else as_scenario(capture)
    return AgentOptions(
        binary=fake_agent.executable(),
        env={"FAKE_AGENT_SCENARIO": str(scenario)},
        **capture.options(**kwargs),
    )


# --- the contract ----------------------------------------------------------------------
def untyped_payloads(events: list[Event]) -> list[str]:
    """``kind.args`` / ``kind.<outcome>`` of every tool call event whose payload came back
    generic (a dict) though the contract describes its kind and outcome."""
    kinds, outcomes = contract_kinds(), contract_outcomes()
    found: list[str] = []
    for event in events:
        if not isinstance(event, (ToolCallStarted, ToolCallCompleted)):
            continue
        if event.kind not in kinds:
            # A capture is what the contract was checked against: a kind it does not
            # list means the contract is behind.
            found.append(f"{event.kind} (a tool kind the contract does not list)")
            continue
        wire_args = _kind_body(event).get("args")
        if wire_args is not None and not isinstance(event.args, msgspec.Struct):
            found.append(f"{event.kind}.args ({event.subtype})")
        if isinstance(event, ToolCallCompleted) and event.outcome in outcomes:
            if event.outcome == "success" and not kinds[event.kind]:
                continue
            if not isinstance(event.result, msgspec.Struct):
                found.append(f"{event.kind}.result.{event.outcome}")
    return sorted(set(found))


def _kind_body(event: ToolCallStarted | ToolCallCompleted) -> dict[str, Any]:
    tool_call = json.loads(bytes(event.tool_call))
    body = tool_call.get(event.kind) if isinstance(tool_call, dict) else None
    return body if isinstance(body, dict) else {}


def check_run(capture: Capture, events: list[Event], result: RunResult, *, verbatim: bool) -> None:
    # One event per line (json format: the result alone), ending with the result.
    expected_events = len(capture.lines) if capture.output_format == "stream-json" else 1
    assert len(events) == expected_events
    assert isinstance(events[-1], ResultEvent)
    # Every tool call paired, whatever the order of completions.
    started, completed = capture.tool_call_ids("started"), capture.tool_call_ids("completed")
    assert sorted(started) == sorted(completed)
    assert sorted(call.call_id for call in result.tool_calls) == sorted(started)
    for call in result.tool_calls:
        assert call.started is not None, call.call_id
        assert call.completed is not None, call.call_id
        assert call.is_finished
    # The reply, assembled and authoritative.
    wire = capture.result_line
    if capture.output_format == "stream-json":
        assert glued(events) == result.result
        assert result.text == reply_of(events)
    else:  # json: the result is the whole reply
        assert result.text == result.result
    assert result.result == wire["result"]
    assert result.exit_code == 0
    usage = wire.get("usage")
    assert result.usage == (msgspec.convert(usage, Usage) if usage is not None else None)
    if verbatim:
        assert result.session_id == wire.get("session_id")
        assert result.duration_ms == wire.get("duration_ms")
    # Every line typed: no UnknownEvent, no text line, and a typed payload for every tool
    # kind and outcome the contract describes. Checked last, and all at once, so that a
    # kind or event type still being typed names itself without hiding the rest.
    generic = [
        f"{event.type}/{event.subtype} event"
        for event in events
        if isinstance(event, (UnknownEvent, TextLine))
    ]
    untyped = [*sorted(set(generic)), *untyped_payloads(events)]
    assert untyped == [], f"{capture.name}: generic where the contract types: {untyped}"


@pytest.mark.parametrize(("name", "how"), capture_params())
async def test_capture_through_run(name: str | None, how: str, tmp_path: Path) -> None:
    capture = load(name)
    options = options_for(capture, how, tmp_path, keep_events=True)
    async with run("go", options=options) as stream:
        events: list[Event] = [event async for event in stream]
    result = stream.result
    assert result.events == events
    check_run(capture, events, result, verbatim=how == "verbatim")


@pytest.mark.parametrize(("name", "how"), capture_params())
def test_capture_through_run_sync(name: str | None, how: str, tmp_path: Path) -> None:
    capture = load(name)
    result = run_sync("go", options=options_for(capture, how, tmp_path, keep_events=True))
    check_run(capture, list(result.events), result, verbatim=how == "verbatim")


def test_every_capture_has_its_flags_in_the_readme() -> None:
    require_captures()
    listed = set(readme_flags())
    assert {path.name for path in CAPTURES.glob("*.ndjson")} <= listed


def test_the_contract_lists_the_tool_kinds_and_outcomes() -> None:
    require_captures()
    assert {"readToolCall", "shellToolCall", "createPlanToolCall", "function"} <= set(
        contract_kinds()
    )
    assert {"success", "rejected", "permissionDenied", "writePermissionDenied", "error"} <= (
        contract_outcomes()
    )
