"""sgrag Streamlit app: navigation over the pages in pages/ (each page renders its own sidebar).

Run with ``make run`` (sets up the demo workspace first) or ``streamlit run app.py``.
"""
import sys
from pathlib import Path

import streamlit as st

st.set_page_config(page_title="sgrag", layout="wide", page_icon=str(Path(__file__).parent / "assets" / "favicon.png"))
if "sgrag_app.runtime" not in sys.modules:  # first page after a server start: torch & co take seconds
    starting = st.empty()
    starting.info("Starting sgrag: loading its libraries (only on the first page after the server starts)…",
                  icon="⏳")
    import sgrag_app.runtime  # noqa: F401
    starting.empty()

from sgrag_app.runtime import ICONS, PAGES  # noqa: E402

pages = {title: st.Page(path, title=title, icon=ICONS[title], url_path=title.lower()) for title, path in PAGES.items()}


def _root() -> None:
    """"/" opens Ask at its own path (/ask) with the same parameters: one URL per page, so the sidebar marks it."""
    st.switch_page(pages["Ask"], query_params={k: st.query_params.get_all(k) for k in st.query_params})


root = st.Page(_root, title="Ask", icon=ICONS["Ask"], url_path="home", default=True, visibility="hidden")
st.navigation([root, *pages.values()], position="hidden").run()  # the sidebar's links: sgrag_app.runtime (NAV_KEY)
