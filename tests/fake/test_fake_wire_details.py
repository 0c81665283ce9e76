"""The fake cursor-agent's bytes on the wire (docs/protocol.md §2-§3): a lone surrogate
as an escape, other text raw UTF-8, call ids with their escaped newline, a huge read on one
line, and the protocol's own example lines reproduced verbatim.
"""

from __future__ import annotations

import json

import pytest
from fake_play import SMALL_HUGE_READ, _env, events, play, run

# --------------------------------------------------------------------------- wire details


def test_surrogate_is_written_as_an_escape_on_the_wire() -> None:
    out = play("surrogate").stdout
    assert b'party time \\ud83d"' in out
    out.decode("utf-8")  # and the rest is valid UTF-8


def test_non_ascii_stays_raw_utf8_on_the_wire() -> None:
    assert "🎉".encode() in play("surrogate").stdout


def test_call_ids_keep_their_escaped_newline() -> None:
    assert b'"call_id":"call_Rd01\\nfc_0b21"' in play("tools").stdout


def test_huge_read_is_one_line_with_content_of_the_requested_size() -> None:
    lines = play("huge_read").stdout.split(b"\n")
    big = [line for line in lines if len(line) > SMALL_HUGE_READ]
    assert len(big) == 1
    completed = json.loads(big[0])
    content = completed["tool_call"]["readToolCall"]["result"]["success"]["content"]
    assert len(content.encode("utf-8")) == SMALL_HUGE_READ
    assert "é" in content[-40:]
    assert "🎉" in content[-40:]


def test_huge_read_pairs_started_with_completed() -> None:
    calls = [e for e in events(play("huge_read")) if e["type"] == "tool_call"]
    assert [c["subtype"] for c in calls] == ["started", "completed"]
    assert calls[0]["call_id"] == calls[1]["call_id"]


# Example lines of the protocol (docs/protocol.md §2-§3), copied verbatim: each is
# reproduced by a scenario.
PROTOCOL_EXAMPLES = [
    (
        "hello",
        "json",
        "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
        '{"type":"result","subtype":"success","is_error":false,"duration_ms":4210,"duration_api_ms":4210,"result":"Done. I added the test.","session_id":"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10","request_id":"9e1f0c3a-7d2b-4c65-8a0e-2b5d6f7a8c91","usage":{"inputTokens":18211,"outputTokens":96,"cacheReadTokens":5120,"cacheWriteTokens":0}}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10",
        '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Add a test for cart totals"}]},"session_id":"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"I\'ll read the cart module first."}]},"session_id":"0b7c...","model_call_id":"9e1f0c3a-...-0-kq3z","timestamp_ms":1785515118001}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"tool_call","subtype":"started","call_id":"call_7Qx2\\nfc_01ab","tool_call":{"readToolCall":{"args":{"path":"src/cart.py"}},"toolCallId":"call_7Qx2\\nfc_01ab","startedAtMs":"1785515118821","hookAdditionalContexts":[]},"model_call_id":"9e1f0c3a-...-0-kq3z","session_id":"0b7c...","timestamp_ms":1785515118818}',
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"tool_call","subtype":"completed","call_id":"call_7Qx2\\nfc_01ab","tool_call":{"readToolCall":{"args":{"path":"src/cart.py"},"result":{"success":{"content":"def total(items):\\n    ...","isEmpty":false,"exceededLimit":false,"totalLines":54,"totalChars":1254}}},"toolCallId":"call_7Qx2\\nfc_01ab","startedAtMs":"1785515118821","completedAtMs":"1785515118990"},"session_id":"0b7c...","timestamp_ms":1785515118991}',  # noqa: E501
    ),
    (
        "cart",
        "stream-json",
        "0b7c...",
        '{"type":"result","subtype":"success","duration_ms":18788,"duration_api_ms":18788,"is_error":false,"result":"I\'ll read the cart module first.The test is added and passes.","session_id":"0b7c...","request_id":"9e1f0c3a-7d2b-4c65-8a0e-2b5d6f7a8c91","usage":{"inputTokens":115,"outputTokens":18,"cacheReadTokens":19776,"cacheWriteTokens":0}}',  # noqa: E501
    ),
    (
        "rejected",
        "stream-json",
        "0b7c...",
        '{"type":"tool_call","subtype":"completed","call_id":"call_9","tool_call":{"shellToolCall":{"args":{"command":"pytest -q"},"result":{"rejected":{"command":"pytest -q","workingDirectory":"/home/dev/shop","reason":"","isReadonly":false}}}},"session_id":"0b7c..."}',  # noqa: E501
    ),
    (
        "thinking",
        "stream-json",
        "0b7c...",
        '{"type":"thinking","subtype":"delta","text":"**Planning the change","session_id":"0b7c...","timestamp_ms":1785515117001}',  # noqa: E501
    ),
    (
        "thinking",
        "stream-json",
        "0b7c...",
        '{"type":"thinking","subtype":"completed","session_id":"0b7c...","timestamp_ms":1785515117950}',
    ),
    (
        "reconnect",
        "stream-json",
        "0b7c...",
        '{"type":"connection","subtype":"reconnecting","attempt":1,"endpoint_url":"https://api.example.invalid","session_id":"0b7c...","timestamp_ms":1785515120000}',
    ),
    (
        "reconnect",
        "stream-json",
        "0b7c...",
        '{"type":"retry","subtype":"starting","attempt":1,"is_resume":true,"session_id":"0b7c...","timestamp_ms":1785515120400}',
    ),
    (
        "reconnect",
        "stream-json",
        "0b7c...",
        '{"type":"connection","subtype":"reconnected","session_id":"0b7c...","timestamp_ms":1785515121000}',
    ),
]


@pytest.mark.parametrize(("scenario", "fmt", "session", "line"), PROTOCOL_EXAMPLES)
def test_protocol_example_is_reproduced_verbatim(
    scenario: str, fmt: str, session: str, line: str
) -> None:
    proc = run(
        "-p",
        "--trust",
        f"--output-format={fmt}",
        f"--resume={session}",
        "--",
        "Add a test for cart totals",
        env=_env(FAKE_AGENT_SCENARIO=scenario),
    )
    assert line.encode() in proc.stdout.split(b"\n")


def test_init_example_is_reproduced_with_its_workspace_and_env_key() -> None:
    # The example's cwd (/home/dev/shop) does not exist here: compare all but cwd.
    example = json.loads(
        '{"type":"system","subtype":"init","apiKeySource":"env","cwd":"/home/dev/shop","session_id":"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10","model":"Claude 4.5 Sonnet","permissionMode":"default"}'  # noqa: E501
    )
    proc = run(
        "-p",
        "--trust",
        "--output-format=stream-json",
        "--model=sonnet-4.5",
        f"--resume={example['session_id']}",
        "--",
        "x",
        env=_env(CURSOR_API_KEY="k"),
    )
    init = events(proc)[0]
    assert list(init) == list(example)
    assert {**init, "cwd": None} == {**example, "cwd": None}
