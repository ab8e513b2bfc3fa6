"""M: the dominance GNN. Monotone by construction, so pruning never drops a true match.

A node's dominance embedding o(v) summarises its 1-hop star. For any sub-star s of v's star
(same centre, a subset of its neighbours) we need o(s) <= o(v) in every dimension. The paper
trains a softmax GAT towards that, which cannot guarantee it for sub-stars never sampled
(and softmax attention is not monotone: removing a neighbour raises the others' weights).
Here every message is non-negative, gates are unnormalised sigmoids, aggregation is a sum
and the read-out has non-negative weights: adding a neighbour can only raise o. Training
then optimises *pruning power* only (how often a non-containing star is told apart).

Float rounding is handled with integers: data embeddings are rounded up, query embeddings
rounded down, with one unit of slack (``quantize``), all computed in float64.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch_geometric.nn import MessagePassing

from .config import GNNConfig
from .graph import KnowledgeGraph
from .types import Progress, ProgressFn, no_progress


class MonotoneGATConv(MessagePassing):
    r"""GAT-like layer whose output is monotone in the neighbour set.

    .. math::
        h_i = \sum_{j \in N(i)} \sigma(c_i + a^\top x_j)\,\mathrm{softplus}(W x_j)

    with :math:`c_i` the centre's attention score. All terms are >= 0, so a sub-star
    aggregates to a smaller (or equal) vector.

    Args:
        in_channels: size of the label embedding of each node.
        hidden: size of the message vectors.

    Shapes:
        - x_src: (N_src, in_channels) neighbour features
        - center_score: (N_dst, 1) attention score of each star centre
        - edge_index: (2, E) rows (neighbour index in x_src, star index)
        - output: (N_dst, hidden)
    """

    def __init__(self, in_channels: int, hidden: int):
        super().__init__(aggr="add")
        self.in_channels, self.hidden = in_channels, hidden
        self.lin_msg = nn.Linear(in_channels, hidden)
        self.att_src = nn.Linear(in_channels, 1, bias=False)
        self.att_dst = nn.Linear(in_channels, 1)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        self.lin_msg.reset_parameters()
        self.att_src.reset_parameters()
        self.att_dst.reset_parameters()

    def messages_of(self, x_src: Tensor) -> tuple[Tensor, Tensor]:
        """Per-neighbour message vector (>= 0) and attention score."""
        return F.softplus(self.lin_msg(x_src)), self.att_src(x_src)

    def center_score(self, x_dst: Tensor) -> Tensor:
        return self.att_dst(x_dst)

    def forward(self, x_src: Tensor, center_score: Tensor, edge_index: Tensor) -> Tensor:
        h, s = self.messages_of(x_src)
        return self.propagate(edge_index, h=h, s=s, c=center_score,
                              size=(x_src.size(0), center_score.size(0)))

    def message(self, h_j: Tensor, s_j: Tensor, c_i: Tensor) -> Tensor:
        return torch.sigmoid(s_j + c_i) * h_j

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.in_channels}, {self.hidden})"


class DominanceGNN(nn.Module):
    """Input projection + monotone GAT layer + non-negative linear read-out.

    Args:
        in_channels: label embedding size.
        hidden: message size.
        dim: dominance embedding size.

    Shapes:
        - forward(x, center_score, edge_index) -> (N_dst, dim), every entry >= 0
    """

    def __init__(self, in_channels: int, hidden: int, dim: int):
        super().__init__()
        self.in_channels, self.hidden, self.dim = in_channels, hidden, dim
        self.conv = MonotoneGATConv(in_channels, hidden)
        self.readout_raw = nn.Parameter(torch.empty(dim, hidden))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        self.conv.reset_parameters()
        nn.init.normal_(self.readout_raw, mean=-1.0, std=1.0)

    @property
    def readout(self) -> Tensor:
        """Non-negative read-out weights (softplus keeps them >= 0 while trainable)."""
        return F.softplus(self.readout_raw)

    def forward(self, x_src: Tensor, center_score: Tensor, edge_index: Tensor) -> Tensor:
        return self.conv(x_src, center_score, edge_index) @ self.readout.T

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(in={self.in_channels}, hidden={self.hidden}, dim={self.dim})"


@dataclass
class DominanceEncoder:
    """A trained DominanceGNN plus what is needed to embed query stars with unknown labels.

    ``node_dom`` holds the integer (rounded-up) embedding of every data node's star.
    """
    model: DominanceGNN
    features: np.ndarray  # (n, F) float32 label embeddings of the graph's nodes
    node_dom: np.ndarray  # (n, dim) int64
    scale: np.ndarray  # (dim,) grid units per embedding unit
    unk_center: float  # lower bound of the centre score over all labels
    unk_msg_lb: np.ndarray  # (hidden,) lower bound of a message from an unknown neighbour
    unk_src_lb: float  # lower bound of the neighbour attention score over all labels
    history: list[dict]

    def __post_init__(self) -> None:
        self.model = self.model.double().eval()
        with torch.no_grad():  # per-node terms of the layer, so a query star is a few numpy ops
            x = torch.from_numpy(np.asarray(self.features, dtype=np.float64))
            h, s = self.model.conv.messages_of(x)
            self._msg, self._src = h.numpy(), s[:, 0].numpy()
            self._center = self.model.conv.center_score(x)[:, 0].numpy()
            self._readout = self.model.readout.numpy()
        self._stars: dict[tuple, np.ndarray] = {}

    @property
    def dim(self) -> int:
        return self.model.dim

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
        c = self.unk_center if center is None else float(self._center[center])
        total = np.zeros(self._msg.shape[1], dtype=np.float64)
        known = sorted({v for v in neighbors if v is not None})
        if known:
            gate = 1.0 / (1.0 + np.exp(-(self._src[known] + c)))
            total += (gate[:, None] * self._msg[known]).sum(0)
        n_unknown = sum(1 for v in neighbors if v is None)
        if n_unknown:
            total += n_unknown / (1.0 + np.exp(-(self.unk_src_lb + c))) * self.unk_msg_lb
        out = np.floor((self._readout @ total) * self.scale).astype(np.int64)
        if len(self._stars) > 65536:
            self._stars.clear()
        self._stars[key] = out
        return out

    def state(self) -> dict:
        return {"model": self.model.state_dict(), "scale": torch.from_numpy(np.asarray(self.scale)),
                "unk_center": self.unk_center, "unk_msg_lb": torch.from_numpy(self.unk_msg_lb), "unk_src_lb": self.unk_src_lb,
                "node_dom": torch.from_numpy(self.node_dom), "history": self.history,
                "shape": [self.model.in_channels, self.model.hidden, self.model.dim]}

    @classmethod
    def from_state(cls, state: dict, features: np.ndarray) -> "DominanceEncoder":
        in_ch, hidden, dim = state["shape"]
        model = DominanceGNN(in_ch, hidden, dim)
        model.load_state_dict(state["model"])
        model.eval()
        return cls(model=model, features=features, node_dom=state["node_dom"].numpy(),
                   scale=state["scale"].numpy().astype(np.float64), unk_center=float(state["unk_center"]),
                   unk_msg_lb=state["unk_msg_lb"].numpy(), unk_src_lb=float(state["unk_src_lb"]),
                   history=list(state["history"]))


def star_edge_index(graph: KnowledgeGraph) -> np.ndarray:
    """(2, E) edges neighbour -> centre over distinct undirected neighbours."""
    sets = graph.neighbor_sets
    counts = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    dst = np.repeat(np.arange(len(sets), dtype=np.int64), counts)
    src = np.concatenate(sets).astype(np.int64) if len(sets) and counts.sum() else np.zeros(0, np.int64)
    return np.stack([src, dst])


def _sample_pairs(graph: KnowledgeGraph, rng: np.random.Generator, count: int, max_k: int = 6):
    """Query stars (a node's random neighbour subset) and negatives that miss one of them.

    Negatives are neighbours of one star member, the candidates retrieval actually meets.
    """
    sets = graph.neighbor_sets
    deg = graph.degree
    eligible = np.flatnonzero(deg >= 2)
    if eligible.size == 0:
        return [], []
    stars, negatives = [], []
    tries = 0
    while len(stars) < count and tries < count * 10:
        tries += 1
        u = int(rng.choice(eligible))
        nb = sets[u]
        k = int(rng.integers(2, min(max_k, nb.size) + 1))
        subset = rng.choice(nb, size=k, replace=False)
        anchor = int(rng.choice(subset))
        cands = sets[anchor]
        v = int(rng.choice(cands))
        if v == u or np.all(np.isin(subset, sets[v], assume_unique=True)):
            continue
        stars.append(subset)
        negatives.append(v)
    return stars, negatives


def _grid_scale(out: np.ndarray, units: float) -> np.ndarray:
    """Per-dimension integer grid: ``units`` per median value, kept below 2**50 (exact in float64)."""
    scale = np.full(out.shape[1] if out.ndim == 2 else 0, units, dtype=np.float64)
    for d in range(scale.size):
        col = out[:, d]
        pos = col[col > 0]
        if pos.size:
            scale[d] = min(units / float(np.median(pos)), 2.0**50 / max(float(pos.max()), 1e-300))
    return scale


def _pruned_fraction(q: Tensor, d: Tensor) -> float:
    return float((q > d).any(dim=1).float().mean()) if q.numel() else 0.0


def train_dominance(graph: KnowledgeGraph, features: np.ndarray, cfg: GNNConfig,
                    quant_scale: float, progress: ProgressFn = no_progress,
                    should_stop=lambda: False) -> DominanceEncoder:
    """Train for pruning power and embed every node's star (integers, rounded up)."""
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    x = torch.from_numpy(np.ascontiguousarray(features, dtype=np.float32))
    ei = torch.from_numpy(star_edge_index(graph))
    model = DominanceGNN(x.size(1), cfg.hidden, cfg.dim)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    history: list[dict] = []
    stars, negs = _sample_pairs(graph, rng, cfg.pairs_per_epoch)
    t0 = time.perf_counter()
    if stars:
        q_src = torch.from_numpy(np.concatenate(stars).astype(np.int64))
        q_dst = torch.from_numpy(np.repeat(np.arange(len(stars)), [len(s) for s in stars]))
        q_ei = torch.stack([q_src, q_dst])
        neg_idx = torch.tensor(negs, dtype=torch.long)
        for epoch in range(cfg.epochs):
            if should_stop():
                break
            model.train()
            opt.zero_grad()
            centers = model.conv.center_score(x[neg_idx])  # query centre has the negative's label
            d_out = model(x, model.conv.center_score(x), ei)[neg_idx]
            q_out = model(x, centers, q_ei)
            rel = (q_out - d_out) / (q_out + d_out + 1e-6)
            soft_max = torch.logsumexp(rel * 20.0, dim=1) / 20.0
            loss = F.relu(0.2 - soft_max).mean()
            loss.backward()
            opt.step()
            loss = float(loss.detach())
            with torch.no_grad():
                pruned = _pruned_fraction(q_out, d_out)
            elapsed = time.perf_counter() - t0
            eta = elapsed / (epoch + 1) * (cfg.epochs - epoch - 1)
            history.append({"epoch": epoch + 1, "loss": loss, "pruning_power": pruned})
            progress(Progress("gnn", epoch + 1, cfg.epochs, f"epoch {epoch + 1}: loss {loss:.4f}, "
                              f"pruning power {pruned:.1%}", eta, {"loss": loss, "pruning_power": pruned}))
    model.eval()
    model = model.double()
    with torch.no_grad():
        xd = x.double()
        cs = model.conv.center_score(xd)
        out = model(xd, cs, ei).numpy() if graph.num_nodes else np.zeros((0, cfg.dim))
        h, s = model.conv.messages_of(xd)
        unk_center = float(cs.min()) if cs.numel() else 0.0
        unk_src = float(s.min()) if s.numel() else 0.0
        msg_lb = h.min(0).values.numpy() if h.numel() else np.zeros(cfg.hidden)
    scale = _grid_scale(out, quant_scale)
    scaled = out * scale
    # Round up plus slack far above float64 summation error (~1e-13 relative for 10k terms).
    node_dom = np.ceil(scaled + np.abs(scaled) * 1e-9).astype(np.int64) + 1
    enc = DominanceEncoder(model=model, features=np.asarray(features, dtype=np.float32), node_dom=node_dom,
                           scale=scale, unk_center=unk_center, unk_msg_lb=msg_lb,
                           unk_src_lb=unk_src, history=history)
    return enc


def pruning_power(enc: DominanceEncoder, graph: KnowledgeGraph, samples: int = 2000, seed: int = 1) -> float:
    """Share of sampled non-containing (query star, candidate) pairs the filter rejects."""
    rng = np.random.default_rng(seed)
    stars, negs = _sample_pairs(graph, rng, samples)
    if not stars:
        return math.nan
    rejected = 0
    for subset, v in zip(stars, negs):
        q = enc.query_star(v, [int(s) for s in subset])
        rejected += bool((q > enc.node_dom[v]).any())
    return rejected / len(stars)
