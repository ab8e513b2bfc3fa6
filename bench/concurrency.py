"""Concurrent writers on one workspace: losses and crashes (issue 15's scenarios).

    python bench/concurrency.py                  # 20 trials of each scenario
    python bench/concurrency.py --trials 5 --scenarios build

Scenarios, each trial on a fresh copy of a workspace holding the demo graph (hash embedder,
few GNN epochs, so a build takes seconds):
  ingest  two `python -m sgrag ingest --no-build` processes started together, 2 documents each
  build   two `python -m sgrag build` processes started together

A *loss* is a document whose ingest exited 0 but that is not "done" in the registry or has
no provenance in the graph; a *crash* is an exit code other than 0/2 or a traceback; a
*refusal* is exit 2 with the workspace-busy message (the intended outcome for the loser).
After each build trial the current index must load and answer a question.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import OUT, ROOT

DOCS = ROOT / "assets" / "docs"
GROUPS = (["ada_lovelace.md", "hobbiton.txt"], ["zhang_yimou.html", "beijing_national_stadium.md"])
QUESTION = "Which country is home to Santo Domingo?"


def base_workspace(path: Path) -> Path:
    from sgrag import SgragConfig, Workspace, import_kg
    shutil.rmtree(path, ignore_errors=True)
    cfg = SgragConfig()
    cfg.embed.backend = "hash"
    cfg.gnn.epochs, cfg.gnn.pairs_per_epoch = 10, 512
    import_kg(path, graphml=ROOT / "assets" / "demo" / "fb_erqa_mini.graphml", config=cfg)
    Workspace(path).save_config(cfg)
    return path


def run_pair(argvs: list[list[str]]) -> list[tuple[int, str]]:
    procs = [subprocess.Popen([sys.executable, "-m", "sgrag", "-q", *argv], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for argv in argvs]
    return [(p.returncode, err) for p in procs for _, err in [p.communicate(timeout=900)]]


def classify(rc: int, err: str) -> str:
    if rc not in (0, 2) or "Traceback" in err:
        return "crash"
    if rc == 2:
        return "refused" if "is busy" in err else "error"
    return "ok"


def ingest_trial(base: Path, ws: Path) -> dict:
    from sgrag import Workspace, list_documents
    from sgrag.io.documents import load_document
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(base, ws)
    outcomes = run_pair([["ingest", "-w", str(ws), "--no-build", *(str(DOCS / f) for f in group)]
                         for group in GROUPS])
    kinds = [classify(rc, err) for rc, err in outcomes]
    done = {d.doc_id for d in list_documents(Workspace(ws)) if d.status == "done"}
    graph = Workspace(ws).source_graph()
    in_graph = {s.split(":")[0] for srcs in graph.node_sources.values() for s in srcs}
    lost = sum(1 for kind, group in zip(kinds, GROUPS) if kind == "ok"
               for f in group if (i := load_document(DOCS / f).doc_id) not in done or i not in in_graph)
    return {"kinds": kinds, "lost": lost, "details": [err.strip().splitlines()[-1:] for rc, err in outcomes
                                                      if classify(rc, err) in ("crash", "error")]}


def build_trial(base: Path, ws: Path) -> dict:
    from sgrag import Engine, Workspace
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(base, ws)
    outcomes = run_pair([["build", "-w", str(ws)], ["build", "-w", str(ws)]])
    kinds = [classify(rc, err) for rc, err in outcomes]
    debris = [p.name for p in (ws / "versions").iterdir() if p.name.endswith(".tmp")]
    try:
        answered = bool(Engine.open(ws).ask(QUESTION).answer.text) and Workspace(ws).index_version is not None
    except Exception as exc:  # noqa: BLE001 - reported as a broken index
        answered = False
        kinds.append(f"index broken: {exc}")
    return {"kinds": kinds, "lost": 0 if answered else 1, "debris": debris,
            "details": [err.strip().splitlines()[-1:] for rc, err in outcomes
                        if classify(rc, err) in ("crash", "error")]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--scenarios", nargs="+", default=["ingest", "build"], choices=["ingest", "build"])
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    base = base_workspace(OUT / "concurrency_base")
    summary = {}
    for scenario in args.scenarios:
        trial = ingest_trial if scenario == "ingest" else build_trial
        counts = {"trials": 0, "ok": 0, "refused": 0, "error": 0, "crash": 0, "lost": 0, "debris": 0}
        t0 = time.perf_counter()
        for k in range(args.trials):
            r = trial(base, OUT / f"concurrency_{scenario}")
            counts["trials"] += 1
            for kind in r["kinds"]:
                counts[kind if kind in counts else "crash"] += 1
            counts["lost"] += r["lost"]
            counts["debris"] += len(r.get("debris", []))
            if r["details"]:
                print(f"  {scenario} trial {k + 1}: {r['details']}", file=sys.stderr)
        counts["wall_s"] = round(time.perf_counter() - t0, 1)
        summary[scenario] = counts
        print(f"{scenario:>6}: {counts}")
    (OUT / "concurrency.json").write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
