"""Where the question states each constraint's relation: the words before and after its mention.

One notion of "the words that state a relation", read by the query graph (its relation phrases, shown in
the app), the ranker's relation evidence and the exact-set narrowing rules.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from .linking import IRREGULAR_VERBS, STOPWORDS, answer_type_span
from .rules import ALL_ON, RuleSwitches, register
from .types import Mention, QueryGraph, QueryNode

WEAK_WORD_STATES = register("weak_word_states", "linking", 'A weakly linked common word, or a class word right before '
                            '"of" or "to", is part of the next constraint\'s stated relation ("features *music by* '
                            'David Newman", "the *sequel to* Shadowmancer").')
COORDINATION_CARRIES = register("coordination_carries", "linking", 'A coordination carries the stated relation over '
                                '("produced by A *and* B": B is produced by too).')


def relation_phrases(question: str, mentions: list[Mention], a_end: int, rules: RuleSwitches = ALL_ON) -> list[str]:
    """Each mention's relation phrase (in order of position): the words that state how it is related
    (``stated_words``), before and after it. "features Mary-Louise Parker as a regular cast member"
    gives "features as a regular cast member"."""
    ordered = sorted(mentions, key=lambda m: m.start)
    return [" ".join(re.findall(r"[\w'’-]+", before) + [after]).strip()
            for before, after in _stated(question, [(m, m.chosen.score) for m in ordered], a_end, rules)]


def stated_words(qg: QueryGraph, rules: RuleSwitches = ALL_ON) -> dict[str, tuple[str, str]]:
    """Per constraint, (text before it, words after it) that state its relation (``_stated``); the words of a name
    the graph lacks ("made *De groote boulevards*") name a thing, not a relation (where no constraint lies in them:
    the pieces of "Crouching Tiger, Hidden Dragon" keep their places)."""
    ordered = sorted((n for n in qg.constraints if n.mention is not None), key=lambda n: n.mention.start)
    question = qg.question
    for name in qg.unlinked:  # each word a mark, so the count of words after a constraint stays as written
        for at in [k.start() for k in re.finditer(re.escape(name), question)]:
            if not any(at < n.mention.end and n.mention.start < at + len(name) for n in ordered):
                question = marked(question, [(at, at + len(name))])
    question = marked(question, [(d.start, d.end) for n in qg.constraints for d in n.described_by])
    stated = _stated(question, [(n.mention, n.confidence) for n in ordered], answer_type_span(qg.question)[2], rules)
    return {n.qid: s for n, s in zip(ordered, stated)}


def marked(question: str, spans: list[tuple[int, int]]) -> str:
    """``question`` with each character of the words in ``spans`` a mark, the spaces kept: names that state no
    relation (a name the graph lacks, a name describing a thing: ``QueryNode.described_by``), whose words still count
    where they stand."""
    for start, end in spans:
        question = question[:start] + re.sub(r"\S", "·", question[start:end]) + question[end:]
    return question


def _stated(question: str, ordered: list[tuple[Mention, float]], a_end: int,
            rules: RuleSwitches = ALL_ON) -> list[tuple[str, str]]:
    """Where English states each mention's relation: the text between it and the mention (or answer type,
    ending at ``a_end``) before it ("... was *released in* Canada"), and the first words after it up to
    the clause's end ("Beverly Hills, *where he died*"). A weakly linked common word is part of that text
    ("features *music by* David Newman"); a coordination carries it over ("produced by A *and* B").
    ``ordered``: (mention, linking confidence) by position."""
    lo = prev_end = a_end
    out = []
    before = ""
    fronted = _FRONTED.match(question)  # "*In* which city is Celtic Park?" asks what "Celtic Park is in"
    for i, (m, confidence) in enumerate(ordered):
        hi = ordered[i + 1][0].start if i + 1 < len(ordered) else len(question)
        if not (i and m.start >= prev_end and _CONJOINED.fullmatch(question[prev_end:m.start])
                and rules.on(COORDINATION_CARRIES)):
            before = _CLAUSE_END.split(question[lo:m.start])[-1] if m.start >= lo else ""
            before = _DESIGNATION.sub(" ", before)  # "flows through *the town of* Nan": Nan, not a relation
            before = _titled_after_auxiliary(before)  # "did *the poet* John Clare marry": the verb comes after
        # a name inside the answer type ("Which *SpaceX* launch vehicle") is followed by the type's noun, no relation
        after = [] if m.end < a_end else _CLAUSE_END.split(question[m.end:hi], 1)[0].split()[:STATED_AFTER]
        if fronted and m.start >= a_end and not any(x.start >= a_end for x, _ in ordered[:i]):  # the first name
            after = [w for w in after if w.lower() != fronted.group(1).lower()] + [fronted.group(1).lower()]
        out.append((before, " ".join(after)))
        prev_end = max(prev_end, m.end)
        relational = _RELATIONAL.match(question, m.end) is not None and i + 1 < len(ordered)
        if not (m.text.islower() and (confidence <= WEAK_WORD or relational) and rules.on(WEAK_WORD_STATES)):
            lo = max(lo, m.end)
    return out


_PLACE_WORDS = frozenset("""town city village port island province county state region district municipality kingdom
republic""".split())
"""What a place is called before its name ("the town of Nan", "the city of Kherson"): the place itself."""
_DESIGNATION = re.compile(r"\b(?:the\s+)?(?:" + "|".join(sorted(_PLACE_WORDS | {"commune", "borough", "parish"})) +
                         r")\s+of\s*$", re.IGNORECASE)
"""A place's designation at the end of the words before its name: no relation ("flows through *the town of* Nan")."""
_TITLE_AFTER_AUX = re.compile(r"\b((?:did|does|do|was|is|were|are|will|would|can|could|has|had|have)\s+)"
                              r"(?:the|an?|his|her|its|their)\s+((?:[^\W\d][\w-]*\s+){1,3})$")


