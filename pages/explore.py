"""Explore: find an entity, browse its neighbourhood (depth, relation filter, capped), ask about it."""
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from sgrag_app import state as K
from sgrag_app.render import render_neighbourhood
from sgrag_app.runtime import PAGES, guard, page_setup

ctx = page_setup("Explore")
ctx.require_workspace()
engine = ctx.engine_or_stop()
g = engine.graph

st.text_input("Search an entity", key=K.EXPLORE_QUERY, placeholder="e.g. Santo Domingo")
query = (st.session_state.get(K.EXPLORE_QUERY) or "").strip()
candidates = []
with guard("searching"):
    candidates = engine.search_entities(query, k=15) if query else []
options = {c.node_id: f"{c.label} · {c.node_id} · {c.score:.2f}" for c in candidates}
if query and not options:
    st.info("No entity matches that text.")
if not options:
    st.stop()

node_id = st.selectbox("Entity", list(options), format_func=options.get, key=K.EXPLORE_PICK)
c1, c2, c3 = st.columns([1, 1, 3])
depth = c1.slider("Depth", 1, 3, 1, key=K.EXPLORE_DEPTH)
cap = c2.number_input("Max nodes", 5, 2000, 150, step=10, key=K.EXPLORE_MAX)
with guard("reading the neighbourhood"):
    v = g.index_of[node_id]
    rels = sorted({g.relations[int(g.rel[e])] for e in g.incident_edges(v).tolist()})
    chosen = c3.multiselect("Relations (empty = all)", rels, key=K.EXPLORE_RELATIONS)
    nodes, edges, total = engine.neighborhood(node_id, depth=depth, relations=set(chosen) or None,
                                              max_nodes=int(cap))
    left, right = st.columns([3, 2], gap="large")
    with left:
        render_neighbourhood(g, v, nodes, edges, total)
    with right:
        st.markdown("##### Entity")
        st.dataframe(pd.DataFrame([{"label": g.labels[v], "id": node_id, "degree": int(g.degree[v]),
                                    "description": g.descriptions[v]}]), hide_index=True, width="stretch")
        rows = []
        for u, e in zip(g.neighbors(v).tolist()[:500], g.incident_edges(v).tolist()[:500]):
            if chosen and g.relations[int(g.rel[e])] not in chosen:
                continue
            out = int(g.src[e]) == v
            rows.append({"direction": "→" if out else "←", "relation": g.relations[int(g.rel[e])],
                         "neighbour": g.labels[u], "id": g.node_ids[u]})
        st.markdown(f"##### Direct edges ({len(rows):,}{' of ' + str(g.incident_edges(v).size) if g.incident_edges(v).size > 500 else ''})")
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=320)
        if st.button("Open in Ask", icon=":material/question_answer:", type="primary"):
            st.session_state[K.ASK_PREFILL] = f"Which entity is related to {g.labels[v]} and "
            try:
                st.switch_page(PAGES["Ask"])
            except StreamlitAPIException:
                st.info("The question is prefilled on the Ask page.")
