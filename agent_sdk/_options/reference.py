"""docs/options.md, the reference of every :class:`~agent_sdk.AgentOptions` option, made
from the class itself: each field's name, type and default, and its entry in the
docstring's ``Args:`` section. A field with no entry is an error, so a new option cannot
go undocumented; tests/docs/test_options_doc.py fails when the page is not what this
makes now. Run it from the repository root after changing the options::

    python -m agent_sdk._options.reference            # writes docs/options.md
    python -m agent_sdk._options.reference --check    # exit 1 if the page is out of date
"""

from __future__ import annotations

import inspect
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import msgspec

from .agent_options import AgentOptions

__all__ = ["COMMAND", "PAGE", "field_docs", "render"]

PAGE = Path("docs") / "options.md"
COMMAND = "python -m agent_sdk._options.reference"

# Fields annotated Any so that `import agent_sdk` need not load agent_sdk.extend (the
# checks in _options/agent_options.py say what they take): the type the page shows instead.
_SHOWN_TYPES = {"tools": "Sequence[Tool]", "hooks": "Hooks | None"}

_ENTRY = re.compile(r"^    (?P<name>[a-z_][a-z0-9_]*): (?P<text>.*)$")
_SECTION = re.compile(r"^[A-Z][A-Za-z ]*:$")
# Sphinx roles as markdown: :class:`~agent_sdk.AgentTimeoutError` -> `AgentTimeoutError`.
_ROLE = re.compile(r":[a-z]+:`(?P<tilde>~?)(?P<target>[^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match.group("target")
    return f"`{target.rsplit('.', 1)[-1] if match.group('tilde') else target}`"


def _markdown(text: str) -> str:
    return _ROLE.sub(_role, text.replace("``", "`")).replace("|", "\\|")


def field_docs(cls: type[msgspec.Struct]) -> dict[str, str]:
    """Each field's text in ``cls``'s docstring (its ``Args:`` section), as markdown.

    Raises:
        ValueError: a field has no entry, or an entry names no field; the message says
            which and where to write it.
    """
    lines = inspect.cleandoc(cls.__doc__ or "").splitlines()
    docs: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_args = False
    for line in lines:
        if _SECTION.match(line):
            in_args, current = line == "Args:", None
        elif in_args and (entry := _ENTRY.match(line)) is not None:
            current = docs.setdefault(entry.group("name"), [])
            current.append(entry.group("text"))
        elif in_args and current is not None and line.startswith("        "):
            current.append(line.strip())
        elif line.strip():
            current = None
    fields = cls.__struct_fields__
    missing = [name for name in fields if name not in docs]
    unknown = [name for name in docs if name not in fields]
    where = f"the Args: section of {cls.__name__}'s docstring"
    if missing:
        raise ValueError(f"no entry in {where} for {', '.join(missing)}: document each option")
    if unknown:
        raise ValueError(f"{where} documents {', '.join(unknown)}, which is no field")
    return {name: _markdown(" ".join(docs[name])) for name in fields}


def _type_text(hint: Any) -> str:
    """A resolved annotation as a reader writes it: ``"plan" | "ask" | None``."""
    origin = get_origin(hint)
    if hint is type(None):
        return "None"
    if hint is Any:
        return "Any"
    if origin is Literal:
        return " | ".join(f'"{value}"' if isinstance(value, str) else repr(value)
                          for value in get_args(hint))  # fmt: skip
    if origin in (Union, types.UnionType):
        return " | ".join(_type_text(arg) for arg in get_args(hint))
    if origin is not None:
        name = getattr(origin, "__qualname__", str(origin))
        if origin.__module__ not in ("builtins", "collections.abc"):
            name = f"{origin.__module__}.{name}"
        return f"{name}[{', '.join(_type_text(arg) for arg in get_args(hint))}]"
    return str(getattr(hint, "__name__", hint))


def _default_text(value: Any) -> str:
    return "required" if value is msgspec.NODEFAULT else f"`{value!r}`"


def render(cls: type[msgspec.Struct] = AgentOptions) -> str:
    """The page: a table of ``cls``'s fields, in their order.

    Raises:
        ValueError: a field is not documented (:func:`field_docs`).
    """
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    defaults = cls.__struct_defaults__
    padded = (msgspec.NODEFAULT,) * (len(cls.__struct_fields__) - len(defaults)) + defaults
    rows = []
    for name, default in zip(cls.__struct_fields__, padded, strict=True):
        shown = _SHOWN_TYPES.get(name) or _type_text(hints[name])
        type_cell = f"`{shown}`".replace("|", "\\|")
        rows.append(f"| `{name}` | {type_cell} | {_default_text(default)} | {docs[name]} |")
    return "\n".join(
        [
            f"# `{cls.__name__}` reference",
            "",
            f"<!-- Generated from {cls.__name__} ({cls.__module__}) by `{COMMAND}`:",
            "     do not edit; change the class's docstring and run it again. -->",
            "",
            f"Every option of `{cls.__name__}(...)`, in the order of the class, all by keyword.",
            "A value it cannot use, or an option it does not have, is an `AgentConfigError`",
            "when the options are built, before anything runs.",
            "",
            "| option | type | default | what it does |",
            "| --- | --- | --- | --- |",
            *rows,
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Write docs/options.md (from the repository root), or with ``--check`` say whether
    it is what :func:`render` makes now (exit status 1 if not)."""
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if args == ["--check"]:
        if PAGE.exists() and PAGE.read_text(encoding="utf-8") == text:
            return 0
        print(f"{PAGE} is out of date: run `{COMMAND}` from the repository root")
        return 1
    if args:
        print(f"usage: {COMMAND} [--check]", file=sys.stderr)
        return 2
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
