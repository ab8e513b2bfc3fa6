"""The demo graph built by the CLI vs by the app's job mechanism while the Build page watches it.

    python bench/app_build.py                 # browser mode: the real app in headless Chromium
    python bench/app_build.py --mode poller   # no browser: a thread polls the job like the page does
    python bench/app_build.py --rounds 2      # alternate CLI and app builds, report the best of each

Each round imports ``assets/demo/fb_erqa_mini.graphml`` into two fresh workspaces (same default
config, empty caches), then times

* ``python -m sgrag build --workspace A`` (wall clock of the process), and
* the app's build of B: ``--mode browser`` starts ``streamlit run app.py``, opens the Build page in
  Chromium, clicks "Start build" and keeps the page open until it reports "The build finished in
  ..." (the job's own start-to-result time); ``--mode poller`` starts the same ``ProcessJob`` in
  this process while a thread reads its progress every ``LIVE_POLL_S`` as the page does.

Prints both times and the ratio app / CLI (the issue's target: within 10%), and the CPU seconds
each used (the app's include its worker, and in browser mode the server and Chromium), with the
load average at each start: on a shared machine the CPU ratio is the steadier figure.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import psutil

from common import ROOT  # noqa: F401  (puts the repo on sys.path, offline env)

sys.path.insert(0, str(ROOT / "tests"))  # browser_support: the app server and Chromium, as the tests run them

import sgrag  # noqa: E402
from sgrag_app.jobs import JobRegistry  # noqa: E402
from sgrag_app.render import LIVE_POLL_S, stage_rows  # noqa: E402
from sgrag_app.tasks import build_job  # noqa: E402

DEMO = ROOT / "assets" / "demo" / "fb_erqa_mini.graphml"
CHROMIUM = "/usr/bin/chromium"


def fresh_workspace(path: Path) -> Path:
    sgrag.Engine.import_kg(path, graphml=DEMO)
    return path


def children_cpu() -> float:
    """CPU seconds of this process's finished children (and theirs): the builds, the app server, Chromium."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measured(build, ws: Path, *args) -> tuple[float, float, float]:
    """(wall or job seconds, children CPU seconds, 1-min load average at the start) of one build."""
    load, cpu = os.getloadavg()[0], children_cpu()
    secs = build(ws, *args)
    return secs, children_cpu() - cpu, load


