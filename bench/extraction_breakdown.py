"""Which constructions of the document extractor earn their edges: pair precision per ``how``.

Reads a graph exported from a documents workspace (``python -m sgrag export -w W --out g.json``)
and the Re-DocRED gold, matches node labels to gold entities exactly as the dataset's
``extraction_score.py`` does (it is loaded from the data folder, not copied), and prints, per
construction (the ``how`` of each edge's provenance, coreference suffix dropped or kept), how many
edges join two gold entities and how many of those join a gold pair: where precision is lost.

    .venv/bin/python bench/extraction_breakdown.py g.json [--via]
"""
from __future__ import annotations

import argparse
import csv
import importlib.util
import json
from collections import defaultdict

from common import ROOT

DATA = ROOT.parent / "shared" / "data" / "redocred"


def _scorer():
    spec = importlib.util.spec_from_file_location("extraction_score", DATA / "extraction_score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _gold():
    names, pairs = defaultdict(set), set()
    for r in csv.DictReader(open(DATA / "kg" / "entities.tsv", encoding="utf-8"), delimiter="\t"):
        names[r["label"]].add(r["label"])
        names[r["label"]].update(m.strip() for m in r["mentions"].split(" | ") if m.strip())
    for r in csv.DictReader(open(DATA / "kg" / "gold_triples.tsv", encoding="utf-8"), delimiter="\t"):
        if r["head"] != r["tail"]:
            pairs.add(frozenset((r["head"], r["tail"])))
    return names, pairs


def breakdown(graph: dict, keep_via: bool = False) -> dict[str, list[int]]:
    """{how: [edges joining two gold entities, of them joining a gold pair]}."""
    import difflib
    norm = _scorer().norm
    names, pairs = _gold()
    label_of = {str(n["id"]): str(n.get("label") or n["id"]) for n in graph["nodes"]}
    by_norm = defaultdict(set)
    for nid, lab in label_of.items():
        by_norm[norm(lab)].add(nid)
    fuzzy_keys = [k for k in by_norm if k and not any(c.isdigit() for c in k)]
    node_ents = defaultdict(set)
    for ent, surface in names.items():
        for name in surface:
            k = norm(name)
            if not k:
                continue
            hits = set(by_norm.get(k, ()))
            if not any(c.isdigit() for c in k):
                for cand in difflib.get_close_matches(k, fuzzy_keys, n=5, cutoff=0.9):
                    hits |= by_norm[cand]
            for nid in hits:
                node_ents[nid].add(ent)
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e in graph["edges"]:
        s, t = str(e["source"]), str(e["target"])
        if s == t or not node_ents[s] or not node_ents[t]:
            continue
        ok = any(frozenset((x, y)) in pairs for x in node_ents[s] for y in node_ents[t] if x != y)
        hows = {src.split("|")[1] for src in e.get("sources", []) if src.count("|") >= 3}
        for how in hows or {"(none)"}:
            key = how if keep_via else how.split("+")[0]
            table[key][0] += 1
            table[key][1] += ok
    return dict(table)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", help="a graph written by `python -m sgrag export`")
    ap.add_argument("--via", action="store_true", help="keep the coreference suffix (svo+pronoun apart from svo)")
    args = ap.parse_args(argv)
    table = breakdown(json.load(open(args.graph, encoding="utf-8")), args.via)
    print(f"{'edges':>6} {'right':>6} {'precision':>9}  construction")
    for how, (n, ok) in sorted(table.items(), key=lambda kv: -kv[1][0]):
        print(f"{n:6d} {ok:6d} {ok / n:9.1%}  {how}")
    n, ok = sum(v[0] for v in table.values()), sum(v[1] for v in table.values())
    print(f"(an edge read by several constructions counts under each; edges: {n}, right {ok})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
