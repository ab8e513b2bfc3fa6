"""Every condition accounted for: names the graph lacks are reported, typos are read and said, and the
verdict claims "every condition" only when every named condition selected the answer."""
from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from sgrag.accounting import headline
from sgrag.cli import main
from sgrag.spelling import Fix, SpellingCorrector, to_original
from sgrag.types import Answer, Condition, RankedAnswer, SetApart


def _statuses(trace) -> dict[str, str]:
    return {c.text: c.status for c in trace.answer.conditions}


def test_a_name_the_graph_lacks_is_reported_not_dropped(olympics_engine):
    trace = olympics_engine.ask("Which country won medals at the 2012 Summer Olympics and borders Atlantis?")
    a = trace.answer
    assert _statuses(trace) == {"2012 Summer Olympics": "used", "Atlantis": "not_found"}
    assert "every condition" not in a.headline
    assert a.headline.startswith("4 entities satisfy 1 of 2 conditions") and "'Atlantis' (not found" in a.headline
    assert trace.query_graph.unlinked == ("Atlantis",)


def test_an_answer_with_a_missing_name_is_not_scored_as_exact(olympics_engine):
    """Four countries meet the one condition the graph has; with 'Atlantis' missing none is claimed exact (an
    evaluation counts it as a partial match), though the four are still listed."""
    from sgrag.eval import score_row
    trace = olympics_engine.ask("Which country won medals at the 2012 Summer Olympics and borders Atlantis?")
    row = score_row(trace.question, trace.answer.text, trace, olympics_engine.graph, set())
    assert len(row["exact_set"]) == 4 and not row["exact"] and not trace.answer.meets_every_named
    whole = olympics_engine.ask("Which country won medals at the 2012 Summer Olympics?")
    assert whole.answer.meets_every_named
    assert score_row(whole.question, whole.answer.text, whole, olympics_engine.graph, set())["exact"]


def test_a_title_in_sentence_case_the_graph_lacks_is_reported_whole(olympics_engine):
    """"De groote boulevards": a capitalised article starts a title whose other words are lowercase; the whole title
    is reported as not found, not dropped as a two-letter word."""
    trace = olympics_engine.ask("Which country won medals at the 2012 Summer Olympics and inspired De groote boulevards?")
    assert trace.query_graph.unlinked == ("De groote boulevards",)
    assert _statuses(trace)["De groote boulevards"] == "not_found"
    assert "every condition" not in trace.answer.headline


def test_a_description_after_the_last_name_is_reported_as_not_checked(olympics_engine):
    """"... and has the largest population": no name stands for it, so nothing was checked against it; the answer
    meets 1 of 2 conditions and is no exact answer to the whole question. A relation said after the name ("Which
    country is the 2012 Summer Olympics in?") is no description, nor are words the proving edges' relations hold
    ("won medals at the 2012 Summer Olympics, winning a medal")."""
    trace = olympics_engine.ask("Which country won medals at the 2008 Summer Olympics and has the largest population?")
    assert _statuses(trace) == {"2008 Summer Olympics": "used", "the largest population": "described"}
    assert trace.answer.headline.startswith("3 entities satisfy 1 of 2 conditions")
    assert "'the largest population' (not checked: no name in it)" in trace.answer.headline
    assert not trace.answer.meets_every_named
    for q in ("Which country won medals at the 2008 Summer Olympics first?",):
        assert "described" in _statuses(olympics_engine.ask(q)).values()
    for q in ("Which country is a member of the United Nations in?",
              "Which country won medals at the 2012 Summer Olympics, winning a medal?"):
        assert "described" not in _statuses(olympics_engine.ask(q)).values(), q


def test_each_coordinated_description_is_its_own_condition_and_one_shared_word_does_not_check_it(olympics_engine):
    """"..., has the largest population and borders the sea": two conditions no name stands for, each reported;
    "won the most gold medals in rowing" shares only "medals" with the edges that proved the answer ("won medals
    at"), so it is no relation they state, and is reported too."""
    trace = olympics_engine.ask("Which country won medals at the 2008 Summer Olympics, has the largest population and "
                                "borders the sea?")
    assert _statuses(trace) == {"2008 Summer Olympics": "used", "the largest population": "described",
                                "borders the sea": "described"}
    assert trace.answer.headline.startswith("3 entities satisfy 1 of 3 conditions")
    trace = olympics_engine.ask("Which country won medals at the 2008 Summer Olympics and won the most gold medals in "
                                "rowing?")
    assert _statuses(trace)["the most gold medals in rowing"] == "described"
    assert not trace.answer.meets_every_named


