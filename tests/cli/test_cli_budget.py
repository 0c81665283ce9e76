"""Budgets on the command line (docs/budgets.md): ``--budget JSON`` for a run (each task's,
in a batch), ``agent-sdk batch --fleet-budget JSON`` for all the tasks together, a tasks
file's ``options.budget`` object; a bad one is a usage error in JSON terms, and a budget
error says how to raise it with the flags."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from cli_process import cli

from agent_sdk import Budget, ErrorContext
from agent_sdk._run.spending import Hit, budget_error
from agent_sdk.cli.args import parse_run_args
from agent_sdk.cli.batch import TasksError, batch_parser, read_tasks
from agent_sdk.cli.hints import error_in_flag_terms


def usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What ``agent-sdk ARGS`` says of a bad flag (it exits with status 2)."""
    with pytest.raises(SystemExit) as exited:
        parse_run_args(list(args))
    assert exited.value.code == 2
    return capsys.readouterr().err


def test_budget_sets_the_runs_budget() -> None:
    given = '{"tool_calls": 20, "tool_calls_by_kind": {"shell": 5}, "tokens": 9000}'
    options = parse_run_args(["--budget", given, "hi"]).options
    assert options.budget == Budget(tool_calls=20, tool_calls_by_kind={"shell": 5}, tokens=9000)


def test_without_budget_a_run_has_none() -> None:
    assert parse_run_args(["hi"]).options.budget is None


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("[1", "--budget: not a JSON object: write the limits as one, e.g. '{"),
        ("[1]", "--budget: a budget is a JSON object of limits, e.g. {"),
        ('{"tool_call": 3}', "a budget has no limit 'tool_call': its limits are tool_calls,"),
        ('{"tool_calls": -1}', '{"tool_calls": -1}: a limit must be a whole number >= 0 or null'),
        ('{"turns": true}', '{"turns": true}: a limit must be a whole number >= 0 or null'),
        ('{"tool_calls_by_kind": {"shel": 1}}', "\"tool_calls_by_kind\": unknown kind 'shel'"),
        ('{"tool_calls_by_kind": [1]}', '"tool_calls_by_kind" must be a JSON object, not list'),
        # Valid JSON whose number no float holds: it was "not a JSON object" (issue 34).
        ('{"tool_calls": 1e400}', '{"tool_calls": 1e400}: the number is out of range; a limit'),
        (
            '{"tool_calls_by_kind": {"shell": -1e999}}',
            '{"tool_calls_by_kind": {"shell": -1e999}}: the number is out of range; a limit',
        ),
        ("1e400", "--budget: 1e400: the number is out of range; a budget is a JSON object"),
    ],
)
def test_a_bad_budget_is_a_usage_error_in_json_terms(
    capsys: pytest.CaptureFixture[str], given: str, said: str
) -> None:
    err = usage_error(capsys, "--budget", given, "hi")
    assert said in err
    assert "Budget(" not in err
    assert "None" not in err


def spent(scope: str, kind: str | None = None) -> str:
    hit = Hit("tool_calls_by_kind" if kind else "tool_calls", kind, 4, 3, scope)
    context = ErrorContext(session_id="S1")
    return error_in_flag_terms(budget_error(hit, context, then="its process group was ended"))


def test_a_runs_budget_error_says_to_raise_it_with_the_budget_flag() -> None:
    said = spent("run")
    assert '({"tool_calls": 3})' in said  # the limit, as the flag writes it
    assert 'Hint: raise it in --budget JSON, e.g. {"tool_calls": 6}' in said
    assert "--resume S1" in said
    assert "Budget(" not in said
    assert "AgentOptions" not in said


def test_a_fleets_budget_error_says_to_raise_it_with_the_fleet_budget_flag() -> None:
    said = spent("fleet", kind="shell")
    assert 'raise it in --fleet-budget JSON, e.g. {"tool_calls_by_kind": {"shell": 6}}' in said
    assert "Budget(" not in said
    assert "Fleet(" not in said


