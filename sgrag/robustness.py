"""Robustness under graph incompleteness (the paper's Table "Robustness under Graph Incompleteness").

For a sample of questions, delete the evidence edges between the gold answer and ``x`` of its
constraints (or add a spurious constraint to the question), rebuild the index on the damaged
graph, and measure Hit@1. Each question sees only its own deletions. The engine should fall
back to the best partial match and say which constraints it could not satisfy.
"""
from __future__ import annotations

import copy
import os
import random
import shutil
from dataclasses import dataclass, replace
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
    removed_edges: frozenset[int] = frozenset()
    evidence_edges: frozenset[int] = frozenset()  # every gold-constraint edge this question relies on


def perturb_questions(engine, questions: list[tuple[str, str]], deletions: int, spurious: bool,
                      seed: int = 0) -> list[Perturbation]:
    """Per question: the evidence edges of ``deletions`` of its constraints to remove, and/or a
    spurious constraint appended to the question."""
    g = engine.graph
    rng = random.Random(seed)
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
        removed = frozenset(e for label in chosen for e in evidence[label])
        extra = ""
        if spurious and golds:
            adjacent = {int(u) for x in golds for u in g.neighbor_sets[x]}
            for _ in range(50):
                v = rng.choice(pool)
                if v not in adjacent and v not in golds and "," not in g.labels[v]:
                    extra = g.labels[v]
                    query = query.rstrip(" ?.") + f", and is related to {extra}?"
                    break
        out.append(Perturbation(query, gold, tuple(chosen), extra, removed,
                                frozenset(e for edges in evidence.values() for e in edges)))
    return out


def isolated_rounds(perturbations: list[Perturbation]) -> list[list[int]]:
    """Group questions so no question's deletions touch another's evidence in the same round.

    Each question must see exactly its own ``x`` deletions (as in the paper, one perturbed graph
    per query); damaging the graph for all questions at once would delete more of the evidence
    of questions that share an answer or a constraint.
    """
    rounds: list[tuple[list[int], set[int], set[int]]] = []  # (members, removed, evidence)
    for i, p in enumerate(perturbations):
        for members, removed, evidence in rounds:
            if not (p.removed_edges & evidence) and not (p.evidence_edges & removed):
                members.append(i)
                removed |= p.removed_edges
                evidence |= p.evidence_edges
                break
        else:
            rounds.append(([i], set(p.removed_edges), set(p.evidence_edges)))
    return [members for members, _, _ in rounds]


def damaged_graph(graph, perturbations: list[Perturbation]):
    return graph.without_edges(set().union(*(p.removed_edges for p in perturbations)))


def run_robustness(workspace: str | os.PathLike, queries: str | os.PathLike, out_dir: str | os.PathLike,
                   deletions: int = 1, spurious: bool = False, limit: int | None = 200, seed: int = 0,
                   progress: ProgressFn = no_progress, config: SgragConfig | None = None) -> dict:
    """Damage copies of the workspace graph (one per round of isolated questions), rebuild each
    under ``out_dir`` and evaluate the round's questions there.

    The damaged indexes train the dominance GNN briefly: pruning only saves work and never
    drops a true match, so answers do not depend on it. Label embeddings are reused.
    """
    from .pipeline import Engine  # robustness drives the public pipeline, it is not a stage

    engine = Engine.open(workspace)
    questions = read_questions(queries, limit)
    progress(Progress("perturb", 0, 1, f"choosing evidence to remove for {len(questions)} questions"))
    perturbed = perturb_questions(engine, questions, deletions, spurious, seed)
    rounds = isolated_rounds(perturbed)
    progress(Progress("perturb", 1, 1, f"{len(rounds)} isolated round(s)"))
    cfg = copy.deepcopy(config or Workspace(workspace).config())
    cfg.gnn.epochs = min(cfg.gnn.epochs, 5)
    src_cache = Workspace(workspace).cache_dir / "embeddings"
    rows: list[dict] = [{}] * len(perturbed)  # in question order; every question is in one round
    n_removed = done = 0
    for k, members in enumerate(rounds):
        damaged = damaged_graph(engine.graph, [perturbed[i] for i in members])
        n_removed += engine.graph.num_edges - damaged.num_edges
        round_dir = Path(out_dir) / f"round_{k:03d}"
        ws = Workspace.create(round_dir, cfg)
        if src_cache.is_dir():
            shutil.copytree(src_cache, ws.cache_dir / "embeddings", dirs_exist_ok=True)
        ws.save_source_graph(damaged)
        Engine.build(round_dir, _prefixed(progress, f"round {k + 1}/{len(rounds)}: "), config=cfg)
        damaged_engine = Engine.open(round_dir)
        known = {norm_answer(lab) for lab in damaged_engine.graph.label_vocab}
        for i in members:
            p = perturbed[i]
            trace = damaged_engine.ask(p.query)
            row = score_row(p.query, p.gold, trace, damaged_engine.graph, known)
            row.update(removed_constraints=list(p.removed_constraints), spurious=p.spurious,
                       relaxed=list(trace.answer.relaxed) if trace.answer else [], round=k)
            rows[i] = row
        done += len(members)
        progress(Progress("eval", done, len(perturbed), f"{done}/{len(perturbed)} perturbed questions"))
    n = len(rows) or 1
    summary = {"questions": len(rows), "deletions": deletions, "spurious": spurious, "edges_removed": n_removed,
               "rounds": len(rounds),
               "hit@1": sum(r["hit"] for r in rows) / n, "recall": sum(r["recall"] for r in rows) / n,
               "exact": sum(r["exact"] for r in rows) / n,
               "answers_naming_relaxed_constraints": sum(bool(r["relaxed"]) for r in rows) / n}
    atomic_write_json(Path(out_dir) / "robustness.json", {"summary": summary, "rows": rows})
    return summary


def _prefixed(progress: ProgressFn, prefix: str) -> ProgressFn:
    return lambda p: progress(replace(p, message=prefix + p.message))
