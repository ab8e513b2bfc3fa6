"""Retrieval latency: sgrag stages (ψ..δ) vs a direct adjacency-intersection baseline and networkx VF2.

    python bench/retrieval.py                 # 200 dev questions, hash embedder, VF2 on the first 40
    python bench/retrieval.py --n 3000 --vf2-n 3000 --minilm    # full run

Builds bench/out/fb (or bench/out/fb_minilm) from FB15k-237 if missing. The baselines take the
same linked constraint node ids as sgrag (from the trace), so only matching is compared.
"""
from __future__ import annotations

import argparse
import time

from common import dev_questions, ensure_fb_workspace, matched_query_graph, p3, peak_rss_mib, table

import numpy as np


class _Timeout(Exception):
    pass


def direct_answers(graph, cidx: list[int]) -> set[int]:
    """Nodes adjacent to every constraint (the star query's UNK), by intersecting neighbour sets."""
    sets = graph.neighbor_sets
    ordered = sorted(cidx, key=lambda v: sets[v].size)
    acc = set(sets[ordered[0]].tolist())
    for v in ordered[1:]:
        if not acc:
            break
        acc &= set(sets[v].tolist())
    acc -= set(cidx)
    return acc


def direct_answers_np(graph, cidx: list[int]) -> np.ndarray:
    sets = graph.neighbor_sets
    ordered = sorted(cidx, key=lambda v: sets[v].size)
    acc = sets[ordered[0]]
    for v in ordered[1:]:
        acc = np.intersect1d(acc, sets[v], assume_unique=True)
    return np.setdiff1d(acc, np.asarray(cidx))


def nx_graph(graph):
    import networkx as nx
    G = nx.Graph()
    G.add_nodes_from((i, {"label": graph.labels[i]}) for i in range(graph.num_nodes))
    G.add_edges_from(zip(graph.src.tolist(), graph.dst.tolist()))
    G.remove_edges_from(nx.selfloop_edges(G))
    return G


