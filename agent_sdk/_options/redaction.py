"""The one redaction of agent_sdk: which values of a run are secrets, and how every
diagnostic the SDK shows or writes is cleared of them. Pure: no I/O, the environment is an
argument.

**The secrets of a run** (:func:`secrets_of`):

- the API key, from any source: ``AgentOptions.api_key``, ``AgentOptions.env
  ["CURSOR_API_KEY"]`` and the process environment's ``CURSOR_API_KEY`` (the CLI reads the
  variable: docs/protocol.md §1, "Environment");
- the auth token (``CURSOR_AUTH_TOKEN``) from the same three sources
  (``AgentOptions.auth_token`` is sent as that variable);
- every value of ``AgentOptions.headers`` (``--header 'Name: Value'`` carries credentials
  such as ``Authorization: Bearer …``), and the credential after its scheme word
  (``Bearer``, ``Basic``, ``Token``, …), which a CLI may print on its own.

A value shorter than :data:`MIN_SECRET_CHARS` characters is not treated as a secret:
hiding ``"a"`` or ``"1"`` everywhere would wreck every text and protect nothing (a
credential that short is guessable anyway). Empty values are skipped too.

**How** (:class:`Redaction`): each secret is replaced by :data:`MASK`, the longest first
(one secret may contain another), in its plain form and in its JSON-escaped forms (a key
holding ``"`` or ``\\`` or a non-ASCII character appears escaped in a JSON line), in text
and in bytes. An event holding a secret is replaced by a redacted copy of the same type;
events without one are kept as they are. A run without secrets gets the empty redaction,
which is false and returns what it is given without looking at it: the common path scans
nothing.

**What is redacted, and what is not.** Everything that is a diagnostic: every
:class:`~agent_sdk.AgentError` (message, hint, ``repr``, ``stderr``, ``stdout_lines``,
``events``, ``AgentResultError.event``), the ``stderr`` of a successful
:class:`~agent_sdk.RunResult`, the lines of stdout that are not JSON (``Stream(redact=)``),
the answers and errors of the queries (``status()``, ``version()``, …), the files
``testing.record()`` writes, and all the ``agent-sdk`` command prints. The *reply* of a
successful run (``RunResult.result``, ``.text``, its events, the events a streamed run
yields) is left alone: it is the user's own data, handed to the user who gave the agent
the key, and rewriting it would silently change what the agent said.

Known limit: with ``stream_partial_output`` the CLI cuts the reply into small deltas, so a
secret longer than a delta arrives in pieces, one per event; no single event holds it and
the events kept on an error carry it in pieces. The ``agent-sdk`` command's rendered reply
is joined before it is printed (``cli/live.py``), so it is redacted whole there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import msgspec

from ..errors import AgentError, AgentResultError
from ..events import Event
from .agent_options import AgentOptions

__all__ = [
    "MASK",
    "MIN_SECRET_CHARS",
    "NO_SECRETS",
    "SECRET_VARIABLES",
    "HeldText",
    "Redaction",
    "redacted_argv",
    "redaction_of",
    "secrets_of",
]

MASK = "***"
MIN_SECRET_CHARS = 4
# The last two: the per-run secret of a run's tools and hooks (docs/extend.md), never shown.
SECRET_VARIABLES = (
    "CURSOR_API_KEY",
    "CURSOR_AUTH_TOKEN",
    "AGENT_SDK_TOOLS_TOKEN",
    "AGENT_SDK_HOOKS_TOKEN",
)
_MASK_BYTES = MASK.encode()

# `Bearer abc`, `Basic dXNl...`, `Token abc`: a scheme word, then the credential. A
# pattern, not a compiled one: compiled on first use (by re's cache), not at import.
_SCHEME = r"[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+(?P<credential>\S.*)"

_E = TypeVar("_E", bound=Event)
_Error = TypeVar("_Error", bound=AgentError)


def secrets_of(options: AgentOptions, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The secrets of a run with ``options`` started from ``environ`` (see the module),
    without duplicates, the longest first."""
    found: list[str | None] = [options.api_key, options.auth_token]
    for variables in (options.env or {}, environ):
        found += [variables.get(name) for name in SECRET_VARIABLES]
    for value in (options.headers or {}).values():
        found.append(value)
        scheme = re.fullmatch(_SCHEME, value.strip())
        if scheme is not None:
            found.append(scheme["credential"].strip())
    kept = {secret for secret in found if secret and len(secret) >= MIN_SECRET_CHARS}
    return tuple(sorted(kept, key=lambda secret: (-len(secret), secret)))


