"""σ and δ: label completion, index retrieval with both filters, assembly by joins, verification.

The paper enumerates completed path sets P as a Cartesian product of UNK label candidates
and assembles matches from the Cartesian product of candidate lists. Both blow up on hub
constraints, so here a label *set* per unknown node goes into one index query (the same
result as querying every combination), and assembly is a hash join on shared query nodes.
Every binding that comes out is verified edge by edge against the graph: a returned exact
match is exact.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .extract import sentence_span
from .gnn import DominanceEncoder
from .graph import KnowledgeGraph
from .index import PathIndex, PathQuery, SearchStats, query_signature
from .types import FunnelStep, LabelCompletion, Match, MatchedEdge, PathMatches, QueryGraph, QueryPath

MAX_JOIN_ROWS = 200_000
Searched = dict[tuple[str, ...], tuple[np.ndarray, SearchStats]]  # index searches by query path


@dataclass
class Retrieval:
    """Candidate data paths per query path (rows: node tuples aligned with the path's qids)."""
    tables: list[tuple[tuple[str, ...], np.ndarray]]
    stats: list[PathMatches]


class Matcher:
    def __init__(self, graph: KnowledgeGraph, indexes: dict[int, PathIndex], enc: DominanceEncoder):
        self.graph, self.indexes, self.enc = graph, indexes, enc

    # ---- query keys ---------------------------------------------------------------------
    def _node(self, qg: QueryGraph, qid: str) -> int | None:
        n = qg.node(qid)
        return None if n.is_unknown else self.graph.index_of.get(n.node_id)

    def _neighbors(self, qg: QueryGraph, qid: str) -> list[str]:
        return sorted({v for u, v in qg.edges if u == qid} | {u for u, v in qg.edges if v == qid})

    def _star_key(self, qg: QueryGraph, qid: str, only: set[str] | None = None) -> tuple[int, np.ndarray]:
        """Degree and dominance lower bounds of a query node's star (``only``: a sub-star)."""
        nbrs = [q for q in self._neighbors(qg, qid) if only is None or q in only]
        dom = self.enc.query_star(self._node(qg, qid), [self._node(qg, q) for q in nbrs])
        return len(nbrs), dom

    def _query(self, qg: QueryGraph, path: QueryPath, label_sets: dict[str, np.ndarray],
               relaxed: bool) -> PathQuery:
        sets, degs, doms, sigs = [], [], [], []
        idx = self.indexes[len(path.qids) - 1]
        words = idx.node_sig.shape[1] if idx.node_sig is not None else 0
        for qid in path.qids:
            sets.append(label_sets.get(qid))
            only = set(path.qids) if relaxed else None
            d, dom = self._star_key(qg, qid, only)
            degs.append(d)
            doms.append(dom)
            if words:
                known = [self._node(qg, q) for q in self._neighbors(qg, qid) if only is None or q in only]
                sigs.append(query_signature(self.graph, [v for v in known if v is not None], words))
        return PathQuery(sets, np.asarray(degs, dtype=np.int64), np.stack(doms), np.stack(sigs) if words else None)

    def known_label_sets(self, qg: QueryGraph) -> dict[str, np.ndarray]:
        out = {}
        for n in qg.constraints:
            v = self.graph.index_of.get(n.node_id)
            if v is not None:
                out[n.qid] = np.array([self.graph.label_id[v]], dtype=np.int32)
        return out

    # ---- ψ4 label completion ------------------------------------------------------------
    def complete_labels(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
                        cap: int) -> tuple[dict[str, np.ndarray], list[LabelCompletion], Searched]:
        """Candidate labels of each unknown node, from its most selective path (dominance on).

        Also returns every search it ran, keyed by path, for σ to reuse instead of repeating.
        """
        label_sets = dict(label_sets)
        report = []
        searched: Searched = {}
        for n in qg.nodes:
            if not n.is_unknown:
                continue
            options = [p for p in paths if n.qid in p.qids and p.qids[0] in label_sets]
            if not options:
                continue
            best = None
            for p in options:
                rows, st = self._search(p, self._query(qg, p, label_sets, relaxed=False))
                searched[p.qids] = (rows, st)
                if best is None or rows.size < best[1].size:
                    best = (p, rows)
            p, rows = best
            pos = p.qids.index(n.qid)
            nodes = self.indexes[len(p.qids) - 1].paths[rows, pos]
            labels, counts = np.unique(self.graph.label_id[nodes], return_counts=True)
            order = np.argsort(-counts, kind="stable")[:cap]
            label_sets[n.qid] = np.sort(labels[order]).astype(np.int32)
            report.append(LabelCompletion(n.qid, tuple((self.graph.label_vocab[labels[i]], int(counts[i]))
                                                       for i in order[:50]), int(labels.size), p.qids))
        return label_sets, report, searched

    def _search(self, path: QueryPath, q: PathQuery):
        return self.indexes[len(path.qids) - 1].search(q)

    # ---- σ retrieval --------------------------------------------------------------------
    def retrieve(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
                 relaxed: bool = False, reuse: Searched | None = None) -> Retrieval:
        """Candidate rows per path; ``reuse`` holds ψ4's searches with the same keys (not relaxed)."""
        tables, stats = [], []
        reuse = reuse or {}
        for p in paths:
            idx = self.indexes[len(p.qids) - 1]
            if p.qids in reuse:  # searched in ψ4 with the same keys; the label sets only narrow it
                rows, st = reuse[p.qids]
                for pos, q in enumerate(p.qids):
                    if label_sets.get(q) is not None:
                        rows = rows[np.isin(idx.labels[rows, pos], label_sets[q])]
            else:
                rows, st = idx.search(self._query(qg, p, label_sets, relaxed))
            tables.append((p.qids, idx.paths[rows]))
            stats.append(PathMatches(p.qids, st.scanned, st.semantic, st.dominance, int(rows.size)))
        return Retrieval(tables, stats)

    # ---- δ assembly ---------------------------------------------------------------------
    def assemble(self, qg: QueryGraph, retrieval: Retrieval) -> list[dict[str, int]]:
        """Hash-join the candidate tables on shared query nodes; injective bindings only."""
        tables = sorted(retrieval.tables, key=lambda t: t[1].shape[0])
        if not tables:
            return []
        common = set.intersection(*(set(q) for q, _ in tables))
        for q in common:  # semi-join on a query node all paths share (UNK of a star): numpy, not dicts
            vals = tables[0][1][:, tables[0][0].index(q)]
            for qids, data in tables[1:]:
                vals = np.intersect1d(vals, data[:, qids.index(q)])
            tables = [(qids, data[np.isin(data[:, qids.index(q)], vals)]) for qids, data in tables]
        cols, rows = list(tables[0][0]), [tuple(r) for r in tables[0][1].tolist()]
        rest = tables[1:]
        while rest:
            k = next((i for i, (q, _) in enumerate(rest) if set(q) & set(cols)), 0)
            qids, data = rest.pop(k)
            shared = [q for q in qids if q in cols]
            new = [q for q in qids if q not in cols]
            pos_l = [cols.index(q) for q in shared]
            pos_r = [qids.index(q) for q in shared]
            pos_n = [qids.index(q) for q in new]
            bucket: dict[tuple, list[tuple]] = {}
            for r in data.tolist():
                bucket.setdefault(tuple(r[i] for i in pos_r), []).append(tuple(r[i] for i in pos_n))
            joined = []
            for r in rows:
                for ext in bucket.get(tuple(r[i] for i in pos_l), ()):
                    joined.append(r + ext)
                    if len(joined) >= MAX_JOIN_ROWS:
                        break
            cols += new
            rows = joined
            if not rows:
                return []
        out, seen = [], set()
        for r in rows:
            if len(set(r)) != len(r) or r in seen:
                continue
            seen.add(r)
            out.append(dict(zip(cols, r)))
        return out

    def verify(self, qg: QueryGraph, binding: dict[str, int]) -> list[MatchedEdge] | None:
        """The evidence edges if ``binding`` satisfies every query edge and label, else None."""
        g = self.graph
        if len(set(binding.values())) != len(binding):
            return None
        for n in qg.constraints:
            v = binding.get(n.qid)
            if v is None or g.labels[v] != n.label:
                return None
        edges = []
        for u, v in qg.edges:
            if u not in binding or v not in binding:
                return None
            found = g.edges_between(binding[u], binding[v])
            if not found:
                return None
            edges.extend(self.evidence(u, v, found))
        return edges

    def evidence(self, qu: str, qv: str, edge_ids: list[int]) -> list[MatchedEdge]:
        g = self.graph
        out = []
        for e in edge_ids[:3]:
            s, t = int(g.src[e]), int(g.dst[e])
            spans = [x for x in g.edge_sources.get(e, ()) if sentence_span(x)]
            desc = g.edge_description(e)
            out.append(MatchedEdge((qu, qv), g.node_ids[s], g.node_ids[t], g.labels[s], g.labels[t],
                                   g.relations[int(g.rel[e])], desc, spans[0] if spans else "",
                                   desc if spans else ""))
        return out

    # ---- the whole σ+δ for one query graph ------------------------------------------------
    def match(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
              searched: Searched | None = None) -> tuple[list[Match], Retrieval, list[FunnelStep]]:
        """All verified exact matches (every one is ranked; the trace keeps the best)."""
        retrieval = self.retrieve(qg, paths, label_sets, reuse=searched)
        funnel = [FunnelStep("index entries scanned", sum(s.visited_leaves for s in retrieval.stats)),
                  FunnelStep("after semantic filter", sum(s.semantic_hits for s in retrieval.stats)),
                  FunnelStep("after dominance filter", sum(s.dominance_hits for s in retrieval.stats))]
        bindings = self.assemble(qg, retrieval)
        funnel.append(FunnelStep("joined bindings", len(bindings)))
        matches = []
        all_q = tuple(n.qid for n in qg.constraints)
        for b in bindings:
            ev = self.verify(qg, b)
            if ev is not None:
                matches.append(Match({q: self.graph.node_ids[v] for q, v in b.items()}, tuple(ev), all_q, (), True))
        funnel.append(FunnelStep("verified exact matches", len(matches)))
        return matches, retrieval, funnel

    def partial(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
                limit: int) -> tuple[list[Match], dict[int, dict[str, int]]]:
        """Best partial matches: UNK bindings ranked by the constraints they satisfy.

        Each path is retrieved on its own (UNK's star reduced to that path's constraints),
        so a candidate missing one constraint is not pruned by the others. Ties prefer the
        candidate whose missing constraints were linked least confidently. Returns the best
        ``limit`` matches and the support of every candidate (UNK node -> {qid: bound node}).
        """
        target = qg.target
        retrieval = self.retrieve(qg, paths, {q: s for q, s in label_sets.items() if q != target}, relaxed=True)
        support = self._support(qg, retrieval)
        conf = {n.qid: n.confidence for n in qg.constraints}
        total = sum(conf.values()) or 1.0
        ranked = sorted(support.items(), key=lambda kv: (-sum(conf[q] for q in kv[1]) / total, -len(kv[1]), kv[0]))
        matches = []
        for x, sat in ranked[:limit]:  # the best partial bindings, for the trace
            edges = []
            for q, c in sat.items():
                edges.extend(self.evidence(target, q, self.graph.edges_between(x, c)))
            missing = tuple(n.qid for n in qg.constraints if n.qid not in sat)
            binding = {target: self.graph.node_ids[x], **{q: self.graph.node_ids[c] for q, c in sat.items()}}
            matches.append(Match(binding, tuple(edges), tuple(sat), missing, False))
        return matches, support

    def _support(self, qg: QueryGraph, retrieval: Retrieval) -> dict[int, dict[str, int]]:
        """UNK node -> {constraint qid: bound node} over a relaxed retrieval."""
        target = qg.target
        out: dict[int, dict[str, int]] = {}
        for qids, rows in retrieval.tables:
            if target not in qids:
                continue
            t = qids.index(target)
            for r in rows.tolist():
                for pos, q in enumerate(qids):
                    if q != target:
                        out.setdefault(r[t], {})[q] = r[pos]
        return out

    def add_soft_support(self, candidates: dict[int, dict[str, int]], soft: list) -> None:
        """Record which soft constraints each candidate also satisfies (checked in the graph)."""
        g = self.graph
        for n in soft:
            label_nodes = set(g.nodes_by_label.get(n.label, ()))
            for x, sat in candidates.items():
                for u in g.neighbor_sets[x].tolist():
                    if u in label_nodes:
                        sat[n.qid] = u
                        break
