"""What a narrow terminal shows of agent-sdk's own words (issue 35): a usage error, the
help's usage and the summary are folded at word boundaries to the terminal's width, never
cut mid-word by the terminal (``a`` / ``gent-sdk ...``), and the summary leaves no word
alone on a line.

Each test runs the command in a pseudo-terminal of the given width and reads the screen
back through a terminal emulator (``terminal.PtyRun``); the same command with its output
in a pipe (nothing folded) says which words there are.
"""

from __future__ import annotations

import pytest
from cli_process import cli
from terminal import PtyRun


def _words(text: str) -> list[str]:
    return text.split()


def _unwrapped(lines: list[str], columns: int) -> list[str]:
    """The lines as written: a row the terminal filled (a word wider than the terminal,
    which no folding can help) joined with the row it wrapped onto."""
    joined: list[str] = []
    wrapped = False
    for line in lines:
        if wrapped:
            joined[-1] += line
        else:
            joined.append(line)
        wrapped = len(line) >= columns
    return joined


def _fits(lines: list[str], columns: int) -> list[str]:
    """The lines the terminal had to wrap: as wide as it (a row of pyte holds exactly
    ``columns`` cells), unless one word, which no folding can help."""
    return [line for line in lines if len(line) >= columns and len(line.split()) > 1]


@pytest.mark.parametrize(
    "args",
    [
        ["--fake", "fix", "the", "bug"],
        ["--color", "bad", "hi"],
        ["--no-such-flag", "hi"],
        ["batch", "--limit", "0", "tasks.jsonl"],
        ["replay"],
        ["--binary", "/nonexistent/cursor-agent", "hi"],  # an error with its hint
    ],
)
@pytest.mark.parametrize("columns", [40, 60])
def test_an_error_is_folded_to_the_terminal_at_word_boundaries(
    args: list[str], columns: int
) -> None:
    piped = cli(*args)
    with PtyRun(args, columns=columns) as run:
        assert run.wait() == piped.returncode == 2
    lines = run.lines()
    assert not _fits(lines, columns), lines
    assert _words(" ".join(_unwrapped(lines, columns))) == _words(piped.stderr)


@pytest.mark.parametrize("command", [[], ["batch"], ["replay"]])
@pytest.mark.parametrize("columns", [40, 60])
def test_the_helps_usage_is_folded_to_the_terminal_at_word_boundaries(
    command: list[str], columns: int
) -> None:
    # argparse fits the usage to COLUMNS, but keeps each [--flag VALUE] whole after an
    # indent as wide as "usage: agent-sdk [run] ": a group wider than what is left runs
    # past the edge, and the terminal cuts it mid-word.
    wide = cli(*command, "--help", COLUMNS="1000").stdout.split("\n\n")[0]
    with PtyRun([*command, "--help"], columns=columns) as run:
        assert run.wait() == 0
    lines = run.lines()
    usage = lines[: lines.index("")]
    assert not _fits(usage, columns), usage
    assert _words(" ".join(_unwrapped(usage, columns))) == _words(wide)


@pytest.mark.parametrize("columns", [40, 50, 60, 70])
def test_the_summary_leaves_no_word_alone_on_a_line(columns: int) -> None:
    with PtyRun(["--fake", "tools", "add a test"], columns=columns) as run:
        assert run.wait() == 0
    lines = run.lines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  tokens "))
    end = next(i for i, line in enumerate(lines) if line.startswith("  session"))
    rows = lines[start:end]
    assert all(len(row) < columns for row in rows), rows
    # "· 0 cache" then "write" alone was the 60-column screen.
    assert all(len(row.replace("·", " ").split()) > 1 for row in rows), rows
    assert _words(" ".join(rows)) == _words(
        "tokens 115 in · 18 out · 19,776 cache read · 0 cache write tools 17: 16 ✓, 1 non-zero exit"
    )
