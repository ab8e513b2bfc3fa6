"""The matcher against a brute-force oracle: star queries over seeded random graphs."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgrag import Engine, GraphBuilder
from sgrag.match import Matcher, Retrieval
from sgrag.query import build_query_graph, decompose
from sgrag.types import LinkCandidate, Mention, QueryGraph, QueryNode
from conftest import build_workspace


def random_labelled_graph(seed: int):
    rng = np.random.default_rng(seed)
    b = GraphBuilder()
    for i in range(150):
        b.add_node(f"n{i}", f"Entity {i % 120}")  # some labels repeat
    for _ in range(700):
        s, t = rng.integers(0, 150, 2)
        if s != t:
            b.add_edge(f"n{s}", f"n{t}", f"/r/r{int(rng.integers(3))}/x")
    return b.build()


@pytest.fixture(scope="module", params=[1, 2])
def engine(request, tmp_path_factory):
    g = random_labelled_graph(request.param)
    return Engine.open(build_workspace(tmp_path_factory.mktemp("m") / "ws", g).path)


def oracle(g, constraint_labels):
    """Nodes adjacent to some node of every constraint label (a neighbour is never itself)."""
    out = None
    for lab in constraint_labels:
        adj = {int(u) for v in g.nodes_by_label[lab] for u in g.neighbor_sets[v] if u != v}
        out = adj if out is None else out & adj
    return out or set()


def test_exact_matches_equal_the_oracle_and_verify(engine):
    g = engine.graph
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(60):
        x = int(rng.integers(g.num_nodes))
        nb = g.neighbor_sets[x]
        if nb.size < 2:
            continue
        cons = [int(c) for c in rng.choice(nb, size=min(3, nb.size), replace=False)]
        if len({g.labels[c] for c in cons}) < len(cons):
            continue
        mentions = [Mention(g.labels[c], 0, 0, LinkCandidate(g.node_ids[c], g.labels[c], 1.0, "exact")) for c in cons]
        qg = build_query_graph("Which entity?", mentions, "entity")
        paths = decompose(qg, 1)
        sets, _, searched = engine.matcher.complete_labels(qg, paths, engine.matcher.known_label_sets(qg), 10**6)
        exact, _, _ = engine.matcher.match(qg, paths, sets, searched)
        matches = exact.matches()
        assert len(matches) == len(exact)
        got = {g.index_of[m.binding[qg.target]] for m in matches}
        want = oracle(g, [g.labels[c] for c in cons])
        assert x in got, "a true match was dropped"
        assert got == want
        for m in matches:  # every returned exact match satisfies every query edge in the graph
            for u, v in qg.edges:
                assert g.has_edge_between(g.index_of[m.binding[u]], g.index_of[m.binding[v]])
        checked += 1
    assert checked > 20


def test_partial_match_names_the_unsatisfied_constraint(olympics_engine):
    trace = olympics_engine.ask("Which country is a member of the United Nations, contains Berlin "
                                "and won medals at the 2012 Summer Olympics?")
    assert trace.exact_count == 0 and trace.matches
    best = trace.matches[0]
    assert not best.exact and len(best.missing) == 1
    assert trace.answer.relaxed


# ---- the batched join and verification against brute force ---------------------------------

def _tables_st():
    """1-3 tables over query nodes a..d (each with 1-3 of them), rows over 6 graph nodes."""
    qids = st.lists(st.sampled_from("abcd"), min_size=1, max_size=3, unique=True).map(tuple)
    table = qids.flatmap(lambda q: st.lists(st.lists(st.integers(0, 5), min_size=len(q), max_size=len(q)),
                                            max_size=12).map(lambda rows: (q, np.array(rows, dtype=np.int64)
                                                                           .reshape(-1, len(q)))))
    return st.lists(table, min_size=1, max_size=3)


def brute_join(tables):
    """Every consistent, injective assignment of the tables' query nodes (the oracle)."""
    out = [{}]
    for qids, data in tables:
        out = [{**b, **dict(zip(qids, r))} for b in out for r in data.tolist()
               if all(b.get(q, x) == x for q, x in zip(qids, r))]
    return {tuple(sorted(b.items())) for b in out if len(set(b.values())) == len(b)}


@settings(max_examples=150, deadline=None)
@given(_tables_st())
def test_assemble_equals_a_brute_force_join(tables):
    cols, rows = Matcher(None, {}, None).assemble(None, Retrieval(tables, []))
    got = [tuple(sorted(zip(cols, r))) for r in rows.tolist()]
    assert len(got) == len(set(got)), "bindings are distinct"
    assert set(got) == brute_join(tables)


def _small_graph_st():
    edge = st.tuples(st.integers(0, 9), st.integers(0, 9), st.sampled_from(["r", "s"]))
    return st.tuples(st.lists(st.integers(0, 3), min_size=10, max_size=10), st.lists(edge, min_size=1, max_size=40))


@settings(max_examples=80, deadline=None)
@given(_small_graph_st(), st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3), max_size=25))
def test_verify_equals_checking_each_binding_in_the_graph(spec, rows):
    """A star UNK-{c1, c2}: the vectorised check accepts exactly the bindings a per-binding walk accepts,
    and the evidence slots are that binding's edges."""
    labels, edges = spec
    b = GraphBuilder()
    for i, lab in enumerate(labels):
        b.add_node(f"n{i}", f"L{lab}")
    for s, t, r in edges:
        b.add_edge(f"n{s}", f"n{t}", r)
    g = b.build()
    qg = QueryGraph("q", (QueryNode("x", "UNK"), QueryNode("c1", "L0", "n0"), QueryNode("c2", "L1", "n1")),
                    (("x", "c1"), ("x", "c2")))
    cols = ["c1", "x", "c2"]
    data = np.array(rows, dtype=np.int64).reshape(-1, 3)
    ok, slots = Matcher(g, {}, None).verify(qg, cols, data)
    for i, r in enumerate(data.tolist()):
        bind = dict(zip(cols, r))
        want = (len(set(r)) == 3 and g.labels[bind["c1"]] == "L0" and g.labels[bind["c2"]] == "L1"
                and all(g.has_edge_between(bind[u], bind[v]) for u, v in qg.edges))
        assert bool(ok[i]) == want
        if want:
            for (u, v), (lo, hi) in zip(qg.edges, slots):
                assert g.slot_edges(np.arange(lo[i], hi[i])).tolist() == g.edges_between(bind[u], bind[v])
