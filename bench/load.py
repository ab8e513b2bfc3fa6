"""Latency with a second analyst on the machine: 500 FB-ERQA questions while another `sgrag eval` runs.

    python bench/load.py --workspace W            # W: a built FB15k-237 workspace (default: bench/out/fb)
    python bench/load.py --workspace W --threads 0   # the same with unbounded torch/BLAS pools

Two passes over the same questions in one process: quiet, then with a background `python -m sgrag eval`
of ``--background-n`` questions (restarted while it lasts, so the load never lapses). In each pass the
naive gazetteer floor (bench/retrieval.py) is timed on the same questions, interleaved, so the ratios
compare code measured under the same load. Goals (issue 26): loaded p95 <= 10x and p99 <= 30x the floor.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import dev_questions, ensure_fb_workspace, p3, peak_rss_mib, table
from retrieval import Gazetteer, timed

REPO = Path(__file__).resolve().parent.parent
DEV = REPO.parent / "shared" / "data" / "erqa" / "fb_erqa_dev.csv"


class Background:
    """Another analyst: `sgrag eval` of n questions in a child process, restarted until stopped."""

    def __init__(self, workspace: Path, n: int):
        self.cmd = [sys.executable, "-m", "sgrag", "-q", "eval", "-w", str(workspace), "--queries", str(DEV),
                    "--limit", str(n), "--out", os.path.join(tempfile.mkdtemp(), "bg.jsonl")]
        self.proc: subprocess.Popen | None = None
        self.runs = 0

    def keep_running(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.runs += 1

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def timed_pass(eng, gaz, qs, background: Background | None) -> tuple[list[float], list[float]]:
    ask_ms, floor_ms = [], []
    for q, _ in qs:
        if background is not None:
            background.keep_running()
        floor_ms.append(timed(gaz.answer, q)[1])
        ask_ms.append(timed(eng.ask, q)[1])
    return ask_ms, floor_ms


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", type=Path, default=None,
                    help="a built FB15k-237 workspace (default: bench/out/fb, built with the hash embedder if missing)")
    ap.add_argument("--n", type=int, default=500, help="questions timed (default 500)")
    ap.add_argument("--background-n", type=int, default=2000, help="questions of the background eval (2000)")
    ap.add_argument("--threads", type=int, default=None,
                    help="query.threads for this process (default: the workspace config's; 0 = unbounded)")
    ap.add_argument("--warmup-s", type=float, default=20.0, help="seconds the background eval gets to load")
    args = ap.parse_args(argv)

    from sgrag import Engine, Workspace
    from sgrag.linking import STOPWORDS
    args.workspace = args.workspace or ensure_fb_workspace("hash")[0]
    cfg = Workspace(args.workspace).config()
    if args.threads is not None:
        cfg.query.threads = args.threads
    eng = Engine.open(args.workspace, config=cfg)
    qs = dev_questions(args.n)
    for q, _ in qs:  # warm the embedding cache: MiniLM on unseen phrases is not the engine's latency
        eng.ask(q)
    gaz = Gazetteer(eng.graph, STOPWORDS)
    quiet = timed_pass(eng, gaz, qs, None)
    bg = Background(args.workspace, args.background_n)
    bg.keep_running()
    time.sleep(args.warmup_s)  # let it load its index and start asking
    try:
        loaded = timed_pass(eng, gaz, qs, bg)
    finally:
        bg.stop()
    rows = []
    for name, (ask, floor) in (("quiet", quiet), ("with a second eval", loaded)):
        p50, p95, p99 = p3(ask)
        fmean = sum(floor) / len(floor)
        rows.append([name, f"{p50:.1f}", f"{p95:.1f}", f"{p99:.1f}", f"{fmean:.2f}",
                     f"{p95 / fmean:.1f}x", f"{p99 / fmean:.1f}x"])
    print(f"threads per query: {cfg.query.threads or 'unbounded'}; background eval runs: {bg.runs}; "
          f"load average {os.getloadavg()[0]:.1f}; peak RSS {peak_rss_mib():,.0f} MiB")
    print(table(rows, ["pass", "p50 ms", "p95 ms", "p99 ms", "gazetteer mean ms", "p95 / floor", "p99 / floor"]))


if __name__ == "__main__":
    main()