def vf2_answers(G, qg, cap_s: float) -> tuple[set[int] | None, float]:
    """UNK bindings of every monomorphism of the star query graph into G; None on time-out."""
    import networkx as nx
    from networkx.algorithms import isomorphism as iso
    Q = nx.Graph()
    for n in qg.nodes:
        Q.add_node(n.qid, label=n.label)
    Q.add_edges_from(qg.edges)
    deadline = time.perf_counter() + cap_s

    def node_match(a, b):  # a: data node attrs, b: query node attrs
        if time.perf_counter() > deadline:
            raise _Timeout
        return b["label"] == "UNK" or a["label"] == b["label"]

    gm = iso.GraphMatcher(G, Q, node_match=node_match)
    target = qg.target
    out = set()
    t0 = time.perf_counter()
    try:
        for m in gm.subgraph_monomorphisms_iter():
            inv = {q: d for d, q in m.items()}
            out.add(inv[target])
            if time.perf_counter() > deadline:
                raise _Timeout
    except _Timeout:
        return None, (time.perf_counter() - t0) * 1000
    return out, (time.perf_counter() - t0) * 1000


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200, help="dev questions (default 200)")
    ap.add_argument("--vf2-n", type=int, default=20, help="questions also run through VF2 (default 20)")
    ap.add_argument("--vf2-cap", type=float, default=2.0, help="VF2 time cap per query, seconds")
    ap.add_argument("--minilm", action="store_true", help="use the MiniLM embedder (default: hash)")
    ap.add_argument("--embed", default=None, help="embedder backend (hash|minilm); overrides --minilm")
    args = ap.parse_args(argv)
    backend = args.embed or ("minilm" if args.minilm else "hash")

    from sgrag import Engine
    path, _ = ensure_fb_workspace(backend)
    eng = Engine.open(path)
    g = eng.graph
    qs = dev_questions(args.n)
    eng.ask(qs[0][0])  # warm caches (embedder, lazy graph arrays)
    _ = g.neighbor_sets, g.nodes_by_label

    stages: dict[str, list[float]] = {}
    core, direct_py, direct_np, vf2_t = [], [], [], []
    vf2_timeouts = vf2_runs = vf2_agree = vf2_agree_sg = 0
    linked = agree = no_link = 0
    diffs = []
    G = None
    if args.vf2_n:
        t0 = time.perf_counter()
        G = nx_graph(g)
        print(f"[vf2] networkx graph: {G.number_of_nodes():,} nodes, {G.number_of_edges():,} edges "
              f"in {time.perf_counter() - t0:.1f}s", flush=True)
    t_start = time.perf_counter()
    for i, (q, _ans) in enumerate(qs):
        tr = eng.ask(q)
        for k, v in tr.timings_ms.items():
            stages.setdefault(k, []).append(v)
        qg = matched_query_graph(eng, tr.query_graph) if tr.query_graph else None
        cons = [n for n in qg.constraints] if qg else []
        cidx = [g.index_of[n.node_id] for n in cons if n.node_id in g.index_of]
        if not cidx:
            no_link += 1
            continue
        linked += 1
        core.append(sum(v for k, v in tr.timings_ms.items() if k.startswith(("ψ3", "ψ4", "σ"))))
        t0 = time.perf_counter()
        ans = direct_answers(g, cidx)
        direct_py.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        ans_np = direct_answers_np(g, cidx)
        direct_np.append((time.perf_counter() - t0) * 1000)
        assert set(ans_np.tolist()) == ans
        if tr.exact_count:
            sg = {g.index_of[m.binding[qg.target]] for m in tr.matches if m.exact}
            ok = sg == ans if tr.exact_count <= len(tr.matches) else sg <= ans
        else:
            sg, ok = set(), not ans
        agree += int(ok)
        if not ok:
            dup = any(len(g.nodes_by_label.get(n.label, ())) > 1 for n in cons)
            diffs.append((q[:70], len(sg), len(ans), len(ans - sg), len(sg - ans), dup, tr.exact_count))
        if G is not None and i < args.vf2_n:
            vf2_runs += 1
            res, ms = vf2_answers(G, qg, args.vf2_cap)
            vf2_t.append(ms)
            if res is None:
                vf2_timeouts += 1
            else:
                vf2_agree += int(res == ans)
                vf2_agree_sg += int(res == sg) if tr.exact_count <= len(tr.matches) else int(sg <= res)
    wall = time.perf_counter() - t_start

    print(f"\nFB15k-237 ({g.num_nodes:,} nodes, {g.num_edges:,} edges), embed={backend}, "
          f"{len(qs)} dev questions, {linked} with >=1 linked constraint, {no_link} unlinked; wall {wall:.1f}s\n")
    rows = [[k, len(v), *p3(v)] for k, v in stages.items()]
    print("sgrag stages (ms)")
    print(table(rows, ["stage", "n", "p50", "p95", "p99"]))
    print("\nmatching only: sgrag ψ3+ψ4+σδ vs baselines on the same linked constraints (ms)")
    base = p3(core)
    brow = [["sgrag ψ3+ψ4+σ+δ", len(core), *base, 1.0]]
    for name, xs in (("direct (python sets)", direct_py), ("direct (numpy intersect1d)", direct_np),
                     (f"networkx VF2 (cap {args.vf2_cap:g}s)", vf2_t)):
        if xs:
            b = p3(xs)
            brow.append([name, len(xs), *b, b[0] / base[0] if base[0] else float("nan")])
    print(table(brow, ["method", "n", "p50", "p95", "p99", "p50 / sgrag p50"]))
    print(f"\nsgrag exact answers == direct adjacency answers: {agree}/{linked}")
    for d in diffs[:8]:
        print(f"  differs: {d[0]!r}: sgrag {d[1]} answers, direct {d[2]}; missed by sgrag {d[3]}, "
              f"extra in sgrag {d[4]}; a constraint label is shared by several nodes: {d[5]}; exact_count {d[6]}")
    if vf2_runs:
        print(f"VF2: {vf2_runs} queries, {vf2_timeouts} time-outs (> {args.vf2_cap:g}s), "
              f"of {vf2_runs - vf2_timeouts} finished: {vf2_agree} agree with direct (node ids), "
              f"{vf2_agree_sg} with sgrag exact answers (both match constraints by label)")
    tot = stages.get("total", [])
    if tot:
        print(f"end-to-end ask p50 {p3(tot)[0]:.1f} ms; peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
