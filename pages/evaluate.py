"""Evaluate: run an ERQA-style CSV (query, answer), watch it live, read Hit@1/P/R/F1, drill down."""
import streamlit as st

from sgrag_app import state as K
from sgrag_app.jobs import Job
from sgrag_app.render import (eval_rows_frame, live_job, render_eval_downloads, render_eval_summary,
                              render_job_outcome, render_stages, render_trace, wait_briefly)
from sgrag_app.runtime import DEMO_QUESTIONS, guard, is_demo_workspace, job_registry, page_setup
from sgrag_app.tasks import run_eval, save_upload

ctx = page_setup("Evaluate")
ws = ctx.require_workspace()
engine = ctx.engine_or_stop()
reg = job_registry()

SAMPLE, UPLOAD = "Demo sample questions", "Upload a CSV"
sources = ([SAMPLE] if is_demo_workspace(engine) else []) + [UPLOAD]  # the demo's questions fit only its graph
c1, c2 = st.columns([3, 1])
source = c1.radio("Questions", sources, horizontal=True, key=K.EVAL_SOURCE)
limit = c2.number_input("Questions (0 = all)", 0, 100_000, 25, step=25, key=K.EVAL_LIMIT)
upload = None
if source == UPLOAD:
    upload = st.file_uploader("ERQA-style CSV with columns query, answer", type=["csv"], key=K.EVAL_UPLOAD)
oracle = st.file_uploader("Oracle CSV (optional): the constraints each question names and every entity meeting them "
                          "(columns query, answer, named_constraints, exact_set_size, others_in_exact_set)",
                          type=["csv"], key=K.EVAL_ORACLE)
job: Job | None = reg.get("eval", ctx.key)

b1, b2, _ = st.columns([1, 1, 4])
if b1.button("Run evaluation", type="primary", icon=":material/play_arrow:",
             disabled=bool(job and job.active) or (source == UPLOAD and upload is None)):
    with guard("starting the evaluation"):
        path = DEMO_QUESTIONS if source == SAMPLE else save_upload(ws, upload.name, upload.getvalue(), sub="uploads/eval")
        n = int(limit) or None
        oracle_path = save_upload(ws, oracle.name, oracle.getvalue(), sub="uploads/eval") if oracle else None
        job = reg.start("eval", ctx.key, lambda j: run_eval(engine, path, n, j, oracle_path), label="evaluation")
        job.extra["identity"] = ctx.identity
        wait_briefly(job, 0.5)
        st.rerun()  # redraw the buttons: Run disabled, Cancel enabled
if b2.button("Cancel", icon=":material/stop:", disabled=not (job and job.active)):
    job.cancel()


def live(job: Job) -> None:
    render_stages(job)
    if not job.active:
        render_job_outcome(job, "The evaluation")


if job is None:
    st.caption("Each question is answered by the current index and compared with its gold answer.")
    st.stop()
live_job(job, K.EVAL_POLLING, live)
report = job.result
if job.active or report is None or not getattr(report, "rows", None):
    st.stop()

with guard("showing the report"):
    summary = report.summary
    st.markdown(f"##### Results over {len(report.rows)} questions")
    render_eval_summary(summary)
    if summary.get("failures"):
        st.caption("Outcomes: " + ", ".join(f"{k}: {v}" for k, v in summary["failures"].items()))
    current = job.extra.get("identity") == ctx.identity
    if not current:
        st.info("This evaluation ran on an earlier index of this workspace; run it again for the current one.")
    df = eval_rows_frame(report.rows)
    only_wrong = st.toggle("Only wrong answers", key=K.EVAL_FILTER)
    view = df[~df["hit"]] if only_wrong else df
    st.dataframe(view, hide_index=True, width="stretch", height=300)
    render_eval_downloads(report, ws.path.name)
    if report.traces and not view.empty and current:  # a trace is drawn against the index it came from
        st.markdown("##### Drill down")
        pick = st.selectbox("Question", list(view["#"]), key=K.EVAL_ROW,
                            format_func=lambda i: f"{i}. {'✓' if df.loc[i - 1, 'hit'] else '✗'} {df.loc[i - 1, 'query']}")
        trace = report.traces[int(pick) - 1]
        st.caption(f"Gold answer: {df.loc[int(pick) - 1, 'gold']}")
        render_trace(trace, engine, key="eval", allow_override=False)
