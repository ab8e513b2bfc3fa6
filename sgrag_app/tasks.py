"""Bodies of the background jobs: each calls the sgrag API with the job's progress/cancel hooks.

They run in ``Job`` threads (see ``jobs.py``), never inside a Streamlit script run, so they do
not touch ``st``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import sgrag
from sgrag_app.jobs import Job

ASSETS = Path(__file__).resolve().parent.parent / "assets"


def safe_filename(name: str) -> str:
    """An uploaded file's name reduced to a safe basename."""
    base = Path(name.replace("\\", "/")).name
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", base).strip("._") or "upload"
    return base[:120]


def save_upload(ws: "sgrag.Workspace", name: str, data: bytes, sub: str = "uploads") -> Path:
    d = ws.path / sub
    d.mkdir(parents=True, exist_ok=True)
    p = d / safe_filename(name)
    p.write_bytes(data)
    return p


DEMO_CONFIG: "sgrag.SgragConfig | None" = None  # None: the default config (tests use a faster one)


def setup_demo(target: Path, job: Job) -> dict:
    """First start: import the shipped demo graph and questions, then build."""
    return sgrag.create_demo(target, ASSETS / "demo", progress=job.progress, config=DEMO_CONFIG)


def make_llm(ws: "sgrag.Workspace", api_key: str | None = None):
    """The workspace's LLM client (None in offline mode)."""
    from sgrag.llm import make_llm as _make
    cfg = ws.config()
    return _make(cfg.llm, ws.cache_dir / "llm", api_key or None)


def run_build(ws_path: str, job: Job, api_key: str | None = None) -> dict:
    ws = sgrag.Workspace(ws_path)
    return sgrag.Engine.build(ws_path, progress=job.progress, should_stop=job.should_stop,
                              llm=make_llm(ws, api_key))


KG_KINDS = {".graphml": "graphml", ".xml": "graphml", ".json": "json", ".jsonl": "json"}


def kg_kind(name: str) -> str:
    n = name.lower().removesuffix(".gz")
    return KG_KINDS.get(Path(n).suffix, "triples")


def run_import(ws_path: str, graph_file: Path, job: Job, entities: Path | None = None,
               relations: Path | None = None) -> dict:
    kind = kg_kind(graph_file.name)
    job.progress(sgrag.Progress("import", 0, 1, f"reading {graph_file.name} as {kind}"))
    kwargs: dict[str, Any] = {kind: graph_file}
    if kind == "triples":
        kwargs.update(entities=entities, relations=relations)
    stats = sgrag.Engine.import_kg(ws_path, **kwargs)
    job.progress(sgrag.Progress("import", 1, 1, f"{stats.get('nodes', 0):,} nodes, {stats.get('edges', 0):,} edges"))
    return stats


def run_ingest(ws_path: str, paths: list[Path], extractor: str, job: Job, api_key: str | None = None) -> Any:
    from sgrag.ingest import ingest
    ws = sgrag.Workspace(ws_path)
    job.extra["paths"] = [str(p.resolve()) for p in paths]
    llm = make_llm(ws, api_key) if extractor == "llm" else None
    if extractor == "llm" and llm is None:
        raise sgrag.SgragError("the LLM extractor needs an endpoint: set one on the Settings page "
                               "or switch extraction to offline")
    return ingest(ws, paths, ws.config(), extractor=extractor, llm=llm, progress=job.progress)


def ingest_file_rows(ws: "sgrag.Workspace", job: Job) -> list[dict]:
    """Per-file status of an ingest job: the final report when done, else the live registry."""
    from sgrag.ingest import list_documents
    paths = job.extra.get("paths", [])
    report = job.result
    if report is not None and getattr(report, "files", None):
        return [{"file": Path(f.path).name, "status": f.status, "reason": f.reason, "title": f.title,
                 "chunks": f.chunks, "entities": f.entities, "relations": f.relations} for f in report.files]
    live = {str(Path(d.path).resolve()): d for d in list_documents(ws)}
    rows = []
    for p in paths:
        d = live.get(p)
        status = d.status if d is not None else "queued"
        if not job.active and status in ("queued", "extracting"):
            status = "failed" if job.status == "failed" else job.status
        rows.append({"file": Path(p).name, "status": status,
                     "reason": (d.error if d is not None else "") or (job.error if status == "failed" else ""),
                     "title": d.title if d is not None else "", "chunks": d.chunks if d is not None else 0,
                     "entities": d.entities if d is not None else 0, "relations": d.relations if d is not None else 0})
    return rows


def run_eval(engine: "sgrag.Engine", csv_path: Path, limit: int | None, job: Job):
    from sgrag.eval import run_eval as _run
    return _run(engine, csv_path, limit=limit, progress=job.progress, keep_traces=True,
                should_stop=job.should_stop)
