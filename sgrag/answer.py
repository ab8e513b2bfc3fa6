"""γ: turn ranked candidates into an answer: the pick, its confidence, the tie-break, the LLM context and answer.

Ranking lives in ``ranking.py``; this module only says what the ranking means.
"""
from __future__ import annotations

import math

from dataclasses import replace

from .errors import SgragError
from .graph import KnowledgeGraph
from .prompts import default_prompts, render_answer_prompt
from .prompts import relation_paragraph as prompt_relation_paragraph
from .ranking import WEIGHTS, firm_constraints
from .types import Answer, Match, QueryGraph, RankedAnswer


UNABLE = "Unable to determine"
FEATURE_WORDS = {"coverage": "satisfies more of the constraints", "soft": "also meets the weakly linked constraints",
                 "type": "matches the answer type", "relation": "has relations that fit the question's wording",
                 "relation_words": "has relations named by the question's words",
                 "prior": "is more specific (fewer connections overall)",
                 "likelihood": "is joined to the constraints by more edges",
                 "kind": "is of the kind the answer type asks for (person, place, ...)",
                 "sentence": "is named in one sentence with more of the conditions"}

MEETING = "that satisfy every condition used"
JOINED = "joined to every condition (a relation the question states not checked)"
"""What the members of an exact set are: proven to meet every condition used, or only joined to each (a verb no
relation of the graph states, so the relation to that condition was not checked)."""


def offline_answer(qg: QueryGraph, ranked: list[RankedAnswer], exact: bool, min_confidence: float,
                   tie_confidence: float = 0.99, weights: dict[str, float] = WEIGHTS,
                   partial_share: bool = False, soft_below: float = 0.0, members: str = MEETING,
                   within: dict[str, str] | None = None) -> Answer:
    """Commit to the top candidate (and any exact tie), or say it cannot be determined.

    When ``exact``, every item of ``ranked`` satisfies every firm constraint: they are the exact
    set, and the confidence is the top one's share under the fitted conditional logit (1.0 only
    when it is the only entity that fits; a tie-break at most ``tie_confidence``). ``weights``: the ranker's, to
    say what broke a tie. ``partial_share``: a partial match's confidence is that share too, and the best one is
    always given with it (partial matches ranked by their evidence, on a graph read from documents: there the
    share is calibrated, and even a share under 0.2 was right a quarter of the time on the Re-DocRED questions);
    otherwise it is the conditions met, discounted by a narrow lead, and under ``min_confidence`` the answer is
    "Unable to determine". ``soft_below``: the linking confidence of a firm condition, the ones the ``document``
    feature counts. ``members``: what the exact set's members are, for the tie-break (``MEETING`` or ``JOINED``);
    ``within``: the first member's label -> the member it lies in, when that put it first.
    """
    if not ranked:
        return Answer(UNABLE, None, False, 0.0, (), (), (), "No candidate is connected to the question's entities.")
    top = ranked[0]
    labels = {n.qid: n.label for n in qg.constraints}
    final = tuple(r.label for r in ranked if abs(r.score - top.score) <= 1e-9 and r.missing == top.missing)
    sat = ", ".join(labels[q] for q in top.satisfied)
    if exact:
        shares = [math.exp(r.score - top.score) for r in ranked]
        n = len(ranked)
        confidence = min(round(1.0 / sum(shares), 4), 1.0 if n == 1 else tie_confidence)
        why = (f"{top.label} is the only entity connected to {sat}." if n == 1 else
               f"{n:,} entities are connected to {sat}; {top.label} is ranked first.")
        return Answer(top.label, top.node_id, True, confidence, tuple(ranked), final, (), why,
                      exact_set=tuple(ranked), tie_break=tie_break(ranked, weights, members, within))
    relaxed = tuple(labels[q] for q in top.missing)
    if partial_share:
        confidence = round(1.0 / sum(math.exp(r.score - top.score) for r in ranked), 4)
    else:
        gap = top.score - ranked[1].score if len(ranked) > 1 else 1.0
        gap = gap if gap >= 0 else 1.0  # the runner-up scores higher but satisfies fewer constraints
        confidence = round(top.features.get("coverage", 0.0) * (0.5 + 0.5 * math.tanh(gap * 5)), 4)
    if confidence < min_confidence and not partial_share:
        return Answer(UNABLE, None, False, confidence, tuple(ranked), (), relaxed,
                      f"The best candidate, {top.label}, satisfies only "
                      f"{len(top.satisfied)} of {len(labels)} constraints.")
    firm = len(firm_constraints(qg, soft_below))
    named = round(top.features.get("document", 0.0) * firm)
    why = f"{top.label} is connected to {sat}." if sat else (
        f"{top.label} is joined to none of the conditions by a fact; a document naming it also names {named} of "
        f"the {firm}." if named else f"{top.label} was the best-ranked candidate.")
    if relaxed:
        why += f" No entity satisfies every constraint; relaxed: {', '.join(relaxed)}."
    return Answer(top.label, top.node_id, False, confidence, tuple(ranked), final, relaxed, why)


