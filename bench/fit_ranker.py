"""Fit the offline ranker's weights (config section "ranking", ``weights``) as a conditional logit, with k-fold CV.

    python bench/fit_ranker.py --workspace W [--queries CSV] [--also W2=CSV2 ...] [--limit N] [--folds 5] [--write]

Asks every question once, keeps each question's candidates with their features (from the
trace), then maximises log P(gold | candidates) = softmax(w . features) over the questions
whose gold is among the candidates. Prints Hit@1 of the current weights, the cross-validated
Hit@1 of fitted weights (each fold scored by weights fitted on the other folds) and the
weights fitted on all questions; ``--write`` stores those in the workspace's config.json (section
"ranking", written atomically under the workspace's writer lock), so that workspace ranks with its own
weights from the next time it opens. ``--fix coverage=100`` measures the alternative where
satisfying more constraints always outranks the other evidence. Tune on the dev
file only: the held-out ERQA questions are for checking.

``--also W2=CSV2`` (repeatable) pools another workspace's questions, e.g. the graphs of several document sets
and their questions: the cross-validation then leaves one set out at a time (questions on the same documents
are not independent), and prints each set's Hit@1 with the current and the fitted weights.

``--in-edge-weights 0.003,0.01,0.1,1`` instead chooses ``ranking.in_edge_weight`` (how much an edge the
candidate is the tail of counts in ``likelihood``) together with the likelihood's weight: it asks the
questions once per value and prints, per (value, weight), Hit@1, then the pair chosen by k-fold
cross-validation and its held-out Hit@1 (``--write`` stores the pair chosen on all questions).
"""
from __future__ import annotations

import argparse
import dataclasses
import time

from common import ERQA  # (also puts the repo on sys.path and sets the offline env)

import numpy as np
import torch

from sgrag.ranking import FEATURES
from sgrag.eval import norm_answer, read_questions
from sgrag.pipeline import Engine
from sgrag.workspace import Workspace

NAMES = list(FEATURES)


