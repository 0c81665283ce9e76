"""The checks of :class:`~agent_sdk.AgentOptions`' values, and how its values are shown.

The checks follow the fields' annotations, so a new field is checked by its type with no
new code: msgspec converts the options a caller set (not the defaults) against a twin of
the options class built from those annotations, in C. msgspec knows neither NUL bytes
nor a ``str | os.PathLike[str]`` union, so those two rules are short walks here. Only a
value that fails is looked at again, field by field, to say in the terms of
``AgentOptions(...)`` which option is wrong, with what, and how to fix it.
"""

from __future__ import annotations

import functools
import operator
import os
import sys
import types
from collections.abc import Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec

from ..errors import AgentConfigError

__all__ = ["HIDDEN", "SECRET_FIELDS", "OptionChecks", "a_value", "shown"]

# The credentials (docs/protocol.md §1, "Environment"): never in a repr or an error.
SECRET_FIELDS = frozenset({"api_key", "auth_token"})
# The last two: the per-run secret of a run's tools and hooks (docs/extend.md).
SECRET_ENV = frozenset(
    {"CURSOR_API_KEY", "CURSOR_AUTH_TOKEN", "AGENT_SDK_TOOLS_TOKEN", "AGENT_SDK_HOOKS_TOKEN"}
)
HIDDEN = "***"
# Errors never quote these values: any entry of env or headers may be a credential.
_QUIET = SECRET_FIELDS | {"env", "headers"}


def shown(name: str, value: Any) -> Any:
    """The value of option ``name`` as a repr shows it: credentials become ``'***'``."""
    if value is None:
        return None
    if name in SECRET_FIELDS:
        return HIDDEN
    if name == "headers" and isinstance(value, Mapping):
        # Any header may carry a credential (Authorization, Cookie): names only.
        return {key: HIDDEN for key in value}
    if name == "env" and isinstance(value, Mapping):
        return {key: HIDDEN if key in SECRET_ENV else item for key, item in value.items()}
    return value


# --- what a field's annotation means ----------------------------------------------------
def _members(annotation: Any) -> tuple[Any, ...]:
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def _is_path(annotation: Any) -> bool:
    return any(get_origin(member) is os.PathLike for member in _members(annotation))


def _seconds(positive: bool) -> msgspec.Meta:
    # le=max also refuses inf; gt/ge refuse nan, which compares false with everything.
    if positive:
        return msgspec.Meta(gt=0, le=sys.float_info.max)
    return msgspec.Meta(ge=0, le=sys.float_info.max)


def _twin(annotation: Any, seconds: msgspec.Meta) -> Any:
    """The type msgspec checks a value of ``annotation`` against."""
    if _is_path(annotation):
        return Any  # msgspec cannot convert str | os.PathLike: _check_path's rule
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return functools.reduce(operator.or_, (_twin(m, seconds) for m in get_args(annotation)))
    if annotation is float:
        return Annotated[float, seconds]
    if origin in (Sequence, Mapping):
        return origin[tuple(_twin(arg, seconds) for arg in get_args(annotation))]
    return annotation


def _is_struct(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, msgspec.Struct)


def _noun(annotation: Any, positive: bool, *, plural: bool = False) -> str:
    """What a value of ``annotation`` is, for an error message."""
    parts: list[str] = []
    for member in _members(annotation):
        origin = get_origin(member)
        if member is type(None):
            continue
        if origin is os.PathLike or (member is str and _is_path(annotation)):
            if not parts:
                parts.append("paths" if plural else "a path (a str or an os.PathLike)")
        elif member is bool:
            parts.append("True or False")
        elif member is float:
            seconds = "a positive number of seconds" if positive else "a number of seconds >= 0"
            parts.append(f"{seconds} (an int or a float, finite)")
        elif member is str:
            parts.append("strings" if plural else "a str")
        elif member is Any:
            parts.append("items")  # tools=: each is checked by the options' own rules
        elif origin is Literal:
            parts.append("one of " + ", ".join(map(repr, get_args(member))))
        elif origin is Mapping:
            key, value = (_noun(arg, positive) for arg in get_args(member))
            parts.append(f"a dict mapping {key} to {value}")
        elif origin is Sequence:
            parts.append(f"a list of {_noun(get_args(member)[0], positive, plural=True)}")
        else:
            parts.append(getattr(member, "__name__", repr(member)))
    if type(None) in _members(annotation):
        parts.append("None")
    return ", or ".join(parts)


def a_value(value: object) -> str:
    name = type(value).__name__
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def _builtin_alike(value: Any) -> Any:
    """``value`` as the builtin type it stands for (msgspec takes only builtins), if any."""
    if isinstance(value, (str, bytes, bool, int)) or value is None:
        return value
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (Sequence, AbstractSet)):
        return list(value)
    import numbers  # only values msgspec refused get here

    if isinstance(value, numbers.Real):  # numpy.float64, fractions.Fraction, ...
        return float(value)
    return value


_TextRule = Literal["path", "paths", "text", "pairs", "items", "walk"]


