"""Build page: start a build in the background, watch it, reconnect from a new session, cancel."""
from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import assert_clean, click, make_workspace, texts, wait_job

from app_support import small_config

from sgrag import Engine, GraphBuilder, Workspace

PAGE = "pages/build.py"


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def test_build_runs_in_background_and_reports(tmp_path, make_app):
    ws = make_workspace(tmp_path / "ws" / "fresh", build=False, epochs=2)
    at = make_app(ws, PAGE)
    assert_clean(at)
    assert "Source graph" in texts(at)
    click(at, "Start build")
    at.run()
    assert_clean(at)
    job = wait_job("build", ws)
    assert job.status == "done", job.error
    at.run()
    assert_clean(at)
    page = texts(at)
    assert "The build finished" in page and "Graph statistics" in page
    assert Workspace(ws).index_version
    assert any(m.label == "nodes" and m.value == "11" for m in at.metric)


def test_refresh_reconnects_and_cancel(tmp_path, make_app):
    ws = make_workspace(tmp_path / "ws" / "slow", build=False, epochs=2000)
    first = make_app(ws, PAGE)
    click(first, "Start build")
    first.run()
    assert _button(first, "Start build").disabled  # no second start while it runs
    assert not _button(first, "Cancel").disabled
    # a browser refresh is a new session: it must find the running build, not start another
    second = make_app(ws, PAGE)
    assert_clean(second)
    assert "Building" in texts(second)
    assert _button(second, "Start build").disabled
    click(second, "Cancel")
    second.run()
    job = wait_job("build", ws)
    assert job.status == "cancelled", (job.status, job.error)
    second.run()
    assert "cancelled" in texts(second)
    assert not Workspace(ws).index_version


def test_workspace_without_graph(tmp_path, make_app):
    ws = Workspace.create(tmp_path / "ws" / "empty")
    at = make_app(ws.path, PAGE)
    assert_clean(at)
    assert "no graph yet" in texts(at)
    assert _button(at, "Start build").disabled


def test_build_failure_is_a_message(tmp_path, make_app):
    ws = make_workspace(tmp_path / "ws" / "bad", build=False, epochs=1)
    cfg = Workspace(ws).config()
    cfg.index.max_paths = 1  # the graph has more paths than this budget: the engine refuses
    Workspace(ws).save_config(cfg)
    at = make_app(ws, PAGE)
    click(at, "Start build")
    at.run()
    job = wait_job("build", ws)
    at.run()
    assert_clean(at)
    assert job.status == "failed"
    assert any("The build failed" in e.value for e in at.error)


def test_existing_index_shows_last_report(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    assert_clean(at)
    assert "Current index" in texts(at)


def test_the_build_page_shows_what_sgrag_learned_about_the_graph(tmp_path, make_app):
    b = GraphBuilder()
    for nid in ("a", "b", "c", "d"):
        b.add_node(nid, nid.upper())
    hostile = "<script>alert(1)</script> sibling of"  # a relation name is graph text: untrusted
    for x, y in (("a", "b"), ("c", "d")):
        b.add_edge(x, y, hostile)
        b.add_edge(y, x, hostile)
    ws = Workspace.create(tmp_path / "ws" / "plain", small_config())
    ws.save_source_graph(b.build())
    Engine.build(ws.path)
    at = make_app(ws.path, PAGE)
    assert_clean(at)
    page = texts(at)
    assert "What sgrag learned about this graph" in page and "Relations are named in plain words" in page
    assert r"Symmetric\: &lt;script&gt;alert\(1\)&lt;/script&gt; sibling of" in page and "<script>" not in page
    assert "Lexicon preset **base**" in page