def cli_build(ws: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sgrag", "build", "--workspace", str(ws)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def poller_build(ws: Path) -> float:
    """The app's ProcessJob, with a thread reading its progress at the page's rate."""
    job = JobRegistry().start("build", str(ws), build_job(str(ws)))
    polls = 0

    def poll():
        nonlocal polls
        while job.active:
            stage_rows(job)
            polls += 1
            time.sleep(LIVE_POLL_S)

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    job.wait()
    t.join()
    if job.status != "done":
        raise SystemExit(f"app build failed: {job.error}")
    print(f"  (poller read the progress {polls} times)")
    return job.elapsed


def _secs(text: str) -> float:
    """Seconds in the app's "1 min 05 s" / "42 s" / "9.5 s" format."""
    m = re.search(r"(?:(\d+) min )?([\d.]+) s", text)
    return int(m.group(1) or 0) * 60 + float(m.group(2))


def _role(proc: psutil.Process) -> str:
    """Which part of the watched build a descendant process is."""
    cmd = " ".join(proc.cmdline())
    if "sgrag_app.worker" in cmd:
        return "worker"
    if "streamlit" in cmd:
        return "server"
    return "Chromium" if "chrom" in proc.name().lower() or "chrom" in cmd else "other"


class CpuByRole:
    """CPU seconds of this process's descendants by role, from the start until ``stop()``.

    A sampler thread reads every descendant's own CPU times (not its children's) every 0.25 s;
    a process counts from its first sample (or from zero if it started after ``__init__``), so
    a process ending between two samples loses at most 0.25 s.
    """

    def __init__(self, every_s: float = 0.25):
        self._base: dict[int, float] = {}
        self._last: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        for p in psutil.Process().children(recursive=True):
            self._base[p.pid] = self._cpu(p) or 0.0
        self._thread = threading.Thread(target=self._run, args=(every_s,), daemon=True)
        self._thread.start()

    @staticmethod
    def _cpu(p: psutil.Process) -> float | None:
        try:
            t = p.cpu_times()
            return t.user + t.system
        except psutil.Error:
            return None

    def _run(self, every_s: float) -> None:
        while not self._stop.wait(every_s):
            self.sample()

    def sample(self) -> None:
        for p in psutil.Process().children(recursive=True):
            cpu = self._cpu(p)
            if cpu is None:
                continue
            try:
                role = self._last[p.pid][0] if p.pid in self._last else _role(p)
            except psutil.Error:
                continue
            self._last[p.pid] = (role, cpu - self._base.get(p.pid, 0.0))

    def stop(self) -> dict[str, float]:
        self.sample()
        self._stop.set()
        self._thread.join()
        out: dict[str, float] = defaultdict(float)
        for role, cpu in self._last.values():
            out[role] += cpu
        return dict(out)


def browser_build(ws: Path, log: Path, split: dict) -> float:
    """The real app: Build page open in Chromium for the whole build; ``split`` receives the CPU
    seconds of the worker, the server and Chromium from the click to the page's "finished"."""
    from browser_support import launch, serve_app
    from playwright.sync_api import sync_playwright
    with serve_app(ws, log) as url, sync_playwright() as pw:
        browser = launch(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/build", wait_until="domcontentloaded")
        start = page.get_by_role("button", name="Start build")
        start.wait_for(timeout=120_000)
        cpu = CpuByRole()
        start.click()
        done = page.get_by_text(re.compile(r"The build (finished|failed)"))
        done.wait_for(timeout=3_600_000)
        split.update(cpu.stop())
        text = done.inner_text()
        browser.close()
    if "failed" in text:
        raise SystemExit(f"app build failed: {text}")
    return _secs(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["browser", "poller"],
                    default="browser" if os.path.exists(CHROMIUM) else "poller")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    cli, app = [], []
    with tempfile.TemporaryDirectory(prefix="sgrag-bench-app-") as d:
        for r in range(args.rounds):
            a, b = fresh_workspace(Path(d) / f"cli{r}"), fresh_workspace(Path(d) / f"app{r}")
            cli.append(measured(cli_build, a))
            print(f"round {r + 1}: CLI build {cli[-1][0]:.1f} s, CPU {cli[-1][1]:.1f} s, load {cli[-1][2]:.1f}",
                  flush=True)
            split: dict[str, float] = {}
            app.append(measured(browser_build, b, Path(d) / "streamlit.log", split) if args.mode == "browser"
                       else measured(poller_build, b))
            during = ", ".join(f"{k} {v:.1f}" for k, v in sorted(split.items()))
            print(f"round {r + 1}: app build ({args.mode}) {app[-1][0]:.1f} s, CPU {app[-1][1]:.1f} s, "
                  f"load {app[-1][2]:.1f}" + (f"; CPU s from the click to 'finished': {during}" if split else ""),
                  flush=True)
            shutil.rmtree(a, ignore_errors=True)
            shutil.rmtree(b, ignore_errors=True)
    best_cli, best_app = min(c[0] for c in cli), min(a[0] for a in app)
    print(f"demo graph build: CLI {best_cli:.1f} s, app ({args.mode}, page polling every {LIVE_POLL_S:g} s) "
          f"{best_app:.1f} s, ratio app/CLI {best_app / best_cli:.3f} (best of {args.rounds}); CPU seconds "
          f"app/CLI {min(a[1] for a in app) / min(c[1] for c in cli):.3f} (app: worker"
          f"{' + server + Chromium' if args.mode == 'browser' else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
