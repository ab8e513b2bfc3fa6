"""Record parsers: messy layouts accepted, drops reported, ParseError only when nothing usable."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgrag.errors import ParseError, SgragError
from sgrag.parse import (ParsedEdge, ParsedNode, format_graph_records, is_complete,
                         parse_graph_records, parse_query_graph)

PAPER = ("(n1<|>Ada Lovelace<|>English mathematician)#(n2<|>London<|>capital of England)#"
         "(e1<|>n1<|>n2<|>born in)#<|COMPLETE|>")


def test_paper_format_four_field_edge():
    g = parse_graph_records(PAPER)
    assert [n.label for n in g.nodes] == ["Ada Lovelace", "London"]
    assert g.edges == (ParsedEdge("e1", "n1", "n2", "born in", "born in"),)
    assert g.complete and g.dropped == ()


def test_five_field_edge_carries_relation_and_long_description():
    g = parse_graph_records("(n1<|>A<|>)#(n2<|>B<|>)#(e1<|>n1<|>n2<|>member of<|>A joined B in 1990 after a long vote)")
    assert g.edges[0].relation == "member of" and "1990" in g.edges[0].description
    assert not g.complete


def test_long_paper_description_gets_generic_relation():
    g = parse_graph_records("(n1<|>A<|>)#(n2<|>B<|>)#(e1<|>n1<|>n2<|>A was a founding member of B in 1990)")
    assert g.edges[0].relation == "related to"


@pytest.mark.parametrize("text", [
    "```\n" + PAPER.replace("#", "\n") + "\n```",
    PAPER.replace("<|>", " <| > "),
    PAPER.replace("Ada Lovelace", '"Ada Lovelace"').replace("(n2<|>London", "(<n2><|>London"),
    "Sure! Here is the graph:\n" + PAPER,
    PAPER.replace("(n1", '("entity"<|>n1').replace("(e1", "(relationship<|>e1"),
])
def test_layout_variants_parse_the_same(text):
    g = parse_graph_records(text)
    assert [n.label for n in g.nodes] == ["Ada Lovelace", "London"]
    assert len(g.edges) == 1 and g.edges[0].src == "n1"


def test_partial_last_record_is_dropped_and_reported():
    g = parse_graph_records("(n1<|>Ada<|>x)#(n2<|>London<|>y)#(e1<|>n1<|>n2<|>bor")
    assert not g.complete and g.edges == ()
    assert g.dropped == (("(e1<|>n1<|>n2<|>bor", "truncated record (output was cut off)"),)


def test_missing_close_paren_accepted_when_complete():
    g = parse_graph_records("(n1<|>Ada<|>x)#(n2<|>London<|>y)#(e1<|>n1<|>n2<|>born in#<|COMPLETE|>")
    assert len(g.edges) == 1


def test_edges_before_nodes_labels_as_refs_and_bad_refs():
    g = parse_graph_records("(e1<|>Ada<|>n2<|>born in)#(e2<|>n1<|>n9<|>x)#(e3<|>n1<|>n1<|>self)#"
                            "(n1<|>Ada<|>)#(n2<|>London<|>)#<|COMPLETE|>")
    assert [(e.src, e.dst) for e in g.edges] == [("n1", "n2")]
    reasons = dict(g.dropped)
    assert "unknown node 'n9'" in reasons["(e2<|>n1<|>n9<|>x)"] and reasons["(e3<|>n1<|>n1<|>self)"] == "self loop"


def test_three_field_edge_between_known_ids():
    g = parse_graph_records("(n1<|>A<|>)#(n2<|>B<|>)#(e1<|>n1<|>n2)#<|COMPLETE|>")
    assert len(g.nodes) == 2 and g.edges[0].relation == "related to"


def test_hash_inside_field_survives():
    g = parse_graph_records("(n1<|>C#<|>language)#(n2<|>F# (lang)<|>language)#<|COMPLETE|>")
    assert [n.label for n in g.nodes] == ["C#", "F# (lang)"]


def test_duplicate_node_ids():
    g = parse_graph_records("(n1<|>Ada<|>x)#(n1<|>ada<|>y)#(n1<|>Bob<|>z)#<|COMPLETE|>")
    assert g.nodes == (ParsedNode("n1", "Ada", "x | y"),)
    assert "duplicate node id" in g.dropped[0][1]


@pytest.mark.parametrize("text", ["", "I cannot help with that.", "(just text)", "   \n  "])
def test_nothing_usable_raises(text):
    with pytest.raises(ParseError):
        parse_graph_records(text)


def test_empty_but_complete_is_an_empty_graph():
    g = parse_graph_records("<|COMPLETE|>")
    assert g.nodes == () and g.complete
    assert is_complete("x <| complete |>") and not is_complete("x")


def test_parse_error_is_an_sgrag_error_with_line():
    with pytest.raises(SgragError) as info:
        parse_graph_records("garbage line")
    assert info.value.line == "garbage line"


# ---- query graph --------------------------------------------------------------------------
def test_query_graph_paper_format():
    q = parse_query_graph("(q1<|>UNK<|>country)#(q2<|>Santo Domingo<|>city)#(q3<|>World Bank<|>)#"
                          "(e1<|>q1<|>q2<|>)#(e2<|>q1<|>q3<|>)#<|COMPLETE|>")
    assert q.targets == ("q1",) and q.edges == (("q1", "q2"), ("q1", "q3"))
    assert [n.label for n in q.nodes] == ["UNK", "Santo Domingo", "World Bank"]


@pytest.mark.parametrize("unk", ["unknown", "<UNK>", "[UNK]", "Unk"])
def test_query_graph_unk_spellings(unk):
    q = parse_query_graph(f"(q1<|>{unk}<|>)\n(q2<|>Paris<|>)\n(e1<|>q2<|>q1<|>)\n(e2<|>q1<|>q2<|>)")
    assert q.targets == ("q1",) and q.edges == (("q2", "q1"),)


def test_query_graph_without_target_or_nodes_raises():
    with pytest.raises(ParseError, match="no UNK"):
        parse_query_graph("(q1<|>Paris<|>)#<|COMPLETE|>")
    with pytest.raises(ParseError):
        parse_query_graph("The answer is Paris.")


# ---- properties ---------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_never_crashes_on_arbitrary_text(text):
    for parser in (parse_graph_records, parse_query_graph):
        try:
            parser(text)
        except ParseError:
            pass


_TOKEN_TEXT = st.text(st.characters(codec="utf-8", categories=("L", "N", "Zs", "Pd", "Po"),
                                    exclude_characters="#()<>|\"'`“”‘’"), min_size=1, max_size=30)
_FIELD = _TOKEN_TEXT.map(lambda s: " ".join(s.split())).filter(bool)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_FIELD, _FIELD), min_size=2, max_size=6, unique_by=lambda t: t[0].casefold()),
       st.data())
def test_round_trip_of_formatted_records(pairs, data):
    nodes = [ParsedNode(f"n{i}", label, desc) for i, (label, desc) in enumerate(pairs)]
    n = len(nodes)
    edges = []
    for k in range(data.draw(st.integers(0, 5))):
        i, j = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
        if i != j:
            edges.append(ParsedEdge(f"e{k}", f"n{i}", f"n{j}", data.draw(_FIELD), data.draw(_FIELD)))
    g = parse_graph_records(format_graph_records(nodes, edges))
    assert list(g.nodes) == nodes and list(g.edges) == edges and g.complete and g.dropped == ()


# ---- prompt templates ------------------------------------------------------------------------
def test_prompts_follow_the_paper_and_examples_parse():
    from sgrag.prompts import (UNABLE, default_prompts, extraction_messages, query_graph_messages,
                               relation_paragraph, render_answer_prompt)
    p = default_prompts()
    ext = extraction_messages(p, "Some {braced} text")[0]["content"]
    assert "Text: Some {braced} text" in ext and "<|COMPLETE|>" in ext and "#" in ext
    example = next(line for line in p.extract_graph.splitlines() if line.startswith("(n1"))
    assert parse_graph_records(example).edges[0].relation == "born in"
    q = query_graph_messages(p, "Which country contains Santo Domingo?")[0]["content"]
    assert q.rstrip().endswith("Text: Which country contains Santo Domingo?") and '"UNK"' in q
    q_example = next(line for line in p.query_graph.splitlines() if line.startswith("(q1"))
    assert parse_query_graph(q_example).targets == ("q1",)
    para = relation_paragraph(p, [("France", "Republic", "form of government"), ("France", "UN", "member of.")])
    assert para == ("Node France is related to Node Republic via: form of government.\n"
                    "Node France is related to Node UN via: member of.")
    answer = render_answer_prompt(para, "Which country?")[0]["content"]
    assert para in answer and "User Question: Which country?" in answer and UNABLE in answer
    assert "must be one of the entity labels" in answer


def test_prompt_overrides_are_validated():
    from sgrag.prompts import load_prompts
    custom = load_prompts({"query_graph": "Q: {user_query}"})
    assert custom.query_graph == "Q: {user_query}" and custom.fingerprint != load_prompts().fingerprint
    with pytest.raises(SgragError, match="placeholder"):
        load_prompts({"answer_inference": "no placeholders"})
    with pytest.raises(SgragError, match="unknown prompt"):
        load_prompts({"nope": "x"})
