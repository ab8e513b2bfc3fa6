"""ψ2 linking: the question's mentions -> graph nodes (constraints and answer-type words).

Offline linking finds constraint mentions by longest match over every graph label and
alias (Aho-Corasick over folded text, so case, accents and punctuation don't matter and
CJK needs no tokenizer), then fuzzy and embedding (FAISS) fallbacks with floors for spans
that look like names but matched nothing. The answer-type phrase ("Which *country*",
"Who is the *actor*") is kept as ranking evidence and never linked as a constraint.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

import ahocorasick
from rapidfuzz import fuzz, process

from .config import QueryConfig
from .graph import KnowledgeGraph
from .coref import is_person_noun
from .kinds import noun_kind
from .lexicon import Lexicon, detect_preset
from .rules import ALL_ON, RuleSwitches, register
from .schema import naming_style
from .spelling import TYPO_CORRECTION, SpellingCorrector, to_original
from .textnorm import fold, fold_with_offsets, is_cjk, singular
from .types import LinkCandidate, Mention


STOPWORDS = frozenset("""a an the and or but of in on at to for from by with as is was are were be been being
has have had do does did it its it's this that these those he she they them his her their him who whom whose which
what when where why how up down out over under about into than then there here also both all any each few more most
other some such no nor not only own same so too very can will just don should now one two first last known
well""".split())

_TYPE_STOP = STOPWORDS | frozenset("""features featuring starring stars starred won wins received receive
nominated associated located born died directed produced written released connected linked served serves
played plays known includes include included shares share has have had also""".split())

_WHICH = re.compile(r"^\s*(?:(?:in|on|at|for|from|during|by|with|to|of|under|against|near|into|through|behind|after|"
                    r"before|across|along|around|beside|between|among|over|within|towards?|onto|beyond|below|above|"
                    r"alongside|throughout)\s+)?(which|what)\s+"  # "On what date", "Against which team"
                    r"(?:is\s+(?-i:the)\s+|was\s+(?-i:the)\s+|are\s+(?-i:the)\s+)?(.*)$", re.I)  # not "The Wire"
_ASKS_WHO = re.compile(r"\s*who\b", re.I)
_WHO = re.compile(r"^\s*who\s+(?:is|was|are|were)\s+(?:the|a|an|this|that)\s+(.*)$", re.I)
_ZH_WHICH = re.compile(r"^\s*(?:哪一?[种个位家类部本项]|什么|何种)(\w{1,4}?)(?=会|是|能|可|被|与|和|在|的|由|有|同时|出生|导致|引起|获得|位于|属于|包括|来自|曾|，|,|？|\?)")
_LIST_ITEM = r"(?:(?:19|20)\d{2}|\d{1,3}(?:st|nd|rd|th))"  # a year, or an ordinal ("41st")
_YEAR_LIST = re.compile(
    rf"\b({_LIST_ITEM}(?:\s*,\s*(?:and\s+|or\s+)?{_LIST_ITEM})*,?\s+(?:and|or|&)\s+{_LIST_ITEM})"
    r"\s+((?:[A-Z][\w'’.-]*)(?:\s+(?:of\s+the\s+|of\s+)?[A-Z][\w'’.-]*)*)")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
_NAME_AFTER = re.compile(r"\s+[\"“]?[A-Z]")  # a capitalised word (or quoted title) right after: a name in apposition
_QUOTED = re.compile(r"\"([^\"]{2,120})\"|“([^”]{2,120})”")
# A title: capitalised words, "for", capitalised words ("Primetime Emmy Award for Outstanding Lead
# Actress in a Miniseries or a Movie"). Names inside it are not constraints of their own.
_CAP = r"[A-Z0-9][\w'’.&/-]*"
_TITLE_WORDS = rf"{_CAP}(?:(?: (?:in|a|an|the|of|or|by|with|to|at|on|-|&))* {_CAP})*"
# "Primetime Emmy nomination for ...", "Tony Award-nominated actor for ..."
_TITLE_NOUN = r"(?: (?:nomination|nominations|award|awards)|-(?:nominated|winning) [a-z]+)?"
_TITLE_NOUN_END = re.compile(r"(?: nominations?| awards?| (?:nominated|winning) [a-z]+)$")  # over folded text
_TITLE = re.compile(rf"\b[A-Z][\w'’.&/-]*(?: {_CAP})*{_TITLE_NOUN} for {_TITLE_WORDS}")
# A category name may go on past a "for" or a listing comma ("Best Song Written for a Motion Picture, Television
# or Other Visual Media"): tried as well, kept only when a label fits it better.
_TITLE_GOES_ON = re.compile(rf"(?: for(?: (?:a|an|the))?|,) {_TITLE_WORDS}")
# "the Academy Award for Best Director and Best Actor": the second title shares the head.
_TITLE_AND = re.compile(rf"\b((?:[A-Z][\w'’.-]* )+for ){_TITLE_WORDS},? (?:and|or) ((?:Best|Outstanding) {_TITLE_WORDS})")
_RUN_WORD = r"[A-Z0-9](?:[\w.&-]|['’](?!s\b))*"  # a capitalised word, without a possessive 's
_CAPITALISED_RUN = re.compile(rf"\b{_RUN_WORD}(?: {_RUN_WORD})+")  # "MTV Movie Award", "Nick Cannon" of "Nick Cannon's"
_CATEGORY_LEAD = re.compile(r"\b(?:Best|Outstanding) $")  # "... for Best Film": the name of an award category, not Film
# "its Bulldogs": a capitalised plural alone between lowercase words (not "National Society of Film Critics")
_CAPITALISED_PLURAL = re.compile(r"(?:\b[a-z]+,?|,) ([A-Z][a-z]{2,}[^s\W])s\b(?! [A-Z0-9]|['’])")
_SHARED_MODIFIER = re.compile(r"\b([a-z]+) ([a-z]+) and ([a-z]+)\b")
_QUESTION_WORD = re.compile(r"^(?:Which|What|Who|Whose|Where|When|How|Name|The|A|An) ")
_NAME_SPAN = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”|((?:[A-Z][\w'’.&-]*)(?:\s+(?:of|the|and|de|von|van|du|la|le|for)?\s*[A-Z0-9][\w'’.&-]*)+)")
_NAMED = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”|((?:[A-Z][\w'’.&-]*)(?:\s+(?:of|the|and|de|von|van|du|la|le|for)?\s*[A-Z0-9][\w'’.&-]*)*)")  # one word or more


# A capitalised article mid-question starts a title written in sentence case ("De groote boulevards", "La vida
# breve"): its lowercase words up to the clause's end belong to the name.
_TITLE_ARTICLES = frozenset({"de", "het", "la", "le", "les", "el", "il", "lo", "los", "las", "der", "die", "das"})
_LOWER_RUN = re.compile(r"(?:\s+[a-zà-ÿ][\w'’-]*)+(?=\s*(?:[?.!,;:]|$))")
_S_NOUNS = frozenset({"series", "species"})  # nouns that end like a verb ("Which Pokémon *series*")
# Past and participle forms of English irregular verbs: after the answer type's first word they are its verb
# ("Which Russian attack *took* place", "Which film director *made*"), as a regular "-ed" word is. Forms that
# are as often a noun of a kind ("cast", "set", "hit", "cut", "shot", "lead", "rose", "broadcast") are left out.
IRREGULAR_VERBS = frozenset("""arose arisen awoke awoken beaten became begun began bent bled blew blown bore borne
bought bred broke broken brought built burnt caught chose chosen clung came dealt did done drew drawn drank drunk
drove driven dug dwelt ate eaten fed felt fled flung flew flown forbade forbidden forgave forgiven forgot forgotten
forsook foresaw foreseen fought found froze frozen gave given got gotten went gone grew grown hung heard held hid
hidden kept knelt knew known laid led leapt learnt left lent lit lost made meant met misled oversaw overseen
overtook overtaken paid ran rang rode ridden risen rung said sang sank sat saw seen sent sold shook shaken shone
shown slept slid sought sped spent spoke spoken spun sprang stood stole stolen strode struck stuck stung strove
sung sunk swam swept swore sworn swung swum taught told thought threw thrown took taken tore torn undertook
undertaken understood upheld withdrew withdrawn woke woken wore worn wove woven wept won wrote written""".split())
# Light verbs: with a bare singular noun right after them ("*took place* in", "*took part* in", "*gave birth* to",
# "*held office*") the noun is part of the relation phrase, not a thing of the graph (a count noun as a real
# object takes a determiner or a plural: "made *a film*", "made *films*"). "have" is left out: "has *music* by"
# is a relation to a thing.
_LIGHT_VERBS = frozenset("""take takes taking took taken make makes making made give gives giving gave given hold holds
holding held get gets getting got gotten pay pays paying paid come comes coming came""".split())
_SUBTITLE_MARK = re.compile(r"\s*(?::|\s\(|\s[–—-]\s)")  # "Title: Subtitle", "Title (2016)", "Title – Part II"
_DETERMINER_END = re.compile(r"\b(?:the|a|an|his|her|their|its|whose)\s+$", re.I)  # "was *the* father of"
_KIN_GAP = re.compile(r"\s+(?:of|to)(?:\s+(?:both|either|the|an?))?\s+")  # "the father *of both* Zarir"
_IDIOM_NOUN_END = re.compile(r"\s*(?:$|[?!.,;:]|(?:in|of|to|at|on|for|with|from|by|during|and|as|under|over)\b)")


# Names or numbers before the head word: "Which *Australian Army* force", "Which *Sisters of Mercy* album",
# "Which *2011 South Korean* film" (the head is the first lowercase word after them).
_NAMED_MODIFIERS = re.compile(r"[A-Z0-9][\w'’.&-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z0-9][\w'’.&-]*)+(?=\s+[a-z])")


class AnswerType(NamedTuple):
    """The answer-type phrase, its span, and ``names``: the span of the names before its head word after the
    first one (empty when none; "Which Sisters *of Mercy* album"). Those are offered to the name fallbacks and the
    unlinked report like any name; the rest (the first word, as before, and the head) describes the answer.
    ``named``: the phrase is a name without a lowercase head ("Which *National Memorial* stands ..."): a label
    spelling it whole is the answer type's class condition, and its pieces are none."""
    text: str
    start: int
    end: int
    names: tuple[int, int] = (0, 0)
    named: bool = False

    def covers(self, s: int, e: int) -> bool:
        """Whether [s, e) overlaps the phrase outside its names (so it is no condition of its own)."""
        return s < self.end and e > self.start and not (self.names[0] <= s and e <= self.names[1])