def test_a_superlative_before_a_name_is_reported_as_not_checked(olympics_engine):
    """"Which country is the largest member of the United Nations?": no fact says which is largest, so the members are
    no exact answer to it; a superlative inside a name ("Greatest Hits") is none."""
    trace = olympics_engine.ask("Which country is the largest member of the United Nations?")
    assert _statuses(trace)["the largest"] == "compared" and not trace.answer.meets_every_named
    assert "'the largest' (not checked: a comparison)" in trace.answer.headline
    trace = olympics_engine.ask("Which country is the northernmost member of the United Nations?")
    assert "the northernmost" in _statuses(trace)
    trace = olympics_engine.ask("Which country is a member of the United Nations?")
    assert "compared" not in _statuses(trace).values() and trace.answer.meets_every_named


def test_every_condition_only_when_all_are_used(olympics_engine):
    trace = olympics_engine.ask("Which country is a Republic, a member of the United Nations and won medals at the "
                                "2008 Summer Olympics and the 2012 Summer Olympics?")
    assert trace.answer.headline == "Exactly one entity satisfies every condition."
    assert all(c.used for c in trace.answer.conditions) and len(trace.answer.conditions) == 4


def test_misspelt_names_are_read_and_the_answer_says_so(olympics_engine):
    right = olympics_engine.ask("Which country is a Republic, a member of the United Nations and won medals at the "
                                "2008 Summer Olympics and the 2012 Summer Olympics?")
    typo = olympics_engine.ask("Which country is a Repulbic, a member of the Untied Nations and won medals at the "
                               "2008 Summer Olympcs and the 2012 Summer Olympics?")
    assert [r.label for r in typo.answer.exact_set] == [r.label for r in right.answer.exact_set] == ["France"]
    fixed = {c.text: c.label for c in typo.answer.conditions if c.corrected}
    assert fixed == {"Repulbic": "Republic", "Untied Nations": "United Nations",
                     "2008 Summer Olympcs": "2008 Summer Olympics"}
    assert typo.answer.headline.startswith("Exactly one entity satisfies every condition — read 'Repulbic' as Republic")
    assert "'Untied Nations' as United Nations" in typo.answer.headline
    # the mention keeps the question's own words and offsets
    q = typo.question
    spans = {q[n.mention.start:n.mention.end] for n in typo.query_graph.constraints}
    assert "Untied Nations" in spans and "2008 Summer Olympcs" in spans


def test_a_relaxed_condition_is_named_in_the_verdict(olympics_engine):
    trace = olympics_engine.ask("Which country won medals at the 1988 Summer Olympics and the 2008 Summer Olympics?")
    a = trace.answer
    assert not a.exact_set
    assert sorted(_statuses(trace).values()) == ["relaxed", "used"]
    assert a.headline.startswith("No entity satisfies every condition; the best partial match satisfies 1 of 2")
    assert "(relaxed)" in a.headline


def test_cli_prints_the_verdict_and_json_carries_the_conditions(olympics_ws, capsys):
    q = "Which country won medals at the 2012 Summer Olympics and borders Atlantis?"
    assert main(["ask", "-w", str(olympics_ws), q]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("4 entities satisfy 1 of 2 conditions")
    assert "  Atlantis: nothing in the graph is named 'Atlantis'" in out
    assert main(["ask", "--json", "-w", str(olympics_ws), q]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer["headline"].startswith("4 entities satisfy 1 of 2 conditions")
    assert {c["text"]: c["status"] for c in answer["conditions"]} == {"2012 Summer Olympics": "used",
                                                                       "Atlantis": "not_found"}


def test_the_speller_reads_only_unknown_words_with_one_near_label_word():
    sp = SpellingCorrector(["comedian", "television director", "united states of america", "united states",
                            "ballet", "pallet"])
    text, fixes = sp.correct("Who is the comedain and televsion director from the Untied States?")
    assert text == "Who is the comedian and television director from the United States?"
    assert [(f.original, f.replacement) for f in fixes] == [("comedain", "comedian"), ("televsion", "television"),
                                                            ("Untied", "United")]
    # an English word stays as written, and so does a word two label words are equally near
    assert sp.correct("Which director received an award?") == ("Which director received an award?", ())
    assert sp.correct("Who danced the xallet?")[1] == ()


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 6), st.integers(1, 9)), max_size=4))
def test_spans_outside_corrections_map_back_exactly(parts):
    """Building a question of plain gaps and corrected words, every gap maps back to its own offsets and
    every corrected word to the original word's span."""
    original, corrected, fixes, gaps = "", "", [], []
    for gap, old_len, new_len in parts:
        g = " " * (gap + 1)
        gaps.append((len(original), len(corrected), len(g)))
        original += g
        corrected += g
        fixes.append(Fix(len(original), len(original) + old_len, "x" * old_len, "y" * new_len))
        gaps.append(None)
        start_c = len(corrected)
        original += "x" * old_len
        corrected += "y" * new_len
        assert to_original(tuple(fixes), start_c, start_c + new_len) == (fixes[-1].start, fixes[-1].end)
    for g in gaps:
        if g is not None:
            o, c, n = g
            assert to_original(tuple(fixes), c, c + n) == (o, o + n)


