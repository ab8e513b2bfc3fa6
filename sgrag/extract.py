"""ε: chunks of text -> entities and relations -> merged into a KnowledgeGraph with provenance.

Two extractors share one output type (``ChunkExtraction``):

* ``LLMExtractor`` sends the paper's text-to-graph prompt, continues a cut-off answer
  (gleaning) and parses the records; unparseable output falls back to another extractor.
* ``sgrag.offline.OfflineExtractor`` is rule-based and needs no model (coreference, types,
  canonical relations, records and tables; see that module).

Entities merge across chunks by folded label (``merge_into_graph``); every node and edge
records the chunk ids (``<doc_id>:p<page>:c<i>``) that support it, and an edge read from a
sentence also its character span in the chunk (``<chunk id>@<start>-<end>``, see
``edge_source``), so an answer can show the sentence behind each evidence edge.
"""
from __future__ import annotations

import dataclasses
import hashlib
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Protocol, Sequence

import numpy as np

from .errors import ParseError
from .fsutil import atomic_write_json, read_json
from .graph import GraphBuilder, KnowledgeGraph, source_doc_id
from .io.documents import Chunk
from .parse import is_complete, parse_graph_records
from .prompts import PromptSet, continuation_messages, default_prompts, extraction_messages
from .textnorm import fold

if TYPE_CHECKING:  # the openai client loads only when an LLM is used
    from .llm import ChatClient

DOC_NODE_PREFIX = "doc:"
"""Node id prefix of entities first seen in documents (``doc:`` + folded label)."""
IMPORTED = "imported"
"""Provenance marker added to an imported node/edge when a document first supports it, so
deleting that document can never remove the imported element."""
_DESC_CHARS = 300


@dataclass(frozen=True)
class ExtractedEntity:
    label: str
    description: str = ""
    aliases: tuple[str, ...] = ()
    """Other surface forms the document used for it ("Orlov", "U.S."); the linker matches them."""


@dataclass(frozen=True)
class ExtractedRelation:
    source: str
    """Label of the source entity."""
    target: str
    relation: str
    description: str = ""
    start: int = -1
    """Character span of the source sentence in the chunk text (-1: not recorded)."""
    end: int = -1
    how: str = ""
    """How it was read ("svo", "passive", "copula", ... "+pronoun" when an end was resolved by
    coreference; "" for extractors that do not say)."""
    confidence: float = 1.0
    """How sure the extractor is of this edge (0-1)."""
    fact_start: int = -1
    """Character span of the words stating the fact, inside the sentence span (-1: not recorded)."""
    fact_end: int = -1


@dataclass(frozen=True)
class ChunkExtraction:
    """What one extractor found in one chunk (labels, not ids: merging assigns ids)."""
    chunk_id: str
    doc_id: str
    entities: tuple[ExtractedEntity, ...]
    relations: tuple[ExtractedRelation, ...]
    extractor: str
    dropped: tuple[tuple[str, str], ...] = ()
    """LLM records that were not usable (line, reason)."""
    complete: bool = True


class Extractor(Protocol):
    name: str
    """Identifies the extractor and its settings; part of the extraction cache key."""

    def extract(self, chunk: Chunk) -> ChunkExtraction: ...


def edge_source(chunk_id: str, rel: ExtractedRelation) -> str:
    """An edge's provenance entry: the chunk id, plus ``@start-end`` when the extractor
    recorded the character span of the sentence in the chunk text, plus
    ``|how|confidence|fact_start-fact_end`` when it said how it read the fact."""
    if rel.start < 0:
        return chunk_id
    out = f"{chunk_id}@{rel.start}-{rel.end}"
    if rel.how:
        out += f"|{rel.how}|{rel.confidence:.3g}|{rel.fact_start}-{rel.fact_end}"
    return out


@dataclass(frozen=True)
class EdgeEvidence:
    """One provenance entry of an edge, parsed (see ``edge_source``)."""
    chunk_id: str
    doc_id: str
    start: int
    """Sentence span in the chunk text."""
    end: int
    how: str = ""
    confidence: float = 1.0
    fact_start: int = -1
    """Span of the words stating the fact in the chunk text (-1: not recorded)."""
    fact_end: int = -1


def parse_edge_source(source: str) -> EdgeEvidence | None:
    """The evidence an ``edge_source`` entry records, or None for a bare chunk id / imported edge."""
    head, *extra = source.split("|")
    chunk_id, at, span = head.rpartition("@")
    start, _, end = span.partition("-")
    if not at or not start.isdigit() or not end.isdigit():
        return None
    how, conf, fs, fe = "", 1.0, -1, -1
    if len(extra) == 3:
        how = extra[0]
        try:
            conf = max(0.0, min(1.0, float(extra[1])))
        except ValueError:
            conf = 1.0
        a, _, b = extra[2].partition("-")
        fs, fe = (int(a), int(b)) if a.isdigit() and b.isdigit() else (-1, -1)
    return EdgeEvidence(chunk_id, source_doc_id(chunk_id), int(start), int(end), how, conf, fs, fe)


