"""The permission rule of an MCP call in the fake's print mode (docs/protocol.md §7-§8):
without ``--force`` a call no ``Mcp(server:tool)`` allow rule covers is rejected and never
reaches the server; rules take wildcards, and a deny rule wins over an allow rule and over
``--force``.
"""

from __future__ import annotations

from mcp_place import (
    HANDSHAKE,
    Place,
    call,
    outcome,
    place_fixture,  # noqa: F401  (the fixture ``place``)
)

# ----------------------------------------------------------------------------- permission


def test_without_force_an_uncovered_call_is_rejected_and_never_reaches_the_server(
    place: Place,
) -> None:
    place.servers(place.home, echo=place.echo())
    proc = place.run(call(), flags=())
    assert outcome(proc) == {"rejected": {"reason": ""}}
    assert place.asked() == HANDSHAKE  # started with the run, never called


def test_without_force_an_mcp_allow_rule_lets_the_call_run(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(echo:echo)"])
    assert "success" in outcome(place.run(call(), flags=()))


def test_an_allow_rule_takes_wildcards(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(*:ec*)"])
    assert "success" in outcome(place.run(call(), flags=()))


def test_an_allow_rule_for_another_tool_does_not_cover_the_call(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(echo:other)", "Shell(echo)"])
    assert outcome(place.run(call(), flags=())) == {"rejected": {"reason": ""}}


def test_a_deny_rule_wins_over_an_allow_rule(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(allow=["Mcp(echo:*)"], deny=["Mcp(echo:echo)"])
    assert outcome(place.run(call(), flags=())) == {"rejected": {"reason": ""}}


def test_a_deny_rule_wins_over_force(place: Place) -> None:
    place.servers(place.home, echo=place.echo())
    place.permissions(deny=["Mcp(echo:*)"])
    assert outcome(place.run(call())) == {"rejected": {"reason": ""}}
