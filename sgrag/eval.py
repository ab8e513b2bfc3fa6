"""ERQA-style evaluation: Hit@1, precision, recall, F1, by constraint count and failure cause.

With an oracle file (for each question the constraints it names and every entity meeting them),
it also measures exactness: Hit@1 where the question determines the answer, whether the gold
is in the returned exact set, how well that set matches the oracle's, and linking quality.
"""
from __future__ import annotations

import csv
from collections import Counter
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


@dataclass(frozen=True)
class OracleRow:
    """What the question and the graph determine: the named constraints and the entities meeting them."""
    named: frozenset[str]
    size: int
    members: frozenset[str]  # gold + the others listed (the oracle lists at most 50 others)


def read_oracle(path: str | os.PathLike) -> dict[str, OracleRow]:
    """query -> OracleRow, from an oracle CSV (query, answer, named_constraints, exact_set_size, others_in_exact_set)."""
    need = {"query", "answer", "named_constraints", "exact_set_size", "others_in_exact_set"}
    out = {}
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            missing = need - set(reader.fieldnames or ())
            if missing:
                raise InputFormatError(str(path), 1, f"oracle lacks columns {sorted(missing)}")
            for line, r in enumerate(reader, start=2):
                if not r["exact_set_size"].strip():
                    continue  # the benchmark's own broken rows (no question text)
                try:
                    size = int(r["exact_set_size"])
                except ValueError:
                    raise InputFormatError(str(path), line, f"exact_set_size is not a number: {r['exact_set_size']!r}")
                out[r["query"]] = OracleRow(_labels(r["named_constraints"]), size,
                                            frozenset({norm_answer(x) for x in _labels(r["others_in_exact_set"])}
                                                      | {norm_answer(r["answer"])}))
    except OSError as exc:
        raise InputFormatError(str(path), None, f"cannot open: {exc.strerror or exc}") from exc
    return out


def _labels(text: str) -> frozenset[str]:
    """The oracle's " | "-separated label lists."""
    return frozenset(x.strip() for x in text.split(" | ") if x.strip())


def oracle_scores(row: dict, trace: QueryTrace, oracle: OracleRow) -> dict:
    """Exactness measures of one answered question against its oracle row."""
    returned = {norm_answer(x) for x in row["exact_set"]}
    known = len(returned & oracle.members)
    if oracle.size > len(oracle.members):  # the oracle lists 50 others: scale their overlap to the whole set
        known = min(len(returned), round(known / len(oracle.members) * oracle.size))
    union = len(returned) + oracle.size - known
    qg = trace.query_graph
    linked = {n.label for n in qg.constraints} if qg else set()
    used = trace.firm_qids
    firm = {n.label for n in qg.constraints if n.qid in used} if qg else set()
    hit_named = len(linked & oracle.named)
    return {"determined": oracle.size == 1, "oracle_size": oracle.size,
            "gold_in_exact_set": norm_answer(row["gold"]) in returned,
            "jaccard": known / union if union else 1.0,
            "link_precision": hit_named / len(linked) if linked else 0.0,
            "link_recall": hit_named / len(oracle.named) if oracle.named else 1.0,
            "firm_precision": len(firm & oracle.named) / len(firm) if firm else 0.0,
            "linked": sorted(linked), "firm": sorted(firm), "named": sorted(oracle.named)}


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
        for r in self.rows:
            by_k.setdefault(r["constraints"], []).append(r)
        out = {"overall": agg(self.rows), "by_constraints": {k: agg(v) for k, v in sorted(by_k.items())},
               "failures": _outcomes(self.rows),
               "latency_ms_p50": _pct([r["timings_ms"].get("total", 0) for r in self.rows], 50),
               "latency_ms_p95": _pct([r["timings_ms"].get("total", 0) for r in self.rows], 95)}
        scored = [r for r in self.rows if "jaccard" in r]
        if scored:
            mean = lambda rows, key: sum(float(r[key]) for r in rows) / len(rows) if rows else 0.0  # noqa: E731
            determined = [r for r in scored if r["determined"]]
            ambiguous = [r for r in scored if not r["determined"]]
            out["oracle"] = {"n": len(scored), "determined": len(determined), "ambiguous": len(ambiguous),
                             "hit@1_determined": mean(determined, "hit"), "hit@1_ambiguous": mean(ambiguous, "hit"),
                             "gold_in_exact_set": mean(scored, "gold_in_exact_set"),
                             "exact_set_jaccard": mean(scored, "jaccard"),
                             "link_precision": mean(scored, "link_precision"), "link_recall": mean(scored, "link_recall"),
                             "firm_link_precision": mean(scored, "firm_precision"),
                             "failures_determined": _outcomes(determined)}
        return out


def _outcomes(rows: list[dict]) -> dict[str, int]:
    """How many rows ended each way ("correct" or a failure cause), most frequent first."""
    return dict(Counter(r["failure"] or "correct" for r in rows).most_common())


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
    match, another one was ranked first), "gold not in graph". ``exact``: the answer claims every named
    condition (``Answer.meets_every_named``: an exact set, and no named thing missing from the graph).
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
            "exact_set": [r.label for r in ans.exact_set] if ans else [], "tie_break": ans.tie_break if ans else "",
            "exact": bool(trace.exact_count) and bool(ans) and ans.meets_every_named,
            "hit": hit, "precision": precision, "recall": recall, "f1": f1,
            "constraints": len(trace.query_graph.constraints) if trace.query_graph else 0,
            "failure": failure, "timings_ms": trace.timings_ms}


def _gold_satisfies_matched_constraints(trace: QueryTrace, graph, gold: str) -> bool:
    """Is some node labelled ``gold`` adjacent to every constraint the matcher used?"""
    used = trace.firm_qids
    labels = [n.label for n in trace.query_graph.constraints if n.qid in used]
    golds = graph.nodes_by_label.get(gold) or [v for k, vs in graph.nodes_by_folded_label.items()
                                               if k == norm_answer(gold) for v in vs]
    return any(all(any(graph.has_edge_between(x, c) for c in graph.nodes_by_label.get(lab, ())) for lab in labels)
               for x in golds)


def run_eval(engine, csv_path: str | os.PathLike, limit: int | None = None, progress: ProgressFn = no_progress,
             out_path: str | os.PathLike | None = None, keep_traces: bool = False,
             should_stop=lambda: False, oracle_path: str | os.PathLike | None = None) -> EvalReport:
    """Ask every question; write one JSON line per question to ``out_path`` as it goes.

    ``oracle_path``: an oracle CSV; questions found in it also get the exactness measures.
    """
    questions = read_questions(csv_path, limit)
    oracle = read_oracle(oracle_path) if oracle_path else {}
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
            if query in oracle:
                row.update(oracle_scores(row, trace, oracle[query]))
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
