"""Ingest: import a knowledge graph or upload documents, follow each file, delete documents."""
import pandas as pd
import streamlit as st

from sgrag_app import state as K
from sgrag_app.jobs import Job
from sgrag_app.render import md, live_job, render_graph_stats, render_job_outcome, render_stages, wait_briefly
from sgrag_app.runtime import api_key, flash, guard, job_registry, page_setup
from sgrag_app.tasks import ingest_file_rows, ingest_job, import_job, save_upload, unreadable_files

import sgrag
from sgrag.io.documents import SUPPORTED as DOC_TYPES

KG_TYPES = ["graphml", "xml", "json", "jsonl", "tsv", "csv", "txt", "gz"]

ctx = page_setup("Ingest")
ws = ctx.require_workspace()
reg = job_registry()

tab_kg, tab_docs = st.tabs(["Knowledge graph", "Documents"], key=K.INGEST_TAB, on_change="rerun")

with tab_kg:
    st.caption("Import an existing knowledge graph: triples (TSV/CSV: head, relation, tail; optional id→name "
               "maps), GraphML or JSON. It replaces this workspace's graph; documents are merged in when ingested.")
    up = st.file_uploader("Graph file", type=KG_TYPES, key=K.KG_UPLOAD)
    with st.expander("Triples only: entity and relation name maps (optional)"):
        ents = st.file_uploader("Entities (id, name)", type=["tsv", "csv", "txt", "gz"], key=K.KG_ENTITIES)
        rels = st.file_uploader("Relations (id, name)", type=["tsv", "csv", "txt", "gz"], key=K.KG_RELATIONS)
    job: Job | None = reg.get("import", ctx.key)
    if st.button("Import graph", type="primary", icon=":material/upload:", disabled=up is None or bool(job and job.active)):
        with guard("importing"):
            gpath = save_upload(ws, up.name, up.getvalue())
            epath = save_upload(ws, ents.name, ents.getvalue()) if ents else None
            rpath = save_upload(ws, rels.name, rels.getvalue()) if rels else None
            job = reg.start("import", ctx.key, import_job(ctx.key, gpath, epath, rpath),
                            exclusive=("build", "ingest", "demo"))
            wait_briefly(job)
            st.rerun()  # redraw the button disabled while the import runs

    def show_import(job: Job) -> None:
        render_stages(job)
        if not job.active and render_job_outcome(job, "The import"):
            render_graph_stats(job.result or {})
            st.info("Next: build the index on the Build page.")

    if job is not None:
        live_job(job, K.INGEST_POLLING + ".kg", show_import)

with tab_docs:
    st.caption("Upload documents; entities and relations are extracted into the graph "
               f"(extractor: **{ws.config().extract.extractor}**, change it on Settings). "
               f"Formats: {', '.join(DOC_TYPES)}.")
    files = st.file_uploader("Documents", type=[t.lstrip(".") for t in DOC_TYPES], accept_multiple_files=True,
                             key=K.DOC_UPLOAD)
    djob: Job | None = reg.get("ingest", ctx.key)
    if st.button("Ingest documents", type="primary", icon=":material/upload_file:",
                 disabled=not files or bool(djob and djob.active)):
        with guard("ingesting"):
            paths = [save_upload(ws, f.name, f.getvalue(), sub="uploads/docs") for f in files]
            extractor = ws.config().extract.extractor
            djob = reg.start("ingest", ctx.key, ingest_job(ctx.key, paths, extractor, api_key()),
                             exclusive=("build", "import", "demo"))
            wait_briefly(djob)
            st.rerun()  # redraw the button disabled while the ingest runs

    def show_ingest(job: Job) -> None:
        rows = ingest_file_rows(ws, job)
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                         column_config={"status": st.column_config.TextColumn("status", width="small")})
        render_stages(job)
        failed = sum(r["status"] == "failed" for r in rows)
        if not job.active and render_job_outcome(job, "Ingestion", failed, len(rows)):
            rep = job.result
            if getattr(rep, "source_version", None):
                st.info(f"Graph updated (+{rep.nodes_added:,} nodes, +{rep.edges_added:,} edges). "
                        "Next: build the index on the Build page.")
            elif rep is not None:
                st.info("Nothing new was added to the graph.")

    if djob is not None:
        live_job(djob, K.INGEST_POLLING + ".docs", show_ingest)

    st.markdown("##### Documents in this workspace")
    with guard("listing documents"):
        docs = sgrag.list_documents(ws)
        unreadable = unreadable_files(ws)
        if not docs and not unreadable:
            st.caption("No documents yet.")
        else:
            rows = [{"title": d.title, "status": d.status, "error": d.error, "kind": d.kind, "chunks": d.chunks,
                     "entities": d.entities, "relations": d.relations,
                     "added": pd.to_datetime(d.added, unit="s"), "id": d.doc_id} for d in docs]
            rows += [{"title": name, "status": "failed", "error": f["reason"], "kind": "", "chunks": 0,
                      "entities": 0, "relations": 0, "added": pd.to_datetime(f["time"], unit="s"), "id": ""}
                     for name, f in unreadable.items()]  # files that never became documents
            df = pd.DataFrame(rows)
            st.dataframe(df, hide_index=True, width="stretch",
                         column_config={"title": st.column_config.TextColumn(pinned=True),
                                        "status": st.column_config.TextColumn(width="small")})
            df = df[df["id"] != ""]
        if docs:
            labels = dict(zip(df["id"], df["title"]))
            c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
            pick = c1.selectbox("Document", list(labels), format_func=lambda x: f"{labels[x]} ({x})")
            if c2.button("Delete document", icon=":material/delete:",
                         disabled=bool(djob and djob.active)):
                rep = sgrag.delete_document(ws, pick)
                flash("success", f"Deleted {md(labels[pick])} ({rep.nodes_removed} nodes, {rep.edges_removed} edges "
                                 "removed). Rebuild the index to drop its facts from answers.")
                st.rerun()
