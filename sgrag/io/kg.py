"""Knowledge-graph importers (triples TSV/CSV, GraphML, JSON/JSONL) and exporters.

Every importer returns a complete KnowledgeGraph or raises InputFormatError naming the
file, the line and the problem; nothing is written by an importer, so a bad file can never
leave a half-imported workspace behind.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import os
from pathlib import Path
from typing import Iterator
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from ..errors import InputFormatError
from ..fsutil import atomic_write_text
from ..graph import GraphBuilder, KnowledgeGraph

_HEADER_WORDS = {"head", "subject", "src", "source", "h", "s", "from"}


def _open_text(path: Path) -> io.TextIOBase:
    try:
        if path.suffix == ".gz":
            return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="strict")
        return open(path, encoding="utf-8", errors="strict", newline="")
    except OSError as exc:
        raise InputFormatError(str(path), None, f"cannot open: {exc.strerror or exc}") from exc


def _rows(path: Path) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of a TSV/CSV file; the delimiter is sniffed from line one."""
    fh = _open_text(path)
    try:
        with fh:
            first = fh.readline()
            delim = "\t" if "\t" in first else ","
            reader = csv.reader(_chain([first], fh), delimiter=delim)
            for lineno, row in enumerate(reader, start=1):
                if row and any(c.strip() for c in row):
                    yield lineno, [c.strip() for c in row]
    except UnicodeDecodeError as exc:
        raise InputFormatError(str(path), None, f"not UTF-8 text ({exc.reason})") from exc
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputFormatError(str(path), None, f"unreadable: {exc}") from exc
    except csv.Error as exc:
        raise InputFormatError(str(path), None, f"bad CSV: {exc}") from exc


def _chain(first: list[str], rest: io.TextIOBase) -> Iterator[str]:
    yield from first
    yield from rest


