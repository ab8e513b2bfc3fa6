"""Explore page: entity search, capped neighbourhood view, relation filter, open in Ask."""
from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import assert_clean, click, texts

from sgrag_app import state as K

PAGE = "pages/explore.py"


def test_search_and_neighbourhood(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    assert_clean(at)
    at.text_input(key=K.EXPLORE_QUERY).input("Haiti")
    at.run()
    assert_clean(at)
    assert at.selectbox(key=K.EXPLORE_PICK).value == "ht"
    assert len(at.get("iframe")) == 1
    assert {b.proto.label for b in at.get("download_button")} == {"GraphML", "JSON"}  # the whole graph
    assert "Drawn: 4 of 4 nodes" in texts(at)
    at.number_input(key=K.EXPLORE_MAX).set_value(10)
    at.slider(key=K.EXPLORE_DEPTH).set_value(2)
    at.run()
    assert_clean(at)
    assert "Drawn: 7 of 7 nodes" in texts(at)


def test_relation_filter_and_cap(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    at.text_input(key=K.EXPLORE_QUERY).input("World Bank")
    at.run()
    at.multiselect(key=K.EXPLORE_RELATIONS).select("/organization/member_of")
    at.run()
    assert_clean(at)
    assert "Drawn: 3 of 3 nodes" in texts(at)


def test_cap_reports_n_of_m(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    at.text_input(key=K.EXPLORE_QUERY).input("Haiti")
    at.run()
    at.number_input(key=K.EXPLORE_MAX).set_value(5)
    at.slider(key=K.EXPLORE_DEPTH).set_value(3)
    at.run()
    assert_clean(at)
    assert "Drawn: 5 of 9 nodes" in texts(at) and "capped" in texts(at)


def test_unknown_entity_message(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    at.text_input(key=K.EXPLORE_QUERY).input("zzzzqqqq")
    at.run()
    assert_clean(at)
    assert "No entity matches" in texts(at) or at.selectbox(key=K.EXPLORE_PICK).value


def test_open_in_ask_prefills_question(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    at.text_input(key=K.EXPLORE_QUERY).input("Atlantis")
    at.run()
    click(at, "Open in Ask")
    at.run()
    assert_clean(at)
    assert "Atlantis" in (at.session_state[K.QUESTION] if K.QUESTION in at.session_state else
                          at.session_state[K.ASK_PREFILL])