def _text_rule(annotation: Any) -> _TextRule | None:
    """How a value of ``annotation`` is searched for NUL bytes (paths: also checked)."""
    members = [m for m in _members(annotation) if m is not type(None)]
    origins = [get_origin(m) for m in members]
    if _is_path(annotation):
        return "path"
    if members == [Any] or (origins == [Sequence] and get_args(members[0]) == (Any,)):
        return None  # objects (tools, hooks): their own checks, not text
    if origins == [Sequence] and _is_path(get_args(members[0])[0]):
        return "paths"
    if all(m in (bool, int, float) or get_origin(m) is Literal or _is_struct(m) for m in members):
        # No text, only the fixed strings of a Literal, or a value that checks itself
        # and never reaches the command line (a Budget).
        return None
    if members == [str]:
        return "text"
    if origins == [Mapping] and get_args(members[0]) == (str, str):
        return "pairs"
    if origins == [Sequence] and get_args(members[0]) == (str,):
        return "items"
    return "walk"


def _may_hold_nul(rule: _TextRule, value: Any) -> bool:
    # msgspec has checked the types, so a join searches all the strings at once, in C.
    if rule == "text":
        return "\0" in value
    if rule == "pairs":
        return "\0" in "".join(value) or "\0" in "".join(value.values())
    if rule == "items":
        return "\0" in "".join(value)
    return True  # "walk": _nul_at looks at each part


def _nul_at(value: Any) -> str | None:
    """Where a NUL byte is in a checked value (``""``: in the value itself), or None."""
    if isinstance(value, str):
        return "" if "\0" in value else None
    if isinstance(value, (bool, int, float)) or value is None:
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if "\0" in key:
                return f" name {key!r}"
            at = _nul_at(item)
            if at is not None:
                return f"[{key!r}]{at}"
        return None
    for index, item in enumerate(value):
        at = _nul_at(item)
        if at is not None:
            return f"[{index}]{at}"
    return None


