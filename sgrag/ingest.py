"""Documents (and graph files) -> the workspace's source graph: incremental, resumable, per-file status.

Layout under ``workspace.docs_dir``::

    registry.json              doc id -> title, original path, status, counts (atomic writes)
    files/<doc_id>/<name>      a copy of the original file (survives the original moving)
    extractions/<doc_id>.json  the document's chunk extractions (what the merge reads)

An ingest extracts document by document, saving the extraction and marking the document
"extracted" in the registry after each one, and merges everything "extracted" into the
source graph at the end (one new graph version). If it is interrupted, the next ingest
skips what is done, re-uses the extracted documents and the per-chunk extraction cache,
and merges. Merging is idempotent, so a crash between saving the graph and updating the
registry is harmless. Index building is the pipeline's job, not this module's.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from .config import SgragConfig
from .embed import EmbeddingCache, make_embedder
from .errors import InputFormatError, LLMError, ParseError, SgragError
from .fsutil import atomic_write_json, contained, read_json, safe_remove
from .graph import GraphBuilder, KnowledgeGraph
from .io import kg as kg_io
from .io.documents import Document, chunk_document, load_documents, read_tables
from .lexicon import detect_preset
from .types import Progress, ProgressFn, no_progress
from .workspace import Workspace

if TYPE_CHECKING:
    from .extract import Extractor
    from .llm import ChatClient

# sgrag.extract (and through it the OpenAI client library) is imported where it is used:
# `import sgrag` loads this module eagerly and must stay fast for the CLI.

REGISTRY_FORMAT = 1


@dataclass(frozen=True)
class FileReport:
    """What happened to one input file."""
    path: str
    doc_id: str | None
    status: str
    """queued | extracting | extracted | done | skipped | failed"""
    reason: str = ""
    title: str = ""
    chunks: int = 0
    cached_chunks: int = 0
    """Chunks whose extraction came from the cache (no extraction work)."""
    entities: int = 0
    relations: int = 0


@dataclass(frozen=True)
class IngestReport:
    files: tuple[FileReport, ...]
    nodes_added: int
    edges_added: int
    source_version: str | None
    """The new source graph version, or None when nothing was merged."""
    extractor: str

    @property
    def failed(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.status == "failed")

    @property
    def extracted_chunks(self) -> int:
        """Chunks that needed extraction work in this run (0 on a no-op re-ingest)."""
        return sum(f.chunks - f.cached_chunks for f in self.files if f.status == "done")


@dataclass(frozen=True)
class DocumentInfo:
    """One registered document."""
    doc_id: str
    title: str
    path: str
    """Where it was ingested from."""
    stored: str
    """The copy inside the workspace."""
    kind: str
    status: str
    chunks: int
    entities: int
    relations: int
    error: str
    added: float


@dataclass(frozen=True)
class DeleteReport:
    doc_id: str
    title: str
    nodes_removed: int
    edges_removed: int
    source_version: str | None


class _Registry:
    """The registry file; every ``save`` is atomic, so a crash leaves the last saved state."""

    def __init__(self, ws: Workspace):
        self.path = ws.docs_dir / "registry.json"
        data = read_json(self.path) or {}
        if data and data.get("format") != REGISTRY_FORMAT:
            raise SgragError(f"{self.path}: unsupported document registry format {data.get('format')}")
        self.docs: dict[str, dict] = data.get("documents", {})

    def save(self) -> None:
        atomic_write_json(self.path, {"format": REGISTRY_FORMAT, "documents": self.docs})

    def update(self, doc_id: str, **fields) -> None:
        self.docs.setdefault(doc_id, {}).update(fields)
        self.save()

    def info(self, doc_id: str) -> DocumentInfo:
        d = self.docs[doc_id]
        return DocumentInfo(doc_id, d.get("title", ""), d.get("path", ""), d.get("stored", ""),
                            d.get("kind", ""), d.get("status", ""), int(d.get("chunks", 0)),
                            int(d.get("entities", 0)), int(d.get("relations", 0)),
                            d.get("error", ""), float(d.get("added", 0.0)))


def _extraction_file(ws: Workspace, doc_id: str) -> Path:
    """Where a document's extractions live; an id that would leave the folder is refused."""
    base = ws.docs_dir / "extractions"
    return contained(base, base / f"{doc_id}.json")


def _files_dir(ws: Workspace, doc_id: str) -> Path:
    base = ws.docs_dir / "files"
    return contained(base, base / doc_id)


def _store_copy(ws: Workspace, doc: Document) -> Path:
    dest = ws.docs_dir / "files" / doc.doc_id / Path(doc.path).name
    if not dest.exists():
        fresh = not dest.parent.exists()
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(".copy.tmp")  # a name of the longest length the file system allows has no longer twin
        try:
            shutil.copyfile(doc.path, tmp)
            os.replace(tmp, dest)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            if fresh:
                shutil.rmtree(dest.parent, ignore_errors=True)
            raise InputFormatError(doc.path, None, f"cannot store a copy: {exc.strerror or exc}") from exc
    return dest


