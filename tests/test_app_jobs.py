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


def _page_whose_job_ends_while_it_draws():
    """A page that shows a job's progress while it runs; the job ends between two readings of it."""
    import streamlit as st

    from sgrag_app.render import live_job

    class EndsWhileDrawn:
        reads = 0

        @property
        def active(self) -> bool:  # running when first read, done from then on
            EndsWhileDrawn.reads += 1
            return EndsWhileDrawn.reads == 1

    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    if st.session_state["runs"] == 1:
        live_job(EndsWhileDrawn(), "test.polling", lambda job: st.write("loading"))
    else:
        st.write("opened")


def test_a_job_that_ends_while_its_progress_draws_still_opens_the_page():
    """Seen as running, then done before its panel drew: the page reruns and opens (it had stayed on
    "loading" for ever: no poll was left to notice the end)."""
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_function(_page_whose_job_ends_while_it_draws, default_timeout=30).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["opened"]


def _page_whose_index_loads_while_it_draws():
    """A page that needs the engine of SGRAG_TEST_WS, whose loading ends between two readings of it."""
    import os
    from pathlib import Path

    import streamlit as st

    import sgrag
    from sgrag_app.runtime import PageContext

    ws = sgrag.Workspace(Path(os.environ["SGRAG_TEST_WS"]))
    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    st.write(f"answered by {PageContext(ws.path.parent, ws).engine_or_stop()}")


def test_an_index_that_loads_while_the_page_draws_opens_the_page(built_ws, monkeypatch):
    """Loading when first read, loaded a moment later: the page opens with the engine (it had said
    "Cannot open the index: " with no reason, or waited for ever)."""
    from streamlit.testing.v1 import AppTest

    import sgrag_app.runtime as runtime

    class LoadsWhileDrawn:
        reads = 0
        result, error = "the engine", ""

        @property
        def status(self) -> str:
            LoadsWhileDrawn.reads += 1
            return "running" if LoadsWhileDrawn.reads == 1 else DONE

        @property
        def active(self) -> bool:
            return self.status == "running"

        def snapshot(self):
            return {}

        def elapsed(self):
            return 0.0
    monkeypatch.setattr(runtime, "engine_job", lambda ws, retry=False: LoadsWhileDrawn())
    monkeypatch.setenv("SGRAG_TEST_WS", str(built_ws))
    at = AppTest.from_function(_page_whose_index_loads_while_it_draws, default_timeout=30).run()
    assert not at.exception and not at.error
    assert [m.value for m in at.markdown if "answered" in m.value] == ["answered by the engine"]
