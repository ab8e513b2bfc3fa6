"""render_* helpers: turn sgrag values (QueryTrace, build progress, eval reports) into widgets.

Labels are user data: they go to the page through dataframes (rendered as text), through
``md()`` (escaped for Markdown and HTML) or through ``sgrag.viz`` (escaped for vis-network).
"""
from __future__ import annotations

import html
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

import altair as alt
import pandas as pd
import streamlit as st

from sgrag import errors as sgrag_errors
from sgrag import viz
from sgrag.passages import Citation, Passage, cite, document_titles, how_read, locate
from sgrag.types import UNK, Answer, Condition, Match, QueryTrace, RankedAnswer, conditions_met, joined_to_every
from sgrag_app import state as K
from sgrag_app.jobs import CANCELLED, DONE, FAILED, Job, JobRegistry, OutsideWriter, build_percent

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-!|~$:>])")


def md(text: Any) -> str:
    """Escape ``text`` for st.markdown: HTML-escaped and Markdown/Streamlit-directive-safe."""
    s = html.escape(str(text), quote=False)
    s = s.replace("&lt;", "\x00lt").replace("&gt;", "\x00gt").replace("&amp;", "\x00amp")
    s = _MD_SPECIAL.sub(r"\\\1", s)
    return s.replace("\x00lt", "&lt;").replace("\x00gt", "&gt;").replace("\x00amp", "&amp;").replace("\n", "  \n")


_SERVER_PATH = re.compile(r"(?<![\w.~:/])/(?:[^\s/:'\"<>]+/)+([^\s/:'\"<>]+)")


def public_message(text: str) -> str:
    """An error message without server paths: each absolute path becomes its file name (what the user uploaded
    or chose), so a message never shows where the server keeps workspaces."""
    return _SERVER_PATH.sub(r"\1", str(text))


def fmt_secs(s: float | None) -> str:
    if s is None:
        return "—"
    s = max(0.0, float(s))
    if s < 60:
        return f"{s:.0f} s" if s >= 10 else f"{s:.1f} s"
    m, sec = divmod(int(s), 60)
    return f"{m} min {sec:02d} s" if m < 60 else f"{m // 60} h {m % 60:02d} min"


GRAPH_SANDBOX = "allow-scripts"  # vis-network needs scripts only: no same-origin, forms, popups or top navigation


def sandboxed_page(page_html: str, height: int) -> str:
    """A wrapper page holding ``page_html`` in an inner iframe sandboxed without allow-same-origin.

    Streamlit's own iframe allows scripts *and* same origin; the graph page (user labels) goes one
    level further in, into an opaque origin that cannot reach the app or its storage.
    """
    return (f'<!doctype html><html><body style="margin:0"><iframe sandbox="{GRAPH_SANDBOX}" '
            f'style="border:0;width:100%;height:{int(height)}px" srcdoc="{html.escape(page_html, quote=True)}">'
            f'</iframe></body></html>')


def render_graph(page_html: str, height: int) -> None:
    """Embed a self-contained sgrag.viz page (its labels are escaped by sgrag.viz), sandboxed."""
    st.iframe(sandboxed_page(page_html, height + 10), height=height + 20)


# ---- jobs -------------------------------------------------------------------------------------
STAGE_TITLES = {"start": "Starting", "import": "Import", "extract": "Extraction", "extraction": "Extraction",
                "embeddings": "Label embeddings", "gnn": "GNN training", "paths": "Path enumeration",
                "rtree": "R*-tree", "faiss": "FAISS label index", "snapshot": "Graph snapshot",
                "save": "Saving", "eval": "Questions", "ingest": "Documents", "chunks": "Chunks of the document",
                "merge": "Merging into the graph", "evidence": "Relation phrases", "load": "Loading the index",
                "read": "Reading the files"}
BAR_STEP = 30  # pixels per bar of a horizontal bar chart: labels never overlap, one bar is still a bar
LIVE_POLL_S = 3.0  # how often a page re-reads a running job's progress (each read is a fragment rerun + redraw)


def render_running_jobs(reg: JobRegistry, engines) -> None:
    """Every running job of every workspace (and indexes being loaded), with its workspace's name."""
    running = reg.active() + engines.loading()
    if running:
        st.markdown("**Running**")
    for job in running:
        st.caption(f":material/autorenew: {md(job.label)} · {md(Path(job.key).name)} (since "
                   f"{time.strftime('%H:%M:%S', time.localtime(job.created))})")  # the sidebar is not redrawn live


def stage_rows(job: Job) -> list[dict]:
    """Title, bar fraction and text of each stage of ``job`` (what the live panel shows)."""
    rows = []
    now = time.time()
    for name, s in job.snapshot().items():
        title = STAGE_TITLES.get(name, name.replace("_", " ").capitalize())
        done = bool(s.total) and s.done >= s.total
        counts = f" {s.done:,} / {s.total:,}" if s.total else ""
        eta = s.eta() if job.active and not done else None
        running = job.active and not done and not s.total  # no counts: say how long it has been at it
        rows.append({"title": title, "fraction": s.fraction if s.total else (1.0 if done else 0.0),
                     "text": f"**{md(title)}**{counts}" + (f" · {fmt_secs(now - s.started)}" if running else "")
                             + (f" · {time_left(eta)}" if eta is not None else "")
                             + (f" · {md(s.message)}" if s.message else ""),
                     "stage": name, "history": s.history})
    return rows


def time_left(eta: float) -> str:
    """"about 12 s left"; under a second is "finishing" (never "about 0.0 s left")."""
    return f"about {fmt_secs(eta)} left" if eta >= 1.0 else "finishing"


def overall_left(job: Job, expected: dict[str, float] | None) -> float | None:
    """Seconds the whole job has left: the running stage's own estimate, plus what each stage not yet started
    took last time (``expected``: stage -> seconds, in order). None without a last time to go by."""
    if not expected or not job.active:
        return None
    snap = job.snapshot()
    left = 0.0
    for name, secs in expected.items():
        s = snap.get(name)
        if s is None:
            left += secs
        elif not (s.total and s.done >= s.total):
            eta = s.eta()
            left += eta if eta is not None else max(secs - (time.time() - s.started), 0.0)
    return left


def render_stages(job: Job, expected: dict[str, float] | None = None) -> None:
    """One progress bar per stage with counts and time left, the whole job's time left when ``expected``
    (a previous run's seconds per stage; empty: there was none) says how long the stages still to come take;
    metric curves once the job has ended."""
    rows = stage_rows(job)
    if job.active:
        left = overall_left(job, expected)
        st.caption(f"Running for {fmt_secs(job.elapsed)}"
                   + (f" · overall {time_left(left)} (stages still to come timed by the last run)"
                      if left is not None else
                      " · overall time left: estimated from the last run, and this is the first"
                      if expected == {} else ""))
    for r in rows:
        st.progress(r["fraction"], text=r["text"])
        if not job.active and r["history"]:
            render_metric_curves(r["stage"], r["history"])


def render_engine_loading(job: Job) -> None:
    """The index is loading in the background (as the caller just read): its progress, refreshed until the
    page can run."""
    def body(job: Job) -> None:
        with st.container(border=True):
            st.markdown(f"**Loading the index of '{md(Path(job.key).name)}'** in the background: "
                        "the page opens as soon as it is loaded.")
            render_stages(job)
    live_job(job, K.LOAD_POLLING, body, poll_s=0.5, running=True)


