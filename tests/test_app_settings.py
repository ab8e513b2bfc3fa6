"""Settings page: save config (never the key), validation errors, test connection offline and live."""
from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import assert_clean, click, texts
from openai_stub import stub_server  # noqa: F401 (fixture)

from sgrag import Workspace
from sgrag_app import state as K

PAGE = "pages/settings.py"


def _field(at, label):
    for kind in ("text_input", "selectbox", "number_input", "radio"):
        for w in getattr(at, kind):
            if w.label == label:
                return w
    raise AssertionError(label)


def test_save_settings_persists_config_but_not_the_key(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    assert_clean(at)
    _field(at, "Path length l").set_value(2)
    _field(at, "GNN epochs").set_value(7)
    _field(at, "API key").input("sk-secret-123")
    click(at, "Save settings")
    at.run()
    assert_clean(at)
    cfg = Workspace(built_ws).config()
    assert cfg.index.path_length == 2 and cfg.gnn.epochs == 7
    assert "rebuild" in texts(at)
    assert "sk-secret-123" not in (built_ws / "config.json").read_text()
    assert at.session_state[K.API_KEY] == "sk-secret-123"


def test_llm_mode_without_endpoint_is_refused(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    _field(at, "Answers").set_value("llm")
    click(at, "Save settings")
    at.run()
    assert_clean(at)
    assert any("need an endpoint" in e.value for e in at.error)
    assert Workspace(built_ws).config().answer.mode == "offline"


def test_connection_offline(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    click(at, "Test connection")
    at.run()
    assert_clean(at)
    assert "Offline mode" in texts(at)


def test_connection_to_a_live_endpoint(built_ws, make_app, stub_server):
    at = make_app(built_ws, PAGE)
    _field(at, "Endpoint (base URL)").input(stub_server.url)
    click(at, "Save settings")
    at.run()
    stub_server.push("OK")
    click(at, "Test connection")
    at.run()
    assert_clean(at)
    assert any("Connected" in s.value for s in at.success), texts(at)


def test_connection_failure_is_readable(built_ws, make_app):
    cfg = Workspace(built_ws).config()
    cfg.llm.base_url, cfg.llm.max_retries, cfg.llm.timeout_s = "http://127.0.0.1:9/v1", 0, 2.0
    Workspace(built_ws).save_config(cfg)
    at = make_app(built_ws, PAGE)
    click(at, "Test connection")
    at.run()
    assert_clean(at)
    assert any("Cannot use" in e.value for e in at.error)


def test_connection_tests_the_fields_on_screen_not_the_saved_ones(built_ws, make_app, stub_server):
    at = make_app(built_ws, PAGE)
    _field(at, "Endpoint (base URL)").input(stub_server.url)  # typed, not saved
    click(at, "Test connection")
    at.run()
    assert_clean(at)
    assert any("Connected" in s.value for s in at.success), texts(at)
    assert stub_server.count("/chat/completions") == 1
    assert Workspace(built_ws).config().llm.base_url == ""  # testing does not save
    assert "no endpoint is configured" not in texts(at)


def test_rules_are_switched_off_per_workspace_and_listed(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    assert_clean(at)
    box = next(m for m in at.multiselect if m.label == "Rules switched off")
    box.set_value(["demonyms", "likelihood"])
    click(at, "Save rules")
    at.run()
    assert_clean(at)
    assert Workspace(built_ws).config().rules.disabled == ["demonyms", "likelihood"]
    assert "Rules saved: 2 off" in texts(at)
    shown = at.dataframe[0].value
    assert set(shown.loc[~shown["on"], "name"]) == {"demonyms", "likelihood"}
