"""ε offline: prose, records and tables -> entities and canonical relations, with no model.

Rules over tokens, sentence by sentence (no NLP model is installable offline from an
official source, so every construction is a rule with its own test):

* **Mentions**: known graph labels (longest match), capitalised names, quoted titles, years;
  pronouns, "the company"-style descriptions and lone surnames are resolved by
  ``sgrag.coref.Discourse`` to the latest compatible entity, or left out when ambiguous.
* **Types**: "X is a software company", "X, a shipping company, ...", "the shipping firm X"
  give ``X -[is a]-> software company`` (and the head noun, ``company``); people get
  ``is a -> person``.
* **Relations** have one canonical direction and name: "Y acquired X" and "X was acquired
  by Y" both give ``Y -[acquired]-> X``; "co-founded X with Y" gives Y a ``founded`` edge;
  a year is its own edge (``X -[year acquired]-> 2019``); "founded by A and B" gives one
  edge per conjunct; a place after the object of a verb belongs to the object.
* **Records** ("key: value; key: value." lines, as CSV/JSON rows are loaded) and tables:
  the first cell names the row's entity, each header names a relation.

Every relation keeps the sentence it came from and its character span in the chunk. Example::

    >>> found = OfflineExtractor().extract_text("Nuvola Labs is a software company. "
    ...     "It was acquired by Halvard Group in 2019.")
    >>> sorted((r.source, r.relation, r.target) for r in found.relations)  # doctest: +NORMALIZE_WHITESPACE
    [('Halvard Group', 'acquired', 'Nuvola Labs'), ('Nuvola Labs', 'is a', 'company'),
     ('Nuvola Labs', 'is a', 'software company'), ('Nuvola Labs', 'year acquired', '2019')]
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .coref import CREATED as _CREATED
from .coref import PERSON_VERBS, PRONOUNS, ROLE_NOUNS, Discourse, is_person_noun, name_kind
from .extract import ChunkExtraction, ExtractedEntity, ExtractedRelation
from .io.documents import Chunk, Table
from .textnorm import fold, fold_with_offsets

IS_A = "is a"
"""The type relation: head is an instance, tail a class node ("software company", "person")."""
PERSON = "person"

_ABBREV = {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "etc", "no", "inc", "ltd", "co", "prof",
           "gen", "col", "lt", "mt", "ft", "e.g", "i.e", "approx", "dept", "univ", "u.s", "u.k"}
_SENT_END = re.compile(r"[.!?]+[\"'”’)]*(?=\s+[\"'“‘(]?[A-Z0-9À-Ý])|\n\s*")
_TOKEN = re.compile(r"\w[\w'’\-]*|&")
_CONNECTORS = {"of", "de", "del", "della", "des", "du", "la", "le", "von", "van", "der", "den",
               "da", "di", "the", "&", "y", "for"}
_STOP_START = {"the", "a", "an", "in", "on", "at", "it", "he", "she", "his", "her", "its", "they",
               "their", "this", "that", "these", "those", "today", "however", "also", "but",
               "and", "when", "after", "before", "during", "since", "from", "there", "here",
               "while", "although", "as", "by", "for", "with", "of", "to", "if", "we", "our",
               "you", "your", "i", "my", "some", "many", "most", "visitors", "construction", "both",
               "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several",
               "meanwhile", "moreover", "furthermore", "separately", "earlier", "yesterday", "recently"}
_COPULAS = {"is", "was", "are", "were", "be", "been", "being", "became", "becomes", "remains", "remained"}
_AUX = _COPULAS | {"has", "had", "have", "having", "will", "would", "did", "does", "do"}
_VERBS = {"born", "died", "won", "wrote", "made", "built", "founded", "married", "hosted",
          "directed", "produced", "starred", "starring", "designed", "located", "lies", "lived",
          "worked", "works", "studied", "taught", "led", "played", "sang", "released", "published",
          "created", "contains", "includes", "houses", "staged", "joined", "became", "owns", "owned",
          "features", "featured", "stars", "directs", "writes", "wins", "plays", "leads", "begun",
          "began", "named", "known", "called", "rebuilt", "used", "visited", "attended", "graduated",
          "competed", "composed", "performed", "listed", "acquired", "merged", "opened", "closed",
          "elected", "appointed", "held", "left", "sold", "bought", "operates", "operate", "teach",
          "teaches", "chairs", "employs", "runs", "manages", "heads", "serves", "sits", "invests",
          "funds", "backs", "supplies", "produces", "hosts", "acquires", "founds", "reach", "reaches",
          "contain", "include", "join", "leads", "moved", "headquartered", "based", "situated", "raised",
          "said", "says", "announced", "told", "added", "stated"}
_CANON = {"written": "wrote", "writes": "wrote", "begun": "began", "acquires": "acquired", "founds": "founded",
          "owns": "owned", "directs": "directed", "wins": "won", "plays": "played", "stars": "starred",
          "starring": "starred", "leads": "led", "teaches": "taught", "teach": "taught", "sold": "sold",
          "bought": "acquired", "purchased": "acquired", "established": "founded", "co-founded": "founded",
          "operate": "operates", "contain": "contains",
          "include": "includes", "join": "joined", "hosts": "hosted", "features": "featured"}
"""Surface verb forms -> one relation name (active and passive use the same one)."""
_GENERIC_HEADERS = {"name", "title", "id", "label", "item", "key", "entity", "no", "number", "row"}
"""First-column headers that name no class ("Name"), unlike "Company" or "University"."""
_REPORTING = {"said", "says", "announced", "reported", "told", "added", "stated", "confirmed"}
"""Verbs of reported speech: "..., the companies said on Monday" relates nothing."""
_CONVERSE = {("sold", "to"): "acquired"}
"""(verb, preposition) whose object is the agent of another relation, reversed."""
_STATIVE = {"born", "based", "headquartered", "located", "situated", "died", "lies", "lived", "known",
            "called", "named"}
"""Participles that describe the subject (never reversed): "born in", "based in"."""
_PARTICIPLES = {"built", "born", "known", "made", "held", "led", "written", "begun", "taught", "sold",
                "bought", "left", "run", "won"}
_NOT_VERBS = {"united", "red", "bed", "need", "speed", "seed", "feed", "hundred", "sacred", "naked"}
_DETS = {"a", "an", "the", "this", "that", "these", "those", "its", "his", "her", "their", "some"}
_FILLER = {"and", "or", "but", "also", "as", "well", "then", "later", "often", "now", "still", "which",
           "who", "whom", "that", "both", "together", "first", "once", "further", "had", "has", "have",
           "originally", "previously", "eventually", "since", "currently", "jointly"}
_PREPS = {"in", "at", "on", "by", "for", "with", "from", "to", "of", "near", "into", "under", "after",
          "before", "during", "between", "as", "about", "over", "through", "across", "within", "outside"}
_ADJECTIVES = {"public", "private", "small", "large", "leading", "major", "new", "famous", "former", "later",
               "independent", "global", "international", "national", "local", "young", "old", "big",
               "well-known", "prominent", "successful", "influential", "renowned", "notable", "early",
               "modern", "historic", "small-scale", "listed", "family-owned", "privately", "publicly", "held",
               "owned", "multinational", "award-winning", "first", "second", "only", "main", "largest",
               "oldest", "biggest", "best-known"}
"""Adjectives dropped from a class noun phrase ("a *public* university" -> university)."""
_COMPANY_HEADS = {"firm", "business", "start-up", "startup", "enterprise", "corporation", "conglomerate"}
_CLAUSE_OPENERS = {"and", "but", "after", "while", "when", "because", "although", "before", "since", "as",
                   "so", "where", "whereas", "until", "once"}
_DESCRIPTION_NOUNS = {"company", "firm", "group", "bank", "university", "business", "start-up", "startup",
                      "museum", "palace", "stadium", "set", "institute", "college", "school", "hospital",
                      "studio", "band", "club", "team", "agency", "foundation", "fund", "city", "building",
                      "film", "book", "novel", "album", "organisation", "organization", "enterprise",
                      "corporation", "conglomerate", "airline", "charity"} | set(ROLE_NOUNS)
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_QUOTED = re.compile(r"[\"“]([^\"”\n]{2,80})[\"”]")
_RECORD = re.compile(r"^\s*[^:;\n]{1,60}:\s*[^;\n]*(?:;\s*[^:;\n]{1,60}:\s*[^;\n]*)*\.?\s*$")
_CLASS_WORDS = r"((?:[A-Za-z][\w'’-]*\s+){0,4}?[a-z][\w'’-]*)"
_COPULA_CLASS = re.compile(r"^\s+(?:is|was|are|were|became|becomes|remains|remained)\s+(?:also\s+)?(?:a|an)\s+"
                           + _CLASS_WORDS + r"(?=\s*(?:[,.;:)]|$|\s+(?:\w+ed|born|in|at|of|on|from|near|"
                           r"for|with|by|who|which|that|whose|and|based)\b))")
_APPOSITION_CLASS = re.compile(r"^\s*,\s*(?:a|an)\s+" + _CLASS_WORDS +
                               r"(?=\s*(?:[,.;:)]|$|\s+(?:\w+ed|born|in|at|of|on|from|near|for|with|by)\b))")
_PREFIX_CLASS = re.compile(r"(?:^|\s)(?:[Tt]he|[Aa]n?)\s+"
                           r"((?:(?!(?:the|an?)\s)[A-Za-z][\w'’-]*\s+){0,3}[a-z][\w'’-]*)\s+$")
_PLACE_BEFORE = re.compile(r"\b(?:born|based|headquartered|located|situated|died|lives|lived|grew up)\s+"
                           r"(?:in|near)\s+(?:the\s+)?$")
_PERSON_AFTER = re.compile(r"^,?\s+(?:(?:was|is|had|has|also|later)\s+)*(?:born|studied|died|married|graduated)\b")
NAME_CLASSES = {"bank", "university", "college", "museum", "institute", "school", "hospital", "foundation",
                 "company", "corporation", "airline", "stadium", "palace", "church", "cathedral"}
"""Last words of a name that say what it is."""
_DETERMINED = re.compile(r"\b([Tt]he|[Tt]his|[Hh]is|[Hh]er|[Ii]ts|[Tt]heir)\s+(?:([a-z][\w-]*)\s+)?([a-z][\w-]*)\b")
"""A determiner and one or two lowercase words: a possible definite description."""
_ANAPHORS = ("pronoun", "description", "possessed")
_MAX_RELATION_WORDS = 5
_DESC_CHARS = 300


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    label: str | None
    """The entity (None: an anaphor that could not be resolved; it still blocks a wrong subject)."""
    kind: str  # known | name | name-start | quoted | year | pronoun | description


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; abbreviations and initials ("J. R. R.") do not end a sentence."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in _SENT_END.finditer(text):
        if m.group().startswith((".", "!", "?")):
            word = re.search(r"([\w.]+)$", text[start:m.start()])
            w = word.group(1).lower() if word else ""
            if w in _ABBREV or (len(w) == 1 and w.isalpha()):
                continue
        piece = text[start:m.end()]
        if piece.strip():
            out.append((start + len(piece) - len(piece.lstrip()), piece.strip()))
        start = m.end()
    if text[start:].strip():
        rest = text[start:]
        out.append((start + len(rest) - len(rest.lstrip()), rest.strip()))
    return out


class _LabelMatcher:
    """Longest known-label matches on folded text (Aho-Corasick), mapped back to offsets."""

    def __init__(self, labels: Iterable[str]):
        import ahocorasick
        self._auto = ahocorasick.Automaton()
        for label in labels:
            key = fold(label)
            if len(key) >= 2 and label[:1] and not label[0].islower() and not key.isdigit():
                self._auto.add_word(key, (key, label))
        self.empty = len(self._auto) == 0
        if not self.empty:
            self._auto.make_automaton()

    def spans(self, sentence: str) -> list[_Span]:
        if self.empty:
            return []
        folded, offsets = fold_with_offsets(sentence)
        out = []
        for end, (key, label) in self._auto.iter(folded):
            start = end - len(key) + 1
            if (start > 0 and folded[start - 1] != " ") or (end + 1 < len(folded) and folded[end + 1] != " "):
                continue
            s, e = offsets[start], offsets[end] + 1
            if sentence[s].islower():
                continue
            out.append(_Span(s, e, label, "known"))
        return out


_DEMONYM = re.compile(r"(?:ish|ese|ian|ean|can|man|ic|ch)$")  # "English", "German" + lowercase noun


def _name_spans(sentence: str) -> list[_Span]:
    """Capitalised word sequences ("Herzog & de Meuron", "University of Michigan")."""
    toks = list(_TOKEN.finditer(sentence))
    spans: list[_Span] = []
    i = 0
    while i < len(toks):
        tok = toks[i].group()
        numbered = tok[0].isdigit() and i + 1 < len(toks) and toks[i + 1].group()[0].isupper() \
            and sentence[toks[i].end():toks[i + 1].start()] == " " and \
            not (i and toks[i - 1].group().lower() in _PREPS)  # "2022 Winter Olympics", not "in 2019 Halvard"
        if not (tok[0].isupper() or numbered) or tok.lower().endswith("-based"):  # "Riga-based X"
            i += 1
            continue
        j = i
        while j + 1 < len(toks) and sentence[toks[j].end():toks[j + 1].start()].strip() == "":
            nxt = toks[j + 1].group()
            if nxt[0].isupper():
                j += 1
                continue
            k = j + 1  # connectors only count when a capitalised word follows them
            while k < len(toks) and toks[k].group().lower() in _CONNECTORS and \
                    sentence[toks[k - 1].end():toks[k].start()].strip() == "":
                k += 1
            if k > j + 1 and k < len(toks) and toks[k].group()[0].isupper() and \
                    sentence[toks[k - 1].end():toks[k].start()].strip() == "":
                j = k
                continue
            break
        words = toks[i:j + 1]
        while words and words[0].group().lower() in _STOP_START and len(words) > 1:
            words = words[1:]
        if words and not (len(words) == 1 and words[0].group().lower() in _STOP_START):
            first, last = words[0], words[-1]
            single = len(words) == 1
            at_start = sentence[:first.start()].strip(" \"'“‘(") == ""
            follower = toks[j + 1].group() if j + 1 < len(toks) else ""
            demonym = single and _DEMONYM.search(first.group()) and follower[:1].islower() and \
                not (_is_verb(follower) or follower in _AUX)  # "German engineer", not "Huaman studied"
            if not demonym:
                spans.append(_Span(first.start(), last.end(), sentence[first.start():last.end()],
                                   "name-start" if (single and at_start) else "name"))
        i = j + 1
    return spans


def _pick(spans: list[_Span]) -> list[_Span]:
    """Non-overlapping spans, longest first (known labels win ties), in text order."""
    rank = {"known": 0, "quoted": 1, "name": 2, "name-start": 3, "year": 4}
    chosen: list[_Span] = []
    for sp in sorted(spans, key=lambda s: (-(s.end - s.start), rank[s.kind], s.start)):
        if all(sp.end <= c.start or sp.start >= c.end for c in chosen):
            chosen.append(sp)
    return sorted(chosen, key=lambda s: s.start)


_BRACKETED = re.compile(r"\([^()]*\)")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z'’\-]*|\d+", text.lower())


def _is_verb(w: str) -> bool:
    if "-" in w and not w.startswith("co-"):
        return False  # "Riga-based", "family-owned" describe a name
    return w in _VERBS or (w.endswith("ed") and len(w) > 4 and w not in _NOT_VERBS) or \
        (w.startswith("co-") and _is_verb(w[3:]))


def _canon(verb: str) -> str:
    """One relation name per verb: "co-founded" -> "founded", "written" -> "wrote"."""
    verb = verb[3:] if verb.startswith("co-") else verb
    return _CANON.get(verb, verb)


def _verb_follows(sentence: str, pos: int) -> bool:
    """Whether a verb comes next, maybe after an adverb ("Hobbiton is ...", "Feld also founded")."""
    nxt = _words(sentence[pos:pos + 60])[:3]
    if not nxt or not sentence[pos:].lstrip(" ").startswith(tuple("abcdefghijklmnopqrstuvwxyz")):
        return False
    for i, w in enumerate(nxt[:2]):
        if w in _AUX or _is_verb(w) or (i == 0 and w.endswith("s") and not w.endswith("ss") and len(w) > 3):
            return True
        if w not in _FILLER and not w.endswith("ly"):
            return False
    return False


def class_phrase(words: str) -> str:
    """A class noun phrase without articles, capitalised demonyms or evaluative adjectives:
    "British chemist" -> "chemist", "public university" -> "university"."""
    kept = [w for w in words.split() if w[:1].islower() and w.lower() not in _ADJECTIVES]
    if not kept or kept[-1] in _PREPS or kept[-1] in _FILLER or kept[-1] in _DETS:
        return ""
    return " ".join(kept[-3:]).lower()


def class_names(phrase: str) -> list[str]:
    """Class nodes for a class phrase: itself, its head noun, and "company" for a firm."""
    if not phrase:
        return []
    head = phrase.split()[-1]
    out = [phrase, head]
    if head in _COMPANY_HEADS:
        out.append("company")
    return list(dict.fromkeys(out))


@dataclass
class _Frame:
    """The verb governing the next entities of a clause."""
    verb: str | None = None
    passive: bool = False
    prep: str | None = None
    obj: str | None = None
    """The clause's direct object (a year or place told after it belongs to it)."""
    stative: bool = False
    """"born in", "based in": describes the subject, never reversed."""
    co: bool = False
    """"co-founded X with Y": Y is an agent too."""
    obj_unknown: bool = False
    """The object is an unresolved anaphor: a year after it is not the subject's."""


