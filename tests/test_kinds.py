"""Coarse kinds on graphs read from documents: each name's kind from NER and its stated class, the kind a question's
answer type asks for, and answers of that kind first (a person never answers "Which league")."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sgrag import Engine, GraphBuilder
from sgrag.kinds import COARSE_KINDS, NodeKinds, asked_kind, base_kinds, majority_kind, named_kind
from sgrag.schema import class_only_nodes
from conftest import build_workspace, fast_config


def _kinds(text: str) -> dict[str, tuple[str, str]]:
    from sgrag.dependency import ParseExtractor
    found = ParseExtractor().extract_text(text)
    return {r.source: (r.target, r.how) for r in found.relations if r.relation == "is a" and r.target in COARSE_KINDS}


def test_each_name_gets_the_coarse_kind_ner_and_its_class_give():
    """A government (ORG), a town (GPE), a writer NER calls a person and a novel its text calls one get their kinds,
    marked as read from NER; the politician the text calls one is a person for sure (its class edge)."""
    kinds = _kinds("Katy Gallagher is an Australian politician. The First Gallagher Ministry was the government of "
                   "the Australian Capital Territory. The Lost Metal is a novel by Brandon Sanderson, published by "
                   "Tor Books in New York. The Battle of Hastings was fought in 1066.")
    assert kinds["First Gallagher Ministry"] == ("organization", "ner")
    assert kinds["Australian Capital Territory"][0] == "place"
    assert kinds["Lost Metal"][0] == "work"  # its stated class beats NER's ORG
    assert kinds["Brandon Sanderson"][0] == "person"
    assert kinds["Tor Books"][0] == "organization"
    assert kinds["New York"][0] == "place"
    assert kinds["Battle of Hastings"][0] == "event"
    assert kinds["Katy Gallagher"] == ("person", "class")
    assert _kinds("Erwin Rommel led the German forces at Kasserine.")["German"] == ("nationality or group", "ner")


def test_a_kind_is_the_majority_of_the_mentions_and_none_on_a_tie():
    assert majority_kind(Counter({"ORG": 3, "PERSON": 1})) == "organization"
    assert majority_kind(Counter({"GPE": 1, "FAC": 1, "ORG": 1})) == "place"  # GPE and FAC are both places
    assert majority_kind(Counter({"ORG": 1, "PERSON": 1})) is None
    assert majority_kind(Counter({"PROPN": 4, "LANGUAGE": 2})) is None
    assert majority_kind(Counter({"PROPN": 4, "NORP": 2})) == "nationality or group"


def test_a_name_s_head_noun_names_its_kind_only_where_names_mean_it():
    assert named_kind("Bank of America", "organization") == "organization"
    assert named_kind("Siege of Leningrad", None) == "event"
    assert named_kind("Dire Straits", "person") is None  # a band borrowing a place noun
    assert named_kind("Tor Books", "organization") is None  # "books" names works, not the publisher
    assert named_kind("Eurovision Song Contest 1977", "organization") == "event"  # an edition: its year after the name
    assert named_kind("Contest 1977", "organization") is None  # no name left before the year
    assert named_kind("Lake", None) is None
    # a ceremony or competition held again and again is an event; "Games" ends companies' names as often
    assert named_kind("79th Academy Awards", "organization") == "event" == named_kind("FA Cup", None)
    assert named_kind("Midway Games", "organization") is None
    # a polity is a place, as a country is: "the Grand Duchy of Finland", "the Ottoman Empire"
    assert named_kind("Grand Duchy of Finland", "place") == "place" == named_kind("Ottoman Empire", None)


@pytest.mark.parametrize("answer_type, kind", [
    ("singer", "person"), ("Labor politician", "person"), ("actress", "person"), ("pianist", "person"),
    ("league", "organization"), ("publisher", "organization"), ("record label", "organization"),
    ("chapel", "place"), ("county", "place"), ("lighthouse", "place"),
    ("film", "work"), ("musical", "work"), ("battle", "event"), ("tournament", "event"),
    ("kingdom", "place"), ("empire", "place"), ("duchy", "place"), ("sultanate", "place"),
    ("design bureau", "organization"), ("Venus probe", "product"),
    ("cinematographer", "person"), ("bookseller", "person"), ("Greek god", "person"), ("Count of Provence", "person"),
    ("telenovela", "work"), ("memoir", "work"), ("ferry operator", "organization"), ("Florentine gallery", "place"),
    ("shipyard", "place"), ("fjord", "place"), ("French marshal", "person"), ("waltz", "work"),
    ("tributary", "place"), ("Dutch-born shipbuilder", "person"), ("1215 document", "law"),
    ("person", "person"), ("people", "person"), ("date", None), ("year", None), ("entity", None), ("one", None),
    ("widget", None)])
def test_the_kind_an_answer_type_asks_for(answer_type, kind):
    assert asked_kind(answer_type, base_kinds(), question=f"Which {answer_type} is it?") == kind


def test_a_who_question_asks_for_no_kind_unless_it_says_person():
    # "Who" reads as the answer type "person", but may ask for a publisher or a band
    assert asked_kind("person", base_kinds(), question="Who published Mistborn?") is None
    assert asked_kind("person", base_kinds(), question="Who is the person that published Mistborn?") == "person"


def test_a_class_noun_the_lexicon_lacks_is_learned_from_its_members():
    """Three NER persons are "luthiers" (a class noun no lexicon lists): "Which luthier" asks for a person."""
    b = GraphBuilder()
    for name in ("Ana Vik", "Bo Lund", "Cy Moe"):
        b.add_node(name, name)
        for tail, how in (("luthier", "class"), ("person", "ner")):
            b.add_node(tail, tail)
            b.add_edge(name, tail, "is a", "", sources=(f"d:{name}:p0:c0@0-5|{how}|0.5|0-5",))
    kinds = NodeKinds.of_graph(b.build())
    assert kinds.learned == {"luthier": "person"}
    assert asked_kind("luthier", {}, kinds.learned) == "person"


def coarse_graph():
    """Read from documents: the Huskies played in the Basketball League (an organisation) and beside Lou Hart (a
    person the text says is a coach); both are joined to the Huskies and to Toronto. Nora Dahl (a person by NER)
    and the Dahl Ministry (an organisation) both led the government; nothing is said of Canberra but where it is.
    Arena Hall (of no known kind), Maple Club (an organisation) and Mosman Park (a place) hosted the Huskies Cup.
    Ada Berg went to Maple Rowing Club and to the University of Toronto."""
    b = GraphBuilder()
    def edge(src, dst, rel, how="svo|0.85"):
        for x in (src, dst):
            b.add_node(x, x)
        sentence = f"{src} {rel} {dst}."
        b.add_edge(src, dst, rel, sentence, sources=(f"d:{src}:p0:c0@0-{len(sentence)}|{how}|0-{len(sentence)}",))
    edge("Basketball League", "Toronto Huskies", "included")
    edge("Basketball League", "Toronto", "based in")
    edge("Lou Hart", "Toronto Huskies", "coached")
    edge("Lou Hart", "Toronto", "born in")
    edge("Lou Hart", "Ray Olsen", "lived with")  # a person: "Where did Lou Hart live?" asks for no person
    edge("Lou Hart", "Toronto", "lived in")
    edge("Ray Olsen", "person", "is a", "class|0.9")
    edge("Basketball League", "organization", "is a", "ner|0.5")
    edge("Lou Hart", "coach", "is a", "class|0.9")
    b.add_node("person", "person")
    b.add_edge("Lou Hart", "person", "is a", "", sources=("d:Lou Hart:p0:c0",))  # a sure person: no how
    edge("Nora Dahl", "government", "led")
    edge("Dahl Ministry", "government", "led")
    edge("Nora Dahl", "person", "is a", "ner|0.5")
    edge("Dahl Ministry", "organization", "is a", "ner|0.5")
    edge("Canberra", "Australia", "located in")
    edge("Arena Hall", "Huskies Cup", "hosted")
    edge("Maple Club", "Huskies Cup", "hosted")
    edge("Maple Club", "organization", "is a", "ner|0.5")
    edge("Arena Hall", "Canberra", "near")  # as many edges as Maple Club: only their kinds differ
    edge("Mosman Park", "Huskies Cup", "hosted")  # a place: no answer to "Who hosted the Huskies Cup?"
    edge("Ada Berg", "Maple Rowing Club", "went to")  # alike but for the name that says it is a university
    edge("Ada Berg", "University of Toronto", "went to")
    edge("Mosman Park", "place", "is a", "ner|0.5")
    edge("Night Songs", "Kontor Label", "released by")  # an album, so the text says
    edge("Night Songs", "album", "is a", "class|0.9")
    edge("Night Songs", "work", "is a", "ner|0.5")
    edge("Night Songs", "Ivo Lind", "produced by")  # "the album produced by Ivo Lind" is Night Songs, not Day Songs
    edge("Day Songs", "Sun Label", "released by")
    edge("Day Songs", "album", "is a", "class|0.9")
    edge("Ivo Lind", "Night Songs", "produced")  # "Which producer's album Night Songs was released by Kontor Label?"
    edge("Ivo Lind", "producer", "is a", "class|0.9")
    edge("Rita Vale", "Mosaic Records", "released by")  # a singer NER took for an organisation
    edge("Rita Vale", "organization", "is a", "ner|0.5")
    edge("Edda Roe", "Blue Song", "performed")  # a singer NER alone took for an organisation ...
    edge("Edda Roe", "organization", "is a", "ner|0.5")
    edge("Amber Hour", "Netherlands", "entered for")  # ... and a song of no known kind: each meets one condition
    edge("German", "Erwin Rommel", "involved")  # a nationality word meets as much as a name of no known kind
    edge("German", "nationality or group", "is a", "ner|0.5")
    edge("Kasserine Pass", "Erwin Rommel", "involved")
    edge("Treaty of Bergen", "Queen Maud", "signed by")  # a treaty meets both conditions of "worked for Queen Maud in
    edge("Treaty of Bergen", "1905", "signed in")        # 1905"; a man of no known kind meets one
    edge("Treaty of Bergen", "law", "is a", "ner|0.5")
    edge("Karl Staaff", "Queen Maud", "advised")
    edge("Vik Treaty", "Ole Bull", "honoured")  # the only thing joined to Ole Bull, a treaty by its name
    edge("Vik Treaty", "law", "is a", "ner|0.5")
    edge("Freedom Party", "1912", "founded in")  # "a political party", so the text says
    edge("Freedom Party", "party", "is a", "class|0.9")
    edge("Vik Museum", "1913", "opened in")  # "an institution": a museum is one
    edge("Vik Museum", "institution", "is a", "class|0.9")
    return b.build()


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    cfg = fast_config()
    cfg.embed.backend = "minilm"
    path = tmp_path_factory.mktemp("kinds") / "ws"
    build_workspace(path, coarse_graph(), cfg)
    return Engine.open(path)


def test_a_person_is_set_apart_from_the_exact_set_when_the_question_asks_for_a_league(engine):
    a = engine.ask("Which league included the Toronto Huskies and is based in Toronto?").answer
    assert a.text == "Basketball League"
    assert "Lou Hart" not in a.exact_set
    trace = engine.ask("Which league included the Toronto Huskies and is based in Toronto?")
    assert any("clearly not an organization" in n for n in trace.notes)


def test_a_person_question_sets_apart_what_the_text_says_is_another_kind_but_not_what_only_ner_says(engine):
    """All that was released by the label is an album (a class the text states): "Which singer" gets no exact answer.
    A singer NER alone calls an organisation still answers (NER often mistypes people), when nothing else does."""
    trace = engine.ask("Which singer was released by Kontor Label?")
    assert "Night Songs" not in [r.label for r in trace.answer.exact_set]
    assert any("clearly not a person" in n and "Night Songs" in n for n in trace.notes)
    a = engine.ask("Which singer was released by Mosaic Records?").answer
    assert a.exact and [r.label for r in a.exact_set] == ["Rita Vale"]


def test_a_partial_match_of_the_asked_kind_ranks_above_one_of_another(engine):
    """Nothing meets "led the government" and "born in Canberra": of the two partial matches, equal in all else,
    the ministry NER calls an organisation ranks below the person, though its name sorts first."""
    a = engine.ask("Which politician led the government and was born in Canberra?").answer
    assert not a.exact
    ranked = [r.label for r in a.ranked]
    assert ranked.index("Nora Dahl") < ranked.index("Dahl Ministry")
    kind = {r.label: r.features["kind"] for r in a.ranked}
    assert kind["Nora Dahl"] == 1.0 and kind["Dahl Ministry"] == 0.0


def test_a_partial_match_ner_alone_calls_another_kind_than_a_person_still_ranks_by_its_evidence(engine):
    """"Which singer": the singer NER alone calls an organisation performed the song as asked; the song of no known
    kind is only joined to the Netherlands. NER often mistypes people, so the singer is not set behind every other
    partial match for it, and her fitting relation ranks her first."""
    a = engine.ask("Which singer from the Netherlands performed Blue Song?").answer
    assert not a.exact
    assert [r.label for r in a.ranked][:2] == ["Edda Roe", "Amber Hour"]


def test_a_candidate_of_the_asked_kind_ranks_first_in_the_exact_set(engine):
    """Three hosted the Huskies Cup; "Which club" asks for an organisation: Maple Club, so typed, before Arena Hall
    (of no known kind), before Mosman Park (a place by NER alone: ranked last, not left out), and the note says only
    the coarse kind was checked."""
    trace = engine.ask("Which club hosted the Huskies Cup?")
    a = trace.answer
    assert a.exact and [r.label for r in a.exact_set] == ["Maple Club", "Arena Hall", "Mosman Park"]
    assert "is of the kind the answer type asks for" in a.tie_break
    assert any("only its coarse kind (organization) was checked" in n for n in trace.notes)


def test_a_nationality_word_answers_no_battle(engine):
    """NER's NORP ("German") is filed as a nationality or group, which no battle, place, work, product or law is:
    "Which battle" and "Which singer" leave it out of the exact set, the name of no known kind stays (a people may
    still be an organisation's name: "the Democrats")."""
    trace = engine.ask("Which battle involved Erwin Rommel?")
    exact = [r.label for r in trace.answer.exact_set]
    assert "Kasserine Pass" in exact and "German" not in exact
    assert any("clearly not an event" in n and "(German)" in n for n in trace.notes)
    assert "German" in [r.label for r in engine.ask("Which organization involved Erwin Rommel?").answer.exact_set]
    a = engine.ask("Which singer involved Erwin Rommel?").answer
    assert "German" not in [r.label for r in a.exact_set] and "Kasserine Pass" in [r.label for r in a.exact_set]


def test_a_nationality_word_answers_no_who(engine):
    """"Who involved Erwin Rommel?": "German", a people, is no "who"; the name of no known kind may be."""
    trace = engine.ask("Who involved Erwin Rommel?")
    exact = [r.label for r in trace.answer.exact_set]
    assert "Kasserine Pass" in exact and "German" not in exact


def test_a_name_that_says_it_is_no_person_ranks_below_the_people_it_outscores(engine):
    """"Which minister worked for Queen Maud in 1905?": nothing meets both; the Treaty of Bergen, whose name says it is
    a treaty, meets both conditions through its own facts, yet ranks below the man who advised the queen (NER's kind
    alone would not set it apart: NER often mistypes people)."""
    a = engine.ask("Which minister worked for Queen Maud in 1905?").answer
    assert not a.exact
    ranked = [r.label for r in a.ranked]
    assert ranked.index("Karl Staaff") < ranked.index("Treaty of Bergen")


def test_a_name_that_says_it_is_no_person_never_answers_a_person_question_as_exact(engine):
    """"Which king honoured Ole Bull?": only the Vik Treaty is joined to him; NER alone would not set a thing apart
    when nothing else meets the condition, but a name ending in "Treaty" is a treaty's: no exact answer."""
    trace = engine.ask("Which king honoured Ole Bull?")
    assert not trace.answer.exact and "Vik Treaty" in {x.label for x in trace.answer.set_apart}


def test_what_the_text_says_a_thing_is_answers_no_question_for_another_kind(engine):
    """"In which city was it founded in 1912?": the text says the Freedom Party is a party, which no city is: no
    exact answer. A museum the text calls an institution still answers "Which museum" (an institution is a place and
    an organisation both)."""
    trace = engine.ask("Which city was founded in 1912?")
    assert not trace.answer.exact and "Freedom Party" in {x.label for x in trace.answer.set_apart}
    a = engine.ask("Which museum opened in 1913?").answer
    assert a.exact and a.text == "Vik Museum"


def test_a_where_question_asks_for_a_place(engine):
    """"Where did Lou Hart live?": the person he lived with is no answer; the place he lived in is."""
    trace = engine.ask("Where did Lou Hart live?")
    exact = [r.label for r in trace.answer.exact_set]
    assert exact and exact[0] == "Toronto" and "Ray Olsen" not in exact
    assert any("clearly not a place (what 'Where' asks for)" in n for n in trace.notes)


def test_a_who_question_is_not_answered_by_a_place(engine):
    """"Who hosted the Huskies Cup?": a club or a hall may have; Mosman Park, a place, is no "who" and says why."""
    trace = engine.ask("Who hosted the Huskies Cup?")
    exact = [r.label for r in trace.answer.exact_set]
    assert "Maple Club" in exact and "Arena Hall" in exact and "Mosman Park" not in exact
    assert any("clearly not a person or an organization (what 'Who' asks for)" in n for n in trace.notes)


def test_a_name_that_says_the_asked_class_ranks_first(engine):
    """"Which university did Ada Berg attend?": nothing states either's class; the University of Toronto's name
    says it is one, and ranks before Maple Rowing Club (first by name otherwise)."""
    a = engine.ask("Which university did Ada Berg attend?").answer
    assert a.exact and [r.label for r in a.exact_set] == ["University of Toronto", "Maple Rowing Club"]


def test_a_graph_not_read_from_documents_has_no_coarse_kinds():
    """An imported KG (no sentences) is ranked as before: no node has a kind, no answer type asks for one."""
    b = GraphBuilder()
    b.add_node("a", "Ann")
    b.add_node("p", "person")
    b.add_edge("a", "p", "is a")
    kinds = NodeKinds.of_graph(b.build())
    assert (kinds.kind == -1).all() and not kinds.sure_person.any() and kinds.learned == {}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann Holt", "Oslo Works", "Per Dal", "Vik Hall"]),
                          st.sampled_from(COARSE_KINDS)), min_size=1, max_size=8))
