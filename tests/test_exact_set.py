"""The answer is a set: type words that name graph classes constrain it, and it is exactly the
entities that meet every firm constraint (brute-force oracle), shown with its size."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgrag import Engine, GraphBuilder, InputFormatError
from sgrag.cli import main as cli_main
from sgrag.eval import run_eval
from sgrag.lexicon import Lexicon
from sgrag.linking import class_nodes
from conftest import build_workspace, fast_config, kinds_graph

PROF, GENDER, NATION = "/people/person/profession", "/people/person/gender", "/people/person/nationality"
QUESTION = "Who is the male comedian and television director from the United States of America?"
PEOPLE = {  # name -> (professions, gender, country)
    "Paul Reubens": (("Comedian", "Television Director"), "Male", "United States of America"),
    "Bob Odenkirk": (("Comedian", "Television Director"), "Male", "United States of America"),
    "Barry Levinson": (("Television Director", "Film Director"), "Male", "United States of America"),
    "Edward James Olmos": (("Television Director", "Actor"), "Male", "United States of America"),
    "Amy Poehler": (("Comedian", "Television Director"), "Female", "United States of America"),
    "Ricky Gervais": (("Comedian", "Television Director"), "Male", "United Kingdom"),
    "Jim Henson": (("Puppeteer", "Television Director"), "Male", "United States of America"),
}


def people_graph(extra_only_comedian: str | None = None):
    """People with professions and genders (class nodes) and nationalities (not classes)."""
    b = GraphBuilder()
    classes = {c for profs, g, _ in PEOPLE.values() for c in (*profs, g)}
    places = {p for *_, p in PEOPLE.values()}
    for label in sorted(classes | places):
        b.add_node(label.lower().replace(" ", "_"), label)
    for city in ("Los Angeles", "London", "Chicago"):
        b.add_node(city.lower().replace(" ", "_"), city)
        b.add_edge(city.lower().replace(" ", "_"), "united_states_of_america" if city != "London" else "united_kingdom",
                   "/location/location/containedby", "located in")
    people = dict(PEOPLE)
    if extra_only_comedian:
        people[extra_only_comedian] = (("Comedian",), "Female", "United Kingdom")
    for name, (profs, gender, country) in people.items():
        pid = name.lower().replace(" ", "_")
        b.add_node(pid, name)
        for p in profs:
            b.add_edge(pid, p.lower().replace(" ", "_"), PROF, "person profession")
        b.add_edge(pid, gender.lower(), GENDER, "person gender")
        b.add_edge(pid, country.lower().replace(" ", "_"), NATION, "person nationality")
    return b.build()


@pytest.fixture(scope="module")
def people_engine(tmp_path_factory):
    return Engine.open(build_workspace(tmp_path_factory.mktemp("people") / "ws", people_graph()).path)


def test_type_words_that_name_classes_are_firm_constraints(people_engine):
    trace = people_engine.ask(QUESTION)
    roles = {n.label: n.mention.role for n in trace.query_graph.constraints}
    assert roles["Comedian"] == "type" and roles["Male"] == "type"
    assert roles["Television Director"] == "entity"  # outside the answer-type phrase: an ordinary constraint
    a = trace.answer
    # Levinson, Olmos and Henson direct television but are no comedians: they must not count as exact
    assert {r.label for r in a.exact_set} == {"Paul Reubens", "Bob Odenkirk"}
    assert a.exact and a.exact_size == 2 and a.text in {"Paul Reubens", "Bob Odenkirk"}
    assert a.confidence < 1.0 and a.tie_break.startswith("Tie-break among 2")


def test_a_determined_answer_is_certain(people_engine):
    trace = people_engine.ask("Who is the female comedian from the United States of America?")
    assert [r.label for r in trace.answer.exact_set] == ["Amy Poehler"]
    assert trace.answer.confidence == 1.0 and trace.answer.tie_break == ""


def test_type_words_give_way_when_nothing_of_that_type_fits(people_engine):
    trace = people_engine.ask("Which puppeteer comedian is from the United States of America?")
    # no comedian puppeteer exists: the answer-type words relax one at a time, never silently
    assert trace.answer.exact_size >= 1
    assert any("now only rank the answers" in n for n in trace.notes)


def test_a_nationality_in_the_answer_type_is_a_condition_that_never_gives_way(people_engine):
    """"Which *British* comedian ...": British names a country, no class. Nobody British is from the United States,
    so nothing is exact (was: "British" gave way like a class word, and three Americans were claimed to meet every
    condition used); the class word "comedian" may still give way."""
    trace = people_engine.ask("Which British comedian is from the United States of America?")
    assert not trace.answer.exact_set and trace.answer.ranked
    assert not any("'British' now only rank" in n for n in trace.notes)


def test_classes_come_from_graph_statistics_not_names():
    b = GraphBuilder()
    for i in range(30):
        b.add_node(f"x{i}", f"Thing {i}")
        b.add_edge(f"x{i}", "kind_a" if i % 2 else "kind_b", "/zz/qq/zork", "")
        b.add_edge(f"x{i}", "hub", "/zz/qq/near", "")
    b.add_node("kind_a", "Blorp")
    b.add_node("kind_b", "Snarf")
    b.add_node("hub", "Hubville")
    for i in range(30):
        b.add_node(f"h{i}", f"Hubbit {i}")
        b.add_edge("hub", f"h{i}", "/zz/qq/has", "")
    g = b.build()
    cls = class_nodes(g, ())  # no relation named as a type: statistics alone
    assert cls[g.index_of["kind_a"]] and cls[g.index_of["kind_b"]]
    assert not cls[g.index_of["hub"]]  # many heads point at it, but most of its edges are other relations


def test_cli_prints_the_set_size_and_caps_the_list(people_engine, capsys):
    assert cli_main(["ask", "-w", str(people_engine.workspace.path), QUESTION]) == 0
    out = capsys.readouterr().out
    assert "2 entities satisfy every condition." in out
    assert "showing 2 of 2" in out and "Paul Reubens" in out and "Bob Odenkirk" in out
    assert cli_main(["ask", "-w", str(people_engine.workspace.path), "--json", QUESTION]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["label"] for r in data["answer"]["exact_set"]} == {"Paul Reubens", "Bob Odenkirk"}


def test_eval_oracle_measures_exactness(people_engine, tmp_path):
    questions = tmp_path / "q.csv"
    questions.write_text("query,answer\n"
                         f'"{QUESTION}",Paul Reubens\n'
                         '"Who is the female comedian from the United States of America?",Amy Poehler\n')
    oracle = tmp_path / "oracle.csv"
    oracle.write_text("query,answer,named_constraints,exact_set_size,exact_set_size_allrel,others_in_exact_set\n"
                      f'"{QUESTION}",Paul Reubens,Male | Comedian | Television Director | United States of America'
                      ",3,3,Bob Odenkirk | Jim Henson\n"
                      '"Who is the female comedian from the United States of America?",Amy Poehler,'
                      "Female | Comedian | United States of America,1,1,\n")
    report = run_eval(people_engine, questions, oracle_path=oracle, out_path=tmp_path / "r.jsonl")
    o = report.summary["oracle"]
    assert o["n"] == 2 and o["determined"] == 1 and o["hit@1_determined"] == 1.0
    assert o["gold_in_exact_set"] == 1.0
    assert o["exact_set_jaccard"] == pytest.approx((2 / 3 + 1.0) / 2)  # {Reubens, Odenkirk} vs 3 with Henson
    assert o["link_recall"] == 1.0
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert set(rows[0]["exact_set"]) == {"Paul Reubens", "Bob Odenkirk"}


def test_workspace_lexicon_extends_the_shipped_one(tmp_path):
    (tmp_path / "lexicon.json").write_text(json.dumps({"demonyms": {"Zembian": "Zembia", "American": None}}))
    lex = Lexicon.load(tmp_path / "lexicon.json")
    assert lex.demonyms["Zembian"] == "Zembia" and "American" not in lex.demonyms
    assert lex.demonyms["French"] == "France"  # the shipped entries stay
    (tmp_path / "bad.json").write_text(json.dumps({"demonyms": ["not", "a", "map"]}))
    with pytest.raises(InputFormatError, match="demonyms"):
        Lexicon.load(tmp_path / "bad.json")
    (tmp_path / "bad.json").write_text(json.dumps({"kind_words": {"spot": ["location"]}}))
    with pytest.raises(InputFormatError, match="kind_words"):
        Lexicon.load(tmp_path / "bad.json")


NAMES = ["Zarnok", "Quibble", "Frobnitz", "Wuggle", "Plimsy", "Gorvath", "Teeble", "Snorkel", "Mavrin", "Kelpie",
         "Yondu", "Brastle", "Crump", "Drizzt", "Elbow"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_exact_set_is_exactly_the_entities_meeting_every_constraint(tmp_path_factory, data):
    """Brute-force oracle on small random graphs: members meet every constraint, no one else does."""
    n_ent = data.draw(st.integers(3, 9))
    n_con = data.draw(st.integers(2, 4))
    ents, cons = NAMES[:n_ent], NAMES[n_ent:n_ent + n_con]
    edges = data.draw(st.sets(st.tuples(st.sampled_from(ents), st.sampled_from(cons), st.sampled_from(["r1", "r2"]),
                                        st.booleans()), min_size=1, max_size=30))
    b = GraphBuilder()
    for name in ents + cons:
        b.add_node(name.lower(), name)
    for e, c, rel, forward in edges:
        b.add_edge(*((e.lower(), c.lower()) if forward else (c.lower(), e.lower())), f"/t/{rel}", rel)
    g = b.build()
    asked = data.draw(st.lists(st.sampled_from(cons), min_size=2, max_size=n_con, unique=True))
    if data.draw(st.booleans()):  # plant an answer, so most examples have a non-empty set to compare
        planted = data.draw(st.sampled_from(ents))
        for c in asked:
            edges.add((planted, c, data.draw(st.sampled_from(["r1", "r2"])), True))
            b.add_edge(planted.lower(), c.lower(), "/t/planted", "planted")
        g = b.build()
    cfg = fast_config()
    cfg.gnn.epochs = 2
    path = tmp_path_factory.mktemp("rand") / "ws"
    build_workspace(path, g, cfg)
    trace = Engine.open(path).ask("Which thing is linked to " + ", ".join(asked[:-1]) + f" and {asked[-1]}?")
    linked = {n.label for n in trace.query_graph.constraints}
    if linked != set(asked):
        return  # a constraint on no edge is not in the graph's label index; nothing to compare
    adjacent = {name for name in ents if all(any(x == name and y == c for x, y, *_ in edges) for c in asked)}
    assert {r.label for r in trace.answer.exact_set} == adjacent
    for r in trace.answer.exact_set:  # verified edge by edge in the graph itself
        v = g.index_of[r.node_id]
        assert all(g.has_edge_between(v, g.index_of[c.lower()]) for c in asked)
    assert (trace.answer.confidence == 1.0) == (len(adjacent) == 1) or not adjacent


def test_classes_survive_edges_stored_in_both_directions():
    """The demo graph stores some profession edges reversed (Comedian -> person): still a class."""
    b = GraphBuilder()
    b.add_node("com", "Comedian")
    for i in range(12):
        b.add_node(f"p{i}", f"Person {i}")
        b.add_edge(*(("com", f"p{i}") if i % 3 else (f"p{i}", "com")), PROF, "person profession")
    b.add_node("pup", "Puppeteer")
    b.add_edge("p1", "pup", PROF, "person profession")  # a one-member class whose member has two professions
    g = b.build()
    cls = class_nodes(g, Lexicon.load().type_relations)
    assert cls[g.index_of["com"]] and cls[g.index_of["pup"]]
    assert not any(cls[g.index_of[f"p{i}"]] for i in range(12))


def test_class_words_outside_the_answer_type_describe_names_or_give_way(people_engine):
    trace = people_engine.ask("Which country is home to the comedian Paul Reubens?")
    assert [n.label for n in trace.query_graph.constraints] == ["Paul Reubens"]  # "comedian" describes him
    trace = people_engine.ask("Which country is home to a comedian and to Paul Reubens?")
    assert {n.label for n in trace.query_graph.constraints} == {"Comedian", "Paul Reubens"}
    # nothing is both a Comedian's and Paul Reubens's neighbour: the class word gives way (with a note)
    # instead of leaving no exact answer
    assert trace.answer.exact and "United States of America" in {r.label for r in trace.answer.exact_set}
    assert any("'comedian' now only rank the answers" in n for n in trace.notes)


@pytest.fixture(scope="module")
def kinds_engine(tmp_path_factory):
    return Engine.open(build_workspace(tmp_path_factory.mktemp("kinds") / "ws", kinds_graph()).path)


def test_the_answer_type_keeps_entities_of_its_kind(kinds_engine):
    """The countries and genres both films link to are no awards: they leave the exact set, said so."""
    trace = kinds_engine.ask("Which award has nominated both Gorvath Rising and Teeble Days?")
    a = trace.answer
    assert {r.label for r in a.exact_set} == {"Best Zarnok Award", "Best Quibble Award"}
    assert {(x.label, x.reason) for x in a.set_apart} == {("Freedonia", "not of the kind 'award'"),
                                                           ("Drama", "not of the kind 'award'")}
    assert any("not of the kind 'award'" in n and "Freedonia" in n for n in trace.notes)
    assert not {r.label for r in kinds_engine.near_misses(trace)} & {"Freedonia", "Drama"}
    # without an answer-type word that the graph's types hold, nothing is set apart
    trace = kinds_engine.ask("Which thing is linked to both Gorvath Rising and Teeble Days?")
    assert {r.label for r in trace.answer.exact_set} == {"Best Zarnok Award", "Best Quibble Award", "Freedonia", "Drama"}
    assert trace.answer.set_apart == ()


def test_a_kind_the_graph_types_sparsely_keeps_the_same_kind(kinds_engine):
    """Only Ann is typed a celebrity, but Bob is a person like her; the city is not."""
    trace = kinds_engine.ask("Which celebrity is from Freedonia and studied at Zork University?")
    assert {r.label for r in trace.answer.exact_set} == {"Ann Plimsy", "Bob Mavrin"}
    assert [x.label for x in trace.answer.set_apart] == ["Zork City"]


def test_the_lexicon_says_which_kind_an_answer_type_word_means(kinds_engine):
    """"place" heads no relation path, but the lexicon's kind_words make it the graph's "location"."""
    trace = kinds_engine.ask("Which place is linked to both Zork University and Freedonia?")
    assert [r.label for r in trace.answer.exact_set] == ["Zork City"]
    assert {x.label: x.reason for x in trace.answer.set_apart} == {"Ann Plimsy": "not of the kind 'place'",
                                                                   "Bob Mavrin": "not of the kind 'place'"}
    # "person" asks for anything ("Who is the person ..."), but "figure", which the lexicon maps to it, does not
    assert {r.label for r in kinds_engine.ask("Which person is linked to both Zork University and Freedonia?")
            .answer.exact_set} == {"Zork City", "Ann Plimsy", "Bob Mavrin"}
    trace = kinds_engine.ask("Which notable figure is linked to both Zork University and Freedonia?")
    assert {r.label for r in trace.answer.exact_set} == {"Ann Plimsy", "Bob Mavrin"}
    assert [x.label for x in trace.answer.set_apart] == ["Zork City"]


def test_a_maintenance_relation_types_nothing(tmp_path):
    """Freedonia and a degree were both split by Freebase's /dataworld/gardening_hint/split_to: that makes the
    degree no place, though Freedonia, the only location, holds the phrase too."""
    b = GraphBuilder()
    for nid, label in [("fr", "Freedonia"), ("ba", "Bachelor of Zork"), ("u1", "Zork University"),
                       ("u2", "Quibble College"), ("x1", "Old Freedonia"), ("x2", "Zork Degree"), ("zl", "Zarnese")]:
        b.add_node(nid, label)
    for u in ("u1", "u2"):
        b.add_edge("fr", u, "/location/location/contains", "")
        b.add_edge(u, "ba", "/education/educational_institution/degrees_offered", "")
    b.add_edge("fr", "x1", "/dataworld/gardening_hint/split_to", "")
    b.add_edge("ba", "x2", "/dataworld/gardening_hint/split_to", "")
    for i in range(12):  # the rest of the graph: no phrase above is generic
        b.add_node(f"f{i}", f"Film {i}")
        b.add_edge(f"f{i}", "zl", "/film/film/language", "")
    build_workspace(tmp_path / "ws", b.build())
    trace = Engine.open(tmp_path / "ws").ask("Which place is home to Zork University and Quibble College?")
    assert [r.label for r in trace.answer.exact_set] == ["Freedonia"]
    assert [(x.label, x.reason) for x in trace.answer.set_apart] == [("Bachelor of Zork", "not of the kind 'place'")]


def test_a_property_name_does_not_make_a_kind(kinds_engine):
    """Bob worked for Freedonia (the tail of .../employment_tenure/company): that makes no country a company,
    so nothing is set apart from the companies that distributed both films."""
    trace = kinds_engine.ask("Which company distributed both Crump Falls and Elbow Room?")
    assert {r.label for r in trace.answer.exact_set} == {"Brastle Video", "Drizzt Pictures", "Freedonia"}
    assert trace.answer.set_apart == ()


def test_a_stated_relation_keeps_the_entities_joined_by_it(kinds_engine):
    """"nominated" names the award-nomination relation: the country and genre both films link to are out."""
    trace = kinds_engine.ask("Which thing has nominated both Gorvath Rising and Teeble Days?")
    assert {r.label for r in trace.answer.exact_set} == {"Best Zarnok Award", "Best Quibble Award"}
    assert {x.label: x.reason for x in trace.answer.set_apart} == {
        "Freedonia": "not joined to Gorvath Rising by a relation 'nominated' names",
        "Drama": "not joined to Gorvath Rising by a relation 'nominated' names"}
    # "released in" names the release region: of the films from Freedonia, one was released there
    trace = kinds_engine.ask("Which film was released in Freedonia?")
    assert [r.label for r in trace.answer.exact_set] == ["Elbow Room"]
    assert trace.answer.confidence == 1.0
    why = {x.label: x.reason for x in trace.answer.set_apart}
    assert why["Crump Falls"] == "not joined to Freedonia by a relation 'released' names"
    assert why["Ann Plimsy"] == "not of the kind 'film'"
    # a word no relation holds states nothing: every film from Freedonia stays
    trace = kinds_engine.ask("Which film was shot in Freedonia?")
    assert {r.label for r in trace.answer.exact_set} == {"Gorvath Rising", "Teeble Days", "Crump Falls", "Elbow Room"}


RELATIONS = ["/t/thing/released_in", "/t/thing/filmed_at", "/t/thing/near"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_stated_relation_filters_exactly_and_never_empties_the_set(tmp_path_factory, data):
    """Brute force: with "released in" before the first constraint, the set is the entities joined to it by a
    released_in edge (and to the other by any), unless none or all of the adjacent ones are."""
    ents, cons = NAMES[:6], NAMES[6:8]
    edges = data.draw(st.sets(st.tuples(st.sampled_from(ents), st.sampled_from(cons), st.sampled_from(RELATIONS)),
                              min_size=2, max_size=24))
    b = GraphBuilder()
    for name in ents + cons:
        b.add_node(name.lower(), name)
    for e, c, rel in edges:
        b.add_edge(e.lower(), c.lower(), rel, "")
    g = b.build()
    path = tmp_path_factory.mktemp("stated") / "ws"
    cfg = fast_config()
    cfg.gnn.epochs = 2
    build_workspace(path, g, cfg)
    first, second = cons
    trace = Engine.open(path).ask(f"Which thing was released in {first} and linked to {second}?")
    if {n.label for n in trace.query_graph.constraints} != set(cons):
        return  # a constraint on no edge is not in the graph's label index
    adjacent = {e for e in ents if all(any(x == e and y == c for x, y, _ in edges) for c in cons)}
    released = {e for e in adjacent if (e, first, RELATIONS[0]) in edges}
    expected = released if released else adjacent
    assert {r.label for r in trace.answer.exact_set} == expected
    assert {x.label for x in trace.answer.set_apart} == adjacent - expected


def test_a_weakly_linked_word_counts_once_its_relation_is_stated(tmp_path):
    """"guitar" alone only ranks (a lowercase word naming a node); "played the guitar" states how the
    answer is joined to it, so the players stay and the rest are set apart, each with why."""
    b = GraphBuilder()
    for nid, label in [("fr", "Freedonia"), ("gtr", "Guitar"), ("m1", "Zarnok Quill"), ("m2", "Teeble Snorkel"),
                       ("m3", "Plimsy Crump"), ("m4", "Mavrin Elbow")]:
        b.add_node(nid, label)
    for m in ("m1", "m2", "m3", "m4"):
        b.add_edge(m, "fr", "/people/person/nationality", "")
    for m in ("m1", "m2"):
        b.add_edge(m, "gtr", "/music/group_member/instruments_played", "")
    b.add_edge("m3", "gtr", "/music/artist/track_contributions./music/track_contribution/role", "")
    path = tmp_path / "ws"
    build_workspace(path, b.build())
    eng = Engine.open(path)
    trace = eng.ask("Which musician from Freedonia likes the guitar?")
    assert {r.label for r in trace.answer.exact_set} == {"Zarnok Quill", "Teeble Snorkel", "Plimsy Crump", "Mavrin Elbow"}
    assert any("guitar -> Guitar" in n for n in trace.notes if n.startswith("Soft constraints"))
    trace = eng.ask("Which musician from Freedonia played the guitar?")
    assert {r.label for r in trace.answer.exact_set} == {"Zarnok Quill", "Teeble Snorkel"}
    assert {x.label: x.reason for x in trace.answer.set_apart} == {
        "Plimsy Crump": "not joined to Guitar by a relation 'played' names",
        "Mavrin Elbow": "not joined to Guitar by a relation 'played' names"}
    assert not any(n.startswith("Soft constraints") for n in trace.notes)


INFLUENCED, DIED, BORN = "/influence/influence_node/influenced_by", "/people/deceased_person/place_of_death", \
    "/people/person/place_of_birth"


@pytest.fixture(scope="module")
def influence_ws(tmp_path_factory):
    """Quill was influenced by Gorvath Prime and Blen Tesk; Snorkel influenced Gorvath Prime (the edge runs
    the other way); Crump was influenced by Gorvath Prime but influenced Blen Tesk. Quill died in Zork City,
    where Elbow was born. Nationality edges keep most of the graph one-way, so directions mean something."""
    b = GraphBuilder()
    for nid, label in [("fr", "Freedonia"), ("zc", "Zork City"), ("gp", "Gorvath Prime"), ("bt", "Blen Tesk"),
                       ("qu", "Zarnok Quill"), ("sn", "Teeble Snorkel"), ("cr", "Plimsy Crump"), ("el", "Mavrin Elbow")]:
        b.add_node(nid, label)
    for p in ("qu", "sn", "cr", "el", "gp", "bt"):
        b.add_edge(p, "fr", NATION, "")
    for src, dst in [("qu", "gp"), ("qu", "bt"), ("gp", "sn"), ("sn", "bt"), ("cr", "gp"), ("bt", "cr")]:
        b.add_edge(src, dst, INFLUENCED, "")
    b.add_edge("qu", "zc", DIED, "")
    b.add_edge("el", "zc", BORN, "")
    path = tmp_path_factory.mktemp("influence") / "ws"
    build_workspace(path, b.build())
    return path


def test_a_passive_relation_keeps_its_direction_across_a_coordination(influence_ws):
    """"influenced by both X and Y": the answer heads an influenced_by edge to X and, the relation carried
    over the "and", to Y; one who influenced X or Y is set apart, said why."""
    trace = Engine.open(influence_ws).ask("Who was influenced by both Gorvath Prime and Blen Tesk?")
    assert [r.label for r in trace.answer.exact_set] == ["Zarnok Quill"]
    assert {x.label: x.reason for x in trace.answer.set_apart} == {
        "Freedonia": "not joined to Gorvath Prime by a relation 'influenced' names",  # their nationality
        "Teeble Snorkel": "not joined to Gorvath Prime by a relation 'influenced' names",
        "Plimsy Crump": "not joined to Blen Tesk by a relation 'influenced' names"}


def test_lexicon_relation_words_state_relations(influence_ws):
    """The shipped lexicon says "passed away" is how relation names say death; a workspace adds its own words."""
    eng = Engine.open(influence_ws)
    trace = eng.ask("Who passed away in Zork City?")
    assert [r.label for r in trace.answer.exact_set] == ["Zarnok Quill"]
    assert [x.label for x in trace.answer.set_apart] == ["Mavrin Elbow"]
    assert {r.label for r in eng.ask("Who perished in Zork City?").answer.exact_set} == {"Zarnok Quill", "Mavrin Elbow"}
    (influence_ws / "lexicon.json").write_text(json.dumps({"relation_words": {"perished": ["death"]}}))
    try:
        trace = Engine.open(influence_ws).ask("Who perished in Zork City?")
    finally:
        (influence_ws / "lexicon.json").unlink()
    assert [r.label for r in trace.answer.exact_set] == ["Zarnok Quill"]
    (influence_ws / "bad.json").write_text(json.dumps({"relation_words": {"perished": "death"}}))
    with pytest.raises(InputFormatError, match="relation_words"):
        Lexicon.load(influence_ws / "bad.json")


def test_winning_states_an_award_honor_not_a_nomination(tmp_path):
    """The category's winners relation names no "win" (its "winner" is a kind noun); the shipped lexicon says
    an honor is how relation names say it, so the nominee is set apart."""
    b = GraphBuilder()
    for nid, label in [("award", "Best Zarnok Award"), ("ann", "Ann Plimsy"), ("bob", "Bob Mavrin")]:
        b.add_node(nid, label)
    b.add_edge("award", "ann", "/award/award_category/winners./award/award_honor/award_winner", "")
    b.add_edge("bob", "award", "/award/award_nominee/award_nominations./award/award_nomination/award", "")
    build_workspace(tmp_path / "ws", b.build())
    trace = Engine.open(tmp_path / "ws").ask("Who is known for winning the Best Zarnok Award?")
    assert [r.label for r in trace.answer.exact_set] == ["Ann Plimsy"]
    assert {x.label: x.reason for x in trace.answer.set_apart} == {
        "Bob Mavrin": "not joined to Best Zarnok Award by a relation 'winning' names"}


def test_written_by_states_the_story_as_well_as_the_screenplay(tmp_path):
    """A film's story is written by its author too (the shipped lexicon says so); producing it is not writing it."""
    b = GraphBuilder()
    for nid, label in [("w", "Ronald Quill"), ("f1", "Zork Nights"), ("f2", "The Dresser Room"), ("f3", "Elbow Falls")]:
        b.add_node(nid, label)
    b.add_edge("f1", "w", "/film/film/written_by", "")
    b.add_edge("f2", "w", "/film/film/story_by", "")
    b.add_edge("f3", "w", "/film/film/produced_by", "")
    build_workspace(tmp_path / "ws", b.build())
    trace = Engine.open(tmp_path / "ws").ask("Which film was written by Ronald Quill?")
    assert {r.label for r in trace.answer.exact_set} == {"Zork Nights", "The Dresser Room"}
    assert [x.label for x in trace.answer.set_apart] == ["Elbow Falls"]


