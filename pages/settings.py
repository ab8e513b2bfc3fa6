"""Settings: LLM endpoint/model/key (OpenAI-compatible, offline by default), embeddings, index, GNN, rules."""
import dataclasses

import streamlit as st

import sgrag
from sgrag.llm import make_llm
from sgrag_app import state as K
from sgrag_app.runtime import flash, guard, page_setup

ctx = page_setup("Settings")
ws = ctx.require_workspace()
try:
    cfg = ws.config()
except sgrag.SgragError as exc:
    st.error(f"Cannot read the settings: {exc}")
    st.stop()
before = cfg.index_hash()

EMBED = ["minilm", "hash", "openai"]
with st.form(K.SETTINGS_FORM):
    st.markdown("##### Language model (optional)")
    st.caption("Any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio…). Leave the endpoint empty to "
               "stay offline: linking, matching and answers then run locally.")
    c1, c2 = st.columns(2)
    base_url = c1.text_input("Endpoint (base URL)", cfg.llm.base_url, placeholder="http://127.0.0.1:11434/v1")
    model = c2.text_input("Chat model", cfg.llm.model)
    c1, c2 = st.columns(2)
    emb_model = c1.text_input("Embedding model", cfg.llm.embedding_model)
    key = c2.text_input("API key", st.session_state.get(K.API_KEY, ""), type="password",
                        help="Kept in this browser session only (or set SGRAG_LLM_API_KEY); never saved to disk.")
    c1, c2, c3 = st.columns(3)
    query_mode = c3.radio("Query graphs", ["offline", "llm"], index=["offline", "llm"].index(cfg.query.mode)
                          if cfg.query.mode in ("offline", "llm") else 0, horizontal=True,
                          help="llm: the model builds the query graph (paper prompt); offline linking is the fallback")
    answer_mode = c1.radio("Answers", ["offline", "llm"], index=["offline", "llm"].index(cfg.answer.mode)
                           if cfg.answer.mode in ("offline", "llm") else 0, horizontal=True,
                           help="llm: the model writes the answer from the matched evidence")
    extractor = c2.radio("Document extraction", ["offline", "llm"],
                         index=["offline", "llm"].index(cfg.extract.extractor) if cfg.extract.extractor in ("offline", "llm") else 0,
                         horizontal=True)
    st.markdown("##### Index (a change needs a rebuild)")
    c1, c2, c3, c4, c5 = st.columns(5)
    backend = c1.selectbox("Embeddings", EMBED, index=EMBED.index(cfg.embed.backend) if cfg.embed.backend in EMBED else 0,
                           help="minilm: bundled local model · hash: tiny and fast · openai: the endpoint above")
    path_length = c2.selectbox("Path length l", [1, 2], index=0 if cfg.index.path_length == 1 else 1,
                               help="2 indexes two-edge paths: much bigger; refused above the path budget")
    dim = c3.number_input("GNN dimensions", 1, 16, int(cfg.gnn.dim))
    hidden = c4.number_input("GNN hidden width", 4, 256, int(cfg.gnn.hidden))
    epochs = c5.number_input("GNN epochs", 1, 2000, int(cfg.gnn.epochs))
    b1, b2, _ = st.columns([1, 1, 3])
    saved = b1.form_submit_button("Save settings", type="primary", icon=":material/save:")
    test = b2.form_submit_button("Test connection", icon=":material/network_check:",
                                 help="Tries the endpoint, model and key shown above (saved or not)")

if saved:
    with guard("saving the settings"):
        if backend == "openai" and not base_url.strip():
            raise sgrag.SgragError("the 'openai' embedding backend needs an endpoint")
        if "llm" in (answer_mode, query_mode) and not base_url.strip():
            raise sgrag.SgragError("LLM answers and query graphs need an endpoint; set one or choose offline")
        cfg.llm.base_url, cfg.llm.model, cfg.llm.embedding_model = base_url.strip(), model.strip(), emb_model.strip()
        cfg.answer.mode, cfg.query.mode, cfg.extract.extractor = answer_mode, query_mode, extractor
        cfg.embed.backend, cfg.index.path_length = backend, int(path_length)
        cfg.gnn.dim, cfg.gnn.hidden, cfg.gnn.epochs = int(dim), int(hidden), int(epochs)
        ws.save_config(cfg)
        st.session_state[K.API_KEY] = key
        flash("success", "Settings saved." + (" Index settings changed: rebuild on the Build page to apply them."
                                             if cfg.index_hash() != before else ""))
        st.rerun()

if test:
    with guard("testing the connection"):
        if not base_url.strip():
            st.info("Offline mode: the endpoint field is empty, so there is nothing to test. Everything runs locally.")
        else:
            on_screen = dataclasses.replace(cfg.llm, base_url=base_url.strip(), model=model.strip(),
                                            embedding_model=emb_model.strip())
            client = make_llm(on_screen, None, key or None)
            with st.spinner(f"Contacting {base_url.strip()}…"):
                check = client.test_connection()
            (st.success if check.ok else st.error)(check.message)

st.markdown("##### Rules")
st.caption("Every linking pass, ranking feature and narrowing or relaxing rule is a named part; switch one off to "
           "see what it does for this graph (`python -m sgrag rules` lists the same table).")
rows = sgrag.rule_table()
names = [r["name"] for r in rows]
with st.form(K.RULES_FORM):
    off = st.multiselect("Rules switched off", names, [n for n in cfg.rules.disabled if n in names],
                         format_func=lambda n: f"{n} ({next(r['stage'] for r in rows if r['name'] == n)})")
    rules_saved = st.form_submit_button("Save rules", icon=":material/rule:")
with st.expander(f"The {len(rows)} rules"):
    st.dataframe([{**r, "on": r["name"] not in cfg.rules.disabled} for r in rows], hide_index=True,
                 column_order=("name", "stage", "on", "description", "module"))
if rules_saved:
    with guard("saving the rules"):
        cfg.rules.disabled = list(off)
        ws.save_config(cfg)
        flash("success", f"Rules saved: {len(off)} off. Questions are answered with them from now on (no rebuild).")
        st.rerun()
