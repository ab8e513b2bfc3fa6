"""Real-browser smoke test: the app in Debian chromium via Playwright.

Starts ``streamlit run app.py`` headless on a free port over a tiny built workspace, asks a
question, finds the answer and the graph canvas (the pyvis iframe), and checks that a node
labelled ``<img src=x onerror=alert(1)>`` renders as text without firing a dialog.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from app_support import Q_DR, Q_XSS, XSS, built_template  # noqa: F401 (fixture)

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--headless", "--disable-background-networking", "--disable-gpu",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                 reason=f"Debian chromium is not installed at {CHROMIUM} "
                                        f"(`apt-get install chromium`; `make test` installs it)")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def app_url(tmp_path, built_template):
    ws = tmp_path / "ws" / "small"
    shutil.copytree(built_template, ws)
    port = _free_port()
    env = {**os.environ, "SGRAG_WORKSPACE": str(ws), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    log = open(tmp_path / "streamlit.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                             "--server.headless", "true", "--server.address", "127.0.0.1",
                             "--server.port", str(port), "--server.fileWatcherType", "none"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("streamlit did not start:\n" + (tmp_path / "streamlit.log").read_text())
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _ask(page, question: str) -> None:
    box = page.get_by_label("Question", exact=True)
    box.fill(question)
    box.press("Enter")  # Enter submits the form


def _graph_frames(page):
    return [f for f in page.frames if f != page.main_frame and f.locator("canvas").count() > 0]


def test_ask_in_a_real_browser(app_url, tmp_path):
    from playwright.sync_api import sync_playwright

    dialogs: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(app_url, wait_until="domcontentloaded")
            page.get_by_role("heading", name="Ask").wait_for(timeout=60_000)

            _ask(page, Q_DR)
            page.get_by_role("heading", name="Dominican Republic").wait_for(timeout=60_000)
            deadline = time.time() + 30
            while not _graph_frames(page) and time.time() < deadline:
                page.wait_for_timeout(300)
            assert _graph_frames(page), "no pyvis canvas on the Ask page"
            assert page.locator("[data-testid='stException']").count() == 0
            page.wait_for_timeout(1500)  # let the physics layout settle for the screenshot
            page.screenshot(path=str(tmp_path / "ask.png"), full_page=True)

            _ask(page, Q_XSS)
            heading = page.get_by_role("heading", name=XSS)
            heading.wait_for(timeout=60_000)
            assert heading.inner_text().strip() == XSS  # shown as text, not parsed as a tag
            page.wait_for_timeout(1500)
            for frame in page.frames:
                assert frame.locator("img[src='x']").count() == 0
            assert page.locator("[data-testid='stException']").count() == 0
            assert dialogs == [], f"a dialog fired: {dialogs}"
        finally:
            browser.close()
