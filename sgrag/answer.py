"""γ: turn matches into an answer. Offline: rank UNK candidates with explainable evidence.

Exact matches (every constraint satisfied) outrank partial ones; among equals, the
question's own evidence breaks ties: its answer type ("Which *country*") against the
types the graph gives each candidate, and the words before each constraint ("won medals
in") against the relation text of the edge that satisfies it. A weak degree prior comes
last, favouring specific answers over hubs. Every feature is kept in the trace.

The weights were fitted once as a conditional logit over the FB-ERQA dev questions
(5-fold cross-validated, ``bench/fit_ranker.py``); every feature lies in [0, 1].
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .graph import KnowledgeGraph
from .prompts import default_prompts
from .prompts import relation_paragraph as prompt_relation_paragraph
from .query import STOPWORDS
from .textnorm import tokens
from .types import Answer, Match, QueryGraph, RankedAnswer

UNABLE = "Unable to determine"
WEIGHTS = {"coverage": 3.24, "soft": 2.60, "type": 4.90, "relation": 2.74, "relation_words": 3.93, "prior": 2.92,
           "likelihood": 3.56}


def _is_type_relation(relation: str, type_relations: frozenset[str]) -> bool:
    """Relations whose tail names what the head *is* (its profession, gender, genre, class)."""
    last = re.split(r"[/.]", relation.strip("/"))[-1].replace("_", " ").lower()
    return last in type_relations


def _type_phrases(relation: str) -> tuple[str, str]:
    """(head type, tail type) of a Freebase-style relation path; ("", "") otherwise."""
    if not relation.startswith("/"):
        return "", ""
    segs = [s for s in re.split(r"[/.]", relation) if s]
    if len(segs) < 3:
        return "", ""
    return segs[1].replace("_", " "), segs[-1].replace("_", " ")


@dataclass
class EvidenceModel:
    """Per-node type phrases and embedded relation/type text, built once per index."""
    type_vocab: list[str]
    type_vecs: np.ndarray  # (T, F)
    node_type_ptr: np.ndarray  # CSR over nodes -> type phrase ids
    node_type_ids: np.ndarray
    text_vocab: list[str]  # relation texts (graph.relation_text strings)
    text_vecs: np.ndarray
    edge_text: np.ndarray  # (E,) index into text_vocab

    @classmethod
    def build(cls, graph: KnowledgeGraph, embed, type_relations=()) -> "EvidenceModel":
        heads, tails = {}, {}
        for r, name in enumerate(graph.relations):
            heads[r], tails[r] = _type_phrases(name)
        vocab: dict[str, int] = {}
        pairs: set[tuple[int, int]] = set()
        type_relations = frozenset(type_relations)
        typing = {r: _is_type_relation(name, type_relations) for r, name in enumerate(graph.relations)}
        for e_rel, s, t in zip(graph.rel.tolist(), graph.src.tolist(), graph.dst.tolist()):
            for node, phrase in ((s, heads[e_rel]), (t, tails[e_rel])):
                if phrase:
                    pairs.add((node, vocab.setdefault(phrase, len(vocab))))
            if typing[e_rel]:  # "Actor", "Male", "Drama": what the head node is
                pairs.add((s, vocab.setdefault(graph.labels[t].lower(), len(vocab))))
        arr = np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
        ptr = np.zeros(graph.num_nodes + 1, dtype=np.int64)
        np.add.at(ptr, arr[:, 0] + 1, 1)
        np.cumsum(ptr, out=ptr)
        texts: dict[str, int] = {}
        edge_text = np.fromiter((texts.setdefault(graph.relation_text(e), len(texts)) for e in range(graph.num_edges)),
                                dtype=np.int32, count=graph.num_edges)
        type_vocab, text_vocab = list(vocab), list(texts)
        type_vecs = embed(type_vocab) if type_vocab else np.zeros((0, 1), np.float32)
        text_vecs = embed(text_vocab) if text_vocab else np.zeros((0, 1), np.float32)
        return cls(type_vocab, type_vecs, ptr, arr[:, 1].copy(), text_vocab, text_vecs, edge_text)

    def save(self, path: Path) -> None:
        np.savez(path, type_vocab=np.array(self.type_vocab, dtype=str), type_vecs=self.type_vecs,
                 node_type_ptr=self.node_type_ptr, node_type_ids=self.node_type_ids,
                 text_vocab=np.array(self.text_vocab, dtype=str), text_vecs=self.text_vecs, edge_text=self.edge_text)

    @classmethod
    def load(cls, path: Path) -> "EvidenceModel":
        z = np.load(path, allow_pickle=False)
        return cls(z["type_vocab"].tolist(), z["type_vecs"], z["node_type_ptr"], z["node_type_ids"],
                   z["text_vocab"].tolist(), z["text_vecs"], z["edge_text"])

    def types_of(self, v: int) -> np.ndarray:
        return self.node_type_ids[self.node_type_ptr[v]:self.node_type_ptr[v + 1]]


class Ranker:
    """Scores UNK candidates; all features in [0, 1] so weights are comparable."""

    def __init__(self, graph: KnowledgeGraph, model: EvidenceModel, embed, soft_below: float = 0.0):
        self.graph, self.model, self.embed = graph, model, embed
        self.soft_below = soft_below
        self._log_max_deg = math.log1p(float(graph.degree.max()) if graph.num_nodes else 1.0)
        self._words_cache: dict[int, set[str]] = {}
        self._relation_words_cache: dict[int, frozenset[str]] = {}

    def _text_words(self, t: int) -> set[str]:
        words = self._words_cache.get(t)
        if words is None:
            words = self._words_cache[t] = {_singular(w) for w in tokens(self.model.text_vocab[t])}
        return words

    def _type_score(self, type_vec: np.ndarray | None, type_words: set[str], v: int) -> float:
        """Best of: embedding similarity to a type phrase, share of type words the node's types contain."""
        ids = self.model.types_of(v)
        if type_vec is None or ids.size == 0:
            return 0.0
        best = float((self.model.type_vecs[ids] @ type_vec).max())
        if type_words:
            words = {_singular(w) for i in ids for w in self.model.type_vocab[i].split()}
            best = max(best, len(type_words & words) / len(type_words))
        return max(0.0, best)

    def _relation_words(self, r: int) -> frozenset[str]:
        words = self._relation_words_cache.get(r)
        if words is None:
            parts = re.split(r"[/._\s]+", self.graph.relations[r].lower())
            words = self._relation_words_cache[r] = frozenset(_singular(w) for w in parts if len(w) > 2)
        return words

    def features(self, qg: QueryGraph, candidates: dict[int, dict[str, int]]) -> dict[int, dict[str, float]]:
        """Per candidate: the features ``rank`` weighs (all in [0, 1]).

        coverage: linking confidence of the constraints satisfied; soft: share of the weakly
        linked (soft) constraints satisfied, 1 when there are none; type: answer type vs the
        candidate's types; relation: each constraint's phrase vs the relation text of its edge;
        relation_words: share of the question's words the satisfying relations contain ("medals
        won", "influenced by"); prior: specificity; likelihood: how probable it is to draw these
        constraints from the candidate's edges (edges to a constraint / degree, per constraint).
        """
        g = self.graph
        cons = qg.constraints
        conf = {n.qid: n.confidence for n in cons}
        total_conf = sum(conf.values()) or 1.0
        soft = {q for q, c in conf.items() if c < self.soft_below}
        phrases = dict(zip((n.qid for n in cons), qg.relation_phrases))
        texts = [qg.answer_type] + [phrases.get(n.qid, "") for n in cons]
        vecs = self.embed([t or "-" for t in texts])
        type_vec = vecs[0] if qg.answer_type else None
        type_words = {_singular(w) for w in tokens(qg.answer_type)} - {"entity", "one", "individual", "notable"}
        phrase_vec = {n.qid: (vecs[i + 1] if phrases.get(n.qid) else None) for i, n in enumerate(cons)}
        phrase_words = {n.qid: {_singular(w) for w in tokens(phrases.get(n.qid, ""))
                                if len(w) > 2 and w not in STOPWORDS} for n in cons}
        question_words = {_singular(w) for w in tokens(qg.question) if len(w) > 2 and w not in STOPWORDS}
        out = {}
        for v, sat in candidates.items():
            coverage = sum(conf[q] for q in sat) / total_conf
            rel_scores, rel_words, log_mult = [], set(), 0.0
            for q, c in sat.items():
                eids = g.edges_between(v, c)
                if not eids:
                    continue
                log_mult += math.log(len(eids))
                for e in eids:
                    rel_words |= self._relation_words(int(g.rel[e]))
                pv = phrase_vec.get(q)
                if pv is None:
                    continue
                tids = self.model.edge_text[eids]
                sems = self.model.text_vecs[tids] @ pv
                words = phrase_words[q]
                best = 0.0
                for t, sem in zip(tids.tolist(), sems.tolist()):
                    lex = len(words & self._text_words(t)) / len(words) if words else 0.0
                    best = max(best, 0.5 * max(0.0, sem) + 0.5 * lex)
                rel_scores.append(best)
            log_deg = math.log1p(float(g.degree[v]))
            # Specificity: if the question's constraints were drawn from the answer's neighbours,
            # they are likelier to come from a small star than from a hub's (P(q|x) ~ 1/C(deg, k)).
            prior = 1.0 - log_deg / self._log_max_deg if self._log_max_deg else 0.0
            k = max(len(sat), 1)
            likelihood = 1.0 + (log_mult - k * log_deg) / (k * self._log_max_deg) if self._log_max_deg else 0.0
            out[v] = {"coverage": coverage,
                      "soft": len(soft.intersection(sat)) / len(soft) if soft else 1.0,
                      "type": self._type_score(type_vec, type_words, v),
                      "relation": float(np.mean(rel_scores)) if rel_scores else 0.0,
                      "relation_words": min(len(rel_words & question_words), 10) / 10,
                      "prior": prior,
                      "likelihood": min(max(likelihood, 0.0), 1.0)}
        return out

    def rank(self, qg: QueryGraph, candidates: dict[int, dict[str, int]], max_answers: int) -> list[RankedAnswer]:
        """``candidates``: UNK node -> {constraint qid: bound graph node}.

        Candidates satisfying more of the firmly linked (hard) constraints always come first,
        so a partial match never loses to one satisfying fewer; the weighted evidence orders
        the rest.
        """
        g = self.graph
        hard = {n.qid: n.confidence for n in qg.constraints if n.confidence >= self.soft_below}
        keyed = []
        for v, feats in self.features(qg, candidates).items():
            sat = candidates[v]
            score = sum(WEIGHTS[name] * value for name, value in feats.items())
            missing = tuple(n.qid for n in qg.constraints if n.qid not in sat)
            tier = round(sum(c for q, c in hard.items() if q in sat), 6)
            keyed.append((-tier, -score, g.labels[v],
                          RankedAnswer(g.node_ids[v], g.labels[v], round(score, 6), tuple(sat), missing,
                                       {name: round(value, 4) for name, value in feats.items()})))
        keyed.sort(key=lambda k: k[:3])
        return [k[3] for k in keyed[:max_answers]]


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


