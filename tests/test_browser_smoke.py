"""Real-browser smoke test: the app in Debian chromium via Playwright.

Starts ``streamlit run app.py`` headless on a free port over a tiny built workspace, sees the
loading state first, asks a question, finds the answer and the graph canvas (a pyvis iframe
sandboxed without allow-same-origin), checks that a node labelled
``<img src=x onerror=alert(1)>`` renders as text without firing a dialog, and that no request
left the machine (favicon, fonts and icons are served by the app itself).
"""
from __future__ import annotations

import re
import shutil

import pytest
from app_support import Q_DR, Q_XSS, XSS, built_template  # noqa: F401 (fixture)
from browser_support import (ask, frame_counts, graph_frames, launch, needs_chromium, new_page, no_exception, outside_requests,
                             serve_app, wait_graph_frames, wait_page)

pytestmark = [pytest.mark.timeout(600), needs_chromium]


@pytest.fixture
def app_url(tmp_path, built_template):
    ws = tmp_path / "ws" / "small"
    shutil.copytree(built_template, ws)
    with serve_app(ws, tmp_path / "streamlit.log") as url:
        yield url


def test_ask_in_a_real_browser(app_url, tmp_path):
    from playwright.sync_api import sync_playwright

    dialogs: list[str] = []
    requests: list[str] = []
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = new_page(browser, requests, dialogs)
            page.goto(app_url, wait_until="domcontentloaded")
            # a fresh server shows a loading state first (libraries, then the index), not a blank page
            page.get_by_text(re.compile(r"Starting sgrag|Loading the index")).first.wait_for()
            wait_page(page, "Ask")

            ask(page, Q_DR)
            page.get_by_role("heading", name="Dominican Republic").wait_for()
            assert wait_graph_frames(page), "no pyvis canvas on the Ask page"
            for frame in graph_frames(page):  # the untrusted graph page cannot reach the app's origin
                sandbox = frame.frame_element().get_attribute("sandbox")
                assert sandbox is not None and "allow-same-origin" not in sandbox, sandbox
            no_exception(page)
            page.screenshot(path=str(tmp_path / "ask.png"), full_page=True)

            ask(page, Q_XSS)
            heading = page.get_by_role("heading", name=XSS)
            heading.wait_for()
            assert heading.inner_text().strip() == XSS  # shown as text, not parsed as a tag
            wait_graph_frames(page)
            assert page.locator("img[src='x']").count() == 0
            assert [n for _, n in frame_counts(page, "img[src='x']") if n] == []
            no_exception(page)
            assert dialogs == [], f"a dialog fired: {dialogs}"
            assert outside_requests(requests, app_url) == []
        finally:
            browser.close()