_WORD = re.compile(r"[\w'’-]+(?:\.[\w'’-]+)+\.?|[\w'’-]+")  # a word; "U.S." whole
_VERB_SHAPE = re.compile(r"(?:[^e]ed|[^su]s)$")  # "followed", "comes"; not "breed", "bus"
# What follows a verb but not a noun asking for the answer ("What comes *from*", "What came *after*", "Which
# *borders* the ..."): an object's determiner, a name, a number, a quote; a preposition after "What" only.
_OBJECT_START = frozenset("the a an both its his her their either each".split())
_PREPOSITIONS = frozenset("""from after before in on at to into onto by with for about over under through during
between against within across along around near behind""".split())


def _type_words(rest: str, pos: int, after_names: bool) -> list[re.Match]:
    """The answer type's words from ``pos``: up to three, ended by a stop word, punctuation, a capitalised word
    (it starts a name), or a verb ("-ed", "-s", an irregular past: "Which Russian attack *took* place"), or after a
    possessive, kept without its "'s"; a leading adverb is skipped."""
    picked: list[re.Match] = []
    for w in _WORD.finditer(rest, pos):
        word = w.group(0)
        if word.lower() in _TYPE_STOP or len(picked) == 3:
            break
        if not picked and _ADVERB.fullmatch(word):
            continue  # "Which *racially* integrated band": the adverb is no part of the type
        owner = _POSSESSIVE.fullmatch(word)
        if owner is not None and owner.group(1).islower():
            picked.append(_WORD.match(rest, w.start(), w.start() + len(owner.group(1))))
            break  # "Which childless *king's* death ...": the answer owns what follows, the type ends with it
        if picked or after_names:
            dated = bool(picked) and all(p.group(0).isdigit() for p in picked)  # "Which 1977 Italian film"
            if (word[0].isupper() and not dated) or word.lower() in IRREGULAR_VERBS \
                    or (re.search(r"(?:ed|[^s]s)$", word.lower()) and word.lower() not in _S_NOUNS):
                break
        if picked and rest[picked[-1].end():w.start()].strip():  # "Which film, set in ...": punctuation
            break
        if picked and _plural_kind(picked[-1].group(0)):  # "Which rivers *meet* near ...", "Which countries
            break                                           # *border* ...": a plural kind noun, then its verb
        if picked and _OBJECT_NEXT.match(rest, w.end()):  # "Which channel *broadcast* The Hollow Crown?": a word
            break                                          # with an object right after it is the verb
        picked.append(w)
    return picked


_ADVERB = re.compile(r"[a-z]+(?:ally|ously|ively|ently|antly|fully|lessly|edly)")
"""A lowercase adverb's endings ("racially", "famously", "allegedly"; not "family")."""
_POSSESSIVE = re.compile(r"([\w-]+)['’]s")
"""A possessive word ("king's"), which ends an answer type it is part of ("Which Estonian *composer's* work")."""
_OBJECT_NEXT = re.compile(r"\s+(?:[\"“]|(?:the|a|an|his|her|its|their)\s|[A-Z])")
"""An object right after a word (a name, a quoted title, a determiner): that word is a verb, not a type's noun."""


def _plural_kind(word: str) -> bool:
    """Whether a word is the plural of a kind noun ("rivers", "countries", "players"; not "sports", "news")."""
    w = word.lower()
    one = singular(w)
    return word.islower() and one != w and w not in _S_NOUNS and (noun_kind(one) is not None or is_person_noun(one))


def _verb_first(word: str, after: str, what: bool) -> bool:
    """Whether the first word after "What"/"Which" is the question's verb, so there is no answer type ("What
    *comes* from American", "What *came* after X"): an irregular past (the table ``IRREGULAR_VERBS``), or a
    verb's shape ("-s", "-ed") with no kind noun under it ("Which *films*", "Which *stars*") and an object, a name
    or (after "What") a preposition right after it; a plural noun asking for the answer is followed by its verb
    ("Which countries *border* ...", "What awards *were* ...")."""
    w = word.lower()
    if w in IRREGULAR_VERBS:
        return True
    if _POSSESSIVE.fullmatch(w):
        return False  # "Which *artist's* single ...": the answer owns what follows
    if not word.islower() or len(w) < 4 or not _VERB_SHAPE.search(w) or w in _S_NOUNS \
            or any(noun_kind(x) for x in _singulars(w)):
        return False
    after = after.lstrip()
    nxt = _WORD.match(after)
    if nxt is None:
        return after[:1] in "\"“"  # a quoted title: 'What includes "Kick Him Out"'
    n = nxt.group(0)
    return n[0].isupper() or n[0].isdigit() or n.lower() in _OBJECT_START or (what and n.lower() in _PREPOSITIONS)


def _singulars(word: str) -> list[str]:
    """The nouns an English plural may be of ("countries": country; "boxes": box; "films": film)."""
    out = [word[:-1]] if word.endswith("s") else []
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("es"):
        out.append(word[:-2])
    return out


def answer_type(question: str) -> AnswerType:
    """The answer-type phrase: "Which TV show features..." -> ("TV show", 6, 13); names before the head are part
    of it ("Which East German gymnast competed" -> "East German gymnast", names (10, 17): "German"); a name with
    no lowercase head is the whole phrase ("Which *National Memorial* stands"); a verb right after the question
    word leaves none ("What *comes* from ...")."""
    for pattern in (_WHO, _WHICH):
        m = pattern.match(question)
        if not m:
            continue
        rest, offset = m.group(m.lastindex), m.start(m.lastindex)
        first = _WORD.match(rest)
        if pattern is _WHICH and first and _verb_first(first.group(0), rest[first.end():],
                                                        m.group(1).lower() == "what"):
            return AnswerType("", offset, offset)  # the relation phrase starts at the verb
        named = _NAMED_MODIFIERS.match(rest)
        head = _type_words(rest, named.end(), True) if named else []
        if head:
            end = head[-1].end()
            second = re.search(r"\s+", rest).end()  # the first word is the question's own (as without names)
            return AnswerType(rest[:end], offset, offset + end, (offset + second, offset + named.end()))
        if named and re.search(r"\b(?:is|was|are)\s+the\s+$", question[:offset], re.I):
            return AnswerType("", offset, offset)  # "What was the Syr Darya called ...": the name is the subject
        if named:  # "Which National Memorial stands ...": the name is what the answer is
            return AnswerType(rest[:named.end()], offset, offset + named.end(), named=True)
        picked = _type_words(rest, 0, False)
        if picked:
            return AnswerType(rest[picked[0].start():picked[-1].end()], offset + picked[0].start(),
                              offset + picked[-1].end())
        if pattern is _WHICH:  # "What was developed by ...": no type, the question word states no relation
            return AnswerType("", offset, offset)
    if _ASKS_WHO.match(question):
        return AnswerType("person", 0, 0)
    m = _ZH_WHICH.match(question)
    if m:  # 哪种疾病 / 哪位演员 / 什么药物: the noun after the question word
        return AnswerType(m.group(1), m.start(1), m.end(1))
    return AnswerType("", 0, 0)


_DATE_IN_YEAR = re.compile(r"(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|October|"
                           r"November|December)(?:\s+\d{1,2},?)?\s+(\d{4})")
"""A date written out with its month ("26 September 1969", "September 26, 1969", "June 2010"): group 1 its year."""


def _says_language(graph: KnowledgeGraph, v: int, words: set[str]) -> bool:
    """Whether some edge of node ``v`` has a relation whose name holds one of ``words`` ("original language")."""
    return any(words & set(re.split(r"[^a-z]+", graph.relations[int(graph.rel[e])].lower()))
               for e in graph.incident_edges(v).tolist())


def answer_type_span(question: str) -> tuple[str, int, int]:
    """The answer-type phrase and its span (``answer_type`` without the names' span)."""
    return answer_type(question)[:3]


def _auto_aliases(label: str) -> list[str]:
    """Aliases a question is likely to use instead of the full label (generic rules only)."""
    out = []
    base = re.sub(r"\s*\([^)]*\)\s*$", "", label).strip()
    if base and base != label:
        out.append(base)
    m = re.fullmatch(r"(.+?) of (America|the United States)", base)
    if m and len(m.group(1).split()) >= 2:
        out.append(m.group(1))
    if base.lower().startswith("the ") and len(base.split()) >= 3:
        out.append(base[4:])
    words = base.split()
    if len(words) >= 2 and words[-1].isalpha() and len(words[-1]) > 2 and not words[-1].endswith("s"):
        out.append(base + "s")  # "United States Dollars" for "United States Dollar"
    return out


# The linking rules (``sgrag.rules``); their fitted numbers live in ``QueryConfig``.
AUTO_ALIASES = register("auto_aliases", "linking", 'A label also answers to its short forms: without a trailing '
                        '"(...)", "X of America" as X, without a leading "the", a plural of its last word.')
SUFFIX_ALIASES = register("suffix_aliases", "linking", "Labels with a lexicon suffix (\"Actor-GB\") answer to the "
                          "suffix's alias templates (\"British actor\"), and the words the suffix weakens link weakly.")
LEXICON_ALIASES = register("lexicon_aliases", "linking", 'Words the lexicon maps to a label ("usa", "married") link it.')
CLASS_ALIAS = register("class_alias", "linking", 'A lowercase word that aliases a class ("action": Action Film) links '
                       "the class, not the proper name it also spells.")
STATISTICAL_CLASSES = register("statistical_classes", "linking", "Class nodes are also found from statistics (a "
                               "relation whose tails gather many heads each is type-like), not only from the "
                               "lexicon's type relations.")
SHARED_TAIL = register("shared_tail", "linking", 'Coordinated nouns share a place: "screenwriter and producer from '
                       'Great Britain" also reads "producer from Great Britain".')
LANGUAGES = register("languages", "linking", 'A language adjective next to a language word ("English dialogue", '
                     '"French-speaking") links the language node.')
CLASS_WORDS = register("class_words", "linking", 'A word naming several classes links them all ("actress" -> Actor '
                       "and Female).")
VERB_CLASSES = register("verb_classes", "linking", 'In a "Who" question, a verb naming a class ("directed" -> Film '
                        "Director) adds it as weak evidence.")
DEMONYMS = register("demonyms", "linking", '"American" links the country weakly, firmly in the answer type ("Who is '
                    'the American actor").')
DEMONYM_EQUIVALENCE = register("demonym_equivalence", "linking", 'On relations named in plain words, a condition '
                               'naming a country is also met, edge by edge, through the node of its demonym ("from the '
                               'Netherlands" through an edge to "Dutch"), unless that node is a language; the answer '
                               'says so.')
YEAR_COVERS_DATES = register("year_covers_dates", "linking", 'On relations named in plain words, a condition naming '
                             'a year is also met, edge by edge, through a date in that year ("released in 1969" '
                             'through an edge to "26 September 1969"); the answer says so.')
