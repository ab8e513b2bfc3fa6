"""ψ1/ψ3: linked mentions -> query graph (UNK target + constraints) -> query paths; the LLM query graph.

Linking lives in ``linking.py``, the stated relations in ``stated.py``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from .errors import SgragError
from .linking import MAX_INSTANCES, Linker, answer_type_span
from .rules import ALL_ON, RuleSwitches
from .stated import marked, relation_phrases
from .types import UNK, Mention, QueryGraph, QueryNode, QueryPath


def build_query_graph(question: str, mentions: list[Mention], answer_type: str, source: str = "offline",
                      unlinked: tuple[str, ...] = (), rules: RuleSwitches = ALL_ON,
                      equivalents: Callable[[str], tuple[str, ...]] = lambda label: (),
                      instances: Callable[[str, Mention], tuple[str, ...]] = lambda question, m: (),
                      described: Callable[[str, Mention, tuple[str, ...], list[Mention]],
                                          tuple[tuple[str, ...], tuple[Mention, ...]]] | None = None) -> QueryGraph:
    """ψ1/ψ2: UNK target node q0 joined to one node per linked constraint; ``unlinked``: the names no node
    stands for, kept so the answer reports them; ``equivalents``: label -> the labels that meet it too
    (``Linker.equivalents``); ``instances``: the things a definite class word stands for (``Linker.instances``);
    ``described``: which of them its description picks out, and the names of it met through them, or the names a
    thing whose owner the question asks for is joined to (``Linker.described``): those names are that thing's
    conditions, no node of their own."""
    a_end = answer_type_span(question)[2]
    ordered = sorted(mentions, key=lambda m: m.start)
    things = {id(m): instances(question, m) for m in ordered}
    by: dict[int, tuple[Mention, ...]] = {}
    if described is not None:  # a name belongs to the innermost thing it describes, the later class word's ("the
        taken: set[int] = set()  # headquarters of *the manufacturer acquired by Harald Herlin*"): the last first
        for m in sorted(ordered, key=lambda m: -m.start):
            free = [o for o in ordered if o is not m and id(o) not in taken and not things[id(o)]]
            things[id(m)], by[id(m)] = described(question, m, things[id(m)], free)
            taken.update(id(o) for o in by[id(m)])
        ordered = [m for m in ordered if id(m) not in taken]
    for m in ordered:  # a class of many things no description picks from stands for none of them
        if len(things[id(m)]) > MAX_INSTANCES and not by.get(id(m)):
            things[id(m)] = ()
    phrases = relation_phrases(marked(question, [(d.start, d.end) for ds in by.values() for d in ds]), ordered, a_end,
                               rules)
    nodes = [QueryNode("q0", UNK, None, 1.0, None)]
    edges = []
    for i, m in enumerate(ordered, start=1):
        nodes.append(QueryNode(f"q{i}", m.chosen.label, m.chosen.node_id, m.chosen.score, m,
                               equivalents(m.chosen.label), things[id(m)], by.get(id(m), ())))
        edges.append(("q0", f"q{i}"))
    return QueryGraph(question, tuple(nodes), tuple(edges), answer_type, tuple(phrases), source, tuple(unlinked))


def decompose(qg: QueryGraph, length: int) -> list[QueryPath]:
    """ψ3, the paper's cost-model plan: cover every query edge with paths of ``length``.

    Starts at the highest-degree query node; greedily adds the connected path with least
    edge overlap, then least weight w(p) = -sum of query degrees; keeps the cheapest plan.
    Edges a length-``length`` path cannot cover are covered by single-edge paths. Each path
    is oriented so a node with a known label comes first (the index is keyed on it).
    The plan depends only on the query's shape (node ids, edges, which nodes are known), and
    a few shapes recur across questions and across a question's relaxations: it is memoised.
    """
    key = (tuple(n.qid for n in qg.nodes), qg.edges, frozenset(n.qid for n in qg.nodes if not n.is_unknown), length)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) > 4096:
            _PLANS.clear()
        plan = _PLANS[key] = tuple(_decompose(qg, length))
    return list(plan)


_PLANS: dict[tuple, tuple[QueryPath, ...]] = {}


def _decompose(qg: QueryGraph, length: int) -> list[QueryPath]:
    adj: dict[str, set[str]] = {n.qid: set() for n in qg.nodes}
    for u, v in qg.edges:
        adj[u].add(v)
        adj[v].add(u)
    deg = {q: len(n) for q, n in adj.items()}
    all_paths = _simple_paths(adj, length) if length > 1 else []
    all_paths += [(u, v) for u, v in qg.edges]
    edge_key = lambda a, b: frozenset((a, b))  # noqa: E731
    edges_of = {p: {edge_key(a, b) for a, b in zip(p, p[1:])} for p in all_paths}
    target = {edge_key(u, v) for u, v in qg.edges}
    if not target:
        return []
    start = max(adj, key=lambda q: (deg[q], q))
    weight = lambda p: -float(sum(deg[q] for q in p))  # noqa: E731
    best, best_cost = None, float("inf")
    initial = [p for p in all_paths if start in (p[0], p[-1]) and len(p) == max(len(x) for x in all_paths)] or all_paths
    for first in initial:
        plan, covered, cost = [first], set(edges_of[first]), weight(first)
        while covered != target:
            nodes_in = {q for p in plan for q in p}
            options = [p for p in all_paths if p not in plan and edges_of[p] - covered and nodes_in & set(p)]
            if not options:
                options = [p for p in all_paths if p not in plan and edges_of[p] - covered]
            p = min(options, key=lambda p: (len(edges_of[p] & covered), -len(edges_of[p] - covered), weight(p)))
            plan.append(p)
            covered |= edges_of[p]
            cost += weight(p)
        if cost < best_cost:
            best, best_cost = plan, cost
    known = {n.qid for n in qg.nodes if not n.is_unknown}
    out = []
    for p in best or []:
        if p[0] not in known and p[-1] in known:
            p = tuple(reversed(p))
        out.append(QueryPath(tuple(p), weight(p)))
    return out


def _simple_paths(adj: dict[str, set[str]], length: int) -> list[tuple[str, ...]]:
    out = []
    for start in adj:
        stack = [(start,)]
        while stack:
            p = stack.pop()
            if len(p) == length + 1:
                if p[0] < p[-1]:
                    out.append(p)
                continue
            stack.extend(p + (n,) for n in adj[p[-1]] if n not in p)
    return out


def llm_query_graph(question: str, llm, linker: Linker, prompts=None) -> QueryGraph:
    """ψ1 with the paper's query-to-graph prompt; every non-UNK node normalised to a graph node.

    Raises SgragError (LLMError/ParseError included) when the endpoint fails, the output has
    no UNK node, or no constraint can be linked: the caller then falls back to offline ψ1.
    """
    from .parse import parse_query_graph
    from .prompts import default_prompts, query_graph_messages

    parsed = parse_query_graph(llm.complete(query_graph_messages(prompts or default_prompts(), question),
                                            purpose="query_graph"))
    atype, _, a_end = answer_type_span(question)
    folded_q = question.lower()
    mentions: dict[str, Mention] = {}
    unlinked = []
    for node in parsed.nodes:
        if node.id in parsed.targets:
            continue
        found = linker.search(node.label, k=linker.cfg.top_k)
        if not found or found[0].score < linker.cfg.link_floor * 0.8:
            unlinked.append(node.label)
            continue
        start = folded_q.find(node.label.lower())
        span = (start, start + len(node.label)) if start >= 0 else (len(question), len(question))
        mentions[node.id] = Mention(node.label, span[0], span[1], replace(found[0], method="llm"), tuple(found))
    if not mentions:
        raise SgragError("the LLM query graph has no constraint that matches a graph entity")
    target = parsed.targets[0]
    qid = {target: "q0"}
    ordered = sorted(mentions.items(), key=lambda kv: kv[1].start)
    qid.update({nid: f"q{i}" for i, (nid, _) in enumerate(ordered, start=1)})
    phrases = relation_phrases(question, [m for _, m in ordered], a_end, linker.rules)
    nodes = [QueryNode("q0", UNK)] + [QueryNode(qid[nid], m.chosen.label, m.chosen.node_id, m.chosen.score, m,
                                                linker.equivalents(m.chosen.label)) for nid, m in ordered]
    edges = {tuple(sorted((qid[a], qid[b]))) for a, b in parsed.edges if a in qid and b in qid and a != b}
    for nid, _ in ordered:  # every constraint constrains the target, even if the LLM forgot the edge
        if not any(qid[nid] in e for e in edges):
            edges.add(("q0", qid[nid]))
    return QueryGraph(question, tuple(nodes), tuple(sorted(edges)), atype, tuple(phrases), "llm", tuple(unlinked))
