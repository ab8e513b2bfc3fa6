"""all-MiniLM-L6-v2 sentence embeddings in numpy: the same BERT forward pass and mean pooling as
sentence-transformers, without importing torch (about 5 s of a cold ``ask``).

The weights are read from the bundled ``model.safetensors`` and the tokenizer from its
``tokenizer.json`` (the Rust ``tokenizers`` library that sentence-transformers also uses), so the
vectors match sentence-transformers' to float32 rounding (cosine > 0.99999).
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Sequence

import numpy as np

MAX_TOKENS = 256  # sentence_bert_config.json's max_seq_length: longer texts are truncated, as there
BATCH_TOKENS = 8192  # padded tokens per forward pass: ~100 MB of attention scores at 256 tokens
_ERF = np.frompyfunc(math.erf, 1, 1)  # exact erf, element-wise: a question's few tokens need no scipy import (0.2 s)


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


class NumpyMiniLM:
    """A BERT encoder (MiniLM-L6-H384) with mean pooling, float32, CPU."""

    def __init__(self, model_dir: str | Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
        model_dir = Path(model_dir)
        cfg = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self.heads = int(cfg["num_attention_heads"])
        self.layers = int(cfg["num_hidden_layers"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        self.w = load_file(str(model_dir / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def _lin(self, x: np.ndarray, name: str) -> np.ndarray:
        # W @ x.T, not x @ W.T: OpenBLAS repacks the weight matrix less this way round, about 2x faster for a
        # question's few tokens (the weights are read once per pass; compute is small)
        return (self.w[name + ".weight"] @ x.T).T + self.w[name + ".bias"]

    def encode(self, texts: Sequence[str], batch_size: int = 256) -> np.ndarray:
        """(len(texts), 384) mean-pooled, unnormalised embeddings; texts of similar token length run together,
        at most ``BATCH_TOKENS`` padded tokens at a time (attention memory grows with the square of the length)."""
        ids = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        out = np.zeros((len(texts), self.w["embeddings.word_embeddings.weight"].shape[1]), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        start = 0
        while start < len(order):
            end = start + 1
            while (end < len(order) and end - start < batch_size
                   and (end - start + 1) * len(ids[order[end]]) <= BATCH_TOKENS):
                end += 1
            rows = order[start:end]
            start = end
            length = max(len(ids[i]) for i in rows)
            tok = np.zeros((len(rows), length), dtype=np.int64)
            mask = np.zeros((len(rows), length), dtype=np.float32)
            for r, i in enumerate(rows):
                tok[r, :len(ids[i])] = ids[i]
                mask[r, :len(ids[i])] = 1.0
            out[rows] = self._forward(tok, mask)
        return out

    def _forward(self, tok: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, eps = self.w, self.eps
        n, t = tok.shape
        x = (w["embeddings.word_embeddings.weight"][tok] + w["embeddings.position_embeddings.weight"][:t]
             + w["embeddings.token_type_embeddings.weight"][0])
        d = x.shape[-1]
        x = _layer_norm(x.reshape(n * t, d), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        hd = d // self.heads
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]  # padded keys get no attention

        def heads(y):  # (n*t, d) -> (n, heads, t, hd)
            return y.reshape(n, t, self.heads, hd).transpose(0, 2, 1, 3)
        for i in range(self.layers):  # activations stay 2-D (n*t, d), so each linear layer is one BLAS call
            p = f"encoder.layer.{i}."
            q = heads(self._lin(x, p + "attention.self.query"))
            k = heads(self._lin(x, p + "attention.self.key"))
            v = heads(self._lin(x, p + "attention.self.value"))
            s = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(hd)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(n * t, d)
            x = _layer_norm(self._lin(ctx, p + "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
            h = self._lin(x, p + "intermediate.dense")
            erf = _ERF(h / np.float32(np.sqrt(2.0))).astype(np.float32)
            h = (0.5 * h * (1.0 + erf)).astype(np.float32)  # exact (erf) GELU, as BERT's "gelu"
            x = _layer_norm(self._lin(h, p + "output.dense") + x,
                            w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        summed = (x.reshape(n, t, d) * mask[:, :, None]).sum(1)
        return summed / np.maximum(mask.sum(1, keepdims=True), 1e-9)
