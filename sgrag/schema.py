"""What a graph's nodes and relations are, learned from the graph itself: value nodes (years, dates, numbers are
not things) and the schema profile (how relations are named, which are stored both ways, which type their
heads, whether directions are kept), stored with the index so every rule reads the same facts.

A question that asks for a thing ("Which film ...") is never answered by a year or a number that happens
to be joined to every constraint, and one that asks for a date ("In which year ...", "On what date ...")
is answered only by one.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from .fsutil import atomic_write_json, read_json
from .graph import KnowledgeGraph
from .kinds import names_a_nationality
from .textnorm import singular, tokens

_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_ORDINAL = r"(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|" \
           r"twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|" \
           r"twenty-first)"
_SPAN = r"(?-i:years?|months?|weeks?|days?|hours?|decades?|centuries)"  # lowercase: "Six Days" is a title
_AGO = r"(?-i:old|later|earlier|ago)"
_NUMBER_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|many|few)"
_DATE = rf"(?:(?:\d{{1,2}} )?{_MONTH}(?: \d{{1,2}},?)? \d{{3,4}}|\d{{1,2}} {_MONTH}|{_MONTH} \d{{1,2}}|\d{{3,4}})"
_VALUE = re.compile(
    rf"(?:(?:the )?\d{{1,4}}s"  # "1990s", "the 1930s"
    rf"|{_DATE}(?: ?[–—-] ?{_DATE})?"  # "21 February 1992", "February 21, 1992", "May 1990", "1 October", "1826–1900"
    rf"|{_MONTH}|(?:spring|summer|autumn|fall|winter) \d{{4}}"  # "November", "spring 1990"
    rf"|(?:the )?{_ORDINAL}[- ](?-i:century)"  # "nineteenth-century", "the 19th century" (not "Third Century")
    rf"|\d+ {_SPAN}(?: {_AGO})?|{_NUMBER_WORD} {_SPAN} {_AGO}"  # "12 years old", "two years later"
    rf"|\d{{4}}-\d{{2}}(?:-\d{{2}})?"  # ISO dates
    rf"|[+-]?\d[\d,.]*(?: ?(?:%|percent|million|billion|thousand|km|kilometres|kilometers|miles|m|metres|meters|"
    rf"feet|ft|kg|tonnes|hectares|acres|people|inhabitants))?)",  # "1990", "3.5 million", "42 km"
    re.I)
VALUE_WORDS = frozenset({"year", "date", "day", "month", "decade", "century", "number", "amount", "population",
                         "age", "height", "length", "area", "size", "count"})
THING_TOO = frozenset({"population", "age", "height", "length", "area", "size", "count"})
"""Value words that also name things: "What is the *area* of ..." asks for a value, "Which protected *area*" and "Which
*Count* of Provence" for a thing."""
_ASKS_WHEN = re.compile(r"^\s*(?:when\b|(?:in|on|at) (?:what|which) (?:year|date|day|month|decade)\b)", re.I)


_DAY = re.compile(rf"(?:\d{{1,2}} {_MONTH},? \d{{3,4}}|{_MONTH} \d{{1,2}},? \d{{3,4}})", re.I)
_MONTH_YEAR = re.compile(rf"{_MONTH},? \d{{3,4}}", re.I)
_YEAR = re.compile(r"\d{3,4}")


def value_precision(label: str) -> str | None:
    """How precise a date value is: "day" ("4 November 2013", "March 28, 2014"), "month" ("January 2006"),
    "year" ("2013"), or None (no date, or a range)."""
    label = label.strip()
    return "day" if _DAY.fullmatch(label) else "month" if _MONTH_YEAR.fullmatch(label) else \
        "year" if _YEAR.fullmatch(label) else None


def asked_precision(question: str, answer_type: str) -> str | None:
    """The precision of date a question asks for: "On what *date*" a day, "In which *year*" a year, "*month*" a
    month; None for any other question."""
    when = _ASKS_WHEN.match(question)
    words = tokens(answer_type) or tokens(when.group(0) if when else "")
    return {"date": "day", "day": "day", "month": "month", "year": "year"}.get(singular(words[-1]) if words else "")


def is_value_label(label: str) -> bool:
    """Whether a label is a value (a year, a date, a number with its unit) rather than a thing's name."""
    return bool(_VALUE.fullmatch(label.strip()))