def import_kg(path: str | os.PathLike, *, triples=None, entities=None, relations=None,
              graphml=None, json=None, config: SgragConfig | None = None, progress: ProgressFn = no_progress) -> dict:
    """Import a knowledge graph file as the workspace's source graph (atomically); its stats.

    The file is read and validated completely (within the configured input limits) before
    anything is written, so a bad file leaves the workspace (or its absence) as it was;
    the write runs under the workspace's writer lock.
    """
    given = [x for x in (triples, graphml, json) if x]
    if len(given) != 1:
        raise SgragError("give exactly one of triples, graphml or json")
    existing = Workspace(path)
    limits = (config or (existing.config() if existing.exists else SgragConfig())).limits
    if triples:
        g = kg_io.read_triples(triples, entities, relations, limits, progress)
    elif graphml:
        g = kg_io.read_graphml(graphml, limits, progress)
    else:
        g = kg_io.read_json(json, limits, progress)
    progress(Progress("import", 0, 0, f"saving the graph: {g.num_nodes:,} nodes, {g.num_edges:,} edges"))
    ws = Workspace.create(path, config) if not existing.exists else existing
    with ws.writer("import-kg"):
        ws.save_source_graph(g)
        cfg = ws.config()
        if cfg.query.lexicon == "auto":  # recorded, so the user sees it and can override it
            cfg.query.lexicon = detect_preset(g.relations)
            ws.save_config(cfg)
    progress(Progress("import", 1, 1, f"graph saved: {g.num_nodes:,} nodes, {g.num_edges:,} edges"))
    return g.stats()


def _make_extractor(kind: str, llm: ChatClient | None, cfg: SgragConfig,
                    graph: KnowledgeGraph | None) -> Extractor:
    from .dependency import ParseExtractor
    from .extract import LLMExtractor
    from .offline import OfflineExtractor
    known = graph.label_vocab if graph is not None else ()
    if kind == "rules":
        return OfflineExtractor(known)
    offline = ParseExtractor(known)
    if kind == "offline":
        return offline
    if kind == "llm":
        if llm is None:
            raise SgragError("the LLM extractor needs an LLM endpoint (set llm.base_url), "
                             "or use extractor='offline'")
        return LLMExtractor(llm, gleanings=cfg.extract.gleanings, fallback=offline)
    raise SgragError(f"unknown extractor {kind!r} (offline, rules, llm)")


def ingest(workspace: Workspace, paths: Iterable[str | os.PathLike], cfg: SgragConfig | None = None,
           extractor: str = "offline", llm: ChatClient | None = None,
           progress: ProgressFn = no_progress, embedder=None) -> IngestReport:
    """Extract the documents at ``paths`` (files or folders) into the workspace's source graph.

    Already ingested content (same bytes) is skipped; a document whose extraction fails is
    reported as failed and the rest continue. ``embedder`` (anything with ``embed(texts)``
    returning normalised rows) is only used when ``cfg.extract.merge_threshold > 0``; by
    default the configured label embedder is used then. Every file is read and validated
    (within ``cfg.limits``) before anything is written, and nothing is written (not even a
    new workspace) when no document loads; writing runs under the workspace's writer lock.
    """
    cfg = cfg or (workspace.config() if workspace.exists else SgragConfig())
    loaded = load_documents(paths, cfg.limits, progress)  # read and validate everything before writing
    reports: dict[str, FileReport] = {e.path: FileReport(e.path, None, "failed", e.reason)
                                      for e in loaded.errors}
    if not loaded.documents and not (workspace.exists and _pending(_Registry(workspace))):
        progress(Progress("ingest", 0, 0, f"nothing to ingest, {len(loaded.errors)} unreadable"))
        return IngestReport(tuple(reports.values()), 0, 0, None, extractor)
    if not workspace.exists:
        Workspace.create(workspace.path)
    with workspace.writer("ingest"):
        return _ingest_locked(workspace, loaded, reports, cfg, extractor, llm, progress, embedder)


def _pending(reg: _Registry) -> list[str]:
    """Documents extracted by an ingest that stopped before merging them."""
    return [doc_id for doc_id, d in reg.docs.items() if d.get("status") == "extracted"]


