"""What each named rule buys: the eval with one rule switched off at a time, against all rules on.

    python bench/rule_ablation.py -w W --queries CSV [--oracle ORACLE] [--split dev] [--rules a,b] [--limit N]

Loads the index once and switches rules in place (``Engine.use_rules``). Prints, per rule, Hit@1, the share of
questions whose exact set is exactly the gold answer, and (with ``--oracle``) the mean Jaccard of the exact set,
the share with the gold in it and Hit@1 on the determined questions, each as all-on value and the change with the rule off. ``--split`` keeps the
questions of one split (a ``split`` column, as the Re-DocRED questions have): tune on dev, look at check rarely.
"""
from __future__ import annotations

import argparse
import csv
import tempfile
import time

import common  # noqa: F401  (puts the repo on sys.path and sets the offline env)

from sgrag.eval import norm_answer, run_eval
from sgrag.pipeline import Engine
from sgrag.rules import registered


def measures(report) -> dict[str, float]:
    rows = report.rows
    n = max(len(rows), 1)
    out = {"hit@1": sum(r["hit"] for r in rows) / n,
           "set=gold": sum(r["exact"] and [norm_answer(x) for x in r["exact_set"]] == [norm_answer(r["gold"])]
                           for r in rows) / n}
    scored = [r for r in rows if "jaccard" in r]
    if scored:
        out["jaccard"] = sum(r["jaccard"] for r in scored) / len(scored)
        out["gold in set"] = sum(bool(r["gold_in_exact_set"]) for r in scored) / len(scored)
        determined = [r for r in scored if r.get("determined")]
        out["hit@1 det."] = sum(r["hit"] for r in determined) / max(len(determined), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", "-w", required=True)
    ap.add_argument("--queries", required=True)
    ap.add_argument("--oracle")
    ap.add_argument("--split", help="only the questions of this split (column 'split')")
    ap.add_argument("--rules", help="comma-separated rule names (default: every registered rule)")
    ap.add_argument("--limit", type=int)
    args = ap.parse_args()
    queries = args.queries
    if args.split:
        with open(args.queries, encoding="utf-8") as fh:
            rows = [r for r in csv.DictReader(fh) if r.get("split") == args.split]
        tmp = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8", newline="")
        writer = csv.DictWriter(tmp, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        tmp.close()
        queries = tmp.name
    names = args.rules.split(",") if args.rules else [r.name for r in registered()]
    engine = Engine.open(args.workspace)
    t0 = time.perf_counter()
    base = measures(run_eval(engine, queries, args.limit, oracle_path=args.oracle))
    print("all rules on: " + ", ".join(f"{k} {v:.4f}" for k, v in base.items())
          + f"  ({time.perf_counter() - t0:.0f} s per run)", flush=True)
    print(f"{'rule off':<26}" + "".join(f"{k:>14}" for k in base))
    for name in names:
        engine.use_rules([name])
        got = measures(run_eval(engine, queries, args.limit, oracle_path=args.oracle))
        print(f"{name:<26}" + "".join(f"{got[k] - base[k]:>+14.4f}" for k in base), flush=True)
    engine.use_rules([])


if __name__ == "__main__":
    main()
