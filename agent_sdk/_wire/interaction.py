"""``interaction_query`` lines to their public events (docs/protocol.md §3.6b): rare
events, whose payload is checked when they are decoded, and the error that sends any line
that does not fit back to be decoded on its own (``decode.py``).
"""

from __future__ import annotations

import msgspec

from ..events import (
    AskQuestionRequest,
    CreatePlanRequest,
    InteractionRequest,
    InteractionResponse,
    WebFetchRequest,
    WebSearchRequest,
)
from .interaction_events import TYPED_QUERIES
from .line_shapes import InteractionWire

__all__ = ["NeedsLineError", "public_interaction"]


class NeedsLineError(Exception):
    """An event that can only be built from its own line: an unknown subtype, or a
    field of the wrong shape (rare). Its message, if any, says what did not fit."""


def public_interaction(wire: InteractionWire) -> InteractionRequest | InteractionResponse:
    # docs/protocol.md §3.6b. Rare events: their payload is checked here, and a shape that
    # does not fit makes the line an UnknownEvent saying why.
    event: InteractionRequest | InteractionResponse
    request_class, response_class = TYPED_QUERIES.get(
        wire.query_type, (InteractionRequest, InteractionResponse)
    )
    if not wire.query_type:
        raise NeedsLineError("interaction_query without a query_type")
    if wire.subtype == "request":
        if wire.query is None:
            raise NeedsLineError("interaction_query request without a query object")
        if not isinstance(wire.query.get(wire.query_type), dict):
            raise NeedsLineError(f"interaction_query request: no {wire.query_type} object")
        event = request_class(
            query_type=wire.query_type,
            query=wire.query,
            session_id=wire.session_id,
            timestamp_ms=wire.timestamp_ms,
        )
        if request_class is not InteractionRequest:
            event = _with_typed_args(event)
    elif wire.subtype == "response":
        if wire.response is None:
            raise NeedsLineError("interaction_query response without a response object")
        event = response_class(
            query_type=wire.query_type,
            response=wire.response,
            session_id=wire.session_id,
            timestamp_ms=wire.timestamp_ms,
        )
    else:
        raise NeedsLineError(f"interaction_query of unknown subtype {wire.subtype!r}")
    held = event.query if isinstance(event, InteractionRequest) else event.response
    if event.id is None and "id" in held:
        raise NeedsLineError("interaction_query id is neither a number nor a string")
    return event


def _with_typed_args(event: InteractionRequest) -> InteractionRequest:
    """``event`` with its ``args`` checked now (and kept) rather than on first access.
    A plan whose args do not fit is an error (its shape was seen); a query type whose
    shape is only reported falls back to the generic class, its payload kept."""
    try:
        if isinstance(
            event, (CreatePlanRequest, WebSearchRequest, WebFetchRequest, AskQuestionRequest)
        ):
            event.args  # noqa: B018 - checked now, kept for later
    except msgspec.ValidationError as exc:
        if isinstance(event, CreatePlanRequest):
            raise NeedsLineError(f"{event.query_type} args: {exc}") from None
        return InteractionRequest(
            query_type=event.query_type,
            query=event.query,
            session_id=event.session_id,
            timestamp_ms=event.timestamp_ms,
        )
    return event
