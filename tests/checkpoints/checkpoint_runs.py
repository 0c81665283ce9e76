"""What the tests of checkpointed runs share: scenarios of the fake agent that change the
tree for real, and the options that run them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_env import clean_env

import fake_agent
from agent_sdk import AgentOptions

CHAT = "5d1c8e0a-3b7f-4c2e-9a61-0f4b2d8c7e13"


def _line(item: dict[str, Any]) -> str:
    return json.dumps(item)


def init() -> str:
    return _line({"type": "system", "subtype": "init", "model": "Fake", "session_id": CHAT})


def result(text: str = "done", *, is_error: bool = False) -> str:
    subtype = "error" if is_error else "success"
    said = {"type": "result", "subtype": subtype, "is_error": is_error, "result": text}
    return _line({**said, "duration_ms": 1, "session_id": CHAT})


def say(text: str) -> str:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return _line({"type": "assistant", "message": message, "session_id": CHAT})


def write(path: str, text: str) -> str:
    return _line({"fake": "write_file", "path": path, "text": text, "real": True})


def delete(path: str) -> str:
    return _line({"fake": "delete_file", "path": path, "real": True})


# What the agent does in the repository of checkpoint_trees.make_repo: a file the user
# was changing overwritten, one made in a new directory, one of the commit deleted.
AGENT_WORK = (
    write("a.txt", "the agent's a\n"),
    write("new/made.txt", "new\n"),
    delete("sub/c.txt"),
)


def scenario(tmp_path: Path, *lines: str, name: str = "scenario.ndjson") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def options(cwd: Path, played: Path | str, **extra: Any) -> AgentOptions:
    """The fake, playing ``played`` in ``cwd``, with ``--force`` (its writes need it) and
    a checkpoint; ``extra`` on top."""
    env = clean_env(FAKE_AGENT_SCENARIO=str(played))
    given: dict[str, Any] = {"force": True, "checkpoint": True, **extra}
    return AgentOptions(binary=fake_agent.executable(), cwd=cwd, env=env, **given)
