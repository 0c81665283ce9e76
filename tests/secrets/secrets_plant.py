"""The planted key, and where an object shows it: every public attribute, walked
(errors, events, outcomes, summaries), and the pickle of every exception met."""

from __future__ import annotations

import json
import pickle
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import msgspec

from agent_sdk import AgentOptions
from agent_sdk.extend import tool

KEY = "sk-live-7c1e5a3f9b2d4e6a8c0f"
MASK = "***"
SECRET_VARIABLES = ("CURSOR_API_KEY", "CURSOR_AUTH_TOKEN")
MAX_DEPTH = 8


class Verdict(msgspec.Struct):
    """The output type of the structured-output tests: ``verdict`` is an enum."""

    verdict: Literal["approve", "reject"]


# The tools of the fake's ``custom_tools`` scenario (docs/extend.md), one failing with the
# key in its message: what the agent is sent back must show it masked.
@tool
def lookup_issue(number: int) -> str:
    """Look up an issue."""
    return f"Issue {number}"


@tool
def fail(reason: str) -> str:
    """Fail with the key in the message."""
    raise RuntimeError(f"{reason}: could not log in with {KEY}")


MakeOptions = Callable[..., AgentOptions]
"""``planted(scenario, **options)`` (tests/secrets/conftest.py)."""


class Spy:
    """A CLI that writes its argv and environment to ``dir`` (NUL-separated), then runs
    the fake, then copies its ``$CURSOR_CONFIG_DIR`` (if any) to ``dir/config.PID``:
    every process started through ``binary`` is on record."""

    def __init__(self, tmp_path: Path, fake_binary: str) -> None:
        self.dir = tmp_path / "spied"
        self.dir.mkdir()
        self.binary = tmp_path / "cursor-agent"
        self.binary.write_text(
            "#!/bin/sh\n"
            f"printf '%s\\0' \"$@\" > '{self.dir}/argv.'$$\n"
            f"env -0 > '{self.dir}/env.'$$\n"
            f"'{fake_binary}' \"$@\"\n"
            "code=$?\n"
            f'[ -n "$CURSOR_CONFIG_DIR" ] && cp -R "$CURSOR_CONFIG_DIR" \'{self.dir}/config.\'$$\n'
            "exit $code\n"
        )
        self.binary.chmod(self.binary.stat().st_mode | stat.S_IXUSR)

    def processes(self) -> list[tuple[list[str], dict[str, str]]]:
        found = []
        for argv in sorted(self.dir.glob("argv.*")):
            env = (self.dir / argv.name.replace("argv", "env")).read_text()
            variables = dict(v.partition("=")[::2] for v in env.split("\0") if v)
            found.append((argv.read_text().split("\0")[:-1], variables))
        return found

    def config_files(self) -> dict[str, bytes]:
        """The files of every config dir copied, by path under ``dir``."""
        return {
            str(path.relative_to(self.dir)): path.read_bytes()
            for path in sorted(self.dir.glob("config.*/**/*"))
            if path.is_file()
        }


def where_shown(value: object, key: str = KEY) -> list[str]:
    """The paths in ``value`` where ``key`` shows: its text, ``str``/``repr``, every public
    attribute and item (recursively), JSON of structs, and the pickle of exceptions."""
    found: list[str] = []
    seen: set[int] = set()

    def holds(text: str | bytes) -> bool:
        return (key in text) if isinstance(text, str) else (key.encode() in text)

    def walk(item: Any, path: str, depth: int) -> None:
        if isinstance(item, (str, bytes, bytearray, memoryview)):
            if holds(bytes(item) if not isinstance(item, str) else item):
                found.append(path)
            return
        if isinstance(item, msgspec.Raw):
            walk(bytes(item), path, depth)
            return
        if item is None or isinstance(item, (bool, int, float)) or depth > MAX_DEPTH:
            return
        if id(item) in seen:
            return
        seen.add(id(item))
        if isinstance(item, dict):
            for name, inner in item.items():
                walk(name, f"{path}[{name!r}] (key)", depth + 1)
                walk(inner, f"{path}[{name!r}]", depth + 1)
            return
        if isinstance(item, (list, tuple, set, frozenset)):
            for index, inner in enumerate(item):
                walk(inner, f"{path}[{index}]", depth + 1)
            return
        for how, show in (("str", str), ("repr", repr)):
            if holds(_safely(show, item)):
                found.append(f"{path} ({how})")
        if isinstance(item, BaseException) and holds(_safely(pickle.dumps, item, b"")):
            found.append(f"{path} (pickle)")
        if isinstance(item, AgentOptions):
            return  # the caller's own input: only its repr is promised to hide secrets
        if _shown_as_json(item) and holds(_safely(msgspec.json.encode, item, b"")):
            found.append(f"{path} (JSON)")
        for name in dir(item):
            if name.startswith("_"):
                continue
            inner = _safely(getattr, item, name, None)
            if callable(inner) and not isinstance(inner, (msgspec.Struct, BaseException)):
                continue
            walk(inner, f"{path}.{name}", depth + 1)

    walk(value, "value", 0)
    return found


def _shown_as_json(item: object) -> bool:
    """A struct the SDK gives out, as JSON: not one that holds the caller's options."""
    if not isinstance(item, msgspec.Struct):
        return False
    fields = (getattr(item, name, None) for name in item.__struct_fields__)
    return not any(isinstance(field, AgentOptions) for field in fields)


def _safely(call: Any, *args: Any) -> Any:
    """``call(first)``; the default (the last of ``args``, or ``""``) if it raises."""
    if call is getattr:
        try:
            return getattr(args[0], args[1])
        except Exception:  # a property that raises shows nothing
            return args[2]
    try:
        return call(args[0])
    except Exception:
        return args[1] if len(args) > 1 else ""


def write_scenario(path: Path, steps: list[dict[str, Any]]) -> Path:
    """A fake-agent scenario of these steps, one JSON line each."""
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path
