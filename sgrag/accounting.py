"""Every condition accounted for: what became of each thing the question names, and the one-line verdict.

The verdict is the source every view reads (CLI, ``ask --json``, the app's header): "every condition"
only when every named condition was used to select the answer; otherwise "K of M conditions" and
what was not used, and why.
"""
from __future__ import annotations

import re

from .linking import STOPWORDS
from .textnorm import SUPERLATIVE, stem, tokens
from .types import Answer, Condition, QueryGraph, conditions_met, joined_to_every

_LINK_READINGS = {"typo": "a spelling correction", "fuzzy": "a close spelling", "embedding": "a similar name"}


def account(qg: QueryGraph, answer: Answer, firm: set[str], stated: set[str], gave_way: set[str],
            soft_below: float, known=lambda name: False, relations: tuple[str, ...] = (),
            unchecked: dict[str, str] | None = None) -> tuple[Condition, ...]:
    """One ``Condition`` per named thing: each constraint of ``qg`` and each name it could not link.

    ``firm``: the constraints the matcher required; ``stated``: weak ones a stated relation applied to
    the exact set; ``gave_way``: class words demoted to ranking because nothing met every condition;
    ``known(name)``: whether the graph has a node of that name (then it was left out, not missing);
    ``relations``: the relation names of the edges that proved the answer (a description their words say was read);
    ``unchecked``: constraints joined to the answers, whose stated relation was not checked (qid -> why: no relation
    of the graph says it, "Where does the Douro *rise*?" is met by any neighbour; or it goes through a thing the
    query graph does not hold, "wrote *the theme song* of"), so it is not a verified condition.
    """
    unchecked = unchecked or {}
    out, spans = [], []
    best = answer.ranked[0] if answer.ranked and answer.node_id is not None else None
    for n in qg.constraints:
        m = n.mention
        said = qg.question[m.start:m.end] if m is not None and m.end <= len(qg.question) and m.end > m.start \
            else (m.text if m is not None else n.label)
        reading = _LINK_READINGS.get(m.chosen.method) if m is not None else None
        corrected = reading is not None
        read_as = f"read '{said}' as {n.label} ({reading})" if corrected else ""
        met = False
        if answer.exact_set and n.qid in unchecked:
            status = "unchecked"
            why = unchecked[n.qid]
        elif answer.exact_set and (n.qid in firm or n.qid in stated):
            status, why = "used", read_as
        elif answer.exact_set or n.confidence < soft_below or n.qid in gave_way:
            status = "ranks"
            why = ("nothing meets every other condition together with it, so it only ranks the answers"
                   if n.qid in gave_way else
                   f"weakly linked to {n.label} (confidence {n.confidence:.2f}), so it only ranks the answers")
            met = best is not None and not answer.exact_set and n.qid in best.satisfied
            if met:
                why += f" ({answer.text} meets it)"  # as the partial list counts it among what the answer meets
        elif best is not None and n.qid in best.satisfied:
            status, why = "used", read_as
        else:
            status, why = "relaxed", "given up: no entity meets it together with the others"
        if corrected and status != "used":
            why = f"{why}; {read_as}"
        out.append(Condition(said, n.label, status, why, corrected, met=met))
        spans.append((m.start, m.end) if m is not None else (-1, -1))
        things = " or ".join(n.instances)
        for d in n.described_by:  # its description's names hold or fall with it
            of = f"describes the {said}" if things else f"said of {n.label}"
            out.append(Condition(qg.question[d.start:d.end], d.chosen.label, status,
                                 f"{of}: met through {things or 'it'}" if status == "used" else
                                 f"{of}{f' ({things})' if things else ''}; as that condition: {why}", met=met))
            spans.append((d.start, d.end))
    for name in qg.unlinked:
        if known(name):
            out.append(Condition(name, name, "unused", f"the graph has '{name}', but the question's wording did not "
                                                       "make it a condition (read as part of a relation or a longer name)"))
            continue
        # names inside it that only rank are its parts, not conditions of their own ("Crouching Tiger, Hidden Dragon")
        at = [k.start() for k in re.finditer(re.escape(name), qg.question)]
        parts = [i for i, (s, e) in enumerate(spans) if out[i].status == "ranks"
                 and any(a <= s and e <= a + len(name) for a in at)]
        why = f"nothing in the graph is named '{name}'"
        if parts:
            why += " as a whole; " + " and ".join(f"'{out[i].text}'" for i in parts) + " inside it only rank"
        out = [c for i, c in enumerate(out) if i not in parts]
        spans = [x for i, x in enumerate(spans) if i not in parts]
        out.append(Condition(name, "", "not_found", why))
    proving = {stem(w) for r in set(relations) for w in tokens(r)}
    described = _trailing_descriptions(qg)
    for part in described:
        words = {stem(w) for w in tokens(part) if w not in STOPWORDS}
        if not words or 2 * len(words & proving) < len(words):  # "... an award nomination": read as the nominated edge that
            #                                        proved the answer; not "after the victory" by "ceded victory"
            out.append(Condition(part, "", "described", "a description with no name in it: nothing in the graph "
                                                        "was matched to it, so no answer was checked against it"))
    for said in _comparisons(qg, spans, " ".join(described)):
        out.append(Condition(said, "", "compared", "a comparison: the graph holds no measure to compare by, so no "
                                                   "answer was checked against it"))
    return tuple(out)