def value_nodes(graph: KnowledgeGraph) -> np.ndarray:
    """Per node: whether it is a value: its label reads as one, or a document extractor typed it so (description
    "value": "38th", "two days"), and the graph only ever points at it (a film called "2012" or "300" heads
    relations of its own, so it is a thing)."""
    heads = np.bincount(graph.src, minlength=graph.num_nodes) > 0
    looks = np.fromiter((is_value_label(x) or d == "value" for x, d in zip(graph.labels, graph.descriptions)),
                        dtype=bool, count=graph.num_nodes)
    return looks & ~heads


def asks_for_value(question: str, answer_type: str) -> bool:
    """Whether the question asks for a value ("In which year ...", "On what date ...", "When ..."); not where the
    answer type gives the value word a nationality, which no value has ("What *German* count"), nor where a word
    that also names things (``THING_TOO``) follows "Which" or is capitalised as a title ("Which protected area",
    "the Count of Castile")."""
    if _ASKS_WHEN.match(question):
        return True
    words = [singular(w) for w in tokens(answer_type)]
    if not words or words[-1] not in VALUE_WORDS or names_a_nationality(words[:-1]):
        return False
    return words[-1] not in THING_TOO or not (re.match(r"\s*which\b", question, re.I) or
                                              re.search(rf"\b{words[-1].capitalize()}", question))


def class_only_nodes(graph: KnowledgeGraph, type_relation: str = "is a") -> np.ndarray:
    """Per node: a class node a document extractor made ("person", "song"): most edges at it are ``is a``
    edges pointing at it (a stray "studied at the university" does not make it a thing). Such a node
    names a kind, so it never answers "Which ..."."""
    n = graph.num_nodes
    rid = graph.relations.index(type_relation) if type_relation in graph.relations else -1
    if rid < 0 or graph.num_edges == 0:
        return np.zeros(n, dtype=bool)
    is_type = graph.rel == rid
    typed_in = np.bincount(graph.dst[is_type], minlength=n)
    incident = np.bincount(graph.src, minlength=n) + np.bincount(graph.dst, minlength=n)
    return (typed_in > 0) & (2 * typed_in >= incident)


# ---- the schema profile: a graph's conventions, learned from its statistics at build ------------------------------

PROFILE_FILE = "schema_profile.json"
PROFILE_VERSION = 1
_PATH_NAME = re.compile(r"/[^/\s]+/")  # "/people/person/place_of_birth"
_ID_NAME = re.compile(r"(?:[A-Za-z]{0,3}:)?[A-Za-z]{0,2}\d+")  # "P31", "wdt:P19", "R7"


@dataclass(frozen=True)
class ProfileThresholds:
    """The numbers the profile's statistics are read with (not tuned on any question set); a workspace's come
    from its typed config (``ProfileThresholds.of``)."""
    naming_share: float = 0.8
    """A graph names its relations one way (path / plain / id) when at least this share of the names do."""
    one_way_overlap: float = 0.05
    """A relation keeps its direction when at most this share of its (fewer) ends are both a head and a tail."""
    directed_share: float = 0.5
    """A graph keeps directions when at least this share of its edges lie in relations that keep theirs."""
    reciprocal_share: float = 0.5
    """Two relations are each other's inverse when at least this share of the smaller one's edges are
    stored reversed in the other (and each is the other's most frequent reversal)."""
    reciprocal_min_edges: int = 2
    """... over at least this many reversed edges."""


    @classmethod
    def of(cls, r) -> "ProfileThresholds":
        """The thresholds a workspace's config sets (``r``: its ``RankingConfig``)."""
        return cls(naming_share=r.plain_share, one_way_overlap=r.one_way_overlap, directed_share=r.directed_share)


PROFILE_THRESHOLDS = ProfileThresholds()


