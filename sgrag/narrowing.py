"""Narrowing the exact set by the question's words: the answer's kind and the relations it states.

Every entity left out is kept with why (``SetApart``); a rule that would leave nothing gives way.
"""
from __future__ import annotations

import re

import numpy as np
from rapidfuzz.distance import Levenshtein

from .extract import parse_edge_source
from .graph import KnowledgeGraph
from .kinds import EVENT, ORGANIZATION, PERSON, PERSON_WORDS, PLACE, names_a_nationality, noun_kind
from .linking import STOPWORDS
from .ranking import Ranker, candidate_arrays
from .rules import RuleSwitches, register
from .schema import asked_precision, asks_for_value, value_precision
from .stated import in_a_clause_of_its_own, owned_thing, through_a_thing
from .textnorm import singular, stem, tokens
from .types import QueryGraph, SetApart

NAMED_NOT_ANSWER = register("named_not_answer", "narrowing", "An entity the question names as a condition is left "
                            "out of the exact set (never an answer to itself).")
QUESTION_WORDS_NOT_ANSWER = register("question_words_not_answer", "narrowing", "An entity whose whole name is "
                                     "words of the question that were not linked (\"Which *peak* ...\" answered by a "
                                     "node named \"Peak\"; a name the linker missed) is left out of the exact set: the "
                                     "question does not ask for its own words.")
UNFIT_EXTRACTED = register("unfit_extracted_relation", "narrowing", "On a graph read from documents, when no edge "
                           "joining the exact set to a condition fits the relation the question states for it (\"died "
                           "in Warsaw\" met only by \"located in\"), nothing is proven: the exact set is emptied and the "
                           "answer is a ranked partial match, said so (curated edges keep any relation).")
CLASS_NOT_ANSWER = register("class_not_answer", "narrowing", "A class node documents made (\"person\": most of its "
                            "edges are 'is a' edges pointing at it) is left out of every answer, even when it is all "
                            "that meets the conditions.")
MISSPELT_NAMED_NOT_ANSWER = register("misspelt_named_not_answer", "narrowing", "On a graph read from documents, a "
                                     "partial answer named like a condition but for one typo in one longer word "
                                     "(\"Noel Nincola\" for \"Noel Nicola\": a document's misspelling made a second "
                                     "node) is that condition, never its answer.")
VALUE_KIND = register("value_kind", "narrowing", "Values (years, dates, numbers) are left out when the question asks "
                      'for a thing (even when none is left, once its answer type names one: "Which *person*"), and '
                      'things when it asks for a value ("In which year"; on a graph read from documents even when '
                      'none is left).')
DATE_PRECISION = register("date_precision", "narrowing", 'On a graph read from documents, a date less precise than '
                          'the question asks for ("On what *date*": 1875, a year), or no date at all ("117 km"), is '
                          'no exact answer: it answers part of the question, and is ranked among the partial matches.')
_PRECISION = {"year": 0, "month": 1, "day": 2}


THROUGH_A_THING = register("through_a_thing", "narrowing", 'A thing the question names between a verb and "of X" '
                           '(or "to", "for": "Who wrote *the theme song* of The Wire?") that no relation joining the '
                           'answers to X states is reported not checked: the answers are joined to X, not shown to '
                           'have made that thing (the query graph holds no node for it).')


OWNED_THING = register("owned_thing", "narrowing", "On a graph read from documents, a thing a name owns after a "
                       "relation (\"the brother of *Hammershøi's wife*\") or qualifies (\"did *the Italian admiral* "
                       "transfer\") that no relation joining the answers to the name states is reported not checked, "
                       "as a thing between (an imported graph's relation may run through it: Freebase's award "
                       "nominations, team rosters).")


CLAUSE_OF_ITS_OWN = register("clause_of_its_own", "narrowing", "A name in a time clause with a subject of its own "
                             "(\"after *the author* died in 1957\") is reported not checked: the clause says it of that "
                             "subject, and the answers are only joined to the name.")


