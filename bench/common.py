"""Shared helpers for the bench scripts (not part of the test suite)."""
from __future__ import annotations

import csv
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

DATA = Path(os.environ.get("SGRAG_BENCH_DATA", "/work/shared/data"))
FB = DATA / "fb15k237"
ERQA = DATA / "erqa"
OUT = Path(__file__).resolve().parent / "out"


def peak_rss_mib() -> float:
    """Peak resident set size of this process (ru_maxrss is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mib() -> float:
    try:
        import psutil
        return psutil.Process().memory_info().rss / 2**20
    except Exception:  # pragma: no cover
        return float("nan")


def pct(xs, q) -> float:
    return float(np.percentile(np.asarray(xs, dtype=float), q)) if len(xs) else float("nan")


def p3(xs) -> tuple[float, float, float]:
    return pct(xs, 50), pct(xs, 95), pct(xs, 99)


def table(rows: list[list], header: list[str]) -> str:
    cells = [[str(h) for h in header]] + [[_fmt(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(c.rjust(w[i]) if i else c.ljust(w[i]) for i, c in enumerate(r)) + " |"
    sep = "|" + "|".join("-" * (x + 2) for x in w) + "|"
    return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])


def _fmt(c) -> str:
    if isinstance(c, float):
        if c != c:
            return "-"
        return f"{c:.3f}" if abs(c) < 10 else f"{c:.1f}"
    return str(c)


def config_for(backend: str):
    from sgrag import SgragConfig
    cfg = SgragConfig()
    cfg.embed.backend = backend
    return cfg


def ensure_fb_workspace(backend: str = "hash", path: Path | None = None, quiet: bool = False) -> tuple[Path, dict | None]:
    """Import + build FB15k-237 into bench/out/fb[_minilm] unless already built. Returns (path, build report)."""
    from sgrag import Engine, Workspace
    path = path or OUT / ("fb" if backend == "hash" else f"fb_{backend}")
    ws = Workspace(path)
    if ws.exists and ws.index_version:
        return path, None
    cfg = config_for(backend)
    t0 = time.perf_counter()
    Engine.import_kg(path, triples=str(FB / "triples.tsv.gz"), entities=str(FB / "entities.tsv"),
                     relations=str(FB / "relations.tsv"), config=cfg)
    t_imp = time.perf_counter() - t0
    if not quiet:
        print(f"[setup] imported FB15k-237 into {path} in {t_imp:.1f}s; building ({backend}) ...", flush=True)
    rep = Engine.build(path, config=cfg)
    rep["import_s"] = round(t_imp, 3)
    if not quiet:
        print(f"[setup] built in {sum(rep['timings_s'].values()):.1f}s: {rep['timings_s']}", flush=True)
    return path, rep


def dev_questions(n: int, path: Path | None = None) -> list[tuple[str, str]]:
    with open(path or ERQA / "fb_erqa_dev.csv", encoding="utf-8") as fh:
        rows = [(r["query"], r["answer"]) for r in csv.DictReader(fh)]
    return rows[:n]


def matched_query_graph(engine, qg):
    """The query graph sgrag actually matches: only hard constraints (confidence >= query.soft_below)
    when the engine has soft constraints; the whole graph otherwise."""
    soft_below = getattr(engine.config.query, "soft_below", None)
    if soft_below is None or not hasattr(qg, "restricted_to"):
        return qg
    hard = {n.qid for n in qg.constraints if n.confidence >= soft_below}
    return qg.restricted_to(hard) if hard else qg
