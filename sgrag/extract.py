"""ε: chunks of text -> entities and relations -> merged into a KnowledgeGraph with provenance.

Two extractors share one output type (``ChunkExtraction``):

* ``LLMExtractor`` sends the paper's text-to-graph prompt, continues a cut-off answer
  (gleaning) and parses the records; unparseable output falls back to another extractor.
* ``OfflineExtractor`` is rule-based and needs no model: entity spans are known graph labels
  (longest match), capitalised name sequences, quoted titles and years; the relation is the
  verb phrase between the sentence subject and each other entity; "He/She/It/The stadium"
  carry the previous sentence's subject. Example::

      >>> ex = OfflineExtractor().extract_text("Ada Lovelace was an English mathematician "
      ...     "born in London. She worked with Charles Babbage on the Analytical Engine.")
      >>> sorted((r.source, r.relation, r.target) for r in ex.relations)  # doctest: +NORMALIZE_WHITESPACE
      [('Ada Lovelace', 'born in', 'London'), ('Ada Lovelace', 'worked on', 'Analytical Engine'),
       ('Ada Lovelace', 'worked with', 'Charles Babbage')]

Entities merge across chunks by folded label (``merge_into_graph``); every node and edge
records the chunk ids (``<doc_id>:p<page>:c<i>``) that support it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Protocol, Sequence

import numpy as np

from .errors import ParseError
from .fsutil import atomic_write_json, read_json
from .graph import GraphBuilder, KnowledgeGraph
from .io.documents import Chunk
from .llm import ChatClient
from .parse import is_complete, parse_graph_records
from .prompts import PromptSet, continuation_messages, default_prompts, extraction_messages
from .textnorm import fold, fold_with_offsets

DOC_NODE_PREFIX = "doc:"
"""Node id prefix of entities first seen in documents (``doc:`` + folded label)."""
IMPORTED = "imported"
"""Provenance marker added to an imported node/edge when a document first supports it, so
deleting that document can never remove the imported element."""
_DESC_CHARS = 300


@dataclass(frozen=True)
class ExtractedEntity:
    label: str
    description: str = ""


@dataclass(frozen=True)
class ExtractedRelation:
    source: str
    """Label of the source entity."""
    target: str
    relation: str
    description: str = ""


@dataclass(frozen=True)
class ChunkExtraction:
    """What one extractor found in one chunk (labels, not ids: merging assigns ids)."""
    chunk_id: str
    doc_id: str
    entities: tuple[ExtractedEntity, ...]
    relations: tuple[ExtractedRelation, ...]
    extractor: str
    dropped: tuple[tuple[str, str], ...] = ()
    """LLM records that were not usable (line, reason)."""
    complete: bool = True


class Extractor(Protocol):
    name: str
    """Identifies the extractor and its settings; part of the extraction cache key."""

    def extract(self, chunk: Chunk) -> ChunkExtraction: ...


def source_doc_id(source: str) -> str:
    """Document id of a provenance entry (chunk id ``<doc>:p<page>:c<i>`` or a bare doc id)."""
    return source.split(":", 1)[0]


# ---- offline extractor ----------------------------------------------------------------------
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
               "you", "your", "i", "my", "some", "many", "most", "visitors", "construction"}
_PRONOUNS = {"he", "she", "it", "they", "his", "her", "its", "their", "him", "them"}
_SUBJECT_PRONOUNS = {"he", "she", "it", "they", "his", "her", "its", "their"}
_COPULAS = {"is", "was", "are", "were", "be", "been", "being", "became", "becomes", "remains",
            "remained"}
_VERBS = {"born", "died", "won", "wrote", "made", "built", "founded", "married", "hosted",
          "directed", "produced", "starred", "starring", "designed", "located", "lies", "lived",
          "worked", "works", "studied", "taught", "led", "played", "sang", "released", "published",
          "created", "contains", "includes", "houses", "staged", "joined", "became", "owns", "owned",
          "features", "featured", "stars", "directs", "writes", "wins", "plays", "leads", "begun",
          "began", "named", "known", "called", "rebuilt",
          "used", "visited", "attended", "graduated", "competed", "composed", "performed",
          "listed", "acquired", "merged", "opened", "closed", "elected", "appointed", "held"}
_RELATION_NOUNS = {"part", "member", "son", "daughter", "capital", "wife", "husband", "home"}
"""Nouns that head a relation phrase like a verb does ("part of", "son of")."""
_NOT_VERBS = {"united", "red", "bed", "need", "speed", "seed", "feed", "hundred", "sacred", "naked"}
_DETS = {"a", "an", "the", "this", "that", "these", "those", "its", "his", "her", "their", "some"}
_FILLER = {"and", "or", "but", "also", "as", "well", "then", "later", "often", "now", "still",
           "which", "who", "whom", "that", "both", "together", "first", "once", "further"}
_RELATIVE = re.compile(r"^\s*,\s*(?:which|who|that|whose)\b|^\s*,\s*\w+ing\b|^\s*\(")
_APPOSITIVE = re.compile(r"^\s*,\s*(?:the|a|an|its|his|her|their)?\s*((?:[a-z]+\s+){0,2}?[a-z]+)\s+"
                         r"(of|in|for|at|to|by)\s*(?:the)?\s*$")
_DEMONYM = re.compile(r"(?:ish|ese|ian|ean|can|man|ic|ch)$")  # "English", "German" + lowercase noun
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_QUOTED = re.compile(r"[\"“]([^\"”\n]{2,80})[\"”]")
_MAX_RELATION_WORDS = 5


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    label: str
    kind: str  # known | name | quoted | year | pronoun


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


def _name_spans(sentence: str) -> list[_Span]:
    """Capitalised word sequences ("Herzog & de Meuron", "University of Michigan")."""
    toks = list(_TOKEN.finditer(sentence))
    spans: list[_Span] = []
    i = 0
    while i < len(toks):
        tok = toks[i].group()
        numbered = tok[0].isdigit() and i + 1 < len(toks) and toks[i + 1].group()[0].isupper() \
            and sentence[toks[i].end():toks[i + 1].start()] == " "  # "2022 Winter Olympics"
        if not (tok[0].isupper() or numbered):
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
            demonym = single and _DEMONYM.search(first.group()) and follower[:1].islower()
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


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z'’\-]*|\d+", text.lower())


def _verb_follows(sentence: str, pos: int) -> bool:
    """Whether the word after ``pos`` is a verb ("Hobbiton is ...", "Lovelace wrote ...")."""
    nxt = _words(sentence[pos:pos + 40])[:1]
    if not nxt or not sentence[pos:].startswith(" "):
        return False
    w = nxt[0]
    return (w in _COPULAS or w in _VERBS or w in ("has", "had", "have") or
            (w.endswith("ed") and w not in _NOT_VERBS) or (w.endswith("s") and not w.endswith("ss")))


def _relation(between: str) -> tuple[str, str | None]:
    """(relation phrase, verb it is built on) from the text between two entities."""
    words = _words(between)
    verb_at = next((i for i in range(len(words) - 1, -1, -1) if words[i] in _VERBS | _RELATION_NOUNS or (
        words[i].endswith("ed") and len(words[i]) > 4 and words[i] not in _NOT_VERBS)), None)
    if verb_at is not None:
        phrase = [w for w in words[verb_at:] if w not in _DETS and w not in _FILLER]
        return " ".join(phrase[:_MAX_RELATION_WORDS]), words[verb_at]
    cop_at = next((i for i in range(len(words) - 1, -1, -1) if words[i] in _COPULAS), None)
    if cop_at is not None:
        after = [w for w in words[cop_at + 1:] if w not in _DETS and w not in _FILLER]
        before = [w for w in words[:cop_at] if w not in _DETS and w not in _FILLER]
        phrase = after or before or [words[cop_at]]
        return " ".join(phrase[:_MAX_RELATION_WORDS]), None
    rest = [w for w in words if w not in _DETS and w not in _FILLER and w not in _PRONOUNS]
    return " ".join(rest[:_MAX_RELATION_WORDS]), None


class OfflineExtractor:
    """Rule-based extraction for encyclopedic prose; no model, deterministic.

    Args:
        known_labels: labels of the existing graph; matched first (longest match) so
            documents link to the nodes they mention, even lowercase-insensitive.
    """

    VERSION = "offline-v1"

    def __init__(self, known_labels: Iterable[str] = ()):
        labels = sorted(set(known_labels))
        self._matcher = _LabelMatcher(labels)
        digest = hashlib.sha256("\x00".join(labels).encode()).hexdigest()[:8]
        self.name = f"{self.VERSION}:{digest}"

    def extract(self, chunk: Chunk) -> ChunkExtraction:
        found = self.extract_text(chunk.text)
        return dataclasses.replace(found, chunk_id=chunk.chunk_id, doc_id=chunk.doc_id)

    def extract_text(self, text: str) -> ChunkExtraction:
        """Entities and relations of a plain text (sentence by sentence)."""
        entities: dict[str, ExtractedEntity] = {}
        relations: dict[tuple[str, str, str], ExtractedRelation] = {}
        aliases: dict[str, str] = {}
        last_subject: str | None = None
        for _, sentence in split_sentences(text):
            spans = self._entity_spans(sentence, entities, aliases)
            desc = sentence[:_DESC_CHARS]
            for sp in spans:
                if sp.kind != "pronoun" and sp.label not in entities:
                    entities[sp.label] = ExtractedEntity(sp.label, "year" if sp.kind == "year" else desc)
            subject = self._subject(sentence, spans, last_subject)
            if subject is not None:
                last_subject = subject.label
                for src, rel, dst in self._relations(sentence, spans, subject):
                    if src != dst and rel:
                        relations.setdefault((src, rel, dst), ExtractedRelation(src, dst, rel, desc))
        return ChunkExtraction("", "", tuple(entities.values()), tuple(relations.values()), self.name)

    def _entity_spans(self, sentence: str, seen: dict[str, ExtractedEntity],
                      aliases: dict[str, str]) -> list[_Span]:
        spans = self._matcher.spans(sentence) + _name_spans(sentence)
        spans += [_Span(m.start(1), m.end(1), m.group(1).strip(), "quoted")
                  for m in _QUOTED.finditer(sentence) if m.group(1)[:1].isupper() or m.group(1)[:1].isdigit()]
        spans += [_Span(m.start(), m.end(), m.group(), "year") for m in _YEAR.finditer(sentence)]
        out = []
        for sp in _pick(spans):
            if sp.label.lower() in _STOP_START:  # "It", "Her" are graph labels, and pronouns
                continue
            if sp.kind in ("name", "name-start") and " " not in sp.label:
                # a lone surname or first word of an entity named earlier refers to it
                ref = aliases.get(sp.label)
                if ref is not None:
                    sp = dataclasses.replace(sp, label=ref, kind="name")
                elif sp.kind == "name-start" and not _verb_follows(sentence, sp.end):
                    continue  # a capitalised first word is usually just a sentence start
            out.append(sp)
            if sp.kind in ("name", "known", "quoted") and " " in sp.label:
                for part in (sp.label.split()[0], sp.label.split()[-1]):
                    if part[:1].isupper() and part.lower() not in _STOP_START:
                        aliases.setdefault(part, sp.label)
        return out + self._pronoun_spans(sentence, out)

    @staticmethod
    def _pronoun_spans(sentence: str, spans: list[_Span]) -> list[_Span]:
        """Subject pronouns, and a sentence-initial "The <noun>" (e.g. "The stadium")."""
        m = re.match(r"\s*(?:[A-Z]\w*(?:\s+\d+)?\s*,\s*)?(?:(The)\s+([a-z]\w+)|(\w+))\b", sentence)
        if not m:
            return []
        if m.group(1):
            start, end = m.start(1), m.end(2)
        elif m.group(3).lower() in _SUBJECT_PRONOUNS:
            start, end = m.start(3), m.end(3)
        else:
            first = next((w for w in _TOKEN.finditer(sentence) if w.group().lower() in ("he", "she", "they")), None)
            if first is None or (spans and spans[0].start < first.start() and spans[0].kind != "year"):
                return []
            start, end = first.start(), first.end()
        if any(s.start < end and start < s.end for s in spans):
            return []
        return [_Span(start, end, "", "pronoun")]

    @staticmethod
    def _subject(sentence: str, spans: list[_Span], last_subject: str | None) -> _Span | None:
        """The pronoun's antecedent, else the first entity that is not a year."""
        ordered = sorted(spans, key=lambda s: s.start)
        if ordered and ordered[0].kind == "pronoun" and last_subject:
            return dataclasses.replace(ordered[0], label=last_subject)
        return next((sp for sp in ordered if sp.kind not in ("pronoun", "year")), None)

    @staticmethod
    def _relations(sentence: str, spans: list[_Span], subject: _Span) -> list[tuple[str, str, str]]:
        """(source, relation, target) for each entity related to the subject or its neighbour."""
        items = sorted((s for s in spans if s.kind != "pronoun" or s is subject or s.start == subject.start),
                       key=lambda s: s.start)
        out: list[tuple[str, str, str]] = []
        verb: str | None = None
        prev = subject
        for sp in items:
            if sp.start == subject.start or sp.kind == "pronoun":
                continue
            if sp.end <= subject.start:  # e.g. "In 1998 he staged ..."
                phrase = " ".join(w for w in _words(sentence[:sp.start])[-1:] if w not in _DETS)
                out.append((subject.label, phrase or "related to", sp.label))
                continue
            between = sentence[prev.end:sp.start]
            apposition = _APPOSITIVE.match(between)
            if prev is not subject and _RELATIVE.match(between):
                phrase, _ = _relation(between)
                out.append((prev.label, phrase or "related to", sp.label))
            elif prev is not subject and apposition and not (
                    set(apposition.group(1).split()) & (_VERBS | _COPULAS | {"which", "who", "whom", "that"})):
                out.append((prev.label, f"{apposition.group(1)} {apposition.group(2)}", sp.label))
            else:
                phrase, found_verb = _relation(between)
                if found_verb is not None:
                    verb = found_verb
                elif verb is not None:
                    phrase = f"{verb} {phrase}".strip()
                out.append((subject.label, phrase or "related to", sp.label))
            prev = sp
        return out


