"""Keyword checks for the structs a user builds by keyword: :class:`KeywordsMeta`, the
metaclass of ``AgentOptions``, ``Budget``, ``Hooks``, ``Allow``, ``Deny`` and the fleet's
``Task``. A call with a keyword the struct does not have, a positional value where it
takes keywords only, or without a required keyword raises an
:class:`~agent_sdk.AgentConfigError` (also a ``TypeError``, as msgspec's own error is)
that names the keyword meant: ``Budget has no option 'max_tool_calls'; did you mean
'tool_calls'?``, before msgspec's bare ``Unexpected keyword argument`` (docs/errors.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import msgspec

from ..errors import AgentConfigError

__all__ = ["KeywordsMeta", "unknown_option"]


def unknown_option(
    owner: str,
    names: Sequence[str],
    args: tuple[Any, ...],
    kwargs: Collection[str],
    example: str | None = None,
) -> str:
    """Why ``owner(*args, **kwargs)`` names no option: a positional value or a typo.
    ``example``: a call by keyword, for the first (``owner(<first field>=...)``)."""
    if args:
        example = example or f"{owner}({names[0]}=...)"
        return (
            f"{owner} takes its options by keyword only, e.g. {example}; "
            f"got {len(args)} positional argument{'s' if len(args) > 1 else ''}"
        )
    import difflib  # only this error needs it; `import agent_sdk` stays fast

    wrong = next(key for key in kwargs if key not in names)
    close = difflib.get_close_matches(wrong, names, n=3)
    # difflib ranks 'mode' above 'model' for 'modle'; two swapped letters are the likelier
    # typo, so a name of the same letters comes first (the sort is stable).
    close.sort(key=lambda name: sorted(name) != sorted(wrong))
    if close:
        return f"{owner} has no option {wrong!r}; did you mean {close[0]!r}?"
    return f"{owner} has no option {wrong!r}; its options are {', '.join(names)}"


class KeywordsMeta(msgspec.StructMeta):
    """A Struct's metaclass whose call checks the keywords before msgspec sees them, so
    that a typo is named with the keyword meant. (A Struct cannot define ``__init__``;
    its metaclass can be subclassed since msgspec 0.20.) Type checkers still see the
    fields' signature, as ``__call__`` returns Any. Positional values are refused only
    by a ``kw_only`` struct (``Deny("reason")`` stays valid). A subclass may add
    ``_keyword_example``, the call a positional value's error shows.
    """

    _keyword_names: frozenset[str]
    _required: tuple[str, ...]
    _kw_only: bool
    _keyword_example: str | None = None

    # A metaclass's methods take the class (ruff knows only type's subclasses as such).
    def __init__(cls, *args: Any, **kwargs: Any) -> None:  # noqa: N805
        super().__init__(*args, **kwargs)
        fields = cls.__struct_fields__
        cls._keyword_names = frozenset(fields)
        # The defaults line up with the last fields; a kw_only struct's required ones
        # may come anywhere and have NODEFAULT.
        defaults = cls.__struct_defaults__
        padded = (msgspec.NODEFAULT,) * (len(fields) - len(defaults)) + defaults
        cls._required = tuple(
            name
            for name, default in zip(fields, padded, strict=True)
            if default is msgspec.NODEFAULT
        )
        # As the class statement says (msgspec keeps it nowhere), else as its base does.
        cls._kw_only = bool(kwargs.get("kw_only", getattr(cls, "_kw_only", False)))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        cls.check_keywords(args, kwargs)
        return super().__call__(*args, **kwargs)

    def check_keywords(cls, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:  # noqa: N805
        """Raise the error of a call ``cls(*args, **kwargs)`` whose keywords are wrong.

        Raises:
            AgentConfigError: a keyword it does not have, a positional value (``kw_only``
                structs), a required keyword missing.
        """
        positional = args if cls._kw_only else ()
        if positional or not cls._keyword_names.issuperset(kwargs):
            names = cls.__struct_fields__
            raise AgentConfigError(
                unknown_option(cls.__name__, names, positional, kwargs, cls._keyword_example)
            )
        missing = [name for name in cls._required[len(args) :] if name not in kwargs]
        if missing:
            raise AgentConfigError(f"{cls.__name__} needs {'=..., '.join(missing)}=...")
