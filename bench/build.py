"""Build cost: import + every build stage's wall time (meta timings_s) and peak RSS, per graph.

    python bench/build.py                       # mini ERQA graph + FB15k-237, hash embedder, 30 GNN epochs
    python bench/build.py --gnn-epochs 0        # the configured epochs (80; FB15k-237 under 3 min)
    python bench/build.py --minilm              # same with the MiniLM embedder
    python bench/build.py --graphs mini         # only the mini graph

Each graph is built in a fresh child process into a fresh workspace (bench/out/build_<name>),
so peak RSS (ru_maxrss) and the embedding cache belong to that build alone.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time

from common import ERQA, FB, OUT, config_for, peak_rss_mib, table


def one(name: str, backend: str, epochs: int = 0) -> dict:
    from sgrag import Engine
    ws = OUT / f"build_{name}"
    shutil.rmtree(ws, ignore_errors=True)
    cfg = config_for(backend)
    if epochs:
        cfg.gnn.epochs = epochs
    base = peak_rss_mib()
    t0 = time.perf_counter()
    if name == "mini":
        stats = Engine.import_kg(ws, graphml=str(ERQA / "fb_erqa_mini.graphml"), config=cfg)
    else:
        stats = Engine.import_kg(ws, triples=str(FB / "triples.tsv.gz"), entities=str(FB / "entities.tsv"),
                                 relations=str(FB / "relations.tsv"), config=cfg)
    t_imp = time.perf_counter() - t0
    rss_imp = peak_rss_mib()
    t0 = time.perf_counter()
    rep = Engine.build(ws, config=cfg)
    t_build = time.perf_counter() - t0
    return {"graph": name, "backend": backend, "stats": stats, "import_s": t_imp, "build_s": t_build,
            "timings_s": rep["timings_s"], "paths": rep["paths"], "rss_start_mib": base,
            "peak_rss_import_mib": rss_imp, "peak_rss_mib": peak_rss_mib()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", default="mini,fb", help="comma list of mini,fb")
    ap.add_argument("--minilm", action="store_true")
    ap.add_argument("--embed", default=None)
    ap.add_argument("--gnn-epochs", type=int, default=30,
                    help="GNN epochs (default 30 for speed; 0 = the config default, 80)")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    backend = args.embed or ("minilm" if args.minilm else "hash")
    if args.one:
        print("RESULT " + json.dumps(one(args.one, backend, args.gnn_epochs)), flush=True)
        return 0
    results = []
    for name in args.graphs.split(","):
        cmd = [sys.executable, __file__, "--one", name, "--embed", backend, "--gnn-epochs", str(args.gnn_epochs)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        line = next((x for x in p.stdout.splitlines() if x.startswith("RESULT ")), None)
        if p.returncode or line is None:
            print(p.stdout[-2000:], p.stderr[-4000:], file=sys.stderr)
            raise SystemExit(f"build of {name} failed")
        results.append(json.loads(line[7:]))
    stage_names = []
    for r in results:
        for k in r["timings_s"]:
            if k not in stage_names:
                stage_names.append(k)
    header = ["stage (s)"] + [f"{r['graph']} ({int(r['stats']['nodes']) if 'nodes' in r['stats'] else '?'} n)"
                              for r in results]
    rows = [["import"] + [r["import_s"] for r in results]]
    rows += [[k] + [r["timings_s"].get(k, float("nan")) for r in results] for k in stage_names]
    rows += [["build total (wall)"] + [r["build_s"] for r in results]]
    rows += [["peak RSS after import (MiB)"] + [r["peak_rss_import_mib"] for r in results]]
    rows += [["peak RSS after build (MiB)"] + [r["peak_rss_mib"] for r in results]]
    rows += [["paths indexed"] + [sum(r["paths"].values()) for r in results]]
    print(f"embed={backend}, gnn epochs={args.gnn_epochs or 'config default'}")
    for r in results:
        print(f"  {r['graph']}: {r['stats']}")
    print(table(rows, header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
