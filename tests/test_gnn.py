"""The dominance invariant: for every sub-star s of v's star, o(s) <= o(v) in every dimension."""
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from sgrag import GraphBuilder
from sgrag.config import GNNConfig
from sgrag.embed import HashEmbedder
from sgrag.gnn import pruning_power, train_dominance


def random_graph(seed: int, n: int, m: int, hub_degree: int):
    rng = np.random.default_rng(seed)
    b = GraphBuilder()
    labels = [f"label {i % max(2, n // 2)}" for i in range(n)]  # labels repeat
    for i in range(n):
        b.add_node(str(i), labels[i])
    for _ in range(m):
        s, t = rng.integers(0, n, 2)
        if s != t:
            b.add_edge(str(s), str(t), "r")
    for t in rng.choice(np.arange(1, n), size=min(hub_degree, n - 1), replace=False):
        b.add_edge("0", str(t), "hub")  # node 0 is a hub
    return b.build()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(5, 60), m=st.integers(0, 150), hub=st.integers(0, 59),
       dim=st.integers(1, 6))
def test_no_sub_star_ever_exceeds_its_star(seed, n, m, hub, dim):
    g = random_graph(seed, n, m, hub)
    x = HashEmbedder(16).embed(g.labels)
    enc = train_dominance(g, x, GNNConfig(dim=dim, hidden=8, epochs=5, pairs_per_epoch=64, seed=seed), 4096.0)
    rng = np.random.default_rng(seed)
    for v in range(g.num_nodes):
        nb = g.neighbor_sets[v]
        for _ in range(3):
            k = int(rng.integers(0, nb.size + 1))
            sub = [int(u) for u in rng.choice(nb, size=k, replace=False)] if k else []
            unknown = int(rng.integers(0, nb.size - k + 1))  # neighbours of unknown label
            for center in (v, None):
                q = enc.query_star(center, sub + [None] * unknown)
                assert (q <= enc.node_dom[v]).all(), (v, sub, unknown, center)


def test_hub_star_with_thousands_of_neighbours_keeps_the_invariant():
    g = random_graph(7, 3000, 500, 2999)
    x = HashEmbedder(16).embed(g.labels)
    enc = train_dominance(g, x, GNNConfig(dim=4, hidden=8, epochs=3, pairs_per_epoch=64), 4096.0)
    nb = [int(u) for u in g.neighbor_sets[0]]
    rng = np.random.default_rng(0)
    for k in (1, 10, len(nb) // 2, len(nb) - 1, len(nb)):
        sub = [int(u) for u in rng.choice(nb, size=k, replace=False)]
        assert (enc.query_star(0, sub) <= enc.node_dom[0]).all()
        assert (enc.query_star(None, sub) <= enc.node_dom[0]).all()


def test_training_gives_pruning_power():
    g = random_graph(3, 400, 1500, 50)
    x = HashEmbedder(32).embed(g.labels)
    untrained = train_dominance(g, x, GNNConfig(epochs=0), 4096.0)
    trained = train_dominance(g, x, GNNConfig(epochs=120, pairs_per_epoch=1024), 4096.0)
    assert trained.history[-1]["loss"] < trained.history[0]["loss"]
    assert pruning_power(trained, g) > pruning_power(untrained, g)
    assert pruning_power(trained, g) > 0.3


def test_building_leaves_no_generated_source_file_behind():
    """torch_geometric writes the generated ``propagate`` of each message-passing class to the temporary folder and
    never removes it: one file more per build. The model removes it once loaded."""
    import sys
    from pathlib import Path
    from sgrag.gnn import MonotoneGATConv
    MonotoneGATConv(4, 8)
    module = sys.modules[f"{MonotoneGATConv.__module__}_MonotoneGATConv_propagate"]
    assert module.propagate is MonotoneGATConv.propagate and not Path(module.__file__).exists()
