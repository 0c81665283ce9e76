"""What a hook's answer does in the fake's print mode, and what the stream shows of it
(docs/protocol.md §6.4-§6.5): exit 2 or a deny blocks the call with the CLI's words and its
agent note, ``updated_input`` changes the call, postToolUse's context lands in
``hookAdditionalContexts``; a failed hook (another exit, an answer that is not a JSON
object, a timeout) lets the call through unless ``failClosed``, and a hook past its timeout
or its fake's SIGTERM is killed.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

from fake_env import fake_env
from hook_place import (
    DELETE,
    NOTE,
    SHELL,
    SHELL_BLOCKED,
    WAIT,
    WRITE,
    Place,
    completed,
    place_fixture,  # noqa: F401  (the fixture ``place``)
    result,
)
from proctable import is_running, settles

from fake_agent import SCENARIOS_DIR

# ----------------------------------------------------------------------------- answers


def test_exit_2_blocks_with_the_hooks_stderr_and_the_agent_note(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(exit=2, err="REASON-EXIT2\n")])
    proc = place.run(WRITE)
    target = str(place.workspace / "notes.txt")
    reason = f"Hook blocked with message: REASON-EXIT2\n\n{NOTE}"
    assert result(proc) == {"rejected": {"path": target, "reason": reason}}
    assert not (place.workspace / "notes.txt").exists()


def test_a_deny_with_snake_case_user_message_shows_the_words(place: Place) -> None:
    answer = {"permission": "deny", "user_message": "Only files under src/ may change"}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    reason = result(place.run(WRITE))["rejected"]["reason"]
    assert reason == f"Only files under src/ may change\n\n{NOTE}"


def test_a_deny_with_camel_case_words_shows_the_clis_own_sentence(place: Place) -> None:
    answer = {"permission": "deny", "userMessage": "dropped", "agentMessage": "dropped"}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    reason = result(place.run(SHELL))["rejected"]["reason"]
    assert reason == f"Shell blocked by preToolUse hook\n\n{NOTE}"


def test_a_claude_style_deny_shows_its_reason(place: Place) -> None:
    specific = {"permissionDecision": "deny", "permissionDecisionReason": "not today"}
    place.hooks(place.home, preToolUse=[place.hook(answer={"hookSpecificOutput": specific})])
    assert result(place.run(DELETE)) == {"rejected": {"path": "", "reason": f"not today\n\n{NOTE}"}}


def test_a_before_shell_execution_deny_shows_the_fixed_paragraphs(place: Place) -> None:
    answer = {"permission": "deny", "user_message": "no builds now"}
    place.hooks(place.home, beforeShellExecution=[place.hook(answer=answer)])
    rejected = result(place.run(SHELL))["rejected"]
    assert rejected == {
        "command": "echo built",
        "workingDirectory": str(place.workspace),
        "isReadonly": False,
        "reason": SHELL_BLOCKED,
    }


def test_updated_input_changes_what_is_written(place: Place) -> None:
    answer = {"permission": "allow", "updated_input": {"content": "changed\n"}}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    place.run(WRITE)
    assert (place.workspace / "notes.txt").read_text() == "changed\n"


def test_updated_input_changes_the_shell_command(place: Place) -> None:
    answer = {"updated_input": {"command": "echo safer"}}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    assert result(place.run(SHELL))["success"]["stdout"] == "safer\n"


def test_post_tool_use_context_lands_in_hook_additional_contexts(place: Place) -> None:
    answer = {"additional_context": "Edits here need a ticket."}
    place.hooks(place.home, postToolUse=[place.hook(answer=answer)])
    assert completed(place.run(WRITE))["hookAdditionalContexts"] == ["Edits here need a ticket."]


def test_another_non_zero_exit_lets_the_call_through(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(exit=1, answer={"permission": "deny"})])
    assert "success" in result(place.run(WRITE))


def test_a_failed_hook_with_fail_closed_blocks(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(exit=1, failClosed=True)])
    reason = result(place.run(WRITE))["rejected"]["reason"]
    assert reason == f"Write blocked by preToolUse hook\n\n{NOTE}"


def test_an_answer_that_is_not_json_lets_the_call_through(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(answer="deny, please")])
    assert "success" in result(place.run(WRITE))


def test_a_hook_past_its_timeout_is_killed_and_the_call_goes_ahead(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(sleep=60, timeout=0.5)])
    proc = place.run(WRITE)
    assert "success" in result(proc)
    assert settles(lambda: not is_running(place.seen()[0]["pid"]))


def test_sigterm_to_the_fake_kills_a_running_hook(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(sleep=60)])
    hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
    scenario = place.root / "scenario.ndjson"
    scenario.write_text("\n".join([*hello[:2], json.dumps(WRITE)]) + "\n", "utf-8")
    env = fake_env(HOME=str(place.home), FAKE_AGENT_SCENARIO=str(scenario))
    argv = ["-p", "-f", "--output-format", "stream-json", "--workspace", str(place.workspace)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "fake_agent", *argv, "go"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    assert settles(lambda: bool(place.seen()), within=WAIT)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(WAIT) == -signal.SIGTERM
    assert settles(lambda: not is_running(place.seen()[0]["pid"]))


def test_a_hook_past_its_timeout_with_fail_closed_blocks(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(sleep=60, timeout=0.5, failClosed=True)])
    assert "rejected" in result(place.run(WRITE))


def test_an_answer_that_is_a_json_array_is_a_failed_hook(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(answer=[{"permission": "deny"}])])
    assert "success" in result(place.run(WRITE))
