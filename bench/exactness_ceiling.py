"""What the questions' named constraints alone determine, with perfect linking (the ceiling of unlabelled edges).

    python bench/exactness_ceiling.py --workspace W [--oracle ../shared/data/erqa/fb_erqa_dev_oracle.csv]

For each oracle row, the entities adjacent to every named constraint (any relation, either direction: what a query
graph with unlabelled edges can ask) are compared with the oracle's set (one of the gold's relations to each
constraint). Prints the mean Jaccard (overlap scaled as in `eval --oracle` where the oracle lists only 50 others),
how often the gold is adjacent to all, how many determined questions have a single adjacent entity, and Hit@1 of a
uniform pick within the adjacent set.
"""
from __future__ import annotations

import argparse
import csv
import statistics

from common import ERQA  # (also puts the repo on sys.path and sets the offline env)

from sgrag.eval import norm_answer
from sgrag.workspace import Workspace
from sgrag.graph import KnowledgeGraph


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", "-w", required=True)
    ap.add_argument("--oracle", default=str(ERQA / "fb_erqa_dev_oracle.csv"))
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


if __name__ == "__main__":
    main()
