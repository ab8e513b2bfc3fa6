"""Where the dominance filters prune: label completion at UNK (ψ4), GNN keys alone vs + label signatures.

    python bench/pruning_at_unk.py --workspace W --queries ../shared/data/erqa/fb_erqa_dev.csv [--n 200]

Counts, over every query path of every question, the index entries whose labels match and
those left after the dominance filters, for signature sizes 0 (GNN keys only), 256 and 1024
bits; the answers are identical in every setting (the filters are exact), only the work differs.
"""
from __future__ import annotations

import argparse
import csv
import time

from sgrag import Engine
from sgrag.index import label_signatures


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--queries", required=True)
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args()
    engine = Engine.open(args.workspace)
    with open(args.queries, encoding="utf-8") as fh:
        questions = [r["query"] for r in csv.DictReader(fh)][: args.n]
    answers = None
    print("| signature bits | label-matching | left after dominance | pruned | answers unchanged | seconds |")
    print("|---|---|---|---|---|---|")
    for bits in (0, 256, 1024):
        sig = label_signatures(engine.graph, bits) if bits else None
        for idx in engine.indexes.values():
            idx.node_sig = sig
        semantic = left = 0
        t0 = time.perf_counter()
        got = []
        for q in questions:
            trace = engine.ask(q)
            got.append(trace.answer.text)
            for pm in trace.path_matches:
                semantic += pm.semantic_hits
                left += pm.dominance_hits
        answers = answers or got
        print(f"| {bits} | {semantic:,} | {left:,} | {1 - left / max(semantic, 1):.1%} | {got == answers} | "
              f"{time.perf_counter() - t0:.1f} |")


if __name__ == "__main__":
    main()
