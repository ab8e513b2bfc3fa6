"""Graph -> interactive pyvis/vis-network HTML, safe for untrusted labels.

Shared by the Streamlit app and CLI exports. Labels come from user documents and imported
graphs, so nothing here trusts them:

* node/edge data reach the page as JSON inside a ``<script>`` through Jinja's ``tojson``
  (``<``, ``>``, ``&`` and ``'`` become ``\\u003c``-style escapes), so a label can never close
  the script tag;
* canvas labels are drawn by vis-network as text (a canvas cannot run HTML);
* tooltips are built from ``html.escape``-d parts and converted to DOM elements in the page,
  so formatting (bold, line breaks) survives while a label such as
  ``<img src=x onerror=alert(1)>`` shows up as those characters.

The page is fully self-contained (vis-network inlined, no CDN), so it works offline.

Example::

    html = subgraph_html(graph, nodes, edges, highlight_nodes={3}, highlight_edges={7})
"""
from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .graph import GraphBuilder, KnowledgeGraph
from .types import UNK, Match, QueryGraph, QueryTrace

__all__ = ["VizNode", "VizEdge", "network_html", "query_graph_html", "subgraph_html",
           "match_view", "evidence_graph", "tooltip", "DEFAULT_MAX_NODES"]

DEFAULT_MAX_NODES = 150

# Colours (readable on white, colour-blind friendly enough with shape/width cues as well).
C_NODE = "#9ecae1"
C_HILITE = "#fd8d3c"
C_UNK = "#d62728"
C_CONSTRAINT = "#1f77b4"
C_EDGE = "#bdbdbd"
C_EDGE_HILITE = "#e6550d"


@dataclass
class VizNode:
    id: str
    label: str
    title_html: str = ""  # already-escaped HTML (build it with ``tooltip``)
    color: str = C_NODE
    shape: str = "dot"
    size: int = 14
    border: int = 1


@dataclass
class VizEdge:
    src: str
    dst: str
    label: str = ""
    title_html: str = ""
    color: str = C_EDGE
    width: float = 1.0
    dashes: bool = False
    arrows: str = "to"
    extra: dict = field(default_factory=dict)


def tooltip(title: str, rows: Iterable[tuple[str, str]] = ()) -> str:
    """A small HTML tooltip: bold title plus ``key: value`` lines, every part escaped."""
    parts = [f"<b>{_html.escape(str(title))}</b>"]
    for k, v in rows:
        if v is None or v == "":
            continue
        parts.append(f"{_html.escape(str(k))}: {_html.escape(_shorten(str(v), 300))}")
    return "<br>".join(parts)


