"""KnowledgeGraph: labelled nodes, directed relation edges, provenance, CSR adjacency.

Stored column-wise (numpy arrays plus interned string tables) so a graph with millions of
edges loads in seconds and adjacency queries are array slices, not Python dict walks.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from .errors import SgragError
from .textnorm import fold

FORMAT_VERSION = 1


def source_doc_id(source: str) -> str:
    """Document id of a provenance entry (chunk id ``<doc>:p<page>:c<i>`` or a bare doc id)."""
    return source.split(":", 1)[0]


@dataclass(eq=False)
class KnowledgeGraph:
    """An immutable directed multigraph with labelled nodes.

    Nodes are dense ints 0..n-1 with a string id, a label (labels may repeat across nodes)
    and a description. Edge e goes src[e] -> dst[e] with relation ``relations[rel[e]]`` and
    description ``texts[desc[e]]`` (-1: none). Provenance maps node/edge index to the
    document ids that support it (empty for imported graphs).
    """

    node_ids: list[str]
    labels: list[str]
    descriptions: list[str]
    src: np.ndarray
    dst: np.ndarray
    rel: np.ndarray
    desc: np.ndarray
    relations: list[str]
    texts: list[str]
    node_sources: dict[int, list[str]] = field(default_factory=dict)
    edge_sources: dict[int, list[str]] = field(default_factory=dict)
    aliases: dict[int, list[str]] = field(default_factory=dict)
    """Other names documents used for a node ("Orlov", "U.S."); the linker matches them too."""

    # ---- sizes -------------------------------------------------------------------------
    @property
    def num_nodes(self) -> int:
        return len(self.node_ids)

    @property
    def num_edges(self) -> int:
        return int(self.src.shape[0])

    # ---- lookups -----------------------------------------------------------------------
    @cached_property
    def index_of(self) -> dict[str, int]:
        """String node id -> dense index."""
        return {nid: i for i, nid in enumerate(self.node_ids)}

    @cached_property
    def label_vocab(self) -> list[str]:
        """Distinct labels, in first-seen order; ``label_id[v]`` indexes it."""
        return list(dict.fromkeys(self.labels))

    @cached_property
    def label_id(self) -> np.ndarray:
        lookup = {lab: i for i, lab in enumerate(self.label_vocab)}
        return np.fromiter((lookup[lab] for lab in self.labels), dtype=np.int32, count=self.num_nodes)

    @cached_property
    def nodes_by_label(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, lab in enumerate(self.labels):
            out.setdefault(lab, []).append(i)
        return out

    @cached_property
    def documents_of(self) -> list[frozenset[str]]:
        """Per node, the ids of the documents whose text names it (its provenance; empty on a graph not read
        from documents)."""
        out = [frozenset()] * self.num_nodes
        for v, sources in self.node_sources.items():
            out[v] = frozenset(source_doc_id(s) for s in sources)
        return out

    @cached_property
    def sentences_of(self) -> list[frozenset[str]]:
        """Per node, the sentences its provenance names it in, each as ``<chunk id>@<start>-<end>`` (empty on a
        graph not read from documents, and for a bare chunk id)."""
        out = [frozenset()] * self.num_nodes
        for v, sources in self.node_sources.items():
            out[v] = frozenset(head for s in sources if "@" in (head := s.split("|", 1)[0]))
        return out

    @cached_property
    def nodes_of_document(self) -> dict[str, list[int]]:
        """Document id -> the nodes its text names (``documents_of`` turned round)."""
        out: dict[str, list[int]] = {}
        for v, docs in enumerate(self.documents_of):
            for d in docs:
                out.setdefault(d, []).append(v)
        return out

    @cached_property
    def nodes_by_folded_label(self) -> dict[str, list[int]]:
        """Case/diacritics/punctuation-folded label -> nodes (for alias-tolerant lookup)."""
        out: dict[str, list[int]] = {}
        for i, lab in enumerate(self.labels):
            out.setdefault(fold(lab), []).append(i)
        return out

    def relation_text(self, e: int) -> str:
        """Readable text of edge e: its description, else its relation name."""
        d = int(self.desc[e])
        return self.texts[d] if d >= 0 else self.relations[int(self.rel[e])]

    def edge_description(self, e: int) -> str:
        d = int(self.desc[e])
        return self.texts[d] if d >= 0 else ""

    # ---- adjacency (undirected CSR over both orientations) -------------------------------
    @cached_property
    def _csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n, m = self.num_nodes, self.num_edges
        ends = np.concatenate([self.src, self.dst]).astype(np.int64)
        other = np.concatenate([self.dst, self.src]).astype(np.int32)
        eids = np.concatenate([np.arange(m, dtype=np.int64), np.arange(m, dtype=np.int64)])
        order = np.lexsort((other, ends))
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.add.at(indptr, ends + 1, 1)
        np.cumsum(indptr, out=indptr)
        return indptr, other[order], eids[order]

    @property
    def indptr(self) -> np.ndarray:
        return self._csr[0]

    def neighbors(self, v: int) -> np.ndarray:
        """Nodes adjacent to v in either direction (may repeat for parallel edges), sorted."""
        indptr, nbr, _ = self._csr
        return nbr[indptr[v]:indptr[v + 1]]

    def incident_edges(self, v: int) -> np.ndarray:
        """Edge ids incident to v (either direction), aligned with ``neighbors(v)``."""
        indptr, _, eid = self._csr
        return eid[indptr[v]:indptr[v + 1]]

    @cached_property
    def neighbor_sets(self) -> list[np.ndarray]:
        """Distinct neighbours per node (sorted arrays); a star's 1-hop node set."""
        indptr, nbr, _ = self._csr
        return [np.unique(nbr[indptr[v]:indptr[v + 1]]) for v in range(self.num_nodes)]

    @cached_property
    def degree(self) -> np.ndarray:
        """Number of distinct neighbours of each node (the star size, monotone under sub-stars)."""
        indptr, nbr, _ = self._csr
        if nbr.size == 0:
            return np.zeros(self.num_nodes, dtype=np.int64)
        ends = np.repeat(np.arange(self.num_nodes), np.diff(indptr))
        first = np.ones(nbr.size, dtype=bool)
        same_row = ends[1:] == ends[:-1]
        first[1:] = ~(same_row & (nbr[1:] == nbr[:-1]))
        return np.bincount(ends[first], minlength=self.num_nodes).astype(np.int64)

    def edges_between(self, u: int, v: int) -> list[int]:
        """Edge ids joining u and v in either direction."""
        nb = self.neighbors(u)
        lo, hi = np.searchsorted(nb, v, "left"), np.searchsorted(nb, v, "right")
        return [int(e) for e in self.incident_edges(u)[lo:hi]]

    @cached_property
    def _pair_keys(self) -> np.ndarray:
        """``end * n + other`` per CSR slot: sorted, so all (u, v) pairs are one binary search away."""
        indptr, nbr, _ = self._csr
        ends = np.repeat(np.arange(self.num_nodes, dtype=np.int64), np.diff(indptr))
        return ends * self.num_nodes + nbr

    def edge_slots(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``edges_between``: CSR slots [lo, hi) of the edges joining u[i] and v[i].

        The slots are u's, in the order ``edges_between(u[i], v[i])`` lists them; ``hi > lo``
        means the pair is adjacent. ``slot_edges`` turns slots into edge ids.
        """
        keys = np.asarray(u, dtype=np.int64) * self.num_nodes + np.asarray(v, dtype=np.int64)
        order = np.argsort(keys)  # sorted needles search several times faster
        pk, sk = self._pair_keys, keys[order]
        lo, hi = np.empty_like(keys), np.empty_like(keys)
        lo[order], hi[order] = np.searchsorted(pk, sk, "left"), np.searchsorted(pk, sk, "right")
        return lo, hi

    def slot_edges(self, slots: np.ndarray) -> np.ndarray:
        return self._csr[2][slots]

    def slot_neighbors(self, slots: np.ndarray) -> np.ndarray:
        return self._csr[1][slots]

    def has_edge_between(self, u: int, v: int) -> bool:
        nb = self.neighbors(u)
        i = np.searchsorted(nb, v)
        return bool(i < nb.size and nb[i] == v)

    def edge_tuple(self, e: int) -> tuple[str, str, str, str]:
        """(src id, dst id, relation, description) of edge e."""
        return (self.node_ids[int(self.src[e])], self.node_ids[int(self.dst[e])],
                self.relations[int(self.rel[e])], self.edge_description(e))

    # ---- persistence -------------------------------------------------------------------
    def save(self, directory: str | os.PathLike) -> None:
        """Write the graph into ``directory`` (arrays.npz + strings.json)."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        np.savez(d / "arrays.npz", src=self.src, dst=self.dst, rel=self.rel, desc=self.desc)
        payload = {
            "format": FORMAT_VERSION,
            "node_ids": self.node_ids, "labels": self.labels, "descriptions": self.descriptions,
            "relations": self.relations, "texts": self.texts,
            "node_sources": {str(k): v for k, v in self.node_sources.items()},
            "edge_sources": {str(k): v for k, v in self.edge_sources.items()},
            "aliases": {str(k): v for k, v in self.aliases.items()},
        }
        with open(d / "strings.json", "w", encoding="utf-8") as fh:
            json.dump(payload, fh, ensure_ascii=False)

    @classmethod
    def load(cls, directory: str | os.PathLike) -> "KnowledgeGraph":
        d = Path(directory)
        try:
            with open(d / "strings.json", encoding="utf-8") as fh:
                s = json.load(fh)
            arr = np.load(d / "arrays.npz", allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise SgragError(f"cannot read graph in {d}: {exc}") from exc
        if s.get("format") != FORMAT_VERSION:
            raise SgragError(f"graph in {d} has format {s.get('format')}, expected {FORMAT_VERSION}")
        return cls(
            node_ids=s["node_ids"], labels=s["labels"], descriptions=s["descriptions"],
            src=arr["src"], dst=arr["dst"], rel=arr["rel"], desc=arr["desc"],
            relations=s["relations"], texts=s["texts"],
            node_sources={int(k): v for k, v in s["node_sources"].items()},
            edge_sources={int(k): v for k, v in s["edge_sources"].items()},
            aliases={int(k): v for k, v in s.get("aliases", {}).items()},
        )

    def without_edges(self, edge_ids) -> "KnowledgeGraph":
        """A copy with the given edges removed (nodes kept); used to simulate incomplete graphs."""
        keep = np.ones(self.num_edges, dtype=bool)
        keep[np.asarray(list(edge_ids), dtype=np.int64)] = False
        new_id = np.cumsum(keep) - 1
        return KnowledgeGraph(
            node_ids=self.node_ids, labels=self.labels, descriptions=self.descriptions,
            src=self.src[keep], dst=self.dst[keep], rel=self.rel[keep], desc=self.desc[keep],
            relations=self.relations, texts=self.texts, node_sources=dict(self.node_sources),
            edge_sources={int(new_id[e]): v for e, v in self.edge_sources.items() if keep[e]},
            aliases=dict(self.aliases))

    def stats(self) -> dict[str, float]:
        deg = self.degree
        return {
            "nodes": self.num_nodes, "edges": self.num_edges,
            "distinct_labels": len(self.label_vocab), "relations": len(self.relations),
            "max_degree": int(deg.max()) if deg.size else 0,
            "mean_degree": float(deg.mean()) if deg.size else 0.0,
        }


class GraphBuilder:
    """Accumulates nodes and edges (merging repeated ids) and freezes a KnowledgeGraph.

    Nodes with the same id are one node: a later non-empty label is ignored, descriptions
    are kept (distinct ones joined), sources are unioned. Edges referring to unknown ids
    create the node with the id as its label.
    """

    def __init__(self) -> None:
        self._index: dict[str, int] = {}
        self.node_ids: list[str] = []
        self.labels: list[str] = []
        self._descs: list[list[str]] = []
        self._node_src: dict[int, list[str]] = {}
        self._src: list[int] = []
        self._dst: list[int] = []
        self._rel: list[int] = []
        self._desc: list[int] = []
        self._rel_index: dict[str, int] = {}
        self._text_index: dict[str, int] = {}
        self._edge_src: dict[int, list[str]] = {}
        self._aliases: dict[int, list[str]] = {}
        self._edge_keys: dict[tuple[int, int, int], int] = {}

    @classmethod
    def from_graph(cls, g: KnowledgeGraph) -> "GraphBuilder":
        b = cls()
        for i in range(g.num_nodes):
            b.add_node(g.node_ids[i], g.labels[i], g.descriptions[i], g.node_sources.get(i, ()),
                       g.aliases.get(i, ()))
        for e in range(g.num_edges):
            s, t, r, d = g.edge_tuple(e)
            b.add_edge(s, t, r, d, g.edge_sources.get(e, ()))
        return b

    def add_node(self, node_id: str, label: str | None = None, description: str = "",
                 sources: tuple[str, ...] | list[str] = (), aliases: tuple[str, ...] | list[str] = ()) -> int:
        node_id = str(node_id)
        i = self._index.get(node_id)
        if i is None:
            i = len(self.node_ids)
            self._index[node_id] = i
            self.node_ids.append(node_id)
            self.labels.append(label if label else node_id)
            self._descs.append([])
        elif label and self.labels[i] == node_id and label != node_id:
            self.labels[i] = label
        if description and description not in self._descs[i]:
            self._descs[i].append(description)
        for s in sources:
            lst = self._node_src.setdefault(i, [])
            if s not in lst:
                lst.append(s)
        for a in aliases:
            lst = self._aliases.setdefault(i, [])
            if a and a != self.labels[i] and a not in lst:
                lst.append(a)
        return i

    def _intern(self, table: dict[str, int], value: str) -> int:
        k = table.get(value)
        if k is None:
            k = table[value] = len(table)
        return k

    def add_edge(self, src_id: str, dst_id: str, relation: str, description: str = "",
                 sources: tuple[str, ...] | list[str] = ()) -> int:
        """Add src -[relation]-> dst; an identical (src, dst, relation) edge is merged."""
        s = self.add_node(src_id, sources=sources)
        t = self.add_node(dst_id, sources=sources)
        r = self._intern(self._rel_index, relation or "related to")
        key = (s, t, r)
        e = self._edge_keys.get(key)
        if e is None:
            e = len(self._src)
            self._edge_keys[key] = e
            self._src.append(s)
            self._dst.append(t)
            self._rel.append(r)
            self._desc.append(self._intern(self._text_index, description) if description else -1)
        elif description and self._desc[e] < 0:
            self._desc[e] = self._intern(self._text_index, description)
        for src in sources:
            lst = self._edge_src.setdefault(e, [])
            if src not in lst:
                lst.append(src)
        return e

    @property
    def num_edges(self) -> int:
        return len(self._src)

    def build(self) -> KnowledgeGraph:
        return KnowledgeGraph(
            node_ids=list(self.node_ids), labels=list(self.labels),
            descriptions=[" | ".join(d) for d in self._descs],
            src=np.asarray(self._src, dtype=np.int32), dst=np.asarray(self._dst, dtype=np.int32),
            rel=np.asarray(self._rel, dtype=np.int32), desc=np.asarray(self._desc, dtype=np.int32),
            relations=list(self._rel_index), texts=list(self._text_index),
            node_sources={k: list(v) for k, v in self._node_src.items()},
            edge_sources={k: list(v) for k, v in self._edge_src.items()},
            aliases={k: list(v) for k, v in self._aliases.items()},
        )


def expand_ranges(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All positions of the ranges [lo[i], hi[i]) concatenated, and the range i of each."""
    lens = np.maximum(np.asarray(hi, dtype=np.int64) - lo, 0)
    owner = np.repeat(np.arange(lens.size), lens)
    starts = np.cumsum(lens) - lens
    return np.asarray(lo, dtype=np.int64)[owner] + (np.arange(owner.size) - starts[owner]), owner


def neighborhood(g: KnowledgeGraph, node_id: str, depth: int = 1, relations: set[str] | None = None,
                 max_nodes: int = 200) -> tuple[list[int], list[int], int]:
    """Nodes and edges within ``depth`` hops of ``node_id`` (optionally only some relations), nearest and
    best-connected first, capped at ``max_nodes`` (for the Explore page).

    Returns (node indices, edge ids, total nodes before the cap).
    """
    start = g.index_of.get(node_id)
    if start is None:
        raise SgragError(f"no node with id {node_id!r}")
    seen = {start: 0}
    frontier = [start]
    for d in range(1, depth + 1):
        nxt = []
        for v in frontier:
            for u, e in zip(g.neighbors(v).tolist(), g.incident_edges(v).tolist()):
                if relations and g.relations[int(g.rel[e])] not in relations:
                    continue
                if u not in seen:
                    seen[u] = d
                    nxt.append(u)
        frontier = nxt
    total = len(seen)
    keep = sorted(seen, key=lambda v: (seen[v], -int(g.degree[v])))[:max_nodes]
    kept = set(keep)
    edges = set()
    for v in keep:
        for u, e in zip(g.neighbors(v).tolist(), g.incident_edges(v).tolist()):
            if u in kept and (not relations or g.relations[int(g.rel[e])] in relations):
                edges.add(int(e))
    return keep, sorted(edges), total