def _forms(secret: str) -> list[str]:
    """How a secret may appear: as is, and escaped in JSON (msgspec's and the CLI's
    escaping, and the ASCII-only escaping of other encoders)."""
    import contextlib
    import json

    forms = [secret, json.dumps(secret, ensure_ascii=True)[1:-1]]
    # A lone surrogate (an environment value not in UTF-8) has no msgspec form.
    with contextlib.suppress(UnicodeEncodeError):
        forms.append(msgspec.json.encode(secret).decode("utf-8")[1:-1])
    return forms


def _utf8(form: str) -> bytes:
    # An environment value that was not UTF-8 holds its bytes as surrogate escapes.
    try:
        return form.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return form.encode("utf-8", "replace")


class Redaction:
    """Replaces the secrets of a run by :data:`MASK` wherever the SDK shows them.

    A redaction without secrets (:data:`NO_SECRETS`) is false and every method returns
    its argument unchanged at once.

    Example::

        redaction = Redaction(["sk-live-123"])
        redaction.text("key sk-live-123 refused")  # 'key *** refused'
    """

    __slots__ = ("_byte_forms", "_forms", "_json_forms")

    def __init__(self, secrets: Iterable[str]) -> None:
        forms: dict[str, None] = {}
        json_forms: dict[str, None] = {}
        for secret in secrets:
            if len(secret) < MIN_SECRET_CHARS:
                continue
            plain, *escaped = _forms(secret)
            forms[plain] = None
            for form in escaped:
                forms[form] = None
                json_forms[form] = None
        # The longest first: a secret that holds another is replaced whole.
        self._forms = sorted(forms, key=len, reverse=True)
        self._byte_forms = [_utf8(form) for form in self._forms]
        self._json_forms = [_utf8(form) for form in sorted(json_forms, key=len, reverse=True)]

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __repr__(self) -> str:
        return f"<Redaction of {len(self._forms)} forms>"  # never the secrets themselves

    @property
    def longest(self) -> int:
        """The length of the longest form of a secret (0 without secrets)."""
        return len(self._forms[0]) if self._forms else 0

    def text(self, text: str) -> str:
        """``text`` with every secret replaced."""
        for form in self._forms:
            if form in text:
                text = text.replace(form, MASK)
        return text

    def data(self, data: bytes) -> bytes:
        """``data`` (UTF-8 or not) with every secret's UTF-8 bytes replaced."""
        for form in self._byte_forms:
            if form in data:
                data = data.replace(form, _MASK_BYTES)
        return data

    def lines(self, lines: Iterable[str]) -> list[str]:
        """Each line redacted."""
        return [self.text(line) for line in lines]

    def holds_secret(self, event: Event) -> bool:
        """Whether the event holds a secret in one of its strings (or keys)."""
        if not self._json_forms:
            return False
        try:
            encoded = msgspec.json.encode(event)
        except (msgspec.MsgspecError, RecursionError, UnicodeEncodeError):
            return True  # it cannot be looked into: assume the worst
        return any(form in encoded for form in self._json_forms)

    def event(self, event: _E) -> _E:
        """The event, or a redacted copy of the same type when it holds a secret: every
        string in it (keys, the raw tool call payload and nested objects included)
        redacted. Never raises: an event nested too deep to walk loses its nested
        objects instead (a hostile line, docs/protocol.md §5)."""
        if not self.holds_secret(event):
            return event
        try:
            copy: _E = self._walk(event)
        except RecursionError:
            copy = self._flattened(event)
        return copy

    def _walk(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, msgspec.Raw):
            return msgspec.Raw(self._raw(bytes(value)))
        if isinstance(value, msgspec.Struct):
            changes = {}
            for name in value.__struct_fields__:
                old = getattr(value, name)
                new = self._walk(old)
                if new is not old:
                    changes[name] = new
            return msgspec.structs.replace(value, **changes) if changes else value
        if isinstance(value, dict):
            return {self._walk(key): self._walk(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self._walk(item) for item in value)
        return value

    def _raw(self, data: bytes) -> bytes:
        """Undecoded JSON (a tool call payload), redacted."""
        try:
            return msgspec.json.encode(self._walk(msgspec.json.decode(data)))
        except (msgspec.MsgspecError, RecursionError):
            return self._replaced_json(data)

    def _replaced_json(self, data: bytes) -> bytes:
        for form in self._json_forms:
            if form in data:
                data = data.replace(form, _MASK_BYTES)
        return data

    def _flattened(self, event: _E) -> _E:
        """The last resort for an event too deep to walk: its strings and raw payloads
        redacted, its nested objects and lists dropped."""
        changes: dict[str, Any] = {}
        for name in event.__struct_fields__:
            value = getattr(event, name)
            if isinstance(value, str):
                changes[name] = self.text(value)
            elif isinstance(value, msgspec.Raw):
                changes[name] = msgspec.Raw(self._replaced_json(bytes(value)))
            elif isinstance(value, (dict, list)):
                changes[name] = type(value)()
        return msgspec.structs.replace(event, **changes)

    def events(self, events: list[Event]) -> list[Event]:
        """The events, each redacted (the list itself when none holds a secret)."""
        if not self._json_forms:
            return events
        redacted = [self.event(event) for event in events]
        changed = any(new is not old for new, old in zip(redacted, events, strict=True))
        return redacted if changed else events

    def value(self, value: Any) -> Any:
        """A JSON value (a protocol error's ``data``: dicts, lists, strings...) with every
        string redacted, keys included; the value itself when it holds no secret. Never
        raises: one nested too deep to walk is replaced whole by :data:`MASK`."""
        if not self._json_forms:
            return value
        if isinstance(value, bytes):
            return self._replaced_json(value)
        try:
            return self._walk(value)
        except RecursionError:
            return MASK

    def error(self, error: _Error) -> _Error:
        """``error`` itself, every secret gone from its message, hint, ``args`` (its
        ``repr``), context, for an :class:`~agent_sdk.AgentResultError` its event, and
        every other attribute it carries (an ``AgentOutputError``'s reply, a
        ``JsonRpcError``'s ``data``...): a subclass with attributes of its own is covered
        without a change here, and so is its pickle, made from the same attributes."""
        if not self:
            return error
        error.message = self.text(error.message)
        if error.hint is not None:
            error.hint = self.text(error.hint)
        error.args = tuple(self.value(a) for a in error.args)
        for name, value in vars(error).items():
            if name not in _ERROR_FIELDS:
                setattr(error, name, self.value(value))
        context = error.context
        error.context = msgspec.structs.replace(
            context,
            session_id=self.text(context.session_id) if context.session_id else None,
            stderr=self.text(context.stderr),
            stdout_lines=self.lines(context.stdout_lines),
            events=self.events(context.events),
        )
        if isinstance(error, AgentResultError):
            error.event = self.event(error.event)
        return error


# Redacted by their own rules in Redaction.error; every other attribute by Redaction.value.
_ERROR_FIELDS = frozenset({"message", "hint", "context", "event"})

NO_SECRETS = Redaction(())


class HeldText:
    """A text that arrives in pieces (a reply's deltas), redacted as a whole: a secret may
    be cut across pieces, so the last characters that could still begin one are held back
    until more text comes or :meth:`release` (at the end, or before anything else is shown).

    Args:
        redaction: the run's redaction; without secrets nothing is held.
    """

    def __init__(self, redaction: Redaction) -> None:
        self._redaction = redaction
        self._keep = max(redaction.longest - 1, 0)
        self._held = ""

    def feed(self, text: str) -> str:
        """What can be shown of the text so far, redacted; the rest is held."""
        if not self._redaction:
            return text
        buffer = self._redaction.text(self._held + text)
        cut = max(len(buffer) - self._keep, 0)
        self._held = buffer[cut:]
        return buffer[:cut]

    def release(self) -> str:
        """What was held back (the text is over, or something else is shown next)."""
        held, self._held = self._held, ""
        return held


def redaction_of(
    options: AgentOptions, environ: Mapping[str, str], also: Iterable[str] = ()
) -> Redaction:
    """The redaction of a run with ``options`` started from ``environ`` (normally
    ``os.environ``), and of the secrets ``also`` made for it (a live agent's token for its
    sessions' tools); :data:`NO_SECRETS` when it has none."""
    secrets = (*secrets_of(options, environ), *also)
    return Redaction(secrets) if secrets else NO_SECRETS


def redacted_argv(argv: list[str]) -> list[str]:
    """``argv`` with the value of every header (``--header``, ``-H``) replaced by ``***``."""
    redacted: list[str] = []
    after_flag = False
    for index, arg in enumerate(argv):
        if arg == "--":
            return redacted + argv[index:]  # the prompt follows: no flags
        if after_flag:
            arg = _hidden_header(arg)
        elif arg.startswith("--header="):
            arg = "--header=" + _hidden_header(arg[len("--header=") :])
        elif arg.startswith("-H") and len(arg) > 2:
            arg = "-H" + _hidden_header(arg[2:])
        after_flag = arg in ("--header", "-H")
        redacted.append(arg)
    return redacted


def _hidden_header(header: str) -> str:
    return f"{header.split(':', 1)[0]}: {MASK}"
