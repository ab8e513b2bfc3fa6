"""The Ask page keeps its place and tells one truth, in a real browser (Chromium via Playwright).

One served app over two copies of the tiny built workspace: ``small`` (the default) and ``reload``
(rebuilt by the test while a page is open, as a CLI ``build`` would).
"""
from __future__ import annotations

import re
import shutil
import urllib.parse
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect
from app_support import Q_DR, Q_XSS, built_template  # noqa: F401 (fixture)
from browser_support import (ask, launch, needs_chromium, new_page, no_exception, serve_app, settle, wait_page,
                             wait_workspace)

from sgrag import Engine

pytestmark = [pytest.mark.timeout(600), needs_chromium]
HEADER_DR = "Exactly one entity satisfies every condition"


@pytest.fixture(scope="module")
def app(tmp_path_factory, built_template):
    root = tmp_path_factory.mktemp("browser_ask") / "ws"
    for name in ("small", "reload"):
        shutil.copytree(built_template, root / name)
    with serve_app(root / "small", root.parent / "streamlit.log") as url:
        yield SimpleNamespace(url=url, root=root)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = launch(pw)
        try:
            yield b
        finally:
            b.close()


def open_page(app, browser, path: str = ""):
    page = new_page(browser)
    page.goto(app.url + path, wait_until="domcontentloaded")
    return page


def answer_heading(page, text: str):
    return page.get_by_role("heading", name=text, exact=True)


def question_box(page):
    return page.get_by_label("Question", exact=True)


def test_refresh_and_a_shared_link_keep_the_question_and_its_answer(app, browser):
    page = open_page(app, browser)
    wait_page(page, "Ask")
    wait_workspace(page, "small")
    ask(page, Q_DR)
    answer_heading(page, "Dominican Republic").wait_for()
    page.wait_for_url(re.compile(r"[?&]q="))
    link = page.url
    page.reload()
    answer_heading(page, "Dominican Republic").wait_for()
    expect(question_box(page)).to_have_value(Q_DR)
    page.get_by_text(HEADER_DR).wait_for()
    other = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()  # a colleague's browser
    other.set_default_timeout(120_000)
    other.goto(link, wait_until="domcontentloaded")
    answer_heading(other, "Dominican Republic").wait_for()
    expect(question_box(other)).to_have_value(Q_DR)
    other.get_by_text("Asked in this workspace").wait_for()  # the workspace's history, in its sidebar
    no_exception(other)
    other.context.close()


def test_ask_route_opens_the_ask_page_and_an_unknown_workspace_is_reported(app, browser):
    page = open_page(app, browser, "/ask?ws=small&q=" + urllib.parse.quote(Q_DR))
    wait_page(page, "Ask")
    answer_heading(page, "Dominican Republic").wait_for()
    assert page.get_by_text("Page not found").count() == 0
    page = open_page(app, browser, "/?ws=small&q=" + urllib.parse.quote(Q_DR))  # the root is Ask at /ask
    page.wait_for_url(re.compile(r"/ask\?ws=small&q=Which"))
    answer_heading(page, "Dominican Republic").wait_for()
    page = open_page(app, browser, "/ask?ws=nope")
    wait_page(page, "Ask")
    page.get_by_text("There is no workspace named 'nope'").wait_for()
    no_exception(page)


def test_a_question_asked_while_the_index_reloads_is_answered(app, browser):
    page = open_page(app, browser, "/?ws=reload")
    wait_page(page, "Ask")
    wait_workspace(page, "reload")
    ask(page, Q_DR)
    answer_heading(page, "Dominican Republic").wait_for()
    Engine.build(app.root / "reload")  # as `sgrag build` would, while the page is open
    ask(page, Q_XSS)  # typed right after the index changed: waits for the new index, then answered
    page.get_by_role("heading", name=re.compile("img src=x")).wait_for()
    expect(question_box(page)).to_have_value(Q_XSS)
    no_exception(page)


def test_search_as_you_type_then_header_and_subgraphs_agree_after_a_correction(app, browser):
    page = open_page(app, browser, "/?ws=small&q=" + urllib.parse.quote(Q_DR))
    answer_heading(page, "Dominican Republic").wait_for()
    page.get_by_role("tab", name="Normalization").click()
    expander = page.get_by_text("Correct a link and re-run")
    expander.click()
    search = page.get_by_label("Search another entity for “Santo Domingo”")
    search.click()
    search.press_sequentially("Havan", delay=60)  # no Enter: results come as you type
    page.wait_for_function("() => { const e = document.querySelector('input[aria-label=\"“Santo Domingo” means\"]');"
                           " return e && e.value.startsWith('Havana'); }")  # the best hit, chosen
    settle(page)
    page.get_by_role("button", name="Re-run with these links").click()
    page.get_by_text(re.compile("Re-run with corrected links")).wait_for()
    settle(page)
    header = page.get_by_text(re.compile(r"satisf(y|ies) (every|\d+ of \d+)")).first.inner_text()
    page.get_by_role("tab", name="Subgraphs").click()
    caption = page.get_by_text(re.compile(r"^In the trace")).inner_text()
    if header.startswith("No entity"):  # a partial answer: the tab draws no answer
        assert "meeting every condition" not in caption and "partial" in caption
        assert page.get_by_text("meets only some conditions").is_visible()
    else:
        n = 1 if header.startswith("Exactly one") else int(re.match(r"(\d+)", header).group(1))
        assert ("the entity" if n == 1 else f"the {n} entities") in caption, (header, caption)
    no_exception(page)
