"""Ask page: answer + trace panels, examples, link override, escaped labels, readable errors."""
import json

from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import Q_DR, Q_XSS, XSS, ask, assert_clean, click, make_workspace, texts
from openai_stub import silent_server  # noqa: F401 (fixture)

from conftest import build_workspace, kinds_graph
from sgrag import Workspace

from sgrag_app import state as K
from sgrag_app.asking import Asked
from sgrag_app.render import TRACE_TABS, candidate_constraint_table, md


def test_ask_happy_path_shows_answer_and_every_panel(built_ws, make_app):
    at = ask(make_app(built_ws), Q_DR)
    assert not at.error, [e.value for e in at.error]
    assert "## Dominican Republic" in [m.value for m in at.markdown]
    assert [t.label for t in at.tabs][: len(TRACE_TABS)] == TRACE_TABS
    assert len(at.get("iframe")) >= 2  # query graph + matched subgraph
    assert "Drawn: 3 matched node(s) and 2 matched edge(s)" in texts(at)  # the match only, by default
    trace = at.session_state[K.TRACE]
    df = candidate_constraint_table(trace)
    assert df.iloc[0]["answer"] == "Dominican Republic"
    assert any(str(v).startswith("✓") for v in df.iloc[0].values)
    assert [b.label for b in at.get("download_button")] or True
    assert json.loads(json.dumps(trace.to_json()))["question"] == Q_DR


def test_example_question_fills_the_box(built_ws, make_app):
    at = make_app(built_ws)
    at.selectbox(key=K.EXAMPLE).select(Q_XSS)
    at.run()
    assert at.text_input(key=K.QUESTION).value == Q_XSS


def test_label_with_html_renders_escaped(built_ws, make_app):
    at = ask(make_app(built_ws), Q_XSS)
    heads = [m.value for m in at.markdown if m.value.startswith("## ")]
    assert heads and "<img" not in heads[0] and "&lt;img" in heads[0]
    assert md(XSS).count("<") == 0


def test_override_a_link_and_rerun(built_ws, make_app):
    at = ask(make_app(built_ws), Q_DR)
    at.text_input(key="ask.search.0").input("Havan")  # typed, not finished: the search finds it
    at.run()
    box = at.selectbox(key=f"{K.OVERRIDE_PREFIX}ask.0")
    assert box.options[0].startswith("Havana") and box.value == "hav"  # best hit first, and chosen
    click(at, "Re-run with these links")
    at.run()
    assert_clean(at)
    assert at.session_state[K.ASKED].links == (("Santo Domingo", "hav"),)  # what is asked now, and in the URL
    assert at.query_params["link"] in ("Santo Domingo::hav", ["Santo Domingo::hav"]) and Q_DR in str(at.query_params["q"])
    trace = at.session_state[K.TRACE]
    assert "hav" in [n.node_id for n in trace.query_graph.constraints]
    caption = next(c.value for c in at.caption if c.value.startswith("Re-run with corrected links"))
    assert "Havana" in caption


def test_empty_question_is_a_readable_error(built_ws, make_app):
    at = ask(make_app(built_ws), "   ")
    assert any("empty" in e.value for e in at.error)


def test_unbuilt_workspace_explains_what_to_do(tmp_path, make_app):
    ws = make_workspace(tmp_path / "ws" / "fresh", build=False)
    at = make_app(ws)
    assert_clean(at)
    assert "no built index" in texts(at)


def test_no_workspace_at_all(tmp_path, make_app):
    at = make_app(tmp_path / "empty-root" / "nothing")
    assert_clean(at)
    assert "No workspace" in texts(at)


def test_dead_endpoint_banner_then_offline_answers_without_calls(built_ws, make_app, silent_server):
    cfg = Workspace(built_ws).config()
    cfg.answer.mode, cfg.llm.base_url, cfg.llm.max_retries = "llm", silent_server.url, 0
    cfg.llm.timeout_s = cfg.llm.connect_timeout_s = cfg.llm.deadline_s = 1.0
    Workspace(built_ws).save_config(cfg)
    at = ask(make_app(built_ws), Q_DR)
    assert "## Dominican Republic" in [m.value for m in at.markdown]
    assert silent_server.connections == 1
    assert any("not answering" in w.value for w in at.warning)  # shown with the answer, not a run later
    ask(at, Q_XSS)
    assert silent_server.connections == 1  # marked down: answered offline, no request
    assert any("language model unavailable" in m.value for m in at.markdown)
    click(at, "Retry LLM")
    at.run()
    assert_clean(at)
    assert not any("not answering" in w.value for w in at.warning)


def test_an_error_replaces_the_previous_answer(built_ws, make_app):
    at = ask(make_app(built_ws), Q_DR)
    assert "## Dominican Republic" in [m.value for m in at.markdown]
    ask(at, "x" * 3000)  # refused: too long
    assert any("too long" in e.value for e in at.error)
    assert "## Dominican Republic" not in [m.value for m in at.markdown]


def test_override_caption_names_entities_not_ids(built_ws, make_app):
    at = ask(make_app(built_ws), Q_DR)
    at.session_state[K.ASKED] = Asked.of(Q_DR, {"Santo Domingo": "hav"})  # as a re-run with a corrected link leaves it
    at.run()
    caption = next(c.value for c in at.caption if c.value.startswith("Re-run with corrected links"))
    assert "Havana" in caption and "hav" not in caption.replace("Havana", "")