THE_CLASS_INSTANCES = register("the_class_instances", "linking", 'On a graph read from documents, a class word the '
                              'question makes definite ("composed *the game\'s* score", "granted *the university* '
                              'status") is met, edge by edge, through the things of that class, not only through the '
                              'class node (at most 20 of them, or those its description picks of up to 200; they are '
                              'never the answer).')
DESCRIBED_THINGS = register("described_things", "linking", 'On a graph read from documents, the names in the '
                            'description of a definite class word ("the 1961 comedy film *produced by Franco '
                            'Cristaldi*") pick out which things of that class it stands for, and constrain that thing, '
                            'not the answer: each name every picked thing is joined to is met through it.')
OWNED_DESCRIBED = register("owned_described", "linking", 'On a graph read from documents, when the question asks '
                           'whose a named thing is ("Which Italian director\'s film *Family Diary* shared the Golden '
                           'Lion with Ivan\'s Childhood?"), the names after it that the thing is joined to are said of '
                           'it, not of the answer: each is met through it.')
MAX_INSTANCES = 20
"""Most things of a class a definite class word stands for; a class with more names no thing in particular ..."""
MAX_DESCRIBED = 200
"""... unless the words describing it pick out a few (rule ``described_things``): the most things it picks among."""
_NAMES_TO_CLASS_WORD = r"(?:[A-Z0-9][\w'’.-]*\s+){0,3}$"
"""Up to three names between a definite article and the class word at the end ("the *Detroit* record label")."""
_DEFINITE_BEFORE = re.compile(r"(?<![,;:])(?<![,;:] )\b(?<!is )(?<!was )(?<!are )(?<!were )(?<!be )(?<!been )"
                              r"(?<!became )(?<!becomes )(?<!become )(?<!remains )(?<!remained )(?<!as )"
                              r"(?:[Tt]he|[Tt]his|[Tt]hat)\s+" + _NAMES_TO_CLASS_WORD)
"""A definite article before a class word (perhaps with names between: "the Detroit record label"), not after a
copula or "as", where the word says what the answer is ("was *the sequel* to", "served as *the president*"), nor
after a comma, where it says what the name before it is ("Manuel, *the bumbling waiter*"); not a possessive
("together with *his wife*": the answer's own, whom a misread class edge may have made the answer itself)."""
_SUBJECT_AFTER_COPULA = re.compile(r"^\s*(?i:in|at|on|from|into|near|under|through)\s+(?i:which|what)\s+[^,;:?]*?"
                                   r"\b(?:is|was|are|were)\s+(?:the|this|that)\s+" + _NAMES_TO_CLASS_WORD)
"""... and after a copula where the question asks for a preposition's object ("In which city is *the Ullevi
stadium*?"): the copula's subject follows, which is no answer, and its class word is a thing met through."""
_OWNER_ASKED = re.compile(r"\s*(?:(?:Which|What)(?:\s+[\w-]+){0,2}\s+[a-z][\w-]*['’]s|Whose)\s+"
                          r"(?:[a-z0-9][\w-]*\s+){0,3}")
"""A question asking whose a thing is, to the thing's name: "Which Italian director's film ", "Whose 1957 short
story "; the owner is the answer's noun ("Which architect won the competition for *Stockholm's* cemetery" asks
whose no thing is)."""
_DEFINITE_OWNER = re.compile(r"\b(?:[Tt]he|[Tt]his|[Tt]hat)\s+$")
"""A definite article before a class word that owns what the answer is ("Which arena was *the team's* home?"): a
copula before it says nothing of the class word."""
TITLE_AND = register("title_and", "linking", 'Two categories sharing an award\'s head ("Academy Award for Best '
                     'Director and Best Actor") link both whole titles.')
SHARED_MODIFIER = register("shared_modifier", "linking", 'A modifier shared by coordinated nouns ("television '
                           'producer and director") is read with each ("television director").')
BELIEFS = register("beliefs", "linking", 'A belief adjective ("of Islamic faith") links the religion weakly.')
YEAR_LISTS = register("year_lists", "linking", 'Each item of a year or ordinal list ("the 1988, 2008 and 2012 Summer '
                      'Olympics") links its own label.')
TYPE_HEAD_SKIPPED = register("type_head_skipped", "linking", 'The answer-type head ("Which *film*") describes the '
                             "answer and is no constraint, unless it names a class.")
NAME_AFTER_DESCRIBED = register("name_after_described", "linking", 'A class word right before a name ("the actor Tom '
                                'Skerritt") describes that name and is no constraint.')
THE_TITLE_LOWERCASE = register("the_title_lowercase", "linking", 'A lowercase "the piano" is the thing Piano, not '
                               'the title "The Piano".')
COMMON_WORD_WEAK = register("common_word_weak", "linking", 'A lowercase common word matching a capitalised name '
                            '("film", "music") links at half score.')
FUZZY_FALLBACK = register("fuzzy_fallback", "linking", "A name-like span no label matches links the closest label "
                          "by fuzzy ratio above a floor.")
EMBEDDING_FALLBACK = register("embedding_fallback", "linking", "A name-like span still unmatched links its nearest "
                              "label embedding above a floor.")
SURNAMES = register("surnames", "linking", 'A capitalised word no label matches that is the last word of exactly one '
                    'person\'s name ("Stamboliyski", where the text only wrote "Aleksandar Stamboliyski") links that '
                    'person at alias score.')
CAPITALISED_PLURAL = register("capitalised_plural", "linking", 'A capitalised plural alone ("famous for its '
                              'Bulldogs") links its singular label.')
TITLES = register("titles", "linking", 'A whole title ("X Award for ...") links a label with the same words, or '
                  "the names inside it only rank (a run with a title noun, or starting like the graph's own titles).")
SUBTITLES = register("subtitles", "linking", 'A quoted subtitle of a series the question names links "Series: '
                     'Subtitle"; the series\' own words are no constraints.')
RELATION_WORDS_NOT_NAMES = register("relation_words_not_names", "linking", 'A word naming how a nearby mention is '
                                    'related ("Common\'s *official website*") is no entity.')
QUOTED_PIECES_SOFT = register("quoted_pieces_soft", "linking", "Names inside a quoted title that matched nothing "
                              "whole only rank.")
CATEGORY_PIECES_SOFT = register("category_pieces_soft", "linking", 'A name right after "Best" or "Outstanding" is '
                                "part of a category name and only ranks.")
NAME_PIECES_SOFT = register("name_pieces_soft", "linking", 'Names inside a longer capitalised name no label covers '
                            '("MTV" in "an MTV Movie Award") only rank.')
QUALIFIERS_SOFT = register("qualifiers_soft", "linking", 'A place after a comma that says which one is meant '
                           '("Birmingham, Alabama") only ranks.')
IDIOM_WORDS_NOT_THINGS = register("idiom_words_not_things", "linking", 'The verb after the answer type or right after '
                                  'the question word ("Which event *saw* ...", "What *comes* from") and a bare noun '
                                  'after a light verb ("took *place* in", "took *part* in", "gave *birth* to") are part '
                                  'of a relation phrase, no things of the graph.')
COMMA_TITLES = register("comma_titles", "linking", 'A name written across a comma that a label of the graph spells '
                        'before a subtitle ("Crouching Tiger, Hidden Dragon" of "Crouching Tiger, Hidden Dragon: Sword of '
                        'Destiny") is one name: when no label is it whole, it is reported as not found and the names '
                        'inside it only rank, as parts of it.')
KIN_NOUNS_STATE = register("kin_nouns_state", "linking", 'A kinship noun right before "of" or "to" and a condition '
                           '("was *the father of* both Zarir and Balash") names how that condition is related, and is '
                           'no thing of the graph: the word is part of its stated relation.')
CAPITALISED_STOPWORDS = register("capitalised_stopwords", "linking", 'A common word written capitalised after the '
                                 'question\'s first word and spelt so by a label names it ("the song *More*").')
ONE_MENTION_PER_LABEL = register("one_mention_per_label", "linking", "Two mentions of one label become one constraint "
                                 '(the surer: "United Kingdom", not "British").')
SPELLING_VARIANTS = register("spelling_variants", "linking", 'On relations named in plain words, a class word is '
                             'also met through the node of its other English spelling, where the graph holds both '
                             '("Which organization": an "is a organisation" edge, as a British text writes it); the '
                             'answer says so.')
_SPELLINGS = (("isation", "ization"), ("isations", "izations"), ("iser", "izer"), ("our", "or"), ("ours", "ors"),
              ("tre", "ter"), ("tres", "ters"), ("ogue", "og"), ("ogues", "ogs"))
"""British and American endings of one word (each way, after at least three letters): what ``spelling_variants``
tries on a class word's last word; ``_SPELT`` holds whole words."""
_SPELT = (("programme", "program"), ("defence", "defense"), ("licence", "license"), ("offence", "offense"))
_SPELLINGS_BOTH_WAYS = _SPELLINGS + tuple((us, gb) for gb, us in _SPELLINGS)
_SPELT_BOTH_WAYS = dict(_SPELT + tuple((us, gb) for gb, us in _SPELT))


def relation_word(name: str) -> str:
    """The last segment of a relation path, as words: "/people/person/profession" -> "profession"."""
    return re.split(r"[/.]", name.strip("/"))[-1].replace("_", " ").lower()


