"""Index pruning: R*-tree search vs brute-force scan of all paths, per query path.

    python bench/pruning.py                  # 200 dev questions, hash embedder
    python bench/pruning.py --n 3000 --minilm

For every query path of every question (the same PathQuery objects the matcher builds,
after ψ4 label completion) it records: paths stored, entries the search scanned, entries in
R*-tree leaves the query box meets, candidates after the semantic (label) filter, after the
dominance filter; then the same query by brute-force scan. The result sets must be equal:
any row the scan finds and the search misses is a dropped true match (printed, exit 1).
"""
from __future__ import annotations

import argparse
import sys
import time

from common import dev_questions, ensure_fb_workspace, matched_query_graph, p3, table

import numpy as np


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--minilm", action="store_true")
    ap.add_argument("--embed", default=None)
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats per query path (min taken)")
    args = ap.parse_args(argv)
    backend = args.embed or ("minilm" if args.minilm else "hash")

    from sgrag import Engine
    from sgrag.query import decompose
    path, _ = ensure_fb_workspace(backend)
    eng = Engine.open(path)
    m = eng.matcher
    cfg = eng.config
    qs = dev_questions(args.n)
    recs = []
    dropped = extra = 0
    for q, _a in qs:
        tr = eng.ask(q)
        if not tr.query_graph or not tr.query_graph.constraints:
            continue
        qg = matched_query_graph(eng, tr.query_graph)
        length = min(cfg.index.path_length, max(eng.indexes))
        paths = decompose(qg, length)
        known = m.known_label_sets(qg)
        label_sets, _, _ = m.complete_labels(qg, paths, known, cfg.query.max_label_candidates)
        for p in paths:
            idx = eng.indexes[len(p.qids) - 1]
            pq = m._query(qg, p, label_sets, False)
            ts, tsc = [], []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                rows, st = idx.search(pq)
                ts.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                rows_s, st_s = idx.scan(pq)
                tsc.append(time.perf_counter() - t0)
            visited = idx.visited_leaf_entries(pq)
            group = sum(idx._group(int(l))[1] - idx._group(int(l))[0] for l in np.unique(pq.label_sets[0]))
            a, b = set(rows.tolist()), set(rows_s.tolist())
            dropped += len(b - a)
            extra += len(a - b)
            recs.append(dict(total=idx.size, scanned=st.scanned, visited=visited, semantic=st.semantic,
                             dominance=st.dominance, scan_semantic=st_s.semantic,
                             scan_dominance=st_s.dominance, group=group, tree=st.used_tree,
                             t_search=min(ts) * 1000, t_scan=min(tsc) * 1000))
    if not recs:
        print("no query paths")
        return 1
    col = lambda k: np.array([r[k] for r in recs], dtype=float)  # noqa: E731
    total = col("total")
    print(f"FB15k-237, embed={backend}: {len(qs)} questions, {len(recs)} query paths, "
          f"{int(col('tree').sum())} answered through an R*-tree, index holds {int(total[0]):,} paths\n")
    rows = []
    for k, name in (("total", "paths stored (brute-force scan reads all)"),
                    ("group", "paths in the first label's group(s)"),
                    ("scan_semantic", "brute force: after semantic filter"),
                    ("scan_dominance", "brute force: after dominance filter"), ("scanned", "entries scanned by search"),
                    ("visited", "entries in R*-tree leaves met by the box"), ("semantic", "search: after semantic filter"),
                    ("dominance", "search: after dominance filter (= result)")):
        x = col(k)
        rows.append([name, x.sum(), *p3(x), x.sum() / total.sum()])
    print(table(rows, ["per query path", "sum", "p50", "p95", "p99", "fraction of all paths"]))
    sem, dom = col("semantic"), col("dominance")
    tree = col("tree").astype(bool)
    ssem, sdom = col("scan_semantic"), col("scan_dominance")
    print(f"\nbrute force: dominance filter removes {1 - sdom.sum() / max(ssem.sum(), 1):.2%} of label-matching paths "
          f"({int(ssem.sum() - sdom.sum()):,} of {int(ssem.sum()):,}); in search the tree box already applies it "
          f"(search-side removal {1 - dom.sum() / max(sem.sum(), 1):.2%})")
    if tree.any():
        sc, vi = col("scanned")[tree], col("visited")[tree]
        print(f"tree-backed paths: search scanned {sc.sum():,.0f} entries, leaves met {vi.sum():,.0f}, "
              f"their label groups hold {col('group')[tree].sum():,.0f}; scanned/visited = {sc.sum() / max(vi.sum(), 1):.3f}")
    tse, tsc = col("t_search"), col("t_scan")
    trows = [["search (R*-tree / group block)", *p3(tse), tse.sum()], ["scan (brute force)", *p3(tsc), tsc.sum()]]
    print("\ntime per query path (ms, min of repeats)")
    print(table(trows, ["method", "p50", "p95", "p99", "sum"]))
    print(f"scan / search time: sum {tsc.sum() / tse.sum():.1f}x, median of per-path ratios "
          f"{np.median(tsc / np.maximum(tse, 1e-9)):.1f}x")
    if tree.any():
        print(f"  on tree-backed paths only: {tsc[tree].sum() / tse[tree].sum():.1f}x")
    print(f"\ntrue matches dropped by search (in scan, not in search): {dropped}; "
          f"spurious rows (in search, not in scan): {extra}")
    return 1 if dropped or extra else 0


if __name__ == "__main__":
    sys.exit(main())