def _states_doing(thing: str, relation: str) -> bool:
    """Whether a relation names the thing and more ("wrote *episode* of" for "wrote an episode of"); one that only
    names it ("theme song of") makes its head that thing, not what made it."""
    words, said = {stem(w) for w in tokens(thing)}, {stem(w) for w in tokens(relation) if w not in STOPWORDS}
    return bool(words & said) and not said <= words


def set_apart(graph: KnowledgeGraph, ranker: Ranker, qg: QueryGraph, candidates: dict[int, dict[str, int]],
              notes: list[str], values: np.ndarray | None = None,
              classes: np.ndarray | None = None) -> tuple[list[SetApart], set[str], dict[str, str]]:
    """Removes from ``candidates`` (the exact set) the entities the question's words still rule out and
    returns them, each with why: named in the question as a condition itself (never an answer to it), a
    value (year, date, number) when the question asks for a thing or the reverse (``values``: per node), clearly
    of another coarse kind than the answer type asks for (``COARSE_KIND``: a person for "Which *league*"), of
    another kind than the answer type names ("Which *award*"), a class node (``classes``: per node), or not
    joined to a constraint by the relation stated next to it ("*released in* Canada"; a weakly linked
    word counts once its relation is stated: "regular *guitar performances*"). A rule that would leave
    nothing gives way. Also returns the weakly linked constraints a stated relation applied, and the constraints whose
    stated relation was not checked (qid -> why: joined, but not shown to meet it as stated). The rules are
    named (``NAMED_NOT_ANSWER`` ..., and the ranker's) and switched by ``ranker.rules``."""
    g = graph
    out: list[SetApart] = []
    stated: set[str] = set()
    unchecked: dict[str, str] = {}

    def drop(gone: np.ndarray, reason: str, note: str) -> None:
        gone = sorted(gone.tolist(), key=lambda v: -int(g.degree[v]))  # best known first
        for v in gone:
            del candidates[v]
            out.append(SetApart(g.node_ids[v], g.labels[v], reason))
        shown = ", ".join(g.labels[v] for v in gone[:5]) + (", ..." if len(gone) > 5 else "")
        notes.append(f"{note} ({shown}): left out of the exact set.")

    nodes, sat = candidate_arrays(qg, candidates)
    named = qg.named_labels
    own = np.array([g.labels[v] in named for v in nodes.tolist()], dtype=bool) & ranker.rules.on(NAMED_NOT_ANSWER)
    if own.any():  # never gives way: what the question names as a condition is not what it asks for
        drop(nodes[own], "named in the question as a condition",
             f"{int(own.sum()):,} of the entities joined to every other constraint {'is' if own.sum() == 1 else 'are'} "
             "named in the question as a condition")
        nodes, sat = nodes[~own], sat[~own]
    if nodes.size and ranker.rules.on(QUESTION_WORDS_NOT_ANSWER):  # never gives way, as above
        echo = np.array(echoes_question(g, qg, nodes.tolist()), dtype=bool)
        if echo.any():
            drop(nodes[echo], "the question's own words", f"{int(echo.sum()):,} of the entities joined to every "
                 f"constraint {'is' if echo.sum() == 1 else 'are'} named by words of the question that were not "
                 "linked as a condition, not what it asks for")
            nodes, sat = nodes[~echo], sat[~echo]
    if classes is not None and nodes.size and ranker.rules.on(CLASS_NOT_ANSWER):  # never gives way: a kind ("person") is not a thing of that kind
        wrong = classes[nodes]
        if wrong.any():
            drop(nodes[wrong], "a class, not a thing", f"{int(wrong.sum()):,} of the entities joined to every "
                 "constraint name a kind of thing (a class node), not a thing")
            nodes, sat = nodes[~wrong], sat[~wrong]
    if values is not None and nodes.size and ranker.rules.on(VALUE_KIND):
        is_value = values[nodes]
        wants = asks_for_value(qg.question, qg.answer_type)
        wrong = ~is_value if wants else is_value
        # a graph read from documents holds the values its text states: there no thing answers "When" either
        if wrong.any() and (not wrong.all() or _names_a_thing(qg, wants) or wants and ranker.partial_by_evidence):
            n = int(wrong.sum())
            drop(nodes[wrong], "not a date or number" if wants else "a date or number, not a thing",
                 f"{n:,} of the {nodes.size:,} entities joined to every constraint "
                 + ("are not values, and the question asks for one" if wants else
                    "are values (years, dates, numbers), and the question asks for a thing"))
            nodes, sat = nodes[~wrong], sat[~wrong]
    asked = asked_precision(qg.question, qg.answer_type) if nodes.size and g.edge_sources and \
        ranker.rules.on(DATE_PRECISION) else None
    if asked is not None:  # never gives way: a year is no date, a length no year
        said = "date" if asked == "day" else asked
        coarse = np.fromiter((_PRECISION.get(value_precision(g.labels[v]) or "", -1) < _PRECISION[asked]
                              for v in nodes.tolist()), dtype=bool, count=nodes.size)
        if coarse.any():
            drop(nodes[coarse], f"not a {said}", f"{int(coarse.sum()):,} of the {nodes.size:,} entities joined to "
                 f"every constraint {'is' if coarse.sum() == 1 else 'are'} no {said} or less precise than the {said} "
                 "the question asks for")
            nodes, sat = nodes[~coarse], sat[~coarse]
    country = ranker.countries_not_asked(qg, nodes)
    if country.any():
        n, said = int(country.sum()), tokens(qg.answer_type)[-1]
        drop(nodes[country], f"a country, not a {said}", f"{n:,} of the {nodes.size:,} entities joined to every "
             f"constraint {'is a country' if n == 1 else 'are countries'}, not a {said}")
        nodes, sat = nodes[~country], sat[~country]
    if nodes.size:
        wrong = ranker.wrong_kind(qg, nodes)
        asked = ranker.asked_kind(qg)
        # gives way when it would leave nothing ("Which singer": NER often calls a person an organisation), unless
        # what is left out is surely of another kind: for a person, a class the text states ("his second album")
        if wrong.all() and asked == PERSON:
            wrong &= ranker.surely_not_person(nodes)
        if wrong.any():
            n = int(wrong.sum())
            said = qg.answer_type if asked and qg.answer_type else qg.question.split()[0].strip("?,")  # "Where" and
            # "Who" have no answer type of their own
            asked = ("an " if asked[:1] in "aeiou" else "a ") + asked if asked else "a person or an organization"
            drop(nodes[wrong], f"not {asked}", f"{n:,} of the {nodes.size:,} entities joined to every constraint "
                 f"{'is' if n == 1 else 'are'} clearly not {asked} (what '{said}' asks for) by the "
                 "kinds read from the documents")
            nodes, sat = nodes[~wrong], sat[~wrong]
    kind = ranker.of_answer_kind(qg.answer_type, nodes)
    if kind is not None:
        n = int((~kind).sum())
        drop(nodes[~kind], f"not of the kind '{qg.answer_type}'",
             f"{n:,} of the {nodes.size:,} entities joined to every constraint {'is' if n == 1 else 'are'} not of "
             f"the kind '{qg.answer_type}' by the graph's relation types")
        nodes, sat = nodes[kind], sat[kind]
    elif nodes.size and (note := unchecked_type(ranker, qg)):
        notes.append(note)
    gone = np.zeros(nodes.size, dtype=bool)
    for j, mask in ranker.reversed_containment(qg, nodes, sat):  # never gives way: read backwards, the edge says the opposite
        label, mask = qg.constraints[j].label, mask & ~gone
        if mask.any():
            drop(nodes[mask], f"holds {label}, not in it", f"{int(mask.sum()):,} of the entities joined to every "
                 f"constraint {'holds' if mask.sum() == 1 else 'hold'} {label} rather than lying in it")
            gone |= mask
    nodes, sat = nodes[~gone], sat[~gone]
    clauses = in_a_clause_of_its_own(qg) if nodes.size and ranker.rules.on(CLAUSE_OF_ITS_OWN) else {}
    # how the relations the question states fit, on a graph read from documents: for the check below, and for a
    # single entity's "not checked" (computed once: nodes and sat stay as they are until then unless all go)
    fits = ranker.fitting_relations(qg, nodes, sat) if nodes.size and g.edge_sources and (
        ranker.rules.on(UNFIT_EXTRACTED) or nodes.size < 2) else []
    if ranker.rules.on(UNFIT_EXTRACTED):
        for j, phrase, mask in fits:
            if mask is None and nodes.size and qg.constraints[j].qid not in clauses and _all_extracted(
                    g, ranker._edges_to_label(nodes, sat[:, j], qg.constraints[j].labels)[0]):
                drop(nodes, f"no extracted relation fits '{phrase}'", f"No relation read from the documents fits "
                     f"'{phrase}' for {qg.constraints[j].label}, so nothing is proven to meet it")
                nodes, sat = nodes[:0], sat[:0]
    things = through_a_thing(qg) if nodes.size and ranker.rules.on(THROUGH_A_THING) else {}
    if nodes.size and g.edge_sources and ranker.rules.on(OWNED_THING):
        things = owned_thing(qg) | things
    for j, c in enumerate(qg.constraints):
        if c.qid in clauses and (sat[:, j] >= 0).all():
            said = clauses[c.qid]
            notes.append(f"Not checked: {c.label} is said of {said} in a clause of its own, not of the answer; the "
                         f"answers are joined to {c.label}, not shown to meet that clause.")
            unchecked[c.qid] = (f"the question says {c.label} of {said}, in a clause of its own, so only a relation "
                                f"of the answer to {c.label} counted")
            continue
        thing = things.get(c.qid)
        if thing is not None and (sat[:, j] >= 0).all():
            eids, _ = ranker._edges_to_label(nodes, sat[:, j], c.labels)
            if not any(_states_doing(thing, g.relations[r]) for r in set(g.rel[eids].tolist())):
                notes.append(f"Not checked: the {thing} of {c.label} is a thing between the answer and {c.label}; "
                             f"the answers are joined to {c.label}, not shown to be joined to that thing.")
                unchecked[c.qid] = (f"the question asks about the {thing} of {c.label}, a thing between the answer "
                                    f"and it that the query does not hold, so only a relation to {c.label} counted")
    if nodes.size < 2:  # nothing to choose between; on a graph read from documents, whose relations are the text's
        #                   words, a relation the question states that none of them states is still said
        for j, phrase, mask in fits if nodes.size else ():
            if qg.constraints[j].qid not in clauses and mask is not None and mask.all():
                _not_checked(qg, j, phrase, notes, unchecked)
        return out, stated, unchecked
    for j, c in enumerate(qg.constraints):  # a soft constraint: the node it was linked to, joined or not
        if (sat[:, j] < 0).all() and c.node_id in g.index_of:
            sat[:, j] = g.index_of[c.node_id]
    keep = np.ones(nodes.size, dtype=bool)

    def joined_by(j: int, mask: np.ndarray, how: str) -> None:
        """Keeps the members ``mask`` says are joined to constraint j as the question states (``how``), unless
        that would leave nothing or change nothing."""
        nonlocal keep
        if (keep & mask).any() and (keep & ~mask).any():
            label, n = qg.constraints[j].label, int((keep & ~mask).sum())
            drop(nodes[keep & ~mask], f"not joined to {label} by a relation {how}",
                 f"{n:,} {'entity is' if n == 1 else 'entities are'} not joined to {label} by a relation {how}")
            keep &= mask
            stated.add(qg.constraints[j].qid)

    for j, phrase, mask in ranker.fitting_relations(qg, nodes, sat):
        if qg.constraints[j].qid in clauses:
            continue  # the clause's own verb, not the answer's relation
        if mask is None:
            notes.append(f"No relation of the graph fits '{phrase}' for {qg.constraints[j].label}: any relation to "
                         "it counts.")
        elif mask.all():  # a verb after the name that no relation states ("Where does the Douro *rise*?")
            _not_checked(qg, j, phrase, notes, unchecked)
        else:
            joined_by(j, mask, f"that fits '{phrase}'")
    for j, word, mask in ranker.stated_relations(qg, nodes, sat):
        joined_by(j, mask, f"'{word}' names")
    return out, stated, unchecked