def test_the_answer_leads_with_the_exact_set_and_its_tie_break(built_ws, make_app):
    at = ask(make_app(built_ws), "Which country is a member of the World Bank?")
    marks = [m.value for m in at.markdown]
    assert "**2 entities satisfy every condition**" in marks
    assert any(md("Tie-break among 2") in i.value for i in at.info)  # the tie-break is shown (escaped)
    members = next(d.value for d in at.dataframe if "entity" in d.value.columns)
    assert set(members["entity"]) == {"Dominican Republic", "Haiti"}


def test_exactly_one_and_the_near_misses_with_the_conditions_they_fail(built_ws, make_app):
    at = ask(make_app(built_ws), Q_DR)
    assert "**Exactly one entity satisfies every condition**" in [m.value for m in at.markdown]
    table = next(d.value for d in at.dataframe if "every condition" in d.value.columns)
    assert table.iloc[0]["answer"] == "Dominican Republic" and table.iloc[0]["every condition"] == "✓"
    near = table[table["every condition"] == "✗"]
    assert "Haiti" in set(near["answer"])  # a World Bank member without Santo Domingo
    haiti = near[near["answer"] == "Haiti"].iloc[0]
    assert any(str(v).startswith("✗") for v in haiti.values)


def test_entities_of_another_kind_are_named_beside_the_exact_set(tmp_path, make_app):
    path = tmp_path / "ws" / "kinds"
    build_workspace(path, kinds_graph())
    at = ask(make_app(path), "Which award has nominated both Gorvath Rising and Teeble Days?")
    assert "**2 entities satisfy every condition**" in [m.value for m in at.markdown]
    members = next(d.value for d in at.dataframe if "entity" in d.value.columns)
    assert set(members["entity"]) == {"Best Zarnok Award", "Best Quibble Award"}
    assert any(c.value.startswith("Also joined to every condition") for c in at.caption)
    apart = next(d.value for d in at.dataframe if "why" in d.value.columns)
    assert dict(zip(apart["entity"], apart["why"])) == {"Freedonia": "not of the kind 'award'",
                                                        "Drama": "not of the kind 'award'"}


def test_the_partial_list_says_what_a_candidate_meeting_no_condition_rests_on():
    """On a graph read from documents each partial match shows how many conditions one document naming it names
    too: "0/2" conditions met but "2/2" named with it; a graph not read from documents shows no such column."""
    from sgrag.types import RankedAnswer
    from sgrag_app.render import partial_frame
    ranked = [RankedAnswer("a", "Igor Shafarevich", 3.0, (), ("q1", "q2"), {"document": 1.0}),
              RankedAnswer("b", "Moscow", 2.0, ("q1",), ("q2",), {"document": 0.5})]
    df = partial_frame(ranked, 2, 2)
    assert df.to_dict("records")[0] == {"candidate": "Igor Shafarevich", "met": "0/2",
                                        "same doc": "2/2", "score": 3.0}
    assert list(df["same doc"]) == ["2/2", "1/2"]
    plain = [RankedAnswer("a", "A", 2.0, ("q1",), ("q2",), {"document": 0.0})]
    assert list(partial_frame(plain, 2, 2).columns) == ["candidate", "met", "score"]
    # "Which *person* ...": the class word is a condition met or not, but no document names it more than another
    with_class = partial_frame(ranked, 3, 2)
    assert list(with_class["met"]) == ["0/3", "1/3"] and list(with_class["same doc"]) == ["2/2", "1/2"]
    # a candidate the question's words rule out says so, whatever its score
    ruled = partial_frame(ranked, 2, 2, {"b": "not a person"})
    assert list(ruled["ruled out"]) == ["", "not a person"]
    # and what one sentence naming it names too, where a sentence names any condition with a candidate
    said = [RankedAnswer("a", "Vik Pianos", 3.0, ("q1",), ("q2", "q3"), {"document": 1.0, "sentence": 1.0}),
            RankedAnswer("b", "Sol Mills", 2.9, ("q1",), ("q2", "q3"), {"document": 1.0, "sentence": 1 / 3})]
    assert list(partial_frame(said, 3, 3)["same sentence"]) == ["3/3", "1/3"]
    assert "same sentence" not in partial_frame(ranked, 2, 2).columns
    # and how much of the question's wording one sentence stating a fact of it holds
    worded = [RankedAnswer("a", "Tampere", 3.0, (), ("q1",), {"document": 1.0, "wording": 0.75}),
              RankedAnswer("b", "Espoo", 2.0, (), ("q1",), {"document": 1.0, "wording": 0.0})]
    assert list(partial_frame(worded, 1, 1)["wording"]) == ["75%", "0%"]
    assert "wording" not in partial_frame(ranked, 2, 2).columns


def test_the_partial_list_says_how_it_is_ordered():
    """A document graph ranks partial matches by their evidence: the note must not claim "more conditions first"
    when a candidate meeting fewer leads (Katy Gallagher 1/2 above First Gallagher Ministry 2/2)."""
    from sgrag.types import RankedAnswer
    from sgrag_app.render import partial_order_note
    by_count = [RankedAnswer("a", "A", 2.0, ("q1", "q2"), ()), RankedAnswer("b", "B", 3.0, ("q1",), ("q2",))]
    assert "more conditions come first" in partial_order_note(by_count)
    by_evidence = by_count[::-1]
    note = partial_order_note(by_evidence)
    assert "more conditions come first" not in note and "meeting fewer may come first" in note
