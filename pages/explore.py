"""Explore: search an entity as you type, browse its neighbourhood (depth, relation filter, capped), ask about it."""
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from sgrag import viz
from sgrag_app import state as K
from sgrag_app.render import md, render_graph_downloads, render_neighbourhood
from sgrag_app.runtime import PAGES, guard, page_setup

ctx = page_setup("Explore")
ws = ctx.require_workspace()
engine = ctx.engine_or_stop()
g = engine.graph


PAGE_RUN = {"whole": True}  # False once the page has run: later runs of search() are the fragment's own


@st.fragment
def search() -> None:
    """Typing reruns only this box (results update after each pause); a new pick redraws the page."""
    c1, c2, c3 = st.columns([3, 3, 1], vertical_alignment="bottom")
    c1.text_input("Search an entity", key=K.EXPLORE_QUERY, placeholder="type a name, e.g. Santo Domingo",
                  live=True)
    query = (st.session_state.get(K.EXPLORE_QUERY) or "").strip()
    with c3.popover("Download", icon=":material/download:", width="stretch"):
        render_graph_downloads(g, ws.path.name)
    candidates = []
    with guard("searching"):
        candidates = engine.search_entities(query, k=15) if query else []
    options = {c.node_id: f"{c.label} · {c.node_id}" for c in candidates}
    pick = None
    if options:  # no empty box: a keyed selectbox would keep "nothing picked" once options arrive
        pick = c2.selectbox(f"Entity ({len(options)} match{'es' if len(options) != 1 else ''}, best first)",
                            list(options), format_func=options.get, key=K.EXPLORE_PICK)
    elif query:
        c2.info("No entity matches that text.")
    if pick != st.session_state.get(K.EXPLORE_NODE):
        st.session_state[K.EXPLORE_NODE] = pick
        if not PAGE_RUN["whole"]:
            st.rerun(scope="app")


search()
PAGE_RUN["whole"] = False
node_id = st.session_state.get(K.EXPLORE_NODE)
if not node_id or node_id not in g.index_of:
    st.caption("Type a name: matches appear as you type, labels that continue what you typed first.")
    st.stop()

c1, c2, c3 = st.columns([1, 1, 3])
depth = c1.slider("Depth", 1, 3, 1, key=K.EXPLORE_DEPTH)
cap = c2.number_input("Max nodes", 5, 2000, 150, step=10, key=K.EXPLORE_MAX)
with guard("reading the neighbourhood"):
    v = g.index_of[node_id]
    rels = sorted({g.relations[int(g.rel[e])] for e in g.incident_edges(v).tolist()})
    chosen = c3.multiselect("Relations (empty = all)", rels, key=K.EXPLORE_RELATIONS)
    nodes, edges, total = engine.neighborhood(node_id, depth=depth, relations=set(chosen) or None,
                                              max_nodes=int(cap))
    left, right = st.columns([3, 1], gap="medium")
    with left:
        render_neighbourhood(g, v, nodes, edges, total, kinds=engine.node_kinds)
    with right:
        st.markdown(f"##### {md(g.labels[v])}")
        kinds = engine.node_kinds(v)
        st.markdown(f"**id** {md(node_id)}  \n**degree** {int(g.degree[v]):,}"
                    + (f"  \n**kinds** {md(', '.join(kinds))}" if kinds else ""))
        if g.descriptions[v]:
            st.caption(md(g.descriptions[v][:600]))
        if st.button("Open in Ask", icon=":material/question_answer:", type="primary"):
            st.session_state[K.ASK_PREFILL] = f"Which entity is related to {g.labels[v]} and "
            try:
                st.switch_page(PAGES["Ask"])
            except StreamlitAPIException:
                st.info("The question is prefilled on the Ask page.")
    rows = []
    incident = g.incident_edges(v)
    for u, e in zip(g.neighbors(v).tolist()[:500], incident.tolist()[:500]):
        if chosen and g.relations[int(g.rel[e])] not in chosen:
            continue
        out = int(g.src[e]) == v
        rel = g.relations[int(g.rel[e])]
        rows.append({"direction": "→" if out else "←", "relation": viz._short_relation(rel),
                     "neighbour": g.labels[u], "id": g.node_ids[u], "relation id": rel})
    st.markdown(f"##### Direct edges ({len(rows):,}{' of ' + format(incident.size, ',') if incident.size > 500 else ''})")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=320,
                 column_config={"direction": st.column_config.TextColumn(width="small"),
                                "neighbour": st.column_config.TextColumn(width="large")})
