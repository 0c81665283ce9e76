"""An error's message and hint in the terms of the command line.

agent_sdk's errors speak to Python callers: ``pass ... as AgentOptions(model=...)``,
``(AgentOptions.timeout)``, ``resume=<session_id>``. The command line shows the same
errors, with each option spelt as the flag that sets it (``--model ID``, ``--timeout``,
``--resume ID``), from :data:`~agent_sdk.cli._agent_flags.AGENT_FLAGS`: the table the flags are
made from. The Python wording stays as it is for Python callers; only what ``agent-sdk``
prints is translated, by :func:`in_flag_terms`.

The forms translated: ``AgentOptions(NAME=VALUE)``, ``AgentOptions.NAME``, a bare
``NAME=VALUE`` of an option, an option name with an underscore (``extra_args``), and a
few phrases with no flag of their own (the credentials, which come from the environment;
``.available_models``; the fake agent as a binary). What an error quotes of cursor-agent
is left as it was printed: only the ``AgentOptions`` forms are looked for there
(:func:`error_in_flag_terms`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from ..errors import AgentBudgetError, AgentConfigError, AgentError, AgentUsageError
from ..options import AgentOptions
from ._agent_flags import AGENT_FLAGS, CLI_DEFAULTS

__all__ = ["error_in_flag_terms", "in_flag_terms", "message_and_hint"]

# The credentials have no flag (argv is visible to every user): the environment.
_CREDENTIALS = {"api_key": "CURSOR_API_KEY", "auth_token": "CURSOR_AUTH_TOKEN"}

# Whole phrases whose translation is not the sum of their options.
_PHRASES: list[tuple[str, str]] = [
    ("AgentOptions(binary=fake_agent.executable())", "agent-sdk --fake [SCENARIO] PROMPT"),
    (
        "pass a valid key as AgentOptions(api_key=...) (sent as CURSOR_API_KEY)",
        "set a valid key as CURSOR_API_KEY in the environment",
    ),
    (
        "keep AgentOptions(trust=True) (the default) or pass force=True",
        "leave out --no-trust or pass --force",
    ),
    ("add_dirs or headers", "add_dirs or --header"),
    ("Fleet(limit=1)", "--limit 1"),
    ("isolation=['worktree']", "--isolate worktree"),
    ("the values of AgentOptions", "the other flags"),
    # A number option's check speaks of Python types; a flag's value is a number already.
    (" (an int or a float, finite), or None", ""),
    (" (an int or a float, finite)", ""),
    (".available_models", "`cursor-agent models`"),
    # A chat id chosen up front (docs/sessions.md): minted in Python, or by any UUID tool.
    ("(agent_sdk.new_session_id())", "(e.g. `uuidgen | tr A-F a-f`)"),
    ("agent_sdk.new_session_id(), or str(uuid.uuid4())", "`uuidgen | tr A-F a-f`"),
    # A budget is a JSON object on the command line (_budget_arg.py): its forms below.
    ("Fleet(budget=...)", "--fleet-budget JSON"),
    (" (an int) or None", " or null"),
    ("; None is no limit", "; null is no limit"),
    (" must be a dict, not ", " must be a JSON object, not "),
]

_VALUE = r"(?P<value><[^<>]*>|'[^']*'|\"[^\"]*\"|[^\s,;()]+)"
# An option check's message repeats the name: "AgentOptions(timeout=0.0): timeout must".
_CHECKED = re.compile(r"(?P<call>AgentOptions\((?P<name>\w+)=[^()]*\)): (?P=name) ")
_CALL = re.compile(r"AgentOptions\((?P<name>\w+)=(?P<value>[^()]*)\)")
_ATTRIBUTE = re.compile(r"AgentOptions\.(?P<name>[a-z_]+)")
_SECRET_USE = re.compile(
    r"use AgentOptions\((?P<name>api_key|auth_token)=\.\.\.\), which sends it in the environment"
)
_UNSET = re.compile(r"\bpass (?P<name>\w+)=None\b")
_LEAVE_UNSET = re.compile(r"\bleave (?P<name>\w+) unset\b")
_BARE = re.compile(r"(?<![\w.$-])(?P<name>[a-z_]+)=" + _VALUE)
_UNDERSCORED = re.compile(r"(?<![\w.$`-])(?P<name>[a-z]+(?:_[a-z]+)+)\b(?![=(`])")
_SESSION = ("session_id", "<session_id>", "<session id>")
_PYTHON_SESSION = re.compile(r" or Session\('[^']*'\)")  # no Session on the command line
# Budget(tool_calls=20), Budget(tool_calls_by_kind={'shell': 3}),
# Budget(tool_calls_by_kind['shell']=-1), Budget(tool_calls_by_kind=...)
_BUDGET = re.compile(
    r"\bBudget\((?P<name>[a-z_]+)(?:\[(?P<key>'[^'\]]*')\])?=(?P<value>\{[^{}]*\}|[^(){}]*)\)"
)


def _is_switch(name: str) -> bool:
    return AGENT_FLAGS[name].metavar is None and isinstance(_default(name), bool)


def _default(name: str) -> object:
    if name in CLI_DEFAULTS:
        return CLI_DEFAULTS[name]
    fields = {field.name: field for field in msgspec.structs.fields(AgentOptions)}
    return fields[name].default


def _flag(name: str, value: str | None, session_id: str | None) -> str | None:
    """How the command line sets option ``name`` (to ``value``, if given); ``None`` if it
    has no flag for it."""
    if name in _CREDENTIALS:
        return f"{_CREDENTIALS[name]} in the environment"
    flag = AGENT_FLAGS.get(name)
    if flag is None:
        return None
    spelling = flag.spelling[-1]
    if value is None:
        return spelling
    if _is_switch(name):
        if value in ("True", "False"):
            sets = not _default(name)
            return spelling if (value == "True") == sets else f"no {spelling}"
        return spelling
    if value == "None":
        return f"no {spelling}"
    if value in _SESSION:
        return f"{spelling} {session_id or 'ID'}"
    if value in ("...", ""):
        return f"{spelling} {flag.metavar}" if flag.metavar else spelling
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return f"{spelling} {value}"


def _replacing(session_id: str | None, *, valued: bool) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        value = match.group("value") if valued else None
        said = _flag(match.group("name"), value, session_id)
        return match.group(0) if said is None else said

    return replace


def _unset(match: re.Match[str]) -> str:
    said = _flag(match.group("name"), None, None)
    return f"leave {said} out" if said is not None and said.startswith("--") else match.group(0)


def _underscored(match: re.Match[str]) -> str:
    name = match.group("name")
    return AGENT_FLAGS[name].spelling[-1] if name in AGENT_FLAGS else match.group(0)


def _budget_json(match: re.Match[str]) -> str:
    """A ``Budget(...)`` as the JSON object the command line takes; a limit named
    without its value (``...``) as its JSON key."""
    import ast
    import json

    name, key, value = match.group("name", "key", "value")
    if value == "...":
        return json.dumps(name)
    try:
        limit = ast.literal_eval(value)
        said: object = {ast.literal_eval(key): limit} if key is not None else limit
        return json.dumps({name: said})
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return match.group(0)  # not a literal: said as it was


def in_flag_terms(text: str, session_id: str | None = None, *, quotes: bool = False) -> str:
    """``text`` (an error's message or hint) with the options it names spelt as flags.

    Args:
        text: what an error says (an :class:`~agent_sdk.AgentError`'s ``str()``, or a
            part of it).
        session_id: the run's session id, put where the text says to resume the chat.
        quotes: ``text`` may quote what cursor-agent printed, which must stay as it was:
            only the ``AgentOptions`` forms and fixed phrases are translated, not a bare
            ``name=value`` or ``extra_args``.

    Example::

        in_flag_terms("pass 'gpt-5' as AgentOptions(model=...)")  # "pass 'gpt-5' as --model ID"
    """
    if "AgentOptions" not in text and "=" not in text and "_" not in text:
        return text
    for python, flags in _PHRASES:
        text = text.replace(python, flags)
    text = _PYTHON_SESSION.sub("", text)
    if "Budget(" in text:
        text = _BUDGET.sub(_budget_json, text)
    text = _CHECKED.sub(r"\g<call>: ", text)
    text = _SECRET_USE.sub(
        lambda m: f"set {_CREDENTIALS[m.group('name')]} in the environment", text
    )
    text = _CALL.sub(_replacing(session_id, valued=True), text)
    text = _ATTRIBUTE.sub(_replacing(session_id, valued=False), text)
    if quotes:
        return text
    text = _UNSET.sub(_unset, text)
    text = _LEAVE_UNSET.sub(_unset, text)
    text = _BARE.sub(_replacing(session_id, valued=True), text)
    return _UNDERSCORED.sub(_underscored, text)


def message_and_hint(
    error: AgentError, session_id: str | None = None, *, budget: str | None = None
) -> tuple[str, str | None]:
    """An error's message and hint in flag terms: its hint wholly, its message but for
    what it quotes of cursor-agent (the message of an error agent_sdk found itself quotes
    nothing).

    Args:
        error: the error.
        session_id: the run's session id, for a hint that says to resume the chat.
        budget: where the run's budget was written when no flag gave it (a tasks file's
            ``options.budget of task 'x' (tasks.jsonl line 3)``): the place a run's
            spent budget is to be raised in, instead of ``--budget JSON``.
    """
    session_id = session_id or error.session_id
    quotes = not isinstance(error, (AgentConfigError, AgentUsageError))
    message = in_flag_terms(error.message, session_id, quotes=quotes)
    if not error.hint:
        return message, None
    hint = in_flag_terms(error.hint, session_id)
    if budget is not None and isinstance(error, AgentBudgetError) and error.scope == "run":
        # "raise it in AgentOptions(budget=...)" (_run/spending.py), which reads --budget JSON.
        hint = hint.replace(f"raise it in {_flag('budget', '...', None)}", f"raise it in {budget}")
    return message, hint


def error_in_flag_terms(error: AgentError, session_id: str | None = None) -> str:
    """``str(error)`` in flag terms (:func:`message_and_hint`): the message, then
    ``Hint: ...`` on a line of its own, as ``str()`` says them."""
    message, hint = message_and_hint(error, session_id)
    return message if hint is None else f"{message}\nHint: {hint}"
