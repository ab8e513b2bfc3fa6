"""Workspace safety: the single-writer lock, stale locks, debris cleanup, contained deletes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import REPO, build_workspace, fast_config, olympics_graph
from sgrag import Engine, WorkspaceBusy, WorkspaceError, delete_workspace, import_kg, ingest
from sgrag.ingest import delete_document, list_documents
from sgrag.io.kg import write_json
from sgrag.workspace import DEBRIS_AGE_S, LOCK_NAME, Workspace

QUESTION = "Which country is a member of the United Nations and won medals at the 2012 Summer Olympics and contains Paris?"


def graph_ws(path: Path) -> Workspace:
    ws = Workspace.create(path, fast_config())
    ws.save_source_graph(olympics_graph())
    return ws


def hold_in_subprocess(ws: Path, command: str = "build") -> subprocess.Popen:
    """Another process holding the writer lock until killed."""
    code = ("import sys, time\nfrom sgrag.workspace import Workspace\n"
            f"with Workspace({str(ws)!r}).writer({command!r}):\n"
            "    print('held', flush=True)\n    time.sleep(300)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert p.stdout.readline().strip() == "held"
    return p


def test_second_writer_is_refused_naming_the_holder_and_readers_keep_working(tmp_path):
    ws = build_workspace(tmp_path / "ws", olympics_graph())
    doc = tmp_path / "a.txt"
    doc.write_text("Ada Lovelace was born in London.")
    g = tmp_path / "g.json"
    write_json(olympics_graph(), g)
    holder = hold_in_subprocess(ws.path, "build")
    try:
        for attempt in (lambda: Engine.build(ws.path), lambda: import_kg(ws.path, json=g),
                        lambda: ingest(ws, [doc]), lambda: delete_document(ws, "abcd"),
                        lambda: delete_workspace(tmp_path, "ws")):
            t0 = time.monotonic()
            with pytest.raises(WorkspaceBusy) as ei:
                attempt()
            assert time.monotonic() - t0 < 5  # refused at once, not after a wait
            assert f"pid {holder.pid}" in str(ei.value) and "`build`" in str(ei.value) and "since" in str(ei.value)
            assert ei.value.holder["pid"] == holder.pid
        assert Engine.open(ws.path).ask(QUESTION).answer.text == "France"
        assert list_documents(ws) == [] and ws.index_version == "v0001"
    finally:
        holder.kill()
        holder.wait()
    # the killed holder's lock is stale: the next writer takes it over
    assert (ws.path / LOCK_NAME).exists()
    ingest(ws, [doc])
    assert [d.status for d in list_documents(ws)] == ["done"]
    assert not (ws.path / LOCK_NAME).exists()  # a clean release leaves the workspace as it was


def test_two_builds_at_once_one_refused_the_other_unaffected(tmp_path):
    ws = graph_ws(tmp_path / "ws")
    second: list[BaseException | dict] = []

    def start_second_build(p):
        if not second:  # while the first build holds the lock
            t = threading.Thread(target=lambda: second.append(_outcome(lambda: Engine.build(ws.path))))
            t.start()
            t.join()

    report = Engine.build(ws.path, progress=start_second_build)
    assert isinstance(second[0], WorkspaceBusy)
    assert report["version"] == "v0001" == ws.index_version
    assert sorted(p.name for p in (ws.path / "versions").iterdir()) == ["v0001"]
    assert Engine.open(ws.path).ask(QUESTION).answer.text == "France"


def _outcome(fn):
    try:
        return fn()
    except BaseException as exc:  # noqa: BLE001 - the test inspects it
        return exc


def test_concurrent_api_imports_succeed_or_are_refused_cleanly(tmp_path):
    g = tmp_path / "g.json"
    write_json(olympics_graph(), g)
    ws = tmp_path / "ws"
    outcomes: list = []
    threads = [threading.Thread(target=lambda: outcomes.append(_outcome(lambda: import_kg(ws, json=g))))
               for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(o, (dict, WorkspaceBusy)) for o in outcomes), outcomes
    ok = sum(isinstance(o, dict) for o in outcomes)
    assert ok >= 1 and Workspace(ws).source_version == f"g{ok:04d}"
    assert Workspace(ws).source_graph().num_nodes == olympics_graph().num_nodes


def test_debris_of_killed_writers_is_cleaned_when_a_writer_starts(tmp_path):
    ws = graph_ws(tmp_path / "ws")
    (ws.path / "versions" / "v0007.tmp").mkdir(parents=True)
    (ws.path / "sources" / "g0009.tmp").mkdir()
    stray = ws.path / ".manifest.json.k2j3.tmp"
    copy = ws.docs_dir / "files" / "abc" / ".a.txt.tmp"
    cache = ws.cache_dir / "embeddings" / ".hash-64.npz.x1.tmp"
    fresh = ws.cache_dir / "embeddings" / ".hash-64.npz.x2.tmp"  # maybe a reader's write in flight
    past = time.time() - DEBRIS_AGE_S - 5
    for p in (stray, copy, cache, fresh):
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("half")
        if p is not fresh:
            os.utime(p, (past, past))
    with ws.writer("test"):
        pass
    assert not any(p.exists() for p in ((ws.path / "versions" / "v0007.tmp"), ws.path / "sources" / "g0009.tmp",
                                        stray, copy, cache))
    assert fresh.exists() and ws.source_graph().num_nodes == olympics_graph().num_nodes


def test_delete_doc_refuses_ids_that_leave_the_workspace(tmp_path):
    ws = graph_ws(tmp_path / "ws")
    victim = tmp_path / "victim_dir"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    reg = ws.docs_dir / "registry.json"
    reg.parent.mkdir(parents=True)
    bad_id = "../../../../" + str(victim).lstrip("/")
    for doc_id in (bad_id, "../../victim_dir", ".."):
        reg.write_text(json.dumps({"format": 1, "documents": {doc_id: {"title": "x", "status": "failed"}}}))
        with pytest.raises(WorkspaceError, match="refusing"):
            delete_document(ws, doc_id)
        assert (victim / "precious.txt").read_text() == "keep me"
        assert doc_id in json.loads(reg.read_text())["documents"]  # refused before any change
    from sgrag.cli import main
    reg.write_text(json.dumps({"format": 1, "documents": {bad_id: {"title": "x", "status": "failed"}}}))
    assert main(["-q", "delete-doc", "-w", str(ws.path), "--no-build", bad_id]) == 2
    assert (victim / "precious.txt").exists()


def test_delete_doc_unlinks_a_symlinked_files_dir_without_following_it(tmp_path):
    ws = graph_ws(tmp_path / "ws")
    doc = tmp_path / "a.txt"
    doc.write_text("Ada Lovelace was born in London.")
    doc_id = ingest(ws, [doc]).files[0].doc_id
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    files = ws.docs_dir / "files" / doc_id
    shutil.rmtree(files)
    files.symlink_to(outside, target_is_directory=True)
    delete_document(ws, doc_id)
    assert not files.exists() and not files.is_symlink()
    assert (outside / "keep.txt").read_text() == "keep"


def test_delete_workspace_stays_inside_the_root(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    target = tmp_path / "elsewhere" / "real"
    graph_ws(target)
    (root / "linked").symlink_to(target, target_is_directory=True)
    delete_workspace(root, "linked")  # the link goes, the target outside the root stays
    assert not (root / "linked").is_symlink() and Workspace(target).exists
    for name in ("..", "../elsewhere", "", "a/b"):
        with pytest.raises(WorkspaceError):
            delete_workspace(root, name)
    (root / "plain").mkdir()
    with pytest.raises(WorkspaceError, match="not an sgrag workspace"):
        delete_workspace(root, "plain")
    graph_ws(root / "mine")
    delete_workspace(root, "mine")
    assert sorted(p.name for p in root.iterdir()) == ["plain"] and Workspace(target).exists


def test_failed_build_switches_nothing_and_leaves_no_debris(tmp_path):
    ws = build_workspace(tmp_path / "ws", olympics_graph())
    cfg = fast_config()
    cfg.index.max_paths = 1
    with pytest.raises(Exception):
        Engine.build(ws.path, config=cfg)
    assert ws.index_version == "v0001" and [p.name for p in (ws.path / "versions").iterdir()] == ["v0001"]
    assert Engine.open(ws.path).ask(QUESTION).answer.text == "France"


def test_manifest_pointers_cannot_leave_the_workspace(tmp_path):
    ws = graph_ws(tmp_path / "ws")
    (tmp_path / "elsewhere").mkdir()
    olympics_graph().save(tmp_path / "elsewhere" / "g")
    manifest = json.loads((ws.path / "manifest.json").read_text())
    manifest.update(source="../../elsewhere/g", index="../sources")
    (ws.path / "manifest.json").write_text(json.dumps(manifest))
    for read in (ws.source_graph, ws.index_dir):
        with pytest.raises(WorkspaceError, match="outside"):
            read()


def test_a_build_shows_its_progress_to_other_processes_while_it_holds_the_lock(tmp_path):
    """What another process (the app, during a CLI build) reads: the writer's note and the stages so far; after
    the build, neither."""
    from conftest import fast_config, kinds_graph
    ws = Workspace.create(tmp_path / "ws", fast_config())
    ws.save_source_graph(kinds_graph())
    seen = []

    def look(p):
        if p.stage == "evidence" and not seen:  # late in the build: earlier stages are in the file
            seen.append((ws.running_writer(), ws.build_progress()))
    Engine.build(ws.path, look)
    (note, stages), = seen
    assert note["command"] == "build" and note["pid"] == os.getpid()
    assert {"embeddings", "faiss"} <= set(stages)
    assert all(s["total"] == 0 or 0 <= s["done"] <= s["total"] for s in stages.values())
    assert ws.running_writer() is None and ws.build_progress() == {}
    assert not (ws.path / ".sgrag.progress.json").exists()


def test_config_json_keeps_only_what_the_user_changed_so_later_defaults_reach_old_workspaces(tmp_path, monkeypatch,
                                                                                            capsys):
    from sgrag.cli import main
    from sgrag.config import AnswerConfig, SgragConfig
    ws = Workspace.create(tmp_path / "w")
    assert json.loads((ws.path / "config.json").read_text()) == {}
    cfg = ws.config()
    cfg.ranking.document_weights["kind"] = 9.0
    cfg.answer.min_confidence = 0.4
    ws.save_config(cfg)
    assert json.loads((ws.path / "config.json").read_text()) == {
        "ranking": {"document_weights": {"kind": 9.0}}, "answer": {"min_confidence": 0.4}}
    assert ws.config() == cfg
    # a later release raises a default the user never set: the workspace follows it, and keeps its own setting
    defaults = AnswerConfig.__init__.__defaults__
    monkeypatch.setattr(AnswerConfig.__init__, "__defaults__", tuple(20 if d == 10 else d for d in defaults))
    assert SgragConfig().answer.max_answers == 20
    assert ws.config().answer.max_answers == 20 and ws.config().answer.min_confidence == 0.4
    assert main(["config", "-w", str(ws.path), "--changed"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ranking": {"document_weights": {"kind": 9.0}},
                                                  "answer": {"min_confidence": 0.4}}
    assert main(["config", "-w", str(ws.path)]) == 0
    effective = json.loads(capsys.readouterr().out)
    assert effective["answer"]["max_answers"] == 20 and effective["ranking"]["weights"] == cfg.ranking.weights
    assert main(["config", "-w", str(tmp_path / "nowhere")]) == 2
    assert "Traceback" not in capsys.readouterr().err
