"""The one orchestrator: import, build (ε..φ, M) and ask (ψ, σ, δ, γ) -> QueryTrace.

Only this module knows the order of the stages; each stage lives in its own module (``linking``,
``query``, ``match``, ``relax``, ``narrowing``, ``ranking``, ``answer``; ``indexing`` for a build). ``Engine.build`` writes a new index
version beside the current one and switches atomically; ``Engine.open`` loads the
current version; ``Engine.ask`` runs one question and records every stage with its time.
"""
from __future__ import annotations

import json
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Callable

import numpy as np

from .accounting import account, headline
from .answer import JOINED, MEETING, UNABLE, llm_answer, offline_answer, one_hop_context, relation_paragraph
from .config import RulesConfig, SgragConfig
from .embed import EmbeddingCache, make_embedder
from .errors import BuildError, SgragError, WorkspaceError
from .fsutil import atomic_write_json, read_json
from .dominance import KEYS_FILE, DominanceEncoder
from .graph import KnowledgeGraph, neighborhood
from .index import LabelIndex, PathIndex
from .ingest import import_kg
from .lexicon import Lexicon, resolve_preset
from .linking import Linker, unknown_link_notes
from .match import Matcher
from .narrowing import met_through, narrow_partial, set_apart as narrow, unchecked_type, unmet_reversed
from .query import build_query_graph, decompose, llm_query_graph
from .ranking import EvidenceModel, Ranker
from .relax import (CLASS_WORDS_GIVE_WAY, DOCUMENT_CANDIDATES, PARTIAL_MATCHES, best_tiers, class_words, demoted,
                    same_document)
from .rules import switches
from .schema import PROFILE_FILE, class_only_nodes, ProfileThresholds, SchemaProfile, learn_profile, value_nodes
from .types import Answer, LinkCandidate, Progress, ProgressFn, QueryTrace, RankedAnswer, SetApart, no_progress
from .workspace import ProgressFile, Workspace


