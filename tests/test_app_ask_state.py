"""Ask keeps its place (the URL, the history, a question asked while the index loads or builds) and tells
one truth (card, badge, Subgraphs tab and candidate table read the same verdict); document answers cite
their documents by title with the passage."""
import json
import shutil
import threading
from dataclasses import replace
from pathlib import Path

from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import APP, Q_DR, Q_XSS, XSS, ask, assert_clean, click, run_loaded, small_config, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import build_workspace, kinds_graph
from sgrag import Engine, Workspace, ingest
from sgrag.passages import Passage, document_titles, locate
from sgrag.types import Answer, Condition
from sgrag_app import state as K
from sgrag_app.asking import HISTORY_MAX, Asked, asked_from_params, read_history, record_question
from sgrag_app.render import passage_html, verdict_badge

DOCS = Path(__file__).resolve().parent.parent / "assets" / "docs"
Q_HOBBITON = "Which film set is near Matamata and was built for The Fellowship of the Ring?"


def answers(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("## ")]


def url_app(ws_path: Path, monkeypatch, **params):
    """A new session opened on a link: ``?ws=…&q=…&link=…``."""
    from streamlit.testing.v1 import AppTest
    monkeypatch.setenv("SGRAG_WORKSPACE", str(ws_path))
    at = AppTest.from_file(str(APP), default_timeout=90)
    for k, v in params.items():
        at.query_params[k] = v
    return run_loaded(at)


# ---- the URL is the state ------------------------------------------------------------------------
def test_asking_puts_the_question_in_the_url_and_a_link_reproduces_the_answer(built_ws, make_app, monkeypatch):
    at = ask(make_app(built_ws), Q_DR)
    assert answers(at) == ["## Dominican Republic"]
    assert Q_DR in str(at.query_params["q"])
    shared = url_app(built_ws, monkeypatch, ws="small", q=Q_DR)  # a colleague opens the link (or a refresh)
    assert_clean(shared)
    assert answers(shared) == ["## Dominican Republic"]
    assert shared.text_input(key=K.QUESTION).value == Q_DR


def test_a_link_with_a_correction_reproduces_the_corrected_answer(built_ws, monkeypatch):
    at = url_app(built_ws, monkeypatch, ws="small", q=Q_DR, link="Santo Domingo::hav")
    assert_clean(at)
    trace = at.session_state[K.TRACE]
    assert "hav" in [n.node_id for n in trace.query_graph.constraints]
    assert any(c.value.startswith("Re-run with corrected links") and "Havana" in c.value for c in at.caption)


def test_url_parameters_are_parsed_leniently():
    class Params(dict):
        def get_all(self, k):
            v = self.get(k)
            return v if isinstance(v, list) else ([v] if v else [])
    assert asked_from_params(Params()) is None
    assert asked_from_params(Params(q="   ")) is None
    a = asked_from_params(Params(q=" Which? ", link=["A::x", "broken", "::y", "B::C::z"]))
    assert a == Asked("Which?", (("A", "x"), ("B::C", "z")))  # a malformed correction is dropped


def test_switching_workspace_empties_the_box_and_the_url(built_ws, make_app):
    shutil.copytree(built_ws, built_ws.parent / "twin")
    at = ask(make_app(built_ws), Q_DR)
    at.selectbox(key=K.WORKSPACE).select("twin")
    run_loaded(at)
    assert_clean(at)
    assert at.text_input(key=K.QUESTION).value == "" and answers(at) == []
    assert "q" not in at.query_params


# ---- history -------------------------------------------------------------------------------------
def test_history_is_kept_in_the_workspace_newest_first_and_clicking_one_asks_it(built_ws, make_app):
    at = ask(ask(make_app(built_ws), Q_DR), Q_XSS)
    assert [a.question for a in read_history(built_ws)] == [Q_XSS, Q_DR]
    at.run()
    labels = [b.label for b in at.button if b.key and b.key.startswith(K.HISTORY_PICK)]
    assert len(labels) == 2 and all("<img" not in lb for lb in labels)  # the label's HTML is escaped
    next(b for b in at.button if b.key == f"{K.HISTORY_PICK}1").click()
    at.run()
    assert_clean(at)
    assert answers(at) == ["## Dominican Republic"] and at.text_input(key=K.QUESTION).value == Q_DR


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["a?", "b?", "c?", XSS, "d?" * 3]) | st.text(min_size=1, max_size=30), max_size=45))
def test_history_is_bounded_unique_and_newest_first(tmp_path_factory, questions):
    ws = tmp_path_factory.mktemp("hist")
    for q in questions:
        record_question(ws, Asked.of(q))
    kept = [a.question for a in read_history(ws)]
    asked = [q.strip() for q in questions if q.strip()]
    assert len(kept) == len(set(kept)) <= HISTORY_MAX
    if asked:
        assert kept[0] == asked[-1]
    expected = list(dict.fromkeys(reversed([Asked.of(q).question for q in questions])))[:HISTORY_MAX]
    assert kept == [q for q in expected if q]


