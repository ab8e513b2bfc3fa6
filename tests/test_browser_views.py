"""Graph views in a real browser (Chromium via Playwright): the default subgraph of a 4-edge match reads at a
glance, a node click shows its properties and expands its neighbours inside the sandboxed frame, and Explore
searches as you type. One served app on a workspace whose four conditions are hubs of 40 nodes each."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from app_support import small_config
from browser_support import (ask, launch, needs_chromium, new_page, no_exception, serve_app, wait_page,
                             wait_workspace)

from sgrag import Engine, GraphBuilder, Workspace

pytestmark = [pytest.mark.timeout(600), needs_chromium]
CONDITIONS = [("c1", "Zorblat City", "/location/location/contains"), ("c2", "Quindle Fund", "/organization/member_of"),
              ("c3", "Mirrow Pact", "/organization/signatory_of"),
              ("c4", "Trelk Language", "/location/country/official_language")]
QUESTION = ("Which country contains Zorblat City, is a member of the Quindle Fund, signed the Mirrow Pact "
            "and speaks Trelk Language?")
READABLE_PX = 12  # a label drawn smaller than this does not read at a glance


def views_graph():
    b = GraphBuilder()
    b.add_node("a", "Varnholt", "the answer")
    for cid, label, rel in CONDITIONS:
        b.add_node(cid, label)
        b.add_edge("a", cid, rel)
        for i in range(40):  # each condition is a hub: its neighbourhood would bury the match
            b.add_edge(f"{cid}-{i}", cid, rel)
            b.add_node(f"{cid}-{i}", f"{label} member {i}")
    b.add_node("p", "Paul")
    b.add_node("pr", "Paul Reubens")
    b.add_edge("p", "c1", "/film/film/featured_location")
    b.add_edge("pr", "c2", "/people/person/employer")
    return b.build()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("views") / "ws"
    ws = Workspace.create(root / "views", small_config())
    ws.save_source_graph(views_graph())
    Engine.build(ws.path)
    with serve_app(ws.path, root.parent / "streamlit.log") as url:
        yield SimpleNamespace(url=url)


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = launch(pw)
        try:
            yield b
        finally:
            b.close()


def graph_frame(page, timeout_s: float = 60):
    """The (sandboxed) frame drawing a graph with the click panel, once vis-network has laid it out."""
    deadline = page.evaluate("Date.now()") + timeout_s * 1000
    while page.evaluate("Date.now()") < deadline:
        for f in page.frames:
            try:
                if f != page.main_frame and not f.is_detached() and f.locator("#sg-panel").count() \
                        and f.evaluate("() => typeof network !== 'undefined' && network.getScale() > 0"):
                    return f
            except Exception:  # noqa: BLE001 - a frame replaced by a rerun while we look
                continue
        page.wait_for_timeout(300)
    raise AssertionError("no graph frame")


def drawn_labels(frame) -> list[dict]:
    """Each drawn node's label and its size on screen in CSS pixels (font size x zoom)."""
    return frame.evaluate("""() => nodes.get().map(n => ({label: n.label,
        px: (n.font && n.font.size ? n.font.size : 14) * network.getScale()}))""")


def click_node(frame, label: str) -> None:
    """Click the node drawn with ``label``, where vis-network put it (as a user does)."""
    xy = frame.evaluate("""label => { const n = nodes.get({filter: x => x.label === label})[0];
        return network.canvasToDOM(network.getPositions([n.id])[n.id]); }""", label)
    frame.locator("#mynetwork canvas").click(position=xy)


def test_default_subgraph_of_a_4_edge_match_reads_at_a_glance_and_a_click_shows_properties(app, browser):
    page = new_page(browser)
    page.goto(app.url + "/?ws=views", wait_until="domcontentloaded")
    wait_page(page, "Ask")
    wait_workspace(page, "views")
    ask(page, QUESTION)
    page.get_by_role("heading", name="Varnholt").wait_for()
    page.get_by_role("tab", name="Subgraphs").click()
    page.get_by_text("Drawn: 5 matched node(s) and 4 matched edge(s)").wait_for()
    frame = graph_frame(page)
    page.wait_for_timeout(1500)  # the layout settles and fits
    labels = drawn_labels(frame)
    assert sorted(x["label"] for x in labels) == sorted(["Varnholt"] + [c[1] for c in CONDITIONS])  # no neighbour
    assert min(x["px"] for x in labels) >= READABLE_PX, labels
    assert frame.evaluate("() => edges.length") == 4

    click_node(frame, "Zorblat City")
    panel = frame.locator("#sg-panel")
    panel.wait_for(state="visible")
    text = panel.inner_text()
    assert "Zorblat City" in text and "c1" in text and re.search(r"degree\s+42", text), text
    assert "condition" in text  # its role in the question
    frame.get_by_role("button", name=re.compile(r"Expand \d+ neighbours")).click()
    frame.wait_for_function("() => nodes.length > 5")
    assert frame.evaluate("() => nodes.length") <= 5 + 25  # EXPAND_CAP: a hub adds its first neighbours only

    frame.get_by_role("button", name=re.compile(r"Show neighbourhood")).click()
    frame.wait_for_function("() => nodes.length > 30")
    frame.get_by_role("button", name="Back to the match only").click()
    frame.wait_for_function("() => nodes.length === 5")
    no_exception(page)


def test_explore_searches_as_you_type_label_matches_first(app, browser):
    page = new_page(browser)
    page.goto(app.url + "/explore?ws=views", wait_until="domcontentloaded")
    wait_page(page, "Explore")
    box = page.get_by_label("Search an entity")
    box.wait_for()
    box.press_sequentially("Paul Reub", delay=60)  # no Enter: results follow the typing
    page.wait_for_function("""() => { const e = document.querySelector('input[aria-label^="Entity"]');
        return e && e.value.startsWith('Paul Reubens'); }""")  # the label that continues the text, not "Paul"
    frame = graph_frame(page)
    assert "Paul Reubens" in [x["label"] for x in drawn_labels(frame)]
    click_node(frame, "Quindle Fund")
    frame.locator("#sg-panel").wait_for(state="visible")
    assert "Quindle Fund" in frame.locator("#sg-title").inner_text()
    no_exception(page)
