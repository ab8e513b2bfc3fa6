"""App runtime: workspace root and picker, cached engine and job registry, error guard.

Every page starts with ``ctx = page_setup("Ask")``; it renders the sidebar (workspace
chooser, create/delete, status of running jobs) and returns the selected workspace.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

import sgrag
from sgrag_app import state as K
from sgrag_app.asking import LINK_PARAM, Q_PARAM, AnswerCache
from sgrag_app.jobs import DONE, QUEUED, RUNNING, EngineCache, Job, JobRegistry, OutsideWriter

log = logging.getLogger("sgrag_app")

APP_DIR = Path(__file__).resolve().parent.parent
ASSETS = APP_DIR / "assets"
DEMO_GRAPH = ASSETS / "demo" / "fb_erqa_mini.graphml"
DEMO_QUESTIONS = ASSETS / "demo" / "fb_erqa_mini_questions.csv"
DEFAULT_WORKSPACE = "workspaces/demo"
FAVICON = ASSETS / "favicon.png"  # a local file: the page fetches nothing from outside

PAGES = {  # title -> file (relative to app.py), in navigation order
    "Ask": "pages/ask.py",
    "Explore": "pages/explore.py",
    "Build": "pages/build.py",
    "Ingest": "pages/ingest.py",
    "Evaluate": "pages/evaluate.py",
    "Settings": "pages/settings.py",
}
NAV_KEY = "sg-nav"  # the sidebar's page links (Streamlit's own list is off: it showed the raw pages/ files first)
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


@st.cache_resource(show_spinner=False)
def engine_cache() -> EngineCache:
    """Loaded engines of this server process (loaded in the background, a few kept)."""
    return EngineCache(size=3)


@st.cache_resource(show_spinner=False)
def answer_cache() -> AnswerCache:
    """Answers of this server process per loaded engine: a refresh or a shared link shows them at once."""
    return AnswerCache()


def api_key() -> str:
    """The API key typed on the Settings page (session only), else the environment's."""
    return st.session_state.get(K.API_KEY) or ""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12] if text else ""


def engine_job(ws: "sgrag.Workspace", retry: bool = False) -> Job:
    """The job loading (or holding) the engine of ``ws``'s current index with the current settings.

    Keyed by path + index version + settings + key, so a new build or changed settings load a
    new engine while the old one keeps serving until then.
    """
    version = ws.index_version
    if not version:
        raise sgrag.SgragError(f"workspace '{ws.path.name}' has no built index yet: import a "
                               f"knowledge graph or documents on the Ingest page, then build it on the Build page")
    key = api_key()
    cache_key = "|".join([str(ws.path), version, _digest(json.dumps(ws.config().to_dict(), sort_keys=True)),
                          _digest(key)])

    def load(job: Job) -> "sgrag.Engine":
        from sgrag_app.tasks import make_llm
        return sgrag.Engine.open(ws.path, llm=make_llm(ws, key or None), progress=job.progress)

    return engine_cache().load(cache_key, str(ws.path), load, retry=retry)


def build_in_progress(ws: "sgrag.Workspace") -> Job | None:
    """The app's build (or first set-up) job running on ``ws``, else a writer started elsewhere (the CLI)."""
    reg = job_registry()
    for kind in ("build", "demo"):
        job = reg.get(kind, str(ws.path))
        if job is not None and job.active:
            return job
    note = ws.running_writer() if ws.exists else None
    return OutsideWriter(ws, note) if note is not None else None


def workspace_identity(ws: "sgrag.Workspace") -> str:
    """Path + index version + when that version was written: what stored traces and picks belong to.

    Two workspaces (or a deleted and re-created one) both at "v0001" still differ.
    """
    version = ws.index_version or ""
    try:
        stamp = (ws.path / "versions" / version).stat().st_mtime_ns if version else 0
    except OSError:
        stamp = 0
    return f"{ws.path}@{version}:{stamp}"


# ---- errors ---------------------------------------------------------------------------------
def error_message(exc: Exception, what: str = "") -> str:
    """One line for the page: an SgragError says itself; anything else is named and logged."""
    if isinstance(exc, sgrag.SgragError):
        from sgrag_app.render import md, public_message  # late import: render imports runtime
        return f"{what + ': ' if what else ''}{md(public_message(str(exc)))}"
    log.error("unexpected error%s", f" while {what}" if what else "", exc_info=exc)
    return (f"Unexpected error{' while ' + what if what else ''}: {type(exc).__name__}: {exc}. "
            f"The details are in the server log.")