def _titled_after_auxiliary(before: str) -> str:
    """The words before a name without the title between an auxiliary and it ("Whom did *the poet* John Clare
    marry?", "When did *the German band* Kraftwerk form?"): the relation is the verb after the name. A preposition
    among them keeps them ("did the singer of X": a relation of its own)."""
    found = _TITLE_AFTER_AUX.search(before)
    if found is None or set(found.group(2).split()) & STOPWORDS:
        return before
    return before[:found.start()] + found.group(1)


_FRONTED = re.compile(r"\s*(in|at|from|for|with|by|on|to|into|through|under|during)\s+(?:which|what|whom)\b"
                      r"(?!\s+(?:date|year|day|month|century|decade|time|era|period|season)s?\b)", re.IGNORECASE)
"""A preposition before the question word: it is the relation's, said after the first name ("In which city is X?" as
"Which city is X in?"); not before a time ("On what date", "In which year": when, which the answer type says)."""
WEAK_WORD = 0.5  # the score of a lowercase common word linked to a name ("music" -> Music)
_RELATIONAL = re.compile(r"\s+(?:of|to)\b")  # a class word before it also names the next name's relation ("the
# *sequel to* Shadowmancer")
STATED_AFTER = 6  # words after a constraint that may still state its relation ("as executive producer")
_CLAUSE_END = re.compile(r"[,;:?!]|\band\b")
_CONJOINED = re.compile(r"(?:[\s,\"'“”‘’]|\b(?:and|or|both|as well as|the|an?)\b)*(?:,|\band\b|\bor\b)(?:[\s\"'“”‘’]|\b(?:the|an?)\b)*")


_THROUGH = re.compile(r"\b([a-z]+)\s+(?:the|an?|its|their|his|her)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)"
                      r"\s+(?:of|to|for)\s*$")
"""A verb, then "the" and up to three lowercase words, then "of", "to" or "for" right before a name."""
_WH = frozenset({"who", "whom", "whose", "what", "which", "where", "when", "how"})
_SAYS_WHAT_IT_IS = frozenset("""is was are were be been being become became becomes remain remains remained named called
appointed elected crowned made declared chosen serve serves served play plays played""".split())
"""Verbs after which "the N of X" is what the answer is ("was *the capital of*", "served as *the president of*",
"played *the role of*"), not a thing between."""
_SAME_THING = _PLACE_WORDS | frozenset("""role part character name title rank position post office country area river
lake location site home birthplace work works voice voices talent talents achievement achievements contribution
contributions genre genres connection connections link links tie ties relationship association affiliation""".split())
"""Nouns for which "the N of X" is X itself ("visited the city of Kherson", "marks the birthplace of"), a role the
answer has ("the part of"), X's doing ("honoured the achievements of", "features the voices of") or only says the two
are related ("has a connection to")."""
_NOT_A_THING = re.compile(r"\w+(?:ed|ing)|similar|close|next|prior|due|akin|identical|comparable|equivalent|"
                          r"characteristic|subject")
"""A last word that makes "the N ... to X" the noun's own relation to X, not a thing ("a story *related* to")."""


_OWNED = re.compile(r"\.?['’]s?\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)(?=\s*(?:[,;?!]|$|\b(?:and|or|who|which|that|"
                    r"in|at|on|of|from|for|with|by|to|during|before|after|when|where|is|was|are|were|has|had|have|"
                    r"did|does|do|play|plays|played|live|lived|work|worked)\b))")
"""A possessive and up to three lowercase words after a name, ending the phrase ("X's *wife*", "X's *debut film* in"),
not a designation before another name ("X's novel The Leopard")."""


_OWN_CLAUSE = re.compile(r"\b(?:after|before|when|while|until|since|once)\s+((?:the|an?|his|her|its|their)\s+"
                         r"(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)\s+([a-z]+)\b[^,;?]*$")