def test_a_damaged_history_file_reads_as_empty(tmp_path):
    (tmp_path / "app_history.json").write_text("{not json", encoding="utf-8")
    assert read_history(tmp_path) == []
    record_question(tmp_path, Asked.of("Which?"))
    assert json.loads((tmp_path / "app_history.json").read_text())["questions"][0]["q"] == "Which?"


# ---- questions that wait -------------------------------------------------------------------------
def test_a_question_asked_while_a_new_index_loads_is_answered(built_ws, make_app):
    at = make_app(built_ws)
    Engine.build(built_ws)  # a CLI build while the page is open: a new index version to load
    at.text_input(key=K.QUESTION).input(Q_DR)
    click(at, "Ask")
    at.run()
    assert_clean(at)
    waiting = "is answered as soon as the index is ready" in texts(at)
    run_loaded(at)
    assert answers(at) == ["## Dominican Republic"], (waiting, texts(at))
    assert at.text_input(key=K.QUESTION).value == Q_DR


def test_a_workspace_being_built_says_so_and_answers_when_done(tmp_path, make_app, monkeypatch):
    from app_support import make_workspace
    from sgrag_app.jobs import Job
    from sgrag_app.runtime import job_registry
    path = make_workspace(tmp_path / "ws" / "fresh", build=False)
    release = threading.Event()

    def fake_build(job):  # the real build, held back until the test has looked at the page
        release.wait(60)
        return Engine.build(path)
    job = job_registry().start("build", str(path.resolve()), Job("build", str(path.resolve()), fake_build))
    try:
        at = url_app(path, monkeypatch, ws="fresh", q=Q_DR)
        assert_clean(at)
        assert "'fresh' is building, 0% — questions answer when done" in texts(at)
        assert "has no built index yet" not in texts(at)
        assert "is answered as soon as the index is ready" in texts(at)
    finally:
        release.set()
        job.wait(120)
    run_loaded(at)
    assert answers(at) == ["## Dominican Republic"]


def test_a_workspace_built_from_the_cli_says_so_and_answers_when_done(tmp_path, make_app, monkeypatch):
    """A writer the app did not start (``sgrag build`` in a terminal) is seen through the workspace lock and the
    progress file every build writes: first who and since when, then how far, then the answer."""
    import os
    from app_support import make_workspace
    from sgrag.types import Progress, no_progress
    from sgrag.workspace import ProgressFile
    path = make_workspace(tmp_path / "ws" / "fresh", build=False)
    ws, held, release = Workspace(path), threading.Event(), threading.Event()

    def outside_writer():  # holds the real lock, as the CLI process would
        with ws.writer("build"):
            held.set()
            release.wait(60)
    t = threading.Thread(target=outside_writer)
    t.start()
    try:
        assert held.wait(10)
        at = url_app(path, monkeypatch, ws="fresh", q=Q_DR)
        assert_clean(at)
        page = texts(at)
        assert f"A build is running (started by `sgrag build`, pid {os.getpid()}, since" in page
        assert "questions answer when done" in page and "has no built index yet" not in page
        assert "is answered as soon as the index is ready" in page
        ProgressFile(ws, no_progress)(Progress("embeddings", 3, 6, "embedding labels"))
        at.run()
        assert_clean(at)
        assert f"'fresh' is building (by `sgrag build`, pid {os.getpid()}), 8% — questions answer when done" \
            in texts(at)
    finally:
        release.set()
        t.join(30)
    assert ws.running_writer() is None  # released: the page stops waiting on it
    Engine.build(path)
    run_loaded(at)
    assert answers(at) == ["## Dominican Republic"]
    assert not (path / ".sgrag.progress.json").exists()  # a finished build leaves no progress behind


def test_a_lock_note_left_by_a_dead_writer_is_not_a_running_build(tmp_path):
    from app_support import make_workspace
    path = make_workspace(tmp_path / "ws" / "w", build=False)
    (path / ".sgrag.lock").write_text(json.dumps({"pid": 2 ** 22 + 12345, "command": "build", "since": 0,
                                                  "host": __import__("socket").gethostname()}))
    assert Workspace(path).running_writer() is None and Workspace(path).build_progress() == {}


