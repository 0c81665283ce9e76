"""What a Python function is as a tool, worked out once when the tool is defined
(docs/extend.md, "Defining a tool"): its name, its description, a msgspec struct of its
parameters (which validates what the agent sends), the input JSON Schema made from that
struct, and an output schema when the return type is a JSON object.

Everything that cannot be a tool is refused here, with :class:`~agent_sdk.AgentConfigError`
and a hint that says how to fix it: a parameter without a type hint, ``*args`` or
``**kwargs``, a type msgspec cannot decode from JSON, a generator, a name the MCP
specification does not allow, no description.
"""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Union

import msgspec

from ..errors import AgentConfigError
from ._docstring import split_docstring

__all__ = ["NO_RETURN", "Signature", "signature_of"]

# MCP 2025-11-25, "Tool Names": 1 to 128 of these characters (a SHOULD we make a rule).
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
# The arguments struct's module: its name in a schema's $defs never clashes with a type of
# the user's (msgspec then qualifies both names with their modules).
_MODULE = "agent_sdk.extend.arguments"
_DEFS = "#/$defs/{name}"
NO_RETURN: Any = inspect.Signature.empty
"""The return annotation of a function that has none."""


@dataclass(frozen=True)
class Signature:
    """A function's face as a tool; see the module's docstring."""

    name: str
    description: str
    arguments: type[msgspec.Struct]  # the parameters as a struct: decoded from the call
    # positional-only parameters in order, with their defaults (passed when left out)
    positional: tuple[tuple[str, Any], ...]
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    returns: Any  # the return annotation, or NO_RETURN
    is_async: bool


def signature_of(
    function: Callable[..., Any], name: str | None, description: str | None
) -> Signature:
    """``function`` as a tool named ``name`` (default: the function's name) described by
    ``description`` (default: its docstring, ``Args:`` section left out).

    Raises:
        AgentConfigError: it cannot be a tool; the message says why, the hint how to fix it.
    """
    if not callable(function):
        raise AgentConfigError(
            f"a tool is made from a function, not {type(function).__name__}",
            hint="decorate a function with @tool, or pass one to Tool(function)",
        )
    name = _name_of(function, name)
    if inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function):
        raise AgentConfigError(
            f"tool {name}: a generator cannot be a tool (a call has one result)",
            hint="return the whole result (a list, a string) instead of yielding its parts",
        )
    docstring, texts = split_docstring(_doc_of(function))
    description = docstring if description is None else description
    if not isinstance(description, str) or not description.strip():
        raise AgentConfigError(
            f"tool {name} has no description: the agent chooses a tool by what it says",
            hint="give the function a docstring, or pass description='...' to @tool",
        )
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError) as exc:
        raise AgentConfigError(
            f"tool {name}: its signature cannot be read ({exc})",
            hint="make the tool from a Python function with type hints",
        ) from None
    hints = _hints_of(function, name)
    fields: list[tuple[str, Any, Any]] = []
    positional: list[tuple[str, Any]] = []
    for parameter in parameters:
        fields.append(_field(name, parameter, hints, texts.get(parameter.name)))
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            positional.append((parameter.name, parameter.default))
    arguments = msgspec.defstruct(
        name, fields, module=_MODULE, kw_only=True, forbid_unknown_fields=True
    )
    returns = hints.get("return", NO_RETURN)
    return Signature(
        name=name,
        description=description.strip(),
        arguments=arguments,
        positional=tuple(positional),
        input_schema=_input_schema(name, arguments),
        output_schema=_output_schema(name, returns),
        returns=returns,
        is_async=_is_async(function),
    )


def _name_of(function: Callable[..., Any], name: str | None) -> str:
    given = name if name is not None else getattr(function, "__name__", None)
    if not isinstance(given, str) or not _NAME.fullmatch(given):
        shown = f"{given!r}" if given is not None else f"this {type(function).__name__}"
        raise AgentConfigError(
            f"{shown} cannot be a tool's name: MCP allows 1 to 128 ASCII letters, digits, "
            "'_', '-' and '.'",
            hint="pass name='...' to @tool (or to Tool), e.g. name='lookup_issue'",
        )
    return given


def _doc_of(function: Callable[..., Any]) -> str | None:
    """The docstring: a function's or method's own, a ``functools.partial``'s function's,
    a callable object's class's or else its ``__call__``'s."""
    if inspect.isfunction(function) or inspect.ismethod(function):
        return inspect.getdoc(function)
    if isinstance(function, functools.partial):
        return _doc_of(function.func)
    kind = type(function)
    return inspect.cleandoc(kind.__doc__) if kind.__doc__ else inspect.getdoc(kind.__call__)


def _hints_of(function: Callable[..., Any], name: str) -> dict[str, Any]:
    """The function's type hints, string annotations resolved (``from __future__ import
    annotations``); a ``functools.partial`` or a callable object gives its function's."""
    target: Any = function
    while isinstance(target, functools.partial):
        target = target.func
    if not (inspect.isfunction(target) or inspect.ismethod(target)):
        target = type(target).__call__
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception as exc:  # NameError, TypeError, ...: whatever the annotations raise
        raise AgentConfigError(
            f"tool {name}: its type hints cannot be resolved ({type(exc).__name__}: {exc})",
            hint="define the types the hints name at module level, where the tool's module "
            "can see them",
        ) from None


