"""The fake's last reply, decided by the test (``FAKE_AGENT_REPLY``, ``fake_cursor_agent.reply``)
or by a prompt that asks for JSON (an example value of the schema): docs/output.md,
"Testing on the fake agent"."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from typing import Annotated, Any, Literal, TypedDict

import msgspec
import pytest
from fake_env import fake_env

import fake_agent
from agent_sdk import AgentOutputError, run_sync
from agent_sdk._run.output import instruction
from agent_sdk.testing import FakeAgent
from fake_agent._reply import example_of


class Finding(msgspec.Struct):
    file: str
    line: int
    severity: Literal["minor", "major", "critical"]
    message: str


class Review(msgspec.Struct):
    verdict: Literal["approve", "request_changes"]
    summary: str
    findings: list[Finding]


@dataclasses.dataclass
class Point:
    x: float
    y: float
    label: str | None = None


class Movie(TypedDict):
    title: str
    year: int
    tags: list[str]


class Bounded(msgspec.Struct):
    count: Annotated[int, msgspec.Meta(ge=5)]
    name: Annotated[str, msgspec.Meta(min_length=12)]
    items: Annotated[list[bool], msgspec.Meta(min_length=2)]


@pytest.mark.parametrize(
    "output_type",
    [Review, Point, Movie, list[int], dict[str, float], Literal["yes", "no"], Bounded],
    ids=["struct", "dataclass", "typeddict", "list", "dict", "literal", "constraints"],
)
def test_the_example_value_of_a_schema_decodes_as_its_type(output_type: Any) -> None:
    schema = msgspec.json.schema(output_type)
    value = example_of(schema, schema)
    msgspec.json.decode(json.dumps(value), type=output_type)


def play(prompt: str, **env: str) -> dict[str, Any]:
    """The fake's json output for ``prompt``, with ``env`` added."""
    done = subprocess.run(
        [fake_agent.executable(), "--print", "--output-format", "json", "--trust", prompt],
        env=fake_env(**env),
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_prompt_asking_for_json_gets_an_example_of_its_schema() -> None:
    said = play("Review the cart" + instruction(Review))["result"]
    assert "```json" in said
    review = msgspec.json.decode(said.split("```json")[1].split("```")[0], type=Review)
    assert review.verdict == "approve"


def test_a_scenario_with_its_own_json_answer_is_played_as_written() -> None:
    said = play("Review the cart" + instruction(Review), FAKE_AGENT_SCENARIO="json_review")
    assert "request_changes" in said["result"]


def test_a_prompt_without_a_schema_gets_the_scenario_reply() -> None:
    assert play("Add a test", FAKE_AGENT_SCENARIO="hello")["result"] == "Done. I added the test."


def test_the_reply_variable_replaces_the_last_reply_only() -> None:
    said = play("Add a test", FAKE_AGENT_SCENARIO="cart", FAKE_AGENT_REPLY="All done.")["result"]
    assert said.endswith("All done.")
    assert "The test is added and passes." not in said


def test_a_users_output_type_runs_on_the_fake_as_it_is(fake_cursor_agent: FakeAgent) -> None:
    review = run_sync("Review the cart module", output_type=Review).output
    assert isinstance(review, Review)


def test_the_fixture_gives_a_test_the_reply_it_wants(fake_cursor_agent: FakeAgent) -> None:
    fake_cursor_agent.reply('{"verdict": "request_changes", "summary": "no", "findings": []}')
    review = run_sync("Review the cart module", output_type=Review).output
    assert review.verdict == "request_changes"


def test_a_reply_that_never_fits_ends_in_an_output_error(fake_cursor_agent: FakeAgent) -> None:
    fake_cursor_agent.reply('{"verdict": "maybe"}')
    with pytest.raises(AgentOutputError):
        run_sync("Review the cart module", output_type=Review)


def test_a_scenario_whose_result_alone_holds_json_is_played_as_written(tmp_path: Any) -> None:
    scenario = tmp_path / "only_result.ndjson"
    result = {"type": "result", "subtype": "success", "is_error": False, "session_id": "s"}
    result["result"] = '```json\n{"verdict": "maybe"}\n```'
    scenario.write_text(json.dumps(result) + "\n")
    said = play("Review" + instruction(Review), FAKE_AGENT_SCENARIO=str(scenario))
    assert said["result"] == result["result"]
