"""ERQA-style evaluation: Hit@1, precision, recall, F1, by constraint count and failure cause."""
from __future__ import annotations

import csv
import json
import os
import time
from dataclasses import dataclass, field

from .errors import InputFormatError
from .types import Progress, ProgressFn, QueryTrace, no_progress


def norm_answer(text: str) -> str:
    """Answers compare case-insensitively after stripping quotes and spaces (the ERQA rule)."""
    return text.strip().strip("\"'").strip().lower()


def read_questions(path: str | os.PathLike, limit: int | None = None) -> list[tuple[str, str]]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            if not reader.fieldnames or "query" not in reader.fieldnames or "answer" not in reader.fieldnames:
                raise InputFormatError(str(path), 1, f"expected columns query,answer; got {reader.fieldnames}")
            rows = [(r["query"], r["answer"]) for r in reader]
    except OSError as exc:
        raise InputFormatError(str(path), None, f"cannot open: {exc.strerror or exc}") from exc
    return rows[:limit] if limit else rows


@dataclass
class EvalReport:
    rows: list[dict] = field(default_factory=list)
    traces: list[QueryTrace] = field(default_factory=list)

    @property
    def summary(self) -> dict:
        def agg(rows):
            n = len(rows) or 1
            return {"n": len(rows), "hit@1": sum(r["hit"] for r in rows) / n,
                    "precision": sum(r["precision"] for r in rows) / n,
                    "recall": sum(r["recall"] for r in rows) / n, "f1": sum(r["f1"] for r in rows) / n,
                    "exact": sum(r["exact"] for r in rows) / n}
        by_k: dict[int, list] = {}
        causes: dict[str, int] = {}
        for r in self.rows:
            by_k.setdefault(r["constraints"], []).append(r)
            causes[r["failure"] or "correct"] = causes.get(r["failure"] or "correct", 0) + 1
        return {"overall": agg(self.rows), "by_constraints": {k: agg(v) for k, v in sorted(by_k.items())},
                "failures": causes,
                "latency_ms_p50": _pct([r["timings_ms"].get("total", 0) for r in self.rows], 50),
                "latency_ms_p95": _pct([r["timings_ms"].get("total", 0) for r in self.rows], 95)}


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def score_row(query: str, gold: str, trace: QueryTrace, graph, known_answers: set[str]) -> dict:
    """One JSONL row: ranked answers, the committed set, P/R/F1 and why it failed.

    Failure causes: "no exact match" (nothing satisfies every matched constraint), "linking
    miss" (exact matches exist, but the gold answer lacks one of the linked constraints: a
    mention was linked to the wrong entity), "wrong tie-break" (the gold answer is an exact
    match, another one was ranked first), "gold not in graph".
    """
    ans = trace.answer
    ranked = [r.label for r in ans.ranked] if ans else []
    final = list(ans.final) if ans else []
    g = norm_answer(gold)
    hit = bool(ans) and norm_answer(ans.text) == g
    fin = {norm_answer(x) for x in final}
    tp = 1 if g in fin else 0
    precision = tp / len(fin) if fin else 0.0
    recall = float(tp)
    f1 = 2 * precision * recall / (precision + recall) if tp else 0.0
    if hit:
        failure = ""
    elif g not in known_answers:
        failure = "gold not in graph"
    elif trace.exact_count == 0:
        failure = "no exact match"
    elif not _gold_satisfies_matched_constraints(trace, graph, gold):
        failure = "linking miss"
    else:
        failure = "wrong tie-break"
    return {"query": query, "gold": gold, "answers": ranked, "final": final, "answer": ans.text if ans else "",
            "exact": bool(trace.exact_count), "hit": hit, "precision": precision, "recall": recall, "f1": f1,
            "constraints": len(trace.query_graph.constraints) if trace.query_graph else 0,
            "failure": failure, "timings_ms": trace.timings_ms}


def _gold_satisfies_matched_constraints(trace: QueryTrace, graph, gold: str) -> bool:
    """Is some node labelled ``gold`` adjacent to every constraint the matcher used?"""
    used = {q for p in trace.paths for q in p.qids}
    labels = [n.label for n in trace.query_graph.constraints if n.qid in used]
    golds = graph.nodes_by_label.get(gold) or [v for k, vs in graph.nodes_by_folded_label.items()
                                               if k == norm_answer(gold) for v in vs]
    return any(all(any(graph.has_edge_between(x, c) for c in graph.nodes_by_label.get(lab, ())) for lab in labels)
               for x in golds)


def run_eval(engine, csv_path: str | os.PathLike, limit: int | None = None, progress: ProgressFn = no_progress,
             out_path: str | os.PathLike | None = None, keep_traces: bool = False,
             should_stop=lambda: False) -> EvalReport:
    """Ask every question; write one JSON line per question to ``out_path`` as it goes."""
    questions = read_questions(csv_path, limit)
    report = EvalReport()
    fh = open(out_path, "w", encoding="utf-8") if out_path else None
    known = {norm_answer(lab) for lab in engine.graph.label_vocab}
    t0 = time.perf_counter()
    try:
        for i, (query, gold) in enumerate(questions):
            if should_stop():
                break
            trace = engine.ask(query)
            row = score_row(query, gold, trace, engine.graph, known)
            report.rows.append(row)
            if keep_traces:
                report.traces.append(trace)
            if fh:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            done = i + 1
            elapsed = time.perf_counter() - t0
            hits = sum(r["hit"] for r in report.rows)
            progress(Progress("eval", done, len(questions), f"{done}/{len(questions)} questions, Hit@1 {hits / done:.1%}",
                              elapsed / done * (len(questions) - done), {"hit@1": hits / done}))
    finally:
        if fh:
            fh.close()
    return report
