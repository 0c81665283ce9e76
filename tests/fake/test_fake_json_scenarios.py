"""Structured output on the fake: the ``json_*`` scenarios, and the ``only``/``end_only``
sections that make a resumed run (``--resume``: the SDK's correction turn) play
something else than a fresh one.

Each reply is taken from what the fake prints, in every output format, and its JSON is
found as a caller would: the last fenced ```` ```json ```` block, else a bare value
ending the text; then decoded with ``msgspec`` into the review type.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, Literal

import msgspec
import pytest
from fake_env import ROOT, fake_env

from fake_agent._scenario import ScenarioError, load_scenario


class Finding(msgspec.Struct, forbid_unknown_fields=True):
    file: str
    line: int
    severity: Literal["major", "minor", "nit"]
    message: str


class Review(msgspec.Struct, forbid_unknown_fields=True):
    verdict: Literal["approve", "request_changes"]
    summary: str
    findings: list[Finding]


class Plan(msgspec.Struct, forbid_unknown_fields=True):
    steps: list[str]


# What the valid review of json_review (and of json_corrected's second turn) holds.
REVIEW = Review(
    verdict="request_changes",
    summary=(
        "total() adds up unit prices and ignores each item's quantity, so any cart holding "
        "two of an item is undercharged; the only test uses single items and cannot catch it."
    ),
    findings=[
        Finding(
            file="src/cart.py",
            line=12,
            severity="major",
            message="total ignores the quantity: multiply item.price by item.qty",
        ),
        Finding(
            file="tests/test_cart.py",
            line=3,
            severity="minor",
            message="test_total only covers quantities of 1; add a case with qty > 1",
        ),
    ],
)

JSON_SCENARIOS = ["json_review", "json_corrected", "json_never", "json_bare"]
# (output format, --stream-partial-output)
FORMATS = [("stream-json", False), ("stream-json", True), ("json", False), ("text", False)]
FORMAT_IDS = ["stream-json", "partial", "json", "text"]
RESUME_ID = "chat-7f3a"

_FENCED = re.compile(r"```json\n(.*?)\n```", re.DOTALL)


def last_json(text: str) -> str | None:
    """The JSON a caller takes from a reply: the last fenced ```json block, else a bare
    object or array that ends the text; None when there is neither."""
    blocks = _FENCED.findall(text)
    if blocks:
        return str(blocks[-1])
    stripped = text.rstrip()
    decoder = json.JSONDecoder()
    for start in (i for i, char in enumerate(stripped) if char in "{["):
        try:
            _, end = decoder.raw_decode(stripped, start)
        except ValueError:
            continue
        if end == len(stripped):
            return stripped[start:]
    return None


def test_last_json_finds_fenced_then_bare_and_nothing_in_broken_text() -> None:
    assert last_json('a ```json\n{"x": 1}\n``` b ```json\n[2]\n```') == "[2]"
    assert last_json('plan: {"steps": ["a"]} ') == '{"steps": ["a"]}'
    assert last_json('{"a": 1} and then prose') is None
    assert last_json('```json\n{"a": 1,}\n') is None