# ---- LLM extractor --------------------------------------------------------------------------
class LLMExtractor:
    """The paper's text-to-graph prompt with gleaning; unparseable output uses ``fallback``."""

    def __init__(self, llm: ChatClient, prompts: PromptSet | None = None, gleanings: int = 1,
                 fallback: Extractor | None = None):
        self.llm = llm
        self.prompts = prompts or default_prompts()
        self.gleanings = max(0, gleanings)
        self.fallback = fallback
        self.name = f"llm:{llm.model}:{self.prompts.fingerprint}:g{self.gleanings}"

    def extract(self, chunk: Chunk) -> ChunkExtraction:
        text = self.llm.complete(extraction_messages(self.prompts, chunk.text), purpose="extract")
        for _ in range(self.gleanings):
            if is_complete(text):
                break
            more = self.llm.complete(continuation_messages(self.prompts, chunk.text, text),
                                     purpose="extract-gleaning")
            text = f"{text}\n{more}"
        try:
            parsed = parse_graph_records(text)
        except ParseError as exc:
            if self.fallback is None:
                raise
            found = self.fallback.extract(chunk)
            return dataclasses.replace(found, extractor=f"{self.name}->{found.extractor}",
                                       dropped=((exc.line, str(exc)),))
        label = {n.id: n.label for n in parsed.nodes}
        return ChunkExtraction(
            chunk.chunk_id, chunk.doc_id,
            tuple(ExtractedEntity(n.label, n.description) for n in parsed.nodes),
            tuple(ExtractedRelation(label[e.src], label[e.dst], e.relation, e.description)
                  for e in parsed.edges),
            self.name, parsed.dropped, parsed.complete)


