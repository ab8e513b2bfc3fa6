"""Sidebar workspace management: choose, create (with name validation), delete."""
from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import assert_clean, click, texts

from sgrag import Workspace
from sgrag_app import state as K


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
