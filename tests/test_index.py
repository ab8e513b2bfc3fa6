"""The path index against a brute-force scan (oracle) on seeded random graphs."""
import numpy as np
import pytest

from sgrag.config import GNNConfig
from sgrag.embed import HashEmbedder
from sgrag.errors import BuildError
from sgrag.gnn import train_dominance
from sgrag.index import (PathIndex, PathQuery, count_paths, enumerate_paths, label_signatures,
                         query_signature)
from test_gnn import random_graph


@pytest.fixture(scope="module")
def setup():
    g = random_graph(11, 1500, 5000, 1400)  # the hub's group is big enough for an R*-tree
    x = HashEmbedder(16).embed(g.labels)
    enc = train_dominance(g, x, GNNConfig(dim=3, hidden=8, epochs=30, pairs_per_epoch=512), 4096.0)
    return g, enc, PathIndex.build(g, enc.node_dom, 1, 10**7, leaf_capacity=16, node_sig=label_signatures(g, 128),
                                   tree_min=512)


def test_both_orientations_of_every_edge_are_indexed(setup):
    g, _, idx = setup
    stored = {tuple(p) for p in idx.paths.tolist()}
    for e in range(g.num_edges):
        s, t = int(g.src[e]), int(g.dst[e])
        if s != t:
            assert (s, t) in stored and (t, s) in stored


def test_tree_search_equals_brute_force_and_keeps_true_matches(setup):
    g, enc, idx = setup
    assert idx._trees, "expected at least one group over 512 paths"
    rng = np.random.default_rng(5)
    used_tree = 0
    for trial in range(300):
        a = 0 if trial % 3 == 0 else int(rng.integers(g.num_nodes))
        nb = g.neighbor_sets[a]
        if nb.size == 0:
            continue
        v = int(rng.choice(nb))
        cons = [a] + [int(c) for c in rng.choice(g.neighbor_sets[v], size=min(3, g.neighbor_sets[v].size), replace=False)]
        cons = list(dict.fromkeys(cons))
        q = PathQuery([np.array([g.label_id[a]]), None], np.array([1, len(cons)]),
                      np.stack([enc.query_star(a, [None]), enc.query_star(None, cons)]),
                      np.stack([query_signature(g, [], 2), query_signature(g, cons, 2)]))
        rows, stats = idx.search(q)
        oracle, _ = idx.scan(q)
        assert np.array_equal(np.sort(rows), np.sort(oracle))
        assert any(idx.paths[r, 0] == a and idx.paths[r, 1] == v for r in rows), "true match pruned"
        used_tree += stats.used_tree
    assert used_tree > 0


def test_length_two_paths_and_budget():
    g = random_graph(2, 30, 60, 5)
    paths = enumerate_paths(g, 2, 10**6)
    assert paths.shape[0] == count_paths(g, 2)
    assert all(p[0] != p[2] and g.has_edge_between(p[0], p[1]) and g.has_edge_between(p[1], p[2]) for p in paths.tolist())
    with pytest.raises(BuildError, match="over the budget"):
        enumerate_paths(g, 2, 3)


def test_signatures_never_reject_a_sub_star():
    g = random_graph(4, 400, 3000, 300)
    sig = label_signatures(g, 64)
    rng = np.random.default_rng(0)
    for v in range(g.num_nodes):
        nb = g.neighbor_sets[v]
        if nb.size:
            sub = [int(u) for u in rng.choice(nb, size=int(rng.integers(1, nb.size + 1)), replace=False)]
            need = query_signature(g, sub, 1)
            assert ((sig[v] & need) == need).all()
