"""Scale: a seeded synthetic graph with the CM-ERQA shape, built with the hash embedder, queried
with generated multi-constraint star queries whose answer is known.

    python bench/scale.py                                   # 50k entities, ~138k relations, 200 queries
    python bench/scale.py --entities 1660000 --relations 4580000 --queries 1000   # CM-ERQA size

Generator: endpoints drawn from a Zipf-like weight (power-law degrees), node order shuffled;
relation names Zipf over --rel-types; labels: --repeat-frac of the nodes take a label from a
small shared pool (repeated labels), the rest get unique-ish names. A query picks a node X with
degree >= k, takes k of its neighbours as constraints and asks for the UNK adjacent to all of
them; X must be among the exact matches (matching is by label, so other nodes may match too).
The QueryGraph is built directly (no linking) unless --ask is given, which also poses
"Which entity is linked to A, B and C?" through Engine.ask.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time

from common import OUT, config_for, p3, peak_rss_mib, rss_mib, table

import numpy as np

SYL = ["ka", "lo", "mi", "ren", "tu", "sa", "vor", "el", "din", "qua", "zo", "pha", "ny", "gri", "bel", "os"]


def name(rng, i: int) -> str:
    parts = rng.integers(0, len(SYL), size=3)
    return ("".join(SYL[p] for p in parts)).capitalize() + f" {i:x}"


def generate(n: int, m: int, rel_types: int, repeat_frac: float, alpha: float, seed: int):
    from sgrag import KnowledgeGraph
    rng = np.random.default_rng(seed)
    w = (np.arange(1, n + 1, dtype=np.float64)) ** (-alpha)
    w /= w.sum()
    perm = rng.permutation(n)
    over = int(m * 1.15) + 16
    s = perm[rng.choice(n, size=over, p=w)]
    t = perm[rng.choice(n, size=over, p=w)]
    rw = (np.arange(1, rel_types + 1, dtype=np.float64)) ** -1.0
    r = rng.choice(rel_types, size=over, p=rw / rw.sum())
    keep = s != t
    s, t, r = s[keep], t[keep], r[keep]
    key = (s.astype(np.int64) * n + t) * rel_types + r
    _, first = np.unique(key, return_index=True)
    first = np.sort(first)[:m]
    s, t, r = s[first].astype(np.int32), t[first].astype(np.int32), r[first].astype(np.int32)
    pool = max(16, n // 200)
    shared = rng.random(n) < repeat_frac
    pool_names = [f"{name(rng, 10**9 + k).split()[0]} common" for k in range(pool)]
    pick = rng.integers(0, pool, size=n)
    labels = [pool_names[pick[i]] if shared[i] else name(rng, i) for i in range(n)]
    g = KnowledgeGraph(node_ids=[f"n{i}" for i in range(n)], labels=labels, descriptions=[""] * n,
                       src=s, dst=t, rel=r, desc=np.full(s.size, -1, np.int32),
                       relations=[f"rel_{k}" for k in range(rel_types)], texts=[])
    return g


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, default=50_000)
    ap.add_argument("--relations", type=int, default=None, help="edges (default entities * 4.58/1.66)")
    ap.add_argument("--rel-types", type=int, default=400)
    ap.add_argument("--repeat-frac", type=float, default=0.2, help="fraction of nodes with a shared label")
    ap.add_argument("--alpha", type=float, default=0.8, help="Zipf exponent of endpoint weights")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--constraints", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--gnn-epochs", type=int, default=30, help="GNN epochs (default 30 for speed; 0 = config default 80)")
    ap.add_argument("--ask", action="store_true", help="also pose template questions through Engine.ask")
    ap.add_argument("--keep", action="store_true", help="reuse bench/out/scale_<n> if already built")
    args = ap.parse_args(argv)
    n = args.entities
    m = args.relations or int(round(n * 4.58 / 1.66))

    from sgrag import Engine, QueryGraph, Workspace
    from sgrag.query import decompose
    from sgrag.types import UNK, QueryNode

    ws_path = OUT / f"scale_{n}_{args.seed}"
    cfg = config_for("hash")
    if args.gnn_epochs:
        cfg.gnn.epochs = args.gnn_epochs
    mem = {"start": rss_mib()}
    built = args.keep and Workspace(ws_path).exists and Workspace(ws_path).index_version
    if not built:
        t0 = time.perf_counter()
        g = generate(n, m, args.rel_types, args.repeat_frac, args.alpha, args.seed)
        t_gen = time.perf_counter() - t0
        mem["peak after generate"] = peak_rss_mib()
        shutil.rmtree(ws_path, ignore_errors=True)
        ws = Workspace.create(ws_path, cfg)
        t0 = time.perf_counter()
        ws.save_source_graph(g)
        t_save = time.perf_counter() - t0
        del g
        t0 = time.perf_counter()
        rep = Engine.build(ws_path, config=cfg)
        t_build = time.perf_counter() - t0
        mem["peak after build"] = peak_rss_mib()
        print(f"generated in {t_gen:.1f}s, saved in {t_save:.1f}s, built in {t_build:.1f}s: {rep['timings_s']}")
        print(f"stats: {rep['stats']}; paths: {rep['paths']}")
    t0 = time.perf_counter()
    eng = Engine.open(ws_path)
    t_open = time.perf_counter() - t0
    mem["peak after open"] = peak_rss_mib()
    g = eng.graph
    mt = eng.matcher
    length = min(eng.config.index.path_length, max(eng.indexes))
    k = args.constraints
    rng = np.random.default_rng(args.seed + 1)
    sets = g.neighbor_sets
    deg_distinct = np.fromiter((s.size for s in sets), dtype=np.int64, count=len(sets))
    eligible = np.flatnonzero(deg_distinct >= k)
    picks = rng.choice(eligible, size=min(args.queries, eligible.size), replace=False)
    counts = np.bincount(g.label_id, minlength=len(g.label_vocab))
    t_plan, t_match, n_exact, rep_lbl = [], [], [], 0
    found = 0
    misses = []
    for x in picks.tolist():
        cons = rng.choice(sets[x], size=k, replace=False).tolist()
        rep_lbl += sum(int(counts[g.label_id[c]] > 1) for c in cons)
        names = [g.labels[c] for c in cons]
        qtext = "Which entity is linked to " + ", ".join(names[:-1]) + " and " + names[-1] + "?"
        nodes = [QueryNode("q0", UNK)] + [QueryNode(f"q{i + 1}", g.labels[c], g.node_ids[c]) for i, c in enumerate(cons)]
        qg = QueryGraph(qtext, tuple(nodes), tuple(("q0", f"q{i + 1}") for i in range(k)))
        t0 = time.perf_counter()
        paths = decompose(qg, length)
        known = mt.known_label_sets(qg)
        label_sets, _, searched = mt.complete_labels(qg, paths, known, eng.config.query.max_label_candidates)
        t1 = time.perf_counter()
        found_exact, _, _ = mt.match(qg, paths, label_sets, searched)
        exact = len(found_exact)
        t2 = time.perf_counter()
        t_plan.append((t1 - t0) * 1000)
        t_match.append((t2 - t1) * 1000)
        n_exact.append(exact)
        got = {g.node_ids[x] for x in found_exact.candidates("q0")}
        if g.node_ids[x] in got:
            found += 1
        else:
            misses.append((x, cons))
    mem["peak after queries"] = peak_rss_mib()
    print(f"\nsynthetic graph: {g.num_nodes:,} nodes, {g.num_edges:,} edges, {len(g.label_vocab):,} distinct labels, "
          f"max degree {int(g.degree.max())}, mean {float(g.degree.mean()):.2f}; open {t_open:.1f}s")
    print(f"{len(picks)} star queries with {k} constraints ({rep_lbl} of {len(picks) * k} constraints have a repeated label)\n")
    tot = [a + b for a, b in zip(t_plan, t_match)]
    print(table([["ψ3+ψ4 decomposition + label completion", *p3(t_plan)], ["σ+δ retrieval + assembly + verify", *p3(t_match)],
                 ["total matching", *p3(tot)], ["exact matches per query (count)", *p3(n_exact)]],
                ["ms", "p50", "p95", "p99"]))
    print(f"\nknown answer among exact matches: {found}/{len(picks)}" + (f"  MISSES: {misses[:5]}" if misses else ""))
    if args.ask:
        ok = asked = 0
        t_ask = []
        for x in picks[: min(50, len(picks))].tolist():
            cons = rng.choice(sets[x], size=k, replace=False).tolist()
            names = [g.labels[c] for c in cons]
            q = "Which entity is linked to " + ", ".join(names[:-1]) + " and " + names[-1] + "?"
            tr = eng.ask(q)
            asked += 1
            t_ask.append(tr.timings_ms.get("total", float("nan")))
            ok += int(any(m.exact and m.binding.get(tr.query_graph.target) == g.node_ids[x] for m in tr.matches))
        print(f"Engine.ask on template questions: answer found {ok}/{asked}; total p50/p95/p99 ms {p3(t_ask)}")
    print("\nmemory (MiB): " + ", ".join(f"{k} {v:.0f}" for k, v in mem.items()))
    return 0 if found == len(picks) else 1


if __name__ == "__main__":
    sys.exit(main())