def collect(workspace: str, questions: list[tuple[str, str]], in_edge_weight: float | None = None
            ) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """(features of every ranked candidate, which of them is the gold) per question, and the weights the workspace
    ranks with (those fitted on documents for a graph read from them); ``in_edge_weight`` overrides the workspace's
    for this run."""
    cfg = Workspace(workspace).config()
    cfg = dataclasses.replace(cfg, answer=dataclasses.replace(cfg.answer, max_answers=400, mode="offline"))
    if in_edge_weight is not None:
        cfg = dataclasses.replace(cfg, ranking=dataclasses.replace(cfg.ranking, in_edge_weight=in_edge_weight))
    engine = Engine.open(workspace, cfg)
    out, t0 = [], time.perf_counter()
    for i, (q, gold) in enumerate(questions):
        ranked = engine.ask(q).answer.ranked
        x = np.array([[r.features.get(n, 0.0) for n in NAMES] for r in ranked], dtype=np.float32).reshape(-1, len(NAMES))
        y = np.array([norm_answer(r.label) == norm_answer(gold) for r in ranked], dtype=bool)
        out.append((x, y))
        if (i + 1) % 500 == 0:
            print(f"  asked {i + 1}/{len(questions)} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return out, np.array([engine.ranker.weights[n] for n in NAMES], dtype=np.float32)


def fit(data, fixed: dict[str, float], l2: float = 1e-3) -> np.ndarray:
    """Weights maximising the gold's softmax probability; names in ``fixed`` keep their weight."""
    usable = [(torch.tensor(x), torch.tensor(y)) for x, y in data if y.any()]
    free = torch.zeros(len(NAMES), requires_grad=True)
    mask = torch.tensor([0.0 if n in fixed else 1.0 for n in NAMES])
    fixed = torch.tensor([fixed.get(n, 0.0) for n in NAMES])
    opt = torch.optim.LBFGS([free], max_iter=300, line_search_fn="strong_wolfe")

    def weights():
        return free * mask + fixed

    def closure():
        opt.zero_grad()
        w = weights()
        loss = sum(torch.logsumexp(x @ w, 0) - torch.logsumexp((x @ w)[y], 0) for x, y in usable)
        loss = loss / len(usable) + l2 * ((free * mask) ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return weights().detach().numpy()


def hits(data, w: np.ndarray) -> np.ndarray:
    """Per question, whether its top-scored candidate is the gold (ties go to the first)."""
    return np.array([bool(len(y)) and bool(y[int(np.argmax(x @ w))]) for x, y in data], dtype=bool)


def hit1(data, w: np.ndarray) -> float:
    """Share of all questions whose top-scored candidate is the gold."""
    return float(hits(data, w).mean()) if data else 0.0


def write_ranking(workspace: str, **values) -> None:
    """Stores fitted numbers in the workspace's config.json, section "ranking" (atomic, one writer at a time)."""
    ws = Workspace(workspace)
    with ws.writer("fit_ranker"):
        cfg = ws.config()
        ws.save_config(dataclasses.replace(cfg, ranking=dataclasses.replace(cfg.ranking, **values)))
    print(f"written to {ws.path / 'config.json'} (section \"ranking\"): {', '.join(values)}")


def choose_in_edge_weight(workspace: str, questions, values: list[float], n_folds: int, write: bool) -> None:
    """Grid over (in_edge_weight, likelihood weight) with the other weights as the workspace has them; k-fold CV
    of the choice."""
    scales = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
    like = NAMES.index("likelihood")
    shipped = Workspace(workspace).config().ranking.weights
    right = {}  # (value, scale) -> per question, whether it is answered right
    for value in values:
        data, _ = collect(workspace, questions, value)
        for scale in scales:
            w = np.array([shipped[n] for n in NAMES], dtype=np.float32)
            w[like] *= scale
            right[value, scale] = hits(data, w)
            print(f"in_edge_weight {value:g}, likelihood weight {w[like]:.2f}: Hit@1 {right[value, scale].mean():.4f}",
                  flush=True)
    folds = np.array_split(np.random.default_rng(0).permutation(len(questions)), n_folds)
    held_out = 0
    for k, test in enumerate(folds):
        train = np.concatenate([f for j, f in enumerate(folds) if j != k])
        best = max(right, key=lambda key: (right[key][train].sum(), -abs(key[1] - 1.0)))
        held_out += int(right[best][test].sum())
        print(f"fold {k + 1}: chose in_edge_weight {best[0]:g}, likelihood weight x{best[1]:g}")
    print(f"{n_folds}-fold cross-validated Hit@1 of the chosen pair: {held_out / len(questions):.4f}")
    if write:
        value, scale = max(right, key=lambda key: (right[key].sum(), -abs(key[1] - 1.0)))
        write_ranking(workspace, in_edge_weight=value,
                      weights={**shipped, "likelihood": round(shipped["likelihood"] * scale, 2)})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", "-w", required=True)
    ap.add_argument("--queries", default=str(ERQA / "fb_erqa_dev.csv"))
    ap.add_argument("--also", action="append", default=[], metavar="W=CSV",
                    help="pool another workspace's questions; the cross-validation then leaves one set out")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--fix", action="append", default=[], metavar="NAME=W",
                    help="hold a feature's weight fixed, e.g. --fix coverage=100 (coverage strictly first)")
    ap.add_argument("--in-edge-weights", metavar="A,B,...",
                    help="choose in_edge_weight and the likelihood weight instead of fitting all weights")
    ap.add_argument("--write", action="store_true",
                    help="store the weights fitted on all questions in W/config.json (section \"ranking\")")
    args = ap.parse_args()
    questions = read_questions(args.queries, args.limit or None)
    if args.in_edge_weights:
        choose_in_edge_weight(args.workspace, questions, [float(v) for v in args.in_edge_weights.split(",")], args.folds,
                              args.write)
        return
    fixed = {k: float(v) for k, v in (f.split("=", 1) for f in args.fix)}
    data, current = collect(args.workspace, questions)
    sets = [(args.workspace, data)]
    for pair in args.also:
        workspace, _, path = pair.partition("=")
        sets.append((workspace, collect(workspace, read_questions(path, args.limit or None))[0]))
    data = [q for _, d in sets for q in d]
    print(f"questions: {len(data)}; gold among the candidates: {sum(bool(y.any()) for _, y in data)}")
    print(f"Hit@1 with the current weights: {hit1(data, current):.4f}")
    if len(sets) > 1:  # leave one set out
        start = np.cumsum([0] + [len(d) for _, d in sets])
        folds = [np.arange(start[k], start[k + 1]) for k in range(len(sets))]
    else:
        folds = np.array_split(np.random.default_rng(0).permutation(len(data)), args.folds)
    held_out = 0.0
    for k, test in enumerate(folds):
        train = [data[i] for j, f in enumerate(folds) if j != k for i in f]
        right = hit1([data[i] for i in test], fit(train, fixed)) * len(test)
        held_out += right
        if len(sets) > 1:
            print(f"  {sets[k][0]}: {len(test)} questions, Hit@1 current {hits([data[i] for i in test], current).sum()}, "
                  f"fitted without it {right:.0f}")
    how = "leave-one-set-out" if len(sets) > 1 else f"{args.folds}-fold"
    print(f"{how} cross-validated Hit@1 of fitted weights: {held_out / len(data):.4f}")
    w = fit(data, fixed)
    print(f"Hit@1 of weights fitted on all: {hit1(data, w):.4f}")
    fitted = {n: round(float(v), 2) for n, v in zip(NAMES, w)}
    print("weights = {" + ", ".join(f'"{n}": {v:.2f}' for n, v in fitted.items()) + "}")
    if args.write:
        write_ranking(args.workspace, weights=fitted)


if __name__ == "__main__":
    main()