_DESCRIBED = re.compile(r"\b(?:(?:the|a|an)\s+(?:\w+\s+)*?[a-z]\w{2,}|first|last|earliest|latest|"
                        r"oldest|youngest|largest|biggest|smallest|highest|lowest|longest|shortest|most|least|best|"
                        r"worst)\b.*", re.I)


_SUPERLATIVE = re.compile(rf"\b(?:(?:the|its|their)\s+)?(?:{SUPERLATIVE.pattern}|(?:most|least)\s+[a-z]\w+)\b", re.I)


def _comparisons(qg: QueryGraph, spans: list[tuple[int, int]], described: str) -> list[str]:
    """Superlatives outside the names ("Which island is *the largest* in Lake Titicaca?"): a condition the graph's
    facts cannot check (no edge says which is largest), so the answer must not claim it. One in the trailing
    description (``described``) is already reported with it."""
    out = []
    for m in _SUPERLATIVE.finditer(qg.question):
        inside = any(s <= m.start() < e for s, e in spans if s >= 0)
        if not inside and m.group(0).lower() not in described.lower():
            out.append(m.group(0))
    return out


_PARTS = re.compile(r"\s*[,;]\s*|\s+(?:and|but)\s+")


def _trailing_descriptions(qg: QueryGraph) -> list[str]:
    """The words after the last thing the question names, when they describe something ("is home to *the
    northernmost university in the world*", "won *a gold medal*", "was released *first*"): conditions no name
    stands for, one per coordinated part ("led *the smaller squadron* and *was promoted to vice admiral after the
    victory*"). A relation phrase alone ("Which county is Roper located in?", "... in its crew") is none."""
    ends = [m.end for m in qg.condition_mentions if 0 < m.end <= len(qg.question)]
    ends += [k.end() for name in qg.unlinked for k in re.finditer(re.escape(name), qg.question)]
    if not ends:
        return []
    tail = qg.question[max(ends):].strip().rstrip("?.! ").strip()
    found = _DESCRIBED.search(tail)
    if found is None:
        return []
    parts = [p.strip(" ,") for p in _PARTS.split(tail[found.start():])]
    return [p for k, p in enumerate(parts) if p and (k == 0 or _DESCRIBED.search(p))]


def headline(answer: Answer, conditions: tuple[Condition, ...]) -> str:
    """The verdict in one sentence: how many entities satisfy how many of the named conditions, and what
    was not used or was read differently from how it was written."""
    total, used = len(conditions), sum(c.used for c in conditions)
    which = "every condition" if used == total else f"{used} of {total} conditions"
    n = answer.exact_size
    if n and joined_to_every(conditions):  # joined to every condition, some by a relation not checked
        head = ("Exactly one entity is" if n == 1 else f"{n:,} entities are") + " joined to every condition, but " + \
            "; ".join(c.reason for c in conditions if c.status == "unchecked")
        conditions = tuple(c for c in conditions if c.status != "unchecked")
    elif n == 1:
        head = f"Exactly one entity satisfies {which}"
    elif n > 1:
        head = f"{n:,} entities satisfy {which}"
    elif answer.node_id is not None and total and used == total:  # joined to all, but ruled out by the words
        why = next((x.reason for x in answer.set_apart if x.node_id == answer.node_id), "")
        head = (f"No entity is proven to satisfy every condition; {answer.text} is joined to all {total}, but "
                + (why if why else "some only through facts read with too little confidence to prove them"))
    elif answer.node_id is not None:
        head = (f"No entity satisfies every condition; the best partial match satisfies {conditions_met(conditions)} "
                f"of {total}"
                if total else "No condition of the question was found in the graph")
    else:
        head = ("No entity satisfies the conditions" if total and any(c.label for c in conditions)
                else "No condition of the question was found in the graph")
    notes = []
    unused = [c for c in conditions if not c.used]
    if unused:
        notes.append("not used: " + ", ".join(f"'{c.text}' ({_SHORT[c.status]})" for c in unused))
    fixed = [c for c in conditions if c.corrected and c.used]
    if fixed:
        notes.append("read " + ", ".join(f"'{c.text}' as {c.label}" for c in fixed))
    return head + (" — " + "; ".join(notes) if notes else "") + "."


_SHORT = {"ranks": "only ranks", "relaxed": "relaxed", "not_found": "not found in the graph", "unused": "not linked",
          "described": "not checked: no name in it", "unchecked": "its relation not checked",
          "compared": "not checked: a comparison",
          "used": "used"}