def test_a_relation_says_what_its_head_type_says(tmp_path):
    """"participating in the Games": Zembia's athletes relation runs from an olympic *participating* country,
    so it names participation as much as Vulgaria's participating_countries edge does: both stay."""
    b = GraphBuilder()
    for nid, label in [("g", "1908 Summer Olympics"), ("z", "Zembia"), ("v", "Vulgaria"), ("f", "Freedonia"),
                       ("eu", "Euro")]:
        b.add_node(nid, label)
    b.add_edge("z", "g", "/olympics/olympic_participating_country/athletes./olympics/olympic_athlete_affiliation/olympics", "")
    b.add_edge("g", "v", "/olympics/olympic_games/participating_countries", "")
    b.add_edge("f", "g", "/location/location/events", "")
    for c in ("z", "v", "f"):
        b.add_edge(c, "eu", "/location/country/currency_used", "")
    path = tmp_path / "ws"
    build_workspace(path, b.build())
    trace = Engine.open(path).ask("Which country was participating in the 1908 Summer Olympics and uses the Euro?")
    assert {r.label for r in trace.answer.exact_set} == {"Zembia", "Vulgaria"}
    assert {x.label: x.reason for x in trace.answer.set_apart} == {
        "Freedonia": "not joined to 1908 Summer Olympics by a relation 'participating' names"}