def render_building(ws, job: Job) -> None:
    """A workspace without an index yet whose build is running (as the caller just read): how far, refreshed
    until it is done."""
    def body(job: Job) -> None:
        with st.container(border=True):
            outside = isinstance(job, OutsideWriter)
            who = f"`{re.sub(r'[^A-Za-z0-9 ._-]', '', job.label)}`, pid {job.pid}" if outside else ""
            if outside and not job.snapshot():  # a CLI writer that reports no build stage (yet)
                since = time.strftime("%H:%M", time.localtime(job.created))
                st.markdown(f"**A build is running (started by {who}, since {since}) — questions answer when done.**")
            else:
                by = f" (by {who})" if outside else ""
                st.markdown(f"**'{md(ws.path.name)}' is building{by}, {build_percent(job)}% — "
                            "questions answer when done.**")
            render_stages(job)
    live_job(job, K.BUILD_WAIT_POLLING, body, running=True)


STEP_TITLES = {"gnn": "epoch", "eval": "questions answered"}


def curve_metrics(df: pd.DataFrame) -> list[str]:
    """The metrics of a stage's history reported at two steps or more (one point makes no curve)."""
    return [c for c in df.columns if c != "step" and "step" in df and df[["step", c]].dropna()["step"].nunique() >= 2]


def render_metric_curves(stage: str, history: list[dict[str, float]]) -> None:
    """A curve per metric a stage reported at two steps or more (one point is no curve: nothing drawn)."""
    df = pd.DataFrame(history)
    metrics = curve_metrics(df)
    if not metrics:
        return
    cols = st.columns(len(metrics))
    for col, m in zip(cols, metrics):
        chart = (alt.Chart(df[["step", m]].dropna()).mark_line(point=len(df) < 60)
                 .encode(x=alt.X("step:Q", title=STEP_TITLES.get(stage, "step"), axis=alt.Axis(tickMinStep=1, format="d")),
                         y=alt.Y(f"{m}:Q", title=m.replace("_", " ")), tooltip=["step", m])
                 .properties(height=180, title=m.replace("_", " ")))
        col.altair_chart(chart, width="stretch")


def render_job_outcome(job: Job, what: str, failed_items: int = 0, items: int = 0) -> bool:
    """Status line for a finished job; returns True when it succeeded.

    A job that ran to the end but failed some of its ``items`` (e.g. files) is not shown as a
    plain success: a warning when some failed, an error when all did.
    """
    if job.status == DONE and failed_items and failed_items >= items:
        st.error(f"{what} failed: none of the {items} file(s) could be used (reasons in the table).",
                 icon=":material/error:")
        return False
    if job.status == DONE and failed_items:
        st.warning(f"{what} finished in {fmt_secs(job.elapsed)}, but {failed_items} of {items} file(s) "
                   "failed (reasons in the table).", icon=":material/warning:")
        return True
    if job.status == DONE:
        st.success(f"{what} finished in {fmt_secs(job.elapsed)}.", icon=":material/check_circle:")
        return True
    if job.status == CANCELLED:
        st.warning(f"{what} was cancelled; the previous version stays in use.", icon=":material/cancel:")
    elif job.status == FAILED:
        st.error(f"{what} failed: {md(public_message(job.error))}", icon=":material/error:")
        if job.error_detail:
            with st.expander("Technical details"):
                st.code(job.error_detail, language=None)
    return False


def render_demo_setup(job: Job) -> None:
    """Live banner while the demo workspace is set up on first start (the caller saw it running; the page
    reloads when done)."""
    def body(job: Job) -> None:
        with st.container(border=True):
            st.markdown("**Setting up the demo workspace** (a Freebase knowledge graph with sample questions). "
                        "This happens once, in the background; the pages work as soon as it is built.")
            render_stages(job)
            if job.status == FAILED:
                st.error(f"Demo setup failed: {job.error}")
    live_job(job, K.DEMO_POLLING, body, running=True)


def plain_stage(name: str) -> str:
    """A timing key without the method's Greek stage letters ("ψ3 decomposition" -> "Decomposition")."""
    if name == STARTUP:
        return "Start-up and reading the graph"
    if name in PLAIN_STAGES or name in STAGE_TITLES:
        return PLAIN_STAGES.get(name) or STAGE_TITLES[name]
    if m := re.fullmatch(r"paths_l(\d+)", name):
        return f"Path index (length {m.group(1)})"
    plain = re.sub(r"^[\u0370-\u03ff][\u0370-\u03ff0-9+\-\s]*", "", name).strip() or name
    return plain[:1].upper() + plain[1:]


PLAIN_STAGES = {"ψ1-2 query graph + normalization": "Reading the question and linking entities",
                "ψ3 decomposition": "Splitting it into index paths", "ψ4 label completion": "Candidate labels",
                "σ+δ retrieval + assembly": "Retrieving and joining matches",
                "δ partial match fallback": "Partial matches", "γ answer": "Ranking and answering"}


def timing_frame(timings: dict, unit: str) -> tuple[pd.DataFrame, float]:
    """Stage times without the "total" entry (it is the sum, not a stage) and the total itself."""
    items = {k: float(v) for k, v in timings.items() if k != "total"}
    total = float(timings.get("total", sum(items.values())))
    return pd.DataFrame({"stage": [plain_stage(k) for k in items], "technical name": list(items),
                         unit: list(items.values())}), total


def build_stage_seconds(report: dict | None) -> dict[str, float]:
    """A build report's seconds per live stage, in build order (``paths_l1``, ``paths_l2`` -> ``paths``): how
    long the next build's stages may take."""
    out: dict[str, float] = {}
    for k, v in ((report or {}).get("timings_s") or {}).items():
        name = "paths" if re.fullmatch(r"paths_l\d+", k) else k
        if name in STAGE_TITLES:
            out[name] = out.get(name, 0.0) + float(v)
    return out


STARTUP = "start-up, reading and snapshotting the graph"  # a build's time outside its timed stages


def build_timings(report: dict, elapsed: float | None = None) -> dict[str, float]:
    """Seconds per build stage; with the job's wall time ``elapsed``, the time outside the timed stages as a first
    STARTUP entry, so the stages add up to the "finished in" figure."""
    secs = {k: float(v) for k, v in (report.get("timings_s") or report.get("seconds") or {}).items() if k != "total"}
    rest = (elapsed or 0.0) - sum(secs.values())
    return {STARTUP: rest, **secs} if elapsed is not None and rest >= 0.5 else secs


