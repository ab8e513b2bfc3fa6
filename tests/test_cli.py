"""The command line: one-line errors for bad workspace paths, batch ingest exit codes and
rebuilds, fallback notes in `ask`, and start-up that loads only what a command needs."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from openai_stub import Fault, stub_server  # noqa: F401  (fixture)

from conftest import REPO, build_workspace, olympics_graph
from sgrag import Workspace
from sgrag.cli import main
from sgrag.io.kg import write_json

QUESTION = "Which country is a member of the United Nations and won medals at the 2012 Summer Olympics and contains Paris?"
HEAVY = ("torch", "torch_geometric", "faiss", "sentence_transformers", "streamlit", "openai")


@pytest.fixture()
def inputs(tmp_path) -> dict[str, Path]:
    g = tmp_path / "g.json"
    write_json(olympics_graph(), g)
    doc = tmp_path / "a.txt"
    doc.write_text("Ada Lovelace was born in London.")
    return {"graph": g, "doc": doc}


def _commands(ws: str, inputs) -> list[list[str]]:
    return [["ask", "-w", ws, "Which country contains Paris?"], ["build", "-w", ws],
            ["import-kg", "-w", ws, "--json", str(inputs["graph"])], ["ingest", "-w", ws, str(inputs["doc"])],
            ["delete-doc", "-w", ws, "abcd"], ["export", "-w", ws, "--out", "x.json"]]


def test_bad_workspace_paths_are_one_line_errors(tmp_path, inputs, capsys):
    a_file = tmp_path / "file.txt"
    a_file.write_text("not a directory")
    for ws in (a_file, a_file / "under", tmp_path / ("x" * 300), tmp_path / "missing"):
        for argv in _commands(str(ws), inputs):
            if ws.name == "missing" and argv[0] in ("import-kg", "ingest"):
                continue  # these create a workspace
            capsys.readouterr()
            assert main(["-q", *argv]) == 2, (ws, argv)
            err = capsys.readouterr().err
            assert "Traceback" not in err and len([ln for ln in err.splitlines() if ln.startswith("error:")]) == 1
        assert a_file.read_text() == "not a directory" and not (tmp_path / "missing").exists()


def test_ingest_exit_codes_table_and_rebuild_only_when_something_was_added(tmp_path, capsys):
    ws = build_workspace(tmp_path / "ws", olympics_graph())
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "deep.json").write_text("[" * 10_000 + "]" * 10_000)
    (folder / "empty.md").write_text("  ")
    before = sorted(p.relative_to(ws.path) for p in ws.path.rglob("*"))
    capsys.readouterr()
    assert main(["-q", "ingest", "-w", str(ws.path), str(folder)]) == 2  # every file failed
    err = capsys.readouterr().err
    assert "deep.json" in err and "max_json_depth" in err and "2 of 2 file(s) failed; nothing was added" in err
    assert sorted(p.relative_to(ws.path) for p in ws.path.rglob("*")) == before and ws.index_version == "v0001"

    (folder / "ada.txt").write_text("Ada Lovelace was born in London. She worked with Charles Babbage.")
    (folder / "curie.md").write_text("# Curie\n\nMarie Curie was born in Warsaw.")
    assert main(["-q", "ingest", "-w", str(ws.path), str(folder)]) == 2  # good files still go in
    out, err = capsys.readouterr()
    status = {Path(f["path"]).name: f["status"] for f in json.loads(out)["files"]}
    assert status == {"ada.txt": "done", "curie.md": "done", "deep.json": "failed", "empty.md": "failed"}
    table = err[err.index("file "):]
    assert "ada.txt" in table and "done" in table and "2 of 4 file(s) failed" in err
    assert ws.index_version == "v0002"  # rebuilt because documents were added

    assert main(["-q", "ingest", "-w", str(ws.path), str(folder / "ada.txt")]) == 0  # already ingested
    assert ws.index_version == "v0002"  # nothing added: no rebuild


def test_ask_prints_the_traces_fallback_notes(stub_server, olympics_ws, tmp_path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(olympics_ws, ws)
    cfg = Workspace(ws).config()
    cfg.answer.mode = "llm"
    cfg.llm.base_url, cfg.llm.model, cfg.llm.max_retries, cfg.llm.timeout_s = stub_server.url, "stub", 0, 5
    Workspace(ws).save_config(cfg)
    monkeypatch.setenv("SGRAG_LLM_API_KEY", "sk-test")
    stub_server.push(Fault(status=500))
    capsys.readouterr()
    assert main(["ask", "-w", str(ws), QUESTION]) == 0
    out = capsys.readouterr().out
    assert "Answer: France" in out
    assert any(line.startswith("Note: LLM answer failed") and "offline answer kept" in line
               for line in out.splitlines()), out


def _modules_after(argv: list[str]) -> list[str]:
    code = ("import sys\nfrom sgrag.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=REPO, timeout=120)
    return json.loads(r.stdout.strip().splitlines()[-1].replace("'", '"'))


def test_help_usage_errors_and_imports_load_no_heavy_library(tmp_path, inputs):
    assert _modules_after(["--help"]) == []
    assert _modules_after(["ask"]) == []  # a usage error
    assert _modules_after(["-q", "import-kg", "-w", str(tmp_path / "ws"), "--json", str(inputs["graph"])]) == []
    assert Workspace(tmp_path / "ws").source_version == "g0001"


def test_an_index_older_than_the_graph_is_noticed_rebuilt_and_warned_of(olympics_ws, tmp_path, capsys):
    """A killed ingest leaves the graph newer than the index: ask warns, and the next ingest (which finds
    everything already ingested) rebuilds instead of saying "skipped" and leaving the index behind."""
    ws = tmp_path / "ws"
    shutil.copytree(olympics_ws, ws)
    doc = tmp_path / "ada.txt"
    doc.write_text("Ada Lovelace was born in London. She worked with Charles Babbage.")
    assert main(["-q", "ingest", "--no-build", "-w", str(ws), str(doc)]) == 0  # as if killed before the build
    stale = Workspace(ws).stale_index()
    assert stale is not None and stale[1] == Workspace(ws).source_version
    capsys.readouterr()
    assert main(["ask", "-w", str(ws), QUESTION]) == 0
    assert "Note: This index was built from graph version" in capsys.readouterr().out
    assert main(["-q", "ingest", "-w", str(ws), str(doc)]) == 0
    assert "rebuilding" in capsys.readouterr().err
    assert Workspace(ws).stale_index() is None
    assert main(["ask", "-w", str(ws), QUESTION]) == 0
    assert "This index was built from graph version" not in capsys.readouterr().out


def test_ask_loads_neither_torch_nor_the_gnn_and_an_older_index_answers_the_same(olympics_ws, tmp_path, capsys):
    """`ask` reads the query-side dominance keys as numpy (dominance.npz); an index built before they were
    saved computes them from gnn.pt with torch and gives the same answer."""
    loaded = _modules_after(["-q", "ask", "-w", str(olympics_ws), QUESTION])
    assert not {"torch", "torch_geometric", "sentence_transformers", "openai", "spacy"} & set(loaded), loaded
    old = tmp_path / "old"
    shutil.copytree(olympics_ws, old)
    keys = list(old.glob("versions/*/dominance.npz"))
    assert len(keys) == 1
    keys[0].unlink()
    outs = []
    for ws in (olympics_ws, old):
        capsys.readouterr()
        assert main(["-q", "ask", "-w", str(ws), "--json", QUESTION]) == 0
        trace = json.loads(capsys.readouterr().out)
        outs.append((trace["answer"], trace["funnel"]))
    assert outs[0] == outs[1] and outs[0][0]["text"] == "France"
