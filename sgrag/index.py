"""φ: the path index (exact label groups + R*-trees over dominance keys) and the FAISS label index.

Every path of length l is stored in both orientations, grouped by the exact label id of its
first node (the semantic key: labels are compared for equality, so raw 384-dim label
vectors never enter a tree). Inside a group the key of a path is, per position, its label id
(positions > 0), its degree and its integer dominance embedding. Groups larger than
``TREE_MIN`` get an R*-tree (``rtree``, RT_Star, bulk-loaded from arrays); the orthant query
``key >= query key`` then visits only leaves that can hold a dominating path. Smaller groups
are one contiguous block scanned with numpy, which is what a leaf is anyway.
The paths of one query star are searched together (``search_many``): one exact filter over
all their candidate rows instead of one per path.

All coordinates are integers held exactly in float64, so the tree never rounds a true match
away; the exact test at the leaves is done again on the integer arrays.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import faiss
import numpy as np
from rtree import index as rindex

from .errors import BuildError
from .graph import KnowledgeGraph
from .types import Progress, ProgressFn, no_progress

# Groups with more paths than this get their own R*-tree. Below it a numpy scan of the group's
# block is faster: over FB15k-237 (largest group 6,952 paths, ~19 key dimensions) an R*-tree
# query took 3x the time of scanning the block, for the same rows (bench/RESULTS.md, section 1).
TREE_MIN = 16384


def count_paths(graph: KnowledgeGraph, length: int) -> int:
    """Number of oriented paths of ``length`` edges over distinct neighbours (no repeats)."""
    deg = graph.degree.astype(np.int64)
    if length == 1:
        return int(deg.sum())
    if length == 2:
        return int((deg * np.maximum(deg - 1, 0)).sum())
    raise BuildError(f"path length {length} is not supported (use 1 or 2)")


def enumerate_paths(graph: KnowledgeGraph, length: int, budget: int) -> np.ndarray:
    """(N, length+1) int32 node paths, both orientations, no node repeated within a path."""
    total = count_paths(graph, length)
    if total > budget:
        raise BuildError(
            f"path length {length} needs {total:,} paths, over the budget of {budget:,} "
            f"(index.max_paths). Use path length 1, or raise the budget if memory allows "
            f"(~{total * 60 / 2**30:.1f} GiB).")
    sets = graph.neighbor_sets
    if length == 1:
        counts = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
        a = np.repeat(np.arange(len(sets), dtype=np.int32), counts)
        b = np.concatenate(sets).astype(np.int32) if total else np.zeros(0, np.int32)
        return np.stack([a, b], axis=1)
    out = np.empty((total, 3), dtype=np.int32)
    pos = 0
    for mid, nb in enumerate(sets):
        k = nb.size
        if k < 2:
            continue
        a = np.repeat(nb, k)
        c = np.tile(nb, k)
        keep = a != c
        m = int(keep.sum())
        out[pos:pos + m, 0] = a[keep]
        out[pos:pos + m, 1] = mid
        out[pos:pos + m, 2] = c[keep]
        pos += m
    return out


def label_signatures(graph: KnowledgeGraph, bits: int) -> np.ndarray:
    """(n, bits/64) uint64: bit h(label) set for the label of every neighbour (a Bloom-style set).

    OR over neighbours is monotone like the GNN's sum and max: a sub-star's bits are a subset
    of the star's, so ``q & ~sig == 0`` never rejects a true match. Unlike a trained embedding
    it cannot be swamped by a hub's degree.
    """
    words = max(1, bits // 64)
    sig = np.zeros((graph.num_nodes, words), dtype=np.uint64)
    if graph.num_nodes == 0 or bits <= 0:
        return sig
    label_bit = signature_bits(np.arange(len(graph.label_vocab)), words * 64)
    indptr, nbr, _ = graph._csr
    centers = np.repeat(np.arange(graph.num_nodes), np.diff(indptr))
    b = label_bit[graph.label_id[nbr]]
    np.bitwise_or.at(sig, (centers, b // 64), np.left_shift(np.uint64(1), (b % 64).astype(np.uint64)))
    return sig


def signature_bits(label_ids: np.ndarray, bits: int) -> np.ndarray:
    """The bit of each label id (a fixed multiplicative hash, so it is stable across runs)."""
    return ((np.asarray(label_ids, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)).astype(np.int64) % bits


def query_signature(graph: KnowledgeGraph, nodes: list[int], words: int) -> np.ndarray:
    """Bits a data star must hold to contain neighbours with the labels of ``nodes``."""
    sig = np.zeros(words, dtype=np.uint64)
    if nodes:
        b = signature_bits(graph.label_id[np.asarray(nodes)], words * 64)
        np.bitwise_or.at(sig, b // 64, np.left_shift(np.uint64(1), (b % 64).astype(np.uint64)))
    return sig


@dataclass
class PathQuery:
    """What a query path demands of each position (``None`` label set: unknown label)."""
    label_sets: list[np.ndarray | None]
    deg_min: np.ndarray  # (L+1,) int
    dom_min: np.ndarray  # (L+1, d) int
    sig_min: np.ndarray | None = None  # (L+1, words) uint64 label-signature bits per position


@dataclass
class SearchStats:
    scanned: int = 0  # leaf entries examined (block rows or tree hits)
    semantic: int = 0  # passed the label test
    dominance: int = 0  # passed the dominance test as well
    used_tree: bool = False


class PathIndex:
    """Paths of one length, grouped by first label, with R*-trees over big groups."""

    def __init__(self, length: int, paths: np.ndarray, labels: np.ndarray, deg: np.ndarray,
                 dom: np.ndarray, group_labels: np.ndarray, group_ptr: np.ndarray,
                 leaf_capacity: int = 64, node_sig: np.ndarray | None = None, tree_min: int = TREE_MIN):
        self.length = length
        self.tree_min = tree_min
        self.node_sig = node_sig
        self.paths, self.labels, self.deg, self.dom = paths, labels, deg, dom
        self.group_labels, self.group_ptr = group_labels, group_ptr
        self.leaf_capacity = leaf_capacity
        self._label_width = int(labels.max()) + 1 if labels.size else 1
        self._trees: dict[int, rindex.Index] = {}
        self._build_trees()

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def build(cls, graph: KnowledgeGraph, node_dom: np.ndarray, length: int, budget: int,
              leaf_capacity: int = 64, progress: ProgressFn = no_progress,
              node_sig: np.ndarray | None = None, tree_min: int = TREE_MIN) -> "PathIndex":
        t0 = time.perf_counter()
        total = count_paths(graph, length)
        progress(Progress("paths", 0, max(total, 1), f"enumerating {total:,} paths of length {length}"))
        paths = enumerate_paths(graph, length, budget)
        labels = graph.label_id[paths]
        order = np.lexsort(tuple(labels[:, i] for i in range(length, -1, -1)))
        paths, labels = paths[order], labels[order]
        deg = graph.degree[paths].astype(np.int64)
        dom = node_dom[paths]  # (N, L+1, d)
        first = labels[:, 0]
        boundaries = np.flatnonzero(np.diff(first)) + 1 if first.size else np.zeros(0, np.int64)
        group_ptr = np.concatenate([[0], boundaries, [first.size]]).astype(np.int64)
        group_labels = first[group_ptr[:-1]] if first.size else np.zeros(0, np.int32)
        progress(Progress("paths", total, max(total, 1), f"{total:,} paths in {group_labels.size:,} label groups",
                          metrics={"seconds": time.perf_counter() - t0}))
        progress(Progress("rtree", 0, 1, "bulk-loading R*-trees"))
        idx = cls(length, paths, labels, deg, dom, group_labels, group_ptr, leaf_capacity, node_sig, tree_min)
        progress(Progress("rtree", 1, 1, f"{len(idx._trees)} R*-trees over groups > {tree_min} paths",
                          metrics={"trees": len(idx._trees)}))
        return idx

    def _keys(self, lo: int, hi: int) -> np.ndarray:
        """Tree coordinates of rows lo..hi: labels of positions > 0, degrees, dominance."""
        n = hi - lo
        parts = [self.labels[lo:hi, 1:].astype(np.float64), self.deg[lo:hi].astype(np.float64),
                 self.dom[lo:hi].reshape(n, -1).astype(np.float64)]
        return np.ascontiguousarray(np.concatenate(parts, axis=1))

    def _build_trees(self) -> None:
        sizes = np.diff(self.group_ptr)
        for g in np.flatnonzero(sizes > self.tree_min):
            lo, hi = int(self.group_ptr[g]), int(self.group_ptr[g + 1])
            keys = self._keys(lo, hi)
            p = rindex.Property()
            p.dimension = keys.shape[1]
            p.variant = rindex.RT_Star
            p.leaf_capacity = self.leaf_capacity
            p.index_capacity = self.leaf_capacity
            ids = np.arange(lo, hi, dtype=np.int64)
            self._trees[int(self.group_labels[g])] = rindex.Index((ids, keys, keys), properties=p)

    # ---- search -------------------------------------------------------------------------
    def _group(self, label: int) -> tuple[int, int]:
        g = int(np.searchsorted(self.group_labels, label))
        if g >= self.group_labels.size or self.group_labels[g] != label:
            return 0, 0
        return int(self.group_ptr[g]), int(self.group_ptr[g + 1])

    def _tree_box(self, q: PathQuery) -> tuple[np.ndarray, np.ndarray]:
        big = np.finfo(np.float64).max
        lo_l, hi_l = [], []
        for s in q.label_sets[1:]:
            if s is None or s.size == 0:
                lo_l.append(-big)
                hi_l.append(big)
            else:
                lo_l.append(float(s.min()))
                hi_l.append(float(s.max()))
        mins = np.concatenate([lo_l, q.deg_min.astype(np.float64), q.dom_min.reshape(-1).astype(np.float64)])
        maxs = np.concatenate([hi_l, np.full(q.deg_min.size + q.dom_min.size, big)])
        return mins, maxs

    def search(self, q: PathQuery) -> tuple[np.ndarray, SearchStats]:
        """Row ids of paths whose labels match and whose keys dominate the query's, exactly."""
        return self.search_many([q])[0]

    def search_many(self, queries: list[PathQuery]) -> list[tuple[np.ndarray, SearchStats]]:
        """``search`` for several queries (the paths of a star) with one exact filter over all their rows."""
        cands, stats = [], []
        for q in queries:
            st = SearchStats()
            cands.append(self._candidates(q, st))
            st.scanned = int(cands[-1].size)
            stats.append(st)
        owner = np.repeat(np.arange(len(queries)), [c.size for c in cands])
        cand = np.concatenate(cands) if cands else np.zeros(0, np.int64)
        return self._exact_filter(cand, owner, queries, stats, first_checked=True)

    def _candidates(self, q: PathQuery, stats: SearchStats) -> np.ndarray:
        """Rows of the query's first-label groups: a tree's orthant hits, or the whole block."""
        first = q.label_sets[0]
        if first is None:
            raise ValueError("the first position of a query path must have known labels")
        rows: list[np.ndarray] = []
        for label in np.unique(first):
            lo, hi = self._group(int(label))
            if hi <= lo:
                continue
            tree = self._trees.get(int(label))
            if tree is not None:
                mins, maxs = self._tree_box(q)
                ids, _ = tree.intersection_v(mins[None, :], maxs[None, :])
                stats.used_tree = True
                rows.append(np.sort(ids))
            else:
                rows.append(np.arange(lo, hi, dtype=np.int64))
        return np.concatenate(rows) if rows else np.zeros(0, np.int64)

    def _exact_filter(self, cand: np.ndarray, owner: np.ndarray, queries: list[PathQuery],
                      stats: list[SearchStats], first_checked: bool = False) -> list[tuple[np.ndarray, SearchStats]]:
        """Keep ``cand[i]`` if it meets query ``owner[i]`` exactly: labels, degrees, dominance, signatures.

        ``first_checked``: the rows come from their query's first-label groups, so position 0 holds.
        """
        nq = len(queries)
        width = self._label_width
        for p in range(1 if first_checked else 0, self.length + 1):
            sets = [q.label_sets[p] for q in queries]
            if all(s is None for s in sets):
                continue
            allowed = np.concatenate([i * width + s.astype(np.int64) for i, s in enumerate(sets) if s is not None])
            free = np.array([s is None for s in sets])
            ok = free[owner] | np.isin(owner * width + self.labels[cand, p], allowed)
            cand, owner = cand[ok], owner[ok]
        semantic = np.bincount(owner, minlength=nq)
        # The tests are a conjunction, so their order changes no result: the signatures prune most (a star's
        # paths share the unknown node's bits, tested as one row), then degree and dominance on what is left.
        if self.node_sig is not None and any(q.sig_min is not None for q in queries):
            zero = np.zeros((self.length + 1, self.node_sig.shape[1]), dtype=np.uint64)
            need_all = np.stack([zero if q.sig_min is None else q.sig_min for q in queries])
            for p in range(self.length + 1):
                needs = need_all[:, p]
                if not needs.any():
                    continue
                nodes = self.paths[cand, p]
                if (needs == needs[0]).all():  # one row for all: its non-zero words, a column at a time (fast)
                    keep = np.ones(cand.size, dtype=bool)
                    for w in np.flatnonzero(needs[0]).tolist():
                        keep &= (self.node_sig[:, w][nodes] & needs[0, w]) == needs[0, w]
                else:
                    keep = ((self.node_sig[nodes] & needs[owner]) == needs[owner]).all(axis=1)
                cand, owner = cand[keep], owner[keep]
        ok = (self.deg[cand] >= np.stack([q.deg_min for q in queries])[owner]).all(axis=1)
        cand, owner = cand[ok], owner[ok]
        ok = (self.dom[cand] >= np.stack([q.dom_min for q in queries])[owner]).all(axis=(1, 2))
        cand, owner = cand[ok], owner[ok]
        counts = np.bincount(owner, minlength=nq)
        out = []
        for st, rows, sem, dom in zip(stats, np.split(cand, np.cumsum(counts)[:-1]), semantic.tolist(), counts.tolist()):
            st.semantic, st.dominance = sem, dom
            out.append((rows, st))
        return out

    def scan(self, q: PathQuery) -> tuple[np.ndarray, SearchStats]:
        """Brute force over every stored path (the baseline and the test oracle)."""
        cand = np.arange(self.paths.shape[0], dtype=np.int64)
        return self._exact_filter(cand, np.zeros(cand.size, np.int64), [q], [SearchStats(scanned=cand.size)])[0]

    def visited_leaf_entries(self, q: PathQuery) -> int:
        """Entries in tree leaves whose MBR meets the query box (what the tree really reads)."""
        mins, maxs = self._tree_box(q)
        total = 0
        for label in np.unique(q.label_sets[0]):
            tree = self._trees.get(int(label))
            if tree is None:
                lo, hi = self._group(int(label))
                total += hi - lo
                continue
            for _, ids, bounds in tree.leaves():
                b = np.asarray(bounds)
                d = b.size // 2
                if np.all(b[:d] <= maxs) and np.all(b[d:] >= mins):
                    total += len(ids)
        return total

    # ---- persistence --------------------------------------------------------------------
    def save(self, path: Path) -> None:
        np.savez(path, length=self.length, paths=self.paths, labels=self.labels, deg=self.deg,
                 dom=self.dom, group_labels=self.group_labels, group_ptr=self.group_ptr,
                 leaf_capacity=self.leaf_capacity,
                 node_sig=self.node_sig if self.node_sig is not None else np.zeros((0, 1), np.uint64))

    @classmethod
    def load(cls, path: Path) -> "PathIndex":
        z = np.load(path, allow_pickle=False)
        sig = z["node_sig"] if "node_sig" in z.files and z["node_sig"].shape[0] else None
        return cls(int(z["length"]), z["paths"], z["labels"], z["deg"], z["dom"], z["group_labels"],
                   z["group_ptr"], int(z["leaf_capacity"]), sig)

    @property
    def size(self) -> int:
        return int(self.paths.shape[0])


# A question's few phrases are searched on one thread: OpenMP's start-up and spinning cost more
# than they save (14k labels, 3 queries on a busy 2-core machine: 18 ms on 2 threads, 2.7 ms on 1).
FEW_QUERIES = 64


class LabelIndex:
    """FAISS inner-product index over L2-normalised embeddings of the distinct labels."""

    def __init__(self, vectors: np.ndarray):
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.index = faiss.IndexFlatIP(self.vectors.shape[1])
        if self.vectors.shape[0]:
            self.index.add(self.vectors)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, label ids) of the k nearest labels per query row (cosine similarity)."""
        k = max(1, min(k, self.vectors.shape[0]))
        q = np.ascontiguousarray(queries, dtype=np.float32)
        if q.shape[0] >= FEW_QUERIES:
            return self.index.search(q, k)
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            return self.index.search(q, k)
        finally:
            faiss.omp_set_num_threads(threads)

    def save(self, path: Path) -> None:
        faiss.write_index(self.index, str(path))

    @classmethod
    def load(cls, path: Path, vectors: np.ndarray) -> "LabelIndex":
        obj = cls.__new__(cls)
        obj.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        obj.index = faiss.read_index(str(path))
        return obj