def unchecked_type(ranker: Ranker, qg: QueryGraph) -> str:
    """What the answer says of an answer type nothing in the graph names ("Which *lighthouse*" where no class node
    nor relation kind does), exact set or partial matches: only its coarse kind was checked, or nothing; else ""."""
    if ranker.can_check_kind(qg.answer_type) or any(c.mention is not None and c.mention.role == "type"
                                                    for c in qg.constraints):
        return ""
    coarse = ranker.asked_kind(qg)
    if coarse is not None:
        return (f"Nothing in the graph names the kind '{qg.answer_type}': only its coarse kind ({coarse}) was "
                "checked, from the kinds read from the documents; the answer type otherwise only ranks.")
    return (f"Nothing in the graph says which entities are a '{qg.answer_type}' (no class node nor relation kind "
            "names it): the answer type was not checked and only ranks.")


def _not_checked(qg: QueryGraph, j: int, phrase: str, notes: list[str], unchecked: dict[str, str]) -> None:
    """Says that constraint j's stated relation (``phrase``) was not checked: no relation of the graph states it."""
    label = qg.constraints[j].label
    notes.append(f"Not checked: no relation of the graph states '{phrase}' for {label}, so any relation to it counts.")
    unchecked.setdefault(qg.constraints[j].qid, f"no relation of the graph states '{phrase}' for {label}, so any "
                         "relation to it counted")


