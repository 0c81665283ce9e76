"""Structured output without I/O (agent_sdk/_run/output.py): the instruction, the JSON value
taken from a reply, its check against the caller's type."""

from __future__ import annotations

import json

import msgspec
import pytest

from agent_sdk._run.output import (
    OutputMismatchError,
    correction,
    extract_json,
    instruction,
    parse_output,
    schema_text,
)


class Finding(msgspec.Struct):
    file: str
    line: int
    message: str


class Review(msgspec.Struct):
    verdict: str
    findings: list[Finding]


REVIEW = '{"verdict": "approve", "findings": [{"file": "a.py", "line": 3, "message": "ok"}]}'


def test_the_instruction_holds_the_types_json_schema() -> None:
    text = instruction(Review)
    assert "```json" in text
    schema = json.loads(schema_text(Review))
    assert schema == msgspec.json.schema(Review)
    assert schema_text(Review) in text


def test_the_correction_quotes_the_problem() -> None:
    assert "Expected `int`" in correction("Expected `int`, got `str` - at `$.line`")


def test_the_last_json_fence_is_taken() -> None:
    reply = f'First: ```json\n{{"a": 1}}\n```\nThen, final:\n```json\n{REVIEW}\n```\n'
    assert extract_json(reply) == REVIEW


def test_a_json_fence_is_taken_even_when_it_does_not_parse() -> None:
    assert extract_json('```json\n{"a": 1,}\n```') == '{"a": 1,}'


def test_an_unmarked_fence_is_taken_when_it_parses() -> None:
    reply = f"```python\nprint(1)\n```\n```\n{REVIEW}\n```"
    assert extract_json(reply) == REVIEW


def test_a_bare_value_at_the_end_is_taken_with_text_around_it() -> None:
    reply = f"See [the docs]. Here it is: {REVIEW} Hope that helps."
    assert extract_json(reply) == REVIEW


def test_a_reply_without_json_has_none() -> None:
    assert extract_json("I cannot produce JSON for this.") is None


def test_a_fitting_value_decodes_to_the_type() -> None:
    review = parse_output(f"Done.\n```json\n{REVIEW}\n```", Review)
    assert review == Review("approve", [Finding("a.py", 3, "ok")])


def test_a_value_of_the_wrong_shape_says_where() -> None:
    bad = REVIEW.replace('"line": 3', '"line": "three"')
    with pytest.raises(OutputMismatchError) as info:
        parse_output(f"```json\n{bad}\n```", Review)
    assert "Expected `int`, got `str` - at `$.findings[0].line`" in info.value.problem
    assert info.value.json == bad


def test_json_that_does_not_parse_says_so() -> None:
    with pytest.raises(OutputMismatchError, match="does not parse") as info:
        parse_output('```json\n{"verdict": "approve",}\n```', Review)
    assert info.value.json == '{"verdict": "approve",}'


def test_no_json_at_all_says_so() -> None:
    with pytest.raises(OutputMismatchError, match="holds no JSON value") as info:
        parse_output("Sorry.", Review)
    assert info.value.json is None


def test_other_types_msgspec_decodes_work_too() -> None:
    assert parse_output("```json\n[1, 2]\n```", list[int]) == [1, 2]
