"""M: the dominance GNN. Monotone by construction, so pruning never drops a true match.

A node's dominance embedding o(v) summarises its 1-hop star. For any sub-star s of v's star
(same centre, a subset of its neighbours) we need o(s) <= o(v) in every dimension. The paper
trains a softmax GAT towards that, which cannot guarantee it for sub-stars never sampled
(and softmax attention is not monotone: removing a neighbour raises the others' weights).
Here every message is non-negative, gates are unnormalised sigmoids, aggregation is a sum
and the read-out has non-negative weights: adding a neighbour can only raise o. Training
then optimises *pruning power* only (how often a non-containing star is told apart).

Float rounding is handled with integers: data embeddings are rounded up, query embeddings
rounded down, with one unit of slack, all computed in float64. The query side lives in
``sgrag.dominance`` (numpy only): questions never import torch.
"""
from __future__ import annotations

import contextlib
import math
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch_geometric.nn import MessagePassing

from .config import GNNConfig
from .dominance import DominanceEncoder
from .errors import SgragError
from .graph import KnowledgeGraph
from .types import Progress, ProgressFn, no_progress


def _drop_generated_source(cls: type) -> None:
    """torch_geometric writes a MessagePassing class's generated ``propagate`` to a temporary file it never removes
    (one per class and process: one more in /tmp per build); the module is loaded by then and nothing reads it
    again (no TorchScript here)."""
    module = sys.modules.get(f"{cls.__module__}_{cls.__name__}_propagate")
    path = getattr(module, "__file__", None) or ""
    if os.path.dirname(os.path.abspath(path)) == os.path.abspath(tempfile.gettempdir()) and os.path.exists(path):
        with contextlib.suppress(OSError):
            os.unlink(path)


class MonotoneGATConv(MessagePassing):
    r"""GAT-like layer whose output is monotone in the neighbour set.

    .. math::
        h_i = \sum_{j \in N(i)} \sigma(c_i + a^\top x_j)\,\mathrm{softplus}(W x_j)

    with :math:`c_i` the centre's attention score. All terms are >= 0, so a sub-star
    aggregates to a smaller (or equal) vector; with ``aggr="max"`` the sum becomes a
    maximum, which is monotone too and does not grow with the degree of hubs.

    Args:
        in_channels: size of the label embedding of each node.
        hidden: size of the message vectors.

    Shapes:
        - x_src: (N_src, in_channels) neighbour features
        - center_score: (N_dst, 1) attention score of each star centre
        - edge_index: (2, E) rows (neighbour index in x_src, star index)
        - output: (N_dst, hidden)
    """

    def __init__(self, in_channels: int, hidden: int, aggr: str = "add"):
        super().__init__(aggr=aggr)
        _drop_generated_source(type(self))
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
    """Two monotone GAT layers (sum and max aggregation) + non-negative linear read-outs.

    Sum features count how much of each kind a star holds; max features keep the most
    extreme neighbour, so a hub's star does not dominate a small query star in every
    dimension just by its size.

    Args:
        in_channels: label embedding size.
        hidden: message size.
        dim: sum-aggregated output dimensions.
        max_dim: max-aggregated output dimensions.

    Shapes:
        - forward(x, center_score, edge_index) -> (N_dst, dim + max_dim), every entry >= 0
    """

    def __init__(self, in_channels: int, hidden: int, dim: int, max_dim: int = 0):
        super().__init__()
        self.in_channels, self.hidden, self.sum_dim, self.max_dim = in_channels, hidden, dim, max_dim
        self.conv = MonotoneGATConv(in_channels, hidden, "add")
        self.conv_max = MonotoneGATConv(in_channels, hidden, "max")
        self.readout_raw = nn.Parameter(torch.empty(dim, hidden))
        self.readout_max_raw = nn.Parameter(torch.empty(max_dim, hidden))
        self.reset_parameters()

    @property
    def dim(self) -> int:
        return self.sum_dim + self.max_dim

    def reset_parameters(self) -> None:
        self.conv.reset_parameters()
        self.conv_max.reset_parameters()
        nn.init.normal_(self.readout_raw, mean=-1.0, std=1.0)
        nn.init.normal_(self.readout_max_raw, mean=-1.0, std=1.0)

    @property
    def readout(self) -> Tensor:
        """Non-negative read-out weights (softplus keeps them >= 0 while trainable)."""
        return F.softplus(self.readout_raw)

    @property
    def readout_max(self) -> Tensor:
        return F.softplus(self.readout_max_raw)

    def center_scores(self, x_dst: Tensor) -> Tensor:
        """(N, 2) attention scores of star centres for the sum and the max layer."""
        return torch.cat([self.conv.center_score(x_dst), self.conv_max.center_score(x_dst)], dim=1)

    def forward(self, x_src: Tensor, center_score: Tensor, edge_index: Tensor) -> Tensor:
        out = [self.conv(x_src, center_score[:, :1], edge_index) @ self.readout.T]
        if self.max_dim:
            out.append(self.conv_max(x_src, center_score[:, 1:], edge_index) @ self.readout_max.T)
        return torch.cat(out, dim=1)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(in={self.in_channels}, hidden={self.hidden}, "
                f"sum_dim={self.sum_dim}, max_dim={self.max_dim})")


ENCODER_FORMAT = 2