"""A time clause with a subject of its own before a name ("after *the author* died in 1957"): its subject, its verb."""


def _named_after_start(qg: QueryGraph) -> Iterator[tuple[QueryNode, str]]:
    """The constraints a mention names after the question's start, each with the question's words before it."""
    for n in qg.constraints:
        if n.mention is not None and n.mention.start > 0:
            yield n, qg.question[:n.mention.start]


def in_a_clause_of_its_own(qg: QueryGraph) -> dict[str, str]:
    """Per constraint, the subject of the time clause it stands in when that clause has one of its own ("Which writer
    brought the manuscript to a publisher *after the author died in* 1957?": the author died in 1957, not the writer):
    qid -> that subject. The query graph joins the answer to the name directly, so the clause is not checked."""
    out = {}
    for n, before in _named_after_start(qg):
        found = _OWN_CLAUSE.search(before)
        if found is None:
            continue
        verb = found.group(2)
        if verb.endswith("ed") or verb in IRREGULAR_VERBS or verb.endswith("s") and verb not in STOPWORDS:
            out[n.qid] = found.group(1)
    return out


_QUALIFIED = re.compile(r"\s+([a-z][\w-]*[a-z])(?=\s*([,;?!]|$|\b(?:and|or|who|which|that|in|at|on|of|from|for|with|"
                        r"by|to|during|before|after|when|where|is|was|are|were|has|had|have)\b)|\s+[a-z])")
"""One lowercase noun after a name ("the Italian *admiral* transfer", "the Pixar *film*?"); group 2 when the phrase
ends there, else a word follows (the clause's verb, after an auxiliary)."""
_AUX_BEFORE = re.compile(r"\b(?:did|does|do|will|would|can|could|has|had|have)\s+(?:the|an?|his|her|its|their)\s+$",
                         re.IGNORECASE)


@lru_cache(maxsize=1)
def _demonyms() -> frozenset[str]:
    from .lexicon import Lexicon
    return frozenset(d.lower() for d in Lexicon.load(preset="base").demonyms)


def _demonym(word: str) -> bool:
    """Whether a word is a nationality adjective ("Italian"), which qualifies the noun after it."""
    return word.lower() in _demonyms()


def owned_thing(qg: QueryGraph) -> dict[str, str]:
    """Per constraint, the thing it owns that the question names after a relation ("the brother of *Hammershøi's
    wife*", "Who directed *Kuyt's debut film*?"; not "Who was Kuyt's coach?" nor "served as Kuyt's deputy", where
    the answer is that noun), or that it qualifies after "the" ("did *the Italian admiral* transfer": the admiral is
    Italian, not the answer): qid -> its words. The query graph joins the answer to the name directly, so that thing
    is not checked."""
    out = {}
    a_end = answer_type_span(qg.question)[2]
    for n, before in _named_after_start(qg):
        qualified = _QUALIFIED.match(qg.question, n.mention.end)
        aux = _AUX_BEFORE.search(before) is not None  # "did the Italian admiral *transfer*": the verb comes after
        if aux and not _demonym(qg.question[n.mention.start:n.mention.end]):
            qualified = None  # "does the Mekong *flow*": after a name, the word is the verb
        if qualified is not None and n.mention.start >= a_end and not qualified.group(1).endswith(("ed", "ing")) \
                and qualified.group(1) not in STOPWORDS and (qualified.group(2) is None) == aux and \
                re.search(r"\b(?:the|an?|his|her|its|their)\s+$", before, re.IGNORECASE):
            out[n.qid] = qualified.group(1)
            continue
        owned = _OWNED.match(qg.question, n.mention.end)
        if owned is None or owned.group(1).endswith("ed"):  # "When was X's album *released*?": a verb
            continue
        words = re.sub(r"\b(?:the|an?)\s*$", "", before.rstrip()).split()
        if words and words[-1].lower() not in _SAYS_WHAT_IT_IS | _WH | {"as"}:
            out[n.qid] = owned.group(1)
    return out


def through_a_thing(qg: QueryGraph) -> dict[str, str]:
    """Per constraint, the thing between the answer and it that the question names after a verb ("Who wrote *the
    theme song* of The Wire?": the answer wrote a song, and the song is of The Wire): qid -> its words. The query
    graph joins the answer to the constraint directly, so that thing is not checked."""
    out = {}
    for n, before in _named_after_start(qg):
        found = _THROUGH.search(before)
        if found is None:
            continue
        verb, thing = found.group(1), found.group(2)
        words = thing.split()
        if verb in _SAYS_WHAT_IT_IS or verb in STOPWORDS or words[-1] in _SAME_THING or \
                _NOT_A_THING.fullmatch(words[-1]):
            continue
        out[n.qid] = thing
    return out
