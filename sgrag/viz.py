"""Graph -> interactive pyvis/vis-network HTML, safe for untrusted labels.

Shared by the Streamlit app and CLI exports. Labels come from user documents and imported
graphs, so nothing here trusts them:

* node/edge data reach the page as JSON inside a ``<script>`` through Jinja's ``tojson``
  (``<``, ``>``, ``&`` and ``'`` become ``\\u003c``-style escapes), so a label can never close
  the script tag;
* canvas labels are drawn by vis-network as text (a canvas cannot run HTML);
* tooltips are built from ``html.escape``-d parts and converted to DOM elements in the page,
  so formatting (bold, line breaks) survives while a label such as
  ``<img src=x onerror=alert(1)>`` shows up as those characters;
* the click panel (a node's properties, "expand its neighbours") writes labels with
  ``textContent`` only, from data embedded as escaped JSON.

Graph tools' habits work inside a sandboxed iframe without a server round trip: every drawn
node's properties and its first neighbours travel with the page, so a click shows them and
adds the neighbours, and "Show neighbourhood" adds the nodes held in reserve.

The page is fully self-contained (vis-network inlined, no CDN), so it works offline.

Example::

    html = subgraph_html(graph, nodes, edges, highlight_nodes={3}, highlight_edges={7})
"""
from __future__ import annotations

import html as _html
import json
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from .graph import GraphBuilder, KnowledgeGraph
from .types import UNK, Match, QueryGraph, QueryTrace

__all__ = ["VizNode", "VizEdge", "network_html", "query_graph_html", "query_graph_view", "subgraph_html",
           "match_view", "evidence_graph", "tooltip", "DEFAULT_MAX_NODES", "EXPAND_CAP"]

DEFAULT_MAX_NODES = 150  # neighbourhood nodes held in reserve behind "Show neighbourhood"
EXPAND_CAP = 25  # neighbours a click on a node can add (the most connected first)

# Colours (readable on white, colour-blind friendly enough with shape/width cues as well).
C_NODE = "#9ecae1"
C_HILITE = "#fd8d3c"
C_UNK = "#d62728"
C_CONSTRAINT = "#1f77b4"
C_EDGE = "#bdbdbd"
C_EDGE_HILITE = "#e6550d"
# Label sizes in CSS pixels at zoom 1: the few nodes of a match read at a glance, the rest still read.
FONT_MAIN = 18
FONT_NODE = 14
FONT_EDGE = 13


@dataclass
class VizNode:
    id: str
    label: str
    title_html: str = ""  # already-escaped HTML (build it with ``tooltip``)
    color: str = C_NODE
    shape: str = "dot"
    size: int = 14
    border: int = 1
    font_size: int = FONT_NODE


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
    id: str = ""  # default: "e<position>"
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


def _node_dict(n: VizNode) -> dict:
    """The vis-network record of a node (what pyvis's ``add_node`` stores)."""
    return {"id": n.id, "label": _shorten(n.label, 60), "title": n.title_html or _html.escape(n.label),
            "color": n.color, "shape": n.shape, "size": n.size, "borderWidth": n.border,
            "font": {"size": n.font_size, "color": "#222222"}}


def _edge_dict(e: VizEdge, i: int) -> dict:
    return {"from": e.src, "to": e.dst, "label": _shorten(e.label, 40),
            "title": e.title_html or _html.escape(e.label), "color": e.color, "width": e.width,
            "dashes": e.dashes, "arrows": e.arrows, "id": e.id or f"e{i}", **e.extra}


def script_json(value) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>``, ``&`` or line separators can end it."""
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


# vis-network renders a *string* title as plain text; turn our escaped HTML into an element.
_TITLE_JS = """
                  function sgTip(s) { if (typeof s !== 'string') return s; var d = document.createElement('div');
                                      d.className = 'sg-tip'; d.innerHTML = s; return d; }
                  nodes.forEach(function (n) { nodes.update({id: n.id, title: sgTip(n.title)}); });
                  edges.forEach(function (e) { edges.update({id: e.id, title: sgTip(e.title)}); });
                  data = {nodes: nodes, edges: edges};"""

# Fit the drawing to the frame once laid out (never zoomed past 1.2: two nodes stay node-sized),
# and again when the frame is resized (a graph in a hidden tab is drawn at size 0 and must re-fit
# when the tab is shown). Physics runs only to lay out what was added, then stops.
_FIT_JS = """network = new vis.Network(container, data, options);
                  window.sgFit = function () { network.fit({maxZoomLevel: 1.2}); };
                  network.on("stabilizationIterationsDone", function () {
                    network.setOptions({physics: {enabled: false}}); sgFit(); });
                  if (window.ResizeObserver) {
                    new ResizeObserver(function () {
                      if (container.clientWidth > 0) { network.setSize("100%", "__HEIGHT__"); sgFit(); }
                    }).observe(container);
                  }"""

# The click panel and the neighbourhood button, over the drawing. Labels go in with textContent.
_PANEL_HTML = """<div id="sg-bar"><button id="sg-nbhd" type="button" hidden></button>
 <span id="sg-hint">Click a node: its properties and neighbours</span></div>
