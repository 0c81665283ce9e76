"""``--fake [SCENARIO]``: which word after ``--fake`` names a scenario, and which begins
the prompt.

The rule (also in ``agent-sdk --help``): the word after ``--fake`` is the scenario when
it is a path (it ends in ``.ndjson`` or holds a ``/``) or the name of a bundled scenario.
Any other word begins the prompt, unless it looks like a scenario name (one lowercase
word: letters, digits, ``_``, ``-``) and more prompt words are given: that is taken for a
mistyped scenario (``--fake tool "Add a test"``) and refused, in a few lines: the one
meant if a scenario's name is close, the command that runs the prompt, where the
scenarios are. A prompt that begins with such a word goes after ``--`` (``--fake -- fix
the bug``) or is quoted whole (``--fake "fix the bug"``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from ..options import AgentOptions

__all__ = ["FAKE_HELP", "UnknownScenarioError", "fake_agent_words", "fake_scenario", "runs_fake"]

# The default named is fake_agent.DEFAULT_SCENARIO (a test reads it there: the help must
# not drift from the fake again); not imported here, which would load the fake at start.
FAKE_HELP = (
    "run the bundled fake agent instead of cursor-agent. SCENARIO is a bundled "
    "scenario's name (demo, the default; hello, tools, crash, unknown_model, ...) or a path to "
    "an .ndjson file. Another word after --fake begins the prompt, but a single "
    "lowercase word followed by more of the prompt is refused as an unknown scenario: "
    "begin such a prompt after '--' (--fake -- fix the bug) or quote it whole"
)

# What a scenario name looks like to a user: one lowercase word. A word with capitals,
# spaces, dots or other punctuation is prose (the fake refuses such names anyway).
_NAME_LIKE = re.compile(r"[a-z0-9][a-z0-9_-]*")
# The scenarios an unknown name's error shows, as a taste of the rest.
_SHOWN = ("hello", "tools", "cart", "crash")


class UnknownScenarioError(ValueError):
    """``--fake WORD PROMPT...`` where WORD looks like a scenario name but names none;
    ``str()`` is the message for the user."""


def _unknown(word: str, rest: Sequence[str]) -> UnknownScenarioError:
    import difflib  # only this error needs it
    import shlex

    import fake_agent

    names = fake_agent.scenario_names()
    close = difflib.get_close_matches(word, names, n=1)
    guess = f"; did you mean {close[0]!r}?" if close else ""
    # Short: what is wrong, the command that runs the prompt, where the scenarios are
    # (not all of them: they are dozens).
    command = f"agent-sdk --fake -- {shlex.join([word, *rest])}"
    if rest in ([], ["-"]) or len(command) > 100:
        fix = f"to begin the prompt with {word!r}, put '--' before the prompt"
    else:
        fix = (
            f"to run the fake agent on the prompt {' '.join([word, *rest])!r}, put '--' "
            f"before the prompt: {command}"
        )
    few = ", ".join(name for name in _SHOWN if name in names)
    folder = fake_agent.scenario_path(names[0]).parent
    return UnknownScenarioError(
        f"--fake {word}: there is no scenario named {word!r}{guess}\n{fix}\n"
        f"the {len(names)} scenarios ({few}, ...) are the .ndjson files in {folder}"
    )


def fake_scenario(word: str, prompt: Sequence[str]) -> str | None:
    """What ``FAKE_AGENT_SCENARIO`` gets for ``--fake WORD``; ``None`` if WORD is the
    first word of the prompt.

    Args:
        word: the word argparse gave ``--fake``.
        prompt: the other words of the prompt on the command line (``-`` included).

    Raises:
        UnknownScenarioError: WORD looks like a scenario name, names none, and is followed by
            the prompt.
    """
    import fake_agent

    # A path by the fake's own rule; absolute, so that --cwd does not change which file
    # the fake reads.
    if fake_agent.is_scenario_path(word):
        return os.path.abspath(word)
    try:
        fake_agent.resolve_scenario(word)
    except fake_agent.ScenarioError:
        if prompt and _NAME_LIKE.fullmatch(word):
            raise _unknown(word, prompt) from None
        return None
    return word


def runs_fake(options: AgentOptions) -> bool:
    """Whether ``options`` run the bundled fake agent: the binary they name, or the one
    discovery finds for them (a ``CURSOR_AGENT_BIN`` set to the fake's path), is the
    fake's script. A copy of it installed elsewhere is not (a test's stand-in for the real
    CLI)."""
    import fake_agent

    from .._transport.discovery import binary_for
    from ..errors import AgentError

    try:
        binary = binary_for(options)
        fake = fake_agent.executable()
    except (AgentError, FileNotFoundError):
        return False
    return os.path.realpath(binary) == os.path.realpath(fake)


def fake_agent_words(options: AgentOptions) -> str | None:
    """``the bundled fake agent (scenario hello)`` for options that run the fake (the
    scenario when their environment names one: ``--fake SCENARIO``, a task's
    ``FAKE_AGENT_SCENARIO``); ``None`` for any other CLI."""
    if not runs_fake(options):
        return None
    chosen = {**os.environ, **(options.env or {})}.get("FAKE_AGENT_SCENARIO", "")
    name = os.path.basename(chosen) if chosen else ""
    return f"the bundled fake agent (scenario {name})" if name else "the bundled fake agent"
