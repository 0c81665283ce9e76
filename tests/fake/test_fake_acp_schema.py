"""The fake's ACP mode against the official ACP v1 JSON schema (tests/acp_schema.py): every
message it sends, in every scenario and in both of its shapes (Cursor's, and the v1
schema's with ``FAKE_AGENT_ACP_SHAPES=v1``, docs/acp.md §3.5, §3.8), is one the schema
allows, but the ones a scenario breaks on purpose. Driven over pipes as the fake's other
ACP tests are (tests/fake/acp_client.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from acp_client import INIT, Client, Message
from acp_schema import SchemaError, check
from pid_log import PidLog

SCENARIOS = Path(__file__).parents[2] / "fake_agent" / "scenarios" / "acp"
#: What a scenario sends outside the schema on purpose (§3.9: unknown kinds pass through).
BROKEN_ON_PURPOSE = {"unknown_updates": ["future_kind", "current_mode_update"]}
#: Scenarios that go on until cancelled (a shell command holds them, where the session's
#: cwd exists: here it does not, and the command fails at once).
ENDLESS = {"slow", "flood", "shell_sleep", "shell_ignoring_hangup", "left_behind"}
#: A client that takes boolean config options (v1 schema, §3.8).
BOOLEANS: Message = {**INIT, "clientCapabilities": {
    **INIT["clientCapabilities"], "session": {"configOptions": {"boolean": {}}}
}}  # fmt: skip


class Checked(Client):
    """A client of the fake that checks each message the fake sends against the schema:
    a response by the method of the request it answers."""

    def __init__(self, *args: str, **env: str) -> None:
        super().__init__(*args, **env)
        self.asked: dict[int, str] = {}
        self.invalid: list[tuple[Message, str]] = []
        self.broken_lines = 0

    def request(self, method: str, params: Message | None = None) -> int:
        request_id = super().request(method, params)
        self.asked[request_id] = method
        return request_id

    def read(self) -> Message:
        while True:
            try:
                message = super().read()
            except json.JSONDecodeError:
                self.broken_lines += 1  # a scenario's raw broken line (§1)
                continue
            method = None if "method" in message else self.asked.get(message.get("id", -1))
            try:
                check(message, method)
            except SchemaError as error:
                self.invalid.append((message, str(error)))
            return message


@pytest.fixture
def checked(tmp_path: Path) -> Iterator[Checked]:
    # Some scenarios leave processes outside the fake's group (a daemon): logged, ended.
    log = PidLog(tmp_path / "pids")
    fake = Checked(**log.env())
    try:
        yield fake
    finally:
        fake.kill()
        log.end()


@pytest.fixture
def v1() -> Iterator[Checked]:
    fake = Checked(FAKE_AGENT_ACP_SHAPES="v1")
    try:
        yield fake
    finally:
        fake.kill()


def open_session(client: Checked, init: Message = INIT) -> str:
    client.call("initialize", init)
    result = client.call("session/new", {"cwd": "/home/dev/shop", "mcpServers": []})["result"]
    client.read()  # the command list
    return str(result["sessionId"])


def play(client: Checked, session_id: str, name: str) -> Message | None:
    """One prompt of scenario ``name`` to its answer (``None``: the fake died), answering
    the agent's requests: permissions allowed once, ``cursor/*`` cancelled."""
    params = {"sessionId": session_id, "prompt": [{"type": "text", "text": f"scenario:{name}"}]}
    prompt_id = client.request("session/prompt", params)
    cancelled = False
    while True:
        try:
            message = client.read()
        except AssertionError:  # stdout closed: the scenario ended the process
            return None
        if message.get("id") == prompt_id and "method" not in message:
            return message
        if "id" in message and "method" in message:
            if message["method"] == "session/request_permission":
                outcome: Any = {"outcome": "selected", "optionId": "allow-once"}
            else:
                outcome = {"outcome": "cancelled"}
            client.send({"id": message["id"], "result": {"outcome": outcome}})
        elif name in ENDLESS and not cancelled:
            client.notify("session/cancel", {"sessionId": session_id})
            cancelled = True