def _shorten(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


# vis-network renders a *string* title as plain text; turn our escaped HTML into an element.
_TITLE_JS = """
                  (function () {
                    function toEl(s) { var d = document.createElement('div'); d.className = 'sg-tip';
                                       d.innerHTML = s; return d; }
                    nodes.forEach(function (n) { if (typeof n.title === 'string') nodes.update({id: n.id, title: toEl(n.title)}); });
                    edges.forEach(function (e) { if (typeof e.title === 'string') edges.update({id: e.id, title: toEl(e.title)}); });
                  })();
                  data = {nodes: nodes, edges: edges};"""

# Fit the drawing to the frame once laid out, and again when the frame is resized (a graph in
# a hidden tab is drawn at size 0 and must re-fit when the tab is shown).
_FIT_JS = """network = new vis.Network(container, data, options);
                  network.once("stabilizationIterationsDone", function () {
                    network.setOptions({physics: {enabled: false}}); network.fit(); });
                  network.on("stabilized", function () { network.fit(); });
                  if (window.ResizeObserver) {
                    new ResizeObserver(function () {
                      if (container.clientWidth > 0) { network.setSize("100%", "__HEIGHT__"); network.fit(); }
                    }).observe(container);
                  }"""

_STYLE = """<style>
 body { margin: 0; font-family: sans-serif; }
 #mynetwork { border: 1px solid #e6e6e6 !important; }
 .sg-tip { font: 12px sans-serif; max-width: 360px; white-space: normal; }
 .card { border: none !important; }
</style>"""


def network_html(nodes: Sequence[VizNode], edges: Sequence[VizEdge], *, height: int = 480,
                 physics: bool = True, directed: bool = True) -> str:
    """Self-contained HTML page drawing ``nodes`` and ``edges`` with vis-network."""
    from pyvis.network import Network  # local import: only viz users pay for it

    net = Network(height=f"{height}px", width="100%", directed=directed, cdn_resources="in_line",
                  bgcolor="#ffffff", font_color="#222222")
    for n in nodes:
        net.add_node(n.id, label=_shorten(n.label, 60), title=n.title_html or _html.escape(n.label),
                     color=n.color, shape=n.shape, size=n.size, borderWidth=n.border)
    for i, e in enumerate(edges):
        net.add_edge(e.src, e.dst, label=_shorten(e.label, 40), title=e.title_html or _html.escape(e.label),
                     color=e.color, width=e.width, dashes=e.dashes, arrows=e.arrows, id=f"e{i}", **e.extra)
    if physics:
        net.barnes_hut(gravity=-4000, spring_length=140, spring_strength=0.02, damping=0.3)
        net.set_options("""{"physics": {"stabilization": {"iterations": 150}},
                            "edges": {"font": {"size": 10, "align": "middle", "color": "#555"},
                                      "smooth": {"type": "dynamic"}},
                            "nodes": {"font": {"size": 13}},
                            "interaction": {"hover": true, "tooltipDelay": 120}}""")
    else:
        net.toggle_physics(False)
    page = net.generate_html(notebook=False)
    # Drop the template's CDN bootstrap assets: the page must work offline.
    page = re.sub(r"<link\s+href=\"https://cdn\.jsdelivr\.net[^>]*>", "", page)
    page = re.sub(r"<script\s+src=\"https://cdn\.jsdelivr\.net[^>]*>\s*</script>", "", page)
    page = page.replace("data = {nodes: nodes, edges: edges};", _TITLE_JS, 1)
    page = page.replace("network = new vis.Network(container, data, options);",
                        _FIT_JS.replace("__HEIGHT__", f"{int(height)}px"), 1)
    page = page.replace("</head>", _STYLE + "</head>", 1)
    return page


# ---- query graph ------------------------------------------------------------------------------
def query_graph_html(qg: QueryGraph, *, height: int = 320) -> str:
    """The query graph q*: UNK target highlighted, each constraint labelled with its link."""
    nodes, edges = [], []
    for n in qg.nodes:
        if n.is_unknown:
            label = f"? {qg.answer_type}".strip() if qg.answer_type else "UNK"
            nodes.append(VizNode(n.qid, label, tooltip("UNK (the answer)", [("answer type", qg.answer_type)]),
                                 color=C_UNK, shape="star", size=26, border=2))
        else:
            m = n.mention
            rows = [("mention", m.text if m else ""), ("graph node", n.node_id or ""),
                    ("link score", f"{(m.chosen.score if m else n.confidence):.3f}"),
                    ("method", m.chosen.method if m else "")]
            nodes.append(VizNode(n.qid, n.label, tooltip(f"constraint {n.qid}", rows),
                                 color=C_CONSTRAINT, shape="box", size=18, border=1))
    for a, b in qg.edges:
        edges.append(VizEdge(a, b, "", tooltip("query edge", [("between", f"{a} – {b}")]),
                             color="#888888", width=2, arrows=""))
    return network_html(nodes, edges, height=height, directed=False)


# ---- graph neighbourhoods ---------------------------------------------------------------------
def subgraph_html(graph: KnowledgeGraph, node_indices: Iterable[int], edge_ids: Iterable[int], *,
                  highlight_nodes: Iterable[int] = (), highlight_edges: Iterable[int] = (),
                  focus: Iterable[int] = (), role: dict[int, str] | None = None,
                  height: int = 520) -> str:
    """Draw the given nodes/edges of ``graph``; highlighted ones in orange, ``focus`` as stars."""
    hn, he, fo = set(map(int, highlight_nodes)), set(map(int, highlight_edges)), set(map(int, focus))
    role = role or {}
    idx = [int(v) for v in dict.fromkeys(int(v) for v in node_indices)]
    present = set(idx)
    nodes = []
    for v in idx:
        rows = [("id", graph.node_ids[v]), ("role", role.get(v, "")),
                ("degree", str(int(graph.degree[v]))), ("description", graph.descriptions[v])]
        color = C_UNK if role.get(v) == UNK else (C_HILITE if v in hn else C_NODE)
        nodes.append(VizNode(str(v), graph.labels[v], tooltip(graph.labels[v], rows), color=color,
                             shape="star" if v in fo else "dot", size=22 if (v in hn or v in fo) else 12,
                             border=2 if v in hn else 1))
    edges = []
    for e in dict.fromkeys(int(e) for e in edge_ids):
        s, t = int(graph.src[e]), int(graph.dst[e])
        if s not in present or t not in present:
            continue
        rel = graph.relations[int(graph.rel[e])]
        text = graph.relation_text(e)
        hot = e in he
        edges.append(VizEdge(str(s), str(t), _short_relation(rel) if hot else "",
                             tooltip(_short_relation(rel), [("relation", rel), ("text", text if text != rel else ""),
                                                            ("from", graph.labels[s]), ("to", graph.labels[t])]),
                             color=C_EDGE_HILITE if hot else C_EDGE, width=3.5 if hot else 1.0))
    return network_html(nodes, edges, height=height)


def _short_relation(rel: str) -> str:
    """Freebase-style ``/a/b/c`` relations read better as their last segment."""
    rel = rel.strip()
    if rel.startswith("/") and "/" in rel[1:]:
        return rel.rstrip("/").rsplit("/", 1)[-1].replace("_", " ")
    return rel


def match_view(graph: KnowledgeGraph, matches: Sequence[Match], *, max_nodes: int = DEFAULT_MAX_NODES,
               neighbours: bool = True, target: str | None = None) -> dict:
    """Nodes/edges to draw for matches: matched ones first, then their neighbours up to a cap.

    Returns ``{"nodes", "edges", "highlight_nodes", "highlight_edges", "role", "total"}`` where
    ``total`` is how many nodes the full 1-hop neighbourhood has (for "showing N of M").
    ``target`` is the query node id of UNK: its bindings get the role ``UNK`` (drawn red).
    """
    ix = graph.index_of
    role: dict[int, str] = {}
    hn: list[int] = []
    he: set[int] = set()
    for m in matches:
        for qid, nid in m.binding.items():
            v = ix.get(nid)
            if v is not None:
                hn.append(v)
                role.setdefault(v, UNK if qid == target else qid)
        for me in m.edges:
            u, w = ix.get(me.src_id), ix.get(me.dst_id)
            if u is None or w is None:
                continue
            for e in graph.edges_between(u, w):
                if graph.relations[int(graph.rel[e])] == me.relation or not me.relation:
                    he.add(e)
    core = list(dict.fromkeys(hn))
    nodes = list(core)
    seen = set(nodes)
    total_set = set(nodes)
    if neighbours:
        for v in core:
            for u in graph.neighbors(v):
                total_set.add(int(u))
        for v in core:
            for u in graph.neighbors(v):
                u = int(u)
                if u not in seen and len(nodes) < max(max_nodes, len(core)):
                    seen.add(u)
                    nodes.append(u)
    edges = set(he)
    for v in nodes:
        for e, u in zip(graph.incident_edges(v), graph.neighbors(v)):
            if int(u) in seen and (int(u) in set(core) or v in set(core)):
                edges.add(int(e))
    return {"nodes": nodes, "edges": sorted(edges), "highlight_nodes": core,
            "highlight_edges": sorted(he), "role": role, "total": len(total_set)}


# ---- evidence export --------------------------------------------------------------------------
def evidence_graph(trace: QueryTrace, exact_only: bool = False) -> KnowledgeGraph:
    """The matched edges of a trace as a small KnowledgeGraph (for GraphML/JSON export)."""
    b = GraphBuilder()
    for m in trace.matches:
        if exact_only and not m.exact:
            continue
        for me in m.edges:
            b.add_node(me.src_id, me.src_label)
            b.add_node(me.dst_id, me.dst_label)
            b.add_edge(me.src_id, me.dst_id, me.relation, me.description)
    return b.build()
