"""The fake's ``shell`` directive (docs/protocol.md §3.4; fake_agent/scenarios/README.md):
under ``--force`` its command really runs in the workspace (the one a hook changed, if one
did), its output and exit code in the outcome; without ``--force`` it is rejected with an
empty reason and nothing runs.
"""

from __future__ import annotations

from hook_place import (
    SHELL,
    Place,
    place_fixture,  # noqa: F401  (the fixture ``place``)
    result,
)

# ----------------------------------------------------------------------------- the shell directive


def test_shell_answers_an_echo_itself_with_force(place: Place) -> None:
    success = result(place.run(SHELL))["success"]
    assert (success["stdout"], success["exitCode"]) == ("built\n", 0)


def test_shell_without_force_is_rejected_with_an_empty_reason(place: Place) -> None:
    rejected = result(place.run(SHELL, flags=("--trust",)))["rejected"]
    assert rejected["reason"] == ""


def test_shell_runs_any_command_for_real(place: Place) -> None:
    success = result(place.run({"fake": "shell", "command": "echo one > f; cat f; exit 4"}))
    assert (success["success"]["stdout"], success["success"]["exitCode"]) == ("one\n", 4)
    assert (place.workspace / "f").read_text() == "one\n"


def test_a_command_a_hook_changed_runs_as_changed(place: Place) -> None:
    answer = {"updated_input": {"command": "printf changed > f"}}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    assert result(place.run(SHELL))["success"]["stdout"] == ""
    assert (place.workspace / "f").read_text() == "changed"