class _Timer:
    def __init__(self, trace: QueryTrace):
        self.trace = trace

    @contextmanager
    def stage(self, name: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            spent = (time.perf_counter() - t0) * 1000  # a stage run twice (a relaxed retry) adds up
            self.trace.timings_ms[name] = round(self.trace.timings_ms.get(name, 0.0) + spent, 3)


def _bound_query_threads(n: int, torch_runtime: bool) -> None:
    """Sizes the thread pools a question's work runs in (torch intra-op when MiniLM runs in torch, BLAS) on
    purpose: by default each grabs every core, and two busy processes on two cores then spend their time
    switching."""
    if n > 0:
        if torch_runtime or "torch" in sys.modules:
            import torch
            torch.set_num_threads(n)
        from threadpoolctl import threadpool_limits
        threadpool_limits(limits=n, user_api="blas")


def _read_from_documents(answer: Answer, trace: QueryTrace, target: str, partial_weight: float | None = None
                         ) -> Answer:
    """An answer resting on facts an extractor read says how sure it is: its confidence is scaled by
    the least sure condition (each condition counts its surest supporting edge). ``partial_weight``: a partial answer
    on a graph read from documents, whose confidence (a calibrated share) is scaled by the least sure fact to this
    power (``answer.partial_fact_weight``); one no fact joins to any condition rests on being named in the same
    document, as sure as the extractor's weakest reading of that ("document")."""
    power = 1.0 if partial_weight is None else partial_weight
    if partial_weight is not None and answer.node_id is not None and answer.ranked and not answer.ranked[0].satisfied:
        from .dependency import CONFIDENCE
        least = CONFIDENCE["document"]
        return replace(answer, confidence=round(answer.confidence * least ** power, 4),
                       explanation=f"{answer.explanation} Read from documents: it rests only on being named in the "
                                   f"same document (confidence {least:.2f}).")
    edges = next((m.edges for m in trace.matches if m.binding.get(target) == answer.node_id), ())
    per_condition: dict[tuple[str, str], float] = {}
    for e in edges:
        per_condition[e.query_edge] = max(per_condition.get(e.query_edge, 0.0), e.confidence)
    least = min(per_condition.values(), default=1.0)
    if least >= 1.0:
        return answer
    return replace(answer, confidence=round(answer.confidence * least ** power, 4),
                   explanation=f"{answer.explanation} Read from documents: the least sure supporting fact has "
                               f"confidence {least:.2f}.".strip())


class Engine:
    """A loaded index version of a workspace, ready to answer questions."""

    LOAD_STEPS = ("graph", "label index", "GNN", "path index", "evidence", "embedding model")

    def __init__(self, workspace: Workspace, version_dir: Path, config: SgragConfig, llm=None,
                 progress: ProgressFn = no_progress):
        self.workspace, self.version_dir, self.config = workspace, version_dir, config
        self.llm = llm
        self.rules = switches(config.rules.disabled)  # an unknown rule name fails here, before the long load

        def step(i: int) -> None:  # "load" progress: the app shows it while the index loads
            progress(Progress("load", i, len(self.LOAD_STEPS),
                              "loading index: " + ", ".join(self.LOAD_STEPS[: i + 1]) + " …"))
        step(0)
        self.graph = KnowledgeGraph.load(version_dir / "graph")
        self.meta = read_json(version_dir / "meta.json", {})
        step(1)
        label_vecs = np.load(version_dir / "label_vectors.npy", allow_pickle=False)
        self.label_index = LabelIndex.load(version_dir / "labels.faiss", label_vecs)
        step(2)
        if (version_dir / KEYS_FILE).exists():
            self.encoder = DominanceEncoder.load(version_dir / KEYS_FILE, self.meta.get("gnn_history"))
        else:  # an index built before the query-side keys were saved: compute them from the weights (torch)
            import torch
            from .gnn import encoder_from_state
            state = torch.load(version_dir / "gnn.pt", weights_only=True)
            self.encoder = encoder_from_state(state, label_vecs[self.graph.label_id])
        step(3)
        self.indexes = {L: PathIndex.load(version_dir / f"paths_l{L}.npz")
                        for L in range(1, int(self.meta.get("path_length", 1)) + 1)
                        if (version_dir / f"paths_l{L}.npz").exists()}
        step(4)
        self.evidence = EvidenceModel.load(version_dir / "evidence.npz")
        step(5)
        self.embedder = make_embedder(replace(config.embed, backend=self.meta.get("embed_backend", config.embed.backend)), llm,
                                      config.query.embed_runtime)
        self._cache = EmbeddingCache(workspace.cache_dir / "embeddings", self.embedder)
        self.lexicon = Lexicon.of_workspace(workspace.path, resolve_preset(config.query.lexicon, self.graph.relations))
        self.matcher = Matcher(self.graph, self.indexes, self.encoder, config.match.exact_edge_confidence)
        self._rule_stages()
        self.examples: list[str] = read_json(workspace.path / "examples.json", []) or []
        _bound_query_threads(config.query.threads, config.query.embed_runtime == "torch")
        progress(Progress("load", len(self.LOAD_STEPS), len(self.LOAD_STEPS), "index loaded"))

    def _rule_stages(self) -> None:
        """The stages whose rules can be switched (linking, ranking and narrowing), made for ``self.rules``."""
        cfg = self.config
        self.linker = Linker(self.graph, self.label_index, self._cache.embed_query, cfg.query, self.lexicon, self.rules)
        self.ranker = Ranker(self.graph, self.evidence, self._cache.embed_query, cfg.query.soft_below,
                             self.lexicon.relation_words, self.lexicon.kind_words, self.lexicon.untyped_namespaces,
                             cfg.ranking, self.rules, self.schema_profile, self.lexicon.coarse_kinds,
                             self.lexicon.converse_words, self.lexicon.maker_verbs)

    def use_rules(self, disabled: list[str]) -> None:
        """Answer from now on with these rules switched off (and all others on), without reloading the index:
        for comparing rules (``bench/rule_ablation.py``). An unknown name raises ConfigError."""
        self.rules = switches(disabled)
        self.config = replace(self.config, rules=RulesConfig(list(disabled)))  # the caller's config stays as it was
        self._rule_stages()

    # ---- lifecycle ----------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, config: SgragConfig | None = None, llm=None,
             progress: ProgressFn = no_progress) -> "Engine":
        """Load the current index version; ``progress`` hears each loading step ("load" stage)."""
        ws = Workspace(path)
        cfg = config or ws.config()
        return cls(ws, ws.index_dir(), cfg, llm, progress)

    @property
    def version(self) -> str:
        return self.version_dir.name

    @staticmethod
    def import_kg(path: str | os.PathLike, *, triples=None, entities=None, relations=None,
                  graphml=None, json=None, config: SgragConfig | None = None) -> dict:
        """Import a knowledge graph as the workspace's source graph (see ``sgrag.ingest.import_kg``)."""
        return import_kg(path, triples=triples, entities=entities, relations=relations, graphml=graphml,
                         json=json, config=config)

    @staticmethod
    def build(path: str | os.PathLike, progress: ProgressFn = no_progress,
              should_stop: Callable[[], bool] = lambda: False, config: SgragConfig | None = None,
              llm=None) -> dict:
        """Build a new index version from the source graph; the old one stays until the switch."""
        ws = Workspace(path)
        with ws.writer("build"):
            cfg = config or ws.config()
            graph = ws.source_graph()
            if graph is None:
                raise WorkspaceError(f"workspace {ws.path} has no graph yet: import a graph or ingest documents first")
            if graph.num_nodes == 0:
                raise BuildError("the graph is empty")
            from .indexing import build_index  # torch and the GNN's trainer: only a build needs them
            tmp = ws.new_index_dir()
            shown = ProgressFile(ws, progress)  # how far, for pages and tools in other processes
            try:
                report = build_index(tmp, graph, ws, cfg, shown, should_stop, llm)
                version = ws.commit_index(tmp)
            except BaseException:
                ws.discard(tmp)
                raise
            finally:
                shown.close()
        report["version"] = version
        return report

    # ---- asking -------------------------------------------------------------------------
    def ask(self, question: str, overrides: dict[str, str] | None = None) -> QueryTrace:
        """Answer one question; the trace holds every stage's output and time."""
        question = (question or "").strip()
        trace = QueryTrace(question=question, index_version=self.version)
        if not question:
            raise SgragError("the question is empty")
        if len(question) > self.config.query.max_question_chars:
            raise SgragError(f"the question is too long ({len(question):,} characters; at most "
                             f"{self.config.query.max_question_chars:,})")
        t_all = time.perf_counter()
        timer = _Timer(trace)
        cfg = self.config
        stale = self.workspace.stale_index()
        if stale:
            trace.notes.append(f"This index was built from graph version {stale[0]}, but the workspace's graph is now "
                               f"{stale[1]} (an import or ingest was not followed by a build): answers miss the newer "
                               f"facts. Run `python -m sgrag build --workspace {self.workspace.path}`.")
        changed = self.lexicon_changed
        if changed:
            trace.notes.append(changed)
        with timer.stage("ψ1-2 query graph + normalization"):
            qg = None
            if cfg.query.mode == "llm" and self.llm is not None and not overrides:
                try:
                    qg = llm_query_graph(question, self.llm, self.linker)
                except SgragError as exc:
                    trace.notes.append(f"LLM query graph unusable ({exc}); offline linking used.")
            if qg is None:
                mentions, atype = self.linker.link(question, overrides)
                qg = build_query_graph(question, mentions, atype,
                                       "llm->offline" if cfg.query.mode == "llm" and self.llm else "offline",
                                       tuple(self.linker.unlinked(question, mentions)), self.rules,
                                       self.linker.equivalents, self.linker.instances, self.linker.described)
        trace.query_graph = qg
        trace.notes.extend(unknown_link_notes(overrides, self.graph))
        if not qg.constraints:
            trace.notes.append("No entity of the graph was recognised in the question.")
            trace.answer = self._accounted(Answer(UNABLE, None, False, 0.0, (), (), (), trace.notes[-1]), qg, trace)
            trace.timings_ms["total"] = round((time.perf_counter() - t_all) * 1000, 3)
            return trace
        mq, exact, known = self._match_firm(qg, trace, timer)
        words = class_words(mq, self.graph, self.linker.is_class)
        give: set[str] = set()
        if not exact and words and sum(map(len, words)) < len(mq.constraints) and self.rules.on(CLASS_WORDS_GIVE_WAY):
            # a word naming a class (an answer-type word, or "actor" in "earned its actor an award") was a
            # statistical guess: such words give way first, one at a time (the answer type's head first),
            # then all together
            tries = words[:4] if len(words) > 1 else []
            for give in tries + [{q for w in words for q in w}]:
                tried = demoted(qg, give, cfg.query.soft_below)
                mq, exact, known = self._match_firm(tried, trace, timer)
                if exact:
                    break
            qg = tried
            trace.query_graph = qg
            said = ", ".join(dict.fromkeys(repr(question[n.mention.start:n.mention.end])
                                           for n in qg.constraints if n.qid in give))
            trace.notes.append(f"Nothing meets every constraint: the class word(s) {said} now only rank the answers.")
        firm = {c.qid for c in mq.constraints}
        soft = [n for n in qg.constraints if n.qid not in firm]  # none if none is firm
        target = qg.target
        set_apart: list[SetApart] = []
        stated: set[str] = set()
        unchecked: dict[str, str] = {}
        if exact:
            candidates = exact.candidates(target)
            set_apart, stated, unchecked = narrow(self.graph, self.ranker, qg, candidates, trace.notes,
                                                  self.value_nodes, self.class_only)
            if not candidates:  # every entity meeting the conditions is a kind of thing, not an answer
                exact, trace.exact_count = None, 0
        if soft and any(n.qid not in stated for n in soft):
            trace.notes.append("Soft constraints (weakly linked; used for ranking only): " + ", ".join(
                f"{question[n.mention.start:n.mention.end] if n.mention else n.label} -> {n.label}"  # the question's words
                for n in soft if n.qid not in stated))
        if not exact and self.rules.on(PARTIAL_MATCHES):
            with timer.stage("δ partial match fallback"):
                # partial candidates through each condition's own label: a demonym node is a hub that would flood them
                matches, support = self.matcher.partial(mq, trace.paths, self.matcher.known_label_sets(mq, also=False),
                                                        cfg.match.max_partial)
                candidates = best_tiers(support, mq, cfg.ranking.rank_cap, self.ranker.partial_tiers)
                if not candidates and soft:  # no firm condition joins anything: the weakly linked ones still may
                    candidates = self.matcher.soft_neighbours(soft, cfg.ranking.rank_cap)
                if self.ranker.partial_by_evidence and self.rules.on(DOCUMENT_CANDIDATES):
                    same_document(self.graph, qg, candidates, cfg.query.soft_below, cfg.ranking.rank_cap)
                narrow_partial(self.graph, self.rules, qg, candidates, self.value_nodes, self.class_only)
                unmet_reversed(self.ranker, qg, candidates)
            trace.notes.append("No exact match: showing the best partial matches.")
            if candidates and (note := unchecked_type(self.ranker, qg)):
                trace.notes.append(note)  # a condition the question names, said as for an exact set
        elif not exact:
            candidates, matches = {}, []
            trace.notes.append("No exact match (the rule partial_matches is off in this workspace: no partial answers).")
        with timer.stage("γ answer"):
            if soft:
                self.matcher.add_soft_support(candidates, soft)
            # rank() returns the whole top tier: with exact matches, the whole exact set
            ranked = self.ranker.rank(qg, candidates, max(cfg.answer.max_answers, 1) * 5, partial=not exact)
            ranked, within = self.ranker.within_first(qg, ranked) if exact else (ranked, {})
            if exact:  # evidence only for the matches the trace keeps
                matches = exact.matches([r.node_id for r in ranked], cfg.match.max_matches)
            order = {r.node_id: i for i, r in enumerate(ranked)}
            trace.matches = sorted(matches, key=lambda m: order.get(m.binding[target], len(order)))[: cfg.match.max_matches]
            by_evidence = self.ranker.partial_by_evidence
            answer = offline_answer(qg, ranked, bool(trace.exact_count), cfg.answer.min_confidence,
                                    cfg.ranking.tie_confidence, self.ranker.weights, by_evidence,
                                    cfg.query.soft_below, JOINED if unchecked else MEETING, within)
            trace.notes.extend(met_through(self.graph, qg, candidates, ranked[:1]))
            answer = _read_from_documents(answer, trace, target,
                                          cfg.answer.partial_fact_weight if by_evidence and not exact else None)
            context = relation_paragraph(trace.matches) if trace.exact_count else self.one_hop_context(qg)
            answer = replace(answer, ranked=answer.ranked[: cfg.answer.max_answers], context=context,
                             set_apart=tuple(set_apart))
            if cfg.answer.mode == "llm" and self.llm is not None:
                answer = llm_answer(self.llm, question, answer, trace.notes, JOINED if unchecked else MEETING)
        trace.answer = self._accounted(answer, qg, trace, stated, give, unchecked)
        trace.timings_ms["total"] = round((time.perf_counter() - t_all) * 1000, 3)
        return trace

    def _accounted(self, answer: Answer, qg, trace: QueryTrace, stated: set[str] = frozenset(),
                   gave_way: set[str] = frozenset(), unchecked: dict[str, str] | None = None) -> Answer:
        """The answer with every named condition accounted for and its one-line verdict."""
        proved = tuple({e.relation for m in trace.matches if m.exact for e in m.edges})
        conditions = account(qg, answer, trace.firm_qids, stated, gave_way, self.config.query.soft_below,
                             self.linker.knows, proved, unchecked)
        return replace(answer, conditions=conditions, headline=headline(answer, conditions))

    @property
    def lexicon_changed(self) -> str:
        """A one-line notice when the lexicon now in use differs from the one the index was built with
        (its type-like relations shaped the schema profile and the evidence model); "" otherwise."""
        built = self.meta.get("lexicon") or {}
        if not built or built.get("hash") == self.lexicon.digest:
            return ""
        what = (f"preset {built.get('preset')!r} -> {self.lexicon.preset!r}" if built.get("preset") != self.lexicon.preset
                else "the workspace's lexicon.json changed")
        return (f"The lexicon changed since this index was built ({what}): rebuild "
                f"(`python -m sgrag build --workspace {self.workspace.path}`) so every rule reads the same one.")

    @cached_property
    def schema_profile(self) -> SchemaProfile:
        """What the build learned about this graph's conventions (``sgrag.schema.SchemaProfile``); an index
        built before profiles were stored learns it now, from the same graph."""
        return SchemaProfile.load(self.version_dir / PROFILE_FILE) or learn_profile(
            self.graph, self.lexicon.type_relations, ProfileThresholds.of(self.config.ranking))

    @cached_property
    def class_only(self) -> np.ndarray:
        """Per node: a class node documents made ("person"): never an answer."""
        return class_only_nodes(self.graph)

    @cached_property
    def value_nodes(self) -> np.ndarray:
        """Per node: whether its label is a value (year, date, number), not a thing's name."""
        return value_nodes(self.graph)

    def _match_firm(self, qg, trace: QueryTrace, timer: _Timer):
        """ψ3..δ over the firm constraints (all of them when none is firm): the verified exact matches."""
        cfg = self.config
        length = min(cfg.index.path_length, max(self.indexes))
        hard = {n.qid for n in qg.constraints if n.confidence >= cfg.query.soft_below}
        mq = qg.restricted_to(hard) if hard else qg
        with timer.stage("ψ3 decomposition"):
            trace.paths = decompose(mq, length)
        with timer.stage("ψ4 label completion"):
            known = self.matcher.known_label_sets(mq)
            label_sets, trace.label_completion, searched = self.matcher.complete_labels(
                mq, trace.paths, known, cfg.query.max_label_candidates)
        with timer.stage("σ+δ retrieval + assembly"):
            exact, retrieval, trace.funnel = self.matcher.match(mq, trace.paths, label_sets, searched)
        trace.path_matches = retrieval.stats
        trace.exact_count = len(exact)
        return mq, exact, known

    def near_misses(self, trace: QueryTrace, limit: int = 10) -> list[RankedAnswer]:
        """The best candidates outside the exact set, each naming the constraints it fails (for display).

        Computed on demand (a relaxed retrieval costs more than the exact one), from the trace alone.
        """
        qg, a = trace.query_graph, trace.answer
        if qg is None or a is None or not a.exact_set or not trace.paths:
            return []
        mq = qg.restricted_to(trace.firm_qids)
        _, support = self.matcher.partial(mq, trace.paths, self.matcher.known_label_sets(mq), 0)
        members = {self.graph.index_of[r.node_id] for r in a.exact_set} | {self.graph.index_of[x.node_id] for x in a.set_apart}
        outside = best_tiers({x: sat for x, sat in support.items() if x not in members}, mq, self.config.ranking.rank_cap,
                             self.ranker.partial_tiers)
        return self.ranker.rank(qg, outside, limit, partial=True)[:limit]

    def one_hop_context(self, qg, limit: int = 60) -> str:
        """The paper's fallback answer context (``answer.one_hop_context``)."""
        return one_hop_context(self.graph, qg, limit)

    # ---- exploration helpers ------------------------------------------------------------
    def node_kinds(self, v: int) -> list[str]:
        """What kinds of thing node index ``v`` is, read from the relations it holds (empty when they name none)."""
        return self.ranker.kinds_of(v)

    def search_entities(self, text: str, k: int = 10) -> list[LinkCandidate]:
        return self.linker.search(text, k) if text.strip() else []

    def neighborhood(self, node_id: str, depth: int = 1, relations: set[str] | None = None,
                     max_nodes: int = 200) -> tuple[list[int], list[int], int]:
        """Nodes and edges within ``depth`` hops of a node (``graph.neighborhood``)."""
        return neighborhood(self.graph, node_id, depth, relations, max_nodes)


def create_demo(path: str | os.PathLike, assets: Path, progress: ProgressFn = no_progress,
                config: SgragConfig | None = None, force: bool = False) -> dict:
    """Import the shipped demo graph and sample questions, then build (skipped if built)."""
    ws = Workspace(path)
    if ws.exists and ws.index_version and not force:
        return {"version": ws.index_version, "skipped": True}
    Engine.import_kg(path, graphml=assets / "fb_erqa_mini.graphml", config=config)
    examples = []
    qfile = assets / "fb_erqa_mini_questions.csv"
    if qfile.exists():
        import csv
        with open(qfile, encoding="utf-8") as fh:
            examples = [row["query"] for _, row in zip(range(12), csv.DictReader(fh))]
    atomic_write_json(Workspace(path).path / "examples.json", examples)
    return Engine.build(path, progress)


def trace_json(trace: QueryTrace) -> str:
    return json.dumps(trace.to_json(), ensure_ascii=False, indent=1)
