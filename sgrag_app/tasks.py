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


def setup_demo(target: Path, job: Job) -> dict:
    return sgrag.create_demo(target, ASSETS / "demo", progress=job.progress)


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
    from sgrag import ingest as ingest_mod  # lands separately; the page guards its absence
    ws = sgrag.Workspace(ws_path)
    files = job.extra.setdefault("files", {})
    for p in paths:
        files[p.name] = ("queued", "")

    def progress(p: "sgrag.Progress") -> None:
        job.progress(p)
        for name in list(files):
            if p.message and name in p.message:
                low = p.message.lower()
                state = ("failed" if "fail" in low or "error" in low else
                         "done" if "done" in low or "finished" in low else "extracting")
                files[name] = (state, p.message if state == "failed" else "")

    llm = make_llm(ws, api_key) if extractor == "llm" else None
    report = ingest_mod.ingest(ws, paths, ws.config(), extractor=extractor, llm=llm, progress=progress)
    for name, status, reason in file_statuses(report):
        files[name] = (status, reason)
    return report


def file_statuses(report: Any) -> list[tuple[str, str, str]]:
    """(file name, status, reason) from an IngestReport, whatever its exact shape."""
    out = []
    items = getattr(report, "files", None) or getattr(report, "results", None) or []
    for it in items:
        get = (lambda k, it=it: it.get(k)) if isinstance(it, dict) else (lambda k, it=it: getattr(it, k, None))
        path = get("path") or get("name") or get("file") or ""
        status = str(get("status") or ("failed" if get("error") else "done"))
        reason = str(get("error") or get("reason") or get("message") or "")
        out.append((Path(str(path)).name, status, reason))
    return out


def run_eval(engine: "sgrag.Engine", csv_path: Path, limit: int | None, job: Job):
    from sgrag.eval import run_eval as _run
    return _run(engine, csv_path, limit=limit, progress=job.progress, keep_traces=True,
                should_stop=job.should_stop)
