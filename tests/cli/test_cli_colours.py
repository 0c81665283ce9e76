"""``agent-sdk``'s colours (docs/cli.md): none off a terminal or under ``NO_COLOR`` (an
empty one leaves them on, as no-color.org says), always with ``--color=always``, never with
``--color=never``.
"""

from __future__ import annotations

from cli_process import ESC, Terminal, cli

from agent_sdk.cli.args import use_color


def test_no_colours_when_not_a_tty() -> None:
    done = cli("--fake", "tools", "hi")
    assert ESC not in done.stdout + done.stderr


def test_no_colours_with_no_color_set_even_on_a_tty_with_color_auto() -> None:
    assert use_color("auto", Terminal(), {}) is True
    assert use_color("auto", Terminal(), {"NO_COLOR": "1"}) is False
    done = cli("--fake", "tools", "--color=auto", "hi", NO_COLOR="1")
    assert ESC not in done.stdout + done.stderr


def test_an_empty_no_color_leaves_colours_on_as_no_color_org_says() -> None:
    assert use_color("auto", Terminal(), {"NO_COLOR": ""}) is True


def test_color_always_gives_ansi_codes() -> None:
    done = cli("--fake", "tools", "--color=always", "hi", NO_COLOR="1")
    assert f"{ESC}32m✓" in done.stderr


def test_color_never_wins_over_a_tty() -> None:
    assert use_color("never", Terminal(), {}) is False