def test_a_link_correction_naming_no_node_is_reported_not_silently_ignored(built_ws, monkeypatch):
    at = url_app(built_ws, monkeypatch, ws="small", q=Q_DR, link="Santo Domingo::no-such-node")
    assert_clean(at)
    trace = at.session_state[K.TRACE]
    assert "no-such-node" not in [n.node_id for n in trace.query_graph.constraints]
    assert "link correction for 'Santo Domingo' names no node of this graph (id 'no-such-node'); ignored" \
        in trace.notes
    assert any("names no node of this graph" in w.value and "no\\-such\\-node" in w.value for w in at.warning), \
        [w.value for w in at.warning]
    assert not any(c.value.startswith("Re-run with corrected links") for c in at.caption)
    assert answers(at) == ["## Dominican Republic"]  # answered as if uncorrected


# ---- one verdict -----------------------------------------------------------------------------------
def test_card_subgraphs_and_table_read_the_same_verdict(tmp_path, make_app):
    path = tmp_path / "ws" / "kinds"
    build_workspace(path, kinds_graph())
    at = ask(make_app(path), "Which award has nominated both Gorvath Rising and Teeble Days?")
    trace = at.session_state[K.TRACE]
    exact = [m for m in trace.matches if m.exact]
    roles = {trace.match_role(m) for m in exact}
    assert roles == {"answer", "set apart"}  # the edges hold for 4 entities; the verdict keeps 2
    assert "**2 entities satisfy every condition**" in [m.value for m in at.markdown]
    assert any(m.value.startswith(":green-badge[meets all 2 conditions]") for m in at.markdown)
    cap = next(c.value for c in at.caption if c.value.startswith("In the trace"))
    assert "the 2 entities meeting every condition used" in cap and "2 set apart" in cap
    box = next(s for s in at.selectbox if s.key and s.key.endswith(K.MATCH_PICK))
    assert box.options[0].startswith("the answers")
    assert sum("set apart" in o for o in box.options) == 2
    table = next(d.value for d in at.dataframe if "every condition" in d.value.columns)
    assert set(table[table["every condition"] == "✓"]["answer"]) == {"Best Zarnok Award", "Best Quibble Award"}


def test_a_partial_answer_is_partial_on_the_card_and_in_the_subgraphs_tab(built_ws, make_app):
    at = ask(make_app(built_ws), "Which country is home to Santo Domingo and a member of the Pirate League?")
    trace = at.session_state[K.TRACE]
    assert not trace.answer.exact_set  # nothing meets both
    marks = " ".join(m.value for m in at.markdown)
    assert "No entity satisfies every condition" in marks and ":orange-badge[meets only some conditions]" in marks
    assert "green-badge" not in marks
    cap = next(c.value for c in at.caption if c.value.startswith("In the trace"))
    assert "partial" in cap and "meeting every condition" not in cap
    box = next(s for s in at.selectbox if s.key and s.key.endswith(K.MATCH_PICK))
    assert box.options[0].startswith("all matches") and all("meets every" not in o for o in box.options)


# ---- documents -----------------------------------------------------------------------------------
def _docs_ws(path: Path) -> Path:
    Workspace.create(path, small_config(epochs=40))
    report = ingest(Workspace(path), [DOCS / "hobbiton.txt", DOCS / "alcazar_de_colon.txt"], Workspace(path).config())
    assert not report.failed
    Engine.build(path)
    return path


def test_document_answers_cite_the_title_and_open_the_passage(tmp_path, make_app):
    path = _docs_ws(tmp_path / "ws" / "docs")
    at = ask(make_app(path), Q_HOBBITON)
    assert answers(at) == ["## Hobbiton Movie Set"]
    marks = [m.value for m in at.markdown]
    assert "From 1 document: *Hobbiton Movie Set*" in marks
    cited = [m for m in marks if m.startswith("**Hobbiton Movie Set**") and "— *Hobbiton Movie Set*" in m]
    assert cited and not any(":p0:c" in m for m in marks)  # titles, never chunk ids
    assert any("Fellowship of the Ring, which was directed" in m for m in cited)
    assert any(e.label == "Open *Hobbiton Movie Set* at this passage" for e in at.expander)
    html = " ".join(str(h.proto.body) for h in at.get("html"))
    assert "<mark>It was built for The Lord of the Rings: The Fellowship of the Ring" in html
    sub = next(d.value for d in at.dataframe if "document" in d.value.columns)
    assert set(sub["document"]) == {"Hobbiton Movie Set"}