def _two_professions(class_id: str, class_label: str, nodes: list[tuple[str, str]]) -> GraphBuilder:
    """A graph builder with a profession class (``class_id``), the class "act" (Actor), ``nodes`` and 30
    people, half in each class: enough heads for the graph's statistics to make both professions classes."""
    b = GraphBuilder()
    for nid, label in [(class_id, class_label), ("act", "Actor"), *nodes]:
        b.add_node(nid, label)
    for i in range(30):
        b.add_node(f"p{i}", f"Person {i}")
        b.add_edge(f"p{i}", class_id if i % 2 else "act", PROF, "")
    return b


def test_a_loosely_used_type_word_ranks_its_class_first_and_filters_nothing(tmp_path):
    """"Which artist" asks for musicians as often as for the graph's Artist class (the lexicon says so): both
    people who met Gorvath Prime stay in the exact set, the Artist first; a workspace that uses the word
    strictly makes it a firm constraint."""
    b = _two_professions("art", "Artist", [("gp", "Gorvath Prime"), ("z", "Zed Quill"), ("a", "Aaron Blip")])
    b.add_edge("z", "art", PROF, "")
    b.add_edge("a", "act", PROF, "")
    for p in ("z", "a"):
        b.add_edge(p, "gp", "/people/person/met", "")
    b.add_edge("z", "p0", "/people/person/met", "")  # Zed is the better known: specificity alone puts Aaron first
    path = tmp_path / "ws"
    build_workspace(path, b.build())
    trace = Engine.open(path).ask("Who is the artist that met Gorvath Prime?")
    assert [r.label for r in trace.answer.exact_set] == ["Zed Quill", "Aaron Blip"]
    assert any("artist -> Artist" in n for n in trace.notes if n.startswith("Soft constraints"))
    (path / "lexicon.json").write_text(json.dumps({"loose_type_words": []}))
    trace = Engine.open(path).ask("Who is the artist that met Gorvath Prime?")
    assert [r.label for r in trace.answer.exact_set] == ["Zed Quill"]


