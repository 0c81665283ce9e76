"""Finding and loading scenario files (NDJSON scripts of a run; see scenarios/README.md)."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._directives import DIRECTIVES, check_directive

#: The folder of the bundled scenarios, ``<name>.ndjson`` each.
SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"

#: The scenario played when neither the environment nor the prompt names one.
DEFAULT_SCENARIO = "demo"

#: Env var naming the scenario to play: a bundled name or a path to a .ndjson file.
SCENARIO_ENV = "FAKE_AGENT_SCENARIO"

_NAME = re.compile(r"[A-Za-z0-9_-]+")
# ``scenario:NAME`` anywhere in the prompt, as a whole token.
_PROMPT_TOKEN = re.compile(r"(?<!\S)scenario:([A-Za-z0-9_-]+)")


class ScenarioError(LookupError):
    """A scenario that does not exist or does not parse; ``str()`` says which and why."""


class Scenario:
    """A loaded scenario: its steps (wire events and directives) in order.

    ``steps`` are the lines as written, section markers (``only``, ``end_only``)
    included; :meth:`played` gives the steps one run plays.
    """

    def __init__(self, path: Path, steps: list[dict[str, Any]]) -> None:
        self.path = path
        self.steps = steps

    def played(self, resumed: bool) -> Scenario:
        """The scenario a run plays: the lines of its ``only`` sections kept when their
        ``resumed`` is the run's (started with ``--resume`` or not), dropped otherwise;
        the markers themselves dropped."""
        return Scenario(self.path, [step for _, step in _select(enumerate(self.steps), resumed)])

    @property
    def exit_code(self) -> int:
        """The exit code the scenario ends with: the one its last directive ends the run
        with (``exit``, ``exit_leaving_child``), else 0."""
        if self.steps:
            name = self.steps[-1].get("fake")
            code_of = DIRECTIVES[name].exit_code if isinstance(name, str) else None
            if code_of is not None:
                return code_of(self.steps[-1])
        return 0


def scenario_names() -> list[str]:
    """The names of the bundled scenarios, sorted."""
    return sorted(path.stem for path in SCENARIOS_DIR.glob("*.ndjson"))


def scenario_path(name: str) -> Path:
    """The file of the bundled scenario ``name``; ScenarioError if there is none."""
    path = SCENARIOS_DIR / f"{name}.ndjson"
    if not _NAME.fullmatch(name) or not path.is_file():
        known = ", ".join(scenario_names())
        raise ScenarioError(f"no scenario named {name!r} (known: {known})")
    return path


def is_scenario_path(value: str) -> bool:
    """Whether a scenario is given as a file (a path separator, or the ``.ndjson``
    suffix) rather than by name."""
    return value.endswith(".ndjson") or os.sep in value or "/" in value


def resolve_scenario(value: str | os.PathLike[str], dirs: Sequence[Path] = ()) -> Path:
    """The scenario file ``value`` names: the one rule every chooser of scenarios uses.

    A path (see :func:`is_scenario_path`) must be a file; a name is looked up in ``dirs``,
    in order, then among the bundled scenarios.

    Raises:
        ScenarioError: no such file or name; the message lists the names known.
    """
    text = os.fspath(value)
    if is_scenario_path(text):
        path = Path(text)
        if not path.is_file():
            raise ScenarioError(f"no scenario file {text!r}")
        return path
    if _NAME.fullmatch(text):
        for directory in dirs:
            candidate = Path(directory) / f"{text}.ndjson"
            if candidate.is_file():
                return candidate
    known = sorted({p.stem for d in dirs for p in Path(d).glob("*.ndjson")} | {*scenario_names()})
    if _NAME.fullmatch(text) and text in known:
        return scenario_path(text)
    raise ScenarioError(f"no scenario named {text!r} (known: {', '.join(known)})")


def pick_scenario(prompt: str, environ: Mapping[str, str]) -> Path:
    """The scenario file for a run: from $FAKE_AGENT_SCENARIO, a prompt token, or the default.

    The variable may hold a bundled name or a path (see :func:`resolve_scenario`), so
    users can script their own runs.
    """
    chosen = environ.get(SCENARIO_ENV, "")
    if chosen:
        return resolve_scenario(chosen)
    match = _PROMPT_TOKEN.search(prompt)
    return scenario_path(match.group(1) if match else DEFAULT_SCENARIO)


def _check_step(step: Any) -> str | None:
    if not isinstance(step, dict):
        return "not a JSON object"
    if "fake" in step:
        return check_directive(step)
    if not isinstance(step.get("type"), str):
        return "a wire event needs a string 'type'"
    return None


def load_scenario(path: Path) -> Scenario:
    """Read and check a scenario file; ScenarioError names the bad line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read scenario {str(path)!r}: {exc}") from exc
    lines: list[tuple[int, dict[str, Any]]] = []
    opened: int | None = None  # the line of the open ``only``, if any
    # Split on "\n" only: str.splitlines() would also split on U+2028 and friends,
    # which JSON allows raw inside strings.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            step = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"{path}:{number}: invalid JSON: {exc}") from exc
        problem = _check_step(step)
        if problem is None and step.get("fake") == "only" and opened is not None:
            problem = f"an 'only' section is already open (line {opened}): end it first"
        if problem is None and step.get("fake") == "end_only" and opened is None:
            problem = "'end_only' without an open 'only' section"
        if problem is not None:
            raise ScenarioError(f"{path}:{number}: {problem}")
        if step.get("fake") in ("only", "end_only"):
            opened = number if step["fake"] == "only" else None
        lines.append((number, step))
    # Checked as each run plays it, fresh and resumed: what ends the run comes last.
    for resumed in (False, True):
        for (_, step), (number, _) in itertools.pairwise(_select(lines, resumed)):
            if _ends_scenario(step):
                message = f"nothing may follow the {step['fake']!r} directive"
                raise ScenarioError(f"{path}:{number}: {message}")
    return Scenario(path, [step for _, step in lines])


def _select(
    lines: Iterable[tuple[int, dict[str, Any]]], resumed: bool
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The (already checked) lines a fresh or a resumed run plays, without the markers:
    an ``only`` section lasts until its ``end_only``, or the end of the scenario."""
    keep = True
    for number, step in lines:
        name = step.get("fake")
        if name == "only":
            keep = step["resumed"] is resumed
        elif name == "end_only":
            keep = True
        elif keep:
            yield number, step


def _ends_scenario(step: dict[str, Any]) -> bool:
    name = step.get("fake")
    return isinstance(name, str) and DIRECTIVES[name].must_be_last
