"""``agent-sdk batch TASKS.jsonl``'s file and flags, checked before anything runs
(docs/cli.md): a bad line named with what is wrong (a line nested 100,000 deep too), the
flags' options as each task's defaults, a repo needed on every line for worktrees, bad
flags and a missing file as usage errors (exit 2), and no task started meanwhile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_tasks import scenario, write_tasks
from cli_process import cli

from agent_sdk.cli.batch import TasksError, read_tasks


# --- the file, checked before anything runs -------------------------------------------
@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ('{"promt": "b"}', "TASKS line 2: Object contains unknown field `promt`"),
        ('{"id": "b"}', "TASKS line 2: Object missing required field `prompt`"),
        ('{"prompt": "b"', "TASKS line 2: not a JSON object"),
        ("[1, 2]", "TASKS line 2: Expected `object`, got `array`"),
        ('{"prompt": 3}', "TASKS line 2: Expected `str`, got `int` - at `$.prompt`"),
        ('{"prompt": "  "}', "TASKS line 2: the prompt is empty"),
        (
            '{"prompt": "b", "options": {"forse": true}}',
            "TASKS line 2: options: AgentOptions has no option 'forse'; did you mean 'force'?",
        ),
        (
            '{"prompt": "b", "options": {"timeout": -1}}',
            "TASKS line 2: options: AgentOptions(timeout=-1)",
        ),
        ('{"prompt": "b", "id": "a"}', "TASKS line 2: the id 'a' is already line 1's"),
        ('{"prompt": "b", "id": "task-1"}', "TASKS line 2: the id 'task-1' is already"),
    ],
)
def test_a_bad_line_is_named_with_what_is_wrong(bad: str, said: str) -> None:
    first = '{"prompt": "a", "id": "a"}' if "'a'" in said else '{"prompt": "a"}'
    with pytest.raises(TasksError) as caught:
        read_tasks(f"{first}\n{bad}\n", {}, name="TASKS")
    assert str(caught.value).startswith(said), str(caught.value)


def test_the_flags_options_are_the_defaults_of_each_task_and_its_own_go_over_them() -> None:
    text = "\n".join(
        [
            '{"prompt": "a"}',
            "",  # blank lines are skipped, and still counted
            '{"prompt": "b", "id": "b", "options": {"model": "sonnet-4", "env": {"B": "2"}}}',
        ]
    )
    defaults = {"model": "gpt-5", "force": True, "env": {"A": "1"}}
    first, second = read_tasks(text, defaults)
    assert first.id == "task-1"
    assert first.options is not None
    assert (first.options.model, first.options.force) == ("gpt-5", True)
    assert second.id == "b"
    assert second.options is not None
    assert (second.options.model, second.options.force) == ("sonnet-4", True)
    assert dict(second.options.env or {}) == {"A": "1", "B": "2"}


def test_worktree_isolation_needs_a_repo_on_every_line() -> None:
    with pytest.raises(TasksError, match='TASKS line 1: --isolate worktree needs a "repo"'):
        read_tasks('{"prompt": "a"}', {}, worktrees=True, name="TASKS")


def test_a_bad_line_is_a_usage_error_before_any_task_runs(tmp_path: Path) -> None:
    counter = tmp_path / "ran"
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        {"prompt": "a", "options": scenario("flaky_start", FAKE_AGENT_COUNTER=str(counter))},
        '{"prompt": "b", "optoins": {}}',
    )
    done = cli("batch", "--fake", "--json", str(tasks))
    assert done.returncode == 2
    said = f"agent-sdk batch: error: {tasks} line 2: Object contains unknown field `optoins`"
    assert said in done.stderr
    assert done.stdout == ""
    assert not counter.exists()  # the first task never started


@pytest.mark.parametrize(
    "deep",
    ["[" * 100_000, '{"prompt": "b", "options": {"env": ' + "[" * 100_000 + "}}"],
    ids=["the line", "a value"],
)
def test_a_line_nested_too_deep_is_a_usage_error_naming_it(tmp_path: Path, deep: str) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"prompt": "a"}, deep)
    done = cli("batch", "--fake", "--json", str(tasks))
    assert done.returncode == 2, done.stderr
    assert f"agent-sdk batch: error: {tasks} line 2: " in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--isolate", "config,box"], "--isolate: unknown box"),
        (["--limit", "0"], "--limit must be at least 1"),
        (["--retries", "-1"], "--retries must be 0 or more"),
        (["--html", "/no/such/dir/r.html"], "--html: no directory"),
        (["--fake", "--binary", "x"], "--fake and --binary exclude each other"),
    ],
)
def test_bad_flags_are_usage_errors(tmp_path: Path, args: list[str], said: str) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", {"prompt": "a"})
    done = cli("batch", str(tasks), *args)
    assert done.returncode == 2
    assert said in done.stderr


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    done = cli("batch", "--fake", str(tmp_path / "none.jsonl"))
    assert done.returncode == 2
    said = (
        f"agent-sdk batch: error: cannot read {tmp_path / 'none.jsonl'}: No such file or directory"
    )
    assert done.stderr.splitlines()[0] == said  # the OS's words, not Python's repr of them
