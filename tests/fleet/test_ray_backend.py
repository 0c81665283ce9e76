"""RayBackend itself (docs/fleet.md, "On a Ray cluster"): every error a run can raise
crosses to and from a worker as it was; without Ray the error says how to install it;
Ray Client is refused (it cannot stream progress); importing the fleet does not import
Ray; and a RayBackend is a Backend. On a local Ray instance, started once for the module.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest
from needs import need
from ray_fleet import backend_fixture  # noqa: F401  (the fixture ``backend``)

from agent_sdk import AgentConfigError, AgentError, AgentOutputError, AgentResultError, ErrorContext
from agent_sdk.events import ResultEvent
from agent_sdk.fleet import Backend

ray = need("ray", "a local Ray instance")

from agent_sdk.fleet import RayBackend  # noqa: E402


# --- what crosses --------------------------------------------------------------------------
def every_error_class() -> list[type[AgentError]]:
    """Every error a print-mode run can raise: those of ``agent_sdk.errors``, not the ones
    other test modules or the live agent (which never runs on a worker) define, so the
    list does not depend on which modules were collected first."""
    classes, pending = [], [AgentError]
    while pending:
        cls = pending.pop()
        if cls.__module__ == "agent_sdk.errors" and cls not in classes:
            classes.append(cls)
        pending.extend(cls.__subclasses__())
    return classes


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda cls: cls.__name__)
def test_every_error_crosses_to_and_from_a_worker_as_it_was(
    cluster: None, cls: type[AgentError]
) -> None:
    context = ErrorContext(session_id="s", exit_code=1, stderr="Error: it broke\n")
    if cls is AgentResultError:
        error: AgentError = cls("bad", event=ResultEvent(is_error=True), context=context)
    elif cls is AgentOutputError:
        error = cls(
            "no JSON", reply="r", json=None, problem="p", attempts=2, context=context, hint="h"
        )
    else:
        error = cls("it broke", context=context, hint="do this")
    for back in (ray.get(ray.put(error)), pickle.loads(pickle.dumps(error))):
        assert type(back) is cls
        assert (str(back), back.stderr, back.exit_code) == (str(error), "Error: it broke\n", 1)
        assert back.hint == error.hint
        assert getattr(back, "event", None) == getattr(error, "event", None)


def test_without_ray_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(AgentConfigError, match=r"pip install 'agent-sdk\[ray\]'"):
        RayBackend()


def test_ray_client_is_refused_for_it_cannot_stream_progress(cluster: None) -> None:
    with pytest.raises(AgentConfigError, match="Ray Client"):
        RayBackend(address="ray://head:10001")


def test_importing_the_fleet_does_not_import_ray() -> None:
    code = (
        "import sys, agent_sdk.fleet; assert 'ray' not in sys.modules; agent_sdk.fleet.RayBackend"
    )
    code += "; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_ray_backend_is_a_backend(backend: RayBackend) -> None:
    implements: Backend = backend  # mypy checks the protocol; this, that it is one
    assert callable(implements.run_task)
