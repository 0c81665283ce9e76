"""One hostile corpus, every decoder: each JSON entry point of the SDK (the registry of
tests/hostile/entries.py) over each hostile input (tests/hostile/corpus.py) gets a typed
error or drops or keeps the input as its docs say, and goes on (docs/protocol.md §5,
docs/acp.md): never a RecursionError, never a raw msgspec, json or Unicode error, never a
hang. Async entry points run on asyncio and trio.

The registry must cover the package: every call of a JSON decoder in ``agent_sdk`` is
claimed by an entry (or exempted with a reason), or the first test fails.
"""

from __future__ import annotations

import ast
import inspect
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from heavy import lean_sample
from hostile import live_entries
from hostile.corpus import RPC_CASES, VALUES
from hostile.entries import ENTRIES, EXEMPT, Entry

from agent_sdk import AgentError

PACKAGE = Path(__file__).parents[2] / "agent_sdk"
# The README's test command puts every entry point through three of the corpus's inputs;
# CI through all of them (tests/heavy.py).
LEAN_CASES = ("deep array", "invalid UTF-8", "not an object")
GUARD = 60.0  # seconds: a hang guard, generous for a loaded machine, not a timing claim
DECODERS = {
    "msgspec.json.decode",
    "msgspec.json.Decoder",
    "json.loads",
    "json.load",
    "json.JSONDecoder",
    "agent_sdk._wire.decode.LineDecoder",
}
SYNC = [name for name, entry in ENTRIES.items() if not inspect.iscoroutinefunction(entry.run)]
ASYNC = [name for name in ENTRIES if name not in SYNC]


# --- the registry covers every decode site of the package ---------------------------------
def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _aliases(tree: ast.Module, module: str) -> dict[str, str]:
    """What each imported name stands for (``import json as j``, ``from .decode import
    LineDecoder``), as a dotted name."""
    names: dict[str, str] = {}
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}.{alias.name}"
    return names


def _dotted(node: ast.expr, aliases: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(aliases.get(node.id, node.id))
    return ".".join(reversed(parts))


def _calls(tree: ast.AST, scope: str) -> Iterator[tuple[str, ast.Call]]:
    """Every call in ``tree`` with the qualified name of the function it is in."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = node.name if scope == "<module>" else f"{scope}.{node.name}"
            yield from _calls(node, inner)
            continue
        if isinstance(node, ast.Call):
            yield scope, node
        yield from _calls(node, scope)


def decode_sites() -> set[str]:
    """``module:function`` of every call of a JSON decoder in the package."""
    sites: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text("utf-8"))
        aliases = _aliases(tree, module)
        for scope, call in _calls(tree, "<module>"):
            if _dotted(call.func, aliases) in DECODERS:
                sites.add(f"{module}:{scope}")
    return sites


def test_every_decode_site_of_the_package_belongs_to_a_registered_entry_point() -> None:
    claimed = {site for entry in ENTRIES.values() for site in entry.sites} | set(EXEMPT)
    assert sorted(decode_sites() - claimed) == []


def test_every_registered_site_is_still_a_decode_site() -> None:
    claimed = {site for entry in ENTRIES.values() for site in entry.sites} | set(EXEMPT)
    assert sorted(claimed - decode_sites()) == []


def test_the_site_walk_finds_the_decoders_it_looks_for() -> None:
    # The premise of the two tests above: the walk sees calls through every spelling.
    sites = decode_sites()
    assert "agent_sdk.live._jsonrpc:<module>" in sites  # a Decoder built at import
    assert "agent_sdk._wire.stream:Stream.__init__" in sites  # LineDecoder, imported
    assert "agent_sdk.queries:status" in sites  # msgspec.json.decode


# --- every entry point over every hostile input ------------------------------------------
def check_outcome(entry: Entry, error: BaseException | None) -> None:
    """The entry raised nothing, or one of its typed errors (never a RecursionError nor a
    decoder's own exception, unless that is what it documents)."""
    if error is not None and not isinstance(error, entry.allowed):
        raise AssertionError(f"raised {type(error).__name__}, not {entry.allowed}") from error


@pytest.mark.parametrize("case", lean_sample(list(VALUES), LEAN_CASES))
@pytest.mark.parametrize("name", SYNC)
def test_a_sync_entry_point_survives_the_hostile_input(name: str, case: str) -> None:
    entry = ENTRIES[name]
    caught: list[BaseException | None] = []

    def run() -> None:
        try:
            entry.run(VALUES[case])
        except BaseException as exc:
            caught.append(exc)
        else:
            caught.append(None)

    # A thread, so that a hang fails the test instead of blocking the session.
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(GUARD)
    assert caught, f"{name} did not return within {GUARD} s"
    check_outcome(entry, caught[0])


@pytest.mark.anyio
@pytest.mark.parametrize("case", lean_sample(list(VALUES), LEAN_CASES))
@pytest.mark.parametrize("name", ASYNC)
async def test_an_async_entry_point_survives_the_hostile_input(name: str, case: str) -> None:
    entry = ENTRIES[name]
    error: BaseException | None = None
    try:
        with anyio.fail_after(GUARD):
            await entry.run(VALUES[case])  # type: ignore[misc]
    except BaseException as exc:
        error = exc
    check_outcome(entry, error)


@pytest.mark.anyio
@pytest.mark.parametrize("case", list(RPC_CASES))
async def test_odd_json_rpc_ids_end_the_turn_or_fail_it_typed(case: str) -> None:
    error: BaseException | None = None
    try:
        with anyio.fail_after(GUARD):
            await live_entries.odd_ids(RPC_CASES[case])
    except BaseException as exc:
        error = exc
    check_outcome(Entry(live_entries.odd_ids, (), (AgentError,)), error)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_a_second_answer_to_a_request_does_not_replace_the_first() -> None:
    # Both answers in one read: the reader routes the second before the caller wakes.
    answer = '{"jsonrpc":"2.0","id":{prompt},"result":{"stopReason":"%s"}}'
    both = "\n".join(answer % reason for reason in ("max_tokens", "end_turn"))
    with anyio.fail_after(GUARD):
        await live_entries.odd_ids([both], stop_reason="max_tokens")
