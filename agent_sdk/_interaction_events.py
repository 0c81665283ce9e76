"""The ``interaction_query`` events (docs/protocol.md §3.6b): a request the CLI makes and
the response it gives itself, generic or for a plan (``--mode plan``).

Private module: these classes are public as :mod:`agent_sdk.events` names (and
``agent_sdk``'s), which re-exports them; import them from there.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from ._event_base import _Event

if TYPE_CHECKING:
    from .tools import CreatePlanArgs

__all__ = [
    "CREATE_PLAN_QUERY",
    "CreatePlanRequest",
    "CreatePlanResponse",
    "InteractionRequest",
    "InteractionResponse",
    "pair_interaction",
]

CREATE_PLAN_QUERY = "createPlanRequestQuery"
"""The ``query_type`` of the plan a ``--mode plan`` run asks to have approved."""


def _wire_id(value: object) -> int | str | None:
    # bool is an int in Python, never an id on the wire.
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


class _InteractionEvent(_Event, tag="interaction_query", frozen=True, gc=True, dict=True):
    type: ClassVar[str] = "interaction_query"
    query_type: str = ""
    """The kind of query, as the CLI spells it: ``"createPlanRequestQuery"``, ..."""


class InteractionRequest(_InteractionEvent, tag="interaction_query", frozen=True):
    """The CLI asks for an interaction (docs/protocol.md §3.6b), which in print mode it
    settles itself: an :class:`InteractionResponse` with the same :attr:`id` follows.

    This class is the generic one, for any ``query_type``; a plan's request is a
    :class:`CreatePlanRequest`.
    """

    subtype: Literal["request"] = "request"
    query: dict[str, Any] = msgspec.field(default_factory=dict)
    """The wire ``query`` object: its ``id`` and, under the key :attr:`query_type`, the payload."""

    @property
    def id(self) -> int | str | None:
        """The id pairing this request with its response (``None`` if the CLI sent none)."""
        return _wire_id(self.query.get("id"))

    @property
    def payload(self) -> dict[str, Any]:
        """What the query asks, as sent (the object under :attr:`query_type`)."""
        value = self.query.get(self.query_type)
        return value if isinstance(value, dict) else {}


class CreatePlanRequest(InteractionRequest, tag="interaction_query", frozen=True):
    """A ``createPlanRequestQuery``: the agent asks to have its plan approved (plan mode).

    Example::

        case CreatePlanRequest():
            print(event.args.name, len(event.args.todos))
    """

    @functools.cached_property
    def args(self) -> CreatePlanArgs:
        """The plan, typed (checked when the event is decoded): the same type as the
        ``createPlanToolCall``'s arguments."""
        from .tools import CreatePlanArgs

        return msgspec.convert(self.payload.get("args", {}), CreatePlanArgs)

    @property
    def tool_call_id(self) -> str | None:
        """The ``call_id`` of the ``createPlanToolCall`` this plan came from."""
        value = self.payload.get("toolCallId")
        return value if isinstance(value, str) else None


class InteractionResponse(_InteractionEvent, tag="interaction_query", frozen=True):
    """How the CLI answered an :class:`InteractionRequest`: same :attr:`id`, same
    :attr:`query_type`. :attr:`request` is that request, when a stream paired them.

    This class is the generic one; a plan's answer is a :class:`CreatePlanResponse`.
    """

    subtype: Literal["response"] = "response"
    response: dict[str, Any] = msgspec.field(default_factory=dict)
    """The wire ``response`` object: its ``id`` and one key (``createPlanRequestResponse``
    for ``createPlanRequestQuery``) holding the payload."""

    @property
    def id(self) -> int | str | None:
        """The id of the request this answers (``None`` if the CLI sent none)."""
        return _wire_id(self.response.get("id"))

    @property
    def payload(self) -> dict[str, Any]:
        """The answer, as sent: the object under the response key named after
        :attr:`query_type` (``…Query`` → ``…Response``), else the one object beside ``id``."""
        value = self.response.get(self.query_type.removesuffix("Query") + "Response")
        if not isinstance(value, dict):
            others = [v for k, v in self.response.items() if k != "id" and isinstance(v, dict)]
            value = others[0] if len(others) == 1 else {}
        return value

    @property
    def outcome(self) -> str | None:
        """The key of the answer's ``result``: ``"success"``, ``"rejected"``, ... (``None``
        if the answer has no result object)."""
        result = self.payload.get("result")
        if not isinstance(result, dict):
            return None
        if "success" in result:
            return "success"
        # Scalar siblings (`planUri`) are not outcomes.
        return next((k for k, v in result.items() if isinstance(v, dict)), None)

    @property
    def reason(self) -> str | None:
        """The ``reason`` the outcome gives (``"User Rejected"``, ...), if any."""
        result = self.payload.get("result")
        body = result.get(self.outcome) if isinstance(result, dict) and self.outcome else None
        reason = body.get("reason") if isinstance(body, dict) else None
        return reason if isinstance(reason, str) else None

    @property
    def request(self) -> InteractionRequest | None:
        """The request this answers, if the stream that decoded both paired them
        (every run and replay does); ``None`` if the request was not seen."""
        request = self.__dict__.get(_PAIRED_REQUEST)
        return request if isinstance(request, InteractionRequest) else None


class CreatePlanResponse(InteractionResponse, tag="interaction_query", frozen=True):
    """The answer to a :class:`CreatePlanRequest`: ``outcome == "success"`` is an approved plan."""

    @property
    def plan_uri(self) -> str | None:
        """Where the CLI stored the plan (``""`` when it stored it nowhere)."""
        result = self.payload.get("result")
        value = result.get("planUri") if isinstance(result, dict) else None
        return value if isinstance(value, str) else None


_PAIRED_REQUEST = "_agent_sdk_request"
"""Where a stream puts, in a response's ``__dict__``, the request it answers."""


def pair_interaction(request: InteractionRequest, response: InteractionResponse) -> None:
    """Record on ``response`` the request it answers (see :attr:`InteractionResponse.request`)."""
    # Events are frozen, but have a __dict__ (like tool calls, for computed values).
    response.__dict__[_PAIRED_REQUEST] = request
