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

from sgrag_app.runtime import ASK_ALIAS, ICONS, PAGES  # noqa: E402

pages = [st.Page(path, title=title, icon=ICONS[title], default=(title == "Ask"),
                 url_path="home" if title == "Ask" else title.lower()) for title, path in PAGES.items()]
# The default page is served at "/" only; /ask (a typed or shared link) opens the same page.
pages.append(st.Page(PAGES["Ask"], title="Ask", icon=ICONS["Ask"], url_path=ASK_ALIAS, visibility="hidden"))
st.navigation(pages, position="hidden").run()  # the sidebar's links are drawn by sgrag_app.runtime (see its NAV_KEY)