def render_build_report(report: dict | None, elapsed: float | None = None) -> None:
    """Graph statistics, time per stage, GNN training curve and index sizes of a build.

    ``elapsed``: the whole job's wall time; the time outside the timed stages is shown as its own bar, so the
    chart's total is the "finished in" figure."""
    if not report:
        return
    stats = report.get("stats") or {}
    if stats:
        st.markdown("##### Graph statistics")
        render_graph_stats(stats)
    secs = build_timings(report, elapsed)
    extra = {}
    if report.get("pruning_power") is not None:
        extra["GNN pruning power"] = f"{float(report['pruning_power']):.1%}"
    for L, n in (report.get("paths") or {}).items():
        extra[f"indexed paths (l={L})"] = f"{int(n):,}"
    if extra:
        cols = st.columns(len(extra))
        for col, (k, v) in zip(cols, extra.items()):
            col.metric(k, v)
    c1, c2 = st.columns(2)
    if len(secs) >= 2:  # one bar is no comparison: its time is the total
        df, total = timing_frame(secs, "seconds")
        c1.altair_chart(alt.Chart(df).mark_bar().encode(
            x=alt.X("seconds:Q", title="seconds"),
            y=alt.Y("stage:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False, labelLimit=300)),
            tooltip=["stage", alt.Tooltip("seconds:Q", format=".1f")]
        ).properties(height=alt.Step(BAR_STEP), title=f"Time per stage (total {fmt_secs(total)})"),
            width="stretch")
    hist = report.get("gnn_history") or []
    if len(hist) >= 2:  # one epoch is a point, not a curve
        df = pd.DataFrame(hist)
        x = "epoch" if "epoch" in df else df.columns[0]
        long = df.melt(id_vars=[x], value_vars=[c for c in ("loss", "pruning_power") if c in df])
        c2.altair_chart(alt.Chart(long).mark_line().encode(
            x=alt.X(f"{x}:Q"), y=alt.Y("value:Q", title=None), color="variable:N",
            tooltip=[x, "variable", alt.Tooltip("value:Q", format=".4f")]
        ).properties(height=220, title="GNN training"), width="stretch")
    with st.expander("Full build report"):
        st.json({k: v for k, v in report.items() if k != "gnn_history"})


def render_schema_profile(profile, lexicon: dict | None = None) -> None:
    """"What sgrag learned about this graph": the schema profile's conventions (a ``sgrag.SchemaProfile``),
    and the lexicon preset the index was built with; relation names come from the graph, so escaped."""
    if profile is None:
        st.caption("This index was built before sgrag stored what it learns about a graph: rebuild to see it.")
        return
    st.markdown("##### What sgrag learned about this graph")
    st.markdown("\n".join(f"- {md(line)}" for line in profile.summary()))
    if lexicon:
        st.caption(f"Lexicon preset **{md(lexicon.get('preset', '?'))}** (hash {md(lexicon.get('hash', '?'))}); "
                   "change it with query.lexicon in the workspace's config.json.")


def render_graph_stats(stats: dict) -> None:
    keys = [k for k, v in stats.items() if isinstance(v, (int, float))]
    if not keys:
        return
    cols = st.columns(min(len(keys), 6))
    for i, k in enumerate(keys):
        v = stats[k]
        cols[i % len(cols)].metric(k.replace("_", " "), f"{v:,.2f}" if isinstance(v, float) and not float(v).is_integer()
                                   else f"{int(v):,}")


# ---- the answer and its trace -----------------------------------------------------------------
HISTORY_SHOWN = 12  # questions listed in the sidebar (the file keeps more)


def render_history(history: Sequence, on_pick) -> None:
    """The workspace's recent questions in the sidebar, newest first; clicking one asks it again."""
    if not history:
        return
    with st.sidebar:
        st.markdown("**Asked in this workspace**")
        for i, a in enumerate(history[:HISTORY_SHOWN]):
            text = a.question if len(a.question) <= 90 else a.question[:89] + "…"
            st.button(md(text) + (" · corrected links" if a.links else ""), key=f"{K.HISTORY_PICK}{i}",
                      type="tertiary", on_click=on_pick, args=(a,), help=md(a.question), width="stretch")


def _qlabel(trace: QueryTrace) -> dict[str, str]:
    qg = trace.query_graph
    if qg is None:
        return {}
    return {n.qid: ("UNK" if n.is_unknown else n.label) for n in qg.nodes}


def render_answer(trace: QueryTrace, engine=None, titles: dict[str, str] | None = None) -> None:
    """The answer card: the header (what the answer is, how sure) then why, in plain words, with the
    document sentences it was read from."""
    a = trace.answer
    if a is None:
        st.warning("No answer was produced.")
        return
    if titles is None:
        titles = document_titles(engine.workspace) if engine is not None else {}
    with st.container(border=True):
        render_answer_header(trace)
        if a.relaxed:
            st.warning("No answer satisfies every condition of the question. Conditions left out to find "
                       "one: " + ", ".join(md(r) for r in a.relaxed))
        if a.explanation:
            st.markdown(md(a.explanation))
        render_evidence(trace, engine, titles)
    for note in trace.notes:
        st.caption(md(note))


def _cited(trace: QueryTrace, titles: dict[str, str]) -> list[tuple[Any, Citation | None]]:
    """The answer's evidence edges that a document sentence supports, each with its document (if known)."""
    return [(e, cite(e.source, titles)) for e in trace.answer_evidence() if e.sentence]


def evidence_source_lines(trace: QueryTrace, titles: dict[str, str] | None = None) -> list[str]:
    """Escaped Markdown per evidence edge of the answer that a document sentence supports:
    the edge, the sentence quoted under it, and the document it was read in (by title)."""
    return [f"{edge_markdown(e)}  \n> “{md(e.sentence)}” — *{md(c.title) if c else md(e.source)}*"
            for e, c in _cited(trace, titles or {})]


def edge_markdown(e) -> str:
    """An evidence edge as escaped Markdown, with how it was read where its sentence does not state it."""
    note = how_read(e.source)
    return f"**{md(e.src_label)}** — {md(e.relation)} → **{md(e.dst_label)}**" + (f" *({md(note)})*" if note else "")


def evidence_lines(edges: list) -> list[str]:
    """The lines of one sentence's edges, each once: the parse and the rule reader may read the same fact from it
    ("novel by" twice)."""
    return list(dict.fromkeys(edge_markdown(e) for e, _ in edges))


PASSAGE_CONTEXT = 1500  # characters of the document shown on each side of a cited sentence


def passage_html(p: Passage) -> str:
    """The document around the cited sentence, the sentence marked; every character of the document escaped."""
    if p.start < 0:
        body = html.escape(p.text[: 2 * PASSAGE_CONTEXT])
    else:
        lo, hi = max(0, p.start - PASSAGE_CONTEXT), min(len(p.text), p.end + PASSAGE_CONTEXT)
        body = ("…" if lo else "") + html.escape(p.text[lo:p.start]) + "<mark>" + html.escape(p.text[p.start:p.end]) \
            + "</mark>" + html.escape(p.text[p.end:hi]) + ("…" if hi < len(p.text) else "")
    return ('<div class="sg-passage" style="white-space:pre-wrap;max-height:320px;overflow:auto;'
            f'font-size:0.9rem;line-height:1.5">{body}</div>')


def sentence_groups(cited: list[tuple[Any, Citation | None]]) -> dict[tuple[str, str], list]:
    """The cited edges by the sentence that supports them (its chunk and span, and its text), in order: one quote
    per sentence, under every relation read from it ("flows through" by the parse and "flow through" by the rule
    reader are one quote, not two)."""
    groups: dict[tuple[str, str], list] = {}
    for e, c in cited:
        groups.setdefault((e.source.split("|", 1)[0], e.sentence), []).append((e, c))
    return groups


def render_evidence(trace: QueryTrace, engine, titles: dict[str, str]) -> None:
    """Each condition's supporting sentence with its document's title, a way to open the document at
    that passage, and how many documents the answer rests on."""
    cited = _cited(trace, titles)
    if not cited:
        return
    docs = list(dict.fromkeys(c.title for _, c in cited if c))
    if docs:
        st.markdown(f"From {len(docs)} document{'s' if len(docs) > 1 else ''}: " + ", ".join(f"*{md(t)}*" for t in docs))
    for (_, sentence), edges in sentence_groups(cited).items():
        source, c = edges[0][0].source, edges[0][1]
        quote = f"> “{md(sentence)}” — *{md(c.title) if c else md(source)}*"
        st.markdown("  \n".join(evidence_lines(edges) + [quote]))
        if c is None or engine is None:
            continue
        with st.expander(f"Open *{md(c.title)}* at this passage", icon=":material/article:"):
            try:
                p = locate(engine.workspace, source, sentence)
            except (OSError, ValueError, sgrag_errors.SgragError) as exc:
                st.caption(f"The document cannot be opened: {md(exc)}")
                continue
            if p is None:
                st.caption("The workspace no longer holds a copy of this document.")
                continue
            if p.start < 0:
                st.caption("The sentence is not in the stored document any more (it changed since); its beginning:")
            st.html(passage_html(p))


def verdict_badge(a: Answer) -> str:
    """The answer card's first badge: how many named conditions the answer meets, or that it is joined to every
    one without being proven to meet them as stated (set apart by a relation that does not fit, or its kind)."""
    total, used = len(a.conditions), a.conditions_used
    if a.exact and used == total:
        return f":green-badge[meets all {total} conditions]" if total > 1 else ":green-badge[meets the condition]"
    if a.exact and joined_to_every(a.conditions):
        return ":orange-badge[joined to every condition, a relation not checked]"
    if a.exact:
        return f":orange-badge[meets {used} of {total} conditions]"
    if total and used == total:
        return ":orange-badge[joined to every condition, not proven]"
    if total and not conditions_met(a.conditions):  # a name of the conditions' document no fact joins to any of them
        return ":orange-badge[meets none of the conditions]"
    return ":orange-badge[meets only some conditions]"


def render_answer_header(trace: QueryTrace) -> None:
    """The verdict (``Answer.headline``: how many entities satisfy how many of the named conditions, and each
    condition not used with why), then the answer given first and why it is first."""
    a = trace.answer
    n = a.exact_size
    lead, _, rest = a.headline.partition(" — ")
    st.markdown(f"**{md(lead.rstrip('.'))}**")
    for c in a.conditions:
        if not c.used or c.corrected:
            st.caption(f"{md(c.text)}: {md(c.reason)}")
    st.caption("Answer" if n <= 1 else "Best guess among them")
    st.markdown(f"## {md(a.text)}")
    badges = [verdict_badge(a), f":blue-badge[confidence {a.confidence:.2f}]",
              f":gray-badge[{md(ANSWER_MODES.get(a.mode, a.mode))}]"]
    st.markdown(" ".join(badges))
    if a.tie_break:
        st.info(md(a.tie_break), icon=":material/balance:")
    elif len(a.final) > 1:
        st.markdown("**All answers:** " + ", ".join(md(x) for x in a.final))


ANSWER_MODES = {"offline": "answered locally", "llm": "answered by the language model",
                "llm->offline": "language model unavailable: answered locally"}


def render_llm_status(engine) -> bool:
    """A banner while the engine's LLM endpoint is marked down; True when the user asks to retry it."""
    llm = getattr(engine, "llm", None)
    down = llm.down() if llm is not None and hasattr(llm, "down") else None
    if down is None:
        return False
    c1, c2 = st.columns([5, 1], vertical_alignment="center")
    c1.warning(f"The language model at {md(llm.base_url)} is not answering, so questions are answered "
               f"offline at once (it is tried again in {fmt_secs(down[0])}). Last error: {md(down[1])}",
               icon=":material/cloud_off:")
    return c2.button("Retry LLM", icon=":material/refresh:", key="sg.retry_llm")


CONDITION_STATUS = {"used": "used", "ranks": "only ranks", "relaxed": "left out", "not_found": "not found",
                    "unused": "not a condition", "described": "not checked", "unchecked": "relation not checked",
                    "compared": "comparison not checked", "": "not used"}
"""A column title's note per condition status (``accounting``'s statuses, and "" for a condition not accounted)."""


def condition_of(a, node) -> "Condition":
    """The answer's verdict on one constraint node of the query graph (matched by its words, else its label)."""
    words = node.mention.text if node.mention else ""
    found = next((c for c in a.conditions if words and c.text == words), None) \
        or next((c for c in a.conditions if c.label == node.label), None)
    return found or Condition(words or node.label, node.label, "" if a.conditions else "used")


def candidate_constraint_table(trace: QueryTrace, rows: Sequence[RankedAnswer] | None = None) -> pd.DataFrame:
    """Rows: candidate answers (default: the ranked ones); columns: constraints; cells: the satisfying
    edge, or ✗ where the candidate fails the constraint."""
    qg, a = trace.query_graph, trace.answer
    if qg is None or a is None:
        return pd.DataFrame()
    target = qg.target
    cons = qg.constraints
    by_node: dict[str, list[Match]] = {}
    for m in trace.matches:
        nid = m.binding.get(target)
        if nid is not None:
            by_node.setdefault(nid, []).append(m)
    members = {r.node_id for r in a.exact_set}
    out = []
    status = {c.qid: condition_of(a, c).status for c in cons}
    stated = _stated_words(qg)
    for r in (a.ranked if rows is None else rows):
        row: dict[str, Any] = {"answer": r.label, "every condition": "✓" if r.node_id in members else "✗",
                               "id": r.node_id, "score": round(float(r.score), 4)}
        for c in cons:
            col = f"{c.label} [{c.qid}]" + (f" ({CONDITION_STATUS[status[c.qid]]})" if status[c.qid] != "used" else "")
            cell = ""
            for m in by_node.get(r.node_id, []):
                for me in _said_first([e for e in m.edges if c.qid in e.query_edge and target in e.query_edge],
                                      stated.get(c.qid, set())):
                    cell = f"✓ {me.src_label} —{viz._short_relation(me.relation)}→ {me.dst_label}"
                    break
                if cell:
                    break
            if not cell:
                cell = "✓" if c.qid in r.satisfied else ("✗ not satisfied" if c.qid in r.missing else "✗")
            row[col] = cell
        row["satisfied"] = f"{len(r.satisfied)}/{len(cons)}"
        out.append(row)
    return pd.DataFrame(out)


SHOW_SET = 200  # exact-set members listed beside the answer (all are in the JSON export)
SHOW_NEAR = 10  # near misses listed under the exact set's first members


def _stated_words(qg) -> dict[str, set[str]]:
    """Per condition, the words the question states its relation with ("Where was X *born*": born)."""
    return {c.qid: set(re.findall(r"[a-z]+", phrase.lower())) - {"the", "a", "an", "of", "in", "was", "is", "did"}
            for c, phrase in zip(qg.constraints, qg.relation_phrases)}


def _said_first(edges, stated: set[str]) -> list:
    """``edges`` with those whose relation says more of the question's words first ("born in" before "studied in"
    for "Where was X born?"), else in their order."""
    return sorted(edges, key=lambda e: -len(stated & set(re.findall(r"[a-z]+", e.relation.lower()))))


def exact_set_frame(trace: QueryTrace) -> pd.DataFrame:
    """The exact set's members (at most SHOW_SET, best-ranked first), one row per member and condition naming the
    relation that joins them (the one saying the question's words, where several do): three short columns that fit
    beside the answer, however many conditions."""
    a, qg = trace.answer, trace.query_graph
    labels = {c.qid: c.label for c in qg.constraints}
    stated = _stated_words(qg)
    evidence: dict[str, dict[str, str]] = {}
    for m in trace.matches:
        nid = m.binding.get(qg.target)
        if nid is None or nid in evidence or not m.exact:
            continue
        cells: dict[str, str] = {}
        for q in labels:
            for e in _said_first([e for e in m.edges if q in e.query_edge], stated.get(q, set())):
                rel = viz._short_relation(e.relation)
                touches = nid in (e.src_id, e.dst_id)
                cells[q] = rel if touches else f"{rel} ({e.src_label} → {e.dst_label})"
                break
        evidence[nid] = cells
    rows = []
    for r in a.exact_set[:SHOW_SET]:
        cells = evidence.get(r.node_id)
        for q, label in labels.items():
            rows.append({"entity": r.label, "condition": label,
                         "via": (cells or {}).get(q) or ("verified in the graph" if cells is None else "✓")})
    return pd.DataFrame(rows, columns=["entity", "condition", "via"])


def exact_set_title(a: Answer) -> str:
    """What the members of the exact set are: proven to meet every condition (used), or only joined to each."""
    if a.joined_only:
        return ("The entity" if a.exact_size == 1 else f"All {a.exact_size:,} entities") + \
            " joined to every condition (a relation not checked)"
    which = "every condition" if a.conditions_used == len(a.conditions) else "every condition used"
    return ("The entity that satisfies" if a.exact_size == 1 else f"All {a.exact_size:,} entities that satisfy") + \
        f" {which}"


def render_ranked(trace: QueryTrace) -> None:
    """Beside the answer: every entity that satisfies every condition, or the ranked partial candidates."""
    a, qg = trace.answer, trace.query_graph
    if a is None or (not a.ranked and not a.exact_set):
        return
    if a.exact_set:
        shown = min(len(a.exact_set), SHOW_SET)
        st.markdown(f"##### {exact_set_title(a)}")
        st.caption(f"Showing {shown:,} of {a.exact_size:,}, best-ranked first (all of them in the JSON export); "
                   "each verified edge by edge in the graph.")
        df = exact_set_frame(trace)
        st.dataframe(df, hide_index=True, width="stretch", height=min(36 * len(df) + 38, 360))
        if a.set_apart:
            st.caption(f"Also joined to every condition, but ruled out by the question's words "
                       f"({len(a.set_apart):,}; showing {min(len(a.set_apart), SHOW_SET):,}):")
            st.dataframe(pd.DataFrame([{"entity": x.label, "why": x.reason} for x in a.set_apart[:SHOW_SET]]),
                         hide_index=True, width="stretch", height=min(36 * min(len(a.set_apart), SHOW_SET) + 38, 240))
        return
    df = partial_frame(a.ranked, len(qg.constraints) if qg else 0, firm_conditions(trace),
                       {x.node_id: x.reason for x in a.set_apart})
    st.markdown("##### Ranked candidates")
    st.caption(partial_order_note(a.ranked))
    st.dataframe(df, hide_index=True, width="stretch", height=min(36 * len(df) + 38, 320),
                 column_config={"candidate": st.column_config.TextColumn(pinned=True, width=122),
                                "met": st.column_config.TextColumn(width=40),
                                "ruled out": st.column_config.TextColumn(width=90),
                                "same doc": st.column_config.TextColumn(width=66, help=SAME_DOC_HELP),
                                "same sentence": st.column_config.TextColumn("sentence", width=62,
                                                                             help=SAME_SENTENCE_HELP),
                                "wording": st.column_config.TextColumn(width=62, help=WORDING_HELP),
                                "score": st.column_config.NumberColumn(width=50, format="%.2f")})


SAME_DOC_HELP = "How many of the firmly linked conditions one document naming the candidate names too"
SAME_SENTENCE_HELP = "How many of the firmly linked conditions one sentence naming the candidate names too"
WORDING_HELP = ("The largest share of the question's own words (beside the names) that one sentence stating a fact "
                "of the candidate holds")


def firm_conditions(trace: QueryTrace) -> int:
    """How many of the question's conditions were linked firmly (the trace's ``firm_qids`` hold the answer node too:
    its query paths start there)."""
    qg, firm = trace.query_graph, trace.firm_qids
    return sum(c.qid in firm for c in qg.constraints) if qg else 0


def partial_frame(ranked, n: int, firm: int, apart: dict[str, str] | None = None) -> pd.DataFrame:
    """The partial matches as the list shows them: the ``n`` conditions each meets by a fact and, on a graph read
    from documents, how many of the ``firm`` ones (a class word is named by every document) one document naming it
    names too (what a candidate meeting none rests on), and one sentence naming it, and how much of the question's
    wording one of its sentences holds; ``apart`` (node id -> why): the
    candidates the question's words rule out, whatever their score ("not a person"), so that one ranked below a
    lower score says why."""
    apart = apart or {}
    rows = []
    for r in ranked:
        row = {"candidate": r.label, "met": f"{len(r.satisfied)}/{n}"}
        if any(x.node_id in apart for x in ranked):
            row["ruled out"] = apart.get(r.node_id, "")
        if any(x.features.get("document") for x in ranked):
            row["same doc"] = f"{round(r.features.get('document', 0.0) * firm)}/{firm}"
        if any(x.features.get("sentence") for x in ranked):
            row["same sentence"] = f"{round(r.features.get('sentence', 0.0) * firm)}/{firm}"
        if any(x.features.get("wording") for x in ranked):
            row["wording"] = f"{round(r.features.get('wording', 0.0) * 100)}%"
        row["score"] = round(float(r.score), 3)
        rows.append(row)
    return pd.DataFrame(rows)


def partial_order_note(ranked) -> str:
    """How the partial matches are ordered, as the list shows it: by conditions met, or (on a graph read from
    documents) by their evidence, where one meeting fewer conditions may come first."""
    met = [len(r.satisfied) for r in ranked]
    if met == sorted(met, reverse=True):
        return "No entity meets every condition: candidates meeting more conditions come first, then by score."
    return ("No entity meets every condition: candidates are ranked by their evidence (how many conditions they meet, "
            "\"met\"; how sure those facts are; whether they are of the kind asked; how many of the conditions one "
            "document naming them names too, \"same doc\", and one sentence, \"sentence\"; how much of the question's "
            "own wording one of their sentences holds, \"wording\"), so one meeting fewer may "
            "come first.")


def render_candidates(trace: QueryTrace, engine=None) -> None:
    """Which conditions each candidate meets: the exact set's first members, then the near misses."""
    a = trace.answer
    rows = None
    if a is not None and a.exact_set and engine is not None:
        rows = list(a.exact_set[:SHOW_NEAR]) + list(engine.near_misses(trace, SHOW_NEAR))
    df = candidate_constraint_table(trace, rows)
    if df.empty:
        st.info("No candidate answers.")
        return
    st.caption("Which conditions each candidate satisfies, and through which edge; ✗ marks a condition it fails. "
               + ("The first rows meet every condition; below them, the nearest misses." if rows else ""))
    st.dataframe(df, hide_index=True, width="stretch",
                 column_config={"answer": st.column_config.TextColumn(pinned=True),
                                "every condition": st.column_config.TextColumn(pinned=True, width="small"),
                                "satisfied": st.column_config.TextColumn(pinned=True, width="small")})


def render_query_graph(trace: QueryTrace) -> None:
    qg = trace.query_graph
    if qg is None:
        st.info("The question could not be turned into a query graph.")
        return
    st.caption("UNK (red star) is the answer; boxes are the conditions, linked to graph entities. "
               f"Built {md(QG_SOURCES.get(qg.source, qg.source))}"
               + (f" · answer type: {md(qg.answer_type)}" if qg.answer_type else ""))
    render_graph(viz.query_graph_html(qg, height=300), 300)
    said = [(n.label, p.strip()) for n, p in zip(qg.constraints, qg.relation_phrases)
            if len([w for w in p.split() if len(w) > 2]) > 0 and p.strip().lower() not in _BARE_PHRASES]
    if said:
        st.caption("How the question relates each condition: " + "; ".join(f"{md(label)}: “{md(p)}”"
                                                                           for label, p in said))


_BARE_PHRASES = frozenset({"from the", "of the", "in the", "and the", "the", "with the", "by the"})
QG_SOURCES = {"offline": "locally", "llm": "by the language model",
              "llm->offline": "locally (the language model's attempt was unusable)"}


def normalization_table(trace: QueryTrace) -> pd.DataFrame:
    qg = trace.query_graph
    rows = []
    for n in (qg.constraints if qg else []):
        m = n.mention
        rows.append({
            "mention": m.text if m else "", "graph entity": n.label,
            "score": round(float(m.chosen.score if m else n.confidence), 4),
            "other candidates": "; ".join(f"{a.label} ({a.score:.2f})" for a in [
                a for a in (m.alternatives if m else ()) if a.node_id != n.node_id][:5]),
            "method": m.chosen.method if m else "", "id": n.node_id or "", "query node": n.qid,
        })
    return pd.DataFrame(rows)


def render_normalization(trace: QueryTrace, engine, *, key: str, allow_override: bool = True) -> dict[str, str] | None:
    """The mention -> entity table; returns new overrides when the user asks to re-run."""
    df = normalization_table(trace)
    if df.empty:
        st.info("No constraint was linked to the graph.")
        return None
    st.dataframe(df, hide_index=True, width="stretch",
                 column_config={"mention": st.column_config.TextColumn(pinned=True),
                                "graph entity": st.column_config.TextColumn(pinned=True),
                                "score": st.column_config.ProgressColumn("score", min_value=0.0, max_value=1.0,
                                                                         format="%.2f", width="small")})
    low = df[df["score"] < 0.9]
    if not low.empty:
        st.warning("Low-confidence links: " + ", ".join(f"'{md(t)}' → {md(l)}" for t, l in
                                                      zip(low["mention"], low["graph entity"]))
                   + ". Check them below.")
    if not allow_override:
        return None
    qg = trace.query_graph
    with st.expander("Correct a link and re-run", expanded=not low.empty):
        st.caption("Type a name: matches appear as you type, labels that continue what you typed first.")
        chosen: dict[str, str] = {}
        for i, n in enumerate(qg.constraints):
            m = n.mention
            if m is None:
                continue
            link_picker(engine, m, key, i)
            pick = st.session_state.get(f"{K.OVERRIDE_PREFIX}{key}.{i}")
            if pick and pick != m.chosen.node_id:
                chosen[m.text] = pick
        if st.button("Re-run with these links", key=f"{key}.rerun", type="primary"):
            return chosen
    return None


LINK_SEARCH_HITS = 10


def link_picker(engine, m, key: str, i: int) -> None:
    """One mention's link: a search box that finds entities as you type (only this part reruns) and
    the choice, which moves to the best hit of a new search."""
    @st.fragment
    def picker() -> None:
        ss = st.session_state
        search_key, pick_key = f"{key}.search.{i}", f"{K.OVERRIDE_PREFIX}{key}.{i}"
        seen_key = f"{pick_key}.searched"  # the search the choice last followed
        search = st.text_input(f"Search another entity for “{m.text}”", key=search_key, live=True,
                               placeholder="type a name…").strip()
        options: dict[str, str] = {}
        hits = engine.search_entities(search, k=LINK_SEARCH_HITS) if search else []
        for c in hits:
            options.setdefault(c.node_id, f"{c.label} · {c.node_id} · {c.score:.2f} (search)")
        for c in (m.chosen, *m.alternatives):
            options.setdefault(c.node_id, f"{c.label} · {c.node_id} · {c.score:.2f} ({c.method})")
        if search != ss.get(seen_key, ""):
            ss[seen_key] = search
            ss[pick_key] = hits[0].node_id if hits else m.chosen.node_id
        if ss.get(pick_key) not in options:
            ss[pick_key] = m.chosen.node_id
        st.selectbox(f"“{m.text}” means", list(options), format_func=options.get, key=pick_key)
    picker()


def render_paths(trace: QueryTrace) -> None:
    lab = _qlabel(trace)
    if not trace.paths:
        st.info("No query paths (the query graph has no edges).")
        return
    rows = [{"path": " — ".join(f"{lab.get(q, q)} [{q}]" for q in p.qids), "edges": len(p.qids) - 1,
             "order key": p.weight} for p in trace.paths]
    st.caption("The question's graph split into paths the index can look up: each starts at the most "
               "connected condition and together they cover every edge. The order key is technical "
               "(lower is looked up first).")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={"path": st.column_config.TextColumn(pinned=True)})
    if trace.path_matches:
        pm = [{"path": " — ".join(lab.get(q, q) for q in p.qids), "matches": p.matches,
               "visited leaves": p.visited_leaves, "semantic hits": p.semantic_hits,
               "dominance hits": p.dominance_hits} for p in trace.path_matches]
        st.caption("Retrieval per path (R*-tree)")
        st.dataframe(pd.DataFrame(pm), hide_index=True, width="stretch",
                     column_config={"path": st.column_config.TextColumn(pinned=True)})


