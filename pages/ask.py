"""Ask: a question, its answer, and every stage of why (query graph -> matches -> candidates)."""
import streamlit as st

from sgrag_app import state as K
from sgrag_app.render import render_trace
from sgrag_app.runtime import guard, page_setup

ctx = page_setup("Ask")
ctx.require_workspace()
engine = ctx.engine_or_stop()

if K.ASK_PREFILL in st.session_state:  # from Explore's "open in Ask"
    st.session_state[K.QUESTION] = st.session_state.pop(K.ASK_PREFILL)


def _use_example() -> None:
    ex = st.session_state.get(K.EXAMPLE)
    if ex:
        st.session_state[K.QUESTION] = ex


if engine.examples:
    st.selectbox("Example questions", engine.examples, index=None, key=K.EXAMPLE, on_change=_use_example,
                 placeholder="Pick an example question…")
with st.form("ask.form", border=False):
    c1, c2 = st.columns([6, 1], vertical_alignment="bottom")
    c1.text_input("Question", key=K.QUESTION, placeholder="Which country contains Santo Domingo and is a member of the World Bank?")
    asked = c2.form_submit_button("Ask", type="primary", width="stretch", icon=":material/search:")


def _ask(question: str, overrides: dict[str, str]) -> None:
    with st.spinner("Retrieving exact evidence…"):
        trace = engine.ask(question, overrides or None)
    st.session_state[K.TRACE] = trace
    st.session_state[K.TRACE_QUESTION] = question
    st.session_state[K.OVERRIDES] = dict(overrides)


if asked:
    with guard("answering"):
        _ask(st.session_state.get(K.QUESTION, ""), {})

trace = st.session_state.get(K.TRACE)
if trace is not None and trace.index_version == engine.version:
    if st.session_state.get(K.OVERRIDES):
        st.caption("Re-run with corrected links: " + ", ".join(
            f"“{k}” → {v}" for k, v in st.session_state[K.OVERRIDES].items()))
    with guard("showing the answer"):
        overrides = render_trace(trace, engine, key="ask")
        if overrides is not None:
            merged = {**st.session_state.get(K.OVERRIDES, {}), **overrides}
            _ask(st.session_state[K.TRACE_QUESTION], merged)
            st.rerun()
elif trace is None:
    st.caption("Ask a question with two or more constraints; the answer must satisfy all of them.")