def encoder_of(model: DominanceGNN, features: np.ndarray, node_dom: np.ndarray, scale: np.ndarray,
               history: list[dict]) -> DominanceEncoder:
    """The query-side encoder: each layer's per-node terms computed once (float64), so a query star is a few
    numpy ops and answering needs no torch."""
    model = model.double().eval()
    layers = []
    with torch.no_grad():
        x = torch.from_numpy(np.asarray(features, dtype=np.float64))
        for conv, readout, agg in ((model.conv, model.readout, "sum"), (model.conv_max, model.readout_max, "max")):
            if readout.shape[0] == 0:
                continue
            h, s = conv.messages_of(x)
            c = conv.center_score(x)[:, 0]
            empty = h.numel() == 0
            layers.append({
                "agg": agg, "msg": h.numpy(), "src": s[:, 0].numpy(), "center": c.numpy(),
                "readout": readout.numpy(),
                # lower bounds over every label: what an unknown centre or neighbour contributes at least
                "unk_center": 0.0 if empty else float(c.min()), "src_lb": 0.0 if empty else float(s.min()),
                "msg_lb": np.zeros(h.shape[1]) if empty else h.min(0).values.numpy()})
    return DominanceEncoder(layers=layers, node_dom=node_dom, scale=np.asarray(scale, dtype=np.float64),
                            history=history, model=model)


def encoder_state(enc: DominanceEncoder) -> dict:
    """What ``gnn.pt`` keeps: the trained weights (a state_dict) and the data stars' keys."""
    m = enc.model
    return {"format": ENCODER_FORMAT, "model": m.state_dict(), "scale": torch.from_numpy(np.asarray(enc.scale)),
            "node_dom": torch.from_numpy(enc.node_dom), "history": enc.history,
            "shape": [m.in_channels, m.hidden, m.sum_dim, m.max_dim]}


def encoder_from_state(state: dict, features: np.ndarray) -> DominanceEncoder:
    """The encoder of an index built before ``dominance.npz`` existed (its ``gnn.pt``)."""
    if state.get("format") != ENCODER_FORMAT:
        raise SgragError("this index was built by an older sgrag; rebuild it (python -m sgrag build)")
    in_ch, hidden, dim, max_dim = state["shape"]
    model = DominanceGNN(in_ch, hidden, dim, max_dim)
    model.load_state_dict(state["model"])
    return encoder_of(model, features, state["node_dom"].numpy(), state["scale"].numpy().astype(np.float64),
                      list(state["history"]))


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
    max_tries = min(count * 10, 200 * int(eligible.size))  # tiny graphs have few distinct negatives
    while len(stars) < count and tries < max_tries:
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
    model = DominanceGNN(x.size(1), cfg.hidden, cfg.dim, cfg.max_dim)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    history: list[dict] = []
    stars, negs = _sample_pairs(graph, rng, cfg.pairs_per_epoch)
    t0 = time.perf_counter()
    if stars:
        q_src = torch.from_numpy(np.concatenate(stars).astype(np.int64))
        q_dst = torch.from_numpy(np.repeat(np.arange(len(stars)), [len(s) for s in stars]))
        q_ei = torch.stack([q_src, q_dst])
        neg_idx = torch.tensor(negs, dtype=torch.long)
        unknown_center = (torch.arange(len(negs)) % 2 == 0)[:, None]
        # Only the negatives' stars are needed per epoch, not every node's: a much smaller graph.
        nbrs = [graph.neighbor_sets[v] for v in negs]
        d_ei = torch.stack([torch.from_numpy(np.concatenate(nbrs).astype(np.int64)),
                            torch.from_numpy(np.repeat(np.arange(len(negs)), [len(n) for n in nbrs]))])
        for epoch in range(cfg.epochs):
            if should_stop():
                break
            model.train()
            opt.zero_grad()
            centers = model.center_scores(x[neg_idx])  # a candidate's own star
            d_out = model(x, centers, d_ei)
            # Most real queries prune at UNK, whose label is unknown: its stars use the lowest centre
            # score of any label, so train half the query stars that way.
            c_unk = model.center_scores(x).min(0, keepdim=True).values.expand_as(centers)
            q_out = model(x, torch.where(unknown_center, c_unk, centers), q_ei)
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
        out = model(xd, model.center_scores(xd), ei).numpy() if graph.num_nodes else np.zeros((0, model.dim))
    scale = _grid_scale(out, quant_scale)
    scaled = out * scale
    # Round up plus slack far above float64 summation error (~1e-13 relative for 10k terms).
    node_dom = np.ceil(scaled + np.abs(scaled) * 1e-9).astype(np.int64) + 1
    return encoder_of(model, features, node_dom, scale, history)


def pruning_power(enc: DominanceEncoder, graph: KnowledgeGraph, samples: int = 2000, seed: int = 1) -> float:
    """Share of sampled non-containing (query star, candidate) pairs the filter rejects.

    The query star's centre is unknown, as at UNK, where retrieval relies on this filter.
    """
    rng = np.random.default_rng(seed)
    stars, negs = _sample_pairs(graph, rng, samples)
    if not stars:
        return math.nan
    rejected = 0
    for subset, v in zip(stars, negs):
        q = enc.query_star(None, [int(s) for s in subset])
        rejected += bool((q > enc.node_dom[v]).any())
    return rejected / len(stars)
