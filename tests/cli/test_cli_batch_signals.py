"""``agent-sdk batch`` signalled (docs/cli.md): SIGTERM cancels the batch, ends every CLI
and still writes the summary and the report; more signals during the teardown (Ctrl-C
thrice, SIGTERM twice, both) still report, exit as the first said, and leave no worktree,
config dir or CLI behind.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from batch_tasks import StalledBatch, _fakes_playing, scenario, write_tasks
from cli_process import cli_env


def test_sigterm_cancels_the_batch_ends_every_cli_and_still_writes_the_report(
    tmp_path: Path,
) -> None:
    stall = tmp_path / "stall_here.ndjson"  # a name no other process has in its argv
    stall.write_text('{"type":"system","subtype":"init","session_id":"s"}\n{"fake":"stall"}\n')
    lines = [{"prompt": "p", "id": "done"}]
    lines += [{"prompt": "p", "options": scenario(str(stall))} for _ in range(3)]
    tasks = write_tasks(tmp_path / "t.jsonl", *lines)
    html = tmp_path / "r.html"
    argv = ["batch", str(tasks), "--fake", "--json", "--limit", "2", "--html", str(html)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent_sdk", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )
    try:
        deadline = time.monotonic() + 30  # a hang guard
        while len(_fakes_playing(stall)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the stalled tasks never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert "terminated; the runs were cancelled" in err
    assert _fakes_playing(stall) == []
    summary = json.loads(out)
    assert summary["stopped"] == "terminated"
    statuses = [result["status"] for result in summary["results"]]
    assert statuses == ["succeeded", "interrupted", "interrupted", "not started"]
    assert "The batch was terminated" in html.read_text()


@pytest.mark.parametrize(
    ("signals", "gap", "status", "how"),
    [
        ([signal.SIGINT] * 3, 0.005, 130, "interrupted"),
        ([signal.SIGTERM] * 2, 0.05, 143, "terminated"),
        ([signal.SIGTERM, signal.SIGINT, signal.SIGINT], 0.02, 143, "terminated"),
    ],
    ids=["ctrl-c thrice", "sigterm twice", "sigterm then ctrl-c twice"],
)
def test_more_signals_during_teardown_still_report_and_leave_nothing(
    tmp_path: Path,
    git_env: None,
    signals: list[signal.Signals],
    gap: float,
    status: int,
    how: str,
) -> None:
    batch = StalledBatch(tmp_path)
    try:
        batch.wait_until_running()
        for number, signum in enumerate(signals):
            if number:
                time.sleep(gap)  # the next one lands in the teardown of the first
            batch.proc.send_signal(signum)
        out, err = batch.proc.communicate(timeout=60)
    finally:
        batch.close()
    assert batch.proc.returncode == status, err
    assert f"agent-sdk: error: {how}; the runs were cancelled" in err
    assert "Traceback" not in err
    summary = json.loads(out)
    assert summary["stopped"] == how
    assert [r["status"] for r in summary["results"]] == ["interrupted"] * 3
    assert f"The batch was {how}" in batch.html.read_text()
    assert batch.left() == []  # no worktree, no config dir (auth.json), no git entry
    assert _fakes_playing(batch.stall) == []