def test_a_verb_naming_a_class_ranks_its_members_first_in_who_questions(tmp_path):
    """"Who directed Gorvath Rising": the shipped lexicon says a director is a Film Director, so Dee (one) ranks
    above Eve (crew, and less known), and both stay; "Which film was directed by" asks for no person."""
    b = _two_professions("fd", "Film Director", [("gr", "Gorvath Rising"), ("d", "Dee Quill"), ("e", "Eve Blip")])
    b.add_edge("d", "fd", PROF, "")
    b.add_edge("d", "p1", "/people/person/met", "")
    b.add_edge("d", "p3", "/people/person/met", "")
    for p in ("d", "e"):
        b.add_edge("gr", p, "/film/film/other_crew", "")
    path = tmp_path / "ws"
    build_workspace(path, b.build())
    eng = Engine.open(path)
    trace = eng.ask("Who is the person that directed Gorvath Rising?")
    assert [r.label for r in trace.answer.exact_set] == ["Dee Quill", "Eve Blip"]
    assert any("directed -> Film Director" in n for n in trace.notes if n.startswith("Soft constraints"))
    trace = eng.ask("Which film was directed by Dee Quill?")
    assert [r.label for r in trace.answer.exact_set] == ["Gorvath Rising"]
    assert not any(n.startswith("Soft constraints") for n in trace.notes)


