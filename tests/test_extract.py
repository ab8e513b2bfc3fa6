"""Offline and LLM extractors, the extraction cache, and merging into a graph."""
from __future__ import annotations

import numpy as np
import pytest
from openai_stub import stub_server  # noqa: F401  (fixture)

from sgrag.errors import ParseError
from sgrag.extract import (IMPORTED, ChunkExtraction, ExtractedEntity, ExtractedRelation,
                           ExtractionCache, LLMExtractor, extract_chunks, merge_into_graph)
from sgrag.graph import GraphBuilder
from sgrag.io.documents import Document, chunk_document
from sgrag.llm import OpenAICompatibleClient
from sgrag.offline import OfflineExtractor


def triples(found: ChunkExtraction) -> set[tuple[str, str, str]]:
    return {(r.source, r.relation, r.target) for r in found.relations}


def chunk(text: str, doc_id: str = "doc1"):
    return chunk_document(Document(doc_id, f"{doc_id}.txt", doc_id, (text,), "txt"))[0]


# ---- LLM ------------------------------------------------------------------------------------
RECORDS = ("(n1<|>Ada Lovelace<|>mathematician)#(n2<|>London<|>city)#"
           "(e1<|>n1<|>n2<|>born in<|>Ada was born in London)")


def llm_client(server, tmp_path=None):
    return OpenAICompatibleClient(server.url, "stub", backoff_base_s=0.0, max_retries=1,
                                  cache_dir=tmp_path, sleep=lambda s: None)


def test_llm_extractor_complete_output(stub_server):
    stub_server.push(RECORDS + "#<|COMPLETE|>")
    found = LLMExtractor(llm_client(stub_server)).extract(chunk("Ada Lovelace was born in London."))
    assert triples(found) == {("Ada Lovelace", "born in", "London")}
    assert found.complete and found.chunk_id == "doc1:p0:c0"
    assert "Ada Lovelace was born in London." in stub_server.requests[0]["body"]["messages"][0]["content"]


def test_llm_extractor_gleans_when_cut_off(stub_server):
    stub_server.push("(n1<|>Ada Lovelace<|>mathematician)#(n2<|>London<|>city)#(e1<|>n1<|>n2<|>bor",
                     "(e1<|>n1<|>n2<|>born in<|>Ada was born in London)#(n3<|>Charles Babbage<|>)#"
                     "(e2<|>n1<|>n3<|>worked with<|>)#<|COMPLETE|>")
    llm = llm_client(stub_server)
    found = LLMExtractor(llm, gleanings=1).extract(chunk("..."))
    assert triples(found) == {("Ada Lovelace", "born in", "London"), ("Ada Lovelace", "worked with", "Charles Babbage")}
    assert stub_server.count("/chat/completions") == 2
    second = stub_server.requests[1]["body"]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"] and "cut off" in second[2]["content"]
    assert llm.usage()["extract-gleaning"].calls == 1


def test_llm_extractor_stops_after_gleanings(stub_server):
    stub_server.push(RECORDS, RECORDS.replace("n1", "n7"))  # never says <|COMPLETE|>
    found = LLMExtractor(llm_client(stub_server), gleanings=1).extract(chunk("x"))
    assert not found.complete and stub_server.count("/chat/completions") == 2


def test_garbage_output_falls_back_or_raises(stub_server):
    stub_server.push("I'm sorry, I can't do that.", "Still no records here.")
    llm = llm_client(stub_server)
    text = chunk("Ada Lovelace was born in London.")
    found = LLMExtractor(llm, gleanings=0, fallback=OfflineExtractor()).extract(text)
    assert "->offline" in found.extractor and ("Ada Lovelace", "born in", "London") in triples(found)
    assert "no usable graph records" in found.dropped[0][1]
    with pytest.raises(ParseError):
        LLMExtractor(llm, gleanings=0).extract(text)


# ---- cache and driver ------------------------------------------------------------------------
class CountingExtractor:
    name = "counting-v1"

    def __init__(self):
        self.calls = 0
        self.inner = OfflineExtractor()

    def extract(self, c):
        self.calls += 1
        return self.inner.extract(c)


