"""The public :class:`Tool` value and the :func:`tool` decorator (docs/extend.md)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Generic, ParamSpec, TypeVar, overload

from ..errors import AgentConfigError
from ._signature import Signature, signature_of

__all__ = ["Tool", "tool", "tools_by_name"]

P = ParamSpec("P")
R = TypeVar("R")


class Tool(Generic[P, R]):
    """A Python function the agent can call: its name, its description, the function,
    and the JSON Schema of its input, all worked out when the tool is made.

    The function is sync or async, with a type hint on every parameter and a docstring
    (or ``description=``). msgspec makes the input schema from the signature, and checks
    the arguments the agent sends against it: a call that does not fit is an error the
    agent sees, with msgspec's words, and the function is not called. A parameter's line
    of a Google-style ``Args:`` section becomes its description in the schema.

    A ``Tool`` is a value: equal to another made of the same function, name and
    description; calling it calls the function as written.

    Args:
        function: the function (a bound method or a ``functools.partial`` will do).
        name: the tool's name (default: the function's); 1 to 128 ASCII letters, digits,
            ``_``, ``-`` and ``.`` (MCP's rule).
        description: what the agent reads to choose the tool (default: the docstring,
            without its ``Args:`` section).

    Attributes:
        name: the tool's name.
        description: what the agent reads.
        function: the function itself.
        input_schema: the JSON Schema of the arguments (a fresh copy each time).
        output_schema: the JSON Schema of the result when the return type is a JSON
            object (a ``msgspec.Struct``, a dataclass, a ``TypedDict``, a ``dict``),
            else ``None``; such a result is also sent as MCP's ``structuredContent``.

    Raises:
        AgentConfigError: the function cannot be a tool (a parameter without a type hint,
            ``*args``/``**kwargs``, a type msgspec cannot decode, a generator, a name MCP
            does not allow, no description); the hint says how to fix it.

    Example::

        from agent_sdk.extend import Tool

        def add(a: int, b: int) -> int:
            "Add two numbers."
            return a + b

        adder = Tool(add, name="add_numbers")
        assert adder.input_schema["required"] == ["a", "b"]
        assert adder(2, 3) == 5
    """

    AGENT_SDK_KIND: ClassVar[str] = "Tool"
    """The mark the options know a tool by (``_options/checks.py``)."""

    __slots__ = ("_signature", "function")

    function: Callable[P, R]

    def __init__(
        self, function: Callable[P, R], *, name: str | None = None, description: str | None = None
    ) -> None:
        self.function = function
        self._signature: Signature = signature_of(function, name, description)

    @property
    def name(self) -> str:
        """The tool's name, as the agent calls it."""
        return self._signature.name

    @property
    def description(self) -> str:
        """What the agent reads to choose the tool."""
        return self._signature.description

    @property
    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments (a copy: changing it changes nothing)."""
        return copy.deepcopy(self._signature.input_schema)

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of an object result, or ``None`` (a copy, as above)."""
        return copy.deepcopy(self._signature.output_schema)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Call the function as written (an async function gives its coroutine)."""
        return self.function(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tool):
            return NotImplemented
        return (self.function, self.name, self.description) == (
            other.function,
            other.name,
            other.description,
        )

    def __hash__(self) -> int:
        return hash((self.function, self.name, self.description))

    def __repr__(self) -> str:
        first = self.description.splitlines()[0]
        shown = first if len(first) <= 60 else first[:57] + "..."
        return f"Tool({self.name!r}, {shown!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as what makes it, and made again where it is loaded (a fleet's task on
        # a Ray worker, docs/extend.md "In a fleet"): its signature is derived state.
        return (_remade, (self.function, self.name, self.description))

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "_signature"):
            raise AttributeError(f"a Tool cannot be changed: make a new one ({name})")
        object.__setattr__(self, name, value)


def _remade(function: Callable[..., Any], name: str, description: str) -> Tool[..., Any]:
    """A pickled tool, loaded."""
    return Tool(function, name=name, description=description)


@overload
def tool(function: Callable[P, R], /) -> Tool[P, R]: ...


@overload
def tool(
    *, name: str | None = None, description: str | None = None
) -> Callable[[Callable[P, R]], Tool[P, R]]: ...


def tool(
    function: Callable[P, R] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
) -> Tool[P, R] | Callable[[Callable[P, R]], Tool[P, R]]:
    """Make a function a :class:`Tool`: ``@tool`` or ``@tool(name=..., description=...)``.

    The decorated name is the :class:`Tool`; calling it still calls the function.

    Args:
        function: the function (when used as ``@tool``, without parentheses).
        name: the tool's name (default: the function's).
        description: what the agent reads (default: the docstring).

    Raises:
        AgentConfigError: the function cannot be a tool (see :class:`Tool`).

    Example::

        from agent_sdk.extend import tool

        @tool
        async def lookup_issue(number: int) -> str:
            \"\"\"The title of an issue of this project.

            Args:
                number: the issue's number, e.g. 26.
            \"\"\"
            return f"Issue {number}: custom tools"

        @tool(name="greet", description="Say hello to someone.")
        def hello(who: str) -> str:
            return f"Hello, {who}!"
    """
    if function is not None:
        return Tool(function, name=name, description=description)

    def decorate(function: Callable[P, R]) -> Tool[P, R]:
        return Tool(function, name=name, description=description)

    return decorate


def tools_by_name(
    tools: Iterable[Tool[..., Any] | Callable[..., Any]],
) -> dict[str, Tool[..., Any]]:
    """The tools by name, a plain function made a :class:`Tool` as ``@tool`` would.

    Raises:
        AgentConfigError: two tools have one name (the agent could not tell them apart).
    """
    found: dict[str, Tool[..., Any]] = {}
    for item in tools:
        made = item if isinstance(item, Tool) else Tool(item)
        if made.name in found:
            raise AgentConfigError(
                f"two tools are named {made.name!r}: the agent calls a tool by its name",
                hint="give one of them another name: @tool(name='...')",
            )
        found[made.name] = made
    return found
