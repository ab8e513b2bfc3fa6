"""The new analyst's walkthrough in a real browser (Chromium via Playwright), against one served app.

Workspaces: ``small`` (the default), ``other`` (a copy: same index version "v0001") and ``llm``
(answers by a language model whose local endpoint accepts connections and never replies).
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from app_support import Q_DR, Q_XSS, XSS, built_template, make_workspace, small_config  # noqa: F401 (fixture)
from browser_support import (ask, launch, nav, needs_chromium, new_page, no_exception, outside_requests,
                             select_workspace, serve_app, wait_page, wait_workspace)
from openai_stub import SilentServer

from sgrag import Workspace

pytestmark = [pytest.mark.timeout(900), needs_chromium]
DOCS = Path(__file__).resolve().parent.parent / "assets" / "docs"


@pytest.fixture(scope="module")
def app(tmp_path_factory, built_template):
    root = tmp_path_factory.mktemp("browser") / "ws"
    for name in ("small", "other", "llm"):
        shutil.copytree(built_template, root / name)
    with SilentServer() as dead:  # accepts connections, never replies; counts them
        cfg = Workspace(root / "llm").config()
        cfg.answer.mode, cfg.llm.base_url, cfg.llm.model, cfg.llm.max_retries = "llm", dead.url, "stub", 1
        cfg.llm.timeout_s, cfg.llm.deadline_s = 2.0, 5.0
        Workspace(root / "llm").save_config(cfg)
        with serve_app(root / "small", root.parent / "streamlit.log") as url:
            yield SimpleNamespace(url=url, root=root, dead=dead)


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = launch(pw)
        try:
            yield b
        finally:
            b.close()


def open_app(app, browser, path: str = ""):
    requests: list[str] = []
    page = new_page(browser, requests)
    page.goto(app.url + path, wait_until="domcontentloaded")
    page.requests = requests
    return page


def test_workspace_kept_across_pages_refresh_and_open_in_ask(app, browser):
    page = open_app(app, browser)
    wait_page(page, "Ask")
    wait_workspace(page, "small")
    select_workspace(page, "other")
    nav(page, "Ingest")
    wait_workspace(page, "other")
    assert "ws=other" in page.url
    page.reload()
    wait_page(page, "Ingest")
    wait_workspace(page, "other")
    nav(page, "Explore")
    wait_workspace(page, "other")
    search = page.get_by_label("Search an entity")
    try:
        search.wait_for(state="visible", timeout=60_000)
    except Exception:  # noqa: BLE001 - seen once under full-suite load: the field stayed hidden; a reload shows it
        page.reload()
        wait_page(page, "Explore")
        wait_workspace(page, "other")
        search.wait_for(state="visible", timeout=60_000)
    search.fill("Haiti")
    page.get_by_label("Search an entity").press("Enter")
    page.get_by_role("button", name="Open in Ask").click()
    wait_page(page, "Ask")
    wait_workspace(page, "other")
    page.wait_for_function(
        "() => { const e = document.querySelector('input[aria-label=\"Question\"]'); return e && e.value.includes('Haiti'); }")
    nav(page, "Build")  # a page change to and from the default page keeps it too
    nav(page, "Ask")
    wait_workspace(page, "other")
    page.reload()
    wait_page(page, "Ask")
    wait_workspace(page, "other")
    no_exception(page)
    assert outside_requests(page.requests, app.url) == []


def open_and_ask(app, browser, ws: str, question: str, answer: str):
    """A new session on ``?ws=ws``: ask ``question`` and wait for ``answer`` as the answer heading."""
    page = open_app(app, browser, f"/?ws={ws}")
    wait_page(page, "Ask")
    wait_workspace(page, ws)
    ask(page, question)
    page.get_by_role("heading", name=answer).wait_for()
    return page


def test_switching_workspace_shows_no_stale_answer(app, browser):
    page = open_and_ask(app, browser, "small", Q_DR, "Dominican Republic")
    select_workspace(page, "other")  # same graph, same index version "v0001"
    page.get_by_text("Ask a question with two or more conditions").wait_for()
    assert page.get_by_role("heading", name="Dominican Republic").count() == 0
    ask(page, Q_XSS)
    page.get_by_role("heading", name=XSS).wait_for()
    no_exception(page)


def test_dead_endpoint_answers_offline_without_calling_it_again(app, browser):
    page = open_and_ask(app, browser, "llm", Q_DR, "Dominican Republic")
    banner = page.get_by_text("is not answering, so questions are answered offline")
    banner.wait_for()
    calls = app.dead.connections
    assert calls >= 1
    ask(page, Q_XSS)
    page.get_by_role("heading", name=XSS).wait_for()
    assert app.dead.connections == calls  # answered offline at once: no request
    assert banner.is_visible()
    page.get_by_role("button", name="Retry LLM").click()
    banner.wait_for(state="hidden")
    no_exception(page)


def test_walkthrough_create_ingest_build_refresh_ask(app, browser):
    page = open_app(app, browser)
    wait_page(page, "Ask")
    page.get_by_role("button", name="New workspace").click()
    page.get_by_label("Name").fill("docs")
    page.get_by_role("button", name="Create", exact=True).click()
    wait_workspace(page, "docs")
    Workspace(app.root / "docs").save_config(small_config(epochs=40))  # fast settings for the test machine

    nav(page, "Ingest")
    wait_workspace(page, "docs")  # not back on the default workspace
    page.get_by_role("tab", name="Documents").click()
    page.locator("input[type=file][multiple]").set_input_files(
        [{"name": "hobbiton.txt", "mimeType": "text/plain", "buffer": (DOCS / "hobbiton.txt").read_bytes()},
         {"name": "empty.txt", "mimeType": "text/plain", "buffer": b"   "}])
    page.get_by_role("button", name="Ingest documents").click()
    page.get_by_text("1 of 2 file(s) failed").wait_for()
    assert page.get_by_text(re.compile(r"Ingestion finished in [^,]*\.$")).count() == 0  # no plain success
    page.reload()
    wait_page(page, "Ingest")
    wait_workspace(page, "docs")
    page.get_by_role("tab", name="Documents").click()
    page.get_by_text("Documents in this workspace").wait_for()
    failed = [d for d in _document_rows(app.root / "docs") if d["title"] == "empty.txt"]
    assert failed and failed[0]["status"] == "failed"

    nav(page, "Build")
    wait_workspace(page, "docs")
    page.get_by_role("button", name="Start build").click()
    page.get_by_role("heading", name="Building…").wait_for()
    assert page.get_by_role("button", name="Start build").is_disabled()
    page.reload()  # mid-build (the worker process is still starting or training)
    wait_page(page, "Build")
    wait_workspace(page, "docs")
    page.get_by_text(re.compile(r"The build (finished|failed)")).wait_for(timeout=600_000)
    assert page.get_by_text("The build finished").count() == 1, page.get_by_text("The build failed").inner_text()

    nav(page, "Ask")
    wait_workspace(page, "docs")
    assert page.get_by_text("Pick an example question").count() == 0  # the demo's examples stay on the demo
    ask(page, "Which film set is near Matamata and was built for The Fellowship of the Ring?")
    page.get_by_text("Answer", exact=True).wait_for()
    # the supporting sentences, cited by the document's title (never a chunk id), and the passage one click away
    page.get_by_text("From 1 document: Hobbiton Movie Set").wait_for()
    cited = page.locator("blockquote").filter(has_text="It was built for The Lord of the Rings")
    assert "Hobbiton Movie Set" in cited.first.inner_text() and ":p0:c" not in cited.first.inner_text()
    page.get_by_text("Open Hobbiton Movie Set at this passage").last.click()
    page.locator("mark").filter(has_text="It was built for The Lord of the Rings").first.wait_for()
    no_exception(page)
    select_workspace(page, "small")
    page.get_by_text("Ask a question with two or more conditions").wait_for()
    assert outside_requests(page.requests, app.url) == []


def _document_rows(ws: Path) -> list[dict]:
    """What the Documents table shows (its canvas grid is not text): the same sources as the page."""
    import sgrag
    from sgrag_app.tasks import unreadable_files
    w = sgrag.Workspace(ws)
    rows = [{"title": d.title, "status": d.status} for d in sgrag.list_documents(w)]
    return rows + [{"title": n, "status": "failed"} for n in unreadable_files(w)]


# The GNN row's text once it differs from ``prev``, with the animations running in the page's main
# area at that moment (read in one evaluation, in the frame the new progress was drawn).
_GNN_ROW_MOVED = """prev => {
    const row = [...document.querySelectorAll('[data-testid="stProgress"]')]
        .find(e => e.innerText.includes('GNN training'));
    if (!row || row.innerText === prev) return false;
    const main = document.querySelector('[data-testid="stMain"]');
    const running = document.getAnimations().filter(a => a.effect && main.contains(a.effect.target));
    return {text: row.innerText, running: running.map(a => a.transitionProperty || a.animationName)};
}"""


def test_build_progress_moves_without_reload_and_without_animations(app, browser):
    """The Build page re-reads a running build by itself (no refresh), with counts and time left, and draws
    each poll at once: no fade or glide keeps the browser busy (and off the build's cores) between polls."""
    make_workspace(app.root / "slow", build=False, epochs=100_000)  # ~1% of the bar a poll; cancelled before the end
    page = open_app(app, browser, "/build?ws=slow")
    wait_page(page, "Build")
    wait_workspace(page, "slow")
    page.get_by_role("button", name="Start build").click()
    row = page.get_by_test_id("stProgress").filter(has_text="GNN training")
    row.wait_for()
    seen = [row.inner_text()]
    for _ in range(2):  # two polls, each with new counts
        moved = page.wait_for_function(_GNN_ROW_MOVED, arg=seen[-1], polling="raf").json_value()
        assert moved["running"] == [], moved
        seen.append(moved["text"])
    counts = [int(re.search(r"GNN training\s*([\d,]+) /", t).group(1).replace(",", "")) for t in seen]
    assert counts == sorted(counts) and counts[0] < counts[-1], seen
    assert "left" in seen[-1], seen[-1]  # the time left is shown
    assert page.get_by_role("button", name="Start build").is_disabled()
    page.get_by_role("button", name="Cancel").click()
    page.get_by_text("The build was cancelled").wait_for()
    assert not Workspace(app.root / "slow").index_version
    no_exception(page)