def type_like_relations(graph: KnowledgeGraph, type_relations=(), cfg: QueryConfig | None = None,
                        statistical: bool = True) -> np.ndarray:
    """Per relation, whether its tail says what its head is: named so in the lexicon (``type_relations``,
    against the relation's last path segment or its description, so "instance of" and P31 described as
    "instance of" both count), or (``statistical``) its tails gather many heads each (profession: thousands
    of people, a hundred professions)."""
    cfg = cfg or QueryConfig()
    n, r = graph.num_nodes, len(graph.relations)
    if graph.num_edges == 0:
        return np.zeros(r, dtype=bool)
    rel = graph.rel.astype(np.int64)
    heads = np.bincount(np.unique(rel * n + graph.src) // n, minlength=r)
    tails = np.bincount(np.unique(rel * n + graph.dst) // n, minlength=r)
    gathers = (heads >= cfg.type_min_heads) & (heads >= cfg.type_heads_per_tail * np.maximum(tails, 1)) & statistical
    return named_type_relations(graph, type_relations) | gathers


def named_type_relations(graph: KnowledgeGraph, type_relations=()) -> np.ndarray:
    """Per relation, whether the lexicon names it type-like, by its last path segment or its description."""
    type_relations = set(type_relations)
    described: dict[int, str] = {}
    for e_rel, d in zip(graph.rel.tolist(), graph.desc.tolist()):
        if d >= 0 and e_rel not in described:
            described[e_rel] = graph.texts[d].strip().lower()
    return np.array([relation_word(x) in type_relations or described.get(i) in type_relations
                     for i, x in enumerate(graph.relations)] or [], dtype=bool)


def class_nodes(graph: KnowledgeGraph, type_relations=(), cfg: QueryConfig | None = None,
                statistical: bool = True) -> np.ndarray:
    """Which nodes the graph uses as classes (professions, genders, genres), from its statistics.

    A relation is type-like when it is named so in the lexicon ("is a", "instance of") or when
    its tails gather many heads each (profession: thousands of people, a hundred professions).
    Each type-like edge points at its class side: its tail, unless its head has more than twice
    as many edges of that relation (graphs that store some edges reversed still agree). A node is a
    class when most of its edges are such pointers at it. Countries are not classes:
    nationality is type-like, but it is a small share of a country's edges.
    """
    cfg = cfg or QueryConfig()
    n = graph.num_nodes
    if graph.num_edges == 0:
        return np.zeros(n, dtype=bool)
    rel = graph.rel.astype(np.int64)
    typelike = type_like_relations(graph, type_relations, cfg, statistical)[rel]
    keys = np.concatenate([rel * n + graph.src, rel * n + graph.dst])
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    per_edge = counts[inverse]  # edges of the same relation at each endpoint
    at_src, at_dst = per_edge[: graph.num_edges], per_edge[graph.num_edges:]
    class_side = np.where(at_src > 2 * at_dst, graph.src, graph.dst)  # the tail, unless clearly reversed
    typed = np.bincount(class_side[typelike], minlength=n)
    incident = np.bincount(graph.src, minlength=n) + np.bincount(graph.dst, minlength=n)
    return (typed > 0) & (typed >= cfg.class_share * incident)


_GENRE_LIST_END = re.compile(r"(?:,? (?:and |or )?[A-Z][\w-]*)* genres?\b")  # "Adventure and Thriller genres": classes
_LIST_GOES_ON = re.compile(r",? (?:and|or)\b")


def _is_short_name(name: str) -> bool:
    """A two-character capitalised name ("X2", "U2", "ER"): links only as written, never as "er" or "us"."""
    return len(name) == 2 and not any(ch.islower() for ch in name) and any(ch.isupper() for ch in name)


def _two_readings_of_one_word(a: Mention, b: Mention, question: str) -> bool:
    """One word naming two nodes through the lexicon: both mentions stand. Either the same word
    ("actress": Actor and Female), or a lexicon reading inside an alias ("British" -> United Kingdom
    inside "British actor" -> Actor-GB); inside an exact name ("American Beauty") the word is the name's."""
    word = question[a.start:a.end]
    if (a.start, a.end) == (b.start, b.end):
        return a.text != b.text and word not in (a.text, b.text)
    outer, inner = (a, b) if a.end - a.start > b.end - b.start else (b, a)
    return (outer.chosen.method == "alias" and outer.start <= inner.start and inner.end <= outer.end
            and _is_reading(inner, question))


def _is_reading(m: Mention, question: str) -> bool:
    """Whether ``m`` is a synthetic reading of its span ("British" -> United Kingdom), not the words themselves."""
    return m.text != question[m.start:m.end]


def _word_alternation(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True)) or "(?!)"


@dataclass
class _Entry:
    nodes: tuple[int, ...]
    method: str
    score: float


class _Text(NamedTuple):
    """A text to link and where it reads in the question: the question itself or a synthetic reading of a span."""
    text: str
    start: int
    end: int
    weight: float = 1.0
    of_answer: bool = False


class Linker:
    """Finds constraint mentions in a question and links them to graph nodes."""

    def __init__(self, graph: KnowledgeGraph, label_index=None, embed=None, cfg: QueryConfig | None = None,
                 lexicon: Lexicon | None = None, rules: RuleSwitches = ALL_ON):
        """``embed``: texts -> unit vectors (the question's mentions; with ``label_index``, for fuzzy links);
        ``rules``: which linking rules are on."""
        self.graph, self.label_index, self.embed = graph, label_index, embed
        self.cfg = cfg = cfg or QueryConfig()
        self.rules = rules
        self.lexicon = lex = lexicon or Lexicon.load(preset=detect_preset(graph.relations))
        self.is_class = class_nodes(graph, lex.type_relations, cfg, rules.on(STATISTICAL_CLASSES))
        deg = graph.degree
        entries: dict[str, _Entry] = {}
        for key, nodes in graph.nodes_by_folded_label.items():
            if key:
                entries[key] = _Entry(tuple(sorted(nodes, key=lambda v: -deg[v])), "exact", 1.0)
        alias_nodes: dict[str, set[int]] = {}
        weakened: set[str] = set()
        short = {label for label in graph.nodes_by_label if _is_short_name(label)}
        for key, nodes in graph.nodes_by_folded_label.items():
            label = graph.labels[nodes[0]]
            aliases = (_auto_aliases(label) if rules.on(AUTO_ALIASES) else []) + [a for v in nodes for a in graph.aliases.get(v, ())]
            for suffix, rule in lex.label_suffixes.items() if rules.on(SUFFIX_ALIASES) else ():
                if label.endswith(suffix) and len(label) > len(suffix):
                    base = label[: -len(suffix)]
                    aliases += [t.replace("{x}", base) for t in rule.get("aliases", ())]
                    weakened.update(rule.get("weakens", ()))
            for alias in aliases:
                alias_nodes.setdefault(fold(alias), set()).update(nodes)
                if _is_short_name(alias):
                    short.add(alias)  # "VJ" of "VJ-GB"
        for alias, target in lex.aliases.items() if rules.on(LEXICON_ALIASES) else ():
            nodes = graph.nodes_by_label.get(target)
            if nodes:
                alias_nodes.setdefault(fold(alias), set()).update(nodes)
        self._class_alias: dict[str, _Entry] = {}  # "adventure": the genre "Adventure Film", not the name "Adventure"
        for key, nodes in alias_nodes.items():
            if not key or key in STOPWORDS:
                continue
            entry = _Entry(tuple(sorted(nodes, key=lambda v: -deg[v])), "alias", cfg.alias_score)
            if key not in entries:
                entries[key] = entry
            elif self.is_class[entry.nodes[0]] and set(entry.nodes) != set(entries[key].nodes) \
                    and rules.on(CLASS_ALIAS):
                # "action": the class Action Film, if the name Action is no class; else two classes, unclear
                self._class_alias[key] = entry
        self._weakened = frozenset(weakened)
        for key in weakened & entries.keys():
            # "actor from Great Britain" names the "Actor-GB" profession, rarely the country: a weak link
            entries[key] = replace(entries[key], score=0.5)
        self._demonym = re.compile(r"\b(" + _word_alternation(lex.demonyms) + r")\b")
        self._class_word = re.compile(r"\b(" + _word_alternation(lex.class_words) + r")\b", re.I)
        self._verb_class = re.compile(r"\b(" + _word_alternation(lex.verb_classes) + r")\b", re.I)
        self._belief = re.compile(r"\b(" + _word_alternation(lex.beliefs) + r")\b", re.I)
        self._beliefs = {k.lower(): v for k, v in lex.beliefs.items()}
        self._shared_tail = re.compile(r"\b([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?)(?:,| and| or)(?: an?)? [A-Za-z]+(?: [A-Za-z]+)? "
                                       r"((?:in|from) )(" + _word_alternation(lex.shared_tails) + r")\b")
        self.entries = entries
        self._short_labels = frozenset(short)
        self._title_keys = [k for k in entries if " for " in k]
        self._title_heads = frozenset(_TITLE_NOUN_END.sub("", k.split(" for ")[0]) for k in self._title_keys)
        """What the graph's own "X for Y" titles start with ("academy award" -> "academy"): a run like
        "Nordvik Bank for Halvard Group" is a title only if it starts so or has a title noun ("... Award")."""
        self._subtitled: dict[str, list[tuple[str, str]]] = {}  # "at world's end" -> [(series, label key)]
        for key, nodes in graph.nodes_by_folded_label.items():
            series, colon, subtitle = graph.labels[nodes[0]].partition(": ")
            if colon and fold(series) and fold(subtitle):
                self._subtitled.setdefault(fold(subtitle), []).append((fold(series), key))
        self.automaton = ahocorasick.Automaton()
        for key in entries:
            self.automaton.add_word(key, key)
        if entries:
            self.automaton.make_automaton()
        self._fuzzy_keys = [k for k, e in entries.items() if e.method == "exact" and len(k) >= 4]
        self._rel_vocab: dict[int, frozenset[str]] = {}

    # ---- mention finding ----------------------------------------------------------------
    def _spans(self, folded: str, text: str = "", offsets: list[int] | None = None) -> list[tuple[int, int, str]]:
        """All label occurrences at word boundaries (any position for CJK).

        A key of one or two characters is a word of the sentence, not a name, unless ``text`` (the
        unfolded original, ``offsets`` mapping into it) spells a short capitalised label as is
        ("X2", "U2", "ER"; not "er" or "us")."""
        if not self.entries:
            return []
        out = []
        for end, key in self.automaton.iter(folded):
            start = end - len(key) + 1
            end += 1
            if not (is_cjk(key[0]) or start == 0 or folded[start - 1] == " "):
                continue
            if not (is_cjk(key[-1]) or end == len(folded) or folded[end] == " "):
                continue
            written = text[offsets[start]:offsets[end - 1] + 1] if text else ""
            if key in STOPWORDS and not (written in self.graph.nodes_by_label
                                         and self._capitalised_word(text, offsets[start], offsets[end - 1] + 1)):
                continue  # "more", but the song "More"
            if len(key) <= 2 and not is_cjk(key[0]) and written not in self._short_labels:
                continue
            out.append((start, end, key))
        return out

    def _capitalised_word(self, text: str, start: int, end: int) -> bool:
        """Whether a common word is written capitalised between lower-case words, as a title is ("includes the song
        *More*"); inside a capitalised run ("I *Was* an Adventuress") it is a piece of a longer name, and the first
        word of a question is capitalised anyway (``capitalised_stopwords``)."""
        before, after = text[:start].split()[-1:], text[end:].split()[:1]
        return (start > 0 and text[start:start + 1].isupper() and not any(w[:1].isupper() for w in before + after)
                and self.rules.on(CAPITALISED_STOPWORDS))

    def _candidates(self, key: str, method: str | None = None, score: float | None = None,
                    entry: _Entry | None = None) -> list[LinkCandidate]:
        e = entry or self.entries[key]
        g = self.graph
        return [LinkCandidate(g.node_ids[v], g.labels[v], score if score is not None else e.score,
                              method or e.method) for v in e.nodes[: self.cfg.top_k]]

    @cached_property
    def speller(self) -> SpellingCorrector:
        """Reads misspelt question words as the label words they nearly spell (built on first use)."""
        return SpellingCorrector(self.entries, STOPWORDS, self.cfg.typo_two_edits_from)

    def link(self, question: str, overrides: dict[str, str] | None = None) -> tuple[list[Mention], str]:
        """Mentions (longest, non-overlapping) with their linked nodes, and the answer type. A misspelt word
        is read as the label word it nearly spells ("comedain" -> comedian); its mention then keeps the
        question's own offsets, the corrected text and the method "typo"."""
        text, fixes = self.speller.correct(question) if self.cfg.typo_correction and self.rules.on(TYPO_CORRECTION) \
            else (question, ())
        mentions, atype = self._link(text, overrides or {})
        out = []
        for m in mentions:
            start, end = to_original(fixes, m.start, m.end)
            if any(start < f.end and f.start < end for f in fixes):
                m = replace(m, start=start, end=end, chosen=replace(
                    m.chosen, score=round(m.chosen.score * self.cfg.typo_score, 3), method="typo"))
            elif (start, end) != (m.start, m.end):
                m = replace(m, start=start, end=end)
            out.append(m)
        return out, atype

    def unlinked(self, question: str, mentions: list[Mention]) -> list[str]:
        """Names in the question (capitalised runs, quoted titles) that no mention covers: things the graph lacks.

        The question's first word and the answer type are not names ("Which", "Who is the *male actor*"); names
        before its head are ("Which *Sisters of Mercy* album")."""
        at = answer_type(question)
        out = []
        for m in _NAMED.finditer(question):
            text = next(g for g in m.groups() if g)
            s = m.start() + (1 if m.group(0)[0] in "\"“" else 0)
            e = s + len(text)
            if s == 0 or at.covers(s, e) or any(s < c.end and c.start < e for c in mentions):
                continue
            text = re.sub(r"['’]s?$", "", text)  # "Common's": the name is "Common"
            if fold(text) in _TITLE_ARTICLES:  # "made *De groote boulevards*?": a title in sentence case
                rest = _LOWER_RUN.match(question, e)
                if rest and rest.end() > e and not any(e < c.end and c.start < rest.end() for c in mentions):
                    text = question[s:rest.end()]
            if len(fold(text)) < 3 or (fold(text) in STOPWORDS and not self._capitalised_word(question, s, e)):
                continue
            out.append(text)
        if self.rules.on(COMMA_TITLES):  # "Crouching Tiger, Hidden Dragon": one name, not found whole
            out += [question[s:e] for s, e in self.comma_titles(question, mentions) if question[s:e] not in out]
        return out

    def comma_titles(self, question: str, mentions: list[Mention]) -> list[tuple[int, int]]:
        """Spans of the names written across a comma that no mention covers whole, whose words and comma a label spells
        before a subtitle mark ("Crouching Tiger, Hidden Dragon" of "Crouching Tiger, Hidden Dragon: Sword of
        Destiny"): one name the graph has no node for, not a list of its pieces ("Crouching Tiger", "Hidden Dragon").
        A name a label is whole is linked whole by the longest match already; "Canada, Mexico" no label spells so."""
        if "," not in question or not len(self._comma_heads):
            return []
        folded, offsets = fold_with_offsets(question)
        out = []
        for last, head in self._comma_heads.iter(folded):
            start, end = last - len(head) + 1, last + 1
            if (start and folded[start - 1].isalnum()) or (end < len(folded) and folded[end].isalnum()):
                continue  # not at word boundaries
            s, e = offsets[start], offsets[end - 1] + 1
            inside = [m for m in mentions if s <= m.start and m.end <= e]
            if "," in question[s:e] and not any(m.start < e and s < m.end and m not in inside for m in mentions) \
                    and not any((m.start, m.end) == (s, e) for m in inside):
                out.append((s, e))
        return sorted(set(out))

    @cached_property
    def _comma_heads(self):
        """The folded names with a comma that labels spell before a subtitle mark (``comma_titles``), as one
        automaton: a question is scanned once, however many such labels the graph has."""
        heads = {fold(head) for head in (_SUBTITLE_MARK.split(label, 1)[0] for label in set(self.graph.labels)
                                         if "," in label) if "," in head and fold(head)}
        automaton = ahocorasick.Automaton()
        for head in sorted(heads - {""}):
            automaton.add_word(head, head)
        if len(automaton):
            automaton.make_automaton()
        return automaton

    def instances(self, question: str, m: Mention) -> tuple[str, ...]:
        """The labels of the things of the class a definite class word names ("the game" -> Outer Wilds), outside
        the answer type, on a graph read from documents (``THE_CLASS_INSTANCES``); () otherwise. At most
        ``MAX_DESCRIBED``: a description may pick few of many (``described``); without one, more than
        ``MAX_INSTANCES`` stand for none (``build_query_graph``)."""
        g = self.graph
        v = g.index_of.get(m.chosen.node_id) if m.chosen.node_id is not None else None
        owner = re.match(r"['’](?:s\b|\s)", question[m.end:]) is not None and \
            _DEFINITE_OWNER.search(question[:m.start]) is not None  # "was *the team's* home"
        if v is None or v not in self._instances or not g.edge_sources or not self.rules.on(THE_CLASS_INSTANCES) or \
                not question[m.start:m.end].islower() or m.role == "type" or \
                _DEFINITE_BEFORE.search(question[:m.start]) is None and not owner and \
                _SUBJECT_AFTER_COPULA.search(question[:m.start]) is None or \
                m.start < answer_type_span(question)[2]:
            return ()
        members = self._instances.get(v, ())
        return tuple(dict.fromkeys(g.labels[u] for u in members)) if 0 < len(members) <= MAX_DESCRIBED else ()

    def described(self, question: str, m: Mention, instances: tuple[str, ...],
                  others: list[Mention]) -> tuple[tuple[str, ...], tuple[Mention, ...]]:
        """The things of ``instances`` that the names of ``m``'s description ("the 1961 comedy film *produced by
        Franco Cristaldi*") pick out: those joined to the most of them (at least one); and the names of ``others``
        inside the description that every picked thing is joined to, which are then its conditions, not the
        answer's (``DESCRIBED_THINGS``). ``(instances, ())`` when no name of the description is joined to any.
        A named thing whose owner the question asks for ("Which director's film *Family Diary* shared ...") is
        described by the rest of the question (``OWNED_DESCRIBED``): ``((), its names joined to it)``."""
        from .descriptions import description_span
        owned = not instances and self._owned(question, m)
        if not (instances or owned) or not others or \
                not self.rules.on(OWNED_DESCRIBED if owned else DESCRIBED_THINGS):
            return instances, ()
        span = (m.end, len(question)) if owned else description_span(question, m.start, m.end)
        inside = [o for o in others if span is not None and span[0] <= o.start and o.end <= span[1]
                  and (o.end <= m.start or o.start >= m.end)]
        if not inside:
            return instances, ()
        if owned:
            return (), self._picked((m.chosen.label,), inside)[1]
        return self._picked(instances, inside)

    def _picked(self, instances: tuple[str, ...], inside: list[Mention]) -> tuple[tuple[str, ...], tuple[Mention, ...]]:
        """The things of ``instances`` joined to the most of the names ``inside`` (at least one; else all of them),
        and the names every picked thing is joined to."""
        g = self.graph
        named = [{v for x in (o.chosen.label, *self.equivalents(o.chosen.label)) for v in g.nodes_by_label.get(x, ())}
                 for o in inside]  # each name's nodes, its demonym's or its year's dates too
        meets: dict[str, set[int]] = {}
        for label in instances:
            near = {int(x) for v in g.nodes_by_label.get(label, ()) for x in g.neighbors(v).tolist()}
            meets[label] = {i for i, nodes in enumerate(named) if nodes & near}
        most = max(map(len, meets.values()))
        if not most:
            return instances, ()
        picked = tuple(x for x in instances if len(meets[x]) == most)
        shared = set.intersection(*(meets[x] for x in picked))
        return picked, tuple(o for i, o in enumerate(inside) if i in shared)

    def _owned(self, question: str, m: Mention) -> bool:
        """Whether ``m`` names the thing whose owner the question asks for, right after the possessive, perhaps
        after a few lower-case words ("Which pope's 1493 bull *Inter caetera*", "Whose memoir *A Book of Dreams*"),
        on a graph read from documents."""
        lead = _OWNER_ASKED.match(question)
        v = self.graph.index_of.get(m.chosen.node_id)
        return lead is not None and v is not None and bool(self.graph.edge_sources) and m.role != "type" and \
            m.start >= lead.end() and not question[lead.end():m.start].strip("\"“ ") and not self.is_class[v]

    @cached_property
    def _instances(self) -> dict[int, tuple[int, ...]]:
        """Class node -> the nodes an ``is a`` edge (a type relation) files under it."""
        g, out = self.graph, {}
        rels = [i for i, r in enumerate(g.relations) if relation_word(r) in self.lexicon.type_relations]
        for e in np.flatnonzero(np.isin(g.rel, rels)).tolist():
            out.setdefault(int(g.dst[e]), []).append(int(g.src[e]))
        return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}

    def equivalents(self, label: str) -> tuple[str, ...]:
        """The labels of the nodes that meet a condition on ``label`` too: "Dutch" for Netherlands, "France" for
        French (``DEMONYM_EQUIVALENCE``); "26 September 1969" for 1969 (``YEAR_COVERS_DATES``)."""
        same = self._equivalents.get(label, ()) if self.rules.on(DEMONYM_EQUIVALENCE) else ()
        same += self._spelt_otherwise.get(label, ()) if self.rules.on(SPELLING_VARIANTS) else ()
        return same + (self._dates_in.get(label, ()) if self.rules.on(YEAR_COVERS_DATES) else ())

    @cached_property
    def _spelt_otherwise(self) -> dict[str, tuple[str, ...]]:
        """Class label (lower case) -> the graph's labels for it in the other English spelling ("organisation" <->
        "organization", "centre" <-> "center"); only on relations named in plain words, where a text's own words
        name the classes."""
        if not naming_style(self.graph)[1]:
            return {}
        labels = set(self.graph.nodes_by_label)
        out: dict[str, list[str]] = {}
        for label in labels:
            if not label.islower() or not label.replace(" ", "").isalpha():
                continue
            head, _, last = label.rpartition(" ")
            words = [_SPELT_BOTH_WAYS[last]] if last in _SPELT_BOTH_WAYS else []
            words += [last[:-len(a)] + b for a, b in _SPELLINGS_BOTH_WAYS
                      if last.endswith(a) and len(last) - len(a) >= 3]
            for word in words:
                other = f"{head} {word}".strip()
                if other in labels:
                    out.setdefault(label, []).append(other)
        return {label: tuple(dict.fromkeys(xs)) for label, xs in out.items()}

    @cached_property
    def _dates_in(self) -> dict[str, tuple[str, ...]]:
        """Year label -> the graph's date labels in that year ("26 September 1969", "September 1969"), where the
        graph has a node for the year itself or not; only on relations named in plain words (documents, Wikidata
        extracts), whose dates are written out as the text wrote them."""
        out: dict[str, list[str]] = {}
        if not naming_style(self.graph)[1]:
            return {}
        for label in dict.fromkeys(self.graph.labels):
            found = _DATE_IN_YEAR.fullmatch(label)
            if found:
                out.setdefault(found.group(1), []).append(label)
        return {year: tuple(xs) for year, xs in out.items()}

    @cached_property
    def _equivalents(self) -> dict[str, tuple[str, ...]]:
        """Country label -> its demonym's label, for the lexicon's demonyms whose two nodes the graph holds (the
        country under its lexicon label or a short form of it: "United States" for United States of America). Only
        on relations named in plain words, where an extractor writes either form for one nationality ("Dutch
        representative"); a path-named curated graph (FB15k-237) types "Irish" as a language, "Russian" as an
        ethnicity. A demonym node some relation names a language of ("language", "spoken") is left alone: "English"
        the language is not the people of England. One way only: a graph's "Polish" node (a nationality) is no
        proof of a place in Poland (both ways, synth-dev wrong exact answers rose 6 -> 8)."""
        g, out = self.graph, {}
        if not self.lexicon.demonyms or not naming_style(g)[1]:
            return out
        language = {w for w in self.lexicon.language_words if w not in STOPWORDS}
        for demonym, country in self.lexicon.demonyms.items():
            people = g.nodes_by_label.get(demonym)
            lands = [v for name in [country] + _auto_aliases(country) for v in g.nodes_by_label.get(name, ())]
            if people and lands and not any(_says_language(g, v, language) for v in people):
                for land in dict.fromkeys(g.labels[v] for v in lands):
                    out.setdefault(land, []).append(demonym)
        return {label: tuple(dict.fromkeys(xs)) for label, xs in out.items()}

    def knows(self, name: str) -> bool:
        """Whether some node of the graph is named (or aliased) ``name``."""
        return fold(name) in self.entries

    def _link(self, question: str, overrides: dict[str, str]) -> tuple[list[Mention], str]:
        at = answer_type(question)
        atype, a_start, a_end = at[:3]
        expanded = self._expand_coordination(question, a_start, a_end)
        mentions: list[Mention] = []
        for t in expanded:
            mentions.extend(self._link_text(t.text, t.start, t.end, a_start, a_end, t.weight, t.of_answer, at.named))
        mentions = self._non_overlapping(mentions, question)
        on = self.rules.on
        mentions = self._fallbacks(question, mentions, at)
        if on(TITLES):
            mentions = self._titles(question, mentions)
        if on(SUBTITLES):
            mentions = self._subtitles(question, mentions)
        if on(RELATION_WORDS_NOT_NAMES):
            mentions = self._without_relation_words(mentions)
        if on(IDIOM_WORDS_NOT_THINGS):
            mentions = [m for m in mentions if not self._idiom_word(question, m, a_end, a_start == a_end)]
        if on(KIN_NOUNS_STATE):
            mentions = [m for i, m in enumerate(mentions) if not self._kin_noun(question, m, mentions[i + 1:], a_end)]
        if on(QUOTED_PIECES_SOFT):
            mentions = _quoted_pieces_soft(question, mentions)
        if on(CATEGORY_PIECES_SOFT):
            mentions = _softened(mentions, [m for m in mentions if _CATEGORY_LEAD.search(question, 0, m.start)])
        if on(NAME_PIECES_SOFT):
            mentions = _name_pieces_soft(question, mentions)
        if on(QUALIFIERS_SOFT):
            mentions = self._qualifiers_soft(question, mentions)
        if on(COMMA_TITLES):
            spans = self.comma_titles(question, mentions)
            mentions = _softened(mentions, [m for m in mentions if any(s <= m.start and m.end <= e for s, e in spans)])
        out = []
        for m in mentions:
            if m.text in overrides:
                v = self.graph.index_of.get(overrides[m.text])
                if v is not None:
                    chosen = LinkCandidate(self.graph.node_ids[v], self.graph.labels[v], 1.0, "override")
                    m = replace(m, chosen=chosen, alternatives=(chosen,) + tuple(a for a in m.alternatives if a.node_id != chosen.node_id))
            out.append(m)
        if not self.rules.on(ONE_MENTION_PER_LABEL):
            return sorted(out, key=lambda m: m.start), atype
        best: dict[str, Mention] = {}  # one mention per node label: the most confident ("United Kingdom", not "British")
        for m in sorted(out, key=lambda m: (-m.chosen.score, m.start)):
            best.setdefault(m.chosen.label, m)
        return sorted(best.values(), key=lambda m: m.start), atype

    def _expand_coordination(self, question: str, a_start: int, a_end: int) -> list[_Text]:
        """The question plus one synthetic text per coordinated item (``a_start``/``a_end``: the answer type's span).

        "the 1988, 2012, and 1984 Summer Olympics" -> "1988 Summer Olympics", ...;
        "screenwriter and film producer from Great Britain" -> "screenwriter from Great Britain";
        "Academy Award for Best Director and Best Actor" -> "Academy Award for Best Actor".
        A synthetic text only links if it is a whole label or alias.
        """
        texts = [_Text(question, 0, len(question))]
        on = self.rules.on
        for m in self._shared_tail.finditer(question) if on(SHARED_TAIL) else ():
            words = m.group(1).split()
            for k in range(1, len(words) + 1):  # "the screenwriter" -> try "screenwriter" too
                head = " ".join(words[-k:])
                start = m.end(1) - len(head)
                texts.append(_Text(f"{head} {m.group(2)}{m.group(3)}", start, m.end(1)))
        texts += self._languages(question) if on(LANGUAGES) else []
        for m in self._class_word.finditer(question) if on(CLASS_WORDS) else ():  # "actress" -> Actor and Female
            if not m.group(1).islower() or (m.start() >= a_end and _NAME_AFTER.match(question, m.end(1))):
                continue  # "Best Actress" is part of a title; "actress Natalie Portman" describes her
            for label in self.lexicon.class_words[m.group(1).lower()]:
                texts.append(_Text(label, m.start(1), m.end(1)))
        # "Who directed ...": a director, as evidence (the word may say no more)
        if _ASKS_WHO.match(question) and on(VERB_CLASSES):
            for m in self._verb_class.finditer(question):
                texts += [_Text(label, m.start(1), m.end(1), 0.5) for label in self.lexicon.verb_classes[m.group(1).lower()]]
        # "American" -> United States of America: weakly, unless it says what the answer is ("Who is the American
        # actor"; not "British" where the lexicon weakens it)
        for m in self._demonym.finditer(question) if on(DEMONYMS) else ():
            of_answer = a_start <= m.start(1) and m.end(1) <= a_end and m.group(1).lower() not in self._weakened
            texts.append(_Text(self.lexicon.demonyms[m.group(1)], m.start(1), m.end(1), 1.0 if of_answer else 0.5,
                               of_answer))
        for m in _TITLE_AND.finditer(question) if on(TITLE_AND) else ():
            texts.append(_Text(m.group(1) + m.group(2), m.start(2), m.end(2)))
        # "television producer and director": a television director
        for m in _SHARED_MODIFIER.finditer(question) if on(SHARED_MODIFIER) else ():
            if m.group(1) not in STOPWORDS and m.group(2) != m.group(3):
                texts.append(_Text(f"{m.group(1)} {m.group(3)}", m.start(3), m.end(3)))
        for m in self._belief.finditer(question) if on(BELIEFS) else ():  # "of Islamic faith" -> Islam, weakly
            texts.append(_Text(self._beliefs[m.group(1).lower()], m.start(1), m.end(1), 0.5))
        for m in _YEAR_LIST.finditer(question) if on(YEAR_LISTS) else ():
            head = m.group(2)  # each item names one: "the 105th and 111th Congresses" -> "105th Congress"
            heads = {head}
            if head.endswith("s"):
                heads.add(head[:-1])  # "Awards" -> "Award"
            if head.endswith("es"):
                heads.add(head[:-2])  # "Congresses" -> "Congress"
            for y in re.finditer(_LIST_ITEM, m.group(1)):
                start = m.start(1) + y.start()
                texts += [_Text(f"{y.group(0)} {h}", start, start + len(y.group(0))) for h in sorted(heads)]
        return texts

    def _languages(self, question: str) -> list[_Text]:
        """ "features English dialogue", "in both Italian and English", "French-speaking" -> X Language.

        A word that names a language in the graph counts as one when a language word (dialogue,
        speaking, in ...) stands within three words of it; "English playwright" stays an adjective.
        """
        template, cues = self.lexicon.language_label, self.lexicon.language_words
        if not template:
            return []
        words = [(m.group(0).lower(), m.start()) for m in re.finditer(r"[\w'’]+", question)]
        folded, offsets = fold_with_offsets(question)
        names = [(offsets[s], offsets[e - 1] + 1) for s, e, _ in self._spans(folded)]
        out = []
        for m in _CAPITALISED.finditer(question):
            label = template.replace("{x}", m.group(0))
            if fold(label) not in self.entries:
                continue
            if any(s <= m.start() and m.end() <= e and e - s > m.end() - m.start() for s, e in names):
                continue  # "Yue Chinese" is a label of its own, not the Chinese language
            i = next(k for k, (_, start) in enumerate(words) if start >= m.start())
            j = i + 1  # "the Latin, Italian, and German languages": the list's other languages are no distance
            while j < len(words) and (words[j][0] in ("and", "or") or fold(template.replace("{x}", words[j][0])) in self.entries):
                j += 1
            if any(w in cues for w, _ in words[max(0, i - 3):i] + words[j:j + 3] if w != m.group(0).lower()):
                out.append(_Text(label, m.start(), m.end()))
        return out

    def _link_text(self, text: str, q_start: int, q_end: int, a_start: int, a_end: int,
                   weight: float = 1.0, of_answer: bool = False, a_named: bool = False) -> list[Mention]:
        """Mentions of labels in ``text``: the question, or a synthetic text read at [q_start, q_end) of it
        (``of_answer``: a synthetic reading that says what the answer is, linked like a class word; ``a_named``: the
        answer type is a name, ``AnswerType.named``)."""
        folded, offsets = fold_with_offsets(text)
        synthetic = q_start != 0 or q_end != len(text)
        out = []
        for start, end, key in self._spans(folded, text, offsets):
            s = q_start if synthetic else offsets[start]
            e = q_end if synthetic else offsets[end - 1] + 1
            entry, unclear = self.entries[key], False
            if key in self._class_alias and not synthetic and (text[s:e].islower() or _GENRE_LIST_END.match(text, e)):
                if not self.is_class[entry.nodes[0]]:
                    entry = self._class_alias[key]  # a lowercase word names the class rather than the proper name
                else:  # two classes answer to this word ("action": Action, Action Film)
                    entry, unclear = self._class_of_answer_type(entry, self._class_alias[key], text[a_start:a_end])
            top = entry.nodes[0]
            is_class = bool(self.is_class[top]) and fold(text[s:e]) not in self.lexicon.loose_type_words
            confidence, role = weight, "entity"
            if synthetic and (is_class or of_answer) and a_start <= s and e <= a_end:  # "actress" -> Actor, Female
                confidence, role = self.cfg.type_confidence, "type"
            elif not synthetic and a_end > a_start and s < a_end and e > a_start and e <= a_end:
                if a_named:  # "Which *National Memorial*": the label spelling the name whole, not its pieces
                    if (s, e) != (a_start, a_end):
                        continue
                    confidence, role = self.cfg.type_confidence, "type"
                elif is_class:  # "male comedian": the answer is a Comedian, firmly
                    confidence, role = self.cfg.type_confidence, "type"
                elif e == a_end and not (self.is_class[top] and fold(text[s:e]) in self.lexicon.loose_type_words):
                    if self.rules.on(TYPE_HEAD_SKIPPED):
                        continue  # the answer-type head ("film", "country") describes UNK, not a constraint
                elif e == a_end:
                    confidence, role = 0.5, "type"  # "Who is the artist": an Artist ranks first, the others stay
                elif text[s].isupper() or text[s].isdigit():
                    confidence = self.cfg.type_confidence  # a named or dated modifier ("Which *Qatari* city", "*1977* album") is a condition
                else:
                    confidence = 0.7  # a modifier that is no class ("comedy film") is a weaker constraint
            if synthetic and fold(text) != key:
                continue
            if is_class and not synthetic and s >= a_end and text[s:e].islower() and _NAME_AFTER.match(text, e) \
                    and self.rules.on(NAME_AFTER_DESCRIBED):
                continue  # "the actor Tom Skerritt": the word describes the name after it
            if key.startswith("the ") and key[4:] in self.entries and text[s:e].islower() and not synthetic \
                    and self.rules.on(THE_TITLE_LOWERCASE):
                continue  # "featuring the piano" is the instrument Piano, not the film The Piano
            score = entry.score * confidence * (0.5 if unclear else 1.0)
            if text[s:e].islower() and not synthetic and not is_class and any(ch.isupper() for ch in self.graph.labels[top]) \
                    and (" " not in key or key.startswith("the ")) and self.rules.on(COMMON_WORD_WEAK):
                score *= 0.5  # a lowercase common word ("film", "music") matching a name: often not a constraint
            cands = self._candidates(key, score=round(score, 3), entry=entry)
            out.append(Mention(text if synthetic else text[s:e], s, e, cands[0], tuple(cands), role))
        return out

    def _qualifiers_soft(self, question: str, mentions: list[Mention]) -> list[Mention]:
        """"Birmingham, Alabama": a name right after another and a comma, joined to a node of that name in the
        graph, says which one is meant; it is no constraint of its own (the answer was born in Birmingham,
        not in Alabama), so it only ranks."""
        g, by_label = self.graph, self.graph.nodes_by_label
        qualifiers = []
        for a, b, c in zip(mentions, mentions[1:], mentions[2:] + [None]):
            if question[a.end:b.start] != ", " or b.role == "type" or a.role == "type" or not b.text[:1].isupper():
                continue
            if _LIST_GOES_ON.match(question, b.end) or (c is not None and question[b.end:c.start] == ", "):
                continue  # "Canada, Mexico, and the United States" is a list
            v = g.index_of.get(b.chosen.node_id)
            if v is not None and any(g.has_edge_between(u, v) for u in by_label.get(a.chosen.label, ())):
                qualifiers.append(b)
        return _softened(mentions, qualifiers)

    def _class_of_answer_type(self, named: _Entry, alias: _Entry, answer_type: str) -> tuple[_Entry, bool]:
        """Of two classes one word names, the one whose label carries the answer type's head word
        ("Which film ... action": Action Film); (entry, unclear) -- unclear when neither or both do."""
        head = singular(fold(answer_type).rsplit(" ", 1)[-1]) if answer_type.strip() else ""
        carries = [x for x in (named, alias) if head and head in fold(self.graph.labels[x.nodes[0]]).split()]
        return (carries[0], False) if len(carries) == 1 else (named, True)

    @staticmethod
    def _non_overlapping(mentions: list[Mention], question: str) -> list[Mention]:
        """Longest span first ("American Beauty" over the "American" it holds), then the longer
        linked text ("screenwriter from Great Britain" over "screenwriter"), then leftmost; a
        mention overlapping a chosen one is dropped."""
        chosen: list[Mention] = []
        for m in sorted(mentions, key=lambda m: (-(m.end - m.start), -len(fold(m.text)), m.start)):
            if not any(m.start < c.end and c.start < m.end and not _two_readings_of_one_word(m, c, question)
                       for c in chosen):
                chosen.append(m)
        return chosen

    def _titles(self, question: str, mentions: list[Mention]) -> list[Mention]:
        """Link a whole title ("X Award for ...") or keep the names inside it soft.

        A label with the same words links the title ("... Actress in a Miniseries or a Movie" ->
        "... Actress - Miniseries or a Movie"; "Primetime Emmy nomination for X" -> "Primetime
        Emmy Award for X"); otherwise the names inside become soft constraints, since they are
        pieces of one name ("Television", "Comedy" in "Golden Globe Award for Best Television
        Series - Musical or Comedy").
        """
        out = list(mentions)
        for t in _TITLE.finditer(question):
            lead = _QUESTION_WORD.match(t.group(0))
            start = t.start() + (lead.end() if lead else 0)
            # "Orson Welles' Academy Award nominations for ...": the title starts after its owner
            owners = list(re.finditer(r"['’]s? ", question[start:question.index(" for ", start)]))
            if owners:
                start += owners[-1].end()
            ends = [t.end()]
            while (more := _TITLE_GOES_ON.match(question, ends[-1])) is not None:
                ends.append(more.end())
            best, end = None, ends[0]
            for stop in ends:
                inner = [m for m in out if start <= m.start and m.end <= stop]
                texts = [question[start:stop]]
                bare = re.sub(rf"(?<=\w){_TITLE_NOUN} for ", " for ", texts[0], count=1)  # "Tony Award for ..."
                if bare != texts[0]:
                    texts.append(bare)
                head = next((m for m in inner if m.start == start), None)
                if head is not None:
                    rest = re.match(rf"{_TITLE_NOUN}( for .*)$", question[head.end:stop])
                    if rest:
                        texts.append(head.chosen.label + rest.group(1))
                for text in texts:
                    hits = _fuzzy_hits(fold(text), self._title_keys, self.cfg.title_floor, 1)
                    if hits and (best is None or hits[0][1] > best[1]):
                        best, end = hits[0], stop
            inner = [m for m in out if start <= m.start and m.end <= end]
            if any(m.start == start and m.end == end for m in inner):
                continue
            if any(m.start < end and start < m.end and m not in inner for m in out):
                continue  # the tail of a longer linked name ("Writers Guild of [America Award for ...]")
            said = fold(question[start:question.index(" for ", start)])
            if not best and not _TITLE_NOUN_END.search(said) and _TITLE_NOUN_END.sub("", said) not in self._title_heads:
                continue  # "worked at Nordvik Bank for Halvard Group": two names, no title
            if best:
                cands = self._candidates(best[0], "fuzzy", round(best[1] / 100, 3))
                out = [m for m in out if m not in inner] + [Mention(question[start:end], start, end, cands[0],
                                                                   tuple(cands))]
            else:
                out = _softened(out, inner)
        return sorted(out, key=lambda m: m.start)

    def _subtitles(self, question: str, mentions: list[Mention]) -> list[Mention]:
        """A quoted subtitle of a series the question names ("the Pirates of the Caribbean films, including
        \"At World's End\"") links the label "Pirates of the Caribbean: At World's End"; the names inside the
        series' name ("Caribbean") are part of those titles, not constraints."""
        folded = fold(question)
        out, series_spans = list(mentions), []
        for q in _QUOTED.finditer(question):
            text = (q.group(1) or q.group(2)).rstrip(",.;:!? ")  # "The Curse of the Black Pearl,"
            start = q.start() + 1
            end = start + len(text)
            if any(m.start <= start and end <= m.end for m in out):
                continue  # linked whole already
            hits = [(series, key) for series, key in self._subtitled.get(fold(text), ())
                    if re.search(rf"\b{re.escape(series)}\b", folded)]
            if len(hits) != 1:
                continue
            series, key = hits[0]
            cands = self._candidates(key, "subtitle", 1.0)
            out = [m for m in out if not (start <= m.start and m.end <= end)] + [
                Mention(text, start, end, cands[0], tuple(cands))]
            series_spans += [(s.start(), s.end()) for s in re.finditer(re.escape(series), question, re.I)]
        out = [m for m in out if not any(s <= m.start and m.end <= e for s, e in series_spans)]
        return sorted(out, key=lambda m: m.start)

    def _without_relation_words(self, mentions: list[Mention]) -> list[Mention]:
        """Drop a one-word mention that names how a nearby mention is connected, not an entity.

        Question writers verbalise relation paths: "Common's official website" is the node
        Official Website reached by ``/common/topic/webpage``, not the rapper Common. A word is
        such a relation word when nearly every edge of the nearby node has it in its relation name.
        """
        out = []
        for m in mentions:
            word = fold(m.text)
            if " " not in word and any(o is not m and _gap(m, o) <= self.cfg.relation_word_gap and word in self._relation_vocabulary(o)
                                       for o in mentions):
                continue
            out.append(m)
        return out

    def _idiom_word(self, question: str, m: Mention, a_end: int, verb_first: bool = False) -> bool:
        """Whether a lowercase mention is a word of the relation, not a thing: the verb that ends the answer type
        ("Which event *saw* ...", not the film Saw), or comes right after the question word (``verb_first``: the
        answer type is empty there, "What *comes* from"), or the bare noun of a light-verb idiom ("took place in",
        "took part in", "gave birth to"). (A word after a possessive is no such word: "known for *his marriage*",
        "*its official website*" name nodes of a knowledge graph.)"""
        said = question[m.start:m.end]
        if not said.islower() or m.role == "type" or m.chosen.method not in ("exact", "alias") or " " in said:
            return False
        if a_end and not question[a_end:m.start].strip() and m.chosen.method == "exact" \
                and (said in IRREGULAR_VERBS or said.endswith("ed") or verb_first):
            # a lexicon alias of the verb says what it means ("married")
            return True
        before = re.search(r"([A-Za-z]+)\s+$", question[:m.start])
        return bool(before and before.group(1).lower() in _LIGHT_VERBS and not re.search(r"[^s]s$", said)
                    and _IDIOM_NOUN_END.match(question, m.end))

    def _kin_noun(self, question: str, m: Mention, later: list[Mention], a_end: int) -> bool:
        """Whether a mention is a kinship noun of the lexicon's ``converse_words`` after the answer type, with a
        determiner before it and "of"/"to" and the next mention after it ("the *father* of both Zarir", "a
        *sister* of X"): the relation to that mention, not a thing ("was *married* to X", a verb, is no noun)."""
        said = question[m.start:m.end]
        if m.start < a_end or not said.islower() or said not in self.lexicon.converse_words or not later:
            return False
        return bool(_DETERMINER_END.search(question, 0, m.start)) and bool(
            _KIN_GAP.fullmatch(question, m.end, min(x.start for x in later)))

    def _relation_vocabulary(self, m: Mention) -> frozenset[str]:
        v = self.graph.index_of.get(m.chosen.node_id)
        if v is None:
            return frozenset()
        if v not in self._rel_vocab:
            edges = self.graph.incident_edges(v)
            words: frozenset[str] = frozenset()
            if edges.size >= self.cfg.relation_vocab_min_edges:
                rels, counts = np.unique(self.graph.rel[edges], return_counts=True)
                share: dict[str, int] = {}
                for r, c in zip(rels.tolist(), counts.tolist()):
                    for w in set(re.findall(r"[a-z]+", self.graph.relations[r].lower())):
                        share[w] = share.get(w, 0) + c
                words = frozenset(w for w, c in share.items() if c >= self.cfg.relation_vocab_share * edges.size)
            self._rel_vocab[v] = words
        return self._rel_vocab[v]

    def _fallbacks(self, question: str, mentions: list[Mention], at: AnswerType) -> list[Mention]:
        """Name-like spans no label matched: fuzzy match, then embedding nearest neighbour."""
        out = list(mentions)
        for m in _NAME_SPAN.finditer(question):
            text = next(g for g in m.groups() if g)
            s = m.start() + (1 if m.group(0)[0] in "\"“" else 0)
            e = s + len(text)
            if any(s < c.end and c.start < e for c in out) or at.covers(s, e):
                continue
            if s == 0 or fold(text) in STOPWORDS or len(fold(text)) < 4:
                continue
            cand = (self._fuzzy(text) if self.rules.on(FUZZY_FALLBACK) else []) or (
                self._embedding(text) if self.rules.on(EMBEDDING_FALLBACK) else [])
            if cand:
                out.append(Mention(text, s, e, cand[0], tuple(cand)))
        for m in re.finditer(r"(?<=\s)[A-Z][\w-]{2,}\b", question) if self.rules.on(SURNAMES) else ():  # (not 's)
            s, e = m.span()
            person = self._surnames.get(fold(m.group()))
            if person is not None and not any(s < c.end and c.start < e for c in out) and not at.covers(s, e):
                cands = self._candidates(person, "surname", self.cfg.alias_score)
                out.append(Mention(m.group(), s, e, cands[0], tuple(cands)))
        for m in _CAPITALISED_PLURAL.finditer(question) if self.rules.on(CAPITALISED_PLURAL) else ():  # "its Bulldogs"
            key = fold(m.group(1))
            entry = self.entries.get(key)
            s, e = m.start(1), m.end()
            if entry is None or entry.method != "exact" or any(s < c.end and c.start < e for c in out):
                continue
            cands = self._candidates(key, "alias", self.cfg.alias_score, entry)
            out.append(Mention(question[s:e], s, e, cands[0], tuple(cands)))
        return sorted(out, key=lambda m: m.start)

    @cached_property
    def _surnames(self) -> dict[str, str]:
        """Folded last word -> the label key of the one person whose name of two to four capitalised words it ends
        (a person: a type edge to "person" or "human"); a word ending several people's names, or a label itself,
        stands for none of them."""
        g = self.graph
        people = {u for label in ("person", "human") for v in g.nodes_by_label.get(label, ())
                  for u in self._instances.get(v, ())}
        found: dict[str, set[str]] = {}
        for v in people:
            words = g.labels[v].split()
            if 2 <= len(words) <= 4 and all(w[:1].isupper() and w[:1].isalpha() for w in words):
                found.setdefault(fold(words[-1]), set()).add(fold(g.labels[v]))
        return {last: next(iter(keys)) for last, keys in found.items()
                if len(keys) == 1 and last not in self.entries and last not in STOPWORDS and next(iter(keys)) in
                self.entries}

    def _fuzzy(self, text: str) -> list[LinkCandidate]:
        if not self._fuzzy_keys:
            return []
        out = []
        for key, score in _fuzzy_hits(fold(text), self._fuzzy_keys, self.cfg.fuzzy_floor, self.cfg.top_k):
            out.extend(self._candidates(key, "fuzzy", round(score / 100 * self.cfg.fuzzy_score, 3))[:1])
        return out

    def _embedding(self, text: str) -> list[LinkCandidate]:
        if self.label_index is None or self.embed is None:
            return []
        scores, ids = self.label_index.search(self.embed([text]), self.cfg.top_k)
        out = []
        for score, lid in zip(scores[0], ids[0]):
            if lid < 0 or score < self.cfg.link_floor:
                continue
            key = fold(self.graph.label_vocab[lid])
            if key in self.entries:
                out.extend(self._candidates(key, "embedding", round(float(score) * self.cfg.embedding_score, 3))[:1])
        return out

    @cached_property
    def _sorted_keys(self) -> list[str]:
        return sorted(self.entries)

    def _prefixed(self, key: str, k: int) -> list[str]:
        """Label keys that continue what was typed ("paul reub" -> "paul reubens"), shortest first: the label
        starts with it, or each typed word starts a word of the label in order."""
        import bisect
        keys = self._sorted_keys
        i = bisect.bisect_left(keys, key)
        starts = []
        while i < len(keys) and keys[i].startswith(key) and len(starts) < 50 * k:
            starts.append(keys[i])
            i += 1
        words = key.split()
        if len(starts) < k and len(words) > 1:
            pattern = re.compile(r"\b" + r"\w*\b.*?\b".join(map(re.escape, words)))
            starts += [x for x in keys if x not in starts and pattern.search(x)][: 50 * k]
        return sorted(starts, key=lambda x: (len(x), x))[:k]

    def search(self, text: str, k: int = 10) -> list[LinkCandidate]:
        """Entity search for the UI, as the user types: the label itself, then labels that continue what was
        typed ("Paul Reub" -> Paul Reubens, not the film "Paul"), then fuzzy and embedding neighbours."""
        key = fold(text)
        out = self._candidates(key) if key in self.entries else []
        if key:
            for hit in self._prefixed(key, k):
                for c in self._candidates(hit, "prefix", 0.95)[:1]:
                    if all(c.node_id != o.node_id for o in out):
                        out.append(c)
        for c in self._fuzzy(text) + self._embedding(text):
            if all(c.node_id != o.node_id for o in out):
                out.append(c)
        if len(out) < k and self._fuzzy_keys:
            for hit, score, _ in process.extract(key, self._fuzzy_keys, scorer=fuzz.WRatio, limit=k):
                for c in self._candidates(hit, "fuzzy", round(score / 100, 3)):
                    if all(c.node_id != o.node_id for o in out):
                        out.append(c)
        return out[:k]


