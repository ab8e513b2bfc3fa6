"""The app's job machinery without Streamlit: child-process jobs, progress files, ETA, engine loading."""
import json
from pathlib import Path

from app_support import built_template, built_ws  # noqa: F401 (fixtures)
from app_support import make_workspace

from sgrag import Engine, Progress, Workspace
from sgrag_app.jobs import DONE, EngineCache, JobRegistry, StageState
from sgrag_app.tasks import build_job
from sgrag_app.worker import FileReporter


def test_engine_open_reports_each_loading_step(built_ws):
    seen: list[Progress] = []
    Engine.open(built_ws, progress=seen.append)
    assert {p.stage for p in seen} == {"load"}
    assert seen[-1].done == seen[-1].total == len(Engine.LOAD_STEPS)
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert "loading index: graph" in seen[0].message and "path index" in seen[4].message


def test_engine_cache_loads_in_background_and_keeps_a_few(built_ws):
    cache = EngineCache(size=1)
    job = cache.load("a", str(built_ws), lambda j: Engine.open(built_ws, progress=j.progress))
    assert job.wait(60) and job.status == DONE and job.result.version == "v0001"
    assert job.snapshot()["load"].fraction == 1.0
    assert cache.load("a", str(built_ws), lambda j: 1 / 0) is job  # cached: no second load
    cache.load("b", str(built_ws), lambda j: 2).wait(10)
    assert cache.load("a", str(built_ws), lambda j: 3).wait(10)  # evicted (size 1): loaded again
    assert cache.load("a", str(built_ws), lambda j: 4).result == 3


def test_eta_comes_from_the_stage_own_rate():
    s = StageState("paths", done=10, total=40, started=100.0, updated=110.0)
    assert s.eta() == 30.0  # 1 per second so far, 30 to go
    s.eta_s = 8.0  # a stage's own estimate wins, counting down since its report
    assert s.eta(now=111.0) == 7.0
    assert StageState("x", done=0, total=5).eta() is None


def test_progress_file_is_throttled_but_keeps_stage_changes_and_ends(tmp_path):
    rep = FileReporter(tmp_path / "p.json", every_s=60)
    writes, write = [], rep.flush
    rep.flush = lambda: (writes.append(1), write())  # count the writes
    rep(Progress("gnn", 1, 100))
    for i in range(2, 100):
        rep(Progress("gnn", i, 100))
    rep(Progress("gnn", 100, 100))
    rep(Progress("paths", 0, 10))
    assert len(writes) == 3  # first report of a stage, its end, the next stage: not 101 writes
    assert StageState.from_json(json.loads((tmp_path / "p.json").read_text())["paths"]).total == 10


def test_build_runs_in_a_child_process_and_reports_progress(tmp_path):
    ws = make_workspace(tmp_path / "ws" / "child", build=False, epochs=3)
    job = JobRegistry().start("build", str(ws), build_job(str(ws)))
    assert job.proc is not None and job.proc.pid
    assert job.wait(300), "build did not finish"
    assert job.status == DONE, (job.error, job.error_detail)
    assert job.result["version"] == Workspace(ws).index_version
    stages = job.snapshot()
    assert {"embeddings", "gnn", "evidence"} <= set(stages) and stages["gnn"].done == 3
    assert not job.dir.exists()  # its files are cleaned up


def test_a_killed_worker_is_a_readable_failure(tmp_path):
    ws = make_workspace(tmp_path / "ws" / "crash", build=False, epochs=5000)
    job = JobRegistry().start("build", str(ws), build_job(str(ws)))
    job.proc.kill()  # e.g. the out-of-memory killer
    assert job.wait(60)
    assert job.status == "failed" and "stopped unexpectedly" in job.error
    assert not Workspace(ws).index_version


def test_a_worker_whose_app_is_gone_stops_and_keeps_the_last_index(tmp_path):
    """A server killed mid-build must not leave a build running unseen (CPU, the writer lock)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    ws = make_workspace(tmp_path / "ws" / "orphan", build=False, epochs=1_000_000)
    parent = ("import sys, time; from sgrag_app.jobs import JobRegistry; from sgrag_app.tasks import build_job\n"
              "job = JobRegistry().start('build', sys.argv[1], build_job(sys.argv[1]))\n"
              "while 'gnn' not in job.snapshot(): time.sleep(0.2)\n"
              "print(job.proc.pid, job.dir, flush=True)\n")  # then exits without cancelling: the app is gone
    out = subprocess.run([sys.executable, "-c", parent, str(ws)], capture_output=True, text=True, timeout=300,
                         cwd=str(Path(__file__).resolve().parent.parent))
    pid, job_dir = out.stdout.split()

    def running() -> bool:  # a zombie (exited, not yet reaped by init) counts as stopped
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 120
    try:
        while running() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not running(), "the worker kept running after its app was gone"
    finally:
        if running():
            os.kill(int(pid), signal.SIGKILL)  # never leave a million-epoch build behind
    assert not Path(job_dir).exists()  # it cleaned up after itself
    assert not Workspace(ws).index_version  # cancelled: nothing half-built was published
