"""What gives way when nothing satisfies every condition: class words first, then the best partial tiers."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .graph import KnowledgeGraph
from .kinds import country_named
from .rules import register
from .types import QueryGraph

CLASS_WORDS_GIVE_WAY = register("class_words_give_way", "relaxing", "When nothing meets every condition, the "
                                "constraints named by class words give way (one at a time, then all) and only rank.")
PARTIAL_MATCHES = register("partial_matches", "relaxing", "When nothing meets every condition, the candidates "
                           "meeting the most (two best coverage tiers) are ranked instead of no answer.")


DOCUMENT_CANDIDATES = register("document_candidates", "relaxing", "On a graph read from documents, when nothing "
                               "meets every condition, the entities (with a fact of their own) of the document naming "
                               "the most firm conditions (at least two) are partial candidates too, meeting none by an "
                               "edge: a fact its sentences state apart is still in that document. They rank after the "
                               "candidates a fact joins to a condition, unless none of those has as good a document.")


def same_document(graph: KnowledgeGraph, qg: QueryGraph, candidates: dict[int, dict[str, int]],
                  soft_below: float, cap: int) -> None:
    """Adds to ``candidates`` (with no condition met) the entities, with a fact of their own, named by the documents
    that name the most of the question's firm conditions, when those name at least two (``DOCUMENT_CANDIDATES``),
    while fewer than ``cap`` candidates are ranked (one long report names thousands)."""
    from .ranking import documents_naming
    named = documents_naming(graph, qg, soft_below)
    most = max(named.values(), default=0)
    if most < 2:
        return
    for d in sorted(d for d, k in named.items() if k == most):
        for v in graph.nodes_of_document[d]:  # a name no fact was read of is mostly a stray NER span
            if len(candidates) >= cap:
                return
            if v not in candidates and graph.degree[v]:
                candidates[v] = {}


def demoted(qg: QueryGraph, qids: set[str], soft_below: float) -> QueryGraph:
    """The same query with the given constraints linked just below the firm threshold (soft)."""
    weak = round(min(soft_below - 0.01, 0.7), 3)
    nodes = tuple(replace(n, confidence=weak) if n.qid in qids else n for n in qg.nodes)
    return replace(qg, nodes=nodes)


def best_tiers(support: dict[int, dict[str, int]], qg, cap: int, tiers: int | None = 2) -> dict[int, dict[str, int]]:
    """Partial candidates in the ``tiers`` best coverage tiers (None: all, where coverage is only one piece of
    evidence), at most ``cap``, best coverage first (hubs have thousands)."""
    conf = {n.qid: n.confidence for n in qg.constraints}
    cover = {x: round(sum(conf[q] for q in sat), 6) for x, sat in support.items()}
    tiers = sorted(set(cover.values()), reverse=True)[:tiers]
    keep = sorted((x for x in support if cover[x] in tiers), key=lambda x: -cover[x])[:cap]
    return {x: support[x] for x in keep}


def class_words(qg: QueryGraph, graph: KnowledgeGraph, is_class: np.ndarray) -> list[set[str]]:
    """The constraints linked to class nodes, grouped by the word that named them ("actress": Actor,
    Female), in the order they give way: answer-type words (head first), then the others (last first). A nationality
    in the answer type names a country, no class ("Which *South African* runner"): it stays a condition."""
    index_of = graph.index_of
    words: dict[tuple[int, int], set[str]] = {}
    for n in qg.constraints:
        m = n.mention
        if m is not None and m.role == "type" and country_named(n.label) is not None:
            continue
        if m is not None and (m.role == "type" or (n.node_id in index_of and is_class[index_of[n.node_id]])):
            words.setdefault((m.role != "type", -m.start, m.end), set()).add(n.qid)
    return [words[k] for k in sorted(words)]