FEATURE_WORDS = {"coverage": "satisfies more of the constraints", "soft": "also meets the weakly linked constraints",
                 "type": "matches the answer type", "relation": "its relations fit the question's wording",
                 "relation_words": "the question's words name its relations",
                 "prior": "is more specific (fewer connections overall)",
                 "likelihood": "is joined to the constraints by more edges"}


def offline_answer(qg: QueryGraph, ranked: list[RankedAnswer], exact: bool, min_confidence: float) -> Answer:
    """Commit to the top candidate (and any exact tie), or say it cannot be determined.

    When ``exact``, every item of ``ranked`` satisfies every firm constraint: they are the exact
    set, and the confidence is the top one's share under the fitted conditional logit (1.0 only
    when it is the only entity that fits).
    """
    if not ranked:
        return Answer(UNABLE, None, False, 0.0, (), (), (), "No candidate is connected to the question's entities.")
    top = ranked[0]
    labels = {n.qid: n.label for n in qg.constraints}
    final = tuple(r.label for r in ranked if abs(r.score - top.score) <= 1e-9 and r.missing == top.missing)
    sat = ", ".join(labels[q] for q in top.satisfied)
    if exact:
        shares = [math.exp(r.score - top.score) for r in ranked]
        confidence = round(1.0 / sum(shares), 4)
        n = len(ranked)
        why = (f"{top.label} is the only entity connected to {sat}." if n == 1 else
               f"{n:,} entities are connected to {sat}; {top.label} is ranked first.")
        return Answer(top.label, top.node_id, True, confidence, tuple(ranked), final, (), why,
                      exact_set=tuple(ranked), tie_break=tie_break(ranked))
    gap = top.score - ranked[1].score if len(ranked) > 1 else 1.0
    gap = gap if gap >= 0 else 1.0  # the runner-up scores higher but satisfies fewer constraints
    coverage = top.features.get("coverage", 0.0)
    confidence = round(coverage * (0.5 + 0.5 * math.tanh(gap * 5)), 4)
    relaxed = tuple(labels[q] for q in top.missing)
    if confidence < min_confidence:
        return Answer(UNABLE, None, False, confidence, tuple(ranked), (), relaxed,
                      f"The best candidate, {top.label}, satisfies only "
                      f"{len(top.satisfied)} of {len(labels)} constraints.")
    why = f"{top.label} is connected to {sat}." if sat else f"{top.label} was the best-ranked candidate."
    if relaxed:
        why += f" No entity satisfies every constraint; relaxed: {', '.join(relaxed)}."
    return Answer(top.label, top.node_id, False, confidence, tuple(ranked), final, relaxed, why)


def tie_break(exact_set: list[RankedAnswer]) -> str:
    """In plain words, what put the first member of a tie ahead of the second."""
    if len(exact_set) < 2:
        return ""
    first, second = exact_set[0], exact_set[1]
    gains = sorted(((WEIGHTS.get(f, 0.0) * (v - second.features.get(f, 0.0)), f) for f, v in first.features.items()),
                   reverse=True)
    reasons = [FEATURE_WORDS.get(f, f) for gain, f in gains if gain > 1e-6][:2]
    if not reasons:
        return (f"Tie-break among {len(exact_set):,}: {first.label} and {second.label} score the same; "
                "the order between them is alphabetical.")
    return (f"Tie-break among {len(exact_set):,} entities that satisfy every constraint: {first.label} is ahead of "
            f"{second.label} because it " + " and ".join(reasons) + ".")


def relation_paragraph(matches: list[Match], limit: int = 60) -> str:
    """The paper's answer context from the matched edges (sentences from the prompt templates)."""
    triples = list(dict.fromkeys((e.src_label, e.dst_label, e.description or e.relation)
                                 for m in matches for e in m.edges))
    return prompt_relation_paragraph(default_prompts(), triples[:limit])

