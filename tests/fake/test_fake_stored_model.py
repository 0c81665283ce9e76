"""The fake's stored model (docs/protocol.md §1, "Many runs at once"): ``--model`` is
sticky, as the CLI's is: a run stores its model (and a variant's parameters, its own
model's only) in the config file, a run without one uses the stored one, an unknown stored
model is not used, and a variant the fake does not offer is refused.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fleet_runs import events, run

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
