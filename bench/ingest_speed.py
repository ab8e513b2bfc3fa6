"""Offline document extraction speed: the spaCy extractor beside the rule-based one, same documents, same run.

Loads the documents once, then extracts every document with each extractor (chunked as ingest
chunks them) and prints documents/s, words/s and the process's peak resident memory after each
(the rules run first, so the second peak includes both). The spaCy model load is timed apart.
Targets (issue #23): >= 1,000 words/s on 2 cores, peak < 1.5 GB.

    .venv/bin/python bench/ingest_speed.py [--docs ../shared/data/redocred/docs] [--limit 150]
"""
from __future__ import annotations

import argparse
import resource
import time

from common import ROOT

from sgrag.config import SgragConfig
from sgrag.io.documents import chunk_document, load_documents

DEFAULT_DOCS = ROOT.parent / "shared" / "data" / "redocred" / "docs"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", default=str(DEFAULT_DOCS if DEFAULT_DOCS.exists() else ROOT / "assets" / "corpus"))
    ap.add_argument("--limit", type=int, default=150)
    args = ap.parse_args(argv)
    cfg = SgragConfig()
    docs = [d for d in load_documents([args.docs], cfg.limits).documents if d.kind != "csv"][: args.limit]
    chunks = {d.doc_id: chunk_document(d, cfg.extract.chunk_chars, cfg.extract.chunk_overlap) for d in docs}
    words = sum(len(d.text.split()) for d in docs)
    print(f"{len(docs)} documents, {words:,} words from {args.docs}; peak {peak_mb():.0f} MB before extracting")

    from sgrag.offline import OfflineExtractor
    t = time.perf_counter()
    rules = OfflineExtractor()
    n_rules = sum(len(f.relations) for d in docs for c in chunks[d.doc_id] for f in [rules.extract(c)])
    base = time.perf_counter() - t
    print(f"rules (sgrag/offline.py): {len(docs) / base:,.1f} docs/s, {words / base:,.0f} words/s, "
          f"{n_rules:,} relations, peak {peak_mb():.0f} MB")

    from sgrag.dependency import ParseExtractor
    from sgrag.nlp import english
    t = time.perf_counter()
    english()
    load = time.perf_counter() - t
    parse = ParseExtractor()
    t = time.perf_counter()
    n_parse = sum(len(f.relations) for d in docs for f in parse.extract_document(d, chunks[d.doc_id]))
    took = time.perf_counter() - t
    print(f"spaCy (sgrag/dependency.py): {len(docs) / took:,.1f} docs/s, {words / took:,.0f} words/s, "
          f"{n_parse:,} relations, peak {peak_mb():.0f} MB (model load {load:.1f} s, not counted)")
    print(f"ratio spaCy/rules time: {took / base:.2f}x; target >= 1,000 words/s: "
          f"{'met' if words / took >= 1000 else 'NOT met'}; peak < 1,536 MB: {'met' if peak_mb() < 1536 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