def _fuzzy_hits(text: str, keys: list[str], floor: float, limit: int) -> list[tuple[str, float]]:
    """The ``limit`` keys most like ``text`` (0-100, at least ``floor``), best first, ties by key. Each key scores
    the better of character and token-order similarity: word order counts little ("Best Adapted Screenplay" is
    "Best Screenplay, Adapted")."""
    best: dict[str, float] = {}
    for scorer in (fuzz.ratio, fuzz.token_sort_ratio):
        for key, score, _ in process.extract(text, keys, scorer=scorer, limit=limit, score_cutoff=floor):
            best[key] = max(score, best.get(key, 0.0))
    return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


def _gap(a: Mention, b: Mention) -> int:
    """Characters between two mentions (0 when they touch or overlap)."""
    return max(b.start - a.end, a.start - b.end, 0)


def _quoted_pieces_soft(question: str, mentions: list[Mention]) -> list[Mention]:
    """Names inside a quoted title that matched nothing whole are pieces of it: soft.

    "The Legend of Ron Burgundy" is a film the graph may lack; "Legend" and "Burgundy" are not
    constraints of their own.
    """
    out = list(mentions)
    for q in _QUOTED.finditer(question):
        start, end = q.span(q.lastindex)
        end = start + len(question[start:end].rstrip(" ,.;:!?"))  # American style: '"Howl,"'
        inner = [m for m in out if start <= m.start and m.end <= end]
        if not inner or any(fold(m.text) == fold(question[start:end]) for m in inner):
            continue
        out = _softened(out, inner)
    return out


