"""The Ask flow's state outside one run: the question in the URL, answers kept per loaded index,
and the per-workspace question history (a file in the workspace).

A question is ``Asked(question, links)``: the page recomputes (or reuses) its answer whenever
what is wanted differs from what is shown, so a refresh, a shared link, an index that changed
under the page and a question typed while the index loads all end with the same answer.
"""
from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from sgrag.fsutil import atomic_write_json, read_json

Q_PARAM = "q"  # ?q=<question>
LINK_PARAM = "link"  # ?link=<mention>::<node id> (repeated), the chosen link corrections
LINK_SEP = "::"
HISTORY_FILE = "app_history.json"  # in the workspace directory
HISTORY_MAX = 30
QUESTION_MAX = 2000  # characters kept from a URL or the history (a question is a sentence)
ANSWERS_PER_ENGINE = 64


@dataclass(frozen=True)
class Asked:
    """A question and the link corrections chosen for it ({mention text: node id})."""
    question: str
    links: tuple[tuple[str, str], ...] = field(default=())

    @classmethod
    def of(cls, question: str, links: Mapping[str, str] | None = None) -> "Asked":
        return cls(question.strip(), tuple(sorted((links or {}).items())))

    @property
    def overrides(self) -> dict[str, str]:
        return dict(self.links)


# ---- the URL ---------------------------------------------------------------------------------
def asked_from_params(params) -> Asked | None:
    """What ``?q=…&link=…`` asks for (``params`` is ``st.query_params``), or None without a question."""
    q = (params.get(Q_PARAM) or "").strip()[:QUESTION_MAX]
    if not q:
        return None
    links = {}
    for item in params.get_all(LINK_PARAM):
        mention, sep, node = item.rpartition(LINK_SEP)
        if sep and mention.strip() and node.strip():
            links[mention] = node
    return Asked.of(q, links)


def write_params(params, asked: Asked | None) -> None:
    """Put ``asked`` in the URL (or take the question out of it); a no-op when it is already there."""
    want = {Q_PARAM: [asked.question] if asked else [],
            LINK_PARAM: [f"{m}{LINK_SEP}{n}" for m, n in asked.links] if asked else []}
    for key, values in want.items():
        if params.get_all(key) == values:
            continue
        if values:
            params[key] = values if len(values) > 1 else values[0]
        else:
            params.pop(key, None)


# ---- answers kept per loaded index -----------------------------------------------------------
class AnswerCache:
    """The last answers of each loaded engine: a refresh or a shared link shows the answer at once.

    Keyed by the engine object (weakly): a new index version or new settings load a new engine, so
    an answer is never served from another index.
    """

    def __init__(self, size: int = ANSWERS_PER_ENGINE) -> None:
        self.size = size
        self._by_engine: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def answer(self, engine, asked: Asked):
        """The trace of ``asked`` on ``engine``, computed once (errors are raised, never kept)."""
        with self._lock:
            kept = self._by_engine.setdefault(engine, OrderedDict())
            if asked in kept:
                kept.move_to_end(asked)
                return kept[asked]
        trace = engine.ask(asked.question, asked.overrides or None)
        with self._lock:
            kept = self._by_engine.setdefault(engine, OrderedDict())
            kept[asked] = trace
            while len(kept) > self.size:
                kept.popitem(last=False)
        return trace


# ---- question history (per workspace, in the workspace) --------------------------------------
_history_lock = threading.Lock()  # one writer at a time in this server; the file write is atomic


def history_path(ws_path: str | Path) -> Path:
    return Path(ws_path) / HISTORY_FILE


def read_history(ws_path: str | Path) -> list[Asked]:
    """The workspace's asked questions, newest first (a damaged file reads as empty)."""
    try:
        data = read_json(history_path(ws_path), {}) or {}
    except (OSError, ValueError):
        return []
    out = []
    for item in data.get("questions", []) if isinstance(data, dict) else []:
        if isinstance(item, dict) and isinstance(item.get("q"), str) and item["q"].strip():
            links = item.get("links") if isinstance(item.get("links"), dict) else {}
            out.append(Asked.of(item["q"][:QUESTION_MAX], {str(k): str(v) for k, v in links.items()}))
    return out[:HISTORY_MAX]


def record_question(ws_path: str | Path, asked: Asked) -> None:
    """Put ``asked`` first in the history (once), keeping at most HISTORY_MAX questions."""
    with _history_lock:
        kept = [a for a in read_history(ws_path) if a != asked]
        items = [{"q": a.question, "links": a.overrides} for a in [asked, *kept][:HISTORY_MAX]]
        atomic_write_json(history_path(ws_path), {"format": 1, "updated": time.time(), "questions": items})
