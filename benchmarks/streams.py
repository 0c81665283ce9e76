"""Stream-json output of the CLI, rendered to files for the benchmarks.

Two mixes, both in the shapes of docs/protocol.md (written here, not copied from a run):

- the realistic one (the default, issue 24): the mix of real partial-output runs, turn
  after turn of thinking deltas and their ``completed``, assistant deltas and the message
  that flushes them, then a few tool calls (sometimes in parallel), each ``started`` and
  ``completed``, the kind object first and the CLI's sibling keys beside it: about 47% of
  the events are tool calls, 20% thinking and 34% assistant text;
- the chatty one (``realistic=False``, the benchmarks' stream before issue 24): mostly
  small assistant and thinking deltas, few tool calls (8% of the events), now and then a
  large file read. A regression on tool calls hardly shows on it.
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


def write_stream(
    path: Path, events: int, *, seed: int = 1, tools: bool = True, realistic: bool = True
) -> int:
    """Write a stream of about ``events`` events to ``path``; return the exact count.

    ``realistic`` picks the mix (see the module's docstring); ``tools=False`` writes
    assistant and thinking deltas only."""
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
        while realistic and tools and count < events - 1:
            ts += 7
            lines = _turn(rng, ts, count)[: max(events - 1 - count, 1)]
            out.write("\n".join(lines) + "\n")
            count += len(lines)
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


def _turn(rng: random.Random, ts: int, n: int) -> list[str]:
    """One turn of a partial-output run: thinking, assistant text, then tool calls."""
    lines = [_thinking(rng, ts) for _ in range(rng.randint(2, 6))]
    lines.append(_line({"type": "thinking", "subtype": "completed", **_stamp(ts)}))
    said = [" ".join(rng.choices(WORDS, k=rng.randint(1, 2))) + " " for _ in range(9)]
    for piece in said[: rng.randint(4, 14)]:
        message = {"role": "assistant", "content": [{"type": "text", "text": piece}]}
        lines.append(_line({"type": "assistant", "message": message, **_stamp(ts)}))
    message = {"role": "assistant", "content": [{"type": "text", "text": "".join(said)}]}
    flush = {"type": "assistant", "message": message, "session_id": SESSION}
    lines.append(_line({**flush, "model_call_id": f"mc-{n}-0", "timestamp_ms": ts}))
    calls = [_call(rng, ts, n + i) for i in range(rng.randint(3, 9))]
    parallel = rng.random() < 0.3  # every start first, then every completion
    if parallel:
        lines += [started for started, _ in calls] + [completed for _, completed in calls]
    else:
        lines += [line for pair in calls for line in pair]
    return lines


def _stamp(ts: int) -> dict[str, object]:
    return {"session_id": SESSION, "timestamp_ms": ts}


def _call(rng: random.Random, ts: int, n: int) -> tuple[str, str]:
    """A tool call's two lines, in the shapes of the kinds a coding run uses most."""
    call_id = f"tool_{n:08x}-5d1c-4b7e-9f0a-3c2e"
    path = f"/repo/src/module_{n % 50}.py"
    kind = rng.choice(["readToolCall", "grepToolCall", "grepToolCall", "globToolCall"])
    kind = rng.choice([kind, kind, "shellToolCall", "editToolCall"])
    content = (CODE * 400)[: rng.randint(60, 3_000)]
    args: dict[str, object]
    success: dict[str, object]
    if kind == "readToolCall":
        args = {"path": path}
        success = {
            "content": content,
            "isEmpty": False,
            "exceededLimit": False,
            "totalLines": content.count("\n"),
            "fileSize": len(content),
            "path": path,
            "readRange": {"startLine": 1, "endLine": content.count("\n")},
            "relatedCursorRulePaths": [],
            "relatedCursorRules": [],
        }
    elif kind == "grepToolCall":
        args = {"pattern": "total(", "caseInsensitive": False, "multiline": False}
        args |= {"toolCallId": call_id, "offset": 0}
        matches = [
            {
                "file": f"./src/m{i}.py",
                "matches": [
                    {
                        "lineNumber": i + 1,
                        "content": "    return round(sum(i.price for i in items), 2)",
                        "contentTruncated": False,
                        "isContextLine": False,
                    }
                ],
            }
            for i in range(rng.randint(1, 20))
        ]
        found = {"matches": matches, "totalLines": len(matches)}
        found |= {"totalMatchedLines": len(matches), "clientTruncated": False}
        success = {"pattern": "total(", "path": "", "outputMode": "content"}
        success["workspaceResults"] = {"/repo": {"content": found}}
    elif kind == "globToolCall":
        args = {"globPattern": "**/*.{py,toml,md}"}
        files = [f"./src/module_{i}.py" for i in range(rng.randint(1, 100))]
        success = {"pattern": "", "path": "", "files": files, "totalFiles": len(files)}
        success |= {"clientTruncated": False, "ripgrepTruncated": False}
    elif kind == "shellToolCall":
        command = "python -m pytest -q tests/test_cart.py"
        args = {"command": command, "workingDirectory": "", "timeout": 30000}
        args |= {"toolCallId": call_id, "simpleCommands": ["python"], "isBackground": False}
        out = "".join(f"tests/test_cart.py::test_{i} PASSED\n" for i in range(rng.randint(1, 60)))
        success = {"command": command, "workingDirectory": "", "exitCode": 0, "signal": ""}
        success |= {"stdout": out, "stderr": "", "executionTime": 812, "interleavedOutput": out}
    else:
        args = {"path": path, "streamContent": content[:400]}
        success = {"path": path, "linesAdded": 3, "linesRemoved": 1}
        success |= {"diffString": content[:600], "beforeFullFileContent": content}
        success |= {"afterFullFileContent": content, "message": f"The file {path} was updated."}
    common = {"hookAdditionalContexts": [], "toolCallId": call_id, "startedAtMs": str(ts)}
    head = {"type": "tool_call", "call_id": call_id}
    tail = {"model_call_id": f"mc-{n}-0", **_stamp(ts)}
    started = {**head, "tool_call": {kind: {"args": args}, **common}, **tail}
    body = {kind: {"args": args, "result": {"success": success}}, **common}
    completed = {**head, "tool_call": {**body, "completedAtMs": str(ts + 40)}, **tail}
    started = {"type": "tool_call", "subtype": "started", **started}
    completed = {"type": "tool_call", "subtype": "completed", **completed}
    return _line(started), _line(completed)
