"""Build: start/cancel an index build, watch each stage live, see the graph statistics when done."""
import streamlit as st

import sgrag
from sgrag.fsutil import read_json
from sgrag_app import state as K
from sgrag_app.jobs import Job
from sgrag_app.render import (build_stage_seconds, render_build_report, render_graph_stats, live_job,
                              render_job_outcome, render_schema_profile, render_stages, wait_briefly)
from sgrag_app.runtime import api_key, guard, job_registry, page_setup
from sgrag_app.tasks import build_job

ctx = page_setup("Build")
ws = ctx.require_workspace()
reg = job_registry()


@st.cache_resource(show_spinner="Reading the graph…", max_entries=4)
def source_stats(path: str, version: str) -> dict:
    g = sgrag.Workspace(path).source_graph()
    return g.stats() if g is not None else {}


with guard("reading the workspace"):
    cfg = ws.config()
    if ws.source_version:
        st.markdown("##### Source graph")
        render_graph_stats(source_stats(str(ws.path), ws.source_version))
    else:
        st.info("This workspace has no graph yet: import a knowledge graph or documents on the Ingest page.")
    st.caption(f"Settings: embeddings **{cfg.embed.backend}** · path length **{cfg.index.path_length}** · "
               f"GNN dim {cfg.gnn.dim}, hidden {cfg.gnn.hidden}, {cfg.gnn.epochs} epochs (change them on Settings)")

job: Job | None = reg.get("build", ctx.key) or reg.get("demo", ctx.key)
busy = [j for j in reg.active_for(ctx.key) if j.kind in ("ingest", "import")]
if busy:
    st.info(f"A {busy[0].label} is running in this workspace; the build can start when it ends.")
c1, c2, _ = st.columns([1, 1, 4])
if c1.button("Start build", type="primary", icon=":material/play_arrow:",
             disabled=bool(job and job.active) or bool(busy) or not ws.source_version):
    with guard("starting the build"):
        job = reg.start("build", ctx.key, build_job(ctx.key, api_key()), exclusive=("ingest", "import", "demo"))
        wait_briefly(job)
        st.rerun()  # redraw the buttons: Start disabled, Cancel enabled
if c2.button("Cancel", icon=":material/stop:", disabled=not (job and job.active)):
    job.cancel()
    st.toast("Cancelling: the build stops at the next checkpoint.")


last_build = read_json(ws.index_dir() / "meta.json", {}) if ws.index_version else {}


def live(job: Job) -> None:
    st.markdown(f"##### {'Building…' if job.active else 'Last build'}"
                + (" (cancel requested)" if job.cancel_requested and job.active else ""))
    render_stages(job, build_stage_seconds(last_build) if job.kind == "build" else None)
    if job.active:
        st.caption("The build runs on the server: you can leave this page or refresh it; it keeps going.")
    elif render_job_outcome(job, "The build" if job.kind == "build" else "The demo setup"):
        render_build_report(job.result, elapsed=job.elapsed)


if job is not None:
    live_job(job, K.BUILD_POLLING, live)
elif ws.index_version:
    with guard("reading the last build"):
        st.markdown(f"##### Current index: {ws.index_version}")
        render_build_report(last_build)
    with guard("reading what the build learned"):  # the schema profile (issue #24): a self-contained block
        render_schema_profile(sgrag.SchemaProfile.of_index(ws.index_dir()), last_build.get("lexicon"))
