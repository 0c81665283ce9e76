"""One call of a tool (agent_sdk/extend/_calls.py): the arguments checked, the function
run where it belongs, and what it returned or raised as the agent gets it."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import msgspec
import pytest

from agent_sdk._options.redaction import Redaction
from agent_sdk.extend import Tool, tool
from agent_sdk.extend._calls import Call, prepare
from agent_sdk.extend._mcp_messages import CallResult, TextContent

pytestmark = pytest.mark.anyio

SECRET = "sk-live-7c1e5a3f9b2d4e6a8c0f"
REDACT = Redaction([SECRET]).text


class Issue(msgspec.Struct):
    number: int
    title: str


def call_of(made: Tool[..., Any], arguments: bytes | None = b"{}") -> Call:
    raw = msgspec.UNSET if arguments is None else msgspec.Raw(arguments)
    prepared = prepare(made, raw, REDACT)
    assert isinstance(prepared, Call), prepared
    return prepared


async def result_of(made: Tool[..., Any], arguments: bytes | None = b"{}") -> CallResult:
    return await call_of(made, arguments)()


def returning(value: Any, returns: Any = "no hint") -> Tool[..., Any]:
    def give() -> Any:
        """Give the value."""
        return value

    del give.__annotations__["return"]
    if returns != "no hint":
        give.__annotations__["return"] = returns
    return Tool(give)


def text(value: str) -> list[TextContent]:
    return [TextContent(value)]


# --- results -----------------------------------------------------------------------------
async def test_a_string_is_one_text_content_as_it_is() -> None:
    assert await result_of(returning('say "hi"\n')) == CallResult(text('say "hi"\n'))


async def test_none_is_no_content() -> None:
    assert await result_of(returning(None)) == CallResult([])


@pytest.mark.parametrize(("value", "shown"), [(42, "42"), ([1, "a"], '[1,"a"]'), (1.5, "1.5")])
async def test_a_value_that_is_no_object_is_its_json_text_only(value: Any, shown: str) -> None:
    assert await result_of(returning(value)) == CallResult(text(shown))


async def test_an_object_is_json_text_and_structured_content() -> None:
    result = await result_of(returning({"a": 1, 2: [3]}))
    assert result == CallResult(text('{"a":1,"2":[3]}'), structured_content={"a": 1, "2": [3]})


async def test_a_struct_matching_its_return_type_is_structured_content() -> None:
    result = await result_of(returning(Issue(7, "Tools"), Issue))
    assert result.structured_content == {"number": 7, "title": "Tools"}
    assert result.content == text('{"number":7,"title":"Tools"}')
    assert not result.is_error


async def test_a_value_that_does_not_match_its_object_return_type_is_a_tool_error() -> None:
    # The tool lists an outputSchema: a result that breaks it would break the client.
    result = await result_of(returning({"number": "7"}, Issue))
    assert result == CallResult(
        text(
            "tool give returned a value that does not match its return type: "
            "Expected `int`, got `str` - at `$.number`"
        ),
        is_error=True,
    )


async def test_a_string_where_the_return_type_is_an_object_is_a_tool_error() -> None:
    result = await result_of(returning("sorry", Issue))
    assert result.is_error
    assert "Expected `object`, got `str`" in result.content[0].text


async def test_a_value_msgspec_cannot_encode_is_a_tool_error() -> None:
    result = await result_of(returning(object()))
    assert result.is_error
    assert result.content[0].text == (
        "tool give returned a value msgspec cannot encode as JSON: "
        "TypeError: Encoding objects of type object is unsupported"
    )


# --- errors -----------------------------------------------------------------------------
async def test_an_exception_is_a_tool_error_with_its_type_and_message_redacted() -> None:
    @tool
    async def fail() -> str:
        """Fail."""
        raise PermissionError(f"denied for {SECRET}")

    assert await result_of(fail) == CallResult(text("PermissionError: denied for ***"), True)


async def test_an_exception_without_a_message_is_its_type() -> None:
    @tool
    def fail() -> str:
        """Fail."""
        raise KeyError

    assert await result_of(fail) == CallResult(text("KeyError"), True)


async def test_an_exception_whose_str_fails_is_still_named() -> None:
    class Broken(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    @tool
    def fail() -> str:
        """Fail."""
        raise Broken

    assert await result_of(fail) == CallResult(text(f"{Broken.__qualname__}"), True)


async def test_a_base_exception_fails_this_call_alone() -> None:
    # Not caught, it ended the whole host (trio: TrioInternalError): issue 34.
    class Stop(BaseException):
        pass

    @tool
    def stop() -> str:
        """Stop."""
        raise Stop("now")

    assert await result_of(stop) == CallResult(text(f"{Stop.__qualname__}: now"), True)


async def test_the_calls_own_cancellation_goes_on() -> None:
    @tool
    async def forever() -> str:
        """Wait."""
        await anyio.sleep_forever()
        return ""

    with anyio.move_on_after(0.01) as scope:
        await result_of(forever)
    assert scope.cancelled_caught


# --- arguments ----------------------------------------------------------------------------
@pytest.mark.parametrize("arguments", [None, b"null", b"{}"])
async def test_no_arguments_are_an_empty_object(arguments: bytes | None) -> None:
    @tool
    def now(zone: str = "UTC") -> str:
        """The zone."""
        return zone

    assert await result_of(now, arguments) == CallResult(text("UTC"))


async def test_a_default_left_out_is_the_functions_own() -> None:
    seen: list[list[str]] = []

    @tool
    def collect(items: list[str] = []) -> None:  # noqa: B006  # the point of the test
        """Collect."""
        seen.append(items)

    await result_of(collect)
    await result_of(collect, b'{"items": ["a"]}')
    assert seen[0] is collect.function.__defaults__[0]
    assert seen[1] == ["a"]


async def test_positional_only_parameters_are_passed_by_position() -> None:
    @tool
    def div(a: float, b: float = 2.0, /) -> float:
        """Divide."""
        return a / b

    assert await result_of(div, b'{"a": 9}') == CallResult(text("4.5"))
    assert await result_of(div, b'{"b": 3, "a": 9}') == CallResult(text("3.0"))


async def test_arguments_that_do_not_fit_are_a_tool_error_before_any_call() -> None:
    called: list[int] = []

    @tool
    def add(a: int) -> int:
        """Add."""
        called.append(a)
        return a

    for arguments, words in [
        (b'{"a": "1"}', "Expected `int`, got `str` - at `$.a`"),
        (b'{"a": 1, "b": 2}', "Object contains unknown field `b`"),
        (b"{}", "Object missing required field `a`"),
    ]:
        result = prepare(add, msgspec.Raw(arguments), REDACT)
        assert result == CallResult(text(f"Invalid arguments for tool add: {words}"), True)
    assert called == []


async def test_the_words_about_arguments_are_redacted() -> None:
    @tool
    def pick(mode: str) -> str:
        """Pick."""
        return mode

    # msgspec's words name a field the agent sent: a secret can be one.
    result = prepare(pick, msgspec.Raw(b'{"mode": "a", "' + SECRET.encode() + b'": 1}'), REDACT)
    assert result == CallResult(
        text("Invalid arguments for tool pick: Object contains unknown field `***`"), True
    )


# --- where the function runs -----------------------------------------------------------------
async def test_a_sync_function_runs_in_a_worker_thread() -> None:
    threads: list[threading.Thread] = []

    @tool
    def where() -> None:
        """Where."""
        threads.append(threading.current_thread())

    await result_of(where)
    assert threads[0] is not threading.current_thread()


async def test_an_async_function_is_awaited_in_the_callers_thread() -> None:
    threads: list[threading.Thread] = []

    @tool
    async def where() -> None:
        """Where."""
        threads.append(threading.current_thread())

    await result_of(where)
    assert threads == [threading.current_thread()]


async def test_a_callable_object_with_an_async_call_is_awaited() -> None:
    class Lookup:
        async def __call__(self, number: int) -> str:
            """Look up."""
            return f"#{number}"

    assert await result_of(Tool(Lookup(), name="lookup"), b'{"number": 3}') == CallResult(
        text("#3")
    )
