"""A chat id chosen before the run: :func:`new_session_id`, and the check of the one
``AgentOptions(new_session_id=...)`` is given (docs/protocol.md §1, "Hidden flags").

The CLI's hidden ``--new-session-id <uuid>`` makes the run's chat, and its ``session_id``,
that uuid; an id is single use (a second run with it fails, docs/protocol.md §5). Loaded
when first used (options given an id, an id minted), not by ``import agent_sdk``.
"""

from __future__ import annotations

from ..errors import AgentConfigError

__all__ = ["check_new_session_id", "new_session_id", "session_id_problem"]

_HEX = frozenset("0123456789abcdef")
_DASHES = (8, 13, 18, 23)  # the canonical form: 8-4-4-4-12 hex digits
_HOW = "make one with agent_sdk.new_session_id(), or str(uuid.uuid4())"


def new_session_id() -> str:
    """A fresh chat id for ``AgentOptions(new_session_id=...)``: a random UUID (version 4)
    in its canonical lowercase form, e.g. ``"0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"``.

    Each id starts one chat: store it before the run, then continue that chat with
    ``AgentOptions(resume=...)`` or ``Session(session_id)`` (docs/sessions.md).
    """
    import uuid  # here: only a caller who mints an id pays its import

    return str(uuid.uuid4())


def session_id_problem(value: str) -> tuple[str, str] | None:
    """What is wrong with ``value`` as a chat id chosen up front, and how to fix it;
    ``None`` when it is a UUID in its canonical lowercase form (``str(uuid.UUID)``'s).

    Only that form: it is what the run reports back as its ``session_id`` and what
    ``resume=`` finds again; how the CLI compares another spelling of the same UUID is not
    known (docs/protocol.md §1).
    """
    if len(value) == 36 and all(value[at] == "-" for at in _DASHES):
        digits = value.replace("-", "")
        if len(digits) == 32 and _HEX.issuperset(digits):
            return None
        if len(digits) == 32 and _HEX.issuperset(digits.lower()):
            return "it is a UUID in capitals", f"write it in lowercase: {value.lower()!r}"
    return "it must be a UUID (8-4-4-4-12 lowercase hex digits)", _HOW


def check_new_session_id(chosen: str, resume: str | None, continue_session: bool) -> None:
    """The rules of ``AgentOptions(new_session_id=chosen)``: a UUID (:func:`session_id_problem`),
    for a new chat, so neither with ``resume`` nor with ``continue_session``.

    Raises:
        AgentConfigError: a rule is broken; the message says which, the hint the fix.
    """
    problem = session_id_problem(chosen)
    if problem is not None:
        shown = repr(chosen) if len(chosen) <= 80 else repr(chosen[:77]) + "..."
        raise AgentConfigError(
            f"AgentOptions(new_session_id={shown}): {problem[0]}", hint=problem[1]
        )
    if resume is not None or continue_session:
        other = f"resume={resume!r}" if resume is not None else "continue_session=True"
        raise AgentConfigError(
            f"pass either new_session_id=... (a new chat) or {other} (an earlier one), not both",
            hint="an id chosen up front is single use: once its chat exists, continue it "
            "with resume=<that id> alone",
        )
