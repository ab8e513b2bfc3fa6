"""Knowledge-graph vocabulary as data: demonyms, belief adjectives, aliases, label conventions.

The linker stays generic; what a graph calls things ("American" -> "United States of America",
FB15k-237's British "Actor-GB" professions, which relations say what a node *is*) lives in a
JSON lexicon. Presets ship in ``lexicons/``: ``base`` (neutral English) and ``freebase`` (base plus
the label conventions of Freebase-derived graphs), chosen per workspace (``query.lexicon``: "auto"
picks freebase for a graph whose relations are Freebase paths, recorded at import); a workspace's
``lexicon.json`` extends its preset (same keys; ``null`` removes an entry).
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputFormatError

PRESET_DIR = Path(__file__).resolve().parent / "lexicons"
PRESETS = ("base", "freebase")
LEXICON_FILE = "lexicon.json"  # a workspace's own additions
_FREEBASE_PATH = re.compile(r"/[a-z][a-z0-9_]*/[a-z][a-z0-9_]*/[a-z][a-z0-9_]*")  # /domain/type/property
_MAPS = ("demonyms", "beliefs", "aliases", "class_words", "label_suffixes", "relation_words", "verb_classes",
         "kind_words", "coarse_kinds", "converse_words")


@dataclass(frozen=True)
class Lexicon:
    demonyms: dict[str, str] = field(default_factory=dict)
    """Adjective -> country label ("American" -> "United States of America"); linked weakly, except in the
    answer type ("Who is the American actor"), where it constrains the answer like a class word."""
    beliefs: dict[str, str] = field(default_factory=dict)
    """Lowercase belief adjective -> religion label ("jewish" -> "Judaism"); linked weakly."""
    aliases: dict[str, str] = field(default_factory=dict)
    """Lowercase word or phrase -> label it names ("usa", "married" -> "Marriage")."""
    class_words: dict[str, list[str]] = field(default_factory=dict)
    """Lowercase word -> several class labels it names at once ("actress" -> Actor, Female)."""
    loose_type_words: frozenset[str] = frozenset()
    """Answer-type words used loosely ("Which artist"): never firm constraints, only ranking evidence."""
    language_label: str = ""
    """How the graph names a language: "in English" -> this template with {x} = "English"."""
    language_words: frozenset[str] = frozenset()
    """Words that, within a few words of "English", make it the language ("English dialogue")."""
    label_suffixes: dict[str, dict] = field(default_factory=dict)
    """Label suffix -> {"aliases": templates over the label without it, "weakens": lowercase keys
    (labels or demonyms) that then link weakly, even in the answer type}: FB15k-237 names British
    professions "Actor-GB", so its questions call American actors "British"."""
    shared_tails: tuple[str, ...] = ()
    """Place names that coordinated nouns share ("screenwriter and producer from Great Britain")."""
    type_relations: tuple[str, ...] = ()
    """Relation names (last path segment, lowercase) whose tail says what the head is."""
    verb_classes: dict[str, list[str]] = field(default_factory=dict)
    """Lowercase verb -> class labels it makes the one who does it ("directed" -> Film Director): in a "Who"
    question, evidence that ranks those in the class first, never a filter."""
    relation_words: dict[str, list[str]] = field(default_factory=dict)
    """Lowercase question word -> the words relation names use for it ("died" -> "death"): "passed away
    in Munich" then states /people/deceased_person/place_of_death, and the exact set keeps only the
    entities joined to Munich by it."""

    untyped_namespaces: tuple[str, ...] = ()
    """Relation path prefixes whose relations say nothing of what their ends are (Freebase's maintenance
    namespace: /dataworld/gardening_hint/split_to joins things of any kind)."""
    kind_words: dict[str, str] = field(default_factory=dict)
    """Lowercase answer-type word -> the word the graph's kinds use for it ("place" -> "location", "figure" ->
    "person"): "Which place is home to ..." then keeps the locations, as "Which location" would."""

    coarse_kinds: dict[str, str] = field(default_factory=dict)
    """Lowercase class noun -> the coarse kind of thing it names ("singer" -> "person", "league" -> "organization";
    ``sgrag.kinds.COARSE_KINDS``): which NER-typed nodes of a document graph a question's answer type asks for."""
    converse_words: dict[str, list[str]] = field(default_factory=dict)
    """Lowercase word naming the head's role in a relation named "<word> of" ("son of") -> the words that say the
    same relation from its tail's side ("father", "mother", "parent"; a symmetric word maps to itself: "married"):
    how an edge the candidate is the tail of reads (rule ``converse_relations``)."""
    maker_verbs: tuple[str, ...] = ()
    """Verbs saying who made a work ("created", "wrote", "performed"): a "<work noun> by X" relation ("song by")
    read from X's side says X did one of them (rule ``converse_relations``)."""

    preset: str = "base"
    """The shipped preset this lexicon extends ("base", "freebase")."""
    digest: str = ""
    """Hash of the merged lexicon's content: an index records the one it was built with."""

    @classmethod
    def of_workspace(cls, workspace: str | Path, preset: str = "base") -> "Lexicon":
        """The workspace's preset extended by its own ``lexicon.json``, if it has one."""
        return cls.load(Path(workspace) / LEXICON_FILE, preset=preset)

    @classmethod
    def load(cls, *paths: str | Path | None, preset: str = "base") -> "Lexicon":
        """The shipped ``preset`` extended by each existing file in ``paths``, in order."""
        data = _preset_data(preset)
        for p in paths:
            if p is not None and Path(p).is_file():
                _merge(data, _read(Path(p)))
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
        return cls(**{k: data.get(k, {}) for k in _MAPS}, preset=preset, digest=digest,
                   language_label=str(data.get("language_label") or ""),
                   shared_tails=tuple(data.get("shared_tails") or ()),
                   loose_type_words=frozenset(w.lower() for w in data.get("loose_type_words") or ()),
                   language_words=frozenset(w.lower() for w in data.get("language_words") or ()),
                   type_relations=tuple(t.lower() for t in data.get("type_relations") or ()),
                   untyped_namespaces=tuple(data.get("untyped_namespaces") or ()),
                   maker_verbs=tuple(w.lower() for w in data.get("maker_verbs") or ()))


