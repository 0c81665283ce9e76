"""Realistic stream-json output of the CLI, rendered to files for the benchmarks.

The shapes follow docs/protocol.md: mostly small assistant and thinking deltas (what
`--stream-partial-output` produces), tool calls whose completions carry file contents
and command output of varied sizes, and now and then a large file read.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"
WORDS = [
    "the",
    "cart",
    "module",
    "sums",
    "the",
    "prices",
    "of",
    "its",
    "items",
    "and",
    "rounds",
    "the",
    "total",
    "to",
    "cents",
    "before",
    "returning",
    "it",
    "so",
    "a",
    "test",
    "should",
    "cover",
    "an",
    "empty",
    "cart",
    "two",
    "items",
    "and",
    "a",
    "discount",
]
CODE = "def total(items):\n    return round(sum(i.price * i.qty for i in items), 2)\n"


def _line(obj: dict[str, object]) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _assistant(rng: random.Random, ts: int) -> str:
    text = " ".join(rng.choices(WORDS, k=rng.randint(1, 6))) + " "
    return _line(
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
            "session_id": SESSION,
            "timestamp_ms": ts,
        }
    )


def _thinking(rng: random.Random, ts: int) -> str:
    text = " ".join(rng.choices(WORDS, k=rng.randint(2, 8)))
    return _line(
        {
            "type": "thinking",
            "subtype": "delta",
            "text": text,
            "session_id": SESSION,
            "timestamp_ms": ts,
        }
    )


def _tool_pair(rng: random.Random, ts: int, n: int, big: bool) -> list[str]:
    call_id = f"call_{n:06d}\nfc_{n:06d}"
    kind = rng.choice(["read", "read", "shell", "grep"])
    if kind == "read":
        size = 200_000 if big else rng.randint(200, 20_000)
        content = (CODE * (size // len(CODE) + 1))[:size]
        name, args = "readToolCall", {"path": f"src/module_{n % 50}.py"}
        success: dict[str, object] = {
            "content": content,
            "isEmpty": False,
            "exceededLimit": False,
            "totalLines": content.count("\n"),
            "totalChars": len(content),
        }
    elif kind == "shell":
        out = "".join(f"tests/test_{i}.py::test_case PASSED\n" for i in range(rng.randint(2, 120)))
        name, args = "shellToolCall", {"command": "pytest -q", "workingDirectory": "/repo"}
        success = {
            "command": "pytest -q",
            "exitCode": 0,
            "stdout": out,
            "stderr": "",
            "executionTime": 812,
        }
    else:
        matches = [
            {"file": f"src/m{i}.py", "matches": [{"lineNumber": i + 1, "content": "total(items)"}]}
            for i in range(rng.randint(1, 40))
        ]
        name, args = (
            "grepToolCall",
            {"pattern": "total\\(", "path": "/repo", "outputMode": "content"},
        )
        success = {
            "pattern": "total\\(",
            "outputMode": "content",
            "workspaceResults": {
                "/repo": {"content": {"matches": matches, "totalMatchedLines": len(matches)}}
            },
        }
    common = {"toolCallId": call_id, "startedAtMs": str(ts)}
    started = {
        "type": "tool_call",
        "subtype": "started",
        "call_id": call_id,
        "tool_call": {name: {"args": args}, **common},
        "model_call_id": f"mc-{n}",
        "session_id": SESSION,
        "timestamp_ms": ts,
    }
    completed = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": call_id,
        "tool_call": {
            name: {"args": args, "result": {"success": success}},
            **common,
            "completedAtMs": str(ts + 40),
        },
        "session_id": SESSION,
        "timestamp_ms": ts + 41,
    }
    return [_line(started), _line(completed)]


def write_stream(path: Path, events: int, *, seed: int = 1, tools: bool = True) -> int:
    """Write a stream of about ``events`` events to ``path``; return the exact count."""
    rng = random.Random(seed)
    ts = 1_785_515_118_000
    count = 0
    with path.open("w", encoding="utf-8") as out:
        head: list[dict[str, object]] = [
            {
                "type": "system",
                "subtype": "init",
                "apiKeySource": "env",
                "cwd": "/repo",
                "session_id": SESSION,
                "model": "Claude 4.5 Sonnet",
                "permissionMode": "default",
            },
            {
                "type": "user",
                "message": {"role": "user", "content": [{"type": "text", "text": "go"}]},
            },
        ]
        for obj in head:
            out.write(_line(obj) + "\n")
        count += 2
        while count < events - 1:
            ts += 7
            roll = rng.random()
            if tools and roll < 0.04:
                lines = _tool_pair(rng, ts, count, big=rng.random() < 0.02)
            elif roll < 0.20:
                lines = [_thinking(rng, ts)]
            else:
                lines = [_assistant(rng, ts)]
            out.write("\n".join(lines) + "\n")
            count += len(lines)
        result = {
            "type": "result",
            "subtype": "success",
            "duration_ms": 1000,
            "duration_api_ms": 1000,
            "is_error": False,
            "result": "done",
            "session_id": SESSION,
            "usage": {
                "inputTokens": 1,
                "outputTokens": 1,
                "cacheReadTokens": 0,
                "cacheWriteTokens": 0,
            },
        }
        out.write(_line(result) + "\n")
    return count + 1


def write_huge_line(path: Path, size: int) -> None:
    """A stream whose one assistant event carries ``size`` bytes of text on a single line."""
    text = (CODE * (size // len(CODE) + 1))[:size]
    with path.open("w", encoding="utf-8") as out:
        out.write(_line({"type": "system", "subtype": "init", "session_id": SESSION}) + "\n")
        out.write(
            _line(
                {
                    "type": "assistant",
                    "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
                    "session_id": SESSION,
                }
            )
            + "\n"
        )
        del text
        out.write(
            _line(
                {
                    "type": "result",
                    "subtype": "success",
                    "is_error": False,
                    "result": "ok",
                    "session_id": SESSION,
                }
            )
            + "\n"
        )