def test_a_kind_node_never_answers(pairs):
    """However many names point at a coarse kind node, it is a class node: never a thing, so never an answer."""
    b = GraphBuilder()
    for name, kind in pairs:
        b.add_node(name, name)
        b.add_node(kind, kind)
        b.add_edge(name, kind, "is a", "", sources=(f"d:{name}:p0:c0@0-3|ner|0.5|0-3",))
    g = b.build()
    classes = class_only_nodes(g)
    for kind in {k for _, k in pairs}:
        assert classes[g.index_of[kind]]
    assert not any(classes[g.index_of[n]] for n, _ in pairs)
    assert np.array_equal(NodeKinds.of_graph(g).kind[[g.index_of[k] for _, k in pairs]], [-1] * len(pairs))


def test_a_person_by_a_pronoun_that_ner_calls_a_place_is_contested():
    """A team a misread "he" made a person, and that NER calls an organisation, is no kind for sure: it is neither
    set apart from "Which team" nor ranked as a person."""
    b = GraphBuilder()
    for node in ("Orioles", "person", "organization", "Ann Vik"):
        b.add_node(node, node)
    b.add_edge("Orioles", "person", "is a", "", sources=("d:o:p0:c0",))
    b.add_edge("Orioles", "organization", "is a", "", sources=("d:o:p0:c0@0-9|ner|0.5|0-9",))
    b.add_edge("Ann Vik", "person", "is a", "", sources=("d:a:p0:c0",))
    g = b.build()
    kinds = NodeKinds.of_graph(g)
    assert not kinds.sure_person[g.index_of["Orioles"]] and kinds.kind[g.index_of["Orioles"]] == -1
    assert kinds.sure_person[g.index_of["Ann Vik"]] and COARSE_KINDS[kinds.kind[g.index_of["Ann Vik"]]] == "person"


def test_a_nationality_qualifying_another_noun_is_that_things_not_the_answers(engine):
    """"Which battle involved *the German general*?": German says what the general is, not the battle; the battle
    joined to the German node is not shown to meet the question, and says so. After "did", the word after a
    nationality is still its noun ("did the German general fight"); after a name it is the verb ("did the Huskies
    play")."""
    from sgrag.stated import owned_thing
    for question in ("Which battle involved the German general?", "Which battle did the German general fight in?"):
        trace = engine.ask(question)
        assert list(owned_thing(trace.query_graph).values()) == ["general"], question
        assert not trace.answer.meets_every_named, question
    assert owned_thing(engine.ask("Which league did the Toronto Huskies play in?").query_graph) == {}
