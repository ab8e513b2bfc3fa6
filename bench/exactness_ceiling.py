"""What the questions' named constraints alone determine, with perfect linking (the ceiling of unlabelled edges).

    python bench/exactness_ceiling.py --workspace W [--oracle ../shared/data/erqa/fb_erqa_dev_oracle.csv] [--ranked r.jsonl]

For each oracle row, the entities adjacent to every named constraint (any relation, either direction: what a query
graph with unlabelled edges can ask) are compared with the oracle's set (one of the gold's relations to each
constraint). Prints the mean Jaccard (overlap scaled as in `eval --oracle` where the oracle lists only 50 others),
how often the gold is adjacent to all, how many determined questions have a single adjacent entity, and Hit@1 of a
uniform pick within the adjacent set.

With ``--ranked`` (the JSONL of ``sgrag eval``), also the Hit@1 sgrag's own ranking would reach if its exact set
were exactly right: its first-ranked member of the oracle's set, against a lowest-degree pick from the same
members. That bounds what a better set (not a better ranker) can still gain.
"""
from __future__ import annotations

import argparse
import csv
import json
import statistics

from common import ERQA  # (also puts the repo on sys.path and sets the offline env)

from sgrag.eval import norm_answer
from sgrag.workspace import Workspace
from sgrag.graph import KnowledgeGraph


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", "-w", required=True)
    ap.add_argument("--oracle", default=str(ERQA / "fb_erqa_dev_oracle.csv"))
    ap.add_argument("--ranked", help="an `sgrag eval --out` JSONL: score its ranking on the oracle's sets")
    args = ap.parse_args()
    g = KnowledgeGraph.load(Workspace(args.workspace).index_dir() / "graph")
    with open(args.oracle, encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["exact_set_size"].strip()]
    jac, gold_in, singles, uniform = [], 0, 0, 0.0
    for r in rows:
        adjacent = None
        constraint_nodes = [g.nodes_by_label.get(label, []) for label in r["named_constraints"].split(" | ")]
        for nodes in constraint_nodes:
            near = {int(u) for c in nodes for u in g.neighbor_sets[c]}
            adjacent = near if adjacent is None else adjacent & near
        adjacent -= {c for nodes in constraint_nodes for c in nodes}
        got = {norm_answer(g.labels[v]) for v in adjacent}
        members = {norm_answer(r["answer"])} | {norm_answer(x) for x in r["others_in_exact_set"].split(" | ") if x}
        size = int(r["exact_set_size"])
        known = len(got & members)
        if size > len(members):
            known = min(len(got), round(known / len(members) * size))
        jac.append(known / (len(got) + size - known))
        gold = norm_answer(r["answer"]) in got
        gold_in += gold
        singles += size == 1 and len(got) == 1
        uniform += 1 / len(got) if gold else 0.0
    determined = sum(int(r["exact_set_size"]) == 1 for r in rows)
    print(f"{len(rows)} questions: mean Jaccard {statistics.mean(jac):.3f}; gold adjacent to every named constraint "
          f"{gold_in / len(rows):.1%}; determined questions with a single adjacent entity {singles}/{determined}; "
          f"uniform pick within the adjacent set: Hit@1 {uniform / len(rows):.1%}")
    if args.ranked:
        ranked_on_oracle(g, rows, args.ranked)


def ranked_on_oracle(g: KnowledgeGraph, rows: list[dict], ranked_path: str) -> None:
    """Hit@1 of the eval's ranking restricted to the oracle's members (determined / ambiguous / overall)."""
    with open(ranked_path, encoding="utf-8") as fh:
        ranked = {r["query"]: r for r in map(json.loads, fh)}
    degree = {}
    for v, label in enumerate(g.labels):
        key = norm_answer(label)
        degree[key] = min(degree.get(key, 1 << 60), int(g.degree[v]))
    hits = {"ranker": [0, 0], "lowest degree": [0, 0]}  # [determined, ambiguous]
    counts = [0, 0]
    for r in rows:
        got = ranked.get(r["query"])
        if got is None:
            continue
        gold = norm_answer(r["answer"])
        members = {gold} | {norm_answer(x) for x in r["others_in_exact_set"].split(" | ") if x}
        inside = [norm_answer(x) for x in got["exact_set"] if norm_answer(x) in members]
        side = 0 if int(r["exact_set_size"]) == 1 else 1
        counts[side] += 1
        hits["ranker"][side] += bool(inside) and inside[0] == gold
        hits["lowest degree"][side] += bool(inside) and min(inside, key=lambda x: (degree.get(x, 0), x)) == gold
    for name, (det, amb) in hits.items():
        print(f"{name} within (returned set & oracle set): Hit@1 determined {det / max(counts[0], 1):.1%}, "
              f"ambiguous {amb / max(counts[1], 1):.1%}, overall {(det + amb) / max(sum(counts), 1):.1%}")


if __name__ == "__main__":
    main()
