"""Query-side dominance keys: the trained GNN's per-node terms as numpy arrays, so answering a question
needs neither torch nor the model (``sgrag.gnn`` trains it and computes these terms once per build).

Float rounding is handled with integers: data embeddings are rounded up (``node_dom``), query
embeddings rounded down here, with one unit of slack, all computed in float64.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .fsutil import atomic_write_bytes

KEYS_FILE = "dominance.npz"
LAYER_ARRAYS = ("msg", "src", "center", "readout", "msg_lb")
LAYER_SCALARS = ("unk_center", "src_lb")


@dataclass
class DominanceEncoder:
    """Embeds query stars with the same per-node terms the data stars were embedded with.

    ``layers`` holds, per GNN layer (sum, then max), each node's message (``msg``), source and centre
    attention scores, the read-out, and lower bounds over every label (what an unknown centre or
    neighbour contributes at least). ``node_dom`` is the integer (rounded-up) embedding of every data
    node's star. ``model`` is the trained torch module right after training (what ``gnn.pt`` keeps), None
    when loaded from ``dominance.npz``.
    """
    layers: list[dict]
    node_dom: np.ndarray  # (n, dim) int64
    scale: np.ndarray  # (dim,) grid units per embedding unit
    history: list[dict]
    model: Any = None
    _stars: dict = field(default_factory=dict, repr=False)

    @property
    def dim(self) -> int:
        return int(self.scale.shape[0])

    def query_star(self, center: int | None, neighbors: list[int | None]) -> np.ndarray:
        """Integer (rounded-down) embedding of a query star.

        ``center`` is a graph node whose label the query centre has (None: unknown);
        ``neighbors`` are graph nodes the query centre must be adjacent to (None: a
        neighbour of unknown label, counted at its smallest possible contribution).
        The result is <= ``node_dom[v]`` for every v whose star contains such a star.
        """
        key = (center, tuple(sorted(neighbors, key=lambda v: -1 if v is None else v)))
        cached = self._stars.get(key)
        if cached is not None:
            return cached
        known = sorted({v for v in neighbors if v is not None})
        n_unknown = sum(1 for v in neighbors if v is None)
        parts = []
        for L in self.layers:
            c = L["unk_center"] if center is None else float(L["center"][center])
            total = np.zeros(L["msg"].shape[1], dtype=np.float64)
            if known:
                gate = 1.0 / (1.0 + np.exp(-(L["src"][known] + c)))
                m = gate[:, None] * L["msg"][known]
                total = m.sum(0) if L["agg"] == "sum" else m.max(0)
            if n_unknown:
                m_unk = L["msg_lb"] / (1.0 + np.exp(-(L["src_lb"] + c)))
                total = total + n_unknown * m_unk if L["agg"] == "sum" else np.maximum(total, m_unk)
            parts.append(L["readout"] @ total)
        out = np.floor(np.concatenate(parts) * self.scale).astype(np.int64)
        if len(self._stars) > 65536:
            self._stars.clear()
        self._stars[key] = out
        return out

    def save(self, path: str | Path) -> None:
        """The query-side arrays, written atomically (no pickles: ``load`` reads them with allow_pickle=False)."""
        arrays = {"node_dom": self.node_dom, "scale": np.asarray(self.scale, dtype=np.float64),
                  "aggs": np.array([L["agg"] for L in self.layers], dtype=str)}
        for i, L in enumerate(self.layers):
            arrays.update({f"{i}.{k}": np.asarray(L[k]) for k in LAYER_ARRAYS})
            arrays.update({f"{i}.{k}": np.float64(L[k]) for k in LAYER_SCALARS})
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        atomic_write_bytes(Path(path), buf.getvalue())

    @classmethod
    def load(cls, path: str | Path, history: list[dict] | None = None) -> "DominanceEncoder":
        with np.load(path, allow_pickle=False) as z:
            layers = []
            for i, agg in enumerate(z["aggs"].tolist()):
                layer: dict = {"agg": agg}
                layer.update({k: z[f"{i}.{k}"] for k in LAYER_ARRAYS})
                layer.update({k: float(z[f"{i}.{k}"]) for k in LAYER_SCALARS})
                layers.append(layer)
            return cls(layers=layers, node_dom=z["node_dom"], scale=z["scale"], history=list(history or []))
