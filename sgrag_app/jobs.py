"""Background jobs (build, ingest, import, eval, index loading) that outlive a Streamlit script run.

Two runners share one ``Job`` interface (status, stages, result, cancel):

* ``Job`` runs a function in a daemon thread of the server (evaluation and index loading:
  they need the loaded engine in memory);
* ``ProcessJob`` runs a task of ``sgrag_app.worker`` in a child Python process (build,
  ingest, import, demo setup). The child writes its progress to a small JSON file at most a
  few times a second and the page reads that file when it polls, so neither the Streamlit
  server's GIL nor its reruns slow the work, and torch keeps every core it asks for.

The ``JobRegistry`` holding the jobs lives in ``st.cache_resource`` (see ``runtime.py``), so a
browser refresh or a second tab reconnects to the same running job instead of starting
another one. This module never imports streamlit, so it is unit-testable.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sgrag.errors import SgragError
from sgrag.types import Progress

log = logging.getLogger("sgrag_app.jobs")

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
MAX_HISTORY = 5000
START_STAGE = "start"  # what a ProcessJob shows before its child reports a stage of its own
START_MESSAGE = "starting its process: loading libraries and reading the input"

JobFn = Callable[["Job"], Any]


@dataclass
class StageState:
    """Latest progress of one stage plus the metric history (e.g. GNN loss per epoch)."""
    stage: str
    done: int = 0
    total: int = 0
    message: str = ""
    eta_s: float | None = None
    started: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    history: list[dict[str, float]] = field(default_factory=list)

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

    def eta(self, now: float | None = None) -> float | None:
        """Seconds left: the stage's own estimate, else its own rate so far (None before the first step)."""
        if self.total and self.done >= self.total:
            return 0.0
        if self.eta_s is not None:
            return max(0.0, self.eta_s - ((now or time.time()) - self.updated))
        if not self.total or self.done <= 0:
            return None
        rate = self.done / max(self.updated - self.started, 1e-6)
        return (self.total - self.done) / rate

    def to_json(self) -> dict:
        return {"stage": self.stage, "done": self.done, "total": self.total, "message": self.message,
                "eta_s": self.eta_s, "started": self.started, "updated": self.updated, "history": self.history}

    @classmethod
    def from_json(cls, d: dict) -> "StageState":
        return cls(str(d["stage"]), int(d.get("done", 0)), int(d.get("total", 0)), str(d.get("message", "")),
                   d.get("eta_s"), float(d.get("started", 0.0)), float(d.get("updated", 0.0)),
                   list(d.get("history") or []))


def apply_progress(stages: dict[str, StageState], p: Progress) -> None:
    """Fold one progress report into the per-stage states (shared by both runners)."""
    now = time.time()
    s = stages.get(p.stage)
    if s is None:
        s = stages[p.stage] = StageState(p.stage, started=now)
    s.done, s.total, s.message, s.eta_s, s.updated = p.done, p.total, p.message, p.eta_s, now
    if p.metrics:
        s.history.append({"step": float(p.done), **{k: float(v) for k, v in p.metrics.items()}})
        if len(s.history) > MAX_HISTORY:
            del s.history[: len(s.history) - MAX_HISTORY]


class Job:
    """One unit of background work in a thread. ``fn(job)`` calls ``job.progress`` and polls ``job.should_stop``."""

    def __init__(self, kind: str, key: str, fn: JobFn | None = None, *, label: str = ""):
        self.kind, self.key, self.label = kind, key, label or kind
        self._fn = fn
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.status = QUEUED
        self.stages: dict[str, StageState] = {}
        self.result: Any = None
        self.error: str = ""
        self.error_detail: str = ""
        self.created = time.time()
        self.finished: float | None = None
        self.thread: threading.Thread | None = None
        self.extra: dict[str, Any] = {}  # per-kind live data, e.g. the ingested paths

    # ---- called from the worker ------------------------------------------------------------
    def progress(self, p: Progress) -> None:
        with self._lock:
            apply_progress(self.stages, p)

    def should_stop(self) -> bool:
        return self._stop.is_set()

    # ---- called from the UI ---------------------------------------------------------------
    def start(self) -> "Job":
        self.thread = threading.Thread(target=self._run, name=f"sgrag-{self.kind}", daemon=True)
        self.status = RUNNING
        self.thread.start()
        return self

    def cancel(self) -> None:
        self._stop.set()

    @property
    def cancel_requested(self) -> bool:
        return self._stop.is_set()

    @property
    def active(self) -> bool:
        return self.status in (QUEUED, RUNNING)

    @property
    def elapsed(self) -> float:
        return (self.finished or time.time()) - self.created

    def snapshot(self) -> dict[str, StageState]:
        """A consistent copy of the stage states for rendering."""
        with self._lock:
            return {k: StageState(**{**v.__dict__, "history": list(v.history)}) for k, v in self.stages.items()}

    def wait(self, timeout: float | None = None) -> bool:
        if self.thread is not None:
            self.thread.join(timeout)
        return not self.active

    def _finish(self, status: str, result: Any = None, error: str = "", detail: str = "") -> None:
        self.result, self.error, self.error_detail = result, error, detail
        self.finished = time.time()
        self.status = status  # last: readers see a finished job only with its result in place

    def _run(self) -> None:
        try:
            result = self._fn(self)
            self._finish(CANCELLED if self._stop.is_set() and result is None else DONE, result)
        except SgragError as exc:
            cancelled = self._stop.is_set() and type(exc).__name__ == "BuildCancelled"
            self._finish(CANCELLED if cancelled else FAILED, error=str(exc))
        except Exception as exc:  # the UI must show a message, never a traceback
            log.exception("background %s job failed", self.kind)
            self._finish(FAILED, error=f"{type(exc).__name__}: {exc}", detail=traceback.format_exc())