<div id="sg-panel" hidden><button id="sg-close" type="button" title="Close">×</button>
 <div id="sg-title"></div><table id="sg-props"></table>
 <button id="sg-expand" type="button"></button><div id="sg-note"></div></div>"""

_PANEL_JS = """
(function () {
  var SG = __SG__;
  var base = new Set(nodes.getIds().map(String)), baseEdges = new Set(edges.getIds().map(String));
  var wide = false, current = null;
  function $(id) { return document.getElementById(id); }
  function addNode(u, at) {
    if (nodes.get(u) || !SG.nodes[u]) return false;
    var d = Object.assign({}, SG.nodes[u]); d.title = sgTip(d.title);
    if (at) { d.x = at.x; d.y = at.y; }
    nodes.add(d); return true;
  }
  function addEdge(k) {
    if (edges.get(k) || !SG.edges[k]) return;
    var e = Object.assign({}, SG.edges[k]); e.title = sgTip(e.title); edges.add(e);
  }
  function joinEdges(u) {  // every known edge between u and a drawn node
    (SG.adj[u] || []).forEach(function (x) { if (nodes.get(x[0])) addEdge(x[1]); });
  }
  function relayout() {
    network.setOptions({physics: {enabled: true}}); network.stabilize(120);
  }
  function hidden(u) { return (SG.adj[u] || []).filter(function (x) { return !nodes.get(x[0]); }).length; }
  function expand(u) {
    var p = network.getPositions([u])[u] || {x: 0, y: 0}, list = SG.adj[u] || [], added = [];
    list.forEach(function (x, i) {
      var a = 2 * Math.PI * i / Math.max(list.length, 1);
      if (addNode(x[0], {x: p.x + 220 * Math.cos(a), y: p.y + 220 * Math.sin(a)})) added.push(x[0]);
    });
    joinEdges(u); added.forEach(joinEdges);
    if (added.length) relayout();
    show(u);
  }
  function row(t, k, v) {
    if (v === undefined || v === null || v === "" || (Array.isArray(v) && !v.length)) return;
    var tr = document.createElement("tr"), a = document.createElement("th"), b = document.createElement("td");
    a.textContent = k; b.textContent = Array.isArray(v) ? v.join("; ") : String(v);
    tr.appendChild(a); tr.appendChild(b); t.appendChild(tr);
  }
  function show(u) {
    var info = SG.info[u]; if (!info) return;
    current = u;
    $("sg-title").textContent = info.label;
    var t = $("sg-props"); t.textContent = "";
    row(t, "id", info.id); row(t, "role", info.role); row(t, "degree", info.degree.toLocaleString());
    row(t, "kinds", info.kinds); row(t, "description", info.description);
    row(t, "provenance", info.sources.length ? info.sources : "imported graph (no document)");
    var n = hidden(u), b = $("sg-expand");
    b.hidden = !n; b.textContent = "Expand " + n + " neighbour" + (n === 1 ? "" : "s");
    var more = info.degree - (SG.adj[u] || []).length;
    $("sg-note").textContent = more > 0 ? (more.toLocaleString() + " more neighbour(s) in the graph: explore this entity to see them") : "";
    $("sg-panel").hidden = false;
  }
  function setWide(on) {
    wide = on;
    if (on) { SG.reserve.forEach(function (u) { addNode(u); }); SG.reserve.forEach(joinEdges); base.forEach(joinEdges); relayout(); }
    else {
      nodes.remove(nodes.getIds().filter(function (u) { return !base.has(String(u)); }));
      edges.remove(edges.getIds().filter(function (k) { return !baseEdges.has(String(k)); }));
      sgFit();
    }
    label();
  }
  function label() {
    var b = $("sg-nbhd");
    b.hidden = !SG.reserve.length;
    b.textContent = wide ? SG.narrow_label : SG.wide_label;
  }
  $("sg-nbhd").onclick = function () { setWide(!wide); };
  $("sg-expand").onclick = function () { if (current !== null) expand(current); };
  $("sg-close").onclick = function () { $("sg-panel").hidden = true; current = null; };
  network.on("click", function (p) { if (p.nodes.length) show(String(p.nodes[0])); });
  network.on("doubleClick", function (p) { if (p.nodes.length) expand(String(p.nodes[0])); });
  label();
  window.sgShow = show; window.sgExpand = expand;
})();"""

_STYLE = """<style>
 body { margin: 0; font-family: sans-serif; }
 #mynetwork { border: 1px solid #e6e6e6 !important; }
 .sg-tip { font: 12px sans-serif; max-width: 360px; white-space: normal; }
 .card { border: none !important; }
 #sg-bar { position: absolute; top: 8px; left: 8px; z-index: 5; font: 13px sans-serif; color: #555; }
 #sg-bar button, #sg-panel button { font: 13px sans-serif; padding: 4px 10px; border: 1px solid #bbb;
   border-radius: 6px; background: #fff; cursor: pointer; margin-right: 8px; }
 #sg-bar button:hover, #sg-panel button:hover { border-color: #1f77b4; color: #1f77b4; }
 #sg-panel { position: absolute; top: 8px; right: 8px; z-index: 5; width: 320px; max-height: calc(100% - 24px);
   overflow: auto; background: #fff; border: 1px solid #ccc; border-radius: 8px; padding: 10px 12px;
   box-shadow: 0 2px 8px rgba(0,0,0,.15); font: 13px sans-serif; }
 #sg-panel[hidden], #sg-bar button[hidden] { display: none; }
 #sg-title { font-weight: bold; font-size: 15px; margin: 0 24px 6px 0; overflow-wrap: anywhere; }
 #sg-props { border-collapse: collapse; width: 100%; margin-bottom: 8px; }
 #sg-props th { text-align: left; vertical-align: top; color: #666; font-weight: normal; padding: 2px 8px 2px 0;
   white-space: nowrap; }
 #sg-props td { overflow-wrap: anywhere; padding: 2px 0; }
 #sg-close { position: absolute; top: 6px; right: 2px; border: none !important; font-size: 18px !important; }
 #sg-note { color: #666; font-size: 12px; margin-top: 6px; }
