"""The rule registry: one table of named rules, switchable per workspace, with a clear error on a typo."""
from __future__ import annotations

import json
import re

import pytest

from sgrag import Engine, SgragConfig
from sgrag.cli import main
from sgrag.errors import ConfigError
from sgrag.rules import STAGES, markdown_table, registered, switches
from conftest import REPO


def test_every_rule_has_a_unique_name_a_stage_and_a_one_line_description():
    rules = registered()
    assert len(rules) >= 45
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", r.name), r.name
        assert r.stage in STAGES
        assert r.description and "\n" not in r.description and r.description.endswith((".", ")")), r.name
    assert {r.stage for r in rules} >= {"linking", "ranking", "narrowing", "relaxing"}


def test_the_readme_holds_the_rule_table_as_the_registry_makes_it():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    held = readme.split("<!-- rules:start -->\n", 1)[1].split("<!-- rules:end -->", 1)[0]
    assert held == markdown_table(), "regenerate it: python -m sgrag rules --markdown"


def test_an_unknown_rule_name_is_a_clear_error(olympics_ws):
    with pytest.raises(ConfigError, match="'demonymz'"):
        switches(["demonymz"])
    cfg = SgragConfig.from_dict({"rules": {"disabled": ["demonymz"]}})
    with pytest.raises(ConfigError, match="sgrag rules"):
        Engine.open(olympics_ws, config=cfg)
    with pytest.raises(ConfigError, match="must be a list"):
        SgragConfig.from_dict({"rules": {"disabled": "demonyms"}})  # not its letters


def test_cli_lists_the_rules_with_their_state_in_a_workspace(olympics_ws, tmp_path, capsys):
    assert main(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == [r.name for r in registered()] and all(r["on"] for r in rows)
    ws = tmp_path / "ws"
    import shutil
    shutil.copytree(olympics_ws, ws)
    cfg = json.loads((ws / "config.json").read_text())
    cfg["rules"] = {"disabled": ["demonyms", "likelihood"]}
    (ws / "config.json").write_text(json.dumps(cfg))
    assert main(["rules", "-w", str(ws), "--json"]) == 0
    off = {r["name"] for r in json.loads(capsys.readouterr().out) if not r["on"]}
    assert off == {"demonyms", "likelihood"}
    assert main(["rules", "-w", str(ws)]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^demonyms +linking +OFF", text, re.M) and f"2 off in {ws}" in text
    cfg["rules"] = {"disabled": ["likelyhood"]}
    (ws / "config.json").write_text(json.dumps(cfg))
    assert main(["rules", "-w", str(ws)]) == 2
    err = capsys.readouterr().err
    assert "'likelyhood'" in err and "Traceback" not in err


def test_ranking_numbers_are_typed_config_a_workspace_overrides(olympics_ws):
    cfg = SgragConfig.from_dict({"ranking": {"weights": {"likelihood": 1.5}, "tie_confidence": "0.9"}})
    assert cfg.ranking.weights["likelihood"] == 1.5 and cfg.ranking.weights["type"] == SgragConfig().ranking.weights["type"]
    assert cfg.ranking.tie_confidence == 0.9
    with pytest.raises(ConfigError, match="'likelyhood'"):
        SgragConfig.from_dict({"ranking": {"weights": {"likelyhood": 1.0}}})
    engine = Engine.open(olympics_ws, config=cfg)
    assert engine.ranker.weights["likelihood"] == 1.5
    off = SgragConfig.from_dict({"rules": {"disabled": ["likelihood"]}})
    assert Engine.open(olympics_ws, config=off).ranker.weights["likelihood"] == 0.0


def test_rules_switch_in_place_without_reloading_the_index(olympics_ws):
    engine = Engine.open(olympics_ws)
    question = "Which country won medals at the 1988, 2008, and 2012 Summer Olympics?"
    every = [n.label for n in engine.ask(question).query_graph.constraints]
    assert len(every) == 3
    engine.use_rules(["year_lists"])
    assert [n.label for n in engine.ask(question).query_graph.constraints] == ["2012 Summer Olympics"]
    assert engine.config.rules.disabled == ["year_lists"]
    with pytest.raises(ConfigError):
        engine.use_rules(["year_list"])
    engine.use_rules([])
    assert [n.label for n in engine.ask(question).query_graph.constraints] == every
