"""Ask: a question, its answer, and every stage of why (query graph -> matches -> candidates)."""
import streamlit as st

from sgrag.llm import reset_endpoint
from sgrag_app import state as K
from sgrag_app.render import md, render_llm_status, render_trace
from sgrag_app.runtime import guard, page_setup

ctx = page_setup("Ask")
ctx.require_workspace()
engine = ctx.engine_or_stop()

banner = st.container()  # filled after asking: a failure during this question shows at once
if K.ASK_PREFILL in st.session_state:  # from Explore's "open in Ask"
    st.session_state[K.QUESTION] = st.session_state.pop(K.ASK_PREFILL)


def _use_example() -> None:
    ex = st.session_state.get(K.EXAMPLE)
    if ex:
        st.session_state[K.QUESTION] = ex


if engine.examples:  # this workspace's own examples (the demo's stay on the demo)
    st.selectbox("Example questions", engine.examples, index=None, key=K.EXAMPLE, on_change=_use_example,
                 placeholder="Pick an example question…")
with st.form("ask.form", border=False):
    c1, c2 = st.columns([6, 1], vertical_alignment="bottom")
    c1.text_input("Question", key=K.QUESTION,
                  placeholder=(f"e.g. {engine.examples[0]}" if engine.examples else
                               "Ask for something that meets two or more conditions…"))
    asked = c2.form_submit_button("Ask", type="primary", width="stretch", icon=":material/search:")


def _ask(question: str, overrides: dict[str, str]) -> None:
    for k in (K.TRACE, K.TRACE_ID):  # an error must not leave the previous answer on screen
        st.session_state.pop(k, None)
    with st.spinner("Retrieving exact evidence…"):
        trace = engine.ask(question, overrides or None)
    st.session_state[K.TRACE] = trace
    st.session_state[K.TRACE_ID] = ctx.identity
    st.session_state[K.TRACE_QUESTION] = question
    st.session_state[K.OVERRIDES] = dict(overrides)


if asked:
    with guard("answering"):
        _ask(st.session_state.get(K.QUESTION, ""), {})

with banner:
    if render_llm_status(engine):
        reset_endpoint(engine.llm.base_url)
        st.rerun()

trace = st.session_state.get(K.TRACE)
if trace is not None and st.session_state.get(K.TRACE_ID) != ctx.identity:
    trace = None  # asked in another workspace or on another index version: never shown here
if trace is not None:
    overrides_used = st.session_state.get(K.OVERRIDES) or {}
    if overrides_used:
        g = engine.graph
        st.caption("Re-run with corrected links: " + ", ".join(
            f"“{md(k)}” → {md(g.labels[g.index_of[v]] if v in g.index_of else v)}" for k, v in overrides_used.items()))
    with guard("showing the answer"):
        overrides = render_trace(trace, engine, key="ask")
        if overrides is not None:
            with guard("answering"):
                _ask(st.session_state[K.TRACE_QUESTION], {**overrides_used, **overrides})
                st.rerun()
elif not asked:
    st.caption("Ask a question with two or more conditions; the answer must satisfy all of them.")