class OptionChecks:
    """The checks of an options class's values, built from its annotations on first use.

    Args:
        cls: the options class; every field has a default.
        positive: the number fields that must be > 0 (the others must be >= 0).
    """

    def __init__(self, cls: type[msgspec.Struct], *, positive: Collection[str] = ()) -> None:
        self._cls = cls
        self._owner = cls.__name__
        self._positive = frozenset(positive)
        names, defaults = cls.__struct_fields__, cls.__struct_defaults__
        assert len(defaults) == len(names), "every option needs a default"
        self._named_defaults = tuple(zip(names, defaults, strict=True))
        # Built on first use: reading the annotations takes milliseconds, which
        # `import agent_sdk` should not spend.
        self._types: dict[str, Any] = {}
        self._text_rules: dict[str, _TextRule] = {}
        self._twin: type[msgspec.Struct] | None = None

    def _build(self) -> type[msgspec.Struct]:
        types_ = {field.name: field.type for field in msgspec.structs.fields(self._cls)}
        # What msgspec cannot check: NUL bytes, and paths (str | os.PathLike).
        self._text_rules = {
            name: rule
            for name, annotation in types_.items()
            if (rule := _text_rule(annotation)) is not None
        }
        self._types = types_
        twin_fields = [
            (name, _twin(annotation, _seconds(name in self._positive)), None)
            for name, annotation in types_.items()
        ]
        # Set last: a thread that sees it sees the rest (each thread may build its own).
        self._twin = msgspec.defstruct(f"{self._owner}Check", twin_fields, kw_only=True)
        return self._twin

    def check_options(self, options: msgspec.Struct) -> None:
        """:meth:`check` the values of ``options`` that are not the defaults."""
        # A default is valid by construction; only what the caller set is checked (and
        # not the fields a subclass adds: zip stops at the end of this class's).
        self.check(
            {
                name: value
                for (name, default), value in zip(
                    self._named_defaults, msgspec.structs.astuple(options), strict=False
                )
                if value is not default
            }
        )

    def check(self, given: dict[str, Any]) -> None:
        """Raise :class:`AgentConfigError` for the first of the ``given`` values (by
        option name) that does not fit its field: its type, range, NUL bytes, paths."""
        if not given:
            return
        try:
            msgspec.convert(given, self._twin or self._build(), strict=True)
        except msgspec.ValidationError:
            given = self._second_look(given)
        for name, value in given.items():
            if value is None or (type(value) is str and "\0" not in value):
                continue  # the most common values, valid whatever the field
            rule = self._text_rules.get(name)
            if rule == "path":
                self._check_path(name, value, value)
            elif rule == "paths":
                for index, item in enumerate(value):
                    if type(item) is not str or "\0" in item:
                        self._check_path(name, value, item, index)
            elif rule and _may_hold_nul(rule, value) and (at := _nul_at(value)) is not None:
                raise self._error(name, value, f"{name}{at} holds a NUL byte", _NUL_HINT)

    # --- the slow path: only for values that fail ----------------------------------------
    def _fits(self, name: str, value: Any) -> bool:
        try:
            msgspec.convert({name: value}, self._twin or self._build(), strict=True)
        except msgspec.ValidationError:
            return False
        return True

    def _second_look(self, given: dict[str, Any]) -> dict[str, Any]:
        """The values, with those msgspec refused only for their type (a numpy float, a
        deque) as builtins; raises for the first that does not fit even so."""
        given = dict(given)  # the caller's keywords stay as they were
        for name, value in given.items():
            if self._fits(name, value):
                continue
            alike = _builtin_alike(value)
            if alike is not value and self._fits(name, alike):
                given[name] = alike
                continue
            raise self._mismatch(name, value)
        return given

    def _error(self, name: str, value: Any, problem: str, hint: str | None) -> AgentConfigError:
        quoted = HIDDEN if name in SECRET_FIELDS else "..." if name in _QUIET else repr(value)
        if len(quoted) > 80:
            quoted = quoted[:77] + "..."
        return AgentConfigError(f"{self._owner}({name}={quoted}): {problem}", hint=hint)

    def _mismatch(self, name: str, value: Any) -> AgentConfigError:
        annotation = self._types[name]
        positive = name in self._positive
        optional = type(None) in _members(annotation)
        members = [m for m in _members(annotation) if m is not type(None)]
        if all(get_origin(m) is Literal for m in members):
            allowed = ", ".join(repr(a) for m in members for a in get_args(m))
            return AgentConfigError(f"{name} must be one of {allowed}, got {value!r}")
        expected = _noun(annotation, positive)
        container = get_origin(members[0]) if len(members) == 1 else None
        if container is Mapping and isinstance(value, Mapping):
            key_type, value_type = (_twin(t, _seconds(positive)) for t in get_args(members[0]))
            for key, item in value.items():
                if not _fits_type(key, key_type):
                    problem = f"{name} must be {expected}; the name {key!r} is {a_value(key)}"
                    return self._error(name, value, problem, None)
                if not _fits_type(item, value_type):
                    problem = f"{name} must be {expected}; {name}[{key!r}] is {a_value(item)}"
                    hint = f"convert it first, e.g. {name}={{{key!r}: str(value)}}"
                    return self._error(name, value, problem, hint)
        alike = _builtin_alike(value)
        if container is Sequence and isinstance(alike, list):
            item_type = _twin(get_args(members[0])[0], _seconds(positive))
            for index, item in enumerate(alike):
                if not _fits_type(item, item_type):
                    problem = f"{name} must be {expected}; {name}[{index}] is {a_value(item)}"
                    return self._error(name, value, problem, None)
        if float in members and isinstance(alike, (int, float)) and not isinstance(alike, bool):
            problem = f"{name} must be {expected}, got {value!r}"  # out of range
        else:
            problem = f"{name} must be {expected}, not {a_value(value)}"
        return self._error(name, value, problem, self._hint(name, value, members, optional))

    def _hint(self, name: str, value: Any, members: list[Any], optional: bool) -> str | None:
        if bool in members and isinstance(value, str):
            return f'convert it first, e.g. {name}=os.environ.get("{name.upper()}") == "1"'
        if bool in members:
            return f"pass {name}=True or {name}=False"
        if float in members and isinstance(value, str):
            return f"convert it first, e.g. {name}=float({value!r})"
        if float in members and optional:
            return f"pass {name}=None for no limit"
        if isinstance(value, str) and any(get_origin(m) is Sequence for m in members):
            return f"pass a list, even of one item: {name}=[{value!r}]"
        if any(get_origin(m) is Mapping for m in members):
            return f"pass a dict, e.g. {name}={{'NAME': 'value'}}"
        if members == [str]:  # a uuid.UUID, a number, bytes
            return f"pass text: {name}={'value.decode()' if type(value) is bytes else 'str(value)'}"
        return None

    def _check_path(self, name: str, value: Any, path: Any, index: int | None = None) -> None:
        """The rule of a path (``value``, or its item ``index``): a str or an os.PathLike
        of a str, with no NUL byte."""
        where = name if index is None else f"{name}[{index}]"
        text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
        if not isinstance(text, str):
            problem = f"{where} must be a path (a str or an os.PathLike), not {a_value(path)}"
            if text is not None:
                problem += f" of {a_value(text)}"
            raise self._error(name, value, problem, None)
        if "\0" in text:
            raise self._error(name, value, f"{where} holds a NUL byte", _NUL_HINT)


_NUL_HINT = (
    "remove it: no command line or environment variable can carry a NUL byte "
    "(it often comes from a file or a C string read whole)"
)


def _fits_type(value: Any, twin: Any) -> bool:
    if twin is Any:
        return True
    try:
        msgspec.convert(value, twin, strict=True)
    except msgspec.ValidationError:
        return False
    return True


def made_by_agent_sdk(value: object, kind: str) -> bool:
    """Whether ``value`` is one of agent_sdk's own ``kind`` (``"Tool"``, ``"Hooks"``), known
    by the mark its class carries (``AGENT_SDK_KIND``). The options check what they are
    given without importing the extensions that make these values: the options sit below
    the extensions in the layers (docs/architecture.md), and a run given no tools never
    loads them."""
    return getattr(type(value), "AGENT_SDK_KIND", None) == kind