@dataclass
class _Found:
    entities: dict[str, ExtractedEntity] = field(default_factory=dict)
    relations: dict[tuple[str, str, str], ExtractedRelation] = field(default_factory=dict)
    first_span: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where each entity was first mentioned (the provenance of its "is a person" edge)."""

    def entity(self, label: str, description: str, span: tuple[int, int] = (-1, -1)) -> None:
        if label and label not in self.entities:
            self.entities[label] = ExtractedEntity(label, description)
            self.first_span[label] = span

    def relation(self, src: str | None, rel: str, dst: str | None, desc: str, span: tuple[int, int]) -> None:
        if src and dst and rel and src != dst:
            self.relations.setdefault((src, rel, dst), ExtractedRelation(src, dst, rel, desc, *span))


class OfflineExtractor:
    """Rule-based extraction for prose, records and tables; no model, deterministic.

    Args:
        known_labels: labels of the existing graph; matched first (longest match) so
            documents link to the nodes they mention, even lowercase-insensitive.
    """

    VERSION = "offline-v2"

    def __init__(self, known_labels: Iterable[str] = ()):
        labels = sorted(set(known_labels))
        self._matcher = _LabelMatcher(labels)
        digest = hashlib.sha256("\x00".join(labels).encode()).hexdigest()[:8]
        self.name = f"{self.VERSION}:{digest}"

    def extract(self, chunk: Chunk) -> ChunkExtraction:
        # a chunk that starts mid-page starts in the previous chunk's overlap, often mid-sentence
        # ("Group is ..." of "Halvard Group is ..."); that chunk read the whole sentence
        found = self.extract_text(chunk.text, skip_first=chunk.start > 0)
        return dataclasses.replace(found, chunk_id=chunk.chunk_id, doc_id=chunk.doc_id)

    def extract_text(self, text: str, skip_first: bool = False) -> ChunkExtraction:
        """Entities and relations of a plain text (sentence by sentence, one discourse)."""
        found = _Found()
        disc = Discourse()
        for n, (offset, sentence) in enumerate(split_sentences(text)):
            if skip_first and n == 0:
                continue
            span = (offset, offset + len(sentence))
            if _RECORD.match(sentence) and ";" in sentence and \
                    all(c.count("(") == c.count(")") for c in sentence.split(";")):  # not "X (Latin: Y; Greek: Z) is"
                cells = [c.split(":", 1) for c in sentence.rstrip(".").split(";")]
                row_relations(found, [h.strip() for h, _ in cells], [v.strip() for _, v in cells],
                              sentence, span)
                continue
            if sentence[-1] not in ".!?\"”)'’" and not any(_is_verb(w) or w in _COPULAS for w in _words(sentence)):
                self.heading(sentence, disc, found, n, span)  # a title or table cell: names, no relations
                continue
            _Sentence(self, disc, found, n, sentence, span).run()
        for label, ref in disc.entities.items():
            if ref.person and label in found.entities:
                found.relation(label, IS_A, PERSON, found.entities[label].description, found.first_span[label])
        for r in list(found.relations.values()):
            if r.relation == IS_A:
                found.entity(r.target, "class")
        return ChunkExtraction("", "", tuple(found.entities.values()), tuple(found.relations.values()), self.name)

    def heading(self, line: str, disc: Discourse, found: _Found, n: int, span: tuple[int, int]) -> None:
        """A line without a verb: its names are entities (and antecedents), nothing relates them."""
        for sp in self.mention_spans(line):
            if sp.kind in ("name", "known", "quoted") or (sp.kind == "name-start" and " " in sp.label):
                disc.mention(sp.label, n, False, sp.start)
                found.entity(sp.label, line[:_DESC_CHARS], span)

    def mention_spans(self, sentence: str) -> list[_Span]:
        """Names, known labels, quoted titles and years of one sentence (not yet resolved)."""
        spans = self._matcher.spans(sentence) + _name_spans(sentence)
        spans += [_Span(m.start(1), m.end(1), m.group(1).strip(), "quoted")
                  for m in _QUOTED.finditer(sentence) if m.group(1)[:1].isupper() or m.group(1)[:1].isdigit()]
        spans += [_Span(m.start(), m.end(), m.group(), "year") for m in _YEAR.finditer(sentence)]
        return [sp for sp in _pick(spans) if sp.label and sp.label.lower() not in _STOP_START]


def row_relations(found: _Found, header: Sequence[str], cells: Sequence[str], text: str,
                  span: tuple[int, int]) -> None:
    """One table row or record: the first cell is the row's entity, each header a relation.

    A header that names a class of people ("Founder", "CEO") makes its cells persons; the
    first column's header ("Company") is the row entity's class.
    """
    if not header or not cells or not cells[0].strip():
        return
    key = cells[0].strip()
    found.entity(key, text[:_DESC_CHARS])
    key_class = class_phrase(header[0].strip().lower())
    if key_class and not key_class.isdigit() and key_class not in _GENERIC_HEADERS:
        for cls in class_names(key_class):
            found.relation(key, IS_A, cls, text[:_DESC_CHARS], span)
            found.entity(cls, "class")
    for head, value in zip(header[1:], cells[1:]):
        rel, value = " ".join(head.lower().split()), value.strip()
        if not rel or not value:
            continue
        found.entity(value, text[:_DESC_CHARS])
        if rel in ROLE_NOUNS:  # "Founder: Helena Marsh" is "Helena Marsh founded <row>"
            found.relation(value, ROLE_NOUNS[rel], key, text[:_DESC_CHARS], span)
        elif _YEAR.fullmatch(value) and _is_verb(rel):  # "Founded: 2004"
            found.relation(key, f"year {_canon(rel)}", value, text[:_DESC_CHARS], span)
        else:
            found.relation(key, rel, value, text[:_DESC_CHARS], span)
        if is_person_noun(rel) and name_kind(value) is None:
            found.relation(value, IS_A, PERSON, text[:_DESC_CHARS], span)
            found.entity(PERSON, "class")


def table_extractions(doc_id: str, tables: Sequence[Table], extractor: str) -> list[ChunkExtraction]:
    """One extraction per table row (``<doc_id>:t<table>:r<row>``), header cells = relations."""
    out = []
    for t in tables:
        for r, cells in enumerate(t.rows):
            found = _Found()
            text = "; ".join(f"{h}: {c}" for h, c in zip(t.header, cells) if c.strip())
            row_relations(found, t.header, cells, text, (0, len(text)))
            if found.relations:
                out.append(ChunkExtraction(f"{doc_id}:t{t.index}:r{r}", doc_id, tuple(found.entities.values()),
                                           tuple(found.relations.values()), extractor))
    return out


class _Sentence:
    """One sentence: mentions -> resolved entities -> classes and relations."""

    def __init__(self, ex: OfflineExtractor, disc: Discourse, found: _Found, n: int, sentence: str,
                 span: tuple[int, int]):
        self.ex, self.disc, self.found, self.n, self.s, self.span = ex, disc, found, n, sentence, span
        self.desc = sentence[:_DESC_CHARS]

    def rel(self, src: str | None, rel: str, dst: str | None) -> None:
        self.found.relation(src, rel, dst, self.desc, self.span)

    # ---- mentions ---------------------------------------------------------------------------
    def mentions(self) -> list[_Span]:
        s = self.s
        spans = []
        for sp in self.ex.mention_spans(s):
            if sp.kind in ("name", "name-start") and " " not in sp.label:
                if self.disc.is_alias(sp.label):  # a lone surname: who, if anyone unambiguous
                    sp = dataclasses.replace(sp, label=self.disc.resolve_alias(sp.label), kind="name")
                elif sp.kind == "name-start" and not _verb_follows(s, sp.end):
                    continue  # a capitalised first word is usually just a sentence start
            spans.append(sp)
        taken = [(sp.start, sp.end) for sp in spans]

        def free(a: int, b: int) -> bool:
            return all(b <= x or a >= y for x, y in taken)

        for m in _DETERMINED.finditer(s):
            end, noun = m.end(), m.group(3)
            # "his company" is a company; "its founder" is no description but a role (possessives)
            known = (_DESCRIPTION_NOUNS | self.disc.nouns()) - (set(ROLE_NOUNS) if m.group(1).lower() not in (
                "the", "this") else set())

            def describes(w: str | None) -> bool:  # "the shop" for a bookshop
                return bool(w) and (w in known or len(w) > 3 and any(k.endswith(w) for k in known))

            if not describes(noun) and describes(m.group(2)):
                end, noun = m.end(2), m.group(2)  # "the firm was", "the university in"
            if not describes(noun) or not free(m.start(), end) or \
                    re.match(r"\s+(?:[A-Z0-9\"“]|of\b)", s[end:]):
                continue  # "the shipping firm Baltic Wren" types a name; "the capital of" relates
            possessive = m.group(1).lower() not in ("the", "this")
            spans.append(_Span(m.start(), end, f"{m.group(1).lower()} {noun}" if possessive else noun,
                               "possessed" if possessive else "description"))
            taken.append((m.start(), end))
        for m in re.finditer(r"\b\w+\b", s):
            if m.group().lower() in PRONOUNS and free(m.start(), m.end()):
                spans.append(_Span(m.start(), m.end(), m.group().lower(), "pronoun"))
        return sorted(spans, key=lambda sp: sp.start)

    def resolve(self, spans: list[_Span]) -> list[_Span]:
        """Each mention -> its entity, left to right, so a pronoun sees earlier mentions."""
        out = []
        subject_seen = False
        for sp in spans:
            label = sp.label
            if sp.kind == "pronoun":
                label = self.disc.resolve_pronoun(sp.label, self.n, sp.start)
            elif sp.kind == "description":
                label = self.disc.resolve_description(sp.label, self.n, sp.start)
            elif sp.kind == "possessed":  # "his company": what he founded or bought
                det, noun = sp.label.split()
                owner = self.disc.resolve_pronoun(det, self.n, sp.start)
                label = self.disc.resolve_possessed(owner, noun, self.n, sp.start) if owner else None
            is_subject = not subject_seen and sp.kind != "year"
            subject_seen = subject_seen or is_subject
            if label is not None:
                self.disc.mention(label, self.n, is_subject, sp.start)
                if sp.kind not in _ANAPHORS:
                    self.found.entity(label, "year" if sp.kind == "year" else self.desc, self.span)
                self._cues(label, sp)
            out.append(dataclasses.replace(sp, label=label))
        return out

    def _cues(self, label: str, sp: _Span) -> None:
        """What the words around a mention say it is, before the next pronoun is resolved:
        "born in X" is a place, "X was born" or "X studied" a person."""
        if _PLACE_BEFORE.search(self.s[:sp.start]):
            self.disc.mark_place(label)
        elif _PERSON_AFTER.match(self.s[sp.end:]):
            self.disc.mark_person(label)

    # ---- classes ----------------------------------------------------------------------------
    def classes(self, spans: list[_Span]) -> None:
        for sp in spans:
            if sp.label is None or sp.kind == "year":
                continue
            after, before = self.s[sp.end:], self.s[:sp.start]
            m = _COPULA_CLASS.match(after) or _APPOSITION_CLASS.match(after)
            phrases = [m.group(1)] if m else []
            if sp.kind in ("name", "known") and sp.label.split()[-1].lower() in NAME_CLASSES:
                phrases.append(sp.label.split()[-1].lower())  # "Nordvik Bank" is a bank
            p = _PREFIX_CLASS.search(before) if sp.kind not in _ANAPHORS else None
            if p and not (set(p.group(1).split()) & (_PREPS | _DETS | _FILLER | _COPULAS)):
                phrases.append(p.group(1))
            for phrase in phrases:
                for cls in class_names(class_phrase(phrase)):
                    self.rel(sp.label, IS_A, cls)
                    self.disc.add_class(sp.label, cls)

    # ---- relations --------------------------------------------------------------------------
    def run(self) -> None:
        """Left to right: the first entity is the subject; each later one relates to the
        clause's subject(s) through the words since the previous one (an apposition or
        relative clause relates to the entity it follows); a new subject opens a clause."""
        spans = self.resolve(self.mentions())
        self.classes(spans)
        items = self.possessives(spans)
        subject_at = next((i for i, sp in enumerate(items) if sp.kind != "year"), None)
        if subject_at is None:
            return
        lead = _words(re.split(r"[,;]", self.s[:items[subject_at].start])[-1])
        if any(_is_verb(w) or w in _COPULAS for w in lead):
            items[subject_at] = dataclasses.replace(items[subject_at], label=None)  # an object: "Visitors reach X"
        self.modifier(items, subject_at)
        subjects = first_subjects = [items[subject_at].label]
        pending_years = [sp for sp in items[:subject_at] if sp.kind == "year"]
        frame = _Frame()
        first_frame: _Frame | None = None
        prev = items[subject_at]
        appos: str | None = None  # head of an open apposition or relative clause
        rel_frame, appositive = _Frame(), False
        for k in range(subject_at + 1, len(items)):
            sp = items[k]
            between = _BRACKETED.sub(" ", self.s[prev.end:sp.start])  # "A (bass), B": an aside, no relation
            typed = _PREFIX_CLASS.search(between) if sp.kind in ("name", "known", "quoted") else None
            if typed and not set(typed.group(1).split()) & (_PREPS | _DETS | _FILLER | _COPULAS):
                between = between[:typed.start()] + " "  # "with the artist Ai Weiwei": the type is no relation
            words = _words(between)
            if sp.kind != "year" and k == subject_at + 1 and words == ["and"] and \
                    _verb_follows(self.s, sp.end):
                subjects.append(sp.label)  # "Feld and Ortiz both teach at ..."
                self._mark_subject(sp)
                prev = sp
                continue
            opens_clause = (re.search(r"[,;]\s*(?:\w+\s+)?$", between) or (words and words[-1] in _CLAUSE_OPENERS)) \
                and sp.kind != "year" and _verb_follows(self.s, sp.end)
            if opens_clause or sp.kind == "pronoun" and words and words[-1] in _CLAUSE_OPENERS:
                subjects, frame, appos = [sp.label], _Frame(), None  # "..., and he studied law at"
                self._mark_subject(sp)
                prev = sp
                continue
            if appos is not None and "," in between:
                appos = None
            whose = re.match(r"^\s*,\s*whose\s+((?:[a-z][\w-]*\s+){1,3})(?:is|was)\s+$", between)
            if whose and prev.label and sp.label:  # "Nordvik Bank, whose chief executive is Elin Sandberg, ..."
                self.rel(sp.label, f"{whose.group(1).strip()} of", prev.label)
                self._person_role(sp.label, whose.group(1).strip())
                appos, prev = prev.label, sp
                continue
            if appos is None and prev is not items[subject_at] and prev.label is not None:
                m = re.match(r"^\s*,\s*(?:(?:a|an|the)\s+|(which|who|that)\b|(?=\w+ing\b))", between)
                if m:  # an apposition, relative or participle clause: its own frame, about ``prev``
                    appos, rel_frame = prev.label, _Frame()
                    appositive = not m.group(1) and not re.match(r"^\s*,\s*\w+ing\b", between)
                    words = _words(between[m.end():])
            if appos is not None:
                rel_frame = self.edge([appos], rel_frame, words, sp, appositive)
            else:
                if sp.kind == "year" and not frame.verb and not _analysis_has_verb(words):
                    pending_years.append(sp)
                else:
                    frame = self.edge(subjects, frame, words, sp)
                    if frame.verb and first_frame is None:
                        first_frame = frame
            prev = sp
        for y in pending_years:  # "In 2019 the company was acquired by ...": the first clause's year
            self.year(first_subjects, first_frame or frame, y.label)

    def modifier(self, items: list[_Span], subject_at: int) -> None:
        """ "Riga-based Ambra Pay", "Vilnius start-up Lino Ledger": a place before a company
        noun and a name is where the named company is, and the name is the subject."""
        sp = items[subject_at]
        m = re.match(r"\s*([A-Z][\w'’]+)-based\s+$", self.s[:sp.start])
        if m and sp.label:
            self.rel(sp.label, "based in", m.group(1))
            self.found.entity(m.group(1), self.desc, self.span)
            return
        nxt = items[subject_at + 1] if subject_at + 1 < len(items) else None
        noun = re.fullmatch(r"\s+([a-z][\w-]*)\s+", self.s[sp.end:nxt.start]) if nxt and nxt.kind != "year" else None
        if noun and sp.label and nxt.label and noun.group(1) in _DESCRIPTION_NOUNS | _COMPANY_HEADS:
            for cls in class_names(noun.group(1)):
                self.rel(nxt.label, IS_A, cls)
                self.disc.add_class(nxt.label, cls)
            self.rel(nxt.label, "based in", sp.label)
            self.disc.mark_place(sp.label)
            del items[subject_at]

    def _mark_subject(self, sp: _Span) -> None:
        if sp.label is not None:
            self.disc.mention(sp.label, self.n, True, sp.start)

    def possessives(self, spans: list[_Span]) -> list[_Span]:
        """"Its chief executive is X" / "Her brother X" / "X is its chief financial officer":
        X -[<noun> of]-> the possessor; the possessive itself is then no mention of its own."""
        out = list(spans)
        for i, sp in enumerate(spans):
            if sp.kind != "pronoun" or sp.label is None or self.s[sp.start:sp.end].lower() not in (
                    "its", "his", "her", "their"):
                continue
            nxt = spans[i + 1] if i + 1 < len(spans) else None
            m = re.match(r"\s+((?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*)(\s+(?:is|was|are|were)\s+|\s*,\s*|\s+)$",
                         self.s[sp.end:nxt.start] if nxt else "")
            role = [w for w in m.group(1).split() if w not in _COPULAS] if m else []
            if nxt is not None and nxt.label and role and not set(role) & (_PREPS | _DETS):
                if role[-1] in ROLE_NOUNS:  # "Its founder, Greta Moser, ...": Greta Moser founded it
                    self.rel(nxt.label, ROLE_NOUNS[role[-1]], sp.label)
                else:
                    self.rel(nxt.label, f"{' '.join(role)} of", sp.label)
                self._person_role(nxt.label, role[-1])
                out.remove(sp)
                continue
            prv = spans[i - 1] if i else None
            m = re.match(r"\s+((?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*)\s*(?:[.,;]|$)", self.s[sp.end:])
            if prv is not None and prv.label and m and re.fullmatch(r"\s+(?:is|was|became|remains)\s+",
                                                                      self.s[prv.end:sp.start]):
                self.rel(prv.label, f"{m.group(1)} of", sp.label)
                self._person_role(prv.label, m.group(1))
                out.remove(sp)
            elif re.match(r"\s+[a-z]", self.s[sp.end:]):  # "Her notes were published", "sold her stake":
                out[out.index(sp)] = dataclasses.replace(sp, label=None)  # a thing of hers, not her
        return out

    def _person_role(self, label: str, role: str) -> None:
        if is_person_noun(role):
            self.disc.mark_person(label)

    def edge(self, subjects: list[str | None], frame: _Frame, words: list[str], sp: _Span,
             appositive: bool = False) -> _Frame:
        """The relation(s) from the clause's subject(s) to ``sp``; returns the updated frame."""
        while words and words[-1] in _DETS:
            words = words[:-1]
        words = _phrasal(words)
        verb_at = next((i for i in range(len(words) - 1, -1, -1) if _is_verb(words[i])), None)
        prep = words[-1] if words and words[-1] in _PREPS else None
        if verb_at is not None:
            v = words[verb_at]
            aux = [w for w in words[max(0, verb_at - 3):verb_at] if w not in _FILLER and not w.endswith("ly")]
            passive = bool(aux) and aux[-1] in _COPULAS and (v.endswith("ed") or v in _PARTICIPLES)
            middle = [w for w in words[verb_at + 1:-1 if prep else None] if w not in _DETS and w not in _FILLER]
            name = _canon(v)
            if prep == "of" and middle:
                name = " ".join([name] + middle[:_MAX_RELATION_WORDS - 2])
            frame = _Frame(name, passive and v not in _STATIVE, prep, None, v in _STATIVE, v.startswith("co-"))
        if frame.passive and "by" in words[verb_at or 0:] and any(
                w not in _DETS and w not in _PREPS and w not in _FILLER and not w.isdigit()
                for w in words[words.index("by", verb_at or 0) + 1:]):
            # "set up by two researchers from X, A and B": the agents are named after the
            # noun phrase; X is where the researchers are from, not the company's
            return dataclasses.replace(frame, prep="by")
        if verb_at is None and frame.verb is not None and (
                frame.obj_unknown or all(w in _PREPS or w in _FILLER or w in _DETS for w in words)):
            # "by A and B", "in 2011 by A", "sold her stake to A" (the words name the unknown object)
            frame = dataclasses.replace(frame, prep=prep or frame.prep)
        elif verb_at is None:
            content = [w for w in words if w not in _DETS and w not in _FILLER and w not in PRONOUNS]
            cop = next((i for i in range(len(words) - 1, -1, -1) if words[i] in _COPULAS), None)
            if cop is not None:
                content = [w for w in words[cop + 1:] if w not in _FILLER and w not in PRONOUNS]
            if content and content[0] in ("a", "an") or appositive:
                content = [w for w in content if w not in _DETS]
                if prep in ("in", "near", "at") and sp.kind != "year" and not is_person_noun(" ".join(content[:-1])):
                    name = f"located {prep}"  # "a palace in Santo Domingo", not "a trader at Citadel"
                elif prep:
                    name = f"{content[-2] if len(content) > 1 else ''} {prep}".strip()
                else:
                    name = ""
            else:
                content = [w for w in content if w not in _DETS and w not in _ADJECTIVES]
                name = " ".join(content[:_MAX_RELATION_WORDS])
            if not name:
                return frame
            if sp.kind == "year":
                name = "year"
            for s in subjects:
                self.rel(s, name, sp.label)
                if name.startswith("located") and sp.label:
                    self.disc.mark_place(sp.label)
            # "a film set near Matamata in New Zealand": the next place is located too
            return _Frame("located", False, prep, None, stative=True) if name.startswith("located") else \
                _Frame(None, False, prep, None)
        self._relate(subjects, frame, sp)
        return frame

    def _relate(self, subjects: list[str | None], frame: _Frame, sp: _Span) -> None:
        verb, prep, target = frame.verb, frame.prep, sp.label
        if sp.kind == "year":
            self.year(subjects, frame, target)
            return
        if verb in _REPORTING:
            return
        for s in subjects:
            if s is not None and verb in PERSON_VERBS:
                self.disc.mark_person(s)
            if (verb, prep) in _CONVERSE:  # "X was sold to Y", "Z sold X to Y": Y acquired X
                self.rel(target, _CONVERSE[verb, prep], s if frame.passive else frame.obj)
                if target:  # Y is "the buyer"
                    self.disc.event(_CONVERSE[verb, prep], target, s if frame.passive else frame.obj)
                frame.verb = _CONVERSE[verb, prep]  # and "in 2015" is then the year acquired
            elif frame.passive and prep == "by":
                self.rel(target, verb, s)  # "X was acquired by Y" is "Y acquired X"
                if target:
                    self.disc.event(verb, target, s)
            elif prep == "with" and frame.co and frame.obj:
                self.rel(target, verb, frame.obj)  # "co-founded X with Y": Y founded X too
                if target:
                    self.disc.event(verb, target, frame.obj)
            elif prep is None:
                self.rel(s, verb, target)  # direct object
                frame.obj_unknown = frame.obj_unknown or target is None
                if target and not frame.passive:
                    frame.obj = frame.obj or target
                    if s:
                        self.disc.event(verb, s, target)
            elif frame.obj and prep in ("in", "at") and not frame.stative:
                self.rel(frame.obj, f"{verb} {prep}", target)  # "staged Turandot in the Forbidden City"
            else:
                self.rel(s, f"{verb} {prep}", target)
                if target and prep in ("in", "near", "from") and frame.stative:
                    self.disc.mark_place(target)

    def year(self, subjects: list[str | None], frame: _Frame, year: str | None) -> None:
        """A year is its own edge, from what the event happened to: "X was acquired in 2019"
        and "Y acquired X in 2019" both give X -[year acquired]-> 2019."""
        if frame.verb is None or (frame.obj_unknown and not frame.obj and not frame.passive):
            return  # "Keith founded the press in 1994" with "the press" unresolved: not Keith's year
        holder = frame.obj if frame.obj and not frame.passive and frame.verb.split()[0] in _CREATED else None
        for s in ([holder] if holder else subjects):
            self.rel(s, f"year {frame.verb.split()[0]}", year)


_PHRASAL = {("set", "up"): "founded", ("took", "over"): "acquired", ("taken", "over"): "acquired",
            ("takes", "over"): "acquired", ("bought", "out"): "acquired", ("spun", "off"): "founded"}


def _phrasal(words: list[str]) -> list[str]:
    """Two-word verbs as their one-word relation: "set up" -> "founded"."""
    out: list[str] = []
    for w in words:
        if out and (out[-1], w) in _PHRASAL:
            out[-1] = _PHRASAL[out[-1], w]
        else:
            out.append(w)
    return out


def _analysis_has_verb(words: list[str]) -> bool:
    return any(_is_verb(w) for w in _phrasal(words))