def _ingest_locked(workspace: Workspace, loaded, reports: dict[str, FileReport], cfg: SgragConfig,
                   extractor: str, llm: ChatClient | None, progress: ProgressFn, embedder) -> IngestReport:
    from .extract import (ExtractionCache, extract_chunks, extraction_from_json, extraction_to_json,
                          merge_into_graph)
    from .offline import table_extractions
    reg = _Registry(workspace)
    base = workspace.source_graph()
    ext = _make_extractor(extractor, llm, cfg, base)
    cache = ExtractionCache(workspace.cache_dir / "extractions")
    workers = max(1, cfg.llm.concurrency) if extractor == "llm" else 1
    total = len(loaded.documents)
    for d in loaded.documents:
        reports[d.path] = FileReport(d.path, d.doc_id, "queued", title=d.title)
    progress(Progress("ingest", 0, total, f"{total} document(s) queued, {len(loaded.errors)} unreadable"))

    for k, doc in enumerate(loaded.documents):
        status = reg.docs.get(doc.doc_id, {}).get("status")
        if status in ("done", "extracted"):
            reason = "already ingested" if status == "done" else "extracted by an interrupted ingest"
            reports[doc.path] = FileReport(doc.path, doc.doc_id, "skipped" if status == "done" else "extracted",
                                           reason, doc.title)
            progress(Progress("ingest", k + 1, total, f"{doc.title}: {reason}"))
            continue
        stored = _store_copy(workspace, doc)
        reg.update(doc.doc_id, title=doc.title, path=str(Path(doc.path).resolve()), stored=str(stored),
                   kind=doc.kind, status="extracting", error="", added=time.time())
        chunks = chunk_document(doc, cfg.extract.chunk_chars, cfg.extract.chunk_overlap)
        cached = finished = 0

        def on_chunk(i: int, _found, was_cached: bool, doc=doc, n=len(chunks)) -> None:
            nonlocal cached, finished
            cached += was_cached
            finished += 1  # its own stage, so the bar moves inside a long document
            progress(Progress("chunks", finished, n, f"{doc.title}: chunk {finished}/{n}"
                              + (" (cached)" if was_cached else "")))

        try:
            found, note = _extract_or_fall_back(ext, doc, chunks, cache, workers, on_chunk)
            found += table_extractions(doc.doc_id, read_tables(stored), ext.name)
        except (LLMError, ParseError, InputFormatError, ExtractorFault) as exc:
            reg.update(doc.doc_id, status="failed", error=str(exc))
            reports[doc.path] = FileReport(doc.path, doc.doc_id, "failed", str(exc), doc.title, len(chunks))
            progress(Progress("ingest", k + 1, total, f"{doc.title}: failed: {exc}"))
            continue
        atomic_write_json(_extraction_file(workspace, doc.doc_id), [extraction_to_json(f) for f in found])
        n_ent = len({e.label for f in found for e in f.entities})
        n_rel = len({(r.source, r.relation, r.target) for f in found for r in f.relations})
        reg.update(doc.doc_id, status="extracted", chunks=len(chunks), entities=n_ent, relations=n_rel, error=note)
        reports[doc.path] = FileReport(doc.path, doc.doc_id, "extracted", note, doc.title, len(chunks),
                                       cached, n_ent, n_rel)
        progress(Progress("ingest", k + 1, total, f"{doc.title}: {n_ent} entities, {n_rel} relations"))

    pending = _pending(reg)
    version, nodes_added, edges_added = None, 0, 0
    if pending:
        progress(Progress("merge", 0, 1, f"merging {len(pending)} document(s) into the graph"))
        extractions = [extraction_from_json(item) for doc_id in pending
                       for item in read_json(_extraction_file(workspace, doc_id), [])]
        if cfg.extract.merge_threshold > 0 and embedder is None:
            embedder = EmbeddingCache(workspace.cache_dir / "embeddings", make_embedder(cfg.embed, llm))
        merged = merge_into_graph(base, extractions, embedder=embedder,
                                  threshold=cfg.extract.merge_threshold)
        version = workspace.save_source_graph(merged.graph)
        nodes_added, edges_added = merged.nodes_added, merged.edges_added
        for doc_id in pending:
            reg.docs[doc_id]["status"] = "done"
        reg.save()
        for path, rep in reports.items():
            if rep.status == "extracted":
                reports[path] = dataclasses.replace(rep, status="done")
        progress(Progress("merge", 1, 1, f"graph {version}: +{nodes_added} nodes, +{edges_added} edges"))
    return IngestReport(tuple(reports.values()), nodes_added, edges_added, version, ext.name)


class ExtractorFault(SgragError):
    """The extractor failed on one document in a way no input check foresaw (a fault of the parse on that text)."""


def _extract_or_fall_back(ext, doc: Document, chunks, cache, workers: int, on_chunk) -> tuple[list, str]:
    """The extractor's findings and "" — or, where the parse extractor fails on this one text, its rule reader's and
    a note saying so: one document's fault never stops the others, nor loses this one."""
    from .extract import extract_chunks
    try:
        if hasattr(ext, "extract_document"):  # the whole document at once: coreference across chunks
            return _extract_document(ext, doc, chunks, cache, on_chunk), ""
        return extract_chunks(chunks, ext, cache, workers, on_chunk), ""
    except SgragError:
        raise
    except Exception as exc:
        fault = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        fallback = getattr(ext, "rules", None)
        if fallback is None:
            raise ExtractorFault(f"the extractor failed on this document ({fault})") from exc
        note = f"the parse extractor failed on this document ({fault}); read with the rule-based extractor instead"
        return extract_chunks(chunks, fallback, cache, workers, on_chunk), note