def _name_pieces_soft(question: str, mentions: list[Mention]) -> list[Mention]:
    """Names inside a longer capitalised name that no mention covers whole are pieces of it: soft ("MTV" in
    "an MTV Movie Award" the graph has no node for). Synthetic readings ("111th United States Congress" read
    at "111th") are not pieces."""
    out = list(mentions)
    for n in _CAPITALISED_RUN.finditer(question):
        start, end = n.span()
        if start == 0:  # "Which Major League Baseball team": the run after the question word
            lead = _QUESTION_WORD.match(n.group(0))
            if lead is None or " " not in n.group(0)[lead.end():] or n.group(0)[lead.end()].isdigit():
                continue  # "Which 2011 South Korean film": a year and a name, not one name
            start = lead.end()
        inner = [m for m in out if start <= m.start and m.end <= end]
        whole = fold(question[start:end])  # "Wimbledon F.C." is whole without its last dot
        if inner and not any(fold(question[m.start:m.end]) == whole for m in inner) \
                and not any(m.start < end and start < m.end and m not in inner for m in out):
            out = _softened(out, [m for m in inner if not _is_reading(m, question)])
    return out


def _softened(mentions: list[Mention], pieces: list[Mention]) -> list[Mention]:
    """``mentions`` with those in ``pieces`` (names inside a longer name) linked softly."""
    return [replace(m, chosen=replace(m.chosen, score=min(m.chosen.score, 0.5))) if m in pieces else m
            for m in mentions]


def unknown_link_notes(overrides: dict[str, str] | None, graph) -> list[str]:
    """A note per link correction naming a node the graph lacks: it is ignored, and the user must know why."""
    return [f"link correction for '{mention}' names no node of this graph (id {node_id!r}); ignored"
            for mention, node_id in sorted((overrides or {}).items()) if node_id not in graph.index_of]
