"""Background jobs (build, ingest, import, eval) that outlive a Streamlit script run.

A ``Job`` runs a function in a daemon thread and records its progress; the ``JobRegistry``
holding the jobs lives in ``st.cache_resource`` (see ``runtime.py``), so a browser refresh
or a second tab reconnects to the same running job instead of starting another one. This
module never imports streamlit, so it is unit-testable.
"""
from __future__ import annotations

import logging
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from sgrag.errors import SgragError
from sgrag.types import Progress

log = logging.getLogger("sgrag_app.jobs")

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"

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


class Job:
    """One unit of background work. ``fn(job)`` calls ``job.progress`` and polls ``job.should_stop``."""

    def __init__(self, kind: str, key: str, fn: JobFn, *, label: str = ""):
        self.kind, self.key, self.label = kind, key, label or kind
        self._fn = fn
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.status = QUEUED
        self.stages: dict[str, StageState] = {}
        self.log: list[str] = []
        self.result: Any = None
        self.error: str = ""
        self.error_detail: str = ""
        self.created = time.time()
        self.finished: float | None = None
        self.thread: threading.Thread | None = None
        self.extra: dict[str, Any] = {}  # per-kind live data, e.g. per-file ingest status

    # ---- called from the worker ------------------------------------------------------------
    def progress(self, p: Progress) -> None:
        with self._lock:
            st = self.stages.get(p.stage)
            if st is None:
                st = self.stages[p.stage] = StageState(p.stage)
            st.done, st.total, st.message, st.eta_s, st.updated = p.done, p.total, p.message, p.eta_s, time.time()
            if p.metrics:
                st.history.append({"step": float(p.done), **{k: float(v) for k, v in p.metrics.items()}})
                if len(st.history) > 5000:
                    del st.history[: len(st.history) - 5000]

    def note(self, text: str) -> None:
        with self._lock:
            self.log.append(text)

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
            return {k: StageState(v.stage, v.done, v.total, v.message, v.eta_s, v.started, v.updated,
                                  list(v.history)) for k, v in self.stages.items()}

    def wait(self, timeout: float | None = None) -> bool:
        if self.thread is not None:
            self.thread.join(timeout)
        return not self.active

    def _run(self) -> None:
        try:
            self.result = self._fn(self)
            self.status = CANCELLED if self._stop.is_set() and self.result is None else DONE
        except SgragError as exc:
            cancelled = self._stop.is_set() and type(exc).__name__ == "BuildCancelled"
            self.status = CANCELLED if cancelled else FAILED
            self.error = str(exc)
        except Exception as exc:  # the UI must show a message, never a traceback
            self.status = FAILED
            self.error = f"{type(exc).__name__}: {exc}"
            self.error_detail = traceback.format_exc()
            log.exception("background %s job failed", self.kind)
        finally:
            self.finished = time.time()


class JobRegistry:
    """The jobs of this server process, one current job per (kind, key)."""

    def __init__(self) -> None:
        self._jobs: dict[tuple[str, str], Job] = {}
        self._lock = threading.Lock()

    def get(self, kind: str, key: str) -> Job | None:
        return self._jobs.get((kind, key))

    def active_for(self, key: str) -> list[Job]:
        return [j for (k, kk), j in self._jobs.items() if kk == key and j.active]

    def start(self, kind: str, key: str, fn: JobFn, *, label: str = "",
              exclusive: tuple[str, ...] = ()) -> Job:
        """Start a job unless one of ``kind`` (or a kind in ``exclusive``) already runs for ``key``."""
        with self._lock:
            for k in (kind, *exclusive):
                cur = self._jobs.get((k, key))
                if cur is not None and cur.active:
                    raise SgragError(f"a {cur.label} is already running for this workspace; "
                                     f"wait for it or cancel it first")
            job = Job(kind, key, fn, label=label)
            self._jobs[(kind, key)] = job
            return job.start()

    def forget(self, kind: str, key: str) -> None:
        with self._lock:
            job = self._jobs.get((kind, key))
            if job is not None and not job.active:
                del self._jobs[(kind, key)]
