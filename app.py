"""sgrag Streamlit app: navigation over the pages in pages/ (each page renders its own sidebar).

Run with ``make run`` (sets up the demo workspace first) or ``streamlit run app.py``.
"""
import streamlit as st

from sgrag_app.runtime import ICONS, PAGES

st.set_page_config(page_title="sgrag", layout="wide", page_icon=":material/hub:")
nav = st.navigation([st.Page(path, title=title, icon=ICONS[title], default=(title == "Ask"),
                             url_path=title.lower()) for title, path in PAGES.items()])
nav.run()