def test_locate_finds_the_sentence_in_the_stored_document(tmp_path):
    path = _docs_ws(tmp_path / "docs")
    ws = Workspace(path)
    e = Engine.open(path)
    trace = e.ask("Which palace in Santo Domingo was built by Diego Colón?")
    edges = [x for x in trace.answer_evidence() if x.sentence]
    assert edges and set(document_titles(ws).values()) == {"Hobbiton Movie Set", "Alcázar de Colón"}
    for x in edges:
        p = locate(ws, x.source, x.sentence)
        assert p.title == "Alcázar de Colón" and p.text[p.start:p.end] == x.sentence


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200), st.text(min_size=1, max_size=60), st.text(max_size=200))
def test_a_passage_is_escaped_whatever_the_document_says(before, sentence, after):
    text = before + sentence + after
    out = passage_html(Passage("d", "t", 0, text, len(before), len(before) + len(sentence)))
    inner = out.split(">", 1)[1].rsplit("</div>", 1)[0]
    assert inner.replace("<mark>", "").replace("</mark>", "").count("<") == 0
    assert inner.count("<mark>") == 1



def test_the_card_badge_tells_joined_to_every_condition_from_meeting_some():
    used = tuple(Condition(t, t, "used") for t in ("musical", "Rodgers", "Hammerstein"))
    apart = Answer("Carousel", "doc:carousel", False, 0.6, (), ("Carousel",), (), "", conditions=used)
    assert verdict_badge(apart) == ":orange-badge[joined to every condition, not proven]"
    some = replace(apart, conditions=used[:2] + (Condition("Hammerstein", "Hammerstein", "relaxed"),))
    assert verdict_badge(some) == ":orange-badge[meets only some conditions]"
    none = replace(apart, conditions=tuple(Condition(t, t, "relaxed") for t in ("musical", "Rodgers", "Hammerstein")))
    assert verdict_badge(none) == ":orange-badge[meets none of the conditions]"
    ranks = replace(none, conditions=(Condition("director", "director", "ranks", met=True),) + none.conditions[1:])
    assert verdict_badge(ranks) == ":orange-badge[meets only some conditions]"  # as the verdict counts: 1 of 3
    assert verdict_badge(replace(apart, exact=True)) == ":green-badge[meets all 3 conditions]"
    assert verdict_badge(replace(some, exact=True)) == ":orange-badge[meets 2 of 3 conditions]"
    loose = replace(apart, exact=True, conditions=used[:2] + (Condition("Hammerstein", "Hammerstein", "unchecked"),))
    assert verdict_badge(loose) == ":orange-badge[joined to every condition, a relation not checked]"


def test_a_fact_the_sentence_does_not_state_says_how_it_was_read():
    """An inferred or co-occurrence edge quotes a sentence that does not state it: the reader is told how it was
    read; a fact the sentence states gets no note."""
    from sgrag.passages import how_read
    assert how_read("d:p0:c0@0-50|contained|0.65|0-50").startswith("inferred")
    assert how_read("d:p0:c0@0-50|document+pronoun|0.26|0-50") == "only named in the same article"
    assert how_read("d:p0:c0@0-50|svo|0.85|0-50") == "" and how_read("") == ""


def test_two_readings_of_one_sentence_are_quoted_once():
    """The parse's "flows through" and the rule reader's "flow through" of one sentence share one quote; another
    sentence of the same document gets its own."""
    from types import SimpleNamespace
    from sgrag_app.render import sentence_groups
    said = "The Rhine flows through Lake Constance."
    edge = lambda rel, src, sentence=said: SimpleNamespace(relation=rel, source=src, sentence=sentence)
    cited = [(edge("flows through", "d:p0:c0@0-39|svo|0.85|4-38"), None),
             (edge("flow through", "d:p0:c0@0-39|rules|0.8|0-39"), None),
             (edge("empties into", "d:p0:c0@40-70|svo|0.85|44-69", "It empties into the North Sea."), None)]
    groups = list(sentence_groups(cited).values())
    assert [[e.relation for e, _ in g] for g in groups] == [["flows through", "flow through"], ["empties into"]]


def test_the_same_fact_read_twice_from_one_sentence_is_shown_once():
    """"A Pál utcai fiúk — novel by → Ferenc Molnár" read by the parse and by the rule reader is one line under its
    sentence; a different relation of the same sentence keeps its own."""
    from types import SimpleNamespace
    from sgrag_app.render import evidence_lines
    said = "A Pál utcai fiúk is a youth novel by the Hungarian writer Ferenc Molnár."
    edge = lambda rel, dst, how: (SimpleNamespace(relation=rel, src_label="A Pál utcai fiúk", dst_label=dst,
                                                   source=f"d:p0:c0@0-72|{how}|0.9|0-72", sentence=said), None)
    lines = evidence_lines([edge("novel by", "Ferenc Molnár", "copula"), edge("novel by", "Ferenc Molnár", "rules"),
                            edge("is a", "youth novel", "class")])
    assert len(lines) == 2 and "novel by" in lines[0] and "youth novel" in lines[1]