# ---- extraction cache and driver -----------------------------------------------------------
class ExtractionCache:
    """Chunk extractions on disk keyed by (chunk text hash, extractor name)."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def _path(self, chunk: Chunk, extractor: str) -> Path:
        key = hashlib.sha256(f"{extractor}\x00{chunk.hash}".encode()).hexdigest()
        return self.directory / key[:2] / f"{key}.json"

    def get(self, chunk: Chunk, extractor: str) -> ChunkExtraction | None:
        try:
            data = read_json(self._path(chunk, extractor))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        try:
            return extraction_from_json(data, chunk_id=chunk.chunk_id, doc_id=chunk.doc_id)
        except (KeyError, TypeError, ValueError):
            return None  # damaged entry: extract again

    def put(self, chunk: Chunk, extractor: str, found: ChunkExtraction) -> None:
        atomic_write_json(self._path(chunk, extractor), extraction_to_json(found))


def extraction_to_json(found: ChunkExtraction) -> dict:
    return dataclasses.asdict(found)


def extraction_from_json(data: dict, **override: str) -> ChunkExtraction:
    data = {**data, **override}
    return ChunkExtraction(
        data["chunk_id"], data["doc_id"],
        tuple(ExtractedEntity(**e) for e in data["entities"]),
        tuple(ExtractedRelation(**r) for r in data["relations"]),
        data["extractor"], tuple(tuple(d) for d in data.get("dropped", ())),
        bool(data.get("complete", True)))


def extract_chunks(chunks: Sequence[Chunk], extractor: Extractor, cache: ExtractionCache | None = None,
                   workers: int = 1,
                   on_done: Callable[[int, ChunkExtraction, bool], None] | None = None) -> list[ChunkExtraction]:
    """Extract every chunk (cached ones reused), in order; ``on_done(i, result, cached)``
    runs in the calling thread after each chunk and may raise to stop early."""
    results: list[ChunkExtraction | None] = [None] * len(chunks)
    todo: list[int] = []
    for i, chunk in enumerate(chunks):
        hit = cache.get(chunk, extractor.name) if cache else None
        if hit is None:
            todo.append(i)
        else:
            results[i] = hit
            if on_done:
                on_done(i, hit, True)

    def run(i: int) -> ChunkExtraction:
        found = extractor.extract(chunks[i])
        if cache:
            cache.put(chunks[i], extractor.name, found)
        return found

    if workers <= 1:
        for i in todo:
            results[i] = run(i)
            if on_done:
                on_done(i, results[i], False)
    else:
        pool = ThreadPoolExecutor(max_workers=workers)
        try:
            futures = {pool.submit(run, i): i for i in todo}
            for fut in as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                if on_done:
                    on_done(i, results[i], False)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return [r for r in results if r is not None]


# ---- merging into the graph ----------------------------------------------------------------
@dataclass(frozen=True)
class MergeResult:
    graph: KnowledgeGraph
    nodes_added: int
    edges_added: int
    node_of_label: dict[str, str]
    """Folded entity label -> graph node id it was merged into."""


def _embedding_aliases(new: dict[str, str], existing: dict[str, str], embedder,
                       threshold: float, max_existing: int = 200_000) -> dict[str, str]:
    """Folded new label -> folded label (existing or earlier new) with cosine >= threshold."""
    keys_old = list(existing) if len(existing) <= max_existing else []
    keys_new = list(new)
    if not keys_new:
        return {}
    vec_new = np.asarray(embedder.embed([new[k] for k in keys_new]), dtype=np.float32)
    vec_old = (np.asarray(embedder.embed([existing[k] for k in keys_old]), dtype=np.float32)
               if keys_old else np.zeros((0, vec_new.shape[1]), np.float32))
    alias: dict[str, str] = {}
    canon_rows: list[int] = []
    for r, key in enumerate(keys_new):
        best_key, best = None, threshold
        if len(keys_old):
            sims = vec_old @ vec_new[r]
            j = int(np.argmax(sims))
            if sims[j] >= best:
                best_key, best = keys_old[j], float(sims[j])
        for c in canon_rows:
            s = float(vec_new[c] @ vec_new[r])
            if s >= best:
                best_key, best = keys_new[c], s
        if best_key is None:
            canon_rows.append(r)
        else:
            alias[key] = best_key
    return alias


def merge_into_graph(base: KnowledgeGraph | None, extractions: Iterable[ChunkExtraction], *,
                     embedder=None, threshold: float = 0.0) -> MergeResult:
    """Add extracted entities/relations to ``base`` (which is not modified).

    An entity joins the node whose folded label equals its own (an imported node if one
    exists, so documents extend an imported KG), else node ``doc:<folded label>``. Merging
    is idempotent: re-merging the same extraction changes nothing.
    """
    extractions = list(extractions)
    b = GraphBuilder.from_graph(base) if base is not None else GraphBuilder()
    existing: dict[str, str] = {}
    if base is not None:
        degree = base.degree
        for key, nodes in base.nodes_by_folded_label.items():
            existing[key] = base.node_ids[max(nodes, key=lambda v: degree[v])]
    labels: dict[str, str] = {}
    for ex in extractions:
        for ent in ex.entities:
            labels.setdefault(fold(ent.label), ent.label)
        for rel in ex.relations:
            labels.setdefault(fold(rel.source), rel.source)
            labels.setdefault(fold(rel.target), rel.target)
    labels.pop("", None)
    alias: dict[str, str] = {}
    if embedder is not None and threshold > 0:
        new = {k: v for k, v in labels.items() if k not in existing}
        old = {fold(base.labels[base.index_of[nid]]): base.labels[base.index_of[nid]]
               for nid in existing.values()} if base is not None else {}
        alias = _embedding_aliases(new, old, embedder, threshold)
    node_of: dict[str, str] = {}
    for key in labels:
        canon = alias.get(key, key)
        node_of[key] = existing.get(canon, DOC_NODE_PREFIX + canon)

    def label_of(key: str) -> str:  # a merged alias takes its canonical entity's label
        return labels.get(alias.get(key, key), labels[key])

    for ex in extractions:
        src = (ex.chunk_id,)
        for ent in ex.entities:
            key = fold(ent.label)
            if key:
                b.add_node(node_of[key], label_of(key), ent.description, src)
        for rel in ex.relations:
            s, t = fold(rel.source), fold(rel.target)
            if s and t and node_of[s] != node_of[t]:
                b.add_node(node_of[s], label_of(s), sources=src)
                b.add_node(node_of[t], label_of(t), sources=src)
                b.add_edge(node_of[s], node_of[t], rel.relation, rel.description, src)
    graph = b.build()
    if base is not None:
        _mark_imported(base, graph)
    n0, m0 = (base.num_nodes, base.num_edges) if base is not None else (0, 0)
    return MergeResult(graph, graph.num_nodes - n0, graph.num_edges - m0, node_of)


def _mark_imported(base: KnowledgeGraph, graph: KnowledgeGraph) -> None:
    """Put IMPORTED first in the provenance of imported elements a document now supports."""
    bare_nodes = {nid for i, nid in enumerate(base.node_ids) if not base.node_sources.get(i)}
    for i, nid in enumerate(graph.node_ids):
        srcs = graph.node_sources.get(i)
        if srcs and nid in bare_nodes and IMPORTED not in srcs:
            srcs.insert(0, IMPORTED)
    bare_edges = {base.edge_tuple(e)[:3] for e in range(base.num_edges) if not base.edge_sources.get(e)}
    for e in range(graph.num_edges):
        srcs = graph.edge_sources.get(e)
        if srcs and graph.edge_tuple(e)[:3] in bare_edges and IMPORTED not in srcs:
            srcs.insert(0, IMPORTED)