@given(st.lists(st.sampled_from(["used", "ranks", "relaxed", "not_found", "unused", "described", "unchecked",
                                  "compared"]), min_size=1, max_size=6),
       st.integers(0, 3))
def test_headline_claims_every_condition_only_when_all_are_used(statuses, n_exact):
    conds = tuple(Condition(f"c{i}", f"C{i}", s) for i, s in enumerate(statuses))
    members = tuple(RankedAnswer(f"n{i}", f"N{i}", 1.0, (), ()) for i in range(n_exact))
    a = Answer("N0" if members else "Unable", "n0" if members else None, bool(members), 1.0, members, (), (), "",
               exact_set=members)
    said = headline(a, conds)
    assert ("satisf" in said and "every condition" in said and "every condition;" not in said) == (
        bool(members) and all(s == "used" for s in statuses))
    for c in conds:
        assert c.used or f"'{c.text}'" in said or c.status == "unchecked" and c.reason in said
    unverified = {"not_found", "unused", "described", "unchecked", "compared"}
    assert replace(a, conditions=conds).meets_every_named == (bool(members) and not unverified & set(statuses))


def _conditions(question: str) -> list[tuple[str, str]]:
    """What the verdict accounts for in ``question`` over a graph naming the idiom's words too."""
    from sgrag import GraphBuilder
    from sgrag.accounting import account
    from sgrag.linking import Linker
    from sgrag.query import build_query_graph

    b = GraphBuilder()
    for label in ("Place", "Part", "Russian", "North Ossetia-Alania", "Australian Army", "force", "Eurovision"):
        b.add_node(label.lower(), label)
    lk = Linker(b.build())
    mentions, atype = lk.link(question)
    qg = build_query_graph(question, mentions, atype, unlinked=tuple(lk.unlinked(question, mentions)))
    none = Answer("Unable to determine", None, False, 0.0, (), (), (), "")
    return [(c.text, c.status) for c in account(qg, none, set(), set(), set(), 0.75, lk.knows)]


def test_an_idiom_is_no_condition_and_every_named_thing_still_is():
    """"took place in", "took part in": the idiom's noun is no condition to account for; every name is, linked or
    not; the names before the answer type's head are conditions, the head is not."""
    assert _conditions("Which Russian attack took place in North Ossetia-Alania?") == [
        ("Russian", "relaxed"), ("North Ossetia-Alania", "relaxed")]
    assert _conditions("Which singer took part in Eurovision, held in Sanremo?") == [
        ("Eurovision", "relaxed"), ("Sanremo", "not_found")]
    assert _conditions("Which Australian Army force, formed in Darwin, was disbanded?") == [
        ("Australian Army", "relaxed"), ("Darwin", "not_found")]


def test_a_match_joined_to_every_condition_but_ruled_out_says_why_not_k_of_k():
    """"satisfies 3 of 3" under "no entity satisfies every condition" contradicts itself: say what rules it out."""
    used = tuple(Condition(t, t, "used") for t in ("musical", "Rodgers", "Hammerstein"))
    apart = SetApart("doc:carousel", "Carousel", "no extracted relation fits 'was composed by'")
    a = Answer("Carousel", "doc:carousel", False, 0.6, (), ("Carousel",), (), "", set_apart=(apart,))
    assert headline(a, used) == ("No entity is proven to satisfy every condition; Carousel is joined to all 3, but "
                                 "no extracted relation fits 'was composed by'.")
    plain = Answer("Carousel", "doc:carousel", False, 0.6, (), ("Carousel",), (), "")
    assert "joined to all 3, but some only through facts read with too little confidence" in headline(plain, used)
    assert "satisfies 3 of 3" not in headline(plain, used)


