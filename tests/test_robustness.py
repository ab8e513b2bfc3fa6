"""Graceful degradation: deleted evidence edges and spurious constraints."""
from sgrag.robustness import perturb, run_robustness

Q = "Which country contains Paris, is the nationality of Jean Reno, and won medals at the 2012 Summer Olympics?"


def test_perturb_removes_exactly_the_evidence_of_x_constraints(olympics_engine):
    damaged, [p], n = perturb(olympics_engine, [(Q, "France")], deletions=2, spurious=False, seed=1)
    g = olympics_engine.graph
    fr = g.index_of["fr"]
    assert len(p.removed_constraints) == 2 and n == 2
    for label in p.removed_constraints:
        c = g.nodes_by_label[label][0]
        assert not damaged.has_edge_between(fr, c) and g.has_edge_between(fr, c)
    assert damaged.num_edges == g.num_edges - 2


def test_partial_fallback_names_relaxed_constraint_after_deletion(tmp_path, olympics_ws):
    csv = tmp_path / "q.csv"
    csv.write_text(f'query,answer\n"{Q}",France\n')
    summary = run_robustness(olympics_ws, csv, tmp_path / "damaged", deletions=1, limit=None, seed=3)
    assert summary["questions"] == 1 and summary["edges_removed"] == 1
    assert summary["hit@1"] == 1.0 and summary["exact"] == 0.0
    assert summary["answers_naming_relaxed_constraints"] == 1.0


def test_spurious_constraint_is_relaxed(olympics_engine):
    _, [p], _ = perturb(olympics_engine, [(Q, "France")], deletions=0, spurious=True, seed=2)
    assert p.spurious and p.spurious in p.query
    trace = olympics_engine.ask(p.query)
    assert trace.answer.text == "France" and p.spurious in trace.answer.relaxed
