"""Ask: a question, its answer, and every stage of why (query graph -> matches -> candidates).

What is asked lives in ``K.ASKED`` and in the URL (``?q=…&link=…``); whenever it differs from
what is shown (a new question, a refresh, a shared link, a new index), the page answers it.
"""
import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from sgrag.llm import reset_endpoint
from sgrag_app import state as K
from sgrag_app.asking import Asked, asked_from_params, read_history, record_question, write_params
from sgrag_app.render import md, render_history, render_llm_status, render_trace
from sgrag_app.runtime import answer_cache, error_message, guard, page_setup

ctx = page_setup("Ask")
ws = ctx.require_workspace()
ss = st.session_state

if not ss.get(K.URL_READ):  # the session's first Ask run: a refresh or a shared link asks its question again
    ss[K.URL_READ] = True
    if (from_url := asked_from_params(st.query_params)) is not None:
        ss[K.ASKED], ss[K.QUESTION] = from_url, from_url.question
if K.ASK_PREFILL in ss:  # from Explore's "open in Ask"
    ss[K.QUESTION] = ss.pop(K.ASK_PREFILL)
asked: Asked | None = ss.get(K.ASKED)
if K.QUESTION not in ss and asked is not None:  # the box was not drawn while the page waited for the index
    ss[K.QUESTION] = asked.question
write_params(st.query_params, asked if asked is not None and asked.question else None)


def _submit() -> None:
    ss[K.ASKED] = Asked.of(ss.get(K.QUESTION) or "")
    ss.pop(K.SHOWN, None)  # asked again: answered again (an error may have been mended meanwhile)


def _pick(a: Asked) -> None:
    ss[K.ASKED], ss[K.QUESTION] = a, a.question


engine = ctx.loaded_engine()  # the box works while the index loads: the question waits for it
history_drawn = engine is None  # drawn now if the page is about to wait; else once this run's question is in it
if history_drawn:
    render_history(read_history(ws.path), _pick)
banner = st.container()  # filled after asking: a failure during this question shows at once
with st.form("ask.form", border=False):
    c1, c2 = st.columns([6, 1], vertical_alignment="bottom")
    c1.text_input("Question", key=K.QUESTION,
                  placeholder=(f"e.g. {engine.examples[0]}" if engine is not None and engine.examples else
                               "Ask for something that meets two or more conditions…"))
    c2.form_submit_button("Ask", type="primary", width="stretch", icon=":material/search:", on_click=_submit)

want = (ctx.identity, asked) if asked is not None else None
engine = ctx.engine_or_stop(waiting=asked.question if want and ss.get(K.SHOWN) != want else "")


def _use_example() -> None:
    ex = ss.get(K.EXAMPLE)
    if ex:
        ss[K.QUESTION] = ex


if engine.examples:  # this workspace's own examples (the demo's stay on the demo)
    st.selectbox("Example questions", engine.examples, index=None, key=K.EXAMPLE, on_change=_use_example,
                 placeholder="Or pick an example question…", label_visibility="collapsed")

if want is not None and ss.get(K.SHOWN) != want:
    for k in [k for k in ss if k in (K.TRACE, K.ASK_ERROR) or str(k).startswith((K.OVERRIDE_PREFIX, K.LINK_SEARCH))]:
        del ss[k]  # an error never leaves the previous answer (or its link choices) on screen
    ss[K.SHOWN] = want
    try:
        with st.spinner("Retrieving exact evidence…"):
            ss[K.TRACE] = answer_cache().answer(engine, asked)
    except ScriptControlException:
        raise
    except Exception as exc:  # noqa: BLE001 - shown as one line, kept with what was asked
        ss[K.ASK_ERROR] = error_message(exc, "answering")
    else:
        with guard("saving the question history"):
            record_question(ws.path, asked)

if not history_drawn:
    render_history(read_history(ws.path), _pick)

with banner:
    if render_llm_status(engine):
        reset_endpoint(engine.llm.base_url)
        st.rerun()

shown = ss.get(K.SHOWN) == want and want is not None
if shown and ss.get(K.ASK_ERROR):
    st.error(ss[K.ASK_ERROR], icon=":material/error:")
elif shown and ss.get(K.TRACE) is not None:
    g = engine.graph
    if known := [(k, v) for k, v in asked.links if v in g.index_of]:
        st.caption("Re-run with corrected links: " + ", ".join(
            f"“{md(k)}” → {md(g.labels[g.index_of[v]])}" for k, v in known))
    for k, v in asked.links:
        if v not in g.index_of:  # (a hand-edited or stale link: the engine ignores it and says so in its notes)
            st.warning(f"The link correction for “{md(k)}” names no node of this graph (id “{md(v)}”); "
                       "it was ignored.", icon=":material/link_off:")
    with guard("showing the answer"):
        overrides = render_trace(ss[K.TRACE], engine, key="ask")
        if overrides is not None:
            ss[K.ASKED] = Asked.of(asked.question, {**asked.overrides, **overrides})
            st.rerun()
else:
    st.caption("Ask a question with two or more conditions; the answer must satisfy all of them.")
