"""Lexicon presets: a neutral English base and a Freebase preset, chosen per workspace (detected at import,
recorded in its config, overridable), and an index that notices when its lexicon changed."""
import json

import pytest

from sgrag import Engine, GraphBuilder, InputFormatError, Workspace, write_json
from sgrag.lexicon import Lexicon, detect_preset, resolve_preset

from conftest import fast_config, olympics_graph


def test_the_freebase_preset_extends_the_base_with_freebase_label_conventions():
    base, fb = Lexicon.load(preset="base"), Lexicon.load(preset="freebase")
    assert "-GB" in fb.label_suffixes and not base.label_suffixes  # British professions named "Actor-GB"
    assert fb.language_label == "{x} Language" and base.language_label == ""
    assert base.demonyms == fb.demonyms and base.type_relations == fb.type_relations  # English is shared
    assert "employer" in base.relation_words["worked"] and "worked" not in fb.relation_words
    assert base.digest != fb.digest and (base.preset, fb.preset) == ("base", "freebase")
    with pytest.raises(InputFormatError, match="preset"):
        Lexicon.load(preset="wikidata")


def test_the_preset_is_read_from_relation_names():
    assert detect_preset(olympics_graph().relations) == "freebase"
    assert detect_preset(["place of birth", "country", "P31"]) == "base"
    assert resolve_preset("base", ["/people/person/profession"]) == "base"  # the user's choice wins
    with pytest.raises(InputFormatError, match="unknown lexicon preset"):
        resolve_preset("wikidata", [])


def _plain_graph():
    b = GraphBuilder()
    for nid, label in [("a", "Alice Varga"), ("k", "Kherson")]:
        b.add_node(nid, label)
    b.add_edge("a", "k", "place of birth")
    return b.build()


def test_import_records_the_detected_preset_and_the_index_notices_a_change(tmp_path):
    plain, fb = tmp_path / "plain.json", tmp_path / "fb.json"
    write_json(_plain_graph(), plain)
    write_json(olympics_graph(), fb)
    Workspace.create(tmp_path / "w1", fast_config())
    Engine.import_kg(tmp_path / "w1", json=fb)
    assert Workspace(tmp_path / "w1").config().query.lexicon == "freebase"
    ws = tmp_path / "w2"
    Workspace.create(ws, fast_config())
    Engine.import_kg(ws, json=plain)
    assert Workspace(ws).config().query.lexicon == "base"
    Engine.build(ws)
    meta = json.loads((Workspace(ws).index_dir() / "meta.json").read_text())
    assert meta["lexicon"] == {"preset": "base", "hash": Lexicon.load(preset="base").digest}
    assert not any(n.startswith("The lexicon changed") for n in Engine.open(ws).ask("Who was born in Kherson?").notes)
    (Workspace(ws).path / "lexicon.json").write_text(json.dumps({"aliases": {"the port": "Kherson"}}))
    notes = Engine.open(ws).ask("Who was born in Kherson?").notes
    assert any(n.startswith("The lexicon changed since this index was built (the workspace's lexicon.json changed)")
               for n in notes)
    cfg = Workspace(ws).config()
    cfg.query.lexicon = "freebase"  # the user overrides the detected preset
    Workspace(ws).save_config(cfg)
    assert any("preset 'base' -> 'freebase'" in n for n in Engine.open(ws).ask("Who was born in Kherson?").notes)
