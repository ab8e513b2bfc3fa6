"""Documents extend a knowledge graph offline; the answer exists only in the documents."""
import pytest

from sgrag import Engine, Workspace, ingest
from conftest import REPO, fast_config


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    ws = tmp_path_factory.mktemp("docs") / "ws"
    Workspace.create(ws, fast_config())
    Engine.import_kg(ws, graphml=REPO / "assets" / "demo" / "fb_erqa_mini.graphml")
    before = Engine.build(ws)
    report = ingest(Workspace(ws), [REPO / "assets" / "docs"], Workspace(ws).config())
    assert not report.failed and report.nodes_added > 0
    Engine.build(ws)
    e = Engine.open(ws)
    assert e.graph.num_nodes > before["stats"]["nodes"]
    return e


@pytest.mark.parametrize("question,answer", [
    ("Which stadium in Beijing hosted the 2008 Summer Olympics?", "Beijing National Stadium"),
    ("Which palace in Santo Domingo was built by Diego Colón?", "Alcázar de Colón"),
])
def test_answer_found_only_in_documents(engine, question, answer):
    trace = engine.ask(question)
    assert trace.answer.text == answer and trace.answer.exact
    src = engine.graph.index_of[trace.answer.node_id]
    assert engine.graph.node_sources.get(src), "the answer node carries document provenance"