def narrow_partial(graph: KnowledgeGraph, rules: RuleSwitches, qg: QueryGraph, candidates: dict[int, dict[str, int]],
                   values: np.ndarray | None = None, classes: np.ndarray | None = None) -> None:
    """Removes from the partial candidates what the question's words rule out as for the exact set: a class node,
    a condition's own name, the question's own words, and a value when it asks for a thing or the reverse (a value
    gives way when it would leave nothing; a thing never answers a question asking for a value)."""
    named = qg.named_labels
    nodes = list(candidates)
    echo = echoes_question(graph, qg, nodes) if rules.on(QUESTION_WORDS_NOT_ANSWER) else [False] * len(nodes)
    misspelt = bool(graph.edge_sources) and rules.on(MISSPELT_NAMED_NOT_ANSWER)
    for v, said in zip(nodes, echo):
        if (classes is not None and classes[v] and rules.on(CLASS_NOT_ANSWER)) or said \
                or (graph.labels[v] in named and rules.on(NAMED_NOT_ANSWER)) \
                or (misspelt and any(one_typo_apart(graph.labels[v], x) for x in named)):
            del candidates[v]
    if values is not None and rules.on(VALUE_KIND) and candidates:
        wants = asks_for_value(qg.question, qg.answer_type)
        wrong = [v for v in candidates if bool(values[v]) != wants]
        # a thing never answers "On what date", nor a value "Which person": no answer says more
        if len(wrong) < len(candidates) or wants or _names_a_thing(qg, wants):
            for v in wrong:
                del candidates[v]