@dataclass(frozen=True)
class SchemaProfile:
    """What sgrag learned about a graph's conventions at build, from its statistics (never from
    Freebase names): rules read it instead of guessing from relation spellings."""
    naming: str
    """How relations are named: "path" (/domain/type/property), "plain" (words: "place of birth"), "id"
    (P31, with a description that says what it means), or "mixed"."""
    readable: bool
    """Whether the relations' names or descriptions are plain words a stated phrase can be read against."""
    naming_shares: dict[str, float]
    """Share of relation names of each style."""
    directed: bool
    """Whether the graph keeps edge directions (most edges lie in relations that do), so which end of an
    edge a node holds says something about it."""
    one_way_share: float
    """Share of edges in relations that keep their direction."""
    reciprocal: dict[str, str]
    """Relation -> the relation that stores its facts the other way round ("contains ..." <-> "located in
    ..."; "follows" <-> "followed by"); a symmetric relation ("sibling") maps to itself."""
    type_relations: tuple[str, ...]
    """Relations whose tail says what the head is (named so in the lexicon, by name or description:
    "instance of", P31; or whose tails gather many heads each: profession, gender)."""
    class_nodes: int
    """How many nodes the graph uses as classes (most of their edges are type-like pointers at them)."""
    value_nodes: int
    """How many nodes are values (years, dates, numbers the graph only points at)."""
    nodes: int
    edges: int
    relations: int
    version: int = PROFILE_VERSION

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "SchemaProfile":
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in data.items() if k in known}
        data["type_relations"] = tuple(data.get("type_relations") or ())
        return cls(**data)

    def save(self, path: Path) -> None:
        atomic_write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: Path) -> "SchemaProfile | None":
        """The stored profile, or None when there is none or it is of another version (learn it again)."""
        data = read_json(path, None)
        if not isinstance(data, dict) or data.get("version") != PROFILE_VERSION:
            return None
        return cls.from_dict(data)

    @classmethod
    def of_index(cls, version_dir: str | Path) -> "SchemaProfile | None":
        """The profile stored with an index version (None for an index built before profiles were stored)."""
        return cls.load(Path(version_dir) / PROFILE_FILE)

    def summary(self) -> list[str]:
        """One line per learned convention, for the Build page and the CLI."""
        pairs = sorted({tuple(sorted((a, b))) for a, b in self.reciprocal.items() if a != b})
        symmetric = sorted(a for a, b in self.reciprocal.items() if a == b)
        shown = lambda xs: ", ".join(xs[:6]) + (f", … ({len(xs)} in all)" if len(xs) > 6 else "")  # noqa: E731
        style = {"path": "as paths (/domain/type/property)", "plain": "in plain words (\"place of birth\")",
                 "id": "by ids", "mixed": "in mixed styles"}[self.naming]
        return [
            f"Relations are named {style}" + ("" if self.naming != "id" else
                                              (", with descriptions in plain words" if self.readable else
                                               ", without readable descriptions")) + ".",
            ("Edge directions are kept" if self.directed else "Edge directions are not kept consistently")
            + f" ({self.one_way_share:.0%} of edges lie in relations that keep theirs).",
            f"Stored both ways: {shown([f'{a} / {b}' for a, b in pairs])}." if pairs else "No relation is stored both ways.",
            f"Symmetric: {shown(symmetric)}." if symmetric else "No symmetric relation.",
            f"Type-like relations: {shown(list(self.type_relations))}." if self.type_relations else
            "No type-like relation.",
            f"{self.class_nodes:,} class nodes, {self.value_nodes:,} value nodes (years, dates, numbers) among "
            f"{self.nodes:,} nodes, {self.edges:,} edges, {self.relations:,} relations.",
        ]


def naming_style(graph: KnowledgeGraph, share: float = PROFILE_THRESHOLDS.naming_share) -> tuple[str, bool, dict]:
    """(style, readable, shares) of the graph's relation names: paths, plain words or ids (see SchemaProfile)."""
    names = graph.relations
    n = max(len(names), 1)
    path = sum(1 for x in names if x.startswith("/") and _PATH_NAME.match(x))
    ids = sum(1 for x in names if _ID_NAME.fullmatch(x.strip()))
    plain = sum(1 for x in names if not x.startswith("/") and not _ID_NAME.fullmatch(x.strip())
                and re.search(r"[a-z]{3,}", x.lower()))
    shares = {"path": round(path / n, 4), "plain": round(plain / n, 4), "id": round(ids / n, 4)}
    style = next((s for s in ("path", "plain", "id") if shares[s] >= share), "mixed")
    readable = style == "plain"
    if style == "id":  # ids read through their descriptions ("P19": "place of birth")
        described = {int(r) for r, d in zip(graph.rel.tolist(), graph.desc.tolist()) if d >= 0
                     and re.search(r"[a-z]{3,}", graph.texts[d].lower())}
        readable = len(described) >= share * n
    return style, readable, shares