class ProcessJob(Job):
    """A ``sgrag_app.worker`` task in a child process; progress and result come back through files.

    ``spec`` is the task's JSON-able argument; ``secret_env`` (e.g. the API key) goes to the
    child through its environment only, never through a file or the command line.
    """

    def __init__(self, kind: str, key: str, task: str, spec: dict, *, label: str = "",
                 secret_env: dict[str, str] | None = None, decode: Callable[[Any], Any] | None = None):
        super().__init__(kind, key, label=label)
        self.task, self.spec = task, spec
        self._secret_env = {k: v for k, v in (secret_env or {}).items() if v}
        self._decode = decode or (lambda x: x)
        self.dir = Path(tempfile.mkdtemp(prefix=f"sgrag-{kind}-"))
        self.proc: subprocess.Popen | None = None
        self._seen: tuple[float, int] | None = None

    @property
    def progress_file(self) -> Path:
        return self.dir / "progress.json"

    def start(self) -> "ProcessJob":
        (self.dir / "spec.json").write_text(json.dumps(self.spec), encoding="utf-8")
        env = {**os.environ, **self._secret_env}
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        with open(self.dir / "stderr.log", "wb") as err:
            self.proc = subprocess.Popen([sys.executable, "-m", "sgrag_app.worker", self.task, str(self.dir)],
                                         cwd=root, env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=err)
        self.status = RUNNING
        self.thread = threading.Thread(target=self._watch, name=f"sgrag-{self.kind}-watch", daemon=True)
        self.thread.start()
        return self

    def cancel(self) -> None:
        super().cancel()
        (self.dir / "cancel").touch()

    def snapshot(self) -> dict[str, StageState]:
        """The child's last written progress (re-read only when the file changed), after a ``START_STAGE``
        covering the seconds the child spends starting (imports, reading its input) before its first stage."""
        try:
            st = self.progress_file.stat()
            seen = (st.st_mtime, st.st_size)
            if seen != self._seen:
                data = json.loads(self.progress_file.read_text(encoding="utf-8"))
                child = {k: StageState.from_json(v) for k, v in data.items()}
                first = min((c.started for c in child.values()), default=None)
                start = StageState(START_STAGE, 1, 1, f"ready after {max(first - self.created, 0):.1f} s",
                                   started=self.created, updated=first) \
                    if first is not None else StageState(START_STAGE, 0, 0, START_MESSAGE, started=self.created)
                with self._lock:
                    self.stages = {START_STAGE: start, **child}
                self._seen = seen
        except (OSError, ValueError):
            pass  # not written yet, or replaced while reading: the last copy stays
        with self._lock:
            if not self.stages:
                self.stages = {START_STAGE: StageState(START_STAGE, 0, 0, START_MESSAGE, started=self.created)}
        return super().snapshot()

    def _watch(self) -> None:
        code = self.proc.wait()  # blocks without the GIL
        self.snapshot()
        try:
            out = json.loads((self.dir / "result.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = (self.dir / "stderr.log").read_text(encoding="utf-8", errors="replace")[-4000:]
            log.error("%s worker exited with code %s:\n%s", self.kind, code, tail)
            self._finish(FAILED, error=f"the {self.label} process stopped unexpectedly (exit code {code})",
                         detail=tail)
        else:
            status = out.get("status", FAILED)
            try:
                result = self._decode(out.get("result")) if status == DONE else None
            except Exception as exc:  # noqa: BLE001 - a result we cannot read is a failure, not a crash
                status, out["error"] = FAILED, f"unreadable result: {type(exc).__name__}: {exc}"
                result = None
            self._finish(status, result, out.get("error", ""), out.get("detail", ""))
        shutil.rmtree(self.dir, ignore_errors=True)


class OutsideWriter(Job):
    """A writer this server did not start (a CLI ``sgrag build``/``ingest``/``import-kg``) seen through the
    workspace's lock note and the progress file its build writes: a read-only ``Job`` the pages can show
    and poll. Active while that process holds the lock; it has no result (the index appears when done)."""

    def __init__(self, ws, note: dict):
        super().__init__("outside", str(ws.path), label=f"sgrag {note.get('command', 'command')}")
        self.ws, self.pid = ws, note.get("pid")
        if isinstance(note.get("since"), (int, float)):
            self.created = float(note["since"])
        self.status = RUNNING

    @property
    def active(self) -> bool:
        note = self.ws.running_writer()
        running = note is not None and note.get("pid") == self.pid
        if not running and self.status == RUNNING:
            self._finish(DONE)
        return running

    def snapshot(self) -> dict[str, StageState]:
        stages = {}
        for k, v in self.ws.build_progress().items():
            with contextlib.suppress(KeyError, TypeError, ValueError):
                stages[k] = StageState.from_json(v)
        with self._lock:
            self.stages = stages or self.stages  # the last copy stays once the build has removed its file
        return super().snapshot()


class JobRegistry:
    """The jobs of this server process, one current job per (kind, key)."""

    def __init__(self) -> None:
        self._jobs: dict[tuple[str, str], Job] = {}
        self._lock = threading.Lock()

    def get(self, kind: str, key: str) -> Job | None:
        return self._jobs.get((kind, key))

    def active_for(self, key: str) -> list[Job]:
        return [j for (_, kk), j in list(self._jobs.items()) if kk == key and j.active]

    def active(self, kinds: tuple[str, ...] | None = None) -> list[Job]:
        """Every running job, of every workspace (optionally only some kinds)."""
        return [j for (k, _), j in list(self._jobs.items()) if j.active and (kinds is None or k in kinds)]

    def start(self, kind: str, key: str, fn: JobFn | Job, *, label: str = "",
              exclusive: tuple[str, ...] = ()) -> Job:
        """Start a job unless one of ``kind`` (or a kind in ``exclusive``) already runs for ``key``.

        ``fn`` is a thread function, or a ready (unstarted) ``Job`` such as a ``ProcessJob``.
        """
        with self._lock:
            for k in (kind, *exclusive):
                cur = self._jobs.get((k, key))
                if cur is not None and cur.active:
                    raise SgragError(f"a {cur.label} is already running for this workspace; "
                                     f"wait for it or cancel it first")
            job = fn if isinstance(fn, Job) else Job(kind, key, fn, label=label)
            self._jobs[(kind, key)] = job
            return job.start()

    def forget(self, kind: str, key: str) -> None:
        with self._lock:
            job = self._jobs.get((kind, key))
            if job is not None and not job.active:
                del self._jobs[(kind, key)]


BUILD_STAGES = ("embeddings", "faiss", "gnn", "paths", "rtree", "evidence")  # what a build reports, in order


def build_percent(job: Job) -> int:
    """Overall progress of a build job: each build stage an equal share."""
    stages = job.snapshot()
    return int(100 * sum(stages[s].fraction if s in stages else 0.0 for s in BUILD_STAGES) / len(BUILD_STAGES))


class EngineCache:
    """Loaded engines by key (path, index version, settings), loaded in a background thread.

    A page asks for an engine and gets the loading ``Job``: done -> ``job.result`` is the
    engine; active -> the page shows its "load" progress instead of blocking; failed -> the
    error. Only the ``size`` most recently used engines stay in memory.
    """

    def __init__(self, size: int = 3) -> None:
        self.size = size
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def load(self, key: str, ws_path: str, loader: JobFn, *, retry: bool = False) -> Job:
        with self._lock:
            job = self._jobs.pop(key, None)
            if job is None or (retry and job.status == FAILED):
                job = Job("load", ws_path, loader, label="index loading").start()
            self._jobs[key] = job  # most recently used last
            for old in [k for k, j in self._jobs.items() if not j.active][: max(0, len(self._jobs) - self.size)]:
                del self._jobs[old]
            return job

    def loading(self) -> list[Job]:
        with self._lock:
            return [j for j in self._jobs.values() if j.active]

    def clear(self, ws_path: str | None = None) -> None:
        """Forget the engines (of one workspace, or all)."""
        with self._lock:
            for k in [k for k, j in self._jobs.items() if ws_path is None or j.key == ws_path]:
                del self._jobs[k]
