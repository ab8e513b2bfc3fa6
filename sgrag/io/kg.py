"""Knowledge-graph importers (triples TSV/CSV, GraphML, JSON/JSONL) and exporters.

Every importer returns a complete KnowledgeGraph or raises InputFormatError naming the
file, the line and the problem; nothing is written by an importer, so a bad file can never
leave a half-imported workspace behind.
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any, Iterator
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from ..config import LimitsConfig
from ..errors import InputFormatError
from ..fsutil import atomic_write_text
from ..graph import GraphBuilder, KnowledgeGraph
from ..types import Progress, ProgressFn, no_progress
from .safe import (DECOMPRESS_ERRORS, bounded_lines, check_json_depth, check_unicode, check_xml_encoding, json_loads,
                   open_binary, over_limit, read_bytes)

_HEADER_WORDS = {"head", "subject", "src", "source", "h", "s", "from"}


def _rows(path: Path, limits: LimitsConfig) -> Iterator[tuple[int, list[str]]]:
    """(row number, fields) of a TSV/CSV file (optionally .gz), read as a bounded stream;
    the delimiter is sniffed from line one."""
    try:
        with open_binary(path, limits, streamed=True) as fh:
            lines = bounded_lines(fh, path, limits)
            first = next(lines, (1, ""))
            delim = "\t" if "\t" in first[1] else ","
            numbers: list[int] = []

            def text(items):
                for n, line in items:
                    numbers.append(n)
                    yield line.removesuffix("\r")
            for row in csv.reader(text(_chain([first], lines)), delimiter=delim):
                lineno = numbers[-1]
                numbers.clear()
                if row and any(c.strip() for c in row):
                    yield lineno, [c.strip() for c in row]
    except UnicodeDecodeError as exc:
        raise InputFormatError(str(path), None, f"not UTF-8 text ({exc.reason})") from exc
    except csv.Error as exc:
        raise InputFormatError(str(path), None, f"bad CSV: {exc}") from exc
    except DECOMPRESS_ERRORS as exc:
        raise InputFormatError(str(path), None, f"unreadable: {exc}") from exc


def _read_text(path: Path, limits: LimitsConfig) -> str:
    try:
        return read_bytes(path, limits).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(str(path), None, f"not UTF-8 text ({exc.reason})") from exc


def _chain(first: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _two_column_map(path: Path, what: str, limits: LimitsConfig) -> dict[str, str]:
    out: dict[str, str] = {}
    for lineno, row in _rows(path, limits):
        if len(row) < 2:
            raise InputFormatError(str(path), lineno, f"expected 2 columns (id, {what}), got {len(row)}")
        if lineno == 1 and row[0].lower() in {"id", "relation", "entity", "name"}:
            continue
        out[row[0]] = row[1]
    return out


PROGRESS_ROWS = 500_000  # a streamed import reports its progress this often


def read_triples(path: str | os.PathLike, entities: str | os.PathLike | None = None,
                 relations: str | os.PathLike | None = None, limits: LimitsConfig | None = None,
                 progress: ProgressFn = no_progress) -> KnowledgeGraph:
    """Read ``head, relation, tail`` rows (TSV or CSV, optionally .gz, header optional).

    ``entities`` maps ids to names (labels); ``relations`` maps relation ids to readable
    text, stored as each edge's description. Files are read as streams within ``limits``.
    """
    path, limits = Path(path), limits or LimitsConfig()
    names = _two_column_map(Path(entities), "name", limits) if entities else {}
    rel_text = _two_column_map(Path(relations), "text", limits) if relations else {}
    b = GraphBuilder()
    count = 0
    for lineno, row in _rows(path, limits):
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
        if count % PROGRESS_ROWS == 0:
            progress(Progress("import", count, 0, f"{count:,} triples read from {path.name}"))
        if b.num_edges > limits.max_edges:
            raise over_limit(path, lineno, f"the number of distinct edges (more than {limits.max_edges:,})",
                             "max_edges", limits.max_edges)
    if count == 0:
        raise InputFormatError(str(path), None, "no triples found")
    return b.build()


def _records_read(progress: ProgressFn, path: Path, kind: str):
    """A counter that reports every ``PROGRESS_ROWS`` records of a whole-file graph (GraphML, JSON)."""
    count = 0

    def tick() -> None:
        nonlocal count
        count += 1
        if count % PROGRESS_ROWS == 0:
            progress(Progress("import", count, 0, f"{count:,} {kind} read from {path.name}"))
    return tick


def read_graphml(path: str | os.PathLike, limits: LimitsConfig | None = None,
                 progress: ProgressFn = no_progress) -> KnowledgeGraph:
    """Read GraphML (optionally .gz): node ``label``/``description`` and edge
    ``relation``/``description`` keys.

    Parsed with defusedxml from at most ``limits.max_parse_bytes``, so entity-expansion,
    external-entity and decompression attacks are refused.
    """
    path, limits = Path(path), limits or LimitsConfig()
    data = read_bytes(path, limits)
    check_xml_encoding(data, path)
    progress(Progress("import", 0, 0, f"parsing {len(data) / 2**20:,.1f} MB of GraphML from {path.name}"))
    try:
        root = SafeET.fromstring(data)
    except (SafeET.ParseError, DefusedXmlException) as exc:
        line = getattr(exc, "position", (None,))[0]
        raise InputFormatError(str(path), line, f"invalid GraphML: {exc}") from exc
    del data
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
    tick = _records_read(progress, path, "nodes and edges")
    for node in graph.iter(f"{ns}node"):
        tick()
        nid = node.get("id")
        if not nid:
            raise InputFormatError(str(path), None, "a <node> has no id")
        d = data(node)
        b.add_node(nid, d.get("label") or d.get("name"), d.get("description", ""))
    for k, edge in enumerate(graph.iter(f"{ns}edge")):
        tick()
        s, t = edge.get("source"), edge.get("target")
        if not s or not t:
            raise InputFormatError(str(path), None, f"edge #{k + 1} lacks source or target")
        d = data(edge)
        rel = d.get("relation") or d.get("label") or d.get("description") or "related to"
        b.add_edge(s, t, rel, d.get("description", ""))
    if not b.node_ids:
        raise InputFormatError(str(path), None, "graph has no nodes")
    return b.build()


def read_json(path: str | os.PathLike, limits: LimitsConfig | None = None,
              progress: ProgressFn = no_progress) -> KnowledgeGraph:
    """Read ``{"nodes": [...], "edges": [...]}`` JSON, or JSONL with one record per line.

    Node records: ``{"id", "label", "description"}``; edge records: ``{"source", "target",
    "relation", "description"}`` (``src``/``dst`` and ``head``/``tail`` also accepted).
    Ids, labels and relations must be strings or numbers; the nesting depth is checked
    before parsing (``limits.max_json_depth``).
    """
    path, limits = Path(path), limits or LimitsConfig()
    text = _read_text(path, limits)
    check_json_depth(text, path, limits)
    progress(Progress("import", 0, 0, f"parsing {len(text) / 2**20:,.1f} MB of JSON from {path.name}"))
    records: list[tuple[int | None, str, dict]] = []
    doc = None
    try:  # JSON or JSONL is told by parsing: a whole document, or one record a line ("Extra data")
        doc = json_loads(text)
    except json.JSONDecodeError as exc:
        first = next((line for line in text.splitlines() if line.strip()), "")
        if exc.msg != "Extra data" and not _parses(first):
            raise InputFormatError(str(path), exc.lineno, f"invalid JSON: {exc.msg}") from exc
    if isinstance(doc, dict) and not {"nodes", "edges", "links"} & doc.keys():
        doc = None  # a one-record JSONL file
    if doc is not None:
        if not isinstance(doc, dict) or not isinstance(doc.get("nodes", []), list) \
                or not isinstance(doc.get("edges", doc.get("links", [])), list):
            raise InputFormatError(str(path), None, 'expected an object with "nodes" and "edges" lists')
        records = [(None, f"nodes[{k}]", {"kind": "node", **n})
                   for k, n in enumerate(doc.get("nodes", [])) if isinstance(n, dict)]
        records += [(None, f"edges[{k}]", {"kind": "edge", **e})
                    for k, e in enumerate(doc.get("edges", doc.get("links", []))) if isinstance(e, dict)]
    else:
        cap = limits.max_line_chars
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            if len(line) > cap:
                raise over_limit(path, lineno, f"line length {len(line):,}", "max_line_chars", cap)
            try:
                rec = json_loads(line)
            except json.JSONDecodeError as exc:
                raise InputFormatError(str(path), lineno, f"invalid JSON line: {exc.msg}") from exc
            if not isinstance(rec, dict):
                raise InputFormatError(str(path), lineno, "each line must be a JSON object")
            records.append((lineno, "record", rec))
    b = GraphBuilder()
    tick = _records_read(progress, path, "records")
    for lineno, where, rec in records:
        tick()
        field = _JsonFields(path, lineno, where, rec)
        src = field.text("source", "src", "head")
        dst = field.text("target", "dst", "tail")
        if rec.get("kind") == "edge" or (src is not None and dst is not None):
            if src is None or dst is None:
                raise InputFormatError(str(path), lineno, f"{where}: edge lacks source or target")
            b.add_edge(src, dst, field.text("relation", "label") or "related to",
                       field.text("description") or "", field.sources())
        elif rec.get("id") is not None:
            b.add_node(field.text("id"), field.text("label", "name"), field.text("description") or "",
                       field.sources())
        else:
            raise InputFormatError(str(path), lineno, f'{where}: neither a node (needs a non-null "id") nor an edge')
    if not b.node_ids:
        raise InputFormatError(str(path), None, "no nodes or edges found")
    return b.build()


def _parses(line: str) -> bool:
    try:
        json_loads(line)
        return True
    except json.JSONDecodeError:
        return False


class _JsonFields:
    """Typed access to one JSON record's fields: scalars only, with the record in errors."""

    def __init__(self, path: Path, lineno: int | None, where: str, rec: dict):
        self.path, self.lineno, self.where, self.rec = path, lineno, where, rec

    def _bad(self, key: str, value: Any, wanted: str) -> InputFormatError:
        kind = {dict: "an object", list: "a list", bool: "a boolean"}.get(type(value), type(value).__name__)
        return InputFormatError(str(self.path), self.lineno, f'{self.where}: "{key}" must be {wanted}, got {kind}')

    def text(self, *keys: str) -> str | None:
        """The first present (non-null) key among ``keys`` as text; numbers are accepted."""
        for key in keys:
            value = self.rec.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise self._bad(key, value, "a string or a number")
            check_unicode(str(value), self.path, f'{self.where}: "{key}"', self.lineno, locate=False)
            return str(value)
        return None

    def sources(self) -> list[str]:
        value = self.rec.get("sources")
        if value is None:
            return []
        if not isinstance(value, list):
            raise self._bad("sources", value, "a list of strings")
        if not all(isinstance(v, str) for v in value):
            raise InputFormatError(str(self.path), self.lineno, f'{self.where}: "sources" must hold only strings')
        return value


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


def read_any(path: str | os.PathLike, limits: LimitsConfig | None = None) -> KnowledgeGraph:
    """Pick the importer by file extension (.graphml, .json/.jsonl, else triples)."""
    p = Path(path)
    name = p.name.lower().removesuffix(".gz")
    if name.endswith(".graphml") or name.endswith(".xml"):
        return read_graphml(p, limits)
    if name.endswith(".json") or name.endswith(".jsonl"):
        return read_json(p, limits)
    return read_triples(p, limits=limits)