@pytest.mark.parametrize("workers", [1, 3])
def test_cache_reuses_chunk_extractions(tmp_path, workers):
    doc = Document("d", "d.txt", "d", (" ".join(f"Person {i} Smith was born in City{i}." for i in range(40)),), "txt")
    chunks = chunk_document(doc, chunk_chars=300, overlap=50)
    ex, cache = CountingExtractor(), ExtractionCache(tmp_path)
    seen: list[tuple[int, bool]] = []
    first = extract_chunks(chunks, ex, cache, workers, lambda i, f, cached: seen.append((i, cached)))
    assert ex.calls == len(chunks) and sorted(seen) == [(i, False) for i in range(len(chunks))]
    again = extract_chunks(chunks, ex, cache, workers)
    assert ex.calls == len(chunks) and again == first
    # the same text in another document is served from the cache with that document's ids
    other = chunk_document(Document("e", "e.txt", "e", doc.pages, "txt"), chunk_chars=300, overlap=50)
    assert extract_chunks(other, ex, cache)[0].doc_id == "e" and ex.calls == len(chunks)


def test_stop_from_callback_propagates(tmp_path):
    chunks = chunk_document(Document("d", "d.txt", "d", ("A B was here. " * 200,), "txt"), 200, 0)

    def stop(i, f, cached):
        if i == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        extract_chunks(chunks, CountingExtractor(), ExtractionCache(tmp_path), 1, stop)


# ---- merging ------------------------------------------------------------------------------
def ex(chunk_id: str, ents, rels) -> ChunkExtraction:
    return ChunkExtraction(chunk_id, chunk_id.split(":")[0], tuple(ExtractedEntity(*e) for e in ents),
                           tuple(ExtractedRelation(*r) for r in rels), "test")


def imported_graph():
    b = GraphBuilder()
    b.add_node("/m/london", "London", "capital of England")
    b.add_node("/m/uk", "United Kingdom")
    b.add_edge("/m/london", "/m/uk", "country")
    return b.build()


def test_merge_by_folded_label_attaches_to_imported_nodes_with_provenance():
    base = imported_graph()
    found = [ex("d1:p0:c0", [("Ada Lovelace", "mathematician"), ("london", "city")],
                [("Ada Lovelace", "London", "born in", "Ada was born in London")]),
             ex("d2:p0:c0", [("ADA LOVELACE!", "writer")], [("Ada Lovelace", "London", "died in", "")])]
    res = merge_into_graph(base, found)
    g = res.graph
    ada = g.index_of["doc:ada lovelace"]
    assert g.labels[ada] == "Ada Lovelace" and g.descriptions[ada] == "mathematician | writer"
    assert g.node_sources[ada] == ["d1:p0:c0", "d2:p0:c0"]
    london = g.index_of["/m/london"]
    assert g.node_sources[london][0] == IMPORTED and "city" in g.descriptions[london]
    assert (res.nodes_added, res.edges_added) == (1, 2)
    assert base.num_nodes == 2  # input untouched
    again = merge_into_graph(g, found).graph  # idempotent
    assert (again.num_nodes, again.num_edges, again.node_sources, again.edge_sources) == \
        (g.num_nodes, g.num_edges, g.node_sources, g.edge_sources)


def test_imported_edge_supported_by_a_document_is_marked():
    g = merge_into_graph(imported_graph(), [ex("d1:p0:c0", [], [("London", "United Kingdom", "country", "")])]).graph
    e = next(e for e in range(g.num_edges) if g.edge_tuple(e)[2] == "country")
    assert g.edge_sources[e] == [IMPORTED, "d1:p0:c0"]


class TableEmbedder:
    """Labels mapped to fixed directions, to test the similarity merge exactly."""

    def __init__(self, table):
        self.table = table

    def embed(self, texts):
        return np.asarray([self.table[t] for t in texts], dtype=np.float32)


def test_embedding_merge_joins_similar_labels():
    emb = TableEmbedder({"London": [1, 0, 0], "United Kingdom": [0, 1, 0], "Londres": [0.99, 0.14, 0],
                         "Paris": [0, 0, 1], "Paree": [0, 0.1, 0.995]})
    found = [ex("d1:p0:c0", [("Londres", ""), ("Paris", ""), ("Paree", "")], [])]
    g = merge_into_graph(imported_graph(), found, embedder=emb, threshold=0.95).graph
    assert "doc:londres" not in g.index_of and "doc:paree" not in g.index_of
    assert "doc:paris" in g.index_of
    assert "d1:p0:c0" in g.node_sources[g.index_of["/m/london"]]
