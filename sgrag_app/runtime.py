"""App runtime: workspace root and picker, cached engine and job registry, error guard.

Every page starts with ``ctx = page_setup("Ask")``; it renders the sidebar (workspace
chooser, create/delete, status of running jobs) and returns the selected workspace.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

import sgrag
from sgrag_app import state as K
from sgrag_app.jobs import JobRegistry

log = logging.getLogger("sgrag_app")

APP_DIR = Path(__file__).resolve().parent.parent
ASSETS = APP_DIR / "assets"
DEMO_GRAPH = ASSETS / "demo" / "fb_erqa_mini.graphml"
DEMO_QUESTIONS = ASSETS / "demo" / "fb_erqa_mini_questions.csv"
DEFAULT_WORKSPACE = "workspaces/demo"

PAGES = {  # title -> file (relative to app.py), in navigation order
    "Ask": "pages/ask.py",
    "Explore": "pages/explore.py",
    "Build": "pages/build.py",
    "Ingest": "pages/ingest.py",
    "Evaluate": "pages/evaluate.py",
    "Settings": "pages/settings.py",
}
ICONS = {"Ask": ":material/question_answer:", "Explore": ":material/hub:", "Build": ":material/build:",
         "Ingest": ":material/upload_file:", "Evaluate": ":material/monitoring:",
         "Settings": ":material/settings:"}


# ---- workspace location ---------------------------------------------------------------------
def default_workspace() -> Path:
    """SGRAG_WORKSPACE (relative to the app directory) or workspaces/demo."""
    p = Path(os.environ.get("SGRAG_WORKSPACE") or DEFAULT_WORKSPACE).expanduser()
    return (p if p.is_absolute() else APP_DIR / p).resolve()


def workspace_root() -> Path:
    return default_workspace().parent


def valid_workspace_name(name: str) -> str:
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise sgrag.SgragError("a workspace name uses letters, digits, '.', '_' or '-' "
                               "(start with a letter or digit, at most 64 characters)")
    return name


# ---- cached resources -----------------------------------------------------------------------
@st.cache_resource(show_spinner=False)
def job_registry() -> JobRegistry:
    """One registry per server process: background jobs survive reruns and browser refreshes."""
    return JobRegistry()


@st.cache_resource(show_spinner="Loading the index…", max_entries=3)
def _engine(ws_path: str, index_version: str, config_json: str, _api_key: str, key_id: str) -> "sgrag.Engine":
    from sgrag_app.tasks import make_llm
    ws = sgrag.Workspace(ws_path)
    return sgrag.Engine.open(ws_path, llm=make_llm(ws, _api_key or None))


def api_key() -> str:
    """The API key typed on the Settings page (session only), else the environment's."""
    return st.session_state.get(K.API_KEY) or ""


def get_engine(ws: "sgrag.Workspace") -> "sgrag.Engine":
    """The engine for ``ws``, cached by path + index version + settings (a new build loads a new engine)."""
    import hashlib
    import json
    version = ws.index_version
    if not version:
        raise sgrag.SgragError(f"workspace '{ws.path.name}' has no built index yet: import a "
                               f"knowledge graph or documents on the Ingest page, then build it on the Build page")
    key = api_key()
    return _engine(str(ws.path), version, json.dumps(ws.config().to_dict(), sort_keys=True), key,
                   hashlib.sha256(key.encode()).hexdigest()[:12] if key else "")


