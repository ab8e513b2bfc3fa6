"""A larger question set over the Re-DocRED documents, written from their gold facts by templates.

    python bench/redocred_synth.py [--out CSV] [--per-doc 2] [--data ../shared/data/redocred]

The 150 hand-written questions (`questions.csv`) are few, and its dev split has been looked at often; a figure
that holds on them may not hold on other documents or other questions. This writes, for every document, up to
``--per-doc`` questions whose answer is an entity of that document and whose two conditions are two of its gold
facts ("Which person was born in Kherson and studied at St Petersburg University?"), kept only when the answer is
the only entity of the merged gold KG meeting both (the rule of `check_questions.py`). Questions take the split
of the hand-written questions of the same document (`synth-dev` / `synth-check`), so documents tuned on stay
apart. Deterministic: the choice among an entity's facts is by hash, not by chance. The wording is plain and
templated (one phrase per Wikidata relation, the answer's class by its DocRED type), so it measures extraction
and ranking rather than question parsing; score it with `score.py RESULTS --split synth-dev` and the CSV as the
questions file.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PHRASES = {
    "located in the administrative territorial entity": "is located in {}",
    "country": "is in {}",
    "country of citizenship": "is a citizen of {}",
    "notable work": "created {}",
    "has part": "includes {}",
    "part of": "is part of {}",
    "country of origin": "comes from {}",
    "member of": "is a member of {}",
    "publication date": "was released in {}",
    "present in work": "appears in {}",
    "performer": "was performed by {}",
    "participant of": "took part in {}",
    "cast member": "stars {}",
    "inception": "was founded in {}",
    "date of birth": "was born in {}",
    "date of death": "died in {}",
    "conflict": "fought in {}",
    "record label": "was released by {}",
    "author": "was written by {}",
    "member of sports team": "played for {}",
    "publisher": "was published by {}",
    "director": "was directed by {}",
    "league": "plays in {}",
    "producer": "was produced by {}",
    "located on terrain feature": "lies on {}",
    "follows": "came after {}",
    "followed by": "was followed by {}",
    "platform": "runs on {}",
    "located in or next to body of water": "lies by {}",
    "sibling": "is a sibling of {}",
    "educated at": "studied at {}",
    "place of birth": "was born in {}",
    "place of death": "died in {}",
    "spouse": "was married to {}",
    "developer": "was developed by {}",
    "creator": "was created by {}",
    "composer": "was composed by {}",
    "employer": "worked for {}",
    "founded by": "was founded by {}",
    "headquarters location": "is headquartered in {}",
    "screenwriter": "was written by {}",
    "production company": "was produced by {}",
    "owned by": "is owned by {}",
    "award received": "received {}",
    "genre": "is a work of {}",
    "military branch": "served in {}",
    "member of political party": "is a member of {}",
    "father": "is the child of {}",
    "mother": "is the child of {}",
    "manufacturer": "was made by {}",
    "original network": "aired on {}",
    "capital of": "is the capital of {}",
    "lyrics by": "has lyrics by {}",
}
"""Wikidata relation -> the phrase a question says it with, the answer being the fact's head."""
WHICH = {"PER": "Which person", "LOC": "Which place", "ORG": "Which organization", "MISC": "What"}
"""How a question names its answer's class, by the answer's DocRED type."""


def _key(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()


def questions(data: Path, per_doc: int) -> list[dict[str, str]]:
    """Up to ``per_doc`` templated two-fact questions per document, each determining its answer in the gold KG."""
    triples = list(csv.DictReader(open(data / "kg" / "gold_triples.tsv", encoding="utf-8"), delimiter="\t"))
    kind = {}
    for e in csv.DictReader(open(data / "kg" / "entities.tsv", encoding="utf-8"), delimiter="\t"):
        kind.setdefault(e["label"], e["type"])
    heads_of = defaultdict(set)
    for t in triples:
        heads_of[t["relation"], t["tail"]].add(t["head"])
    split_of = {r["file"]: r["split"] for r in csv.DictReader(open(data / "questions.csv", encoding="utf-8"))}
    facts_of = defaultdict(list)  # (doc, head) -> its usable facts
    for t in triples:
        if t["relation"] in PHRASES and kind.get(t["head"]) in WHICH and kind.get(t["tail"]) != "NUM" \
                and t["head"] != t["tail"]:
            facts_of[t["doc"], t["head"]].append((t["relation"], t["tail"]))
    chosen = defaultdict(list)
    for (doc, head), facts in sorted(facts_of.items()):
        facts = sorted(set(facts))
        pairs = [p for p in itertools.combinations(facts, 2) if p[0][1] != p[1][1]
                 and heads_of[p[0]] & heads_of[p[1]] == {head}]
        if pairs:
            pair = min(pairs, key=lambda p: _key(head, *p[0], *p[1]))
            chosen[doc].append((_key(doc, head), head, pair))
    rows = []
    for doc in sorted(chosen):
        if doc not in split_of:
            continue
        for _, head, ((r1, t1), (r2, t2)) in sorted(chosen[doc])[:per_doc]:
            query = f"{WHICH[kind[head]]} {PHRASES[r1].format(t1)} and {PHRASES[r2].format(t2)}?"
            rows.append({"file": doc, "query": query, "answer": head, "facts": f"+{r1}={t1} | +{r2}={t2}",
                         "split": "synth-" + split_of[doc]})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "redocred"))
    ap.add_argument("--out", default="redocred_synth.csv")
    ap.add_argument("--per-doc", type=int, default=2)
    args = ap.parse_args()
    rows = questions(Path(args.data), args.per_doc)
    with open(args.out, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["file", "query", "answer", "facts", "split"])
        w.writeheader()
        w.writerows(rows)
    n = defaultdict(int)
    for r in rows:
        n[r["split"]] += 1
    print(f"wrote {len(rows)} questions to {args.out} ({', '.join(f'{k} {v}' for k, v in sorted(n.items()))})")


if __name__ == "__main__":
    main()