@contextlib.contextmanager
def guard(what: str = ""):
    """Show any error as a readable message instead of a traceback (reruns pass through)."""
    try:
        yield
    except ScriptControlException:
        raise
    except Exception as exc:  # noqa: BLE001 - last line of defence for the UI
        st.error(error_message(exc, what), icon=":material/error:")


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

    @property
    def identity(self) -> str:
        """Key of everything stored per workspace in the session (traces, picks)."""
        return workspace_identity(self.workspace) if self.workspace else ""

    def loaded_engine(self) -> "sgrag.Engine | None":
        """The engine if it is loaded already (never waits, never draws)."""
        if self.workspace is None or not self.workspace.index_version:
            return None
        try:
            job = engine_job(self.workspace)
        except sgrag.SgragError:
            return None
        return job.result if job.status == DONE else None

    def engine_or_stop(self, waiting: str = "") -> "sgrag.Engine":
        """The loaded engine; else its loading (or the workspace's build) progress, or a message, and stop.

        ``waiting``: a question asked meanwhile; the panel says it is answered when the index is ready
        (the page reruns then, and answers it).
        """
        from sgrag_app.render import md, render_building, render_engine_loading  # late: render imports runtime

        if self.workspace is None:
            st.info("No workspace selected; create one in the sidebar.", icon=":material/info:")
            st.stop()
        def say_waiting() -> None:
            if waiting:
                st.info(f"Your question “{md(waiting)}” is answered as soon as the index is ready.",
                        icon=":material/hourglass_top:")

        building = build_in_progress(self.workspace)
        if building is not None and not self.workspace.index_version:
            say_waiting()
            if building.kind != "demo":  # (the demo's set-up has its own banner, drawn by page_setup)
                render_building(self.workspace, building)
            st.stop()
        try:
            job = engine_job(self.workspace, retry=bool(st.session_state.pop(K.LOAD_RETRY, False)))
        except sgrag.SgragError as exc:
            st.info(str(exc), icon=":material/info:")
            st.stop()
        status = job.status  # read once: the loading may end while this run draws
        if status == DONE:
            return job.result
        if status in (QUEUED, RUNNING):
            say_waiting()
            render_engine_loading(job)
        else:
            st.error(f"Cannot open the index: {job.error}", icon=":material/error:")
            if st.button("Try again", key="sg.load_retry"):
                st.session_state[K.LOAD_RETRY] = True
                st.rerun()
        st.stop()

    def require_workspace(self) -> "sgrag.Workspace":
        if self.workspace is None:
            st.info("No workspace yet. Create one in the sidebar (or run `make demo`).")
            st.stop()
        return self.workspace


def page_setup(title: str) -> PageContext:
    """Sidebar + title for a page; returns the selected workspace."""
    with contextlib.suppress(Exception):  # only allowed once per run; harmless if called again
        st.set_page_config(page_title=f"sgrag · {title}", layout="wide", page_icon=str(FAVICON))
    root = workspace_root()
    ensure_demo(root)
    if title != "Ask":  # the question in the URL is the Ask page's
        for param in (Q_PARAM, LINK_PARAM):
            st.query_params.pop(param, None)
    ws = _sidebar(root)
    if ws is not None and ws.exists and ws.index_version:
        with contextlib.suppress(sgrag.SgragError):  # start loading the index in the background
            engine_job(ws)
    st.title(title)
    _show_flash()
    return PageContext(root, ws)


def workspace_names(root: Path) -> list[str]:
    """Workspace names, the default one first."""
    names = [p.name for p in sgrag.list_workspaces(root)]
    default = default_workspace().name
    return ([default] if default in names else []) + [n for n in names if n != default]


def _select_workspace(names: list[str]) -> None:
    """Decide this run's workspace before the selector is drawn, in order: a choice made by
    create/delete on the previous run; the session's own choice (page changes and "Open in Ask"
    keep it, whatever they do to the URL); for a new session (refresh, deep link) ``?ws=``; the default.
    """
    ss = st.session_state
    if K.WORKSPACE_NEXT in ss:  # chosen by create/delete on the previous run
        ss[K.WORKSPACE_KEPT] = ss.pop(K.WORKSPACE_NEXT)
        ss[K.DELETE_WS_CONFIRM] = False
        forget_question()
    elif K.WORKSPACE_KEPT not in ss:
        ss[K.WORKSPACE_KEPT] = asked = st.query_params.get(K.WORKSPACE)
        if asked and asked not in names:  # a mistyped or deleted workspace in a link: said until another is chosen
            ss[K.WORKSPACE_MISSING] = asked
    if ss.get(K.WORKSPACE_KEPT) not in names:
        ss[K.WORKSPACE_KEPT] = names[0] if names else None
    ss[K.WORKSPACE] = ss[K.WORKSPACE_KEPT]


