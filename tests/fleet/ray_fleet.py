"""A fleet on a local Ray instance, as its tests make one (docs/fleet.md, "On a Ray
cluster"): the fixture ``backend`` (a RayBackend of a quarter CPU per task, on the
module's local Ray instance: tests/conftest.py's ``cluster``), and ``fake``, options that
run the bundled fake agent on a scenario.

Shared by test_ray_backend.py, test_ray_outcomes.py and test_ray_cancel.py. This module
does not import Ray; each of them needs it (tests/needs.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_sdk import AgentOptions
from agent_sdk.fleet import RayBackend


@pytest.fixture(name="backend")
def backend_fixture(cluster: None) -> RayBackend:
    # A quarter CPU per task: up to 8 tasks at once on 2 CPUs, so a limit below that
    # is the fleet's doing.
    return RayBackend(num_cpus=0.25)


def fake(fake_binary: str, scenario: str | Path, **env: str) -> AgentOptions:
    return AgentOptions(binary=fake_binary, env={"FAKE_AGENT_SCENARIO": str(scenario), **env})
