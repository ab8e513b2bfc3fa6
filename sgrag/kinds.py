"""Coarse kinds: what sort of thing an extracted node is (a person, an organisation, a place, a work, an
event, a product, a law, a nationality or group), and which of them a question's answer type asks for.

A document graph types few nodes through "is a" class edges ("X is a German video game developer"); spaCy's
named-entity labels type nearly every name, if coarsely. The extractor files a name's kind (its stated class's,
its head noun's, else the majority NER label over its mentions) as an ``is a`` edge to one of ``COARSE_KINDS``
(how "ner", less sure than a class the text states);
the ranker reads them back (``NodeKinds``) and asks ``asked_kind`` what the answer type wants: the shipped
lexicon's common class nouns (``coarse_kinds``), else what the graph's own class nodes are made of (a class
noun whose members are mostly NER persons names people), else a person-noun ending. Unsure means no kind.
"""
from __future__ import annotations

import re

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .coref import is_person_noun
from .extract import parse_edge_source
from .graph import KnowledgeGraph
from .textnorm import fold, singular, tokens

PERSON, ORGANIZATION, PLACE, WORK, EVENT, PRODUCT, LAW, GROUP = \
    "person", "organization", "place", "work", "event", "product", "law", "nationality or group"
COARSE_KINDS = (PERSON, ORGANIZATION, PLACE, WORK, EVENT, PRODUCT, LAW, GROUP)
"""The class nodes a coarse kind is filed under (``is a`` edges, how "ner")."""
NER_KINDS = {"PERSON": PERSON, "ORG": ORGANIZATION, "GPE": PLACE, "LOC": PLACE, "FAC": PLACE,
             "WORK_OF_ART": WORK, "EVENT": EVENT, "PRODUCT": PRODUCT, "LAW": LAW, "NORP": GROUP}
"""spaCy's entity labels -> coarse kinds (LANGUAGE names no thing of these kinds; NORP's "German", "Catholic"
answer no "Which club" or "Which battle")."""
NER_HOW = "ner"
"""How an ``is a`` edge to a coarse kind read from NER labels is marked in its provenance."""
NOT_ASKED = frozenset({"entity", "one", "notable", "thing", "item", "name", "kind", "type", "other"})
"""Answer-type words that ask for no kind ("Which *one*", "Which *thing*")."""
PERSON_WORDS = frozenset({"person", "people", "individual"})
"""Answer-type words that ask for a person in so many words ("Which *person* ..."): on a graph read from documents, where
kinds come from NER and the text, they ask for the person kind."""


SETTLEMENTS = frozenset({"city", "town", "village", "hamlet", "municipality", "commune", "county", "district",
                         "province", "state", "country", "region", "territory", "capital", "suburb", "borough",
                         "parish", "township", "metropolis", "oblast", "voivodeship", "canton", "prefecture",
                         "governorate", "island", "river", "lake", "mountain"})
"""Places no organisation is: a "Which city" is not answered by what the text says is a party or a company."""


def majority_kind(labels: Counter) -> str | None:
    """The coarse kind most of a node's NER-labelled mentions carry (more than half), else None."""
    votes = Counter()
    for label, n in labels.items():
        if label in NER_KINDS:
            votes[NER_KINDS[label]] += n
    if not votes:
        return None
    kind, n = votes.most_common(1)[0]
    return kind if 2 * n > sum(votes.values()) else None


def stated_kind(classes: list[str]) -> str | None:
    """The coarse kind the classes a text states name ("a novel": work), when they agree (the shipped lexicon)."""
    said = {noun_kind(c) for c in classes} - {None}
    return said.pop() if len(said) == 1 else None


def named_kind(label: str, ner: str | None) -> str | None:
    """The coarse kind a name's head noun names: the word before "of" ("Battle of Hastings", "Bank of America"),
    or the last of two or more words (before an edition's year) when it names an organisation, a place or an event
    ("First Gallagher Ministry"; not "Tor Books") and NER does not read the name as a person, a work or a product
    (band and song names borrow nouns: "Dire Straits")."""
    head, before_of = name_head(label)
    if head is None:
        return None
    if before_of:
        return noun_kind(head)
    said = EVENT if head in EVENT_NAME_ENDS else noun_kind(head)  # "the 79th Academy Awards", "the FA Cup": a
    # ceremony, a competition
    return said if said in (ORGANIZATION, PLACE, EVENT) and ner not in (PERSON, WORK, PRODUCT) else None


def name_head(label: str) -> tuple[str | None, bool]:
    """The capitalised head noun of a name of two or more words, and whether it stands before "of": the word before
    "of" ("*Battle* of Hastings", "*University* of Michigan"), else the last word before an edition's year
    ("Eurovision Song *Contest* 1977"); None for one word or a lowercase head."""
    words = label.split()
    if len(words) > 2 and re.fullmatch(r"\d{4}", words[-1]):
        words = words[:-1]  # "Eurovision Song Contest 1977": an edition of the contest
    if len(words) < 2:
        return None, False
    if "of" in words[1:-1] and words[words.index("of", 1) - 1][:1].isupper():
        return words[words.index("of", 1) - 1], True
    return (words[-1], False) if words[-1][:1].isupper() else (None, False)