@functools.cache
def play(
    scenario: str, fmt: str = "stream-json", partial: bool = False, resume: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[bytes]:
    """A trusted run of a bundled scenario (or a scenario file), cached."""
    args = ["-p", "--trust", f"--output-format={fmt}", *resume]
    if partial:
        args.append("--stream-partial-output")
    return subprocess.run(
        [sys.executable, "-m", "fake_agent", *args, "--", "Review the cart module"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(FAKE_AGENT_SCENARIO=scenario),
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def events(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    lines = proc.stdout.decode("utf-8").split("\n")
    assert lines[-1] == ""
    decoded = [msgspec.json.decode(line) for line in lines[:-1]]
    assert all(isinstance(event, dict) for event in decoded)
    return decoded


def text_of(event: dict[str, Any]) -> str:
    return "".join(block["text"] for block in event["message"]["content"])


def reply(scenario: str, fmt: tuple[str, bool] = FORMATS[0], resume: tuple[str, ...] = ()) -> str:
    """The whole reply of a run, as each format gives it; checks the format's rules on
    the way (the result is the joined assistant texts, once)."""
    proc = play(scenario, fmt[0], fmt[1], resume)
    assert (proc.returncode, proc.stderr) == (0, b"")
    if fmt[0] == "text":
        out = proc.stdout.decode("utf-8")
        assert out.endswith("\n")
        return out[:-1]
    played = events(proc)
    result = played[-1]
    assert (result["type"], result["subtype"], result["is_error"]) == ("result", "success", False)
    if fmt[0] == "json":
        assert len(played) == 1
        return str(result["result"])
    texts = [e for e in played if e["type"] == "assistant"]
    if fmt[1]:
        deltas = [text_of(e) for e in texts if "timestamp_ms" in e and "model_call_id" not in e]
        assert "".join(deltas) == result["result"]
        # The end-of-turn flush, right before the result, is the turn's text since its
        # last tool call (its last pre-tool-call flush) again (docs/protocol.md §3.3).
        pre_tool = [i for i, e in enumerate(texts) if "model_call_id" in e]
        since = texts[pre_tool[-1] + 1 : -1] if pre_tool else texts[:-1]
        assert "timestamp_ms" not in played[-2]
        assert text_of(played[-2]) == "".join(text_of(e) for e in since)
    else:
        assert "".join(text_of(e) for e in texts) == result["result"]
    return str(result["result"])


# --------------------------------------------------------------------------- the replies


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
@pytest.mark.parametrize("resume", [(), (f"--resume={RESUME_ID}",)], ids=["fresh", "resumed"])
def test_json_review_ends_with_a_fenced_review(fmt: tuple[str, bool], resume: tuple[str]) -> None:
    text = reply("json_review", fmt, resume)
    assert text.endswith("\n```")
    found = last_json(text)
    assert found is not None
    assert msgspec.json.decode(found, type=Review) == REVIEW
    assert not text.startswith("```")  # prose first


def test_json_review_reads_both_files_in_parallel() -> None:
    calls = [e for e in events(play("json_review")) if e["type"] == "tool_call"]
    paths = [(c["subtype"], c["tool_call"]["readToolCall"]["args"]["path"]) for c in calls]
    assert paths == [
        ("started", "src/cart.py"),
        ("started", "tests/test_cart.py"),
        ("completed", "tests/test_cart.py"),
        ("completed", "src/cart.py"),
    ]


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_json_corrected_first_answer_is_json_but_no_review(fmt: tuple[str, bool]) -> None:
    found = last_json(reply("json_corrected", fmt))
    assert found is not None
    value = msgspec.json.decode(found)  # valid JSON...
    assert "verdict" not in value
    assert value["findings"][0]["line"] == "twelve"
    with pytest.raises(msgspec.ValidationError):  # ...that is not a review
        msgspec.json.decode(found, type=Review)


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_json_corrected_resumed_answer_is_the_review(fmt: tuple[str, bool]) -> None:
    text = reply("json_corrected", fmt, (f"--resume={RESUME_ID}",))
    found = last_json(text)
    assert found is not None
    assert msgspec.json.decode(found, type=Review) == REVIEW
    assert found == last_json(reply("json_review", fmt))


def test_json_corrected_resumed_run_continues_the_chat() -> None:
    fresh = events(play("json_corrected"))
    resumed = events(play("json_corrected", resume=(f"--resume={RESUME_ID}",)))
    assert {e["session_id"] for e in resumed if "session_id" in e} == {RESUME_ID}
    (fresh_id,) = {e["session_id"] for e in fresh if "session_id" in e}
    assert uuid.UUID(fresh_id).version == 4
    # Both turns start as a run does; only the first one reads.
    assert [e["type"] for e in resumed] == ["system", "user", "assistant", "result"]
    assert [e["type"] for e in fresh].count("tool_call") == 2


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
@pytest.mark.parametrize("resume", [(), (f"--resume={RESUME_ID}",)], ids=["fresh", "resumed"])
def test_json_never_has_no_json_value(fmt: tuple[str, bool], resume: tuple[str]) -> None:
    text = reply("json_never", fmt, resume)
    assert last_json(text) is None
    for start in (i for i, char in enumerate(text) if char in "{["):
        with pytest.raises(json.JSONDecodeError):
            json.JSONDecoder().raw_decode(text, start)


def test_json_never_first_answer_is_a_cut_fenced_block_and_the_second_prose() -> None:
    first = reply("json_never")
    assert "```json\n{" in first
    assert first.count("```") == 1
    second = reply("json_never", resume=(f"--resume={RESUME_ID}",))
    assert second.startswith("I cannot produce JSON for this.")
    assert not [mark for mark in ("{", "[", "```") if mark in second]


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
def test_json_bare_ends_with_a_bare_value(fmt: tuple[str, bool]) -> None:
    text = reply("json_bare", fmt)
    assert "```" not in text
    found = last_json(text)
    assert found is not None
    assert text.endswith(found)
    assert msgspec.json.decode(found, type=Plan) == Plan(
        steps=["multiply item.price by item.qty in total()", "add a test with qty 3"]
    )


# --------------------------------------------------------------------------- only / end_only

RESULT = {"type": "result", "subtype": "success", "is_error": False, "session_id": "s"}


def _segment(text: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return {"type": "assistant", "message": message, "session_id": "s"}


def write_scenario(tmp_path: Path, *steps: dict[str, Any]) -> str:
    path = tmp_path / "sections.ndjson"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps), encoding="utf-8")
    return str(path)


@pytest.fixture
def sections(tmp_path: Path) -> str:
    """Shared lines, a fresh-only section, a resumed-only one, a shared tail."""
    return write_scenario(
        tmp_path,
        {"type": "system", "subtype": "init", "session_id": "s"},
        {"fake": "stdout", "text": "banner"},
        {"fake": "only", "resumed": False},
        {"fake": "stdout", "text": "fresh line"},
        _segment("first try."),
        {**RESULT, "result": "first try."},
        {"fake": "end_only"},
        {"fake": "only", "resumed": True},
        {"fake": "stderr", "text": "resumed stderr"},
        _segment("second try."),
        {**RESULT, "result": "second try."},
        {"fake": "end_only"},
        {"fake": "stderr", "text": "shared tail"},
    )


RESUMES = {
    "fresh": (),
    "resume-id": ("--resume", RESUME_ID),
    "bare-resume": ("--resume",),
    "continue": ("--continue",),
}


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_IDS)
@pytest.mark.parametrize("how", list(RESUMES))
def test_only_sections_play_by_kind_of_run_in_every_format(
    sections: str, fmt: tuple[str, bool], how: str
) -> None:
    resumed = how != "fresh"
    proc = play(sections, fmt[0], fmt[1], RESUMES[how])
    assert proc.returncode == 0
    said = "second try." if resumed else "first try."
    assert proc.stderr == (b"resumed stderr\n" if resumed else b"") + b"shared tail\n"
    lines = proc.stdout.decode("utf-8").split("\n")
    raw = ["banner"] if resumed else ["banner", "fresh line"]
    assert [line for line in lines if not line.startswith("{")][:-1] == (
        [*raw, said] if fmt[0] == "text" else raw
    )
    if fmt[0] != "text":
        played = [msgspec.json.decode(line) for line in lines if line.startswith("{")]
        results = [e["result"] for e in played if e["type"] == "result"]
        assert results == [said]
        if fmt[0] == "stream-json":
            texts = [text_of(e) for e in played if e["type"] == "assistant"]
            assert "".join(texts[: len(texts) - fmt[1]]) == said  # partial: the flush last


def test_an_unclosed_only_lasts_to_the_end_and_may_end_with_exit(tmp_path: Path) -> None:
    scenario = write_scenario(
        tmp_path,
        {"fake": "only", "resumed": False},
        {"fake": "stderr", "text": "fresh"},
        {"fake": "exit", "code": 3},
        {"fake": "end_only"},
        {"fake": "only", "resumed": True},
        {"fake": "stderr", "text": "resumed"},
        {"fake": "exit", "code": 4},
    )
    fresh = play(scenario, "json")
    resumed = play(scenario, "json", resume=("--resume=x",))
    assert (fresh.returncode, fresh.stderr) == (3, b"fresh\n")
    assert (resumed.returncode, resumed.stderr) == (4, b"resumed\n")


def test_played_drops_the_markers_and_the_other_section(tmp_path: Path) -> None:
    path = Path(
        write_scenario(
            tmp_path,
            {"type": "a"},
            {"fake": "only", "resumed": True},
            {"type": "b"},
            {"fake": "end_only"},
            {"type": "c"},
        )
    )
    scenario = load_scenario(path)
    assert len(scenario.steps) == 5
    assert [s["type"] for s in scenario.played(resumed=False).steps] == ["a", "c"]
    assert [s["type"] for s in scenario.played(resumed=True).steps] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("steps", "line", "problem"),
    [
        ([{"fake": "only"}], 1, "needs 'resumed' as bool"),
        ([{"fake": "only", "resumed": 1}], 1, "needs 'resumed' as bool"),
        ([{"fake": "only", "resumed": True, "x": 1}], 1, "unknown field 'x'"),
        ([{"fake": "end_only"}], 1, "'end_only' without an open 'only' section"),
        (
            [{"fake": "only", "resumed": True}, {"fake": "only", "resumed": False}],
            2,
            r"an 'only' section is already open \(line 1\)",
        ),
        (
            [{"fake": "only", "resumed": True}, {"fake": "end_only"}, {"fake": "end_only"}],
            3,
            "'end_only' without an open 'only' section",
        ),
        # What ends a run must come last in the run that plays it, fresh or resumed.
        (
            [
                {"fake": "only", "resumed": True},
                {"fake": "exit", "code": 0},
                {"fake": "end_only"},
                {"type": "x"},
            ],
            4,
            "nothing may follow the 'exit' directive",
        ),
        (
            [{"fake": "exit", "code": 0}, {"fake": "only", "resumed": False}, {"type": "x"}],
            3,
            "nothing may follow the 'exit' directive",
        ),
    ],
)
def test_bad_sections_are_refused_when_the_scenario_loads(
    tmp_path: Path, steps: list[dict[str, Any]], line: int, problem: str
) -> None:
    path = Path(write_scenario(tmp_path, *steps))
    with pytest.raises(ScenarioError, match=f"sections.ndjson:{line}: .*{problem}"):
        load_scenario(path)


def test_a_bad_section_exits_2_before_any_output(tmp_path: Path) -> None:
    scenario = write_scenario(tmp_path, {"type": "system"}, {"fake": "end_only"})
    proc = play(scenario, "stream-json")
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"'end_only' without an open 'only' section" in proc.stderr