def render_label_completion(trace: QueryTrace) -> None:
    if not trace.label_completion:
        st.info("No label completion was needed.")
        return
    lab = _qlabel(trace)
    for lc in trace.label_completion:
        st.markdown(f"**{md(lab.get(lc.qid, lc.qid))}** [{md(lc.qid)}]: {lc.total:,} candidate label(s) "
                    f"from path {md(' — '.join(lab.get(q, q) for q in lc.from_path))}")
        df = pd.DataFrame(list(lc.candidates), columns=["label", "count"])
        if df.empty:
            continue
        top = df.head(25)
        # a table, not a chart: full labels, and one candidate still shows its count
        st.dataframe(top, hide_index=True, width="stretch", height=min(36 * len(top) + 38, 400),
                     column_config={"label": st.column_config.TextColumn("label", width="large"),
                                    "count": st.column_config.ProgressColumn(
                                        "paths with this label", min_value=0, max_value=int(max(1, top["count"].max())),
                                        format="%d")})
        if len(df) > len(top):
            st.caption(f"showing {len(top)} of {len(df):,} labels")


def render_funnel(trace: QueryTrace) -> None:
    if trace.funnel:
        df = pd.DataFrame([{"step": f"{i + 1}. {f.stage}", "count": f.count, "detail": f.detail}
                           for i, f in enumerate(trace.funnel)])
        st.altair_chart(alt.Chart(df).mark_bar(color="#1f77b4").encode(
            x=alt.X("count:Q", scale=alt.Scale(type="symlog"), title="candidates (log scale)",
                    axis=alt.Axis(tickMinStep=1, format="~s")),  # counts: whole ticks only
            y=alt.Y("step:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False, labelLimit=300)),
            tooltip=["step", "count", "detail"]
        ).properties(height=alt.Step(BAR_STEP), title="Candidates after each filter"), width="stretch")
        st.dataframe(df, hide_index=True, width="stretch")
    if trace.timings_ms:
        t, total = timing_frame(trace.timings_ms, "ms")
        st.altair_chart(alt.Chart(t).mark_bar(color="#ff7f0e").encode(
            x=alt.X("ms:Q", title="milliseconds"),
            y=alt.Y("stage:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False, labelLimit=300)),
            tooltip=["stage", alt.Tooltip("ms:Q", format=".1f")]
        ).properties(height=alt.Step(BAR_STEP), title=f"Time per stage (total {total:.0f} ms)"), width="stretch")
        with st.expander("Stage names in the method (SG-RAG)"):
            st.dataframe(t, hide_index=True, width="stretch")


MATCH_ROLES = {"answer": "meets every condition used", "set apart": "set apart by the question's words",
               "partial": "partial"}


def _match_title(trace: QueryTrace, i: int, m: Match) -> str:
    lab = _qlabel(trace)
    qg = trace.query_graph
    tgt = qg.target if qg else UNK
    ans = next((e.src_label if e.src_id == m.binding.get(tgt) else e.dst_label
                for e in m.edges if m.binding.get(tgt) in (e.src_id, e.dst_id)), m.binding.get(tgt, "?"))
    role = trace.match_role(m)
    kind = ("partial, missing " + ", ".join(lab.get(q, q) for q in m.missing)) if role == "partial" and m.missing \
        else MATCH_ROLES[role]
    return f"#{i + 1}: {ans} ({kind})"


def matches_caption(trace: QueryTrace) -> str:
    """What the trace's matches are, counted from the verdict (the answer's exact set), as the card says it."""
    a = trace.answer
    roles = [trace.match_role(m) for m in trace.matches]
    n_set = a.exact_size if a is not None else 0
    drawn = len({m.binding.get(trace.query_graph.target) for m, r in zip(trace.matches, roles) if r == "answer"})
    parts = []
    if n_set:
        who = "the entity" if n_set == 1 else f"{drawn:,} of the {n_set:,} entities" if drawn < n_set \
            else f"the {n_set:,} entities"
        parts.append(f"the matches of {who} meeting every condition used")
    if roles.count("set apart"):
        parts.append(f"{roles.count('set apart'):,} set apart by the question's words (not answers)")
    if roles.count("partial"):
        parts.append(f"{roles.count('partial'):,} partial")
    return "In the trace: " + "; ".join(parts) + "." if parts else ""


def render_matches(trace: QueryTrace, graph, *, key: str, kinds=None, titles: dict[str, str] | None = None) -> None:
    """The matched subgraph: by default only the answers, the conditions and the matched edges (legible at a
    glance); the neighbourhood is one click away inside the drawing, and a click on a node shows its properties.
    What is an answer comes from the verdict (``QueryTrace.match_role``), as on the card."""
    if not trace.matches:
        st.info("No matched subgraph: no data subgraph satisfies the query, even partially.")
        return
    match_roles = [trace.match_role(m) for m in trace.matches]
    answers = [m for m, r in zip(trace.matches, match_roles) if r == "answer"]
    options = ["all"] + list(range(len(trace.matches)))
    c1, c2 = st.columns([3, 1])
    first = answers or trace.matches
    pick = c1.selectbox("Subgraph", options, key=f"{key}.{K.MATCH_PICK}",
                        format_func=lambda o: (f"the answers (first {min(20, len(first))})" if answers else
                                               f"all matches (first {min(20, len(first))})") if o == "all"
                        else _match_title(trace, o, trace.matches[o]))
    cap = c2.number_input("Neighbourhood nodes", 20, 1000, viz.DEFAULT_MAX_NODES, step=10,
                          key=f"{key}.{K.SUBGRAPH_CAP}", help="How many neighbours “Show neighbourhood” adds "
                          "(the most connected first)")
    chosen = first[:20] if pick == "all" else [trace.matches[pick]]
    as_answer = pick == "all" and bool(answers) or pick != "all" and match_roles[pick] == "answer"
    qg = trace.query_graph
    view = viz.match_view(graph, chosen, max_nodes=int(cap),  # only an answer is drawn as the answer
                          target=qg.target if qg and as_answer else None)
    lab = _qlabel(trace)
    roles = {v: (r if r == UNK else f"condition “{lab.get(r, r)}” [{r}]") for v, r in view["role"].items()}
    st.caption(md(matches_caption(trace)) + f" Drawn: {len(view['nodes']):,} matched node(s) and "
               f"{len(view['edges']):,} matched edge(s) (orange" + ("; the answer red" if as_answer else "")
               + f"); “Show neighbourhood” adds {len(view['reserve']):,} of their "
               f"{view['total'] - len(view['nodes']):,} neighbours. Click a node for its properties; double-click "
               "(or “Expand”) adds its neighbours.")
    render_graph(viz.subgraph_html(graph, view["nodes"], view["edges"], highlight_nodes=view["highlight_nodes"],
                                   highlight_edges=view["highlight_edges"], role=roles, reserve=view["reserve"],
                                   kinds=kinds, height=520), 520)
    rows = []
    number = {id(m): i + 1 for i, m in enumerate(trace.matches)}
    for m in chosen:
        for e in m.edges:
            rows.append({"match": number[id(m)],
                         "query edge": " — ".join(lab.get(q, q) for q in e.query_edge),
                         "from": e.src_label, "relation": viz._short_relation(e.relation), "to": e.dst_label,
                         "text": e.description, **({"document": getattr(cite(e.source, titles), "title", "")}
                                                    if titles else {}), "relation id": e.relation})
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def trace_graphml(trace: QueryTrace) -> bytes:
    """GraphML of the trace's matched edges (the evidence)."""
    from sgrag.io.kg import write_graphml
    g = viz.evidence_graph(trace)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "evidence.graphml"
        write_graphml(g, p)
        return p.read_bytes()


def render_export(trace: QueryTrace, *, key: str) -> None:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", trace.question)[:40].strip("-") or "question"
    c1, c2 = st.columns(2)
    c1.download_button("Evidence (JSON trace)", json.dumps(trace.to_json(), indent=1, ensure_ascii=False),
                       file_name=f"sgrag-{slug}.json", mime="application/json", key=f"{key}.json",
                       icon=":material/download:", width="stretch")
    c2.download_button("Evidence subgraph (GraphML)", trace_graphml(trace), file_name=f"sgrag-{slug}.graphml",
                       mime="application/xml", key=f"{key}.graphml", icon=":material/download:",
                       width="stretch")


TRACE_TABS = ["Query graph", "Normalization", "Paths", "UNK labels", "Funnel", "Subgraphs",
              "Constraints", "Export"]


def render_trace(trace: QueryTrace, engine, *, key: str, allow_override: bool = True) -> dict[str, str] | None:
    """Answer and ranked candidates, then the detail tabs at full width; returns overrides to re-run with.

    The tabs keep the one the user chose across reruns (a re-run with new links, an upload).
    """
    titles = document_titles(engine.workspace)  # evidence is cited by document title everywhere
    left, right = st.columns([3, 2], gap="large")
    with left:
        render_answer(trace, engine, titles)
    with right:
        render_ranked(trace)
    overrides = None
    tabs = st.tabs(TRACE_TABS, key=f"{K.TRACE_TAB}.{key}", on_change="rerun")
    with tabs[0]:
        render_query_graph(trace)
    with tabs[1]:
        overrides = render_normalization(trace, engine, key=key, allow_override=allow_override)
    with tabs[2]:
        render_paths(trace)
    with tabs[3]:
        render_label_completion(trace)
    with tabs[4]:
        render_funnel(trace)
    with tabs[5]:
        render_matches(trace, engine.graph, key=key, kinds=engine.node_kinds, titles=titles)
    with tabs[6]:
        render_candidates(trace, engine)
    with tabs[7]:
        render_export(trace, key=key)
    return overrides


# ---- explore --------------------------------------------------------------------------------
EXPLORE_FIRST = 30  # neighbours Explore draws at first (the most connected): labels still read at a glance


def render_neighbourhood(graph, center: int, nodes: Sequence[int], edges: Sequence[int], total: int,
                         kinds=None) -> None:
    """The neighbourhood of ``center``: its first EXPLORE_FIRST nodes drawn, the rest of ``nodes`` one click away."""
    first, rest = list(nodes)[:EXPLORE_FIRST + 1], list(nodes)[EXPLORE_FIRST + 1:]
    st.caption(f"Drawn: {len(first):,} of {total:,} nodes (the nearest and most connected first)"
               + (f"; “Show more” adds {len(rest):,}" if rest else "")
               + (" (capped: raise the limit or filter relations)" if total > len(nodes) else "")
               + ". Click a node for its properties; double-click adds its neighbours.")
    render_graph(viz.subgraph_html(graph, first, edges, highlight_nodes=[center], focus=[center], reserve=rest,
                                   kinds=kinds, height=560, wide_label=f"Show more ({len(rest):,} nodes)",
                                   narrow_label=f"Back to the first {len(first):,}"), 560)


def graph_file_bytes(graph, fmt: str) -> bytes:
    """The whole graph as GraphML or JSON (``sgrag.io.kg`` writers: Gephi, yEd and networkx read them)."""
    from sgrag.io.kg import write_graphml, write_json
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / f"graph.{fmt}"
        (write_graphml if fmt == "graphml" else write_json)(graph, p)
        return p.read_bytes()


def render_graph_downloads(graph, name: str) -> None:
    """Download buttons for the whole graph; the file is written only when a button is clicked."""
    st.caption(f"The whole graph: {graph.num_nodes:,} nodes, {graph.num_edges:,} edges")
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name) or "graph"
    for fmt, title, mime in (("graphml", "GraphML", "application/xml"), ("json", "JSON", "application/json")):
        st.download_button(title, lambda fmt=fmt: graph_file_bytes(graph, fmt), file_name=f"{slug}.{fmt}",
                           mime=mime, key=f"sg.graph_download.{fmt}", icon=":material/download:",
                           on_click="ignore", width="stretch")


# ---- evaluation -----------------------------------------------------------------------------
ORACLE_METRICS = [("hit@1_determined", "Hit@1, determined", "questions whose constraints leave one entity"),
                  ("hit@1_ambiguous", "Hit@1, ambiguous", "questions several entities satisfy"),
                  ("gold_in_exact_set", "Gold in the exact set", "the gold answer is among the entities returned"),
                  ("exact_set_jaccard", "Exact-set Jaccard", "returned set vs the oracle's, mean"),
                  ("link_precision", "Linking precision", "linked constraints that the question names"),
                  ("link_recall", "Linking recall", "named constraints that were linked")]


def render_oracle_summary(oracle: dict) -> None:
    """Exactness against an oracle: where the question determines the answer, and the set otherwise."""
    st.markdown(f"##### Exactness against the oracle ({oracle['n']:,} questions: {oracle['determined']:,} determined, "
                f"{oracle['ambiguous']:,} ambiguous)")
    shown = [m for m in ORACLE_METRICS if not (m[0] == "hit@1_ambiguous" and not oracle.get("ambiguous"))
             and not (m[0] == "hit@1_determined" and not oracle.get("determined"))]
    for row in (shown[:3], shown[3:]):
        for col, (key, title, help_text) in zip(st.columns(3), row):
            col.metric(title, f"{float(oracle.get(key, 0.0)):.3f}", help=help_text)
    fails = oracle.get("failures_determined") or {}
    if fails:
        st.caption("Determined questions by outcome: " + ", ".join(f"{md(k)}: {v}" for k, v in fails.items()))


def render_eval_summary(summary: dict) -> None:
    overall = summary.get("overall", summary)
    if summary.get("oracle"):
        render_oracle_summary(summary["oracle"])
    cols = st.columns(4)
    for col, name in zip(cols, ["hit@1", "precision", "recall", "f1"]):
        v = overall.get(name)
        col.metric(name.upper() if name == "f1" else name.capitalize() if name != "hit@1" else "Hit@1",
                   f"{float(v):.3f}" if v is not None else "—")
    by = summary.get("by_constraints") or summary.get("by_k") or {}
    if by:
        rows = []
        for k, vals in by.items():
            for name in ("hit@1", "precision", "recall", "f1"):
                if name in vals:
                    n = int(vals.get("n", vals.get("count", 0)) or 0)
                    rows.append({"constraints": f"{k} ({n:,} question{'s' if n != 1 else ''})", "metric": name,
                                 "value": float(vals[name]), "n": n})  # a group scoring 0 still shows its size
        if rows:
            df = pd.DataFrame(rows)
            st.altair_chart(alt.Chart(df).mark_bar().encode(
                x=alt.X("constraints:N", title="number of constraints", sort=None, axis=alt.Axis(labelAngle=0)), y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1])),
                color="metric:N", xOffset="metric:N", tooltip=["constraints", "metric", alt.Tooltip("value:Q", format=".3f"), "n"]
            ).properties(height=260, title="By number of constraints"), width="stretch")


