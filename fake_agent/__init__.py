"""A stand-in for Cursor's ``cursor-agent`` CLI in headless mode, for tests.

Run it as ``python -m fake_agent`` or ``fake-cursor-agent`` with the real CLI's flags;
it plays a scripted scenario (``scenarios/<name>.ndjson``, see the README there) in
the requested output format. Pick the scenario with ``$FAKE_AGENT_SCENARIO`` (a name
or a path) or a ``scenario:NAME`` token in the prompt; the default is ``demo``
(:data:`DEFAULT_SCENARIO`).
"""

from ._executable import executable
from ._models import FAKE_MODELS
from ._scenario import (
    DEFAULT_SCENARIO,
    SCENARIOS_DIR,
    ScenarioError,
    is_scenario_path,
    resolve_scenario,
    scenario_names,
    scenario_path,
)

__all__ = [
    "DEFAULT_SCENARIO",
    "FAKE_MODELS",
    "SCENARIOS_DIR",
    "ScenarioError",
    "executable",
    "is_scenario_path",
    "resolve_scenario",
    "scenario_names",
    "scenario_path",
]