def _names_a_thing(qg: QueryGraph, wants_value: bool) -> bool:
    """Whether the answer type names a kind of thing no year or number can be ("Which *person*", "Which *city*",
    "Which *battle*"), or gives it a nationality ("Which *German* count"): then a value never answers, even when
    nothing else is joined to the conditions. A work may be titled by a number ("1917"), and a bare "What ..." says
    nothing: there a value gives way."""
    words = tokens(qg.answer_type)
    if wants_value or not words:
        return False
    head = singular(words[-1])
    return head in PERSON_WORDS or noun_kind(head) in _NEVER_NUMBERS or names_a_nationality(words[:-1])


_NEVER_NUMBERS = frozenset({PERSON, ORGANIZATION, PLACE, EVENT})


def unmet_reversed(ranker: Ranker, qg: QueryGraph, candidates: dict[int, dict[str, int]]) -> None:
    """Takes from each partial candidate the conditions it meets only the wrong way round (``reversed_containment``:
    "in Olesno County" met by "Olesno County located in" the candidate); one left meeting none is dropped."""
    if not candidates:
        return
    nodes, sat = candidate_arrays(qg, candidates)
    for j, mask in ranker.reversed_containment(qg, nodes, sat):
        for v in nodes[mask].tolist():
            candidates[v].pop(qg.constraints[j].qid, None)
            if not candidates[v]:
                del candidates[v]


