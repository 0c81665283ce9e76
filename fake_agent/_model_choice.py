"""The model a run of the fake runs, and what a ``--model`` run saves, as the real CLI does
(docs/protocol.md §1, "Options a wrapper exposes" and "Many runs at once"; §8.2).

- A model may be given with its parameters: the flat ``<model>-<value>`` id
  (``gpt-5-high``) or the exact bracket string (``gpt-5[reasoning=high]``). Only the
  models of :data:`MODEL_PARAMETERS` have parameters here.
- Every ``--model`` run saves, in ``cli-config.json``: the ``model`` block and
  ``hasChangedDefaultModel`` (*seen*), and ``selectedModel``, ``modelSelectionHistory``
  and the model's entry in ``modelParameters`` (*reported*). ``modelParameters`` maps a
  model id to a list of ``{"id", "value"}`` (reported); the shapes of ``selectedModel``
  (here ``{"modelId", "parameters"}``) and ``modelSelectionHistory`` (here the model ids,
  latest first, at most 10) are **unknown**: these are the fake's.
- A later run given a **bare** id runs with the parameters last saved for it (reported:
  a bare ``gpt-5.4-nano`` ran as "GPT-5.4 Nano High" after a ``-high`` run), and a run
  without ``--model`` runs the saved model with its saved parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._models import DEFAULT_MODEL, FAKE_MODELS

__all__ = ["MODEL_PARAMETERS", "Choice", "choose", "display_name", "parse_model", "save"]

#: Model id -> parameter id -> the values the "server" offers.
MODEL_PARAMETERS: dict[str, dict[str, tuple[str, ...]]] = {
    "gpt-5": {"reasoning": ("low", "medium", "high")},
}
_HISTORY = 10

Parameters = list[dict[str, str]]


def parse_model(given: str) -> tuple[str, Parameters | None] | None:
    """``(model id, parameters)`` of a ``--model`` value: parameters ``None`` for a bare
    id; ``None`` for an id the fake does not offer."""
    if given in FAKE_MODELS:
        return given, None
    for model, parameters in MODEL_PARAMETERS.items():
        for name, values in parameters.items():
            for value in values:
                if given in (f"{model}-{value}", f"{model}[{name}={value}]"):
                    return model, [{"id": name, "value": value}]
    return None


def display_name(model: str, parameters: Parameters) -> str:
    """What ``system/init`` says: the model's name, then its parameters' values
    (``GPT-5 High``)."""
    return " ".join([FAKE_MODELS[model], *(p["value"].capitalize() for p in parameters)])


def _saved(config: dict[str, Any], model: str) -> Parameters:
    """The parameters last saved for ``model`` (well-formed entries only)."""
    entry = config.get("modelParameters", {})
    found = entry.get(model) if isinstance(entry, dict) else None
    if not isinstance(found, list):
        return []
    return [
        {"id": p["id"], "value": p["value"]}
        for p in found
        if isinstance(p, dict) and isinstance(p.get("id"), str) and isinstance(p.get("value"), str)
    ]


def _stored(config: dict[str, Any]) -> str | None:
    model = config.get("model")
    found = model.get("modelId") if isinstance(model, dict) else None
    return found if isinstance(found, str) else None


@dataclass(frozen=True)
class Choice:
    """The model a run runs: its id, parameters, and whether the run saves them."""

    model: str
    parameters: Parameters
    saves: bool

    @property
    def display(self) -> str:
        return display_name(self.model, self.parameters)


def choose(given: str | None, config: dict[str, Any]) -> Choice | None:
    """The model a run given ``--model given`` (``None``: no flag) runs, with the config
    file's object ``config``; ``None`` for an unknown id (refused later, §5)."""
    if given is None:
        stored = _stored(config)
        model = stored if stored in FAKE_MODELS else DEFAULT_MODEL
        return Choice(model, _saved(config, model), saves=False)
    parsed = parse_model(given)
    if parsed is None:
        return None
    model, parameters = parsed
    return Choice(model, parameters if parameters is not None else _saved(config, model), True)


def save(data: dict[str, Any], choice: Choice) -> None:
    """Write into the config object what a ``--model`` run saves (see the module)."""
    data["model"] = {
        "modelId": choice.model,
        "displayModelId": choice.model,
        "displayName": choice.display,
        "displayNameShort": choice.display,
        "aliases": [],
        "maxMode": False,
    }
    data["hasChangedDefaultModel"] = True
    data["selectedModel"] = {"modelId": choice.model, "parameters": choice.parameters}
    history = data.get("modelSelectionHistory")
    earlier = [m for m in history if m != choice.model] if isinstance(history, list) else []
    data["modelSelectionHistory"] = [choice.model, *earlier][:_HISTORY]
    saved = data.get("modelParameters")
    data["modelParameters"] = {
        **(saved if isinstance(saved, dict) else {}),
        choice.model: choice.parameters,
    }
