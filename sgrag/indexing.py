"""Building an index version: label embeddings, the FAISS label index, the dominance GNN, path indexes,
the schema profile, the ranker's evidence model, and the version's meta (φ and M at build time)."""
from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from .config import SgragConfig
from .embed import EmbeddingCache, make_embedder
from .errors import BuildCancelled
from .fsutil import atomic_write_json
from .dominance import KEYS_FILE
from .gnn import encoder_state, pruning_power, train_dominance
from .graph import KnowledgeGraph
from .index import LabelIndex, PathIndex, count_paths, enumerate_paths, label_signatures
from .lexicon import Lexicon, resolve_preset
from .ranking import EvidenceModel
from .schema import PROFILE_FILE, ProfileThresholds, learn_profile
from .types import Progress, ProgressFn
from .workspace import Workspace


def build_index(out: Path, graph: KnowledgeGraph, ws: Workspace, cfg: SgragConfig, progress: ProgressFn,
                should_stop: Callable[[], bool], llm) -> dict:
    """Writes every index file of a new version into ``out`` (embeddings, FAISS, GNN, path indexes, evidence)
    and returns its meta; ``Engine.build`` switches to it only when this returns."""
    timings: dict[str, float] = {}

    def check():
        if should_stop():
            raise BuildCancelled("build cancelled; the previous index is still in use")

    @contextmanager
    def stage(name):
        check()
        t0 = time.perf_counter()
        yield
        timings[name] = round(time.perf_counter() - t0, 3)

    for L in range(1, cfg.index.path_length + 1):  # refuse an oversized index before any expensive stage
        if count_paths(graph, L) > cfg.index.max_paths:
            enumerate_paths(graph, L, cfg.index.max_paths)  # raises BuildError with the figures
    with stage("graph"):
        graph.save(out / "graph")
    embedder = make_embedder(cfg.embed, llm)
    cache = EmbeddingCache(ws.cache_dir / "embeddings", embedder)
    with stage("embeddings"):
        label_vecs = cache.embed(graph.label_vocab, progress, "embeddings")
        np.save(out / "label_vectors.npy", label_vecs)
    with stage("faiss"):
        LabelIndex(label_vecs).save(out / "labels.faiss")
        progress(Progress("faiss", 1, 1, f"FAISS index over {len(graph.label_vocab):,} labels"))
    with stage("gnn"):
        enc = train_dominance(graph, label_vecs[graph.label_id], cfg.gnn, cfg.index.quant_scale, progress, should_stop)
        check()
        torch.save(encoder_state(enc), out / "gnn.pt")
        enc.save(out / KEYS_FILE)  # what a question needs, without torch
        power = pruning_power(enc, graph)
    sizes = {}
    node_sig = label_signatures(graph, cfg.index.signature_bits) if cfg.index.signature_bits > 0 else None
    for L in range(1, cfg.index.path_length + 1):
        with stage(f"paths_l{L}"):
            idx = PathIndex.build(graph, enc.node_dom, L, cfg.index.max_paths, cfg.index.leaf_capacity, progress,
                                  node_sig)
            idx.save(out / f"paths_l{L}.npz")
            sizes[L] = idx.size
    lexicon = Lexicon.of_workspace(ws.path, resolve_preset(cfg.query.lexicon, graph.relations))
    with stage("profile"):
        progress(Progress("profile", 0, 1, "learning the graph's conventions"))
        profile = learn_profile(graph, lexicon.type_relations, ProfileThresholds.of(cfg.ranking))
        profile.save(out / PROFILE_FILE)
        pairs = len({frozenset(x) for x in profile.reciprocal.items()})
        progress(Progress("profile", 1, 1, f"schema profile: relations named as {profile.naming}, "
                                           f"{pairs} relation(s) or pairs stored both ways"))
    with stage("evidence"):
        progress(Progress("evidence", 0, 1, "embedding relation and type phrases"))
        EvidenceModel.build(graph, lambda t: cache.embed(t), lexicon.type_relations).save(out / "evidence.npz")
        progress(Progress("evidence", 1, 1, "relation and type phrases embedded"))
    meta = {"created": time.time(), "source": ws.source_version, "config_hash": cfg.index_hash(),
            "embed_backend": cfg.embed.backend,
            "embedder": embedder.name, "path_length": cfg.index.path_length, "stats": graph.stats(),
            "paths": sizes, "timings_s": timings, "gnn_history": enc.history, "pruning_power": power,
            "lexicon": {"preset": lexicon.preset, "hash": lexicon.digest}}
    atomic_write_json(out / "meta.json", meta)
    return meta