def tie_break(exact_set: list[RankedAnswer], weights: dict[str, float] = WEIGHTS, members: str = MEETING,
              within: dict[str, str] | None = None) -> str:
    """In plain words, what put the first member of a tie ahead of the second (``within``: the first member's label
    -> a member it lies in, which put it first: rule ``within_first``)."""
    if len(exact_set) < 2:
        return ""
    first, second = exact_set[0], exact_set[1]
    if within and first.label in within:
        return (f"Tie-break among {len(exact_set):,} entities {members}: {first.label} is ahead of "
                f"{within[first.label]} because it lies in it (the more precise place).")
    gains = sorted(((weights.get(f, 0.0) * (v - second.features.get(f, 0.0)), f) for f, v in first.features.items()),
                   reverse=True)
    reasons = [FEATURE_WORDS.get(f, f) for gain, f in gains if gain > 1e-6][:2]
    if not reasons:
        return (f"Tie-break among {len(exact_set):,} entities {members}: {first.label} and {second.label} score the "
                "same; the order between them is alphabetical.")
    return (f"Tie-break among {len(exact_set):,} entities {members}: {first.label} is ahead of "
            f"{second.label} because it " + " and ".join(reasons) + ".")


def relation_paragraph(matches: list[Match], limit: int = 60) -> str:
    """The paper's answer context from the matched edges (sentences from the prompt templates)."""
    triples = list(dict.fromkeys((e.src_label, e.dst_label, e.description or e.relation)
                                 for m in matches for e in m.edges))
    return prompt_relation_paragraph(default_prompts(), triples[:limit])


def one_hop_context(graph: KnowledgeGraph, qg: QueryGraph, limit: int = 60) -> str:
    """The paper's fallback context when nothing matched exactly: relation sentences of the constraints' 1-hop
    neighbourhoods."""
    g = graph
    triples = []
    for n in qg.constraints:
        v = g.index_of.get(n.node_id)
        if v is None:
            continue
        for e in g.incident_edges(v)[: max(1, limit // max(1, len(qg.constraints)))].tolist():
            triples.append((g.labels[int(g.src[e])], g.labels[int(g.dst[e])], g.relation_text(e)))
    return prompt_relation_paragraph(default_prompts(), triples[:limit])


def llm_answer(llm, question: str, offline: Answer, notes: list[str], members: str = MEETING) -> Answer:
    """Ask the LLM with the paper's answer prompt; it must name one of the candidates, else (or if the call
    fails) the offline answer is kept and ``notes`` says why."""
    try:
        text = llm.complete(render_answer_prompt(offline.context, question), purpose="answer").strip()
    except SgragError as exc:
        notes.append(f"LLM answer failed ({exc}); offline answer kept.")
        return replace(offline, mode="llm->offline")
    allowed = {r.label.lower(): r for r in (offline.exact_set or offline.ranked)}
    pick = allowed.get(text.strip().strip('"').strip().lower())
    if pick is None:
        notes.append(f"LLM answer {text[:80]!r} is not one of the candidate entities; offline answer kept.")
        return replace(offline, mode="llm->offline")
    tie = ""
    if offline.exact_size > 1:
        notes.append(f"The LLM chose {pick.label} among the {offline.exact_size:,} entities {members}.")
        tie = f"Chosen by the LLM among {offline.exact_size:,} entities {members}."
    return replace(offline, text=pick.label, node_id=pick.node_id, final=(pick.label,), mode="llm", tie_break=tie)
