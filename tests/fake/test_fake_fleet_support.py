"""The fake as a fleet meets it (docs/protocol.md §1, "Many runs at once"): the real race
on the config file, the login kept in the config dir, and tasks that fail their first
attempts (``fail_first``, counted in ``$FAKE_AGENT_COUNTER``).

File changes (``write_file``, ``delete_file``, ``fix_tests``) are in
tests/fake/test_fake_files.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fake_env import ROOT, fake_env

from fake_agent import SCENARIOS_DIR

#: Seconds between writing the temp config and renaming it, in the race tests: large
#: next to a fake's start-up (tens of milliseconds), so runs started together overlap.
RACE_WINDOW = "1.5"
RUNS = 8
WAIT = 60  # seconds: a bound that fails a hung test, not a timing assertion


def fake_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "fake_agent", "-p", "--trust", *args]


def run(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    """One run of the fake with ``env`` on top of a clean environment."""
    return subprocess.run(
        [*fake_cmd(*args), "--", "go"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=fake_env(**env),
        cwd=cwd or ROOT,
        timeout=WAIT,
        check=False,
    )


def run_together(envs: list[dict[str, str]], *args: str) -> list[tuple[int, bytes, bytes]]:
    """Start one fake per environment, all at once; then wait for every one."""
    procs = [
        subprocess.Popen(
            [*fake_cmd(*args), "--", "go"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=fake_env(**env),
            cwd=ROOT,
        )
        for env in envs
    ]
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=WAIT)
            done.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            proc.kill()
            proc.communicate()
    return done


def race_line(directory: Path) -> bytes:
    final = directory / "cli-config.json"
    return f"Error: ENOENT: no such file or directory, rename '{final}.tmp' -> '{final}'\n".encode()


def events(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.split(b"\n") if line.startswith(b"{")]


def scenario_file(tmp_path: Path, *steps: dict[str, Any], base: str = "hello") -> Path:
    """A scenario: ``steps``, then the lines of the bundled ``base``."""
    lines = [json.dumps(step) for step in steps]
    lines += (SCENARIOS_DIR / f"{base}.ndjson").read_text("utf-8").splitlines()
    path = tmp_path / "scenario.ndjson"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def stderr_of_scenario(name: str) -> bytes:
    """What the bundled scenario writes to stderr (its ``stderr`` directives)."""
    steps = [
        json.loads(line)
        for line in (SCENARIOS_DIR / f"{name}.ndjson").read_text("utf-8").splitlines()
    ]
    return "".join(s["text"] + "\n" for s in steps if s.get("fake") == "stderr").encode()


# --------------------------------------------------------------------------- config file


def test_runs_sharing_a_config_dir_really_race(tmp_path: Path) -> None:
    shared = tmp_path / "cursor"
    shared.mkdir()
    (shared / "cli-config.json").write_text('{"editor": {"vimMode": true}}')
    env = {"CURSOR_CONFIG_DIR": str(shared), "FAKE_AGENT_CONFIG_WRITE_DELAY": RACE_WINDOW}
    results = run_together([env] * RUNS, "--output-format", "stream-json")
    losers = [r for r in results if r[0] == 1]
    winners = [r for r in results if r[0] == 0]
    assert len(losers) + len(winners) == RUNS, results
    assert losers, "no run lost the race on a shared config dir"
    assert winners, "every run lost: the first rename must win"
    for _, out, err in losers:
        assert (out, err) == (b"", race_line(shared))
    for _, out, _ in winners:
        assert events(out)[-1]["type"] == "result"
    config = json.loads((shared / "cli-config.json").read_text())
    assert config["editor"] == {"vimMode": True}
    assert isinstance(config["lastRunStartedAtMs"], int)


def test_runs_with_a_config_dir_each_never_race(tmp_path: Path) -> None:
    dirs = [tmp_path / f"cursor-{n}" for n in range(RUNS)]
    envs = [
        {"CURSOR_CONFIG_DIR": str(d), "FAKE_AGENT_CONFIG_WRITE_DELAY": RACE_WINDOW} for d in dirs
    ]
    results = run_together(envs, "--output-format", "json")
    assert [(code, err) for code, _, err in results] == [(0, b"")] * RUNS
    for directory in dirs:
        assert sorted(p.name for p in directory.iterdir()) == ["cli-config.json"]
        assert json.loads((directory / "cli-config.json").read_text())["version"] == 1


@pytest.mark.parametrize("fmt", ["text", "stream-json"])
def test_a_run_whose_temp_config_vanishes_loses_in_every_format(tmp_path: Path, fmt: str) -> None:
    # Take the temp file away while the fake sleeps between write and rename, as a
    # faster run would: it must fail exactly as the real CLI does. The window is long
    # next to the polling below; the fake only notices once it is over.
    cfg = tmp_path / "cursor"
    env = fake_env(CURSOR_CONFIG_DIR=str(cfg), FAKE_AGENT_CONFIG_WRITE_DELAY="2")
    with subprocess.Popen(
        [*fake_cmd("--output-format", fmt), "--", "go"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    ) as proc:
        try:
            tmp = cfg / "cli-config.json.tmp"
            for _ in range(WAIT * 100):
                if tmp.exists() or proc.poll() is not None:
                    break
                time.sleep(0.01)
            tmp.unlink()
            out, err = proc.communicate(timeout=WAIT)
        finally:
            proc.kill()
    assert (proc.returncode, out, err) == (1, b"", race_line(cfg))
    assert not (cfg / "cli-config.json").exists()


def test_without_config_dir_the_home_directory_is_never_touched(tmp_path: Path) -> None:
    proc = run("--output-format", "json", HOME=str(tmp_path), FAKE_AGENT_CONFIG_WRITE_DELAY="0.01")
    assert proc.returncode == 0
    assert list(tmp_path.iterdir()) == []


def test_a_config_that_is_not_an_object_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "cli-config.json").write_text("[1, 2")
    assert run("--output-format", "json", CURSOR_CONFIG_DIR=str(tmp_path)).returncode == 0
    assert set(json.loads((tmp_path / "cli-config.json").read_text())) == {
        "version",
        "lastRunStartedAtMs",
    }


@pytest.mark.parametrize("value", ["-1", "soon", "nan", "inf"])
def test_a_bad_config_write_delay_is_a_setup_error(tmp_path: Path, value: str) -> None:
    proc = run(CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_CONFIG_WRITE_DELAY=value)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"FAKE_AGENT_CONFIG_WRITE_DELAY must be a number of seconds >= 0" in proc.stderr
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- login


def not_logged_in_stdout() -> bytes:
    return run("--output-format", "json", FAKE_AGENT_SCENARIO="not_logged_in").stdout


def test_not_logged_in_without_auth_json(tmp_path: Path) -> None:
    proc = run(
        "--output-format", "json", CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_REQUIRE_LOGIN="1"
    )
    assert proc.returncode == 1
    assert proc.stdout == not_logged_in_stdout()
    assert proc.stdout.startswith(b"Press any key to sign in...\nNot logged in.")


def test_logged_in_with_auth_json_in_the_config_dir(tmp_path: Path) -> None:
    (tmp_path / "auth.json").write_text("{}")
    proc = run(
        "--output-format",
        "stream-json",
        CURSOR_CONFIG_DIR=str(tmp_path),
        FAKE_AGENT_REQUIRE_LOGIN="1",
    )
    assert proc.returncode == 0
    found = events(proc.stdout)
    assert (found[0]["apiKeySource"], found[-1]["type"]) == ("login", "result")


def test_login_is_looked_up_in_home_without_config_dir(tmp_path: Path) -> None:
    assert run(HOME=str(tmp_path), FAKE_AGENT_REQUIRE_LOGIN="1").returncode == 1
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "auth.json").write_text("{}")
    assert run(HOME=str(tmp_path), FAKE_AGENT_REQUIRE_LOGIN="1").returncode == 0


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--api-key", "k"), {}),
        ((), {"CURSOR_API_KEY": "k"}),
        ((), {"CURSOR_AUTH_TOKEN": "t"}),
        ((), {"FAKE_AGENT_REQUIRE_LOGIN": "0"}),
        ((), {"FAKE_AGENT_REQUIRE_LOGIN": ""}),
    ],
)
def test_a_key_a_token_or_no_requirement_needs_no_auth_json(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str]
) -> None:
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_REQUIRE_LOGIN": "1", **env}
    assert run(*args, **env).returncode == 0


def test_a_bad_require_login_value_is_a_setup_error() -> None:
    proc = run(FAKE_AGENT_REQUIRE_LOGIN="yes")
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"FAKE_AGENT_REQUIRE_LOGIN must be 1 or 0" in proc.stderr


# --------------------------------------------------------------------------- fail_first


def test_counter_counts_up_from_a_missing_file(tmp_path: Path) -> None:
    from fake_agent._fleet import bump_counter

    path = tmp_path / "count"
    assert [bump_counter(str(path)) for _ in range(3)] == [1, 2, 3]
    assert path.read_text() == "3\n"


BUMPER = """\
import sys
from fake_agent._fleet import bump_counter
print(" ".join(str(bump_counter(sys.argv[1])) for _ in range(int(sys.argv[2]))))
"""


def test_concurrent_bumps_on_one_counter_lose_no_count(tmp_path: Path) -> None:
    path, procs, each = str(tmp_path / "count"), 8, 200
    children = [
        subprocess.Popen(
            [sys.executable, "-c", BUMPER, path, str(each)],
            stdout=subprocess.PIPE,
            env=fake_env(),
        )
        for _ in range(procs)
    ]
    seen = []
    for child in children:
        out, _ = child.communicate(timeout=WAIT)
        assert child.returncode == 0
        seen += [int(n) for n in out.split()]
    assert sorted(seen) == list(range(1, procs * each + 1))
    assert Path(path).read_text() == f"{procs * each}\n"


def test_concurrent_attempts_fail_exactly_times_of_them(tmp_path: Path) -> None:
    scenario = scenario_file(tmp_path, {"fake": "fail_first", "times": 3, "with": "retriable"})
    env = {"FAKE_AGENT_SCENARIO": str(scenario), "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    codes = sorted(code for code, _, _ in run_together([env] * RUNS, "--output-format", "json"))
    assert codes == [0] * (RUNS - 3) + [1] * 3


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("retriable", stderr_of_scenario("retriable_error").split(b"\n")[-2] + b"\n"),
        ("usage_limit", stderr_of_scenario("usage_limit")),
    ],
)
def test_each_failure_says_what_its_scenario_says(
    tmp_path: Path, kind: str, expected: bytes
) -> None:
    scenario = scenario_file(tmp_path, {"fake": "fail_first", "times": 1, "with": kind})
    env = {"FAKE_AGENT_SCENARIO": str(scenario), "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    first = run("--output-format", "stream-json", **env)
    assert (first.returncode, first.stdout, first.stderr) == (1, b"", expected)
    second = run("--output-format", "stream-json", **env)
    assert (second.returncode, second.stderr) == (0, b"")
    assert events(second.stdout)[-1]["type"] == "result"


def test_a_scripted_config_race_names_the_config_dir_and_touches_nothing(tmp_path: Path) -> None:
    scenario = scenario_file(tmp_path, {"fake": "fail_first", "times": 2, "with": "config_race"})
    env = {"FAKE_AGENT_SCENARIO": str(scenario), "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    proc = run(HOME=str(tmp_path / "home"), **env)
    home_cfg = tmp_path / "home" / ".cursor"
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, b"", race_line(home_cfg))
    assert not (tmp_path / "home").exists()
    cfg = tmp_path / "cfg"
    proc = run(CURSOR_CONFIG_DIR=str(cfg), **env)
    assert (proc.returncode, proc.stderr) == (1, race_line(cfg))
    assert run(CURSOR_CONFIG_DIR=str(cfg), **env).returncode == 0


def test_fail_first_without_a_counter_is_a_setup_error_before_any_output() -> None:
    proc = run("--output-format", "stream-json", FAKE_AGENT_SCENARIO="flaky_after_work")
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr == (
        b"fake_agent: directive 'fail_first' needs the environment variable FAKE_AGENT_COUNTER\n"
    )


def test_a_counter_that_holds_no_count_is_a_setup_error(tmp_path: Path) -> None:
    (tmp_path / "n").write_text("many")
    proc = run(FAKE_AGENT_SCENARIO="flaky_start", FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    assert proc.returncode == 2
    assert b"holds 'many', not a count" in proc.stderr


@pytest.mark.parametrize(
    ("step", "why"),
    [
        ({"fake": "fail_first", "times": -1, "with": "retriable"}, b"needs 'times' >= 0"),
        ({"fake": "fail_first", "times": 1, "with": "crash"}, b"unknown 'with' 'crash'"),
        ({"fake": "fail_first", "times": 1}, b"needs 'with' as str"),
        ({"fake": "fail_first", "times": True, "with": "retriable"}, b"needs 'times' as int"),
    ],
)
def test_bad_fail_first_directives_are_refused_at_load(
    tmp_path: Path, step: dict[str, Any], why: bytes
) -> None:
    scenario = scenario_file(tmp_path, step)
    proc = run(FAKE_AGENT_SCENARIO=str(scenario), FAKE_AGENT_COUNTER=str(tmp_path / "n"))
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert why in proc.stderr
    assert not (tmp_path / "n").exists()


# --------------------------------------------------------------------------- scenarios


def test_flaky_start_loses_the_race_once_then_runs(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg"
    env = {
        "FAKE_AGENT_SCENARIO": "flaky_start",
        "FAKE_AGENT_COUNTER": str(tmp_path / "n"),
        "CURSOR_CONFIG_DIR": str(cfg),
    }
    first = run("--output-format", "stream-json", **env)
    assert (first.returncode, first.stdout, first.stderr) == (1, b"", race_line(cfg))
    second = run("--output-format", "stream-json", "--force", **env)
    assert (second.returncode, second.stderr) == (0, b"")
    found = events(second.stdout)
    assert [e["type"] for e in found[:2]] == ["system", "user"]
    assert any("shellToolCall" in e.get("tool_call", {}) for e in found)
    assert found[-1]["type"] == "result"
    assert (tmp_path / "n").read_text() == "2\n"


def test_flaky_after_work_fails_after_work_then_the_resumed_chat_succeeds(
    tmp_path: Path,
) -> None:
    env = {"FAKE_AGENT_SCENARIO": "flaky_after_work", "FAKE_AGENT_COUNTER": str(tmp_path / "n")}
    first = run("--output-format", "stream-json", **env)
    assert first.returncode == 1
    assert first.stderr.startswith(b"RetriableError: [unavailable]")
    found = events(first.stdout)
    assert found[-1]["type"] != "result"
    assert [e["subtype"] for e in found if e["type"] == "tool_call"] == ["started", "completed"]
    session = found[0]["session_id"]
    second = run("--output-format", "stream-json", f"--resume={session}", **env)
    assert (second.returncode, second.stderr) == (0, b"")
    resumed = events(second.stdout)
    assert {e["session_id"] for e in resumed if "session_id" in e} == {session}
    assert resumed[-1]["type"] == "result"
    assert resumed[-1]["result"].startswith("I'll read the cart module first.")


# --- the stored model: `--model` is sticky (docs/protocol.md §1, "Many runs at once") ----
STREAM = ("--output-format", "stream-json")


def init_model(proc: subprocess.CompletedProcess[bytes]) -> str:
    (init,) = [e for e in events(proc.stdout) if e.get("subtype") == "init"]
    return str(init["model"])


def stored(config: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((config / "cli-config.json").read_text("utf-8"))
    return data


def test_a_model_run_stores_its_model_in_the_config_file(tmp_path: Path) -> None:
    proc = run(
        *STREAM, "--model", "gpt-5", CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_SCENARIO="hello"
    )
    assert proc.returncode == 0
    assert stored(tmp_path)["model"]["modelId"] == "gpt-5"
    assert stored(tmp_path)["hasChangedDefaultModel"] is True


def test_a_run_without_a_model_uses_the_stored_one(tmp_path: Path) -> None:
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_SCENARIO": "hello"}
    run(*STREAM, "--model", "gpt-5", **env)
    assert init_model(run(*STREAM, **env)) == "GPT-5"


def test_a_run_without_a_model_keeps_the_stored_one(tmp_path: Path) -> None:
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_SCENARIO": "hello"}
    run(*STREAM, "--model", "gpt-5", **env)
    run(*STREAM, **env)
    assert stored(tmp_path)["model"]["modelId"] == "gpt-5"


def test_a_run_without_a_model_and_none_stored_uses_the_default(tmp_path: Path) -> None:
    proc = run(*STREAM, CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_SCENARIO="hello")
    assert init_model(proc) == "Auto"


def test_a_stored_model_the_fake_does_not_know_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "cli-config.json").write_text('{"model": {"modelId": 7}}')
    proc = run(*STREAM, CURSOR_CONFIG_DIR=str(tmp_path), FAKE_AGENT_SCENARIO="hello")
    assert init_model(proc) == "Auto"


# --- the model's parameters are sticky too (docs/protocol.md §1, "Many runs at once") ---
@pytest.mark.parametrize("variant", ["gpt-5-high", "gpt-5[reasoning=high]"])
def test_a_variant_run_saves_the_models_parameters(tmp_path: Path, variant: str) -> None:
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_SCENARIO": "hello"}
    assert init_model(run(*STREAM, "--model", variant, **env)) == "GPT-5 High"
    saved = stored(tmp_path)
    assert saved["modelParameters"] == {"gpt-5": [{"id": "reasoning", "value": "high"}]}
    assert saved["selectedModel"]["modelId"] == "gpt-5"
    assert saved["modelSelectionHistory"][0] == "gpt-5"


def test_a_bare_id_runs_with_the_parameters_last_saved_for_it(tmp_path: Path) -> None:
    # Reported: a bare gpt-5.4-nano ran as "GPT-5.4 Nano High" after a -high run.
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_SCENARIO": "hello"}
    run(*STREAM, "--model", "gpt-5-high", **env)
    assert init_model(run(*STREAM, "--model", "gpt-5", **env)) == "GPT-5 High"
    assert init_model(run(*STREAM, **env)) == "GPT-5 High"  # no --model: the saved one


def test_a_variant_run_replaces_only_its_own_models_parameters(tmp_path: Path) -> None:
    other = {"sonnet-4": [{"id": "thinking", "value": "true"}]}
    (tmp_path / "cli-config.json").write_text(json.dumps({"modelParameters": other}))
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_SCENARIO": "hello"}
    run(*STREAM, "--model", "gpt-5-low", **env)
    low = [{"id": "reasoning", "value": "low"}]
    assert stored(tmp_path)["modelParameters"] == {**other, "gpt-5": low}


def test_a_variant_the_fake_does_not_offer_is_refused(tmp_path: Path) -> None:
    env = {"CURSOR_CONFIG_DIR": str(tmp_path), "FAKE_AGENT_SCENARIO": "hello"}
    proc = run(*STREAM, "--model", "gpt-5[effort=high]", **env)
    assert proc.returncode == 1
    assert proc.stderr.startswith(b"Cannot use this model: gpt-5[effort=high]. ")
    assert "modelParameters" not in stored(tmp_path)