def one_typo_apart(a: str, b: str, min_len: int = 5) -> bool:
    """Whether two names differ by one edit in one word of at least ``min_len`` letters in both ("Noel Nincola",
    "Noel Nicola"), the other words the same: a misspelling, not a sequel ("Rocky II") nor another name."""
    wa, wb = a.casefold().split(), b.casefold().split()
    if len(wa) != len(wb) or wa == wb:
        return False
    diff = [(x, y) for x, y in zip(wa, wb) if x != y]
    return len(diff) == 1 and min(map(len, diff[0])) >= min_len and Levenshtein.distance(*diff[0]) == 1 \
        and diff[0][0].isalpha() and diff[0][1].isalpha()


def _all_extracted(graph: KnowledgeGraph, edges: np.ndarray) -> bool:
    """Whether every one of ``edges`` was read from a document sentence (a curated edge keeps any relation)."""
    return all(any(parse_edge_source(x) is not None for x in graph.edge_sources.get(e, ())) for e in edges.tolist())


def echoes_question(graph: KnowledgeGraph, qg: QueryGraph, nodes: list[int]) -> list[bool]:
    """Per node, whether its whole name is words of the question outside the conditions' mentions, or a
    common word (no capital) anywhere in it (``QUESTION_WORDS_NOT_ANSWER``; "Sydney" inside "University of
    Sydney" is not an echo, "university" inside "Harvard University" is)."""
    text = list(qg.question)
    for m in qg.condition_mentions:
        text[m.start:m.end] = "|" * (m.end - m.start)
    outside, whole = _words("".join(text).replace("|", " | ")), _words(qg.question)
    out = []
    for v in nodes:
        label = graph.labels[v]
        name = [w for w in _words(label) if w != "|"]
        out.append(_inside(name, outside) or (label == label.lower() and _inside(name, whole)))
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"\w+|\|", text.casefold())


def _inside(name: list[str], question: list[str]) -> bool:
    """Whether the words of ``name`` occur, in order and together, among the question's words."""
    k = len(name)
    return k > 0 and any(question[i:i + k] == name for i in range(len(question) - k + 1))


def met_through(graph: KnowledgeGraph, qg: QueryGraph, candidates: dict[int, dict[str, int]],
                answers: list) -> list[str]:
    """One note per condition an answer meets through another label than its own (``QueryNode.also``): "'Netherlands'
    is met through 'Dutch' for Edsilia Rombley", so the reader sees which node stood for the one named."""
    out = []
    for r in answers:
        bound = candidates.get(graph.index_of.get(r.node_id, -1), {})
        for c in qg.constraints:
            v = bound.get(c.qid)
            if v is not None and graph.labels[v] != c.label and graph.labels[v] in c.labels:
                why = ("a date in that year: rule year_covers_dates" if re.fullmatch(r"\d{4}", c.label)
                       else f"a {c.label} the question names: rule the_class_instances" if graph.labels[v] in c.instances
                       else "the same nationality: rule demonym_equivalence")
                out.append(f"'{c.label}' is met through '{graph.labels[v]}' ({why}) for {r.label}.")
    for c in qg.constraints:
        if c.described_by:
            said = ", ".join(f"'{qg.question[d.start:d.end]}'" for d in c.described_by)
            one = len(c.described_by) == 1
            out.append(f"{said} describe{'s' if one else ''} the {c.label}, not the answer: met through "
                       f"{' or '.join(c.instances)} (rule described_things)." if c.instances else
                       f"{said} {'is' if one else 'are'} said of {c.label}, not of the answer: met through it "
                       "(rule owned_described).")
    return out
