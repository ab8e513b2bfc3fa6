"""γ ranking: tie-breaking evidence among exact matches, and partial matches ordered by coverage."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgrag import Engine, GraphBuilder
from sgrag.query import build_query_graph
from conftest import build_workspace

MUSIC = "/film/film/music"
EDITOR = "/film/film/edited_by"
CAST = "/tv/tv_program/regular_cast./tv/regular_tv_appearance/actor"
PRODUCER = "/tv/tv_program/program_creator"
LANG = "/film/film/language"


def tie_graph():
    """Pairs of candidates that satisfy the same constraints and differ only in *how*."""
    b = GraphBuilder()
    for nid, label in [("newman", "Randy Newman"), ("en", "English Language"), ("fa", "Ragtime"),
                       ("fb", "Awakenings"), ("mlp", "Mary-Louise Parker"), ("weeds", "Weeds"),
                       ("ryan", "Ryan's Hope"), ("us", "United States of America")]:
        b.add_node(nid, label)
    b.add_edge("fa", "newman", MUSIC, "film music")
    b.add_edge("fb", "newman", EDITOR, "film edited by")
    for film in ("fa", "fb"):
        b.add_edge(film, "en", LANG, "film language")
    b.add_edge("weeds", "mlp", CAST, "tv program regular cast actor")
    b.add_edge("weeds", "mlp", PRODUCER, "tv program program creator")
    b.add_edge("ryan", "mlp", CAST, "tv program regular cast actor")
    b.add_edge("ryan", "us", "/tv/tv_program/country_of_origin", "tv program country of origin")
    for show in ("weeds", "ryan"):
        b.add_edge(show, "en", "/tv/tv_program/languages", "tv program languages")
    return b.build()


@pytest.fixture(scope="module")
def tie_engine(tmp_path_factory) -> Engine:
    path = tmp_path_factory.mktemp("ties") / "ws"
    build_workspace(path, tie_graph())
    return Engine.open(path)


def test_relation_named_in_the_question_breaks_the_tie(tie_engine):
    trace = tie_engine.ask("Which film features music by Randy Newman and is in the English Language?")
    assert trace.exact_count == 2  # both films are linked to both constraints
    first, second = trace.answer.ranked[:2]
    assert first.label == "Ragtime" and second.label == "Awakenings"
    assert first.features["relation_words"] > second.features["relation_words"]


def test_constraint_joined_by_several_relations_breaks_the_tie(tie_engine):
    trace = tie_engine.ask("Which TV show has Mary-Louise Parker as a regular cast member and as its creator, "
                           "in the English Language?")
    assert trace.exact_count == 2
    first, second = trace.answer.ranked[:2]
    assert first.label == "Weeds" and first.features["likelihood"] > second.features["likelihood"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sets(st.integers(0, 3)), min_size=1, max_size=6))
def test_partial_candidates_rank_by_constraints_satisfied_first(olympics_engine, satisfied_sets):
    """Whatever the other evidence says, satisfying more firm constraints always ranks higher."""
    eng = olympics_engine
    mentions, atype = eng.linker.link("Which country contains Paris, is the nationality of Jean Reno, "
                                      "and won medals at the 2008 and 2012 Summer Olympics?")
    qg = build_query_graph("q", mentions, atype)
    cons = qg.constraints
    assert len(cons) == 4 and all(n.confidence >= eng.config.query.soft_below for n in cons)
    g = eng.graph
    countries = [g.index_of[c] for c in ("fr", "de", "it", "es", "usa", "paris")]
    candidates = {countries[i]: {cons[j].qid: g.index_of[cons[j].node_id] for j in sat}
                  for i, sat in enumerate(satisfied_sets)}
    ranked = eng.ranker.rank(qg, candidates, 10)
    counts = [len(r.satisfied) for r in ranked]
    assert counts == sorted(counts, reverse=True)
