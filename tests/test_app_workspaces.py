"""Sidebar workspace management: choose (kept in the URL), create (with name validation), delete, jobs."""
import shutil

from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import APP, Q_DR, assert_clean, click, make_workspace, run_loaded, texts, wait_job

from sgrag import Workspace
from sgrag_app import state as K
from sgrag_app.runtime import job_registry


def test_create_choose_and_delete(built_ws, make_app):
    at = make_app(built_ws)
    assert at.selectbox(key=K.WORKSPACE).value == "small"
    at.text_input(key=K.NEW_WS_NAME).input("second")
    click(at, "Create")
    at.run()
    assert_clean(at)
    root = built_ws.parent
    assert Workspace(root / "second").exists
    assert at.selectbox(key=K.WORKSPACE).value == "second"
    assert "Created workspace" in texts(at)
    at.checkbox(key=K.DELETE_WS_CONFIRM).check()
    at.run()
    click(at, "Delete")
    at.run()
    assert_clean(at)
    assert not (root / "second").exists()
    assert at.selectbox(key=K.WORKSPACE).value == "small"


def test_invalid_and_duplicate_names(built_ws, make_app):
    at = make_app(built_ws)
    at.text_input(key=K.NEW_WS_NAME).input("../evil")
    click(at, "Create")
    at.run()
    assert_clean(at)
    assert any("workspace name" in e.value for e in at.error)
    at.text_input(key=K.NEW_WS_NAME).input("small")
    click(at, "Create")
    at.run()
    assert any("already exists" in e.value for e in at.error)


def test_delete_needs_confirmation(built_ws, make_app):
    at = make_app(built_ws)
    assert next(b for b in at.button if b.label == "Delete").disabled


def _answers(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("## ")]


def test_switching_workspace_never_shows_the_other_workspaces_answer(built_ws, make_app):
    shutil.copytree(built_ws, built_ws.parent / "twin")  # same graph, same index version "v0001"
    at = make_app(built_ws)
    at.text_input(key=K.QUESTION).input(Q_DR)
    click(at, "Ask")
    at.run()
    assert _answers(at) == ["## Dominican Republic"]
    at.selectbox(key=K.WORKSPACE).select("twin")
    run_loaded(at)
    assert_clean(at)
    assert _answers(at) == [] and "Ask a question with two or more conditions" in texts(at)


def test_workspace_comes_from_the_url_and_stays_across_pages(built_ws, monkeypatch):
    from streamlit.testing.v1 import AppTest
    shutil.copytree(built_ws, built_ws.parent / "twin")
    monkeypatch.setenv("SGRAG_WORKSPACE", str(built_ws))
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params[K.WORKSPACE] = "twin"  # a deep link or a refresh of ?ws=twin
    run_loaded(at)
    assert at.selectbox(key=K.WORKSPACE).value == "twin"
    for page in ("pages/build.py", "pages/ingest.py", "pages/ask.py"):
        at.switch_page(page)
        run_loaded(at)
        assert_clean(at)
        assert at.selectbox(key=K.WORKSPACE).value == "twin", page


def test_running_jobs_of_every_workspace_are_listed(tmp_path, make_app):
    slow = make_workspace(tmp_path / "ws" / "slow", build=False, epochs=5000)
    make_workspace(tmp_path / "ws" / "calm", build=False)
    at = make_app(slow, "pages/build.py")
    click(at, "Start build")
    at.run()
    try:
        at.selectbox(key=K.WORKSPACE).select("calm")
        at.run()
        assert_clean(at)
        assert "build · slow" in texts(at)
    finally:
        job_registry().get("build", str(slow)).cancel()
        wait_job("build", slow)


def test_an_unknown_workspace_in_the_url_is_reported(built_ws, monkeypatch):
    from streamlit.testing.v1 import AppTest
    monkeypatch.setenv("SGRAG_WORKSPACE", str(built_ws))
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params[K.WORKSPACE] = "nope"
    run_loaded(at)
    assert any("There is no workspace named 'nope'" in w.value for w in at.warning), [w.value for w in at.warning]
    assert at.selectbox(key=K.WORKSPACE).value == built_ws.name
