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

from .extract import edge_confidence, sentence_span
from .dominance import DominanceEncoder
from .graph import KnowledgeGraph, expand_ranges
from .index import PathIndex, PathQuery, SearchStats, query_signature
from .types import FunnelStep, LabelCompletion, Match, MatchedEdge, PathMatches, QueryGraph, QueryPath

MAX_JOIN_ROWS = 200_000
Searched = dict[tuple[str, ...], tuple[np.ndarray, SearchStats]]  # index searches by query path


@dataclass
class Retrieval:
    """Candidate data paths per query path (rows: node tuples aligned with the path's qids)."""
    tables: list[tuple[tuple[str, ...], np.ndarray]]
    stats: list[PathMatches]


def _firm_slot_counts(graph: KnowledgeGraph, threshold: float) -> np.ndarray | None:
    """Prefix counts, over the CSR slots, of edges sure enough to make a match exact (None: all are)."""
    if threshold <= 0 or not graph.edge_sources:
        return None
    conf = np.ones(graph.num_edges, dtype=np.float32)
    for e, srcs in graph.edge_sources.items():
        conf[e] = edge_confidence(srcs)
    firm = conf >= threshold
    if firm.all():
        return None
    edges = graph.slot_edges(np.arange(int(graph.indptr[-1])))
    return np.concatenate([[0], np.cumsum(firm[edges])])


