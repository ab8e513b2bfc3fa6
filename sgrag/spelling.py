"""Typo-tolerant reading of a question: a misspelt word the graph's labels nearly spell is read as that word.

A word is corrected only when the graph's label vocabulary does not hold it, an English dictionary
does not know it (so "received" or "untied" stay as written), and exactly one vocabulary word is
within a small edit distance (one edit up to 7 letters, two from 8). Every correction is kept so
the answer can say what it read ("read 'comedain' as 'comedian'").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from .rules import register
from .textnorm import fold

TYPO_CORRECTION = register("typo_correction", "linking", 'A misspelt word the graph\'s labels nearly spell (one '
                           'edit, two from 8 letters; no English word) is read as that word ("comedain").')

_WORD = re.compile(r"\b[A-Za-z][a-z]{4,}\b")  # a plain (or capitalised) word of five letters or more
_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b")  # "Untied States"


@dataclass(frozen=True)
class Fix:
    """One word of the question read as another: ``question[start:end]`` was ``original``."""
    start: int
    end: int
    original: str
    replacement: str


@lru_cache(maxsize=1)
def _english():
    """The English word list of pyspellchecker (loaded once, on the first unknown word)."""
    from spellchecker import SpellChecker
    return SpellChecker(distance=1)


def is_english_word(word: str) -> bool:
    return bool(_english().known([word.lower()]))


class SpellingCorrector:
    """Corrects question words towards a vocabulary (the folded words of a graph's labels and aliases)."""

    def __init__(self, keys: Iterable[str], stopwords: frozenset[str] = frozenset(), two_edits_from: int = 8):
        """``keys``: the folded labels and aliases; their words are the vocabulary; words of ``two_edits_from``
        letters or more may be two edits off (shorter ones one)."""
        self._two_edits_from = two_edits_from
        self._keys = keys = frozenset(keys)
        counts: dict[str, int] = {}
        for key in keys:
            for w in key.split():
                if w.isascii() and w.isalpha() and len(w) >= 4:
                    counts[w] = counts.get(w, 0) + 1
        self._counts = counts
        self._by_length: dict[int, list[str]] = {}
        for w in counts:
            self._by_length.setdefault(len(w), []).append(w)
        self._stop = stopwords

    def _closest(self, word: str) -> str | None:
        """The one vocabulary word within reach of ``word``; None when none is, or two are equally near."""
        limit = 2 if len(word) >= self._two_edits_from else 1
        near = [w for n in range(len(word) - limit, len(word) + limit + 1) for w in self._by_length.get(n, ())]
        hits = process.extract(word, near, scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=8)
        if not hits:
            return None
        best = min(d for _, d, _ in hits)
        nearest = [w for w, d, _ in hits if d == best]
        return nearest[0] if len(nearest) == 1 else None

    def correct(self, question: str) -> tuple[str, tuple[Fix, ...]]:
        """The question with its misspelt words replaced, and the fixes (offsets in the original question).

        Two readings: a word neither the labels nor English know, read as the one label word it nearly
        spells ("comedain"); and a capitalised name no label spells whose one word, read so, makes it a
        label ("Untied States" -> United States: "untied" is English, the name is not)."""
        fixes = {}
        for m in _WORD.finditer(question):
            low = m.group(0).lower()
            if low in self._counts or low in self._stop or is_english_word(low):
                continue
            near = self._closest(low)
            if near is not None:
                fixes[m.start()] = self._fix(m, near)
        for run in _NAME_RUN.finditer(question):
            words = list(_WORD.finditer(run.group(0)))
            if fold(run.group(0)) in self._keys or any(run.start() + w.start() in fixes for w in words):
                continue
            for w in words:
                if w.group(0).lower() in self._counts:
                    continue  # a word the labels have: the name is new, not misspelt there
                near = self._closest(w.group(0).lower())
                said = run.group(0)
                if near and fold(said[:w.start()] + near + said[w.end():]) in self._keys:
                    fixes[run.start() + w.start()] = Fix(run.start() + w.start(), run.start() + w.end(), w.group(0),
                                                         near.capitalize())
                    break
        if not fixes:
            return question, ()
        parts, at = [], 0
        ordered = tuple(fixes[k] for k in sorted(fixes))
        for f in ordered:
            parts += [question[at:f.start], f.replacement]
            at = f.end
        parts.append(question[at:])
        return "".join(parts), ordered

    @staticmethod
    def _fix(m: re.Match, near: str) -> Fix:
        word = m.group(0)
        return Fix(m.start(), m.end(), word, near.capitalize() if word[0].isupper() else near)


def to_original(fixes: tuple[Fix, ...], start: int, end: int) -> tuple[int, int]:
    """Maps a span of the corrected question back to the original question's offsets."""
    def back(pos: int, is_end: bool) -> int:
        shift = 0
        for f in fixes:
            corrected_start = f.start + shift
            corrected_end = corrected_start + len(f.replacement)
            if pos <= corrected_start:
                break
            if pos < corrected_end:  # inside a corrected word: the whole original word
                return f.end if is_end else f.start
            shift += len(f.replacement) - (f.end - f.start)
        return pos - shift
    return back(start, False), back(end, True)
