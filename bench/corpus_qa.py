"""Documents -> graph -> answers on the business-prose corpus (assets/corpus), offline.

Ingests every corpus document into a fresh workspace with the offline extractor, builds
the index and asks each question of ``assets/corpus/questions.csv``; prints each outcome
and the score. "wrong exact" counts answers given as exact that are not the gold answer.

    .venv/bin/python bench/corpus_qa.py [--embed hash|minilm] [--epochs 20] [-v]
"""
from __future__ import annotations

import argparse
import tempfile

from common import ROOT

from sgrag import Engine, SgragConfig, Workspace, ingest
from sgrag.eval import norm_answer, read_questions

CORPUS = ROOT / "assets" / "corpus"


def corpus_engine(ws_dir, embed: str = "hash", epochs: int = 20) -> Engine:
    cfg = SgragConfig()
    cfg.embed.backend = embed
    cfg.gnn.epochs = epochs
    cfg.gnn.pairs_per_epoch = 256
    ws = Workspace.create(ws_dir, cfg)
    report = ingest(ws, [p for p in sorted(CORPUS.iterdir()) if p.name != "questions.csv"], cfg)
    assert not report.failed, report.failed
    Engine.build(ws_dir)
    return Engine.open(ws_dir)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embed", default="hash")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("-v", action="store_true", help="print every question, not only the misses")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = corpus_engine(f"{tmp}/ws", args.embed, args.epochs)
        print(f"graph: {engine.graph.num_nodes} nodes, {engine.graph.num_edges} edges")
        questions = read_questions(CORPUS / "questions.csv")
        right = wrong_exact = 0
        for q, gold in questions:
            ans = engine.ask(q).answer
            ok = norm_answer(ans.text) == norm_answer(gold)
            right += ok
            wrong_exact += (not ok) and ans.exact
            if args.v or not ok:
                print(f"{'OK ' if ok else 'XX '} {q} -> {ans.text!r} (exact={ans.exact}, gold {gold!r})")
        n = len(questions)
        print(f"right {right}/{n} = {right / n:.1%}; wrong exact answers: {wrong_exact}")


if __name__ == "__main__":
    main()
