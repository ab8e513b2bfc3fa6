"""Robustness under graph incompleteness (the paper's Table "Robustness under Graph Incompleteness").

For a sample of questions, delete ``x`` of the evidence edges between the gold answer and its
constraints (or add a spurious constraint to the question), rebuild the index on the damaged
graph, and measure Hit@1. The engine should fall back to the best partial match and say which
constraints it could not satisfy.
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

from .config import SgragConfig
from .eval import norm_answer, read_questions, score_row
from .fsutil import atomic_write_json
from .types import Progress, ProgressFn, no_progress
from .workspace import Workspace


@dataclass(frozen=True)
class Perturbation:
    query: str
    gold: str
    removed_constraints: tuple[str, ...]
    spurious: str


def perturb(engine, questions: list[tuple[str, str]], deletions: int, spurious: bool, seed: int = 0):
    """(damaged graph, perturbations): evidence edges of ``deletions`` constraints per question removed."""
    g = engine.graph
    rng = random.Random(seed)
    removed: set[int] = set()
    out = []
    pool = [v for v in range(g.num_nodes) if g.degree[v] >= 2]
    for query, gold in questions:
        trace = engine.ask(query)
        golds = g.nodes_by_label.get(gold, [])
        cons = trace.query_graph.constraints if trace.query_graph else []
        evidence = {}
        for n in cons:
            edges = [e for x in golds for c in g.nodes_by_label.get(n.label, ()) for e in g.edges_between(x, c)]
            if edges:
                evidence[n.label] = edges
        chosen = rng.sample(sorted(evidence), min(deletions, len(evidence)))
        for label in chosen:
            removed.update(evidence[label])
        extra = ""
        if spurious and golds:
            adjacent = {int(u) for x in golds for u in g.neighbor_sets[x]}
            for _ in range(50):
                v = rng.choice(pool)
                if v not in adjacent and v not in golds and "," not in g.labels[v]:
                    extra = g.labels[v]
                    query = query.rstrip(" ?.") + f", and is related to {extra}?"
                    break
        out.append(Perturbation(query, gold, tuple(chosen), extra))
    return g.without_edges(removed), out, len(removed)


def run_robustness(workspace: str | os.PathLike, queries: str | os.PathLike, out_dir: str | os.PathLike,
                   deletions: int = 1, spurious: bool = False, limit: int | None = 200, seed: int = 0,
                   progress: ProgressFn = no_progress, config: SgragConfig | None = None) -> dict:
    """Damage a copy of the workspace graph, rebuild it in ``out_dir`` and evaluate there."""
    from .pipeline import Engine  # robustness drives the public pipeline, it is not a stage

    engine = Engine.open(workspace)
    questions = read_questions(queries, limit)
    progress(Progress("perturb", 0, 1, f"removing evidence for {len(questions)} questions"))
    damaged, perturbed, n_removed = perturb(engine, questions, deletions, spurious, seed)
    progress(Progress("perturb", 1, 1, f"{n_removed} evidence edges removed"))
    cfg = config or Workspace(workspace).config()
    ws = Workspace.create(out_dir, cfg)
    ws.save_source_graph(damaged)
    Engine.build(out_dir, progress, config=cfg)
    damaged_engine = Engine.open(out_dir)
    known = {norm_answer(lab) for lab in damaged_engine.graph.label_vocab}
    rows = []
    for i, p in enumerate(perturbed):
        trace = damaged_engine.ask(p.query)
        row = score_row(p.query, p.gold, trace, damaged_engine.graph, known)
        row.update(removed_constraints=list(p.removed_constraints), spurious=p.spurious,
                   relaxed=list(trace.answer.relaxed) if trace.answer else [])
        rows.append(row)
        progress(Progress("eval", i + 1, len(perturbed), f"{i + 1}/{len(perturbed)} perturbed questions"))
    n = len(rows) or 1
    summary = {"questions": len(rows), "deletions": deletions, "spurious": spurious, "edges_removed": n_removed,
               "hit@1": sum(r["hit"] for r in rows) / n, "recall": sum(r["recall"] for r in rows) / n,
               "exact": sum(r["exact"] for r in rows) / n,
               "answers_naming_relaxed_constraints": sum(bool(r["relaxed"]) for r in rows) / n}
    atomic_write_json(Path(out_dir) / "robustness.json", {"summary": summary, "rows": rows})
    return summary