def _two_column_map(path: Path, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for lineno, row in _rows(path):
        if len(row) < 2:
            raise InputFormatError(str(path), lineno, f"expected 2 columns (id, {what}), got {len(row)}")
        if lineno == 1 and row[0].lower() in {"id", "relation", "entity", "name"}:
            continue
        out[row[0]] = row[1]
    return out


def read_triples(path: str | os.PathLike, entities: str | os.PathLike | None = None,
                 relations: str | os.PathLike | None = None) -> KnowledgeGraph:
    """Read ``head, relation, tail`` rows (TSV or CSV, optionally .gz, header optional).

    ``entities`` maps ids to names (labels); ``relations`` maps relation ids to readable
    text, stored as each edge's description.
    """
    path = Path(path)
    names = _two_column_map(Path(entities), "name") if entities else {}
    rel_text = _two_column_map(Path(relations), "text") if relations else {}
    b = GraphBuilder()
    count = 0
    for lineno, row in _rows(path):
        if lineno == 1 and row[0].lower() in _HEADER_WORDS:
            continue
        if len(row) != 3:
            raise InputFormatError(str(path), lineno, f"expected 3 columns (head, relation, tail), got {len(row)}")
        h, r, t = row
        if not h or not r or not t:
            raise InputFormatError(str(path), lineno, "empty head, relation or tail")
        b.add_node(h, names.get(h))
        b.add_node(t, names.get(t))
        b.add_edge(h, t, r, rel_text.get(r, ""))
        count += 1
    if count == 0:
        raise InputFormatError(str(path), None, "no triples found")
    return b.build()


def read_graphml(path: str | os.PathLike) -> KnowledgeGraph:
    """Read GraphML: node ``label``/``description`` and edge ``relation``/``description`` keys.

    Parsed with defusedxml, so entity-expansion and external-entity attacks are refused.
    """
    path = Path(path)
    try:
        tree = SafeET.parse(str(path))
    except (SafeET.ParseError, DefusedXmlException) as exc:
        line = getattr(exc, "position", (None,))[0]
        raise InputFormatError(str(path), line, f"invalid GraphML: {exc}") from exc
    except OSError as exc:
        raise InputFormatError(str(path), None, f"cannot open: {exc.strerror or exc}") from exc
    root = tree.getroot()
    ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    if root.tag != f"{ns}graphml":
        raise InputFormatError(str(path), None, f"root element is <{root.tag}>, expected <graphml>")
    keys = {k.get("id"): (k.get("attr.name") or k.get("id")) for k in root.iter(f"{ns}key")}

    def data(el) -> dict[str, str]:
        return {keys.get(d.get("key"), d.get("key")): (d.text or "") for d in el.findall(f"{ns}data")}

    graph = root.find(f"{ns}graph")
    if graph is None:
        raise InputFormatError(str(path), None, "no <graph> element")
    b = GraphBuilder()
    for node in graph.iter(f"{ns}node"):
        nid = node.get("id")
        if not nid:
            raise InputFormatError(str(path), None, "a <node> has no id")
        d = data(node)
        b.add_node(nid, d.get("label") or d.get("name"), d.get("description", ""))
    for k, edge in enumerate(graph.iter(f"{ns}edge")):
        s, t = edge.get("source"), edge.get("target")
        if not s or not t:
            raise InputFormatError(str(path), None, f"edge #{k + 1} lacks source or target")
        d = data(edge)
        rel = d.get("relation") or d.get("label") or d.get("description") or "related to"
        b.add_edge(s, t, rel, d.get("description", ""))
    if not b.node_ids:
        raise InputFormatError(str(path), None, "graph has no nodes")
    return b.build()


def read_json(path: str | os.PathLike) -> KnowledgeGraph:
    """Read ``{"nodes": [...], "edges": [...]}`` JSON, or JSONL with one record per line.

    Node records: ``{"id", "label", "description"}``; edge records: ``{"source", "target",
    "relation", "description"}`` (``src``/``dst`` and ``head``/``tail`` also accepted).
    """
    path = Path(path)
    b = GraphBuilder()
    fh = _open_text(path)
    with fh:
        try:
            text = fh.read()
        except UnicodeDecodeError as exc:
            raise InputFormatError(str(path), None, f"not UTF-8 text ({exc.reason})") from exc
    records: list[tuple[int | None, dict]] = []
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.strip():
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputFormatError(str(path), exc.lineno, f"invalid JSON: {exc.msg}") from exc
        if not isinstance(doc, dict) or not isinstance(doc.get("nodes", []), list):
            raise InputFormatError(str(path), None, 'expected an object with "nodes" and "edges" lists')
        records = [(None, {"kind": "node", **n}) for n in doc.get("nodes", []) if isinstance(n, dict)]
        records += [(None, {"kind": "edge", **e}) for e in doc.get("edges", doc.get("links", [])) if isinstance(e, dict)]
    else:
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputFormatError(str(path), lineno, f"invalid JSON line: {exc.msg}") from exc
            if not isinstance(rec, dict):
                raise InputFormatError(str(path), lineno, "each line must be a JSON object")
            records.append((lineno, rec))
    for lineno, rec in records:
        src = rec.get("source", rec.get("src", rec.get("head")))
        dst = rec.get("target", rec.get("dst", rec.get("tail")))
        if rec.get("kind") == "edge" or (src is not None and dst is not None):
            if src is None or dst is None:
                raise InputFormatError(str(path), lineno, "edge record lacks source or target")
            b.add_edge(str(src), str(dst), str(rec.get("relation") or rec.get("label") or "related to"),
                       str(rec.get("description") or ""), rec.get("sources") or ())
        elif "id" in rec:
            b.add_node(str(rec["id"]), rec.get("label") or rec.get("name"),
                       str(rec.get("description") or ""), rec.get("sources") or ())
        else:
            raise InputFormatError(str(path), lineno, 'record is neither a node (needs "id") nor an edge')
    if not b.node_ids:
        raise InputFormatError(str(path), None, "no nodes or edges found")
    return b.build()


def write_graphml(g: KnowledgeGraph, path: str | os.PathLike) -> None:
    """Write GraphML readable by ``read_graphml`` (and networkx, Gephi, yEd)."""
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
        '  <key id="label" for="node" attr.name="label" attr.type="string"/>',
        '  <key id="ndesc" for="node" attr.name="description" attr.type="string"/>',
        '  <key id="relation" for="edge" attr.name="relation" attr.type="string"/>',
        '  <key id="description" for="edge" attr.name="description" attr.type="string"/>',
        '  <graph edgedefault="directed">',
    ]
    for i in range(g.num_nodes):
        desc = f'<data key="ndesc">{xml_escape(g.descriptions[i])}</data>' if g.descriptions[i] else ""
        out.append(f'    <node id={quoteattr(g.node_ids[i])}><data key="label">{xml_escape(g.labels[i])}</data>{desc}</node>')
    for e in range(g.num_edges):
        s, t, r, d = g.edge_tuple(e)
        out.append(f'    <edge source={quoteattr(s)} target={quoteattr(t)}><data key="relation">{xml_escape(r)}</data>'
                   f'<data key="description">{xml_escape(d)}</data></edge>')
    out += ["  </graph>", "</graphml>", ""]
    atomic_write_text(path, "\n".join(out))


def graph_to_json(g: KnowledgeGraph) -> dict:
    return {
        "nodes": [{"id": g.node_ids[i], "label": g.labels[i], "description": g.descriptions[i],
                   **({"sources": g.node_sources[i]} if i in g.node_sources else {})}
                  for i in range(g.num_nodes)],
        "edges": [dict(zip(("source", "target", "relation", "description"), g.edge_tuple(e)),
                       **({"sources": g.edge_sources[e]} if e in g.edge_sources else {}))
                  for e in range(g.num_edges)],
    }


def write_json(g: KnowledgeGraph, path: str | os.PathLike) -> None:
    atomic_write_text(path, json.dumps(graph_to_json(g), ensure_ascii=False, indent=1))


def read_any(path: str | os.PathLike) -> KnowledgeGraph:
    """Pick the importer by file extension (.graphml, .json/.jsonl, else triples)."""
    p = Path(path)
    name = p.name.lower().removesuffix(".gz")
    if name.endswith(".graphml") or name.endswith(".xml"):
        return read_graphml(p)
    if name.endswith(".json") or name.endswith(".jsonl"):
        return read_json(p)
    return read_triples(p)
