"""The ``interaction_query`` events (docs/protocol.md §3.6b): a request the CLI makes and
the response it gives itself, generic or typed for the query types the contract shapes (a
plan in ``--mode plan``, a web search, a web fetch, a question for the user).

Private module: these classes are public as :mod:`agent_sdk.events` names (and
``agent_sdk``'s), which re-exports them; import them from there.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from .event_base import _Event

if TYPE_CHECKING:
    from ..tools import AskQuestionArgs, CreatePlanArgs, WebFetchArgs, WebSearchArgs

__all__ = [
    "CREATE_PLAN_QUERY",
    "TYPED_QUERIES",
    "AskQuestionRequest",
    "AskQuestionResponse",
    "CreatePlanRequest",
    "CreatePlanResponse",
    "InteractionRequest",
    "InteractionResponse",
    "WebFetchRequest",
    "WebFetchResponse",
    "WebSearchRequest",
    "WebSearchResponse",
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
        from ..tools import CreatePlanArgs

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
    def response_key(self) -> str:
        """The key of ``response`` that holds the answer: the one object beside ``id``
        (``createPlanRequestResponse``, ``webSearchRequestResponse``, ...). Found, never
        derived from :attr:`query_type`: the names do not follow one rule
        (docs/protocol.md §3.6b). ``""`` if there is none."""
        return next((k for k, v in self.response.items() if k != "id" and isinstance(v, dict)), "")

    @property
    def payload(self) -> dict[str, Any]:
        """The answer, as sent: the object under :attr:`response_key` (``{}`` if none)."""
        value = self.response.get(self.response_key)
        return value if isinstance(value, dict) else {}

    def _outcomes(self) -> dict[str, Any]:
        # The outcome sits in the answer's `result` (a plan, a question), or is the
        # answer's own key (`{"approved": {}}` for a web search or fetch).
        result = self.payload.get("result")
        return result if isinstance(result, dict) else self.payload

    @property
    def outcome(self) -> str | None:
        """The answer's outcome key: ``"success"``, ``"approved"``, ``"rejected"``, ...,
        from its ``result`` or, where it has none, from the answer itself (``None`` if
        the answer holds no outcome)."""
        outcomes = self._outcomes()
        if "success" in outcomes:
            return "success"
        # Scalar siblings (`planUri`) are not outcomes.
        return next((k for k, v in outcomes.items() if isinstance(v, dict)), None)

    @property
    def reason(self) -> str | None:
        """The ``reason`` the outcome gives (``"User Rejected"``, ...), if any."""
        outcome = self.outcome
        body = self._outcomes().get(outcome) if outcome is not None else None
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


# --- web search, web fetch, questions (reported shapes, docs/protocol.md §3.6b) ---------
class WebSearchRequest(InteractionRequest, tag="interaction_query", frozen=True):
    """A ``webSearchRequestQuery``: the agent asks to search the web for
    ``args.search_term``."""

    @functools.cached_property
    def args(self) -> WebSearchArgs:
        """What is searched, typed (checked when the event is decoded)."""
        from ..tools import WebSearchArgs

        return msgspec.convert(self.payload.get("args", {}), WebSearchArgs)

    @property
    def tool_call_id(self) -> str | None:
        """The ``call_id`` of the call the search is for (``args.tool_call_id``)."""
        return self.args.tool_call_id


class WebSearchResponse(InteractionResponse, tag="interaction_query", frozen=True):
    """The answer to a :class:`WebSearchRequest`: ``outcome == "approved"`` when the
    search may run."""

    @property
    def approved(self) -> bool:
        return self.outcome == "approved"


class WebFetchRequest(InteractionRequest, tag="interaction_query", frozen=True):
    """A ``webFetchRequestQuery``: the agent asks to fetch ``args.url``."""

    @functools.cached_property
    def args(self) -> WebFetchArgs:
        """What is fetched, typed (checked when the event is decoded)."""
        from ..tools import WebFetchArgs

        return msgspec.convert(self.payload.get("args", {}), WebFetchArgs)

    @property
    def tool_call_id(self) -> str | None:
        """The ``call_id`` of the call the fetch is for (``args.tool_call_id``)."""
        return self.args.tool_call_id

    @property
    def skip_approval(self) -> bool | None:
        """The query's ``skipApproval``: whether the fetch needs no approval."""
        value = self.payload.get("skipApproval")
        return value if type(value) is bool else None


class WebFetchResponse(InteractionResponse, tag="interaction_query", frozen=True):
    """The answer to a :class:`WebFetchRequest`: ``outcome == "approved"`` when the
    fetch may run."""

    @property
    def approved(self) -> bool:
        return self.outcome == "approved"


class AskQuestionRequest(InteractionRequest, tag="interaction_query", frozen=True):
    """An ``askQuestionInteractionQuery``: the agent asks the user ``args.questions``.
    A headless run answers it itself, rejected, before the ``askQuestionToolCall``
    starts: seeing one never means the run waits for an answer."""

    @functools.cached_property
    def args(self) -> AskQuestionArgs:
        """The questions, typed (checked when the event is decoded)."""
        from ..tools import AskQuestionArgs

        return msgspec.convert(self.payload.get("args", {}), AskQuestionArgs)

    @property
    def tool_call_id(self) -> str | None:
        """The ``call_id`` of the ``askQuestionToolCall`` the question belongs to."""
        value = self.payload.get("toolCallId")
        return value if isinstance(value, str) else None


class AskQuestionResponse(InteractionResponse, tag="interaction_query", frozen=True):
    """The answer to an :class:`AskQuestionRequest`: in a headless run ``rejected``,
    with the :attr:`reason` the agent is told (the questions were skipped)."""


TYPED_QUERIES: dict[str, tuple[type[InteractionRequest], type[InteractionResponse]]] = {
    CREATE_PLAN_QUERY: (CreatePlanRequest, CreatePlanResponse),
    "webSearchRequestQuery": (WebSearchRequest, WebSearchResponse),
    "webFetchRequestQuery": (WebFetchRequest, WebFetchResponse),
    "askQuestionInteractionQuery": (AskQuestionRequest, AskQuestionResponse),
}
"""The request and response classes of each query type with a shape (docs/protocol.md
§3.6b); any other ``query_type`` is an :class:`InteractionRequest` /
:class:`InteractionResponse`."""


_PAIRED_REQUEST = "_agent_sdk_request"
"""Where a stream puts, in a response's ``__dict__``, the request it answers."""


def pair_interaction(request: InteractionRequest, response: InteractionResponse) -> None:
    """Record on ``response`` the request it answers (see :attr:`InteractionResponse.request`)."""
    # Events are frozen, but have a __dict__ (like tool calls, for computed values).
    response.__dict__[_PAIRED_REQUEST] = request