def forget_question() -> None:
    """Another workspace: the question box, its answer and its link corrections start empty."""
    ss = st.session_state
    for k in [k for k in ss if k in (K.QUESTION, K.ASKED, K.TRACE, K.SHOWN, K.ASK_ERROR, K.EXAMPLE)
              or str(k).startswith((K.OVERRIDE_PREFIX, K.LINK_SEARCH))]:
        del ss[k]


def _workspace_chosen() -> None:
    st.session_state[K.WORKSPACE_KEPT] = st.session_state[K.WORKSPACE]
    st.session_state.pop(K.WORKSPACE_MISSING, None)
    forget_question()


def _sidebar(root: Path) -> "sgrag.Workspace | None":
    from sgrag_app.render import render_running_jobs  # late import: render imports runtime

    with st.sidebar:
        with st.container(key=NAV_KEY):
            for title, path in PAGES.items():
                st.page_link(path, label=title, icon=ICONS[title], width="stretch")
        st.divider()
        st.markdown("### sgrag")
        st.caption("Exact multi-constraint RAG over a knowledge graph.")
        names = workspace_names(root)
        _select_workspace(names)
        missing = st.session_state.get(K.WORKSPACE_MISSING)
        if missing:
            st.warning(f"There is no workspace named '{missing}'"
                       + (f": showing '{st.session_state[K.WORKSPACE]}' instead." if names else "."),
                       icon=":material/error:")
        ws = None
        if names:
            name = st.selectbox("Workspace", names, key=K.WORKSPACE, on_change=_workspace_chosen,
                                help=f"Workspaces are directories under {root}")
            st.query_params[K.WORKSPACE] = name  # in the URL: a refresh or a shared link opens the same one
            ws = sgrag.Workspace(root / name)
            with guard("reading the workspace"):
                render_workspace_status(ws)
        else:
            st.query_params.pop(K.WORKSPACE, None)
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
                        engine_cache().clear(str(ws.path))
                        sgrag.delete_workspace(root, st.session_state[K.WORKSPACE])  # a symlink is unlinked, never followed
                        st.session_state[K.WORKSPACE_NEXT] = None
                        flash("success", f"Deleted workspace '{ws.path.name}'.")
                        st.rerun()
        render_running_jobs(job_registry(), engine_cache())
    return ws


def render_workspace_status(ws: "sgrag.Workspace") -> None:
    src, idx = ws.source_version, ws.index_version
    stale = ws.stale_index() if idx else None
    if stale:
        st.caption(f":material/warning: index **{idx}** was built from graph {stale[0]}; the graph is now "
                   f"{stale[1]}: answers miss the newer facts until it is rebuilt (Build page)")
    elif idx:
        st.caption(f":material/check_circle: index **{idx}** · graph {src or '—'}")
    elif src:
        st.caption(":material/pending: graph imported, not built yet (Build page)")
    else:
        st.caption(":material/inbox: empty: import a graph or documents (Ingest page)")


def is_demo_workspace(engine: "sgrag.Engine") -> bool:
    """True when the workspace was set up from the shipped demo (its examples are the demo's questions)."""
    return bool(engine.examples) and set(engine.examples) <= set(_demo_questions())


@st.cache_data(show_spinner=False)
def _demo_questions() -> list[str]:
    import csv
    if not DEMO_QUESTIONS.exists():
        return []
    with open(DEMO_QUESTIONS, encoding="utf-8") as fh:
        return [row["query"] for row in csv.DictReader(fh)]


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
        from sgrag_app.tasks import demo_job
        with contextlib.suppress(sgrag.SgragError):  # another session started it a moment ago
            reg.start("demo", str(target), demo_job(target), exclusive=("build", "ingest", "import"))
        job = reg.get("demo", str(target))
    if job is not None and job.status == "failed":
        st.error(f"Setting up the demo workspace failed: {job.error}")
        if st.button("Retry the demo setup", key="sg.demo_retry"):
            reg.forget("demo", str(target))
            st.rerun()
    elif job is not None and job.active:
        from sgrag_app.render import render_demo_setup
        render_demo_setup(job)