def sentence_span(source: str) -> tuple[str, int, int] | None:
    """(chunk id, start, end) of a provenance entry made by ``edge_source``, else None."""
    ev = parse_edge_source(source)
    return (ev.chunk_id, ev.start, ev.end) if ev is not None else None


def edge_confidence(sources: Iterable[str]) -> float:
    """How sure the graph is of an edge: the best of its extracted readings (1.0 for an edge that
    was imported or read by an extractor that does not say)."""
    best = None
    for src in sources:
        ev = parse_edge_source(src)
        conf = ev.confidence if ev is not None and ev.how else 1.0
        best = conf if best is None else max(best, conf)
    return 1.0 if best is None else best


# ---- LLM extractor --------------------------------------------------------------------------
class LLMExtractor:
    """The paper's text-to-graph prompt with gleaning; unparseable output uses ``fallback``."""

    def __init__(self, llm: ChatClient, prompts: PromptSet | None = None, gleanings: int = 1,
                 fallback: Extractor | None = None):
        self.llm = llm
        self.prompts = prompts or default_prompts()
        self.gleanings = max(0, gleanings)
        self.fallback = fallback
        self.name = f"llm:{llm.model}:{self.prompts.fingerprint}:g{self.gleanings}"

    def extract(self, chunk: Chunk) -> ChunkExtraction:
        text = self.llm.complete(extraction_messages(self.prompts, chunk.text), purpose="extract")
        for _ in range(self.gleanings):
            if is_complete(text):
                break
            more = self.llm.complete(continuation_messages(self.prompts, chunk.text, text),
                                     purpose="extract-gleaning")
            text = f"{text}\n{more}"
        try:
            parsed = parse_graph_records(text)
        except ParseError as exc:
            if self.fallback is None:
                raise
            found = self.fallback.extract(chunk)
            return dataclasses.replace(found, extractor=f"{self.name}->{found.extractor}",
                                       dropped=((exc.line, str(exc)),))
        label = {n.id: n.label for n in parsed.nodes}
        return ChunkExtraction(
            chunk.chunk_id, chunk.doc_id,
            tuple(ExtractedEntity(n.label, n.description) for n in parsed.nodes),
            tuple(ExtractedRelation(label[e.src], label[e.dst], e.relation, e.description)
                  for e in parsed.edges),
            self.name, parsed.dropped, parsed.complete)


