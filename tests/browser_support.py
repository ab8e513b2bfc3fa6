"""Real-browser test helpers: the app served by ``streamlit run`` and driven in Debian chromium.

Waits are on conditions (a heading, a text, a value), generous, never fixed sleeps: the CI
machine has 2 busy cores.
"""
from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--headless", "--disable-background-networking", "--disable-gpu",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 120_000  # generous: a loaded 2-core machine
_SERVER_LOGS: list[Path] = []  # the logs of the apps being served, newest last (for a failure's report)
_PAGES: list = []  # the pages opened by new_page (for a failure's report)

needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason=f"Debian chromium is not installed at {CHROMIUM} "
                                           f"(`apt-get install chromium`; `make test` installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_app(default_ws: Path, log_path: Path, env: dict[str, str] | None = None):
    """``streamlit run app.py`` on a free port with SGRAG_WORKSPACE=default_ws; yields its URL."""
    port = _free_port()
    env = {**os.environ, "SGRAG_WORKSPACE": str(default_ws), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **(env or {})}
    log = open(log_path, "w")
    _SERVER_LOGS.append(Path(log_path))
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                             "--server.headless", "true", "--server.address", "127.0.0.1",
                             "--server.port", str(port), "--server.fileWatcherType", "none"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("streamlit did not start:\n" + Path(log_path).read_text())
            time.sleep(0.3)
        yield url
    finally:
        _SERVER_LOGS.remove(Path(log_path))
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def launch(pw):
    return pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)


def new_page(browser, requests: list[str] | None = None, dialogs: list[str] | None = None):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    _PAGES[:] = [p for p in _PAGES if not p.is_closed()] + [page]
    if requests is not None:
        page.on("request", lambda r: requests.append(r.url))
    if dialogs is not None:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return page


def failure_report(lines: int = 60, chars: int = 4000) -> str:
    """What the open pages show and the tail of each served app's log: a browser test that fails on
    CI says why (a timeout alone names only the element it waited for)."""
    out = []
    for page in [p for p in _PAGES if not p.is_closed()]:
        try:
            text = page.locator("[data-testid='stMain']").inner_text(timeout=5000)
        except Exception as exc:  # noqa: BLE001 - a report must not fail
            text = f"(unreadable: {exc})"
        out.append(f"--- page {page.url}\n{text[:chars]}")
    for log in _SERVER_LOGS:
        with contextlib.suppress(OSError):
            out.append(f"--- {log} (last {lines} lines)\n" + "\n".join(log.read_text().splitlines()[-lines:]))
    return "\n".join(out) or "(no page open, no app served)"


def outside_requests(requests: list[str], url: str) -> list[str]:
    """Requests that would leave the machine (anything but the app itself and inline data)."""
    return sorted({r for r in requests if not r.startswith((url, "data:", "blob:", "about:"))})


def heading(page, title: str):
    return page.get_by_role("heading", name=title, exact=True)


def wait_page(page, title: str) -> None:
    heading(page, title).wait_for()


def settle(page, timeout_ms: int = 15_000) -> None:
    """Let the script run that the last action started finish (best effort: live panels rerun)."""
    try:
        page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden", timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - a polling panel keeps it busy; the callers wait on conditions anyway
        pass


def nav(page, title: str) -> None:
    """Go to a page through the sidebar navigation (as a user does)."""
    settle(page)
    page.locator("[data-testid='stSidebar'] [data-testid='stPageLink']").get_by_text(title, exact=True).click()
    page.wait_for_url(re.compile(rf"/{title.lower()}(\?|$)") if title != "Ask" else re.compile(r".*"))
    wait_page(page, title)


def workspace_box(page):
    return page.get_by_role("combobox", name="Workspace")


def wait_workspace(page, name: str) -> None:
    """Wait until the sidebar selector shows ``name`` (raises on timeout)."""
    page.wait_for_function(
        "name => { const e = document.querySelector('input[aria-label=\"Workspace\"]'); return e && e.value === name; }",
        arg=name)


def select_workspace(page, name: str) -> None:
    workspace_box(page).click()
    page.get_by_role("option", name=name, exact=True).click()
    wait_workspace(page, name)
    page.wait_for_url(re.compile(rf"[?&]ws={re.escape(name)}\b"))
    settle(page)


def ask(page, question: str) -> None:
    box = page.get_by_label("Question", exact=True)
    box.fill(question)
    box.press("Enter")  # Enter submits the form


def no_exception(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def frame_counts(page, selector: str) -> list[tuple[object, int]]:
    """(frame, matches of ``selector``) for every live child frame; one replaced by a rerun while
    we look is skipped (it is gone, and so is whatever it showed)."""
    out = []
    for f in page.frames:
        try:
            if f != page.main_frame and not f.is_detached():
                out.append((f, f.locator(selector).count()))
        except Exception:  # noqa: BLE001 - detached between the check and the query
            continue
    return out


def graph_frames(page):
    """Frames showing a graph canvas."""
    return [f for f, n in frame_counts(page, "canvas") if n > 0]


def wait_graph_frames(page, timeout_s: float = 60):
    deadline = time.time() + timeout_s
    while not graph_frames(page) and time.time() < deadline:
        page.wait_for_timeout(300)
    return graph_frames(page)