</style>"""


def network_html(nodes: Sequence[VizNode], edges: Sequence[VizEdge], *, height: int = 480,
                 physics: bool = True, directed: bool = True, explore: dict | None = None) -> str:
    """Self-contained HTML page drawing ``nodes`` and ``edges`` with vis-network.

    ``explore`` (from ``subgraph_html``) adds the click panel and the neighbourhood button.
    """
    from pyvis.network import Network  # local import: only viz users pay for it

    net = Network(height=f"{height}px", width="100%", directed=directed, cdn_resources="in_line",
                  bgcolor="#ffffff")  # no font_color: pyvis would replace each node's font (and its size) with it
    for n in nodes:
        d = _node_dict(n)
        net.add_node(d.pop("id"), **d)
    for i, e in enumerate(edges):
        d = _edge_dict(e, i)
        net.add_edge(d.pop("from"), d.pop("to"), **d)
    if physics:
        net.barnes_hut(gravity=-4000, spring_length=200, spring_strength=0.02, damping=0.3)
        net.set_options("""{"physics": {"stabilization": {"iterations": 150}},
                            "edges": {"font": {"size": %d, "align": "middle", "color": "#444"},
                                      "smooth": {"type": "dynamic"}},
                            "interaction": {"hover": true, "tooltipDelay": 120}}""" % FONT_EDGE)
    else:
        net.toggle_physics(False)
    page = net.generate_html(notebook=False)
    # Drop the template's CDN bootstrap assets: the page must work offline.
    page = re.sub(r"<link\s+href=\"https://cdn\.jsdelivr\.net[^>]*>", "", page)
    page = re.sub(r"<script\s+src=\"https://cdn\.jsdelivr\.net[^>]*>\s*</script>", "", page)
    page = page.replace("data = {nodes: nodes, edges: edges};", _TITLE_JS, 1)
    fit = _FIT_JS.replace("__HEIGHT__", f"{int(height)}px")
    if explore is not None:
        fit += _PANEL_JS.replace("__SG__", script_json(explore))
        page = page.replace('<div id="mynetwork"', _PANEL_HTML + '<div id="mynetwork"', 1)
    page = page.replace("network = new vis.Network(container, data, options);", fit, 1)
    page = page.replace("</head>", _STYLE + "</head>", 1)
    return page


# ---- query graph ------------------------------------------------------------------------------
def query_graph_html(qg: QueryGraph, *, height: int = 320) -> str:
    """The query graph q*: UNK target highlighted, each constraint labelled with its link."""
    return network_html(*query_graph_view(qg), height=height, directed=False)


def query_graph_view(qg: QueryGraph) -> tuple[list[VizNode], list[VizEdge]]:
    """The nodes and edges ``query_graph_html`` draws: the query's, and a class word's describing names off it."""
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
            if n.instances:
                rows.append(("stands for", ", ".join(n.instances)))
            nodes.append(VizNode(n.qid, n.label, tooltip(f"constraint {n.qid}", rows),
                                 color=C_CONSTRAINT, shape="box", size=18, border=1))
            for k, d in enumerate(n.described_by):  # the names that picked out the thing: its conditions, dashed
                nodes.append(VizNode(f"{n.qid}.{k}", d.chosen.label, tooltip(
                    f"describes {n.label}", [("mention", d.text),
                                             ("met through", " or ".join(n.instances) or n.label)]),
                    color=C_CONSTRAINT, shape="box", size=14, border=1))
                edges.append(VizEdge(n.qid, f"{n.qid}.{k}", "", tooltip("describes", [("the thing", n.label)]),
                                     color="#888888", width=1, dashes=True, arrows=""))
    for a, b in qg.edges:
        edges.append(VizEdge(a, b, "", tooltip("query edge", [("between", f"{a} – {b}")]),
                             color="#888888", width=2, arrows=""))
    return nodes, edges


# ---- graph neighbourhoods ---------------------------------------------------------------------
def subgraph_html(graph: KnowledgeGraph, node_indices: Iterable[int], edge_ids: Iterable[int], *,
                  highlight_nodes: Iterable[int] = (), highlight_edges: Iterable[int] = (),
                  focus: Iterable[int] = (), role: dict[int, str] | None = None,
                  reserve: Iterable[int] = (), kinds=None, height: int = 520,
                  wide_label: str = "", narrow_label: str = "") -> str:
    """Draw the given nodes/edges of ``graph``; highlighted ones in orange, ``focus`` as stars.

    ``reserve`` nodes are drawn only on demand (the "Show neighbourhood" button, labelled
    ``wide_label``/``narrow_label``); a click on a node shows its properties (``role`` names what
    it is in the question, ``kinds(v)`` what kinds of thing it is) and can add up to EXPAND_CAP
    of its neighbours.
    """
    hn, he, fo = set(map(int, highlight_nodes)), set(map(int, highlight_edges)), set(map(int, focus))
    role = role or {}
    idx = [int(v) for v in dict.fromkeys(int(v) for v in node_indices)]
    spare = [v for v in dict.fromkeys(int(v) for v in reserve) if v not in set(idx)]
    universe = list(idx) + spare
    for v in idx:  # each drawn node's first neighbours, for "expand"
        universe += _top_neighbours(graph, v, EXPAND_CAP)
    universe = list(dict.fromkeys(universe))
    inside = np.zeros(graph.num_nodes, dtype=bool)
    inside[np.asarray(universe, dtype=np.int64)] = True

    def node(v: int) -> VizNode:
        rows = [("id", graph.node_ids[v]), ("role", "the answer" if role.get(v) == UNK else role.get(v, "")),
                ("degree", str(int(graph.degree[v]))), ("description", graph.descriptions[v])]
        main = v in hn or v in fo
        color = C_UNK if role.get(v) == UNK else (C_HILITE if v in hn else C_NODE)
        return VizNode(str(v), graph.labels[v], tooltip(graph.labels[v], rows), color=color,
                       shape="star" if v in fo else "dot", size=22 if main else 12, border=2 if v in hn else 1,
                       font_size=FONT_MAIN if main else FONT_NODE)

    def edge(e: int) -> VizEdge:
        s, t = int(graph.src[e]), int(graph.dst[e])
        rel = graph.relations[int(graph.rel[e])]
        text = graph.relation_text(e)
        hot = e in he
        return VizEdge(str(s), str(t), _short_relation(rel) if hot else "",
                       tooltip(_short_relation(rel), [("relation", rel), ("text", text if text != rel else ""),
                                                      ("from", graph.labels[s]), ("to", graph.labels[t])]),
                       color=C_EDGE_HILITE if hot else C_EDGE, width=3.5 if hot else 1.0, id=f"g{e}")

    present = set(idx)
    shown_edges, pairs_drawn = [], set()
    for e in dict.fromkeys(int(e) for e in edge_ids):
        s, t = int(graph.src[e]), int(graph.dst[e])
        twin = (min(s, t), max(s, t), int(graph.rel[e]))  # a graph storing both directions: one line, not two
        if s in present and t in present and twin not in pairs_drawn:
            pairs_drawn.add(twin)
            shown_edges.append(e)
    adj: dict[str, list[list[str]]] = {}
    extra_edges: dict[str, dict] = {}
    for v in universe:
        nb, ie = graph.neighbors(v), graph.incident_edges(v)
        keep = inside[nb]
        pairs = list(dict.fromkeys(zip(nb[keep].tolist(), ie[keep].tolist())))
        # what "expand" adds: up to EXPAND_CAP neighbours, the drawn ones and (for a drawn node) its first ones first
        first = set(_top_neighbours(graph, v, EXPAND_CAP)) if v in present else set()
        pairs.sort(key=lambda p: (p[0] not in present, p[0] not in first))
        allowed = set(list(dict.fromkeys(u for u, _ in pairs))[:EXPAND_CAP]) | (present if v in present else set())
        pairs = [p for p in pairs if p[0] in allowed]
        adj[str(v)] = [[str(u), f"g{e}"] for u, e in pairs]
        for _, e in pairs:
            extra_edges.setdefault(f"g{e}", _edge_dict(edge(int(e)), 0))
    explore = {
        "nodes": {str(v): _node_dict(node(v)) for v in universe},
        "edges": extra_edges,
        "adj": adj,
        "reserve": [str(v) for v in spare],
        "info": {str(v): _node_info(graph, v, role.get(v, ""), kinds) for v in universe},
        "wide_label": wide_label or f"Show neighbourhood ({len(spare):,} more nodes)",
        "narrow_label": narrow_label or "Back to the match only",
    }
    return network_html([node(v) for v in idx], [edge(e) for e in shown_edges], height=height, explore=explore)


def _top_neighbours(graph: KnowledgeGraph, v: int, k: int) -> list[int]:
    """Up to ``k`` distinct neighbours of ``v``, the most connected first (what a click adds)."""
    nb = np.unique(graph.neighbors(v))
    if nb.size > k:
        nb = nb[np.argsort(-graph.degree[nb], kind="stable")[:k]]
    return [int(u) for u in nb]


def _node_info(graph: KnowledgeGraph, v: int, role: str, kinds) -> dict:
    """What the click panel shows for node ``v`` (plain values: the page writes them as text)."""
    sources = graph.node_sources.get(v) or []
    return {"label": graph.labels[v], "id": graph.node_ids[v], "degree": int(graph.degree[v]),
            "role": "the answer" if role == UNK else role, "kinds": list(kinds(v)) if kinds else [],
            "description": _shorten(graph.descriptions[v], 400),
            "sources": [_shorten(str(s), 120) for s in sources[:5]]
                       + ([f"and {len(sources) - 5:,} more"] if len(sources) > 5 else [])}


def _short_relation(rel: str) -> str:
    """Freebase-style ``/a/b/c`` relations read better as their last segment."""
    rel = rel.strip()
    if rel.startswith("/") and "/" in rel[1:]:
        return rel.rstrip("/").rsplit("/", 1)[-1].replace("_", " ")
    return rel


def match_view(graph: KnowledgeGraph, matches: Sequence[Match], *, max_nodes: int = DEFAULT_MAX_NODES,
               target: str | None = None) -> dict:
    """What to draw for matches: the matched nodes and edges, and their neighbours in reserve.

    Returns ``{"nodes", "edges", "highlight_nodes", "highlight_edges", "role", "reserve", "total"}``:
    ``nodes``/``edges`` are the matches only (answers, constraints, matched edges: drawn by
    default), ``reserve`` up to ``max_nodes`` of their neighbours (the most connected first), and
    ``total`` how many nodes the full 1-hop neighbourhood has. ``target`` is the query node id of
    UNK: its bindings get the role ``UNK`` (drawn red).
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
    around = np.unique(np.concatenate([graph.neighbors(v) for v in core])) if core else np.zeros(0, dtype=np.int64)
    around = around[~np.isin(around, core)]
    total = len(core) + int(around.size)
    if around.size > max_nodes:
        around = around[np.argsort(-graph.degree[around], kind="stable")[:max_nodes]]
    return {"nodes": core, "edges": sorted(he), "highlight_nodes": core, "highlight_edges": sorted(he),
            "role": role, "reserve": [int(u) for u in around], "total": total}


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
