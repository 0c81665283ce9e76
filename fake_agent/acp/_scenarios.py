"""ACP scenarios: NDJSON scripts of one ``session/prompt`` turn (scenarios/acp/README.md).

A step is either a ``session/update`` payload (an object with a string ``sessionUpdate``,
sent as ``params.update``) or a directive (an object with a ``"fake"`` key). Branching
directives (``permission``, ``request``) hold nested step lists, checked the same way.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._mcp import check_mcp_call
from ._shell import check_daemon, check_nothing, check_shell

#: The folder of the bundled ACP scenarios, ``<name>.ndjson`` each.
ACP_SCENARIOS_DIR = Path(__file__).resolve().parent.parent / "scenarios" / "acp"

#: Env var naming the ACP scenario: a bundled name or a path to a .ndjson file.
ACP_SCENARIO_ENV = "FAKE_AGENT_ACP_SCENARIO"
DEFAULT_ACP_SCENARIO = "hello"

_NAME = re.compile(r"[A-Za-z0-9_-]+")
_PROMPT_TOKEN = re.compile(r"(?<!\S)scenario:([A-Za-z0-9_-]+)")

Step = dict[str, Any]


class AcpScenarioError(LookupError):
    """A scenario that does not exist or does not parse."""


def _number(step: Step, key: str, required: bool = False) -> str | None:
    value = step.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return f"'{key}' must be a number >= 0"
    return None


def _steps(value: Any, where: str) -> str | None:
    if not isinstance(value, list):
        return f"'{where}' must be a list of steps"
    for step in value:
        problem = check_step(step)
        if problem:
            return f"in '{where}': {problem}"
    return None


def _branches(step: Step, key: str) -> str | None:
    value = step.get(key, {})
    if not isinstance(value, dict):
        return f"'{key}' must map names to lists of steps"
    for name, steps in value.items():
        problem = _steps(steps, f"{key}.{name}")
        if problem:
            return problem
    return None


def _check_permission(step: Step) -> str | None:
    tool_call = step.get("toolCall")
    if not isinstance(tool_call, dict) or not isinstance(tool_call.get("toolCallId"), str):
        return "'permission' needs a 'toolCall' object with a string 'toolCallId'"
    if "options" in step and not isinstance(step["options"], list):
        return "'options' must be a list"
    for key in ("allow", "reject"):
        problem = _steps(step.get(key, []), key)
        if problem:
            return problem
    return _branches(step, "on")


def _check_request(step: Step) -> str | None:
    if not isinstance(step.get("method"), str):
        return "'request' needs a string 'method'"
    if not isinstance(step.get("params", {}), dict):
        return "'params' must be an object"
    if not isinstance(step.get("await", True), bool):
        return "'await' must be a boolean"
    return _branches(step, "on")


def _check_error(step: Step) -> str | None:
    if not isinstance(step.get("code"), int) or not isinstance(step.get("message"), str):
        return "'error' needs an integer 'code' and a string 'message'"
    return None


def _check_text(step: Step) -> str | None:
    return None if isinstance(step.get("text"), str) else "needs a string 'text'"


def _check_flood(step: Step) -> str | None:
    if not isinstance(step.get("update"), dict):
        return "'flood' needs an 'update' object"
    return _number(step, "seconds")


def _check_stop(step: Step) -> str | None:
    return None if isinstance(step.get("stopReason"), str) else "needs a string 'stopReason'"


def _check_exit(step: Step) -> str | None:
    code = step.get("code", 0)
    return None if isinstance(code, int) and 0 <= code <= 255 else "'code' must be 0-255"


def _check_subagent(step: Step) -> str | None:
    if not isinstance(step.get("description"), str):
        return "'subagent' needs a string 'description'"
    if not isinstance(step.get("background", False), bool):
        return "'background' must be a boolean"
    if not isinstance(step.get("state", ""), str):
        return "'state' must be a string"
    pinned = step.get("durationMs", 0)
    if isinstance(pinned, bool) or not isinstance(pinned, (int, float, str)):
        return "'durationMs' must be a number or a string"
    return _steps(step.get("steps", []), "steps") or _steps(step.get("after", []), "after")


_DIRECTIVES = {
    "sleep": lambda step: _number(step, "seconds", required=True),
    "stall": lambda step: _number(step, "seconds"),
    "permission": _check_permission,
    "request": _check_request,
    "flood": _check_flood,
    "stop": _check_stop,
    "error": _check_error,
    "stderr": _check_text,
    "raw": _check_text,
    "exit": _check_exit,
    "subagent": _check_subagent,
    "mcp_call": check_mcp_call,
    "shell": check_shell,
    "worker_server": check_nothing,
    "daemon": check_daemon,
}


def check_step(step: Any) -> str | None:
    """Why ``step`` is not a valid step, or None."""
    if not isinstance(step, dict):
        return "not a JSON object"
    if "fake" in step:
        name = step["fake"]
        checker = _DIRECTIVES.get(name) if isinstance(name, str) else None
        if checker is None:
            return f"unknown directive {name!r}"
        return checker(step)
    if not isinstance(step.get("sessionUpdate"), str):
        return "an update needs a string 'sessionUpdate'"
    return None


def scenario_names() -> list[str]:
    """The bundled ACP scenarios, sorted."""
    return sorted(path.stem for path in ACP_SCENARIOS_DIR.glob("*.ndjson"))


def resolve(value: str) -> Path:
    """The file a name or path names (a path: contains a separator or ends ``.ndjson``)."""
    if value.endswith(".ndjson") or "/" in value or os.sep in value:
        path = Path(value)
        if not path.is_file():
            raise AcpScenarioError(f"no ACP scenario file {value!r}")
        return path
    path = ACP_SCENARIOS_DIR / f"{value}.ndjson"
    if not _NAME.fullmatch(value) or not path.is_file():
        known = ", ".join(scenario_names())
        raise AcpScenarioError(f"no ACP scenario named {value!r} (known: {known})")
    return path


def pick(prompt_text: str, environ: Mapping[str, str]) -> Path:
    """The scenario of a turn: ``$FAKE_AGENT_ACP_SCENARIO``, else a ``scenario:NAME``
    token in the prompt's text, else ``hello``."""
    chosen = environ.get(ACP_SCENARIO_ENV, "")
    if chosen:
        return resolve(chosen)
    match = _PROMPT_TOKEN.search(prompt_text)
    return resolve(match.group(1) if match else DEFAULT_ACP_SCENARIO)


def load(path: Path) -> list[Step]:
    """The steps of a scenario file, checked (AcpScenarioError says which line and why)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise AcpScenarioError(f"cannot read {path}: {exc}") from exc
    steps: list[Step] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            step = json.loads(line)
        except ValueError as exc:
            raise AcpScenarioError(f"{path.name}:{number}: not JSON: {exc}") from exc
        problem = check_step(step)
        if problem:
            raise AcpScenarioError(f"{path.name}:{number}: {problem}")
        steps.append(step)
    return steps