class Matcher:
    def __init__(self, graph: KnowledgeGraph, indexes: dict[int, PathIndex], enc: DominanceEncoder,
                 exact_edge_confidence: float = 0.0):
        self.graph, self.indexes, self.enc = graph, indexes, enc
        self._firm_cum = _firm_slot_counts(graph, exact_edge_confidence)
        self._sigs: dict[tuple[tuple[int, ...], int], np.ndarray] = {}
        self._keys: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray | None]] = {}  # a path's key bounds

    # ---- query keys ---------------------------------------------------------------------
    def _shape(self, qg: QueryGraph) -> tuple[dict[str, int | None], dict[str, list[str]]]:
        """Each query node's graph node (None: unknown or unlinked, or met through other labels too: the dominance
        and signature bounds then assume none of its nodes) and sorted query neighbours, computed once per query
        graph instead of once per path position."""
        index_of = self.graph.index_of
        node = {n.qid: None if n.is_unknown or n.also or n.instances else index_of.get(n.node_id) for n in qg.nodes}
        nbrs: dict[str, set[str]] = {q: set() for q in node}
        for u, v in qg.edges:
            nbrs[u].add(v)
            nbrs[v].add(u)
        return node, {q: sorted(s) for q, s in nbrs.items()}

    def _signature(self, known: list[int], words: int) -> np.ndarray:
        """``query_signature``, memoised: a query's few constraint nodes recur across its paths and calls."""
        key = (tuple(known), words)
        sig = self._sigs.get(key)
        if sig is None:
            if len(self._sigs) > 65536:
                self._sigs.clear()
            sig = self._sigs[key] = query_signature(self.graph, known, words)
        return sig

    def _query(self, qg: QueryGraph, path: QueryPath, label_sets: dict[str, np.ndarray],
               relaxed: bool, shape=None) -> PathQuery:
        """The index query of a path: per position its label set, degree, dominance and signature lower bounds
        (``relaxed``: each node's star reduced to the path's own nodes)."""
        node, nbrs = shape or self._shape(qg)
        idx = self.indexes[len(path.qids) - 1]
        words = idx.node_sig.shape[1] if idx.node_sig is not None else 0
        stars = tuple((node[qid], tuple(node[q] for q in nbrs[qid] if not relaxed or q in path.qids))
                      for qid in path.qids)
        keys = self._keys.get((stars, words))
        if keys is None:  # the bounds depend only on the stars' graph nodes: a question's paths share them
            degs = np.array([len(known) for _, known in stars], dtype=np.int64)
            doms = np.stack([self.enc.query_star(center, list(known)) for center, known in stars])
            sigs = np.stack([self._signature([v for v in known if v is not None], words)
                             for _, known in stars]) if words else None
            if len(self._keys) > 65536:
                self._keys.clear()
            keys = self._keys[(stars, words)] = (degs, doms, sigs)
        return PathQuery([label_sets.get(qid) for qid in path.qids], *keys)

    def known_label_sets(self, qg: QueryGraph, also: bool = True) -> dict[str, np.ndarray]:
        """Per linked constraint, the label ids that meet it: its node's, the things a definite class word stands
        for (``QueryNode.instances``, a few), and (``also``) those of the labels it stands for too (``QueryNode.also``:
        a country's demonym, a hub that would flood partial matches)."""
        out = {}
        for n in qg.constraints:
            v = self.graph.index_of.get(n.node_id)
            if v is not None:
                out[n.qid] = self._label_ids(n, int(self.graph.label_id[v]), also)
        return out

    def _label_ids(self, n, own: int, also: bool = True) -> np.ndarray:
        """The sorted label ids meeting constraint ``n`` whose own label id is ``own``."""
        g = self.graph
        more = [int(g.label_id[g.nodes_by_label[x][0]]) for x in (n.also if also else ()) + n.instances
                if g.nodes_by_label.get(x)]
        return np.unique(np.array([own] + more, dtype=np.int32)) if more else np.array([own], dtype=np.int32)

    @staticmethod
    def _meets(labels: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Which of ``labels`` are among ``ids`` (one comparison for the usual single label)."""
        return labels == ids[0] if ids.size == 1 else np.isin(labels, ids)

    # ---- ψ4 label completion ------------------------------------------------------------
    def complete_labels(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
                        cap: int) -> tuple[dict[str, np.ndarray], list[LabelCompletion], Searched]:
        """Candidate labels of each unknown node, from its most selective path (dominance on).

        Also returns every search it ran, keyed by path, for σ to reuse instead of repeating.
        """
        label_sets = dict(label_sets)
        report = []
        searched: Searched = {}
        shape = None
        for n in qg.nodes:
            if not n.is_unknown:
                continue
            options = [p for p in paths if n.qid in p.qids and p.qids[0] in label_sets]
            if not options:
                continue
            shape = shape or self._shape(qg)
            found = self._search(options, [self._query(qg, p, label_sets, False, shape) for p in options])
            best = None
            for p, (rows, st) in zip(options, found):
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

    def _search(self, paths: list[QueryPath], queries: list[PathQuery]) -> list[tuple[np.ndarray, SearchStats]]:
        """The paths' index searches, batched per path length (one exact filter per index)."""
        out: list = [None] * len(paths)
        for length in {len(p.qids) for p in paths}:
            at = [i for i, p in enumerate(paths) if len(p.qids) == length]
            for i, res in zip(at, self.indexes[length - 1].search_many([queries[i] for i in at])):
                out[i] = res
        return out

    # ---- σ retrieval --------------------------------------------------------------------
    def retrieve(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
                 relaxed: bool = False, reuse: Searched | None = None) -> Retrieval:
        """Candidate rows per path; ``reuse`` holds ψ4's searches with the same keys (not relaxed)."""
        tables, stats = [], []
        allowed: dict[str, np.ndarray] = {}  # label set -> mask over label ids (one gather instead of np.isin)
        reuse = dict(reuse or {})
        todo = [p for p in paths if p.qids not in reuse]
        if todo:
            shape = self._shape(qg)
            reuse.update((p.qids, res) for p, res in zip(todo, self._search(
                todo, [self._query(qg, p, label_sets, relaxed, shape) for p in todo])))
        for p in paths:
            idx = self.indexes[len(p.qids) - 1]
            rows, st = reuse[p.qids]
            if p not in todo:  # searched in ψ4 with the same keys (first labels too); the later sets narrow it
                for pos, q in enumerate(p.qids[1:], start=1):
                    if label_sets.get(q) is not None:
                        if q not in allowed:
                            allowed[q] = np.zeros(len(self.graph.label_vocab), dtype=bool)
                            allowed[q][label_sets[q]] = True
                        rows = rows[allowed[q][idx.labels[rows, pos]]]
            tables.append((p.qids, idx.paths[rows]))
            stats.append(PathMatches(p.qids, st.scanned, st.semantic, st.dominance, int(rows.size)))
        return Retrieval(tables, stats)

    # ---- δ assembly ---------------------------------------------------------------------
    def assemble(self, qg: QueryGraph, retrieval: Retrieval) -> tuple[list[str], np.ndarray]:
        """Join the candidate tables (rows of graph node indices, >= 0) on shared query nodes (sort-merge in numpy).

        Returns the query node of each column and the injective, distinct bindings (rows),
        in the order a nested-loop join over the tables would list them.
        """
        tables = sorted(retrieval.tables, key=lambda t: t[1].shape[0])
        if not tables:
            return [], np.zeros((0, 0), dtype=np.int64)
        common = set.intersection(*(set(q) for q, _ in tables))
        for q in sorted(common):  # semi-join on a query node all paths share (UNK of a star) first
            columns = [data[:, qids.index(q)] for qids, data in tables]
            vals = np.ones(max((int(c.max()) for c in columns if c.size), default=-1) + 1, dtype=bool)
            for c in columns:  # vals: the nodes bound to q in every table
                seen = np.zeros(vals.size, dtype=bool)
                seen[c] = True
                vals &= seen
            tables = [(qids, data[vals[c]]) for (qids, data), c in zip(tables, columns)]
            if len(common) == 1:
                star = _star_join(tables, q, int(vals.sum()))
                if star is not None:
                    return star[0], _distinct(star[1][_injective(star[1])])
        cols, rows = list(tables[0][0]), tables[0][1].astype(np.int64)
        rest = tables[1:]
        while rest and rows.size:
            k = next((i for i, (q, _) in enumerate(rest) if set(q) & set(cols)), 0)
            qids, data = rest.pop(k)
            shared = [q for q in qids if q in cols]
            new = [q for q in qids if q not in cols]
            rows = _join(rows, [cols.index(q) for q in shared], data.astype(np.int64),
                         [qids.index(q) for q in shared], [qids.index(q) for q in new])
            cols += new
        if rest:
            return cols, np.zeros((0, len(cols)), dtype=np.int64)
        return cols, _distinct(rows[_injective(rows)])

    def verify(self, qg: QueryGraph, cols: list[str],
               rows: np.ndarray) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
        """Which bindings satisfy every query edge and label in the graph, edge by edge.

        Returns the mask of verified rows and, per query edge, the CSR slots [lo, hi) of the
        graph edges that satisfy it (``graph.edge_slots``), for the evidence.
        """
        g = self.graph
        ok = _injective(rows)
        where = {q: i for i, q in enumerate(cols)}
        for n in qg.constraints:
            nodes = g.nodes_by_label.get(n.label)
            if n.qid not in where or not nodes:
                return np.zeros(rows.shape[0], dtype=bool), []
            ok &= self._meets(g.label_id[rows[:, where[n.qid]]], self._label_ids(n, int(g.label_id[nodes[0]])))
        if any(u not in where or v not in where for u, v in qg.edges):
            return np.zeros(rows.shape[0], dtype=bool), []
        if not qg.edges:
            return ok, []
        n = rows.shape[0]  # every query edge looked up in one batch
        lo, hi = g.edge_slots(rows[:, [where[u] for u, _ in qg.edges]].T.reshape(-1),
                              rows[:, [where[v] for _, v in qg.edges]].T.reshape(-1))
        firm = hi > lo if self._firm_cum is None else self._firm_cum[hi] > self._firm_cum[lo]
        ok &= firm.reshape(len(qg.edges), n).all(axis=0)
        return ok, [(lo[i * n:(i + 1) * n], hi[i * n:(i + 1) * n]) for i in range(len(qg.edges))]

    def evidence(self, qu: str, qv: str, edge_ids: list[int]) -> list[MatchedEdge]:
        g = self.graph
        out = []
        for e in edge_ids[:3]:
            s, t = int(g.src[e]), int(g.dst[e])
            spans = [x for x in g.edge_sources.get(e, ()) if sentence_span(x)]
            desc = g.edge_description(e)
            conf = edge_confidence(g.edge_sources.get(e, ()))
            spans.sort(key=lambda x: -edge_confidence([x]))  # the surest reading first
            out.append(MatchedEdge((qu, qv), g.node_ids[s], g.node_ids[t], g.labels[s], g.labels[t],
                                   g.relations[int(g.rel[e])], desc, spans[0] if spans else "",
                                   desc if spans else "", conf))
        return out

    # ---- the whole σ+δ for one query graph ------------------------------------------------
    def match(self, qg: QueryGraph, paths: list[QueryPath], label_sets: dict[str, np.ndarray],
              searched: Searched | None = None) -> tuple["ExactMatches", Retrieval, list[FunnelStep]]:
        """All verified exact matches (every one is ranked; the trace keeps the best)."""
        retrieval = self.retrieve(qg, paths, label_sets, reuse=searched)
        funnel = [FunnelStep("index entries scanned", sum(s.visited_leaves for s in retrieval.stats)),
                  FunnelStep("after semantic filter", sum(s.semantic_hits for s in retrieval.stats)),
                  FunnelStep("after dominance filter", sum(s.dominance_hits for s in retrieval.stats))]
        cols, rows = self.assemble(qg, retrieval)
        funnel.append(FunnelStep("joined bindings", rows.shape[0]))
        ok, slots = self.verify(qg, cols, rows)
        exact = ExactMatches(self, qg, cols, rows[ok], [(lo[ok], hi[ok]) for lo, hi in slots])
        funnel.append(FunnelStep("verified exact matches", len(exact)))
        return exact, retrieval, funnel

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

    def soft_neighbours(self, soft: list, cap: int) -> dict[int, dict[str, int]]:
        """Candidates from the soft constraints alone, where no firm one has any (its node has no edges): each node
        next to a soft constraint's, with the constraints it meets, most first; a partial answer rather than none."""
        g = self.graph
        out: dict[int, dict[str, int]] = {}
        for n in soft:
            for v in g.nodes_by_label.get(n.label, []):
                for u in g.neighbors(v).tolist():
                    out.setdefault(int(u), {}).setdefault(n.qid, int(v))
        keep = sorted(out, key=lambda x: (-len(out[x]), x))[:cap]
        return {x: out[x] for x in keep}

    def add_soft_support(self, candidates: dict[int, dict[str, int]], soft: list) -> None:
        """Record which soft constraints each candidate also satisfies (checked in the graph).

        A candidate's bound node is its smallest neighbour with the constraint's label.
        """
        g = self.graph
        if not candidates:
            return
        xs = np.fromiter(candidates, dtype=np.int64, count=len(candidates))
        slots, owner = expand_ranges(g.indptr[xs], g.indptr[xs + 1])
        nbr = g.slot_neighbors(slots)  # each candidate's neighbours, ascending
        sats = list(candidates.values())
        for n in soft:
            nodes = g.nodes_by_label.get(n.label)
            if not nodes:
                continue
            hit = self._meets(g.label_id[nbr], self._label_ids(n, int(g.label_id[nodes[0]])))
            who, first = np.unique(owner[hit], return_index=True)
            for i, u in zip(who.tolist(), nbr[hit][first].tolist()):
                sats[i][n.qid] = u



@dataclass
class ExactMatches:
    """The verified exact bindings, column-wise; ``Match`` objects (with evidence) only on demand.

    Thousands of bindings are cheap to hold and rank; building every one's evidence is not,
    and only the best ``match.max_matches`` are shown.
    """
    matcher: Matcher
    qg: QueryGraph
    cols: list[str]
    rows: np.ndarray  # (bindings, len(cols)) graph nodes, verified
    slots: list[tuple[np.ndarray, np.ndarray]]  # per query edge: CSR slots [lo, hi) of its graph edges

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def candidates(self, target: str) -> dict[int, dict[str, int]]:
        """UNK node -> {constraint qid: bound node} (a node bound several ways keeps its last binding)."""
        qids = [n.qid for n in self.qg.constraints]
        columns = [self.rows[:, self.cols.index(q)].tolist() for q in qids]
        return {x: dict(zip(qids, bound)) for x, *bound in zip(self.rows[:, self.cols.index(target)].tolist(), *columns)}

    def matches(self, first: list[str] | None = None, limit: int | None = None) -> list[Match]:
        """Matches with evidence: those whose target is in ``first`` (node ids) in that order, then the rest."""
        g = self.matcher.graph
        rank = {g.index_of[nid]: i for i, nid in enumerate(first or ())}
        target = self.rows[:, self.cols.index(self.qg.target)].tolist()
        order = np.argsort(np.array([rank.get(x, len(rank)) for x in target], dtype=np.int64), kind="stable")[:limit]
        all_q = tuple(n.qid for n in self.qg.constraints)
        out = []
        for i in order.tolist():
            edges = []
            for (u, v), (lo, hi) in zip(self.qg.edges, self.slots):
                edges.extend(self.matcher.evidence(u, v, g.slot_edges(np.arange(lo[i], min(hi[i], lo[i] + 3))).tolist()))
            out.append(Match({q: g.node_ids[x] for q, x in zip(self.cols, self.rows[i].tolist())}, tuple(edges),
                             all_q, (), True))
        return out



def _injective(rows: np.ndarray) -> np.ndarray:
    """Rows binding every query node to a different graph node."""
    ok = np.ones(rows.shape[0], dtype=bool)
    for a in range(rows.shape[1]):
        for b in range(a + 1, rows.shape[1]):
            ok &= rows[:, a] != rows[:, b]
    return ok

def _distinct(rows: np.ndarray) -> np.ndarray:
    """The rows without repeats, in first-occurrence order (one integer key per row when it fits in int64)."""
    if rows.shape[0] < 2:
        return rows
    dims = rows.max(axis=0) + 1
    if rows.min() >= 0 and float(np.prod(dims.astype(np.float64))) < 2.0 ** 62:
        _, first = np.unique(np.ravel_multi_index(rows.T, dims), return_index=True)
    else:
        _, first = np.unique(rows, axis=0, return_index=True)
    return rows[np.sort(first)]


def _star_join(tables: list[tuple[tuple[str, ...], np.ndarray]], q: str,
               shared: int) -> tuple[list[str], np.ndarray] | None:
    """The join of semi-joined tables that share only ``q`` and bind each of the ``shared`` nodes once.

    Then every row of the first table has exactly one partner per table: a lookup, not a join
    (same rows, same order as ``_join``). None when that does not hold.
    """
    qids0, data0 = tables[0]
    if not 0 < data0.shape[0] <= MAX_JOIN_ROWS or any(d.shape[0] != shared for _, d in tables):
        return None
    if any(set(qids) & set(other) != {q} for i, (qids, _) in enumerate(tables) for other, _ in tables[:i]):
        return None
    key = data0[:, qids0.index(q)]
    cols, parts = list(qids0), [data0.astype(np.int64)]
    for qids, data in tables[1:]:
        col = data[:, qids.index(q)]
        order = np.argsort(col)
        new = [j for j, x in enumerate(qids) if x != q]
        parts.append(data[order[np.searchsorted(col[order], key)]][:, new].astype(np.int64))
        cols += [qids[j] for j in new]
    return cols, np.concatenate(parts, axis=1)


def _join(left: np.ndarray, lpos: list[int], right: np.ndarray, rpos: list[int], npos: list[int]) -> np.ndarray:
    """Rows of ``left`` extended by the ``npos`` columns of every ``right`` row agreeing on the shared columns.

    Left rows keep their order, each followed by its partners in ``right``'s order (as a
    nested-loop join lists them); at most MAX_JOIN_ROWS rows come out.
    """
    if len(lpos) == 1:  # one shared query node (a star's UNK): its graph node is the key
        lkey, rkey = left[:, lpos[0]], right[:, rpos[0]]
    elif lpos:
        keys = np.unique(np.concatenate([left[:, lpos], right[:, rpos]]), axis=0, return_inverse=True)[1].reshape(-1)
        lkey, rkey = keys[:left.shape[0]], keys[left.shape[0]:]
    else:  # nothing shared: every pair
        lkey, rkey = np.zeros(left.shape[0], np.int64), np.zeros(right.shape[0], np.int64)
    order = np.argsort(rkey, kind="stable")
    lo = np.searchsorted(rkey[order], lkey, "left")
    hi = np.searchsorted(rkey[order], lkey, "right")
    before = np.cumsum(hi - lo) - (hi - lo)
    hi = lo + np.clip(MAX_JOIN_ROWS - before, 0, hi - lo)
    pos, owner = expand_ranges(lo, hi)
    return np.concatenate([left[owner], right[order[pos]][:, npos]], axis=1)