def _extract_document(ext, doc: Document, chunks, cache, on_chunk) -> list:
    """A document-level extractor's chunk results, from the cache when every chunk of this very
    document (its content id is in the key) was extracted before."""
    key = f"{ext.name}@{doc.doc_id}"
    hits = [cache.get(c, key) for c in chunks]
    if hits and all(h is not None for h in hits):
        for i, h in enumerate(hits):
            on_chunk(i, h, True)
        return hits
    found = ext.extract_document(doc, chunks)
    by_id = {f.chunk_id: f for f in found}
    for i, c in enumerate(chunks):
        if c.chunk_id in by_id:
            cache.put(c, key, by_id[c.chunk_id])
            on_chunk(i, by_id[c.chunk_id], False)
    return found


def list_documents(workspace: Workspace) -> list[DocumentInfo]:
    """Registered documents, oldest first."""
    reg = _Registry(workspace)
    return sorted((reg.info(d) for d in reg.docs), key=lambda i: (i.added, i.title))


def _resolve(reg: _Registry, doc_id: str) -> str:
    if doc_id in reg.docs:
        return doc_id
    matches = [d for d in reg.docs if d.startswith(doc_id)] if len(doc_id) >= 4 else []
    if len(matches) != 1:
        raise SgragError(f"no document {doc_id!r} in this workspace" if not matches
                         else f"document id {doc_id!r} is ambiguous: {', '.join(matches)}")
    return matches[0]


def remove_document_provenance(graph: KnowledgeGraph, doc_id: str,
                               descriptions: frozenset[str] = frozenset()) -> tuple[KnowledgeGraph, int, int]:
    """``graph`` without ``doc_id``'s support: elements only it supported disappear;
    imported elements (no provenance, or marked IMPORTED) always stay. ``descriptions``
    (what the document said about entities) are removed from the nodes that stay."""
    from .extract import IMPORTED, source_doc_id

    def remaining(srcs: list[str]) -> tuple[list[str], bool]:
        left = [s for s in srcs if source_doc_id(s) != doc_id]
        return ([] if left == [IMPORTED] else left), bool(srcs) and not left

    b = GraphBuilder()
    removed_nodes: set[str] = set()
    for i, nid in enumerate(graph.node_ids):
        left, gone = remaining(graph.node_sources.get(i, []))
        if gone:
            removed_nodes.add(nid)
        else:
            parts = [p for p in graph.descriptions[i].split(" | ") if p and p not in descriptions]
            b.add_node(nid, graph.labels[i], " | ".join(parts), left, graph.aliases.get(i, ()))
    removed_edges = 0
    for e in range(graph.num_edges):
        s, t, rel, desc = graph.edge_tuple(e)
        left, gone = remaining(graph.edge_sources.get(e, []))
        if gone or s in removed_nodes or t in removed_nodes:
            removed_edges += 1
        else:
            b.add_edge(s, t, rel, desc, left)
    return b.build(), len(removed_nodes), removed_edges


def delete_document(workspace: Workspace, doc_id: str) -> DeleteReport:
    """Forget a document: its provenance, the nodes/edges only it supported, its files.

    ``doc_id`` may be a unique prefix (at least 4 characters). Runs under the workspace's
    writer lock; the document's files are removed only inside the workspace.
    """
    with workspace.writer("delete-doc"):
        return _delete_locked(workspace, doc_id)


def _delete_locked(workspace: Workspace, doc_id: str) -> DeleteReport:
    from .extract import extraction_from_json
    reg = _Registry(workspace)
    doc_id = _resolve(reg, doc_id)
    files, extraction = _files_dir(workspace, doc_id), _extraction_file(workspace, doc_id)
    title = reg.docs[doc_id].get("title", "")
    graph = workspace.source_graph()
    version, n_removed, e_removed = None, 0, 0
    if graph is not None and reg.docs[doc_id].get("status") == "done":
        said = frozenset(e.description for item in read_json(extraction, [])
                         for e in extraction_from_json(item).entities if e.description)
        pruned, n_removed, e_removed = remove_document_provenance(graph, doc_id, said)
        version = workspace.save_source_graph(pruned)
    del reg.docs[doc_id]
    reg.save()
    safe_remove(extraction.parent, extraction)
    safe_remove(files.parent, files)
    return DeleteReport(doc_id, title, n_removed, e_removed, version)