def test_a_name_across_a_comma_the_graph_has_only_before_a_subtitle_is_one_condition_not_found():
    """"Crouching Tiger, Hidden Dragon" where the graph has "Crouching Tiger", "Hidden Dragon" and "Crouching Tiger,
    Hidden Dragon: Sword of Destiny": one name not found whole (its pieces only rank, as parts of it), not two
    conditions; with the whole title a label, it is linked whole."""
    from sgrag import GraphBuilder
    from sgrag.accounting import account
    from sgrag.linking import Linker
    from sgrag.query import build_query_graph

    def conditions(labels, question):
        b = GraphBuilder()
        for label in labels:
            b.add_node(label.lower(), label)
        lk = Linker(b.build())
        mentions, atype = lk.link(question)
        qg = build_query_graph(question, mentions, atype, unlinked=tuple(lk.unlinked(question, mentions)))
        none = Answer("Unable to determine", None, False, 0.0, (), (), (), "")
        return account(qg, none, set(), set(), set(), 0.75, lk.knows)

    q = "Which actress appeared in both Crouching Tiger, Hidden Dragon and Crouching Tiger, Hidden Dragon: Sword of Destiny?"
    labels = ["Crouching Tiger", "Hidden Dragon", "Crouching Tiger, Hidden Dragon: Sword of Destiny"]
    got = conditions(labels, q)
    assert [(c.text, c.status) for c in got] == [("Crouching Tiger, Hidden Dragon: Sword of Destiny", "relaxed"),
                                                ("Crouching Tiger, Hidden Dragon", "not_found")]
    assert "'Crouching Tiger' and 'Hidden Dragon' inside it only rank" in got[1].reason
    got = conditions(labels + ["Crouching Tiger, Hidden Dragon"], q)
    assert [(c.text, c.status) for c in got] == [("Crouching Tiger, Hidden Dragon", "relaxed"),
                                                ("Crouching Tiger, Hidden Dragon: Sword of Destiny", "relaxed")]
    # a list, or a place and its qualifier, no label spells so: each is its own condition
    got = conditions(labels + ["Canada", "Mexico"], "Which actress was born in Canada, Mexico or Hidden Dragon?")
    assert [(c.text, c.status) for c in got] == [("Canada", "relaxed"), ("Mexico", "relaxed"),
                                                ("Hidden Dragon", "relaxed")]


def test_a_class_word_that_only_ranks_says_when_the_partial_answer_meets_it():
    """"Which *person* ...": nothing meets every condition, so the class word only ranks; the answer meets it, as the
    partial list's "met" counts, and its note says so, and the verdict counts it as the list does ("2 of 3", not the
    "1 of 3" used, beside a list saying 2/3)."""
    from sgrag.accounting import account
    from sgrag.answer import offline_answer
    from sgrag.types import UNK, QueryGraph, QueryNode, RankedAnswer
    nodes = (QueryNode("u", UNK), QueryNode("q1", "America", "am"), QueryNode("q2", "X", "x"),
             QueryNode("q3", "person", "person", confidence=0.7))
    qg = QueryGraph("Which person is from America and wrote X?", nodes, (("u", "q1"), ("u", "q2"), ("u", "q3")))
    ranked = [RankedAnswer("a", "A", 2.0, ("q1", "q3"), ("q2",), {}), RankedAnswer("b", "B", 1.0, ("q1",), ("q2", "q3"), {})]
    a = offline_answer(qg, ranked, False, 0.25, partial_share=True, soft_below=0.75)
    conditions = {c.text: c for c in account(qg, a, {"q1", "q2"}, set(), {"q3"}, 0.75)}
    assert conditions["person"].status == "ranks" and conditions["person"].reason.endswith("(A meets it)")
    assert conditions["America"].status == "used" and conditions["X"].status == "relaxed"
    assert headline(a, tuple(conditions.values())).startswith(
        "No entity satisfies every condition; the best partial match satisfies 2 of 3")
    ranked[0] = RankedAnswer("a", "A", 2.0, ("q1",), ("q2", "q3"), {})
    a = offline_answer(qg, ranked, False, 0.25, partial_share=True, soft_below=0.75)
    conditions = {c.text: c for c in account(qg, a, {"q1", "q2"}, set(), {"q3"}, 0.75)}
    assert "meets it" not in conditions["person"].reason
    assert "the best partial match satisfies 1 of 3" in headline(a, tuple(conditions.values()))