def detect_preset(relations) -> str:
    """The preset a graph's relation names call for: "freebase" when most are Freebase paths
    (/domain/type/property), else "base"."""
    names = list(relations)
    paths = sum(1 for x in names if _FREEBASE_PATH.match(x))
    return "freebase" if names and paths >= 0.8 * len(names) else "base"


def resolve_preset(configured: str, relations) -> str:
    """The preset a workspace uses: the configured one, or the one its graph calls for when "auto"."""
    if configured == "auto":
        return detect_preset(relations)
    if configured not in PRESETS:
        raise InputFormatError("query.lexicon", None, f"unknown lexicon preset {configured!r} "
                               f"(one of: auto, {', '.join(PRESETS)})")
    return configured


def _preset_data(preset: str) -> dict:
    """A shipped preset's data, merged over the preset it extends."""
    if preset not in PRESETS:
        raise InputFormatError(preset, None, f"unknown lexicon preset (one of: {', '.join(PRESETS)})")
    data = _read(PRESET_DIR / f"{preset}.json")
    parent = data.pop("extends", None)
    if parent:
        base = _preset_data(parent)
        _merge(base, data)
        return base
    return data


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputFormatError(str(path), None, f"unreadable lexicon: {exc}") from exc
    if not isinstance(data, dict):
        raise InputFormatError(str(path), None, "a lexicon is a JSON object")
    for key in _MAPS:
        if not isinstance(data.get(key, {}), dict):
            raise InputFormatError(str(path), None, f"lexicon key {key!r} must be an object")
    for key in ("kind_words", "coarse_kinds"):
        for word, value in (data.get(key) or {}).items():
            if value is not None and not isinstance(value, str):
                raise InputFormatError(str(path), None, f"lexicon key {key!r}: {word!r} must map to a string")
    for key in ("class_words", "relation_words", "verb_classes", "converse_words"):
        for word, value in (data.get(key) or {}).items():
            if value is not None and (not isinstance(value, list) or not all(isinstance(x, str) for x in value)):
                raise InputFormatError(str(path), None, f"lexicon key {key!r}: {word!r} must map to a list of strings")
    for key in ("shared_tails", "type_relations", "loose_type_words", "language_words", "untyped_namespaces",
                "maker_verbs"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise InputFormatError(str(path), None, f"lexicon key {key!r} must be a list of strings")
    return data


def _merge(base: dict, extra: dict) -> None:
    """Maps merge key by key (None deletes); lists and strings are replaced."""
    for key, value in extra.items():
        if key in _MAPS:
            merged = dict(base.get(key) or {})
            for k, v in value.items():
                if v is None:
                    merged.pop(k, None)
                else:
                    merged[k] = v
            base[key] = merged
        else:
            base[key] = value