def test_kinds_come_from_relations_kept_one_way(kinds_engine, tmp_path):
    """Zarnokia is only ever the tail of /film/film/country: a country, like Freedonia. A graph that stores
    that relation either way (half its edges backwards) types nobody by it: no country becomes a film."""
    g, kind_of = kinds_engine.graph, kinds_engine.ranker.of_answer_kind
    idx = lambda graph, *labels: np.array([graph.nodes_by_label[x][0] for x in labels])  # noqa: E731
    assert kind_of("country", idx(g, "Freedonia", "Zarnokia", "Zork City")).tolist() == [True, True, False]
    b = GraphBuilder()
    for i in range(3):
        b.add_node(f"f{i}", f"Film {i}")
    for i in range(2):
        b.add_node(f"c{i}", f"Country {i}")
    for s, t in (("f0", "c0"), ("c0", "f1"), ("c0", "f2"), ("f1", "c1"), ("f2", "c1")):  # Country 0 mostly backwards
        b.add_edge(s, t, "/film/film/country", "")
    build_workspace(tmp_path / "ws", b.build())
    two_way = Engine.open(tmp_path / "ws")
    assert two_way.ranker.of_answer_kind("film", idx(two_way.graph, "Film 0", "Country 0", "Country 1")) is None


def test_a_relation_stored_both_ways_still_types_its_heads_in_a_directed_graph(tmp_path):
    """Eastland is a division of Freedonia and has one of its own, so /location/administrative_division/country
    has nodes at both ends; its heads are still divisions, though only South Province is also typed by a capital."""
    b = GraphBuilder()
    for nid, label in [("fr", "Freedonia"), ("north", "North Province"), ("south", "South Province"),
                       ("east", "Eastland"), ("isle", "West Isle"), ("cap", "Southtown"), ("zl", "Zarnese")]:
        b.add_node(nid, label)
    for division, country in (("north", "fr"), ("south", "fr"), ("east", "fr"), ("isle", "east")):
        b.add_edge(division, country, "/location/administrative_division/country", "")
    b.add_edge("cap", "south", "/location/capital_of_administrative_division/capital_of./location/"
                               "administrative_division_capital_relationship/administrative_division", "")
    for i in range(3):  # most edges in relations kept one way: a graph that keeps directions
        b.add_node(f"f{i}", f"Film {i}")
        b.add_edge(f"f{i}", "fr", "/film/film/country", "")
        b.add_edge(f"f{i}", "zl", "/film/film/language", "")
    build_workspace(tmp_path / "ws", b.build())
    trace = Engine.open(tmp_path / "ws").ask("Which administrative division is in Freedonia?")
    assert {r.label for r in trace.answer.exact_set} == {"North Province", "South Province", "Eastland"}
    assert {x.label for x in trace.answer.set_apart} == {"Film 0", "Film 1", "Film 2"}


def test_a_kind_named_by_its_head_noun_stands_alone(kinds_engine):
    """"Which film": Freedonia is a film *subject* (/film/film_subject/...), which makes it no film."""
    g = kinds_engine.graph
    nodes = np.array([g.nodes_by_label[x][0] for x in ("Gorvath Rising", "Freedonia")])
    assert kinds_engine.ranker.of_answer_kind("film", nodes).tolist() == [True, False]