EVENT_NAME_ENDS = frozenset({"Awards", "Cup", "Open", "Prix", "Trophy", "Championships", "Olympics"})
"""Last words of names of events held again and again that no class noun of the lexicon says ("award" is a thing,
"cup" a vessel); not "Games", which ends as many companies' names ("Midway Games") as competitions'."""


def coarse_words(coarse_kinds: dict[str, str]) -> dict[str, str]:
    """A lexicon's ``coarse_kinds`` keyed as they are looked up (lowercase, singular), those naming a coarse kind."""
    return {singular(w.lower()): k for w, k in coarse_kinds.items() if k in COARSE_KINDS}


@lru_cache(maxsize=1)
def base_kinds() -> dict[str, str]:
    """The shipped lexicon's class nouns -> coarse kinds (the extractor reads names with the base preset)."""
    from .lexicon import Lexicon
    return coarse_words(Lexicon.load(preset="base").coarse_kinds)


def noun_kind(noun: str) -> str | None:
    """The coarse kind the shipped lexicon files a class noun under, by its last word ("military *leader*")."""
    words = noun.split()
    return base_kinds().get(singular(words[-1].lower())) if words else None


@dataclass(frozen=True)
class NodeKinds:
    """Per node of a document graph: its coarse kind (index into ``COARSE_KINDS``, -1 none or conflicting) and
    whether it is a person for sure (a stated class, a he/she or "born", and no other kind from NER: not NER
    alone), or surely not one (a class noun the text states of it names another kind: "X is his second album"; or
    its name does: "the *Treaty* of Nerchinsk", "England", "Dutch");
    and what each class noun of the graph is made of (``learned``: class label -> coarse kind)."""
    kind: np.ndarray
    sure_person: np.ndarray
    learned: dict[str, str]
    sure_not_person: np.ndarray
    nation: np.ndarray
    """A country or its people by name ("England", "Dutch"), which no "Who" asks for."""
    stated: np.ndarray
    """The coarse kind the classes the text states of a node name, where they agree (-1: none or several)."""

    def stated_other_kind(self, nodes: np.ndarray, asked: str, asked_noun: str) -> np.ndarray:
        """Per node: a class the text states of it names another coarse kind than ``asked`` ("a political *party*"
        for "Which *city*"). An organisation and a place are told apart only where the question asks for a place
        no organisation is (a settlement or a division: ``SETTLEMENTS``) and no stated class is an institution,
        which is both ("a museum", "an institution")."""
        said = self.stated[nodes]
        other = (said >= 0) & (said != COARSE_KINDS.index(asked))
        if asked in (ORGANIZATION, PLACE) and singular(asked_noun) not in SETTLEMENTS:
            other &= ~np.isin(said, [COARSE_KINDS.index(ORGANIZATION), COARSE_KINDS.index(PLACE)])
        return other

    @classmethod
    def of_graph(cls, graph: KnowledgeGraph, type_relation: str = "is a", min_members: int = 3,
                 share: float = 0.8) -> "NodeKinds":
        """Read from ``is a`` edges to coarse kind nodes; a class whose ``min_members`` or more kinded members
        are at least ``share`` of one kind is learned as that kind. An imported graph (no edges read from
        documents) has no NER kinds: every node is -1."""
        n = graph.num_nodes
        kind = np.full(n, -1, dtype=np.int64)
        sure = np.zeros(n, dtype=bool)
        if not graph.edge_sources or type_relation not in graph.relations:
            return cls(kind, sure, {}, np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.full(n, -1, dtype=np.int64))
        rid = graph.relations.index(type_relation)
        coarse = {k: i for i, k in enumerate(COARSE_KINDS)}
        seen: dict[int, set[int]] = {}
        class_edges: list[tuple[int, int]] = []
        for e in np.flatnonzero(graph.rel == rid).tolist():
            s, t = int(graph.src[e]), int(graph.dst[e])
            k = coarse.get(graph.labels[t])
            if k is None:
                class_edges.append((s, t))
                continue
            if k == 0 and not read_by_ner(graph.edge_sources.get(e, ())):
                sure[s] = True
            seen.setdefault(s, set()).add(k)
        for s, ks in seen.items():  # a person by a he/she that NER calls a team or a place is contested: no kind
            sure[s] &= ks == {0}
            kind[s] = next(iter(ks)) if len(ks) == 1 else -1
        stated: dict[int, set[str | None]] = {}
        for e in np.flatnonzero(graph.rel == rid).tolist():
            s, t = int(graph.src[e]), int(graph.dst[e])
            if graph.labels[t] not in coarse and not read_by_ner(graph.edge_sources.get(e, ())):
                stated.setdefault(s, set()).add(noun_kind(graph.labels[t]))
        not_person = np.zeros(n, dtype=bool)
        said = np.full(n, -1, dtype=np.int64)
        for s, ks in stated.items():
            not_person[s] = None not in ks and PERSON not in ks and not sure[s] and kind[s] != 0
            if len(ks) == 1 and None not in ks:
                said[s] = COARSE_KINDS.index(next(iter(ks)))
        nation = np.fromiter((country_named(x) is not None for x in graph.labels), dtype=bool, count=n)
        for s in np.flatnonzero((kind != 0) & ~sure & ~not_person).tolist():
            if 0 in seen.get(s, ()) or PERSON in stated.get(s, ()):
                continue  # anything says a person ("Jude Law", NER's person once, "the actor")
            head = name_head(graph.labels[s])[0]  # "the Élysée *Treaty*": a thing's name
            named = noun_kind(head.lower()) if head is not None else None
            not_person[s] = named is not None and named != PERSON or nation[s]
        members: dict[int, Counter] = {}
        for s, t in class_edges:
            if kind[s] >= 0:
                members.setdefault(t, Counter())[int(kind[s])] += 1
        learned = {}
        for t, votes in members.items():
            k, m = votes.most_common(1)[0]
            if m >= min_members and m >= share * sum(votes.values()):
                learned[singular(graph.labels[t].lower())] = COARSE_KINDS[k]
        return cls(kind, sure, learned, not_person, nation & (kind != 0), said)

    def asked_kind(self, answer_type: str, lexicon: dict[str, str], question: str = "") -> str | None:
        """The coarse kind the answer type asks for (``asked_kind``), with this graph's learned class nouns."""
        return asked_kind(answer_type, lexicon, self.learned, question)