def test_a_tasks_file_gives_a_task_its_own_budget_over_the_flags() -> None:
    text = '{"prompt": "a", "options": {"budget": {"tool_calls": 2}}}\n{"prompt": "b"}\n'
    first, second = read_tasks(text, {"budget": Budget(turns=1)})
    assert first.options is not None
    assert second.options is not None
    assert first.options.budget == Budget(tool_calls=2)
    assert second.options.budget == Budget(turns=1)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"budget": 3}, "line 1: options: budget: a budget is a JSON object of limits"),
        ({"budget": {"tokens": -5}}, 'line 1: options: budget: {"tokens": -5}: a limit must be'),
        ({"tools": ["lookup"]}, "line 1: options: tools are Python functions, which a tasks"),
        ({"hooks": {}}, "line 1: options: hooks are Python functions, which a tasks file"),
    ],
)
def test_a_tasks_file_refuses_a_bad_budget_and_python_functions(
    options: dict[str, object], said: str
) -> None:
    with pytest.raises(TasksError) as refused:
        read_tasks(json.dumps({"prompt": "a", "options": options}), {}, name="TASKS")
    assert said in str(refused.value)


def test_fleet_budget_is_the_batchs_budget_over_all_its_tasks() -> None:
    args = batch_parser().parse_args(["--fleet-budget", '{"tool_calls": 100}', "tasks.jsonl"])
    assert args.fleet_budget == Budget(tool_calls=100)
    assert batch_parser().parse_args(["tasks.jsonl"]).fleet_budget is None


def test_a_run_over_its_budget_exits_1_saying_so_in_flag_terms() -> None:
    done = cli("--fake", "tools", "--budget", '{"tool_calls": 1}', "hi")
    assert done.returncode == 1
    assert "the run's budget is spent: the agent started tool call 2, over the 1" in done.stderr
    assert 'raise it in --budget JSON, e.g. {"tool_calls": 2}' in done.stderr


def test_a_batch_over_its_fleet_budget_fails_the_task_that_went_over(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"prompt": "a", "id": "a"}\n{"prompt": "b", "id": "b"}\n')
    budget = '{"tool_calls": 3}'
    done = cli("batch", "--fake", "tools", "--limit", "1", "--fleet-budget", budget, str(tasks))
    assert done.returncode == 1
    assert "the fleet's budget is spent: the agent started tool call 4, over the 3" in done.stderr
    assert "raise it in --fleet-budget JSON" in done.stderr


def test_a_tasks_file_budget_that_runs_out_says_to_raise_it_in_the_tasks_file(
    tmp_path: Path,
) -> None:
    # Issue 35: a budget written in the file's options.budget was to be raised "in
    # --budget JSON", a flag the command line never had. Each error names where its
    # budget was set: the task's line, or the flag.
    tasks = tmp_path / "tasks.jsonl"
    own = {"prompt": "a", "id": "own", "options": {"budget": {"tool_calls": 1}}}
    tasks.write_text(json.dumps(own) + '\n{"prompt": "b", "id": "flag"}\n')
    report = tmp_path / "report.html"
    budget = '{"tool_calls": 1}'
    done = cli(
        "batch", "--fake", "tools", "--budget", budget, "--json", "--html", str(report), str(tasks)
    )
    assert done.returncode == 1
    in_file = f"raise it in options.budget of task 'own' ({tasks} line 1), e.g. "
    in_file += '{"tool_calls": 2}'
    by_flag = 'raise it in --budget JSON, e.g. {"tool_calls": 2}'
    # Off a terminal, each task's line as it ends, then why and the hint under it.
    blocks = ("\n" + done.stderr).split("\n✗ ")
    assert [b for b in blocks if b.startswith("own ") and in_file in b]
    assert done.stderr.count(in_file) == 1
    assert done.stderr.count(by_flag) == 1
    hints = {r["id"]: r["error"]["hint"] for r in json.loads(done.stdout)["results"]}
    assert hints["own"].startswith(in_file)
    assert hints["flag"].startswith(by_flag)
    page = report.read_text(encoding="utf-8")
    assert html.escape(in_file, quote=True) in page