# ---- extraction cache and driver -----------------------------------------------------------
class ExtractionCache:
    """Chunk extractions on disk keyed by (chunk text hash, extractor name)."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def _path(self, chunk: Chunk, extractor: str) -> Path:
        key = hashlib.sha256(f"{extractor}\x00{chunk.hash}".encode()).hexdigest()
        return self.directory / key[:2] / f"{key}.json"

    def get(self, chunk: Chunk, extractor: str) -> ChunkExtraction | None:
        try:
            data = read_json(self._path(chunk, extractor))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        try:
            return extraction_from_json(data, chunk_id=chunk.chunk_id, doc_id=chunk.doc_id)
        except (KeyError, TypeError, ValueError):
            return None  # damaged entry: extract again

    def put(self, chunk: Chunk, extractor: str, found: ChunkExtraction) -> None:
        atomic_write_json(self._path(chunk, extractor), extraction_to_json(found))


def extraction_to_json(found: ChunkExtraction) -> dict:
    return dataclasses.asdict(found)


def extraction_from_json(data: dict, **override: str) -> ChunkExtraction:
    data = {**data, **override}
    return ChunkExtraction(
        data["chunk_id"], data["doc_id"],
        tuple(ExtractedEntity(e["label"], e.get("description", ""), tuple(e.get("aliases", ())))
              for e in data["entities"]),
        tuple(ExtractedRelation(**r) for r in data["relations"]),
        data["extractor"], tuple(tuple(d) for d in data.get("dropped", ())),
        bool(data.get("complete", True)))


def extract_chunks(chunks: Sequence[Chunk], extractor: Extractor, cache: ExtractionCache | None = None,
                   workers: int = 1,
                   on_done: Callable[[int, ChunkExtraction, bool], None] | None = None) -> list[ChunkExtraction]:
    """Extract every chunk (cached ones reused), in order; ``on_done(i, result, cached)``
    runs in the calling thread after each chunk and may raise to stop early."""
    results: list[ChunkExtraction | None] = [None] * len(chunks)
    todo: list[int] = []
    for i, chunk in enumerate(chunks):
        hit = cache.get(chunk, extractor.name) if cache else None
        if hit is None:
            todo.append(i)
        else:
            results[i] = hit
            if on_done:
                on_done(i, hit, True)

    def run(i: int) -> ChunkExtraction:
        found = extractor.extract(chunks[i])
        if cache:
            cache.put(chunks[i], extractor.name, found)
        return found

    if workers <= 1:
        for i in todo:
            results[i] = run(i)
            if on_done:
                on_done(i, results[i], False)
    else:
        pool = ThreadPoolExecutor(max_workers=workers)
        try:
            futures = {pool.submit(run, i): i for i in todo}
            for fut in as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                if on_done:
                    on_done(i, results[i], False)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return [r for r in results if r is not None]


# ---- merging into the graph ----------------------------------------------------------------
@dataclass(frozen=True)
class MergeResult:
    graph: KnowledgeGraph
    nodes_added: int
    edges_added: int
    node_of_label: dict[str, str]
    """Folded entity label -> graph node id it was merged into."""


def _embedding_aliases(new: dict[str, str], existing: dict[str, str], embedder,
                       threshold: float, max_existing: int = 200_000) -> dict[str, str]:
    """Folded new label -> folded label (existing or earlier new) with cosine >= threshold."""
    keys_old = list(existing) if len(existing) <= max_existing else []
    keys_new = list(new)
    if not keys_new:
        return {}
    vec_new = np.asarray(embedder.embed([new[k] for k in keys_new]), dtype=np.float32)
    vec_old = (np.asarray(embedder.embed([existing[k] for k in keys_old]), dtype=np.float32)
               if keys_old else np.zeros((0, vec_new.shape[1]), np.float32))
    alias: dict[str, str] = {}
    canon_rows: list[int] = []
    for r, key in enumerate(keys_new):
        best_key, best = None, threshold
        if len(keys_old):
            sims = vec_old @ vec_new[r]
            j = int(np.argmax(sims))
            if sims[j] >= best:
                best_key, best = keys_old[j], float(sims[j])
        for c in canon_rows:
            s = float(vec_new[c] @ vec_new[r])
            if s >= best:
                best_key, best = keys_new[c], s
        if best_key is None:
            canon_rows.append(r)
        else:
            alias[key] = best_key
    return alias


def merge_into_graph(base: KnowledgeGraph | None, extractions: Iterable[ChunkExtraction], *,
                     embedder=None, threshold: float = 0.0) -> MergeResult:
    """Add extracted entities/relations to ``base`` (which is not modified).

    An entity joins the node whose folded label equals its own (an imported node if one
    exists, so documents extend an imported KG), else node ``doc:<folded label>``. Merging
    is idempotent: re-merging the same extraction changes nothing.
    """
    extractions = list(extractions)
    b = GraphBuilder.from_graph(base) if base is not None else GraphBuilder()
    existing: dict[str, str] = {}
    if base is not None:
        degree = base.degree
        for key, nodes in base.nodes_by_folded_label.items():
            existing[key] = base.node_ids[max(nodes, key=lambda v: degree[v])]
    labels: dict[str, str] = {}
    for ex in extractions:
        for ent in ex.entities:
            labels.setdefault(fold(ent.label), ent.label)
        for rel in ex.relations:
            labels.setdefault(fold(rel.source), rel.source)
            labels.setdefault(fold(rel.target), rel.target)
    labels.pop("", None)
    alias: dict[str, str] = {}
    if embedder is not None and threshold > 0:
        new = {k: v for k, v in labels.items() if k not in existing}
        old = {fold(base.labels[base.index_of[nid]]): base.labels[base.index_of[nid]]
               for nid in existing.values()} if base is not None else {}
        alias = _embedding_aliases(new, old, embedder, threshold)
    node_of: dict[str, str] = {}
    for key in labels:
        canon = alias.get(key, key)
        node_of[key] = existing.get(canon, DOC_NODE_PREFIX + canon)

    def label_of(key: str) -> str:  # a merged alias takes its canonical entity's label
        return labels.get(alias.get(key, key), labels[key])

    for ex in extractions:
        src = (ex.chunk_id,)
        for ent in ex.entities:
            key = fold(ent.label)
            if key:
                b.add_node(node_of[key], label_of(key), ent.description, src, ent.aliases)
        for rel in ex.relations:
            s, t = fold(rel.source), fold(rel.target)
            if s and t and node_of[s] != node_of[t]:
                b.add_node(node_of[s], label_of(s), sources=src)
                b.add_node(node_of[t], label_of(t), sources=src)
                b.add_edge(node_of[s], node_of[t], rel.relation, rel.description, (edge_source(ex.chunk_id, rel),))
    graph = b.build()
    if base is not None:
        _mark_imported(base, graph)
    n0, m0 = (base.num_nodes, base.num_edges) if base is not None else (0, 0)
    return MergeResult(graph, graph.num_nodes - n0, graph.num_edges - m0, node_of)


def _mark_imported(base: KnowledgeGraph, graph: KnowledgeGraph) -> None:
    """Put IMPORTED first in the provenance of imported elements a document now supports."""
    bare_nodes = {nid for i, nid in enumerate(base.node_ids) if not base.node_sources.get(i)}
    for i, nid in enumerate(graph.node_ids):
        srcs = graph.node_sources.get(i)
        if srcs and nid in bare_nodes and IMPORTED not in srcs:
            srcs.insert(0, IMPORTED)
    bare_edges = {base.edge_tuple(e)[:3] for e in range(base.num_edges) if not base.edge_sources.get(e)}
    for e in range(graph.num_edges):
        srcs = graph.edge_sources.get(e)
        if srcs and graph.edge_tuple(e)[:3] in bare_edges and IMPORTED not in srcs:
            srcs.insert(0, IMPORTED)