def asked_kind(answer_type: str, lexicon: dict[str, str], learned: dict[str, str] | None = None,
               question: str = "") -> str | None:
    """The coarse kind an answer type asks for: its last word that names one ("film director made": director),
    by the lexicon (lowercase singular noun -> kind), else the graph's learned class nouns, else a person-noun
    ending ("pianist", "physician"); "person" only where the question writes it ("Which *person*": a "Who" question
    may ask for a band or a publisher); None when no word says ("one", "thing")."""
    for w in reversed([singular(w) for w in tokens(answer_type)]):
        if w in NOT_ASKED:
            return None
        if w in PERSON_WORDS:
            return PERSON if re.search(rf"\b{w}", question, re.I) else None
        said = lexicon.get(w) or (learned or {}).get(w)
        if said in COARSE_KINDS:
            return said
        if is_person_noun(w):
            return PERSON
    return None


def read_by_ner(sources) -> bool:
    """Whether every provenance entry of an edge says it was read from NER labels (none: it was not)."""
    return bool(sources) and all((ev := parse_edge_source(x)) is not None and ev.how.startswith(NER_HOW)
                                 for x in sources)


@lru_cache(maxsize=1)
def _country_names() -> dict[str, str]:
    """Folded country names, their short forms before " of " ("United States") and the shipped lexicon's demonyms
    and aliases -> the country."""
    from .lexicon import Lexicon
    lex = Lexicon.load(preset="base")
    out: dict[str, str] = {}
    for demonym, country in lex.demonyms.items():
        out[fold(demonym)] = out[fold(country)] = country
        short = re.sub(r" of .*$", "", country)  # (not the linker's short forms: they add plurals, "Spains")
        if len(short.split()) > 1:
            out.setdefault(fold(short), country)
    countries = set(lex.demonyms.values())
    for alias, country in lex.aliases.items():
        if country in countries:
            out.setdefault(fold(alias), country)
    import pycountry  # ISO 3166: every country by its short, common and official name ("Ireland", "Russian Federation")
    for c in pycountry.countries:
        names = [getattr(c, a, None) for a in ("name", "common_name", "official_name")]
        known = next((out[fold(n)] for n in names if n and fold(n) in out), names[0])  # the lexicon's name first
        for name in filter(None, names):
            out.setdefault(fold(name), known)
    for sub in pycountry.subdivisions.get(country_code="GB"):  # England, Scotland, Wales, Northern Ireland
        if sub.type in ("Country", "Province"):
            name = re.sub(r"\s*\[.*\]$", "", sub.name)
            out.setdefault(fold(name), name)
    return out


def country_named(label: str) -> str | None:
    """The country a name or nationality word stands for ("U.S.", "the United States", "American"), or None."""
    key = fold(label)
    return _country_names().get(key[4:] if key.startswith("the ") else key)


def names_a_nationality(words: list[str]) -> bool:
    """Whether one of ``words`` (an answer type's before its head) names a country or its people ("Which *German*
    count"): what the answer is has a nationality, which no value has."""
    return any(country_named(w) is not None for w in words)
