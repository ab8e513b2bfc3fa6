"""Child-process entry point of the app's long jobs: ``python -m sgrag_app.worker <task> <job dir>``.

The job directory holds ``spec.json`` (the task's arguments), and receives ``progress.json``
(every stage's latest state, rewritten atomically at most ``WRITE_EVERY_S`` apart, plus at
each new stage and at the end) and ``result.json`` (status, JSON result or error). The app
cancels by creating ``cancel`` in the directory; a worker whose app process is gone cancels itself
and removes the directory. Secrets (the API key) come through the environment only.
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import time
import traceback
from pathlib import Path

from sgrag.errors import SgragError
from sgrag.fsutil import atomic_write_json
from sgrag.types import Progress
from sgrag_app import tasks
from sgrag_app.jobs import CANCELLED, DONE, FAILED, StageState, apply_progress

WRITE_EVERY_S = 0.5
CANCEL_CHECK_S = 0.2


class FileReporter:
    """Progress sink writing the stage states to a JSON file, throttled (the reader polls it)."""

    def __init__(self, path: Path, every_s: float = WRITE_EVERY_S):
        self.path, self.every_s = path, every_s
        self.stages: dict[str, StageState] = {}
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        new_stage = p.stage not in self.stages
        apply_progress(self.stages, p)
        now = time.monotonic()
        finished = bool(p.total) and p.done >= p.total
        if new_stage or finished or now - self._last >= self.every_s:
            self.flush()

    def flush(self) -> None:
        atomic_write_json(self.path, {k: v.to_json() for k, v in self.stages.items()})
        self._last = time.monotonic()


class CancelFlag:
    """``should_stop`` for the engine: true once the app created the cancel file (stat throttled), or
    once the app that started the job is gone: nobody could see or cancel it, and it would hold the
    workspace's writer lock and the CPU (the last good index stays)."""

    def __init__(self, path: Path):
        self.path, self._next, self._set = path, 0.0, False
        self._parent = os.getppid()
        self.orphaned = False

    def __call__(self) -> bool:
        now = time.monotonic()
        if not self._set and now >= self._next:
            self.orphaned = os.getppid() != self._parent
            self._set, self._next = self.orphaned or self.path.exists(), now + CANCEL_CHECK_S
        return self._set


def jsonable(value):
    """Task results (dicts, IngestReport dataclasses) as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def run(task: str, job_dir: Path) -> int:
    spec = json.loads((job_dir / "spec.json").read_text(encoding="utf-8"))
    report = FileReporter(job_dir / "progress.json")
    should_stop = CancelFlag(job_dir / "cancel")
    out: dict
    try:
        result = tasks.TASKS[task](spec, report, should_stop)
        out = {"status": DONE, "result": jsonable(result)}
    except SgragError as exc:
        cancelled = should_stop() and type(exc).__name__ == "BuildCancelled"
        out = {"status": CANCELLED if cancelled else FAILED, "error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - the app shows a message, the detail goes to an expander
        out = {"status": FAILED, "error": f"{type(exc).__name__}: {exc}", "detail": traceback.format_exc()}
    if should_stop.orphaned:
        shutil.rmtree(job_dir, ignore_errors=True)  # no app left to read the result and clean up
        return 0
    report.flush()
    atomic_write_json(job_dir / "result.json", out)
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], Path(sys.argv[2])))
