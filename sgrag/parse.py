"""Pure parsers for the paper's record format, strict about meaning, forgiving about layout.

LLM output is messy: markdown fences, newlines instead of ``#``, quotes around fields, a
missing ``<|COMPLETE|>`` or a last record cut off mid-way. The parsers keep every record
that is well formed, report each dropped line with the reason, and raise ``ParseError``
only when nothing usable is present (so a caller can fall back).

Example::

    >>> g = parse_graph_records('(n1<|>Ada Lovelace<|>mathematician)#(n2<|>London<|>city)#'
    ...                         '(e1<|>n1<|>n2<|>born in<|>Ada was born in London)#<|COMPLETE|>')
    >>> [n.label for n in g.nodes], g.edges[0].relation, g.complete
    (['Ada Lovelace', 'London'], 'born in', True)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ParseError
from .textnorm import fold

SEP = "<|>"
_SEP_RE = re.compile(r"<\s*\|\s*>")
_COMPLETE_RE = re.compile(r"<\s*\|\s*COMPLETE\s*\|\s*>", re.IGNORECASE)
_FENCE_RE = re.compile(r"^\s*```[\w-]*\s*$", re.MULTILINE)
# Records are split at "#" touching a parenthesis (so "C#" inside a field survives) and at newlines.
_SPLIT_RE = re.compile(r"(?<=\))\s*#+\s*|(?:^|(?<=\s))#+\s*(?=\()|\s*\n\s*")
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "`": "`", "<": ">"}
_TYPE_WORDS = {"entity", "node", "relationship", "relation", "edge"}
_UNK_WORDS = {"unk", "unknown", "?", "target"}
_RELATION_MAX_WORDS = 4


@dataclass(frozen=True)
class ParsedNode:
    id: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class ParsedEdge:
    id: str
    src: str
    dst: str
    relation: str
    description: str = ""


@dataclass(frozen=True)
class ParsedGraph:
    """Output of the text-to-graph prompt: valid records plus what was dropped and why."""
    nodes: tuple[ParsedNode, ...]
    edges: tuple[ParsedEdge, ...]
    dropped: tuple[tuple[str, str], ...]
    """(offending line, reason) for every record that was not kept."""
    complete: bool
    """Whether the output ended with <|COMPLETE|> (False: it was probably cut off)."""


@dataclass(frozen=True)
class ParsedQueryGraph:
    """Output of the query-to-graph prompt: nodes (label "UNK" for targets), unlabeled edges."""
    nodes: tuple[ParsedNode, ...]
    edges: tuple[tuple[str, str], ...]
    dropped: tuple[tuple[str, str], ...]
    complete: bool

    @property
    def targets(self) -> tuple[str, ...]:
        """Ids of the UNK nodes."""
        return tuple(n.id for n in self.nodes if n.label == "UNK")


@dataclass(frozen=True)
class _Record:
    raw: str
    fields: tuple[str, ...]


def _clean(field: str) -> str:
    f = field.strip()
    while len(f) >= 2 and _QUOTES.get(f[0]) == f[-1]:
        f = f[1:-1].strip()
    return f


def _records(text: str) -> tuple[list[_Record], list[tuple[str, str]], bool, bool]:
    """Split raw output into field records; returns (records, dropped, complete, had_content)."""
    text = _FENCE_RE.sub("\n", text)
    m = _COMPLETE_RE.search(text)
    complete = m is not None
    if m:
        text = text[:m.start()]
    text = _SEP_RE.sub(SEP, text)
    pieces = [p.strip().strip("#,;").strip() for p in _SPLIT_RE.split(text)]
    pieces = [p for p in pieces if p]
    records: list[_Record] = []
    dropped: list[tuple[str, str]] = []
    for k, piece in enumerate(pieces):
        body = piece
        if body.startswith("("):
            body = body[1:]
            if body.endswith(")"):
                body = body[:-1]
            elif not (complete and k == len(pieces) - 1):
                last = k == len(pieces) - 1
                dropped.append((piece, "truncated record (output was cut off)" if last else "unclosed record"))
                continue
        elif body.endswith(")"):
            body = body[:-1]
        if SEP not in body:
            dropped.append((piece, "not a record (no <|> separator)"))
            continue
        fields = [_clean(f) for f in body.split(SEP)]
        if fields and fields[0].lower() in _TYPE_WORDS:
            fields = fields[1:]
        records.append(_Record(piece, tuple(fields)))
    return records, dropped, complete, bool(pieces)


def is_complete(text: str) -> bool:
    """Whether LLM output carries the <|COMPLETE|> terminator (else it was probably cut off)."""
    return _COMPLETE_RE.search(text) is not None


def relation_from_description(description: str) -> str:
    """A paper-format edge has only a description; short ones double as the relation."""
    words = description.strip().rstrip(".").split()
    if 0 < len(words) <= _RELATION_MAX_WORDS:
        return " ".join(words)
    return "related to"


class _NodeTable:
    """Nodes by id with lookups by id, case-folded id, and folded label (LLMs mix them up)."""

    def __init__(self) -> None:
        self.nodes: dict[str, ParsedNode] = {}
        self._by_fold: dict[str, str] = {}

    def add(self, rec: _Record, dropped: list[tuple[str, str]]) -> None:
        nid, label = rec.fields[0], rec.fields[1]
        desc = rec.fields[2] if len(rec.fields) > 2 else ""
        if not label:
            dropped.append((rec.raw, "node without a label"))
            return
        nid = nid or f"n{len(self.nodes) + 1}"
        old = self.nodes.get(nid)
        if old is not None:
            if fold(old.label) != fold(label):
                dropped.append((rec.raw, f"duplicate node id {nid!r} with another label"))
            elif desc and desc not in old.description:
                merged = f"{old.description} | {desc}" if old.description else desc
                self.nodes[nid] = ParsedNode(nid, old.label, merged)
            return
        self.nodes[nid] = ParsedNode(nid, label, desc)
        self._by_fold.setdefault(fold(nid), nid)
        self._by_fold.setdefault(fold(label), nid)

    def resolve(self, ref: str) -> str | None:
        if ref in self.nodes:
            return ref
        return self._by_fold.get(fold(ref)) if ref else None


def _split_kinds(records: list[_Record], dropped: list[tuple[str, str]]) -> tuple[_NodeTable, list[_Record]]:
    """Nodes first (edges may come before the nodes they use); 3-field records naming two
    known node ids are edges without a description."""
    table = _NodeTable()
    maybe_edges: list[_Record] = []
    three: list[_Record] = []
    for rec in records:
        n = len(rec.fields)
        if n == 2:
            table.add(rec, dropped)
        elif n == 3:
            three.append(rec)
        elif n in (4, 5):
            maybe_edges.append(rec)
        else:
            dropped.append((rec.raw, f"{n} fields (nodes have 3, edges 4 or 5)"))
    ids = set(table.nodes) | {r.fields[0] for r in three}
    for rec in three:
        if rec.fields[1] in ids and rec.fields[2] in ids and rec.fields[1] != rec.fields[0]:
            maybe_edges.append(rec)
        else:
            table.add(rec, dropped)
    return table, maybe_edges


def _endpoints(rec: _Record, table: _NodeTable, dropped: list[tuple[str, str]]) -> tuple[str, str] | None:
    src, dst = table.resolve(rec.fields[1]), table.resolve(rec.fields[2])
    if src is None or dst is None:
        bad = rec.fields[1] if src is None else rec.fields[2]
        dropped.append((rec.raw, f"edge refers to unknown node {bad!r}"))
        return None
    if src == dst:
        dropped.append((rec.raw, "self loop"))
        return None
    return src, dst


def _nothing_usable(text: str, dropped: list[tuple[str, str]], had_content: bool) -> ParseError:
    if not had_content:
        return ParseError("empty LLM output (no records and no <|COMPLETE|>)")
    line, reason = dropped[0] if dropped else (text.strip()[:200], "no records")
    return ParseError(f"no usable graph records ({reason})", line[:200])


def parse_graph_records(text: str) -> ParsedGraph:
    """Parse text-to-graph output into nodes and edges; see the module docstring."""
    records, dropped, complete, had_content = _records(text)
    table, edge_recs = _split_kinds(records, dropped)
    edges: list[ParsedEdge] = []
    for rec in edge_recs:
        ends = _endpoints(rec, table, dropped)
        if ends is None:
            continue
        if len(rec.fields) == 5:
            relation, desc = rec.fields[3] or relation_from_description(rec.fields[4]), rec.fields[4]
        else:
            desc = rec.fields[3] if len(rec.fields) == 4 else ""
            relation = relation_from_description(desc)
        edges.append(ParsedEdge(rec.fields[0] or f"e{len(edges) + 1}", ends[0], ends[1], relation, desc))
    if not table.nodes and not edges and (had_content or not complete):
        raise _nothing_usable(text, dropped, had_content)
    return ParsedGraph(tuple(table.nodes.values()), tuple(edges), tuple(dropped), complete)


def _is_unk(label: str) -> bool:
    return fold(label) in _UNK_WORDS or label.strip("<>[]{} ").upper() == "UNK"


def parse_query_graph(text: str) -> ParsedQueryGraph:
    """Parse query-to-graph output; target labels are normalised to "UNK".

    Raises ParseError when there are no nodes or no UNK target (the caller then falls
    back to the offline query graph).
    """
    records, dropped, complete, had_content = _records(text)
    table, edge_recs = _split_kinds(records, dropped)
    nodes = tuple(ParsedNode(n.id, "UNK" if _is_unk(n.label) else n.label, n.description)
                  for n in table.nodes.values())
    if not nodes:
        raise _nothing_usable(text, dropped, had_content)
    if not any(n.label == "UNK" for n in nodes):
        raise ParseError("query graph has no UNK target node", text.strip()[:200])
    edges: list[tuple[str, str]] = []
    for rec in edge_recs:
        ends = _endpoints(rec, table, dropped)
        if ends is not None and ends not in edges and ends[::-1] not in edges:
            edges.append(ends)
    return ParsedQueryGraph(nodes, tuple(edges), tuple(dropped), complete)


def _field(value: str) -> str:
    """Make a value safe inside a record (no separators, parentheses at the ends, newlines)."""
    value = " ".join(value.replace(SEP, " ").replace("#", " ").split())
    return value.strip("()\"'“”‘’`<> ")


def format_graph_records(nodes: tuple[ParsedNode, ...] | list[ParsedNode],
                         edges: tuple[ParsedEdge, ...] | list[ParsedEdge], complete: bool = True) -> str:
    """The inverse of ``parse_graph_records`` (for few-shot examples, fixtures and tests)."""
    recs = [f"({_field(n.id)}{SEP}{_field(n.label)}{SEP}{_field(n.description)})" for n in nodes]
    recs += [f"({_field(e.id)}{SEP}{_field(e.src)}{SEP}{_field(e.dst)}{SEP}{_field(e.relation)}"
             f"{SEP}{_field(e.description)})" for e in edges]
    return "#".join(recs) + ("#<|COMPLETE|>" if complete else "")
