"""Bodies of the background jobs: each calls the sgrag API with the job's progress/cancel hooks.

Build, ingest, import and the demo setup run in a child process (``TASKS``, started through
``*_job`` as ``ProcessJob``); evaluation runs in a ``Job`` thread beside the loaded engine.
None of them touches ``st``.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import sgrag
from sgrag.fsutil import atomic_write_json, read_json
from sgrag_app.jobs import Job, ProcessJob

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
FAILED_UPLOADS = "uploads/failed.json"  # files an ingest could not read: {file name: reason}


def make_llm(ws: "sgrag.Workspace", api_key: str | None = None):
    """The workspace's LLM client (None in offline mode)."""
    from sgrag.llm import make_llm as _make
    cfg = ws.config()
    return _make(cfg.llm, ws.cache_dir / "llm", api_key or None)


# ---- task bodies: run in a child process by sgrag_app.worker (key from the environment) ------
def task_demo(spec: dict, progress, should_stop) -> dict:
    """First start: import the shipped demo graph and questions, then build."""
    cfg = sgrag.SgragConfig.from_dict(spec["config"]) if spec.get("config") else None
    return sgrag.create_demo(spec["ws"], ASSETS / "demo", progress=progress, config=cfg)


def task_build(spec: dict, progress, should_stop) -> dict:
    ws = sgrag.Workspace(spec["ws"])
    return sgrag.Engine.build(ws.path, progress=progress, should_stop=should_stop, llm=make_llm(ws))


KG_KINDS = {".graphml": "graphml", ".xml": "graphml", ".json": "json", ".jsonl": "json"}


def kg_kind(name: str) -> str:
    n = name.lower().removesuffix(".gz")
    return KG_KINDS.get(Path(n).suffix, "triples")


def task_import(spec: dict, progress, should_stop) -> dict:
    graph_file = Path(spec["graph"])
    kind = kg_kind(graph_file.name)
    progress(sgrag.Progress("import", 0, 1, f"reading {graph_file.name} as {kind}"))
    kwargs: dict[str, Any] = {kind: graph_file}
    if kind == "triples":
        kwargs.update(entities=spec.get("entities"), relations=spec.get("relations"))
    stats = sgrag.Engine.import_kg(spec["ws"], **kwargs)
    progress(sgrag.Progress("import", 1, 1, f"{stats.get('nodes', 0):,} nodes, {stats.get('edges', 0):,} edges"))
    return stats


def task_ingest(spec: dict, progress, should_stop):
    from sgrag.ingest import ingest
    ws = sgrag.Workspace(spec["ws"])
    extractor = spec["extractor"]
    llm = make_llm(ws) if extractor == "llm" else None
    if extractor == "llm" and llm is None:
        raise sgrag.SgragError("the LLM extractor needs an endpoint: set one on the Settings page "
                               "or switch extraction to offline")
    report = ingest(ws, [Path(p) for p in spec["paths"]], ws.config(), extractor=extractor, llm=llm,
                    progress=progress)
    record_unreadable(ws, report)
    return report


TASKS = {"demo": task_demo, "build": task_build, "import": task_import, "ingest": task_ingest}


# ---- jobs as the pages start them --------------------------------------------------------
def _key_env(api_key: str | None) -> dict[str, str]:
    return {"SGRAG_LLM_API_KEY": api_key} if api_key else {}


def demo_job(target: Path) -> ProcessJob:
    spec = {"ws": str(target), "config": DEMO_CONFIG.to_dict() if DEMO_CONFIG else None}
    return ProcessJob("demo", str(target), "demo", spec, label="demo setup")


def build_job(ws_path: str, api_key: str | None = None) -> ProcessJob:
    return ProcessJob("build", ws_path, "build", {"ws": ws_path}, label="build", secret_env=_key_env(api_key))


def import_job(ws_path: str, graph_file: Path, entities: Path | None = None,
               relations: Path | None = None) -> ProcessJob:
    spec = {"ws": ws_path, "graph": str(graph_file), "entities": str(entities) if entities else None,
            "relations": str(relations) if relations else None}
    return ProcessJob("import", ws_path, "import", spec, label="graph import")


def ingest_job(ws_path: str, paths: list[Path], extractor: str, api_key: str | None = None) -> ProcessJob:
    resolved = [str(p.resolve()) for p in paths]
    job = ProcessJob("ingest", ws_path, "ingest", {"ws": ws_path, "paths": resolved, "extractor": extractor},
                     label="document ingestion", secret_env=_key_env(api_key), decode=decode_ingest)
    job.extra["paths"] = resolved
    return job


def decode_ingest(data: dict):
    from sgrag.ingest import FileReport, IngestReport
    return IngestReport(**{**data, "files": tuple(FileReport(**f) for f in data["files"])})


# ---- per-file ingest status ----------------------------------------------------------------
def record_unreadable(ws: "sgrag.Workspace", report) -> None:
    """Keep files the ingest could not even read (they never reach the document registry)."""
    path = ws.path / FAILED_UPLOADS
    failed = read_json(path, {}) or {}
    for f in report.files:
        name = Path(f.path).name
        if f.status == "failed" and f.doc_id is None:
            failed[name] = {"reason": f.reason, "time": time.time()}
        else:
            failed.pop(name, None)
    atomic_write_json(path, failed)


def unreadable_files(ws: "sgrag.Workspace") -> dict[str, dict]:
    return read_json(ws.path / FAILED_UPLOADS, {}) or {}


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


def run_eval(engine: "sgrag.Engine", csv_path: Path, limit: int | None, job: Job, oracle: Path | None = None):
    from sgrag.eval import run_eval as _run
    return _run(engine, csv_path, limit=limit, progress=job.progress, keep_traces=True,
                should_stop=job.should_stop, oracle_path=oracle)
