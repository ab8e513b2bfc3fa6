"""Where a piece of evidence was read: the document's title and the passage in the document's text.

Edges extracted from documents carry provenance naming a chunk and the sentence's span in it
(``<doc>:p<page>:c<i>@<start>-<end>``, see ``sgrag.extract.edge_source``). A reader checking an
answer wants the document by its title and the sentence in the whole document, not a chunk id:
``cite`` gives the first, ``locate`` the second (from the workspace's stored copy of the file).
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from .errors import SgragError
from .extract import parse_edge_source, sentence_span, source_doc_id
from .io.documents import Document, chunk_document, load_document
from .workspace import Workspace


@dataclass(frozen=True)
class Citation:
    """A provenance entry as a reader sees it: which document (by title), and the sentence."""
    doc_id: str
    title: str
    """The document's title from the registry (its id when the registry has none)."""
    source: str
    """The provenance entry itself (what ``locate`` opens)."""


@dataclass(frozen=True)
class Passage:
    """A document's page and where in it the cited sentence is (``start < 0``: not found in the text)."""
    doc_id: str
    title: str
    page: int
    text: str
    start: int
    end: int


def document_titles(ws: Workspace) -> dict[str, str]:
    """doc id -> title of the workspace's documents (empty for a graph without documents)."""
    from .ingest import list_documents  # (ingest imports this package's heavier parts lazily too)
    try:
        return {d.doc_id: d.title or d.doc_id for d in list_documents(ws)}
    except (OSError, ValueError, SgragError):
        return {}


READINGS = {
    "contained": "inferred: what is in a place is in every place that holds it",
    "document-place": "a guess: the place most of the document's places lie in",
    "document": "only named in the same article",
    "sentence": "only named in the same sentence",
}
"""How an edge was read, in words a reader checking it needs, where the sentence alone does not say the fact (the
extractor's ``how`` of the provenance entry, without its coreference suffix)."""


def how_read(source: str) -> str:
    """What a reader should know of how an edge's fact was read ("" where the sentence states it)."""
    ev = parse_edge_source(source) if source else None
    return READINGS.get(ev.how.split("+")[0], "") if ev is not None and ev.how else ""


def cite(source: str, titles: dict[str, str]) -> Citation | None:
    """The citation of a provenance entry, or None when it names no document of the workspace."""
    doc_id = source_doc_id(source) if source else ""
    if not doc_id or doc_id not in titles:
        return None
    return Citation(doc_id, titles[doc_id], source)


def locate(ws: Workspace, source: str, sentence: str = "") -> Passage | None:
    """The page of the cited document and the sentence's place in it; None when the stored copy is gone."""
    found = _find(ws, source, sentence)
    if found is None:
        return None
    info, doc, page_no, at, length = found
    return Passage(info.doc_id, info.title or info.doc_id, page_no, doc.pages[page_no], at, at + length if at >= 0 else -1)


@dataclass(frozen=True)
class EvidencePassage:
    """Where an extracted edge was read, as a reader would check it (``evidence_passage``)."""
    doc_id: str
    title: str
    """The document's title as ingested (not a chunk id)."""
    path: str
    """The workspace's copy of the document (opens at ``start`` for the passage)."""
    sentence: str
    start: int
    """Character span of the sentence in the document's text (``Document.text``: pages joined by a blank line)."""
    end: int
    fact_start: int
    """Span of the words that state the fact, inside the sentence span (-1 when not recorded)."""
    fact_end: int
    how: str
    """How the extractor read it ("svo", "passive+pronoun", ...; "" when it does not say)."""
    confidence: float
    page: int


def evidence_passage(ws: Workspace, source: str) -> EvidencePassage | None:
    """The document passage behind one provenance entry of an edge (``graph.edge_sources[e]``): title,
    sentence and its character span in the document. None for an imported edge, an entry without a
    sentence span, or a document no longer in the workspace."""
    ev = parse_edge_source(source)
    found = _find(ws, source) if ev is not None else None
    if found is None or found[3] < 0:
        return None
    info, doc, page_no, at, length = found
    base = sum(len(page) + 2 for page in doc.pages[:page_no])  # Document.text joins pages by a blank line
    start, end = base + at, base + at + length
    shift = start - ev.start  # the fact span is recorded in the sentence's chunk, like the sentence
    fs, fe = (shift + ev.fact_start, shift + ev.fact_end) if ev.fact_start >= 0 else (-1, -1)
    return EvidencePassage(info.doc_id, info.title or info.doc_id, str(info.stored), doc.text[start:end], start, end,
                           fs, fe, ev.how, ev.confidence, page_no)


def _find(ws: Workspace, source: str, sentence: str = ""):
    """(document info, document, page, start in the page or -1, length) of a provenance entry's sentence.

    The span recorded in the provenance is relative to a chunk; the chunk is found again by
    re-chunking the document with the workspace's settings. When that does not give back the
    sentence (settings changed since the ingest), the sentence is looked up in the page.
    """
    from .ingest import list_documents
    doc_id = source_doc_id(source)
    info = next((d for d in list_documents(ws) if d.doc_id == doc_id), None)
    if info is None or not info.stored or not Path(info.stored).is_file():
        return None
    cfg = ws.config()
    doc = _load(info.stored, os.stat(info.stored).st_mtime_ns, cfg)
    chunk_id, start, end = sentence_span(source) or (source, -1, -1)
    page_no = _page_of(chunk_id, len(doc.pages))
    text = doc.pages[page_no]
    at = -1
    if start >= 0:
        chunk = next((c for c in chunk_document(doc, cfg.extract.chunk_chars, cfg.extract.chunk_overlap)
                      if c.chunk_id == chunk_id), None)
        if chunk is not None:
            lead = len(text[chunk.start:chunk.end]) - len(text[chunk.start:chunk.end].lstrip())
            at = chunk.start + lead + start
            if sentence and text[at:at + (end - start)] != sentence:
                at = -1
    if at < 0 and sentence:
        at = text.find(sentence)
    length = (len(sentence) if sentence else max(0, end - start)) if at >= 0 else 0
    return info, doc, page_no, at, length


def _page_of(chunk_id: str, pages: int) -> int:
    part = next((p for p in chunk_id.split(":")[1:] if p.startswith("p") and p[1:].isdigit()), "p0")
    return min(int(part[1:]), max(0, pages - 1))


_LOADED: "OrderedDict[tuple[str, int], Document]" = OrderedDict()
_LOADED_MAX = 8
_loaded_lock = threading.Lock()


def _load(path: str, mtime_ns: int, cfg) -> Document:
    """The stored document, loaded once per version of the file (a reader opens one passage after another)."""
    key = (path, mtime_ns)
    with _loaded_lock:
        if key in _LOADED:
            _LOADED.move_to_end(key)
            return _LOADED[key]
    doc = load_document(path, cfg.limits)
    with _loaded_lock:
        _LOADED[key] = doc
        while len(_LOADED) > _LOADED_MAX:
            _LOADED.popitem(last=False)
    return doc
