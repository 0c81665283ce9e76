"""Every type a public signature names is public: a user who reads ``LiveAgent.diagnostics``
or ``LocalBackend.run_task`` can import what it takes and returns.

The signatures are read as written (their annotations' names), so a name imported only
for type checking counts too. A name is a type of agent_sdk's when some module of the
package defines a class of that name; it is public when a public module exports a class
of that name.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator

import pytest

import agent_sdk

PUBLIC_MODULES = [
    "agent_sdk",
    "agent_sdk.budget",
    "agent_sdk.changes",
    "agent_sdk.checkpoints",
    "agent_sdk.errors",
    "agent_sdk.events",
    "agent_sdk.extend",
    "agent_sdk.fleet",
    "agent_sdk.live",
    "agent_sdk.options",
    "agent_sdk.queries",
    "agent_sdk.result",
    "agent_sdk.session",
    "agent_sdk.subagents",
    "agent_sdk.testing",
    "agent_sdk.testing.memory",
    "agent_sdk.testing.memory_acp",
    "agent_sdk.tool_calls",
    "agent_sdk.tool_results",
    "agent_sdk.tools",
]

# Made by the SDK, never by a user: their constructors take the SDK's own machinery.
MADE_BY_THE_SDK = {
    "agent_sdk.live.LiveSession.__init__",  # LiveAgent.new_session / load_session
    "agent_sdk.live.LiveTurn.__init__",  # LiveSession.run
    "agent_sdk.live.TurnUpdates.__init__",  # LiveSession.prompt
    "agent_sdk.testing.memory_acp.ScriptedAgent.__init__",  # MemoryAcpTransport
}

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _every_class_name() -> set[str]:
    """The names of the classes the package's modules define."""
    names: set[str] = set()
    for info in pkgutil.walk_packages(agent_sdk.__path__, "agent_sdk."):
        if ".cli" in info.name or info.name.endswith("__main__"):
            continue  # the command line: not imported for its types
        module = importlib.import_module(info.name)
        names |= {
            name
            for name, value in vars(module).items()
            if inspect.isclass(value) and value.__module__ == info.name
        }
    return names


def _public() -> dict[str, object]:
    found: dict[str, object] = {}
    for module in PUBLIC_MODULES:
        imported = importlib.import_module(module)
        for name in imported.__all__:
            found[f"{module}.{name}"] = getattr(imported, name)
    return found


def _signatures() -> Iterator[tuple[str, Callable[..., object]]]:
    """Each public function, and each public method, property and constructor of each
    public class, by where a user reaches it."""
    for where, value in _public().items():
        if inspect.isfunction(value):
            yield where, value
        elif inspect.isclass(value) and value.__module__.startswith("agent_sdk"):
            for name, member in vars(value).items():
                if name.startswith("_") and name != "__init__":
                    continue
                if isinstance(member, property) and member.fget is not None:
                    yield f"{where}.{name}", member.fget
                elif isinstance(member, (staticmethod, classmethod)):
                    yield f"{where}.{name}", member.__func__
                elif inspect.isfunction(member):
                    yield f"{where}.{name}", member


SIGNATURES = sorted(_signatures(), key=lambda item: item[0])
CLASSES = _every_class_name()
PUBLIC_CLASSES = {name.rpartition(".")[2] for name, v in _public().items() if inspect.isclass(v)}


def test_the_walk_finds_the_public_signatures() -> None:
    found = {where for where, _ in SIGNATURES}
    assert {"agent_sdk.run", "agent_sdk.fleet.LocalBackend.run_task"} <= found
    assert "agent_sdk.live.LiveAgent.diagnostics" in found
    assert len(found) > 250


@pytest.mark.parametrize(("where", "function"), SIGNATURES, ids=[w for w, _ in SIGNATURES])
def test_a_public_signature_names_only_public_types(
    where: str, function: Callable[..., object]
) -> None:
    if where in MADE_BY_THE_SDK:
        return
    annotations = [str(a) for a in getattr(function, "__annotations__", {}).values()]
    named = {name for text in annotations for name in _NAME.findall(text)}
    private = sorted(name for name in named & CLASSES if name not in PUBLIC_CLASSES)
    assert private == [], f"{where} names types a user cannot import: {private}"