def _field(
    tool: str, parameter: inspect.Parameter, hints: dict[str, Any], text: str | None
) -> tuple[str, Any, Any]:
    """The struct field of one parameter: ``(name, type, default)``.

    A parameter with a default becomes an optional field left unset when the agent leaves
    it out, so that Python applies the default itself (a mutable default is not shared
    through the struct); the schema shows the default when msgspec can encode it."""
    where = f"tool {tool}: parameter {parameter.name}"
    if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
        star = "*" if parameter.kind is inspect.Parameter.VAR_POSITIONAL else "**"
        raise AgentConfigError(
            f"tool {tool}: {star}{parameter.name} cannot be a tool's parameter: the agent "
            "passes named arguments that a JSON Schema lists",
            hint="name each parameter, with its type (e.g. paths: list[str])",
        )
    if parameter.name not in hints:
        raise AgentConfigError(
            f"{where} has no type hint: its JSON Schema, and the check of what the agent "
            "sends, come from the hint",
            hint=f"annotate it, e.g. {parameter.name}: str",
        )
    kind = hints[parameter.name]
    try:
        msgspec.json.schema(kind)
    except Exception as exc:  # TypeError for an unsupported type, whatever a hook raises
        raise AgentConfigError(
            f"{where}: {_type_name(kind)} is not a type msgspec can decode from JSON ({exc})",
            hint="use JSON-shaped types: str, int, float, bool, list, dict, Literal, "
            "enums, datetime, msgspec.Struct, dataclasses, TypedDict",
        ) from None
    extra: dict[str, Any] = {}
    if text and not _has_description(kind):
        extra["description"] = text
    if parameter.default is inspect.Parameter.empty:
        return parameter.name, _annotated(kind, extra), msgspec.NODEFAULT
    try:
        shown = {"default": msgspec.to_builtins(parameter.default, str_keys=True)}
    except (TypeError, ValueError, OverflowError):
        shown = {}  # a default JSON cannot show (an object): optional, without a default
    extra["extra_json_schema"] = shown
    return parameter.name, Union[_annotated(kind, extra), msgspec.UnsetType], msgspec.UNSET  # noqa: UP007


def _annotated(kind: Any, meta: dict[str, Any]) -> Any:
    """``kind`` with ``msgspec.Meta(**meta)`` first among its metadata, so that the user's
    own ``Meta`` (later) wins where both say something."""
    if not meta:
        return kind
    if typing.get_origin(kind) is not Annotated:
        return _annotate(kind, msgspec.Meta(**meta))
    base, *rest = typing.get_args(kind)
    made = _annotate(base, msgspec.Meta(**meta))
    for extra in rest:  # Annotated[Annotated[T, a], b] is Annotated[T, a, b]
        made = _annotate(made, extra)
    return made


def _annotate(kind: Any, meta: Any) -> Any:
    return Annotated[kind, meta]


def _has_description(kind: Any) -> bool:
    if typing.get_origin(kind) is not Annotated:
        return False
    return any(
        isinstance(meta, msgspec.Meta) and meta.description for meta in typing.get_args(kind)[1:]
    )


def _type_name(kind: Any) -> str:
    return getattr(kind, "__qualname__", None) or repr(kind)


def _is_async(function: Callable[..., Any]) -> bool:
    # A callable object's async __call__ counts too (callable() says nothing of it).
    call = getattr(type(function), "__call__", None)  # noqa: B004
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(call)


def _input_schema(tool: str, arguments: type[msgspec.Struct]) -> dict[str, Any]:
    """The struct's JSON Schema with the struct itself at the root (MCP wants ``"type":
    "object"`` there), the types it uses under ``$defs``."""
    try:
        (top,), defs = msgspec.json.schema_components([arguments], ref_template=_DEFS)
    except Exception as exc:  # msgspec's own limits (e.g. two types of one full name)
        raise AgentConfigError(
            f"tool {tool}: msgspec cannot make the JSON Schema of its parameters ({exc})",
            hint="give the parameters' types distinct names",
        ) from None
    schema = dict(defs.pop(top["$ref"].rsplit("/", 1)[1]))
    schema.pop("title", None)
    if not schema.get("required"):
        schema.pop("required", None)
    if defs:
        schema["$defs"] = defs
    return schema


def _output_schema(tool: str, returns: Any) -> dict[str, Any] | None:
    """The return type's JSON Schema when it is a JSON object (MCP 2025-11-25: an
    ``outputSchema`` is ``"type": "object"`` at its root), else ``None``.

    Raises:
        AgentConfigError: msgspec cannot encode values of the return type.
    """
    if returns in (NO_RETURN, str, None, type(None)):
        return None
    try:
        (top,), defs = msgspec.json.schema_components([returns], ref_template=_DEFS)
    except Exception as exc:
        raise AgentConfigError(
            f"tool {tool}: its return type {_type_name(returns)} is not one msgspec can "
            f"encode as JSON ({exc})",
            hint="return str, or JSON-shaped values (dict, list, msgspec.Struct, "
            "dataclasses, TypedDict), or leave the return type out",
        ) from None
    ref = top.get("$ref")
    if isinstance(ref, str):
        key = ref.rsplit("/", 1)[1]
        schema = dict(defs[key])
        if f'"{ref}"'.encode() not in msgspec.json.encode([schema, defs]):
            del defs[key]  # referred to by nothing: the root holds it
    else:
        schema = dict(top)
    if schema.get("type") != "object":
        return None
    if defs:
        schema["$defs"] = defs
    return schema
