"""Shared fixtures for the app tests: a tiny built workspace and an AppTest factory.

Import the fixtures into a test module with ``from app_support import *  # noqa``.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from sgrag import Engine, GraphBuilder, SgragConfig, Workspace

APP = Path(__file__).resolve().parent.parent / "app.py"
XSS = "<img src=x onerror=alert(1)>"
Q_DR = "Which country is home to Santo Domingo and a member of the World Bank?"
Q_XSS = "Which place is home to Atlantis and a member of the Pirate League?"

NODES = [("dr", "Dominican Republic"), ("sd", "Santo Domingo"), ("wb", "World Bank"), ("ht", "Haiti"),
         ("pap", "Port-au-Prince"), ("cu", "Cuba"), ("hav", "Havana"), ("un", "United Nations"),
         ("x", XSS), ("at", "Atlantis"), ("pl", "Pirate League")]
EDGES = [("dr", "sd", "/location/location/contains"), ("dr", "wb", "/organization/member_of"),
         ("ht", "wb", "/organization/member_of"), ("ht", "pap", "/location/location/contains"),
         ("cu", "hav", "/location/location/contains"), ("cu", "un", "/organization/member_of"),
         ("dr", "un", "/organization/member_of"), ("x", "at", "/location/location/contains"),
         ("x", "pl", "/organization/member_of"), ("x", "ht", "/location/adjoins")]


def small_config(epochs: int = 3) -> SgragConfig:
    cfg = SgragConfig()
    cfg.embed.backend = "hash"
    cfg.gnn.epochs = epochs
    cfg.gnn.pairs_per_epoch = 64
    return cfg


def small_graph():
    b = GraphBuilder()
    for nid, label in NODES:
        b.add_node(nid, label, f"{label} (test node)")
    for s, t, r in EDGES:
        b.add_edge(s, t, r)
    return b.build()


def make_workspace(path: Path, build: bool = True, epochs: int = 3) -> Path:
    ws = Workspace.create(path, small_config(epochs))
    ws.save_source_graph(small_graph())
    (ws.path / "examples.json").write_text(json.dumps([Q_DR, Q_XSS]), encoding="utf-8")
    if build:
        Engine.build(path)
    return ws.path


@pytest.fixture(scope="session")
def built_template(tmp_path_factory) -> Path:
    """One built tiny workspace per test session (building is the slow part)."""
    return make_workspace(tmp_path_factory.mktemp("tpl") / "small")


@pytest.fixture
def built_ws(tmp_path, built_template) -> Path:
    """A private copy of the built workspace, as ``<tmp>/ws/small``."""
    dst = tmp_path / "ws" / "small"
    shutil.copytree(built_template, dst)
    return dst


@pytest.fixture
def make_app(monkeypatch):
    """``make_app(ws_path)`` -> an AppTest of app.py with SGRAG_WORKSPACE pointing at ``ws_path``."""
    from streamlit.testing.v1 import AppTest

    def factory(ws_path: Path, page: str | None = None) -> "AppTest":
        monkeypatch.setenv("SGRAG_WORKSPACE", str(ws_path))
        at = AppTest.from_file(str(APP), default_timeout=90)
        run_loaded(at)
        if page:
            at.switch_page(page)
            run_loaded(at)
        return at
    return factory


def run_loaded(at):
    """Run the script; while it shows an index loading in the background, wait for it and run again (the
    load may also finish between the run and the check, on a busy machine: the page then still shows it)."""
    from sgrag_app.runtime import engine_cache
    at.run()
    for _ in range(3):
        loading = engine_cache().loading()
        for job in loading:
            job.wait(90)
        if not loading and "Loading the index of" not in texts(at):
            break
        at.run()
    return at


def assert_clean(at) -> None:
    """No uncaught exception reached the page."""
    assert not at.exception, [e.value for e in at.exception]


def texts(at) -> str:
    """All markdown/caption/alert text of the page, joined (for substring checks)."""
    parts = []
    for kind in ("markdown", "caption", "info", "success", "warning", "error", "title", "header", "subheader"):
        parts += [str(getattr(e, "value", "")) for e in getattr(at, kind)]
    return "\n".join(parts)


def wait_job(kind: str, ws_path: Path, timeout: float = 90) -> object:
    from sgrag_app.runtime import job_registry
    deadline = time.time() + timeout
    job = None
    while time.time() < deadline:
        job = job_registry().get(kind, str(Path(ws_path).resolve()))
        if job is not None and job.wait(0.2):
            return job
        time.sleep(0.1)
    raise AssertionError(f"{kind} job did not finish in {timeout}s (job: {job})")


def click(at, label: str):
    """Click the (first) button with this label."""
    for b in at.button:
        if b.label == label:
            return b.click()
    raise AssertionError(f"no button {label!r}; have {[b.label for b in at.button]}")


def ask(at, question: str):
    """Type a question on the Ask page, press Ask and run: the page must render without an exception."""
    from sgrag_app import state as K
    at.text_input(key=K.QUESTION).input(question)
    click(at, "Ask")
    at.run()
    assert_clean(at)
    return at


__all__ = ["APP", "XSS", "Q_DR", "Q_XSS", "built_template", "built_ws", "make_app", "run_loaded", "assert_clean", "texts",
           "wait_job", "click", "ask", "make_workspace", "small_config", "small_graph", "os"]