def scenario_names() -> list[str]:
    return sorted(path.stem for path in SCENARIOS.glob("*.ndjson"))


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_sends_what_the_v1_schema_allows(checked: Checked, name: str) -> None:
    session_id = open_session(checked)
    answer = play(checked, session_id, name)
    if name == "crash":
        assert answer is None
    else:
        assert answer is not None
    kinds = [m["params"]["update"].get("sessionUpdate") for m, _ in checked.invalid]
    assert kinds == BROKEN_ON_PURPOSE.get(name, []), checked.invalid


@pytest.mark.parametrize("shapes", ["cursor", "v1"])
def test_the_fakes_answers_are_valid_under_the_v1_schema(shapes: str) -> None:
    client = Checked(FAKE_AGENT_ACP_SHAPES=shapes)
    try:
        assert "result" in client.call("authenticate", {"methodId": "cursor_login"})
        session_id = open_session(client, BOOLEANS)
        session = {"sessionId": session_id}
        client.until_response(client.request("session/set_mode", {**session, "modeId": "plan"}))
        model = {**session, "configId": "model", "value": "composer-1.5[]"}
        assert "result" in client.call("session/set_config_option", model)
        fast = {**session, "configId": "fast", "type": "boolean", "value": True}
        assert ("error" in client.call("session/set_config_option", fast)) is (shapes != "v1")
        assert play(client, session_id, "v1_shapes") is not None
        listed = client.call("session/list", {})["result"]["sessions"]
        assert [s["sessionId"] for s in listed] == [session_id]
        load = {**session, "cwd": "/", "mcpServers": []}
        assert "result" in client.until_response(client.request("session/load", load))[1]
        unknown = {**session, "configId": "x", "value": "y"}
        assert "error" in client.call("session/set_config_option", unknown)
        assert client.invalid == []
    finally:
        client.kill()


# --- the v1 mode's own shapes (§3.5, §3.8) ------------------------------------------------
def test_v1_shapes_group_the_model_choices(v1: Checked) -> None:
    v1.call("initialize", INIT)
    result = v1.call("session/new", {"cwd": "/tmp", "mcpServers": []})["result"]
    model = next(o for o in result["configOptions"] if o["id"] == "model")
    assert [g["group"] for g in model["options"]] == ["auto", "openai", "anthropic", "cursor"]
    assert model["options"][0]["options"] == [{"value": "default[]", "name": "Auto"}]
    assert [o["id"] for o in result["configOptions"]] == ["mode", "model"]  # no boolean asked
    assert v1.invalid == []


def test_v1_shapes_offer_a_boolean_to_a_client_that_takes_them(v1: Checked) -> None:
    session_id = open_session(v1, BOOLEANS)
    session = {"sessionId": session_id, "configId": "fast"}
    untyped = v1.call("session/set_config_option", {**session, "value": True})
    assert untyped["error"]["code"] == -32602
    options = v1.call("session/set_config_option", {**session, "type": "boolean", "value": True})
    fast = next(o for o in options["result"]["configOptions"] if o["id"] == "fast")
    assert (fast["type"], fast["currentValue"], fast["description"]) == ("boolean", True, None)
    assert v1.invalid == []


def test_v1_shapes_list_a_session_without_a_title_as_null(v1: Checked) -> None:
    session_id = open_session(v1)
    assert play(v1, session_id, "v1_shapes") is not None  # it ends by clearing the title
    (listed,) = v1.call("session/list", {})["result"]["sessions"]
    assert (listed["sessionId"], listed["title"]) == (session_id, None)
    assert listed["updatedAt"]
    assert v1.invalid == []


def test_cursor_shapes_keep_the_fakes_own_title_and_flat_choices(checked: Checked) -> None:
    session_id = open_session(checked)
    assert play(checked, session_id, "hello") is not None
    (listed,) = checked.call("session/list", {})["result"]["sessions"]
    assert isinstance(listed["title"], str)
    assert listed["title"]
