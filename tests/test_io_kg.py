import gzip

import pytest

from sgrag.errors import InputFormatError
from sgrag.io.kg import read_any, read_graphml, read_json, read_triples, write_graphml, write_json
from conftest import olympics_graph, shared_or_skip


def test_triples_with_header_gz_names_and_relation_text(tmp_path):
    t = tmp_path / "t.tsv.gz"
    with gzip.open(t, "wt") as fh:
        fh.write("head\trelation\ttail\n/m/1\t/loc/contains\t/m/2\n/m/2\t/loc/in\t/m/3\n")
    (tmp_path / "e.tsv").write_text("id\tname\n/m/1\tFrance\n/m/2\tParis\n")
    (tmp_path / "r.tsv").write_text("relation\ttext\n/loc/contains\tlocation contains\n")
    g = read_triples(t, tmp_path / "e.tsv", tmp_path / "r.tsv")
    assert g.labels == ["France", "Paris", "/m/3"]
    assert g.relation_text(0) == "location contains" and g.relation_text(1) == "/loc/in"


def test_csv_without_header(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("a,likes,b\nb,likes,c\n")
    assert read_any(p).num_edges == 2


@pytest.mark.parametrize("content,line,problem", [
    ("a\tr\tb\nc\td\n", 2, "expected 3 columns"),
    ("a\tr\t\n", 1, "empty head"),
    ("", None, "no triples"),
])
def test_bad_triples_name_file_line_and_problem(tmp_path, content, line, problem):
    p = tmp_path / "bad.tsv"
    p.write_text(content)
    with pytest.raises(InputFormatError) as ei:
        read_triples(p)
    assert ei.value.line == line and problem in str(ei.value) and "bad.tsv" in str(ei.value)


def test_non_utf8_file_is_a_clear_error(tmp_path):
    p = tmp_path / "latin.tsv"
    p.write_bytes("Andr\xe9\tr\tb\n".encode("latin-1"))
    with pytest.raises(InputFormatError, match="not UTF-8"):
        read_triples(p)


def test_graphml_and_json_round_trip(tmp_path):
    g = olympics_graph()
    write_graphml(g, tmp_path / "g.graphml")
    write_json(g, tmp_path / "g.json")
    for h in (read_graphml(tmp_path / "g.graphml"), read_json(tmp_path / "g.json")):
        assert h.labels == g.labels
        assert [h.edge_tuple(e) for e in range(h.num_edges)] == [g.edge_tuple(e) for e in range(g.num_edges)]


def test_jsonl_records_and_bad_line(tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_text('{"id": "a", "label": "Ada"}\n{"source": "a", "target": "b", "relation": "knew"}\n')
    g = read_json(p)
    assert g.labels == ["Ada", "b"] and g.num_edges == 1
    p.write_text('{"id": "a"}\n{oops\n')
    with pytest.raises(InputFormatError) as ei:
        read_json(p)
    assert ei.value.line == 2


def test_graphml_entity_expansion_is_refused(tmp_path):
    p = tmp_path / "bomb.graphml"
    p.write_text('<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
                 '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph><node id="&b;"/></graph></graphml>')
    with pytest.raises(InputFormatError):
        read_graphml(p)


def test_truncated_graphml_is_a_clear_error(tmp_path):
    p = tmp_path / "cut.graphml"
    p.write_text('<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph><node id="a">')
    with pytest.raises(InputFormatError, match="invalid GraphML"):
        read_graphml(p)


def test_shared_mini_graph_imports():
    g = read_graphml(shared_or_skip("erqa", "fb_erqa_mini.graphml"))
    assert (g.num_nodes, g.num_edges) == (4830, 16399)