# ---- errors ---------------------------------------------------------------------------------
@contextlib.contextmanager
def guard(what: str = ""):
    """Show any error as a readable message instead of a traceback (reruns pass through)."""
    try:
        yield
    except ScriptControlException:
        raise
    except sgrag.SgragError as exc:
        st.error(f"{what + ': ' if what else ''}{exc}", icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 - last line of defence for the UI
        log.exception("unexpected error%s", f" while {what}" if what else "")
        st.error(f"Unexpected error{' while ' + what if what else ''}: {type(exc).__name__}: {exc}. "
                 f"The details are in the server log.", icon=":material/error:")


def flash(kind: str, text: str) -> None:
    """Queue a message to show after the next rerun."""
    st.session_state[K.FLASH] = (kind, text)


def _show_flash() -> None:
    item = st.session_state.pop(K.FLASH, None)
    if item:
        kind, text = item
        getattr(st, kind if kind in ("success", "info", "warning", "error") else "info")(text)


# ---- page context ---------------------------------------------------------------------------
@dataclass
class PageContext:
    """What a page needs: the chosen workspace (or None when there is none yet)."""
    root: Path
    workspace: "sgrag.Workspace | None"

    @property
    def key(self) -> str:
        return str(self.workspace.path) if self.workspace else ""

    def engine(self) -> "sgrag.Engine":
        if self.workspace is None:
            raise sgrag.SgragError("no workspace selected; create one in the sidebar")
        return get_engine(self.workspace)

    def engine_or_stop(self) -> "sgrag.Engine":
        """The engine, or a readable message and the end of this page run."""
        try:
            return self.engine()
        except sgrag.SgragError as exc:
            st.info(str(exc), icon=":material/info:")
        except Exception as exc:  # noqa: BLE001
            log.exception("cannot open the engine")
            st.error(f"Cannot open the index: {type(exc).__name__}: {exc}")
        st.stop()

    def require_workspace(self) -> "sgrag.Workspace":
        if self.workspace is None:
            st.info("No workspace yet. Create one in the sidebar (or run `make demo`).")
            st.stop()
        return self.workspace


def page_setup(title: str, icon: str = "") -> PageContext:
    """Sidebar + title for a page; returns the selected workspace."""
    with contextlib.suppress(Exception):  # only allowed once per run; harmless if called again
        st.set_page_config(page_title=f"sgrag · {title}", layout="wide", page_icon=":material/hub:")
    root = workspace_root()
    ensure_demo(root)
    ws = _sidebar(root)
    st.title(title)
    _show_flash()
    return PageContext(root, ws)


def _sidebar(root: Path) -> "sgrag.Workspace | None":
    from sgrag_app.render import render_job_badges  # late import: render imports runtime

    with st.sidebar:
        st.markdown("### sgrag")
        st.caption("Exact multi-constraint RAG over a knowledge graph.")
        names = [p.name for p in sgrag.list_workspaces(root)]
        default = default_workspace().name
        if K.WORKSPACE_NEXT in st.session_state:  # chosen by create/delete on the previous run
            st.session_state[K.WORKSPACE] = st.session_state.pop(K.WORKSPACE_NEXT)
            st.session_state[K.DELETE_WS_CONFIRM] = False
        if st.session_state.get(K.WORKSPACE) not in names:
            st.session_state[K.WORKSPACE] = default if default in names else (names[0] if names else None)
        ws = None
        if names:
            st.selectbox("Workspace", names, key=K.WORKSPACE,
                         help=f"Workspaces are directories under {root}")
            ws = sgrag.Workspace(root / st.session_state[K.WORKSPACE])
            with guard("reading the workspace"):
                render_workspace_status(ws)
        else:
            st.info(f"No workspace in {root} yet.")
        with st.popover("New workspace", width="stretch"):
            st.text_input("Name", key=K.NEW_WS_NAME, placeholder="my-graph")
            if st.button("Create", key="sg.create_ws", type="primary"):
                with guard("creating the workspace"):
                    name = valid_workspace_name(st.session_state.get(K.NEW_WS_NAME) or "")
                    if (root / name).exists():
                        raise sgrag.SgragError(f"'{name}' already exists in {root}")
                    sgrag.Workspace.create(root / name)
                    st.session_state[K.WORKSPACE_NEXT] = name
                    flash("success", f"Created workspace '{name}'. Import a graph or documents on the Ingest page.")
                    st.rerun()
        if ws is not None:
            with st.popover("Delete workspace", width="stretch"):
                st.warning(f"This deletes '{ws.path.name}' and everything in it.")
                st.checkbox("Yes, delete it", key=K.DELETE_WS_CONFIRM)
                if st.button("Delete", key="sg.delete_ws", type="primary",
                             disabled=not st.session_state.get(K.DELETE_WS_CONFIRM)):
                    with guard("deleting the workspace"):
                        if job_registry().active_for(str(ws.path)):
                            raise sgrag.SgragError("a job is running in this workspace; cancel it first")
                        _engine.clear()
                        sgrag.delete_workspace(root, st.session_state[K.WORKSPACE])  # a symlink is unlinked, never followed
                        st.session_state[K.WORKSPACE_NEXT] = None
                        flash("success", f"Deleted workspace '{ws.path.name}'.")
                        st.rerun()
            render_job_badges(job_registry(), str(ws.path))
    return ws


def render_workspace_status(ws: "sgrag.Workspace") -> None:
    src, idx = ws.source_version, ws.index_version
    if idx:
        st.caption(f":material/check_circle: index **{idx}** · graph {src or '—'}")
    elif src:
        st.caption(":material/pending: graph imported, not built yet (Build page)")
    else:
        st.caption(":material/inbox: empty: import a graph or documents (Ingest page)")


# ---- demo workspace on first start ----------------------------------------------------------
def ensure_demo(root: Path) -> None:
    """First start with no workspace at all: set up the demo workspace in the background."""
    target = default_workspace()
    if target.name != "demo" or not DEMO_GRAPH.exists():
        return
    if sgrag.Workspace(target).exists and sgrag.Workspace(target).index_version:
        return
    reg = job_registry()
    job = reg.get("demo", str(target))
    if job is None:
        if any(sgrag.list_workspaces(root)) and not sgrag.Workspace(target).exists:
            return  # the user has other workspaces and deleted the demo: respect that
        from sgrag_app.tasks import setup_demo
        reg.start("demo", str(target), lambda j: setup_demo(target, j), label="demo setup",
                  exclusive=("build", "ingest", "import"))
        job = reg.get("demo", str(target))
    if job is not None and job.status == "failed":
        st.error(f"Setting up the demo workspace failed: {job.error}")
        if st.button("Retry the demo setup", key="sg.demo_retry"):
            reg.forget("demo", str(target))
            st.rerun()
    elif job is not None and job.active:
        from sgrag_app.render import render_demo_setup
        render_demo_setup(job)
