"""The typed values that flow between pipeline stages and make up a QueryTrace.

Everything here is plain data (JSON-serialisable through ``to_jsonable``) so the CLI can
print a trace and the app can render it without knowing how it was computed.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

UNK = "UNK"


@dataclass(frozen=True)
class LinkCandidate:
    """One graph node a mention could mean, with how it was found and how sure we are."""
    node_id: str
    label: str
    score: float
    method: str  # exact | alias | prefix | fuzzy | typo | embedding | override | llm


@dataclass(frozen=True)
class Mention:
    """A constraint mention in the question, linked to a graph node (``chosen``)."""
    text: str
    start: int
    end: int
    chosen: LinkCandidate
    alternatives: tuple[LinkCandidate, ...] = ()
    role: str = "entity"
    """"entity", or "type": a word saying what the answer is ("male comedian") that names a node
    the graph uses as a class, so it constrains the answer like any entity."""


@dataclass(frozen=True)
class QueryNode:
    qid: str
    label: str  # graph label, or UNK for the target
    node_id: str | None = None  # linked graph node (None for UNK)
    confidence: float = 1.0  # linking confidence, used to relax the weakest first
    mention: Mention | None = None
    also: tuple[str, ...] = ()
    """Labels of other nodes that meet this condition too, edge by edge as its own: a country's demonym ("Dutch"
    for Netherlands, rule ``demonym_equivalence``)."""

    instances: tuple[str, ...] = ()
    """Labels of the things of the class a definite class word names ("the game": Outer Wilds), which meet it edge by
    edge as its own (rule ``the_class_instances``); never an answer to it."""

    described_by: tuple[Mention, ...] = ()
    """The names of this class word's description that picked out its ``instances`` ("the comedy film *produced by
    Franco Cristaldi*": Cristaldi), each joined to every one of them (rule ``described_things``), or the names said of
    this named thing whose owner the question asks for ("Which director's film *Family Diary* shared the Golden Lion
    with Ivan's Childhood?", rule ``owned_described``): conditions on that thing, met through it, none the answer's."""

    @property
    def is_unknown(self) -> bool:
        return self.label == UNK

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label that meets this condition: its own, then ``also``, then ``instances``."""
        return (self.label, *self.also, *self.instances)


@dataclass(frozen=True)
class QueryGraph:
    """ψ1/ψ2 output: UNK target plus constraint nodes, edges without labels."""
    question: str
    nodes: tuple[QueryNode, ...]
    edges: tuple[tuple[str, str], ...]
    answer_type: str = ""
    relation_phrases: tuple[str, ...] = ()
    source: str = "offline"  # offline | llm | llm->offline (fallback)
    unlinked: tuple[str, ...] = ()
    """Names in the question that no graph node stands for ("Atlantis"): reported, never silently dropped."""

    def node(self, qid: str) -> QueryNode:
        return next(n for n in self.nodes if n.qid == qid)

    @property
    def target(self) -> str:
        return next(n.qid for n in self.nodes if n.is_unknown)

    @property
    def constraints(self) -> list[QueryNode]:
        return [n for n in self.nodes if not n.is_unknown]

    @property
    def condition_mentions(self) -> list[Mention]:
        """Where the question names its conditions: each constraint's mention and each name describing one
        (``QueryNode.described_by``)."""
        return [m for c in self.constraints
                for m in ([c.mention] if c.mention is not None else []) + list(c.described_by)]

    @property
    def named_labels(self) -> set[str]:
        """Every label a condition of the question stands for: each constraint's (``QueryNode.labels``) and each
        name describing one (``QueryNode.described_by``); none is an answer."""
        return {x for c in self.constraints for x in (*c.labels, *(d.chosen.label for d in c.described_by))}

    def restricted_to(self, qids: set[str]) -> "QueryGraph":
        """The same query with only the given constraint nodes (and every unknown node)."""
        keep = {n.qid for n in self.nodes if n.is_unknown or n.qid in qids}
        return dataclasses.replace(
            self, nodes=tuple(n for n in self.nodes if n.qid in keep),
            edges=tuple(e for e in self.edges if e[0] in keep and e[1] in keep),
            relation_phrases=tuple(p for n, p in zip(self.constraints, self.relation_phrases) if n.qid in keep))


@dataclass(frozen=True)
class QueryPath:
    """ψ3 output: a path of query node ids (length l edges) with its plan weight."""
    qids: tuple[str, ...]
    weight: float


@dataclass(frozen=True)
class LabelCompletion:
    """ψ4 output for one unknown node: candidate labels and how many index entries had each."""
    qid: str
    candidates: tuple[tuple[str, int], ...]
    total: int
    from_path: tuple[str, ...]


@dataclass(frozen=True)
class FunnelStep:
    """σ bookkeeping: how many items survive each filter (shown as the retrieval funnel)."""
    stage: str
    count: int
    detail: str = ""


@dataclass(frozen=True)
class PathMatches:
    """σ output for one query path: data paths (node-index tuples) that passed both filters."""
    qids: tuple[str, ...]
    visited_leaves: int
    semantic_hits: int
    dominance_hits: int
    matches: int


@dataclass(frozen=True)
class MatchedEdge:
    """A graph edge that satisfies one query edge (the evidence of a match)."""
    query_edge: tuple[str, str]
    src_id: str
    dst_id: str
    src_label: str
    dst_label: str
    relation: str
    description: str
    source: str = ""
    """Where a document said it: provenance ``<doc>:p<page>:c<chunk>@<start>-<end>`` ("" if imported)."""
    sentence: str = ""
    """The sentence it was read from (offline extraction records it; "" otherwise)."""
    confidence: float = 1.0
    """How sure the extractor was of this edge (its best reading; 1.0 for an imported edge).
    ``sgrag.evidence_passage(workspace, source)`` gives the document title and the sentence's span."""


@dataclass(frozen=True)
class Match:
    """δ output: a binding of query nodes to graph nodes, verified edge by edge.

    ``exact`` means every query edge is satisfied; otherwise ``missing`` names the
    constraints (query node ids) the binding could not satisfy.
    """
    binding: dict[str, str]
    edges: tuple[MatchedEdge, ...]
    satisfied: tuple[str, ...]
    missing: tuple[str, ...]
    exact: bool


@dataclass(frozen=True)
class RankedAnswer:
    """One candidate answer with the evidence behind its rank."""
    node_id: str
    label: str
    score: float
    satisfied: tuple[str, ...]
    missing: tuple[str, ...]
    features: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SetApart:
    """An entity joined to every constraint, left out of the exact set, and why."""
    node_id: str
    label: str
    reason: str  # "not of the kind 'award'", "not joined to Canada by a relation 'released' names"


@dataclass(frozen=True)
class Condition:
    """One thing the question names, and what became of it: every named condition is either used or
    reported as not used (the answer's header counts them: "N entities satisfy K of M conditions")."""
    text: str
    """The question's own words for it ("born in Atlantis", "comedain")."""
    label: str
    """The graph node it stands for ("" when the graph has none)."""
    status: str
    """"used": every member of the exact set meets it, verified edge by edge; "ranks": it orders the
    answers but filters nobody (weakly linked, or a class word that gave way); "relaxed": given up to find
    an answer; "not_found": nothing in the graph stands for it; "unused": the graph has it, but the
    question's wording did not make it a condition (part of a relation or of a longer name); "described": a
    description after the last name ("home to the northernmost university"), which no name stands for;
    "unchecked": joined to every member, but the relation the question states for it is one no relation of the
    graph says ("Where does the Douro *rise*?"), so any relation counted; "compared": a superlative ("the
    largest"), which no fact of the graph can check."""
    reason: str = ""
    """Why, in plain words ("no entity named 'Atlantis' in the graph", "read 'comedain' as Comedian")."""
    corrected: bool = False
    """The link is a typo correction or a fuzzy reading, not the label as written."""
    met: bool = False
    """No entity meets every condition, and the best partial match meets this one, though it only ranks: the
    partial list counts it among what the answer meets, and so does the verdict."""

    @property
    def used(self) -> bool:
        return self.status == "used"


def conditions_met(conditions: tuple[Condition, ...]) -> int:
    """How many named conditions the answer meets as the partial list counts them: those used, and those that only
    rank but the best partial match meets (a class word it is)."""
    return sum(c.used or c.met for c in conditions)


def joined_to_every(conditions: tuple[Condition, ...]) -> bool:
    """Whether every condition is used or joined with its stated relation not checked, at least one so: the verdict
    and the badge then say "joined to every condition", not "satisfies"."""
    unchecked = sum(c.status == "unchecked" for c in conditions)
    return bool(unchecked) and sum(c.used for c in conditions) + unchecked == len(conditions)


@dataclass(frozen=True)
class Answer:
    """γ output."""
    text: str
    node_id: str | None
    exact: bool
    confidence: float
    ranked: tuple[RankedAnswer, ...]
    final: tuple[str, ...]  # the answer set committed to (labels)
    relaxed: tuple[str, ...]  # constraint labels given up to find an answer
    explanation: str
    mode: str = "offline"  # offline | llm | llm->offline
    context: str = ""  # the relation paragraph given to the LLM (or that would be)
    exact_set: tuple[RankedAnswer, ...] = ()
    """Every entity that satisfies every firm constraint (verified edge by edge), ranked; empty
    when nothing does. ``text`` is its first member when there is one."""
    tie_break: str = ""
    """Why ``text`` was put first when several entities satisfy everything (empty otherwise)."""
    set_apart: tuple[SetApart, ...] = ()
    """Entities joined to every constraint that the question's words still rule out (not of the
    answer's kind, or joined by another relation than the one stated); not in ``exact_set``."""
    conditions: tuple[Condition, ...] = ()
    """Every condition the question names, used or not, with why (the source of the verdict)."""
    headline: str = ""
    """The one-sentence verdict the CLI, ``ask --json`` and the app's header all show
    ("exactly one entity satisfies 3 of 4 conditions; 'Atlantis' was not found")."""

    @property
    def exact_size(self) -> int:
        return len(self.exact_set)

    @property
    def conditions_used(self) -> int:
        return sum(c.used for c in self.conditions)

    @property
    def joined_only(self) -> bool:
        """Whether the exact set is only joined to every condition: some relation the question states was not
        checked (no relation of the graph states it), so its members are not shown to meet it as stated."""
        return bool(self.exact_set) and any(c.status == "unchecked" for c in self.conditions)

    @property
    def meets_every_named(self) -> bool:
        """Whether the answer is exact for every thing the question names: some entity meets every condition
        used, and no named thing was missing from the graph or left out (a name the graph lacks makes the
        answer a partial match, however many entities meet the rest; a class word that only ranks does not), nor
        was a description after the last name, a stated relation or a comparison left unchecked ("home to the
        northernmost university", "Where does the Douro *rise*?", "the largest")."""
        return self.exact and not any(c.status in ("not_found", "unused", "described", "unchecked", "compared")
                                      for c in self.conditions)


@dataclass
class QueryTrace:
    """Everything one ask() did: each stage's output and its time in milliseconds."""
    question: str
    query_graph: QueryGraph | None = None
    paths: list[QueryPath] = field(default_factory=list)
    label_completion: list[LabelCompletion] = field(default_factory=list)
    path_matches: list[PathMatches] = field(default_factory=list)
    funnel: list[FunnelStep] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    exact_count: int = 0
    answer: Answer | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    index_version: str = ""

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(self)

    @property
    def firm_qids(self) -> set[str]:
        """The constraints the matcher required (its query paths cover exactly those)."""
        return {q for p in self.paths for q in p.qids}

    def match_role(self, m: Match) -> str:
        """What ``m`` is to the verdict (``answer``, the one source of truth): "answer" when it binds a
        member of the exact set, "set apart" when its entity is joined to every condition but the
        question's words rule it out, else "partial" (``Match.exact`` alone says only that the edges hold)."""
        a, qg = self.answer, self.query_graph
        node = m.binding.get(qg.target) if qg is not None else None
        if a is None or node is None:
            return "partial"
        if any(r.node_id == node for r in a.exact_set):
            return "answer"
        return "set apart" if m.exact and any(x.node_id == node for x in a.set_apart) else "partial"

    def answer_evidence(self) -> tuple[MatchedEdge, ...]:
        """The evidence edges of the match that binds the answer (empty if none does)."""
        a, qg = self.answer, self.query_graph
        if a is None or qg is None or a.node_id is None:
            return ()
        return next((m.edges for m in self.matches if m.binding.get(qg.target) == a.node_id), ())


def to_jsonable(obj: Any) -> Any:
    """Dataclasses/tuples/dicts -> JSON-ready structures."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalars
        return obj.item()
    return obj


@dataclass(frozen=True)
class Progress:
    """A progress report from a long operation (build, ingest, eval)."""
    stage: str
    done: int
    total: int
    message: str = ""
    eta_s: float | None = None
    metrics: dict[str, float] = field(default_factory=dict)


ProgressFn = Callable[[Progress], None]


def no_progress(_: Progress) -> None:
    """Default progress sink."""