def reciprocal_relations(graph: KnowledgeGraph, th: ProfileThresholds = PROFILE_THRESHOLDS) -> dict[str, str]:
    """Relation -> the relation its facts are also stored in reversed (each the other's most frequent
    reversal, over at least ``reciprocal_share`` of the smaller one's edges); symmetric ones map to themselves."""
    n, r = graph.num_nodes, max(len(graph.relations), 1)
    if not graph.num_edges:
        return {}
    src, dst, rel = graph.src.astype(np.int64), graph.dst.astype(np.int64), graph.rel.astype(np.int64)
    fwd = np.unique((src * n + dst) * r + rel)
    pair, rel_of = fwd // r, fwd % r
    rpair = (pair % n) * n + pair // n  # the same two nodes, reversed
    order = np.argsort(pair, kind="stable")
    sp, sr = pair[order], rel_of[order]
    lo, hi = np.searchsorted(sp, rpair, "left"), np.searchsorted(sp, rpair, "right")
    counts: dict[tuple[int, int], int] = {}
    for i in np.flatnonzero(hi > lo).tolist():
        for r2 in sr[lo[i]:hi[i]].tolist():
            key = (int(rel_of[i]), r2)
            counts[key] = counts.get(key, 0) + 1
    size = np.bincount(rel_of, minlength=r)
    best: dict[int, tuple[int, int]] = {}
    for (a, b), c in counts.items():
        if c > best.get(a, (0, -1))[0]:
            best[a] = (c, b)
    out = {}
    for a, (c, b) in best.items():
        if c >= th.reciprocal_min_edges and c >= th.reciprocal_share * min(size[a], size[b]) \
                and best.get(b, (0, -1))[1] == a:
            out[graph.relations[a]] = graph.relations[b]
    return out


def one_way_relations(graph: KnowledgeGraph, overlap: float = PROFILE_THRESHOLDS.one_way_overlap) -> np.ndarray:
    """Per relation, whether few nodes are both its head and its tail (a film is never a language)."""
    g = graph
    n_rel = max(len(g.relations), 1)
    heads = np.unique(g.src.astype(np.int64) * n_rel + g.rel)
    tails = np.unique(g.dst.astype(np.int64) * n_rel + g.rel)
    both = np.bincount(np.intersect1d(heads, tails) % n_rel, minlength=n_rel)
    fewer = np.minimum(np.bincount(heads % n_rel, minlength=n_rel), np.bincount(tails % n_rel, minlength=n_rel))
    return both <= overlap * fewer


def learn_profile(graph: KnowledgeGraph, type_relations=(), thresholds: ProfileThresholds = PROFILE_THRESHOLDS
                  ) -> SchemaProfile:
    """The graph's schema profile, from its statistics; ``type_relations``: the lexicon's names of type-like
    relations (matched against a relation's last path segment and its description)."""
    from .linking import class_nodes, type_like_relations  # linking reads the profile's facts too

    th = thresholds
    style, readable, shares = naming_style(graph, th.naming_share)
    reciprocal = reciprocal_relations(graph, th)
    one_way = one_way_relations(graph, th.one_way_overlap)
    kept = one_way | np.array([x in reciprocal for x in graph.relations] or [False], dtype=bool)[:max(len(graph.relations), 1)]
    share = float(kept[graph.rel].mean()) if graph.num_edges else 0.0
    typelike = type_like_relations(graph, type_relations)
    return SchemaProfile(
        naming=style, readable=readable, naming_shares=shares, directed=bool(graph.num_edges) and share >= th.directed_share,
        one_way_share=round(share, 4), reciprocal=reciprocal,
        type_relations=tuple(graph.relations[i] for i in np.flatnonzero(typelike).tolist()),
        class_nodes=int(class_nodes(graph, type_relations).sum()), value_nodes=int(value_nodes(graph).sum()),
        nodes=graph.num_nodes, edges=graph.num_edges, relations=len(graph.relations))
