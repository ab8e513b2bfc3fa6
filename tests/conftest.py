"""Shared fixtures: tiny real-shaped graphs built into workspaces with the fast hash embedder."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from sgrag import Engine, GraphBuilder, SgragConfig, Workspace

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"

GOV = "/location/country/form_of_government"
MEDAL = "/olympics/olympic_participating_country/medals_won./olympics/olympic_medal_honor/olympics"
MEMBER = "/organization/organization_member/member_of./organization/organization_membership/organization"
CONTAINS = "/location/location/contains"
NATION = "/people/person/nationality"
ACTED = "/film/film/starring./film/performance/actor"


def olympics_graph():
    """Countries, governments, UN membership and Olympic medals: one exact answer (France)."""
    b = GraphBuilder()
    for nid, label in [("fr", "France"), ("de", "Germany"), ("it", "Italy"), ("es", "Spain"),
                       ("rep", "Republic"), ("mon", "Constitutional monarchy"), ("un", "United Nations"),
                       ("o08", "2008 Summer Olympics"), ("o12", "2012 Summer Olympics"),
                       ("o88", "1988 Summer Olympics"), ("paris", "Paris"), ("berlin", "Berlin"),
                       ("usa", "United States of America"), ("p1", "Jean Reno"), ("f1", "Leon"),
                       ("xss", "<img src=x onerror=alert(1)>")]:
        b.add_node(nid, label)
    for c in ("fr", "de", "it"):
        b.add_edge(c, "rep", GOV, "country form of government")
    b.add_edge("es", "mon", GOV, "country form of government")
    b.add_edge("usa", "rep", GOV, "country form of government")
    for c in ("fr", "de", "it", "es", "usa"):
        b.add_edge(c, "un", MEMBER, "organization member member of")
    for c in ("fr", "de", "es"):
        b.add_edge(c, "o08", MEDAL, "won medals at")
    for c in ("fr", "it", "es", "usa"):
        b.add_edge(c, "o12", MEDAL, "won medals at")
    b.add_edge("usa", "o88", MEDAL, "won medals at")
    b.add_edge("fr", "paris", CONTAINS, "location contains")
    b.add_edge("de", "berlin", CONTAINS, "location contains")
    b.add_edge("p1", "fr", NATION, "person nationality")
    b.add_edge("f1", "p1", ACTED, "film starring actor")
    b.add_edge("xss", "fr", CONTAINS, "location contains")
    return b.build()


NOMINATED = "/award/award_nominated_work/award_nominations./award/award_nomination/award"


def kinds_graph():
    """No class nodes: films, awards, people and places are typed only by their relation paths."""
    b = GraphBuilder()
    for label in ("Gorvath Rising", "Teeble Days", "Best Zarnok Award", "Best Quibble Award", "Zarnok Ceremony",
                  "Freedonia", "Drama", "Ann Plimsy", "Bob Mavrin", "Zork University", "Zork City", "Kelpie Yondu"):
        b.add_node(label.lower().replace(" ", "_"), label)
    edge = lambda s, rel, t: b.add_edge(s.lower().replace(" ", "_"), t.lower().replace(" ", "_"), rel, "")
    for film in ("Gorvath Rising", "Teeble Days"):
        edge(film, "/film/film/country", "Freedonia")
        edge(film, "/film/film/genre", "Drama")
        for award in ("Best Zarnok Award", "Best Quibble Award"):
            edge(film, NOMINATED, award)
    for award in ("Best Zarnok Award", "Best Quibble Award"):
        edge(award, "/award/award_category/category_of", "Zarnok Ceremony")
    edge("Freedonia", "/location/country/capital", "Zork City")
    for person in ("Ann Plimsy", "Bob Mavrin"):  # both people; only Ann is typed a celebrity
        edge(person, "/people/person/nationality", "Freedonia")
        edge(person, "/people/person/education", "Zork University")
    edge("Ann Plimsy", "/celebrities/celebrity/friend", "Kelpie Yondu")
    edge("Zork University", "/organization/organization/headquarters", "Zork City")
    edge("Zork City", "/location/location/containedby", "Freedonia")
    for film in ("Crump Falls", "Elbow Room"):
        b.add_node(film.lower().replace(" ", "_"), film)
        edge(film, "/film/film/country", "Freedonia")
        for company in ("Brastle Video", "Drizzt Pictures"):
            b.add_node(company.lower().replace(" ", "_"), company)
            edge(film, "/film/film/distributors./film/film_film_distributor_relationship/distributor", company)
    edge("Bob Mavrin", "/people/person/employment_history./business/employment_tenure/company", "Freedonia")
    edge("Elbow Room", "/film/film/release_date_s./film/film_regional_release_date/film_release_region", "Freedonia")
    b.add_node("zarnokia", "Zarnokia")  # a country the graph types only as the country of a film
    edge("Freedonia", "/film/film_subject/films", "Teeble Days")
    edge("Crump Falls", "/film/film/country", "Zarnokia")
    for i in range(40):  # the rest of the world: "person" and "film" are no generic phrases here
        b.add_node(f"p{i}", f"Place {i}")
        b.add_edge(f"p{i}", f"country{i % 4}", "/location/location/containedby", "")
    for i in range(4):
        b.add_node(f"country{i}", f"Country {i}")
    return b.build()


def fast_config() -> SgragConfig:
    cfg = SgragConfig()
    cfg.embed.backend = "hash"
    cfg.gnn.epochs = 20
    cfg.gnn.pairs_per_epoch = 256
    return cfg


def build_workspace(path: Path, graph, cfg: SgragConfig | None = None) -> Workspace:
    ws = Workspace.create(path, cfg or fast_config())
    ws.save_source_graph(graph)
    Engine.build(path)
    return ws


@pytest.fixture(scope="session")
def olympics_ws(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("olympics") / "ws"
    build_workspace(path, olympics_graph())
    return path


@pytest.fixture(scope="session")
def olympics_engine(olympics_ws) -> Engine:
    return Engine.open(olympics_ws)


def shared_or_skip(*parts: str) -> Path:
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} not present (the ../shared data sits beside the repo in CI)")
    return p


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test reports what its pages showed and its app's log."""
    report = (yield).get_result()
    if report.when == "call" and report.failed and "browser" in item.fixturenames:
        from browser_support import failure_report
        report.sections.append(("what the browser showed", failure_report()))


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module (each page opens in a fresh context)."""
    from browser_support import launch
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = launch(pw)
        try:
            yield b
        finally:
            b.close()
