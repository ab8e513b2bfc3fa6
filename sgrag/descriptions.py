"""Which words of a question describe a thing it names only by its class ("the 1961 Italian comedy film *in which
Mastroianni plays Cefalù*"), so the names among them constrain that thing, not the answer.

"Who directed the 1961 comedy film produced by Franco Cristaldi?" asks for the director of a film; Cristaldi and
1961 are the film's, two hops from the answer. A star query graph would ask for a director joined to Cristaldi.
The description's extent is the class noun's subtree in the dependency parse (spaCy's, the one the document
extractor uses), so a relative or participial clause and the words before the noun belong to it and the main
verb's own words do not ("In which league does *the club founded in 1938* play?").
"""
from __future__ import annotations

from functools import lru_cache

from .errors import SgragError


@lru_cache(maxsize=256)
def _parse(question: str):
    from .nlp import english
    return english()(question)


def description_span(question: str, start: int, end: int) -> tuple[int, int] | None:
    """The character span of the noun phrase whose head is the word ending at ``end`` (a class word the question
    makes definite), its modifiers and clauses included; None when the parser is not installed or the words at
    ``start:end`` head nothing."""
    try:
        doc = _parse(question)
    except SgragError:  # a workspace read by an LLM extractor may run without spaCy: no descriptions then
        return None
    head = next((t for t in doc if t.idx < end <= t.idx + len(t.text)), None)
    if head is None or head.idx + len(head.text) != end or head.pos_ not in ("NOUN", "PROPN"):
        return None
    left_out = {x.i for c in head.children if _not_description(head, c) for x in c.subtree}
    tokens = [t for t in head.subtree if t.i not in left_out]
    first, last = tokens[0], tokens[-1]
    return min(first.idx, start), last.idx + len(last.text)


def _not_description(head, child) -> bool:
    """A clause on the class noun that is no description of it: a participle after a copula's subject, which the
    small parser reads as one but is the question's own passive verb ("In which year was the warship *raised from
    Stockholm*?", "... was the composer *born in December 1865*?"); and "that became Mazda", which names the thing
    itself under a later name, so the name is the answer's condition as much as the thing's."""
    if child.dep_ == "acl" and child.tag_ == "VBN" and head.dep_ in ("nsubj", "nsubjpass", "attr") and \
            head.sent.root.lemma_ == "be":
        return True
    return child.dep_ in ("relcl", "acl") and child.lemma_ in ("become", "rename")