def eval_rows_frame(rows: list[dict]) -> pd.DataFrame:
    out = []
    for i, r in enumerate(rows):
        gold = r.get("gold")
        final = r.get("final") or r.get("answers") or ()
        out.append({"#": i + 1, "query": r.get("query", ""),
                    "gold": ", ".join(gold) if isinstance(gold, (list, tuple, set)) else str(gold or ""),
                    "answer": ", ".join(map(str, final)) if isinstance(final, (list, tuple)) else str(final),
                    "hit": bool(r.get("hit")), "exact": bool(r.get("exact")),
                    "exact set": len(r.get("exact_set") or ()), "oracle set": r.get("oracle_size", ""),
                    "constraints": r.get("constraints", ""), "failure": r.get("failure") or ""})
    return pd.DataFrame(out)


def render_eval_downloads(report, name: str) -> None:
    """The evaluation's results as the table shown (CSV) and as the CLI's ``eval --out`` lines (JSONL)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name) or "evaluation"
    c1, c2, _ = st.columns([1, 1, 3])
    c1.download_button("Results (CSV)", lambda: eval_rows_frame(report.rows).to_csv(index=False).encode("utf-8"),
                       file_name=f"{slug}-eval.csv", mime="text/csv", key="sg.eval_download.csv",
                       icon=":material/download:", on_click="ignore", width="stretch")
    c2.download_button("Results (JSONL)", lambda: eval_jsonl(report.rows), file_name=f"{slug}-eval.jsonl",
                       mime="application/jsonl", key="sg.eval_download.jsonl", icon=":material/download:",
                       on_click="ignore", width="stretch")


def eval_jsonl(rows: list[dict]) -> bytes:
    """One JSON object per question, as ``sgrag eval --out`` writes them."""
    return "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in rows).encode("utf-8")


def wait_briefly(job: Job, seconds: float = 0.3) -> None:
    """Give a just-started job a moment so the first render shows its first stage."""
    t0 = time.time()
    while job.active and not job.snapshot() and time.time() - t0 < seconds:
        time.sleep(0.05)


LIVE_KEY = "sg-live-"  # key prefix of the container around each live panel (CSS class st-key-sg-live-...)
# What a poll redraws, drawn once: Streamlit otherwise starts a one-second "stale" fade on every
# element of a rerunning fragment (never seen: the rerun takes milliseconds) and a half-second glide
# on every progress bar that moved, and each keeps the browser compositing frames (measured: about
# half the browser's CPU while a page watches a job). The bars still step forward at every poll.
LIVE_CSS = (f'<style>[class*="st-key-{LIVE_KEY}"] [data-stale="true"] '
            '{ opacity: 1 !important; transition: none !important; } '
            f'[class*="st-key-{LIVE_KEY}"] [data-testid="stProgress"] * {{ transition: none !important; }}</style>')


def live_job(job: Job, poll_key: str, body, poll_s: float = LIVE_POLL_S, running: bool | None = None) -> None:
    """Render ``body(job)`` in a fragment that re-reads the job every ``poll_s`` while it runs.

    When the job ends, one full rerun refreshes the rest of the page (buttons, results), also when it
    ends while this run draws: ``running`` is the caller's reading (else one taken here), and a job
    seen running that is done by the time its panel draws reruns the page at once.
    """
    running = job.active if running is None else running

    @st.fragment(run_every=poll_s if running else None)
    def _live() -> None:
        if not job.active and (running or st.session_state.get(poll_key)):
            st.session_state[poll_key] = False
            st.rerun()
        st.session_state[poll_key] = job.active
        body(job)

    st.html(LIVE_CSS)
    with st.container(key=LIVE_KEY + poll_key):
        _live()
