"""Ingest page: import a knowledge graph, ingest documents with per-file status, delete a document."""
from pathlib import Path

from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import assert_clean, click, small_graph, texts, wait_job

from sgrag import Workspace
from sgrag.io.kg import write_graphml
from sgrag_app import state as K

PAGE = "pages/ingest.py"
DOCS = Path(__file__).resolve().parent.parent / "assets" / "docs"


def test_import_graphml(tmp_path, make_app):
    ws = Workspace.create(tmp_path / "ws" / "kg")
    gfile = tmp_path / "g.graphml"
    write_graphml(small_graph(), gfile)
    at = make_app(ws.path, PAGE)
    assert_clean(at)
    at.file_uploader(key=K.KG_UPLOAD).set_value(("g.graphml", gfile.read_bytes(), "application/xml"))
    at.run()
    click(at, "Import graph")
    at.run()
    job = wait_job("import", ws.path)
    assert job.status == "done", job.error
    at.run()
    assert_clean(at)
    assert "The import finished" in texts(at)
    assert ws.source_graph().num_nodes == 11


def test_import_triples(tmp_path, make_app):
    ws = Workspace.create(tmp_path / "ws" / "tri")
    at = make_app(ws.path, PAGE)
    at.file_uploader(key=K.KG_UPLOAD).set_value(("t.tsv", b"a\tr\tb\nb\tr\tc\n", "text/tab-separated-values"))
    at.run()
    click(at, "Import graph")
    at.run()
    assert wait_job("import", ws.path).status == "done"
    assert ws.source_graph().num_edges == 2


def test_bad_graph_file_is_a_readable_failure(tmp_path, make_app):
    ws = Workspace.create(tmp_path / "ws" / "bad")
    at = make_app(ws.path, PAGE)
    at.file_uploader(key=K.KG_UPLOAD).set_value(("broken.graphml", b"<graphml><node", "application/xml"))
    at.run()
    click(at, "Import graph")
    at.run()
    job = wait_job("import", ws.path)
    at.run()
    assert_clean(at)
    assert job.status == "failed"
    assert any("The import failed" in e.value and "broken.graphml" in e.value for e in at.error)


def test_ingest_documents_status_and_delete(tmp_path, make_app):
    ws = Workspace.create(tmp_path / "ws" / "docs")
    at = make_app(ws.path, PAGE)
    files = [(p.name, p.read_bytes(), "text/plain") for p in (DOCS / "hobbiton.txt", DOCS / "ada_lovelace.md")]
    files.append(("empty.txt", b"   ", "text/plain"))
    at.file_uploader(key=K.DOC_UPLOAD).set_value(files)
    at.run()
    click(at, "Ingest documents")
    at.run()
    job = wait_job("ingest", ws.path, timeout=120)
    assert job.status == "done", job.error
    at.run()
    assert_clean(at)
    status = {r["file"]: r["status"] for r in at.dataframe[0].value.to_dict("records")}
    assert status["hobbiton.txt"] == "done" and status["ada_lovelace.md"] == "done"
    assert status["empty.txt"] == "failed"
    assert ws.source_graph() is not None
    docs = at.dataframe[1].value
    assert len(docs) == 3  # the unreadable file stays listed, as failed, with its reason
    failed = docs[docs["title"] == "empty.txt"].iloc[0]
    assert failed["status"] == "failed" and failed["error"]
    warn = [w.value for w in at.warning]
    assert any("1 of 3 file(s) failed" in w for w in warn), warn  # not a plain green "finished"
    assert not at.success
    click(at, "Delete document")
    at.run()
    assert_clean(at)
    assert "Deleted" in texts(at)
    assert len(at.dataframe[-1].value) == 2


def test_ingest_where_every_file_fails_is_an_error(tmp_path, make_app):
    ws = Workspace.create(tmp_path / "ws" / "bad-docs")
    at = make_app(ws.path, PAGE)
    at.file_uploader(key=K.DOC_UPLOAD).set_value([("empty.txt", b"  ", "text/plain")])
    at.run()
    click(at, "Ingest documents")
    at.run()
    job = wait_job("ingest", ws.path, timeout=120)
    at.run()
    assert_clean(at)
    assert job.status == "done"
    assert any("Ingestion failed" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.success
    # a new session (browser refresh, server restart) still lists the failed file
    again = make_app(ws.path, PAGE)
    docs = again.dataframe[-1].value
    assert list(docs["title"]) == ["empty.txt"] and list(docs["status"]) == ["failed"]
