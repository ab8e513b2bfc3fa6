"""Typed configuration: one dataclass per stage, all defaults here, secrets never stored.

A workspace saves ``SgragConfig.overrides()``, only what differs from the defaults, so that a
default a later release improves (a fitted weight) reaches the workspaces made before it; API keys are read from the
environment (``SGRAG_LLM_API_KEY`` / ``OPENAI_API_KEY``) or passed at run time only.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError


@dataclass
class EmbedConfig:
    backend: str = "minilm"
    """Label embedder: "minilm" (bundled all-MiniLM-L6-v2, offline), "hash" (tiny,
    deterministic, for tests and huge synthetic graphs) or "openai" (the LLM endpoint)."""
    batch_size: int = 256
    """Labels per embedding batch."""
    hash_dim: int = 64
    """Dimension of the "hash" embedder."""


@dataclass
class GNNConfig:
    dim: int = 4
    """Sum-aggregated dominance dimensions per node."""
    max_dim: int = 4
    """Max-aggregated dominance dimensions per node (they still prune next to hubs)."""
    hidden: int = 32
    """Width of the projected label features inside the GAT layer."""
    epochs: int = 80
    """Training epochs (each samples ``pairs_per_epoch`` star pairs)."""
    pairs_per_epoch: int = 4096
    """Star pairs per epoch used to train pruning power."""
    lr: float = 0.05
    """Adam learning rate."""
    seed: int = 0
    """Seed for parameter init and pair sampling."""


@dataclass
class IndexConfig:
    path_length: int = 1
    """Path length l of the R*-tree index: 1 (edges) or 2 (two-edge paths, budgeted)."""
    max_paths: int = 20_000_000
    """Refuse to index more paths than this (l = 2 on a large graph) with a clear message."""
    signature_bits: int = 256
    """Label-signature bits per node (0 = off): a monotone set filter beside the GNN keys."""
    leaf_capacity: int = 64
    """R*-tree leaf capacity."""
    quant_scale: float = 4096.0
    """Integer grid units per median dominance value: stored as ceil(x * s) + 1, queries floored."""


@dataclass
class QueryConfig:
    mode: str = "offline"
    """"offline" links mentions locally; "llm" asks the endpoint for the query graph (paper prompt)."""
    link_floor: float = 0.82
    """Minimum cosine similarity for an embedding (FAISS) fallback link."""
    fuzzy_floor: float = 92.0
    """Minimum rapidfuzz ratio for a fuzzy mention link."""
    typo_correction: bool = True
    """Read a misspelt question word as the label word it nearly spells ("comedain" -> comedian)."""
    max_question_chars: int = 2000
    """Longer questions are refused with a clear error (linking is super-linear in the worst case)."""
    title_floor: float = 85.0
    """Minimum rapidfuzz ratio to link a whole title ("X Award for ...") to a label with the same head."""
    top_k: int = 5
    """Alternatives kept per mention in the normalization table."""
    soft_below: float = 0.75
    """Constraints linked with less confidence are soft: they rank candidates but never filter them."""
    max_label_candidates: int = 50_000
    """Cap on UNK label candidates collected during label completion."""
    fuzzy_score: float = 0.85
    """A fuzzy fallback link scores its similarity (0-1) times this: a near spelling is less sure than the name."""
    embedding_score: float = 0.8
    """An embedding fallback link scores its cosine times this (a neighbour by meaning is the least sure link)."""
    lexicon: str = "auto"
    """Lexicon preset (``sgrag/lexicons``): "base" (neutral English), "freebase" (base plus Freebase label
    conventions), or "auto" (freebase when the graph names its relations as Freebase paths; import records
    what it detected)."""
    alias_score: float = 0.9
    """Link score of a name the label goes by (an alias), not the label itself."""
    typo_two_edits_from: int = 8
    """A misspelt word this long (letters) may be two edits off the label word it is read as; shorter, one."""
    typo_score: float = 0.9
    """A link read through a spelling correction counts this much of the link as spelt."""
    type_confidence: float = 0.9
    """Confidence of a class word of the answer type ("Who is the *comedian*"): firm, yet the first to give way
    when nothing satisfies everything."""
    type_heads_per_tail: float = 8.0
    """A relation is type-like when its tails gather at least this many heads each..."""
    type_min_heads: int = 20
    """...over at least this many heads (to tell)."""
    class_share: float = 0.6
    """A class node gets at least this share of its edges through type-like relations."""
    relation_vocab_min_edges: int = 20
    """A node's relation words ("Common's *official website*") need this many edges to tell..."""
    relation_vocab_share: float = 0.9
    """...and appear in the relation names of at least this share of them."""
    relation_word_gap: int = 12
    """Characters at most between a relation word and its node's mention."""
    threads: int = 1
    """Threads one process answering questions gives torch and BLAS (question embedding, ranking products): one
    keeps each question's latency steady when other work shares the cores; builds are not limited."""
    embed_runtime: str = "torch"
    """How MiniLM embeds a question's phrases: "torch" (about 5 s of imports once, then faster per question: for
    the app and evaluations) or "numpy" (no torch, the same vectors to float32 rounding: a one-shot CLI ``ask``
    starts in about a second)."""


@dataclass
class RankingConfig:
    """The fitted numbers of ranking and set narrowing, in one place; a workspace overrides any of them in its
    config.json (section "ranking"), and ``bench/fit_ranker.py --write`` stores weights fitted on its questions
    there. The defaults were fitted on the FB-ERQA dev questions (weights, in-edge weight: conditional logit,
    5-fold cross-validated) and the Re-DocRED dev questions (relation fit)."""
    weights: dict[str, float] = field(default_factory=lambda: {
        "coverage": 2.66, "soft": 1.96, "type": 2.78, "relation": 2.76, "relation_words": 3.81, "prior": 2.97,
        "likelihood": 14.6, "kind": 0.0, "document": 0.0, "sentence": 0.0, "wording": 0.0, "passage": 0.0})
    """Weight of each ranking feature (every feature lies in [0, 1]); a feature left out keeps its default."""
    document_weights: dict[str, float] = field(default_factory=lambda: {
        "coverage": 4.83, "soft": 1.39, "type": 2.06, "relation": 4.09, "relation_words": 3.55, "prior": 6.89,
        "likelihood": 1.45, "kind": 1.61, "document": 6.61, "sentence": 1.0, "wording": 1.5, "passage": 2.0})
    """The weights on a graph read from documents, unless the workspace sets its own ``weights``: fitted
    (``bench/fit_ranker.py --also``) on the Re-DocRED dev questions and 15 held-out sets of encyclopedic documents
    with their questions (1,004 in all), each over the offline extractor's graph of its documents, coverage and
    document held at their earlier fit (on Re-DocRED dev alone), sentence at 1: the most at which the Re-DocRED
    dev questions, built from facts as a held-out set's are, lose nothing (the helper-written sets would take 3.5;
    their questions come from one sentence more often); wording at 1.5, on the same rule (the others held, it
    would take 4.7 there), and passage at 2, the best for Re-DocRED dev and synth-dev together (both gain from 0.5
    to 4). There a small star is no sign of the answer (every
    extracted node has few edges); the relation's words, the answer's kind, a candidate more specific than the
    document's hub (often the thing the question names) and one named in a sentence with the conditions are."""
    kind_class_min_members: int = 3
    """A class noun of a document graph names a coarse kind (``sgrag.kinds``) once at least this many of its members
    have one ..."""
    kind_class_share: float = 0.8
    """... and at least this share of them are of that kind ("singer": nearly all NER persons)."""
    in_edge_weight: float = 0.01
    """In a graph that keeps directions, how much an edge the candidate is only the tail of counts against one it
    heads (questions state facts *about* their answer)."""
    likelihood_min_neighbours: float = 1000.0
    """The likelihood's log-probabilities are scaled by the log of the largest star, but never by less than the
    log of this many neighbours (in a small graph, a star of 5 against one of 4 says little)."""
    tie_confidence: float = 0.99
    """The most confidence a tie-break among several exact answers gets (the surest tie-breaks were right 96%
    of the time on the dev questions)."""
    kind_core_share: float = 0.8
    """A type phrase nearly every node of the answer's kind holds (this share) marks that kind too..."""
    kind_generic_share: float = 0.2
    """...unless at least this share of the graph holds it ("topic", "person" say little about a node)."""
    one_way_overlap: float = 0.05
    """A relation whose heads and tails share more nodes than this share is stored either way."""
    directed_share: float = 0.5
    """A graph with fewer of its edges than this share in one-way relations types no node by them."""
    stated_words: int = 6
    """Words before a constraint that may name its relation ("won medals in")."""
    relation_fit_floor: float = 0.25
    """A relation fits a stated phrase when half its embedding cosine plus half its word overlap reaches this."""
    relation_fit_margin: float = 0.1
    """Relations within this of the best fit count as fitting too (near-synonyms: "located in" / "location")."""
    plain_share: float = 0.8
    """Relation names are plain words when at least this share of them are neither paths nor ids."""
    relation_fit_made: float = 0.5
    """The most a "<work noun> by X" relation fits a maker verb read from X's side ("a song by X" as X "produced" it):
    a guess at how X made it, below a relation that states the verb (set by reasoning, not fitted)."""
    relation_fit_backward: float = 0.7
    """A stated phrase read against a relation the candidate is only the tail of, with no inverse stored, counts
    this much: the relation may name the tail's role ("developer") or the head's ("conflict"), and the words
    cannot tell which (set by reasoning, not fitted)."""
    rank_cap: int = 2000
    """Partial-match candidates ranked at most when nothing satisfies every condition (best coverage first)."""


@dataclass
class RulesConfig:
    disabled: list[str] = field(default_factory=list)
    """Names of the rules switched off in this workspace (``python -m sgrag rules`` lists them with their
    state); an unknown name is refused with a clear error when the engine opens."""


@dataclass
class MatchConfig:
    max_partial: int = 10
    """Best partial matches kept when no exact match exists."""
    max_matches: int = 200
    """Exact matches kept in the trace (all are counted)."""
    exact_edge_confidence: float = 0.55
    """An edge the extractor read with less confidence than this (a name merely mentioned in the
    article about the answer, a clause's subject far from the named thing) never makes a match exact:
    such candidates are ranked as partial matches instead. Imported edges count as 1.0."""


@dataclass
class AnswerConfig:
    mode: str = "offline"
    """"offline" ranks candidates locally; "llm" asks the configured endpoint."""
    min_confidence: float = 0.25
    """Below this confidence the answer is "Unable to determine" (not on a graph read from documents, whose best
    partial match is always given with its calibrated share: ``answer.offline_answer``)."""
    max_answers: int = 10
    """Ranked alternatives returned."""
    partial_fact_weight: float = 0.5
    """A partial answer from documents is as sure as its share of the ranked candidates' weight times its least sure
    supporting fact to this power (0: the share alone, 1: their product). Chosen on the Re-DocRED dev and templated
    dev partial answers: Brier score 0.273 with the product, 0.232 with 0.5 (0.223 at 0.25); templated check 0.220
    -> 0.204."""


@dataclass
class LLMConfig:
    base_url: str = ""
    """OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1 for Ollama); empty = offline."""
    model: str = "gpt-4o-mini"
    """Chat model name."""
    embedding_model: str = "text-embedding-3-small"
    """Embedding model name for the "openai" embed backend."""
    timeout_s: float = 60.0
    """Read timeout of one request (seconds without a reply before it is abandoned)."""
    connect_timeout_s: float = 5.0
    """Connect timeout of one request (a dead host or closed port fails this fast)."""
    max_retries: int = 2
    """Retries on timeouts, connection errors, 429 and 5xx, with exponential backoff."""
    deadline_s: float = 60.0
    """Overall budget of one LLM call, retries included; after a failure the endpoint is marked
    down (``down_for_s``), so the other calls of the same question skip it at once and one
    question waits at most this long for a silent endpoint."""
    down_for_s: float = 60.0
    """After a call finds the endpoint unreachable or silent (connection error, timeout), calls to
    it fail at once for this long instead of waiting again (circuit breaker; 0 = off). A
    successful "Test connection" or ``reset_endpoint`` closes it early."""
    concurrency: int = 4
    """Concurrent requests at most."""
    temperature: float = 0.0
    """Sampling temperature."""


@dataclass
class ExtractConfig:
    extractor: str = "offline"
    """"offline" (rule-based, embedded) or "llm" (the paper's extraction prompt)."""
    chunk_chars: int = 1200
    """Chunk size in characters."""
    chunk_overlap: int = 200
    """Overlap between consecutive chunks in characters."""
    merge_threshold: float = 0.0
    """If > 0, merge entities whose label embeddings have cosine >= this."""
    gleanings: int = 1
    """Extra LLM calls to continue an extraction that was cut off."""


@dataclass
class LimitsConfig:
    """Bounds on user-supplied input, so a hostile or accidental file is refused in seconds
    with a message naming the limit, instead of exhausting memory or running for hours.
    Raise a limit in the workspace's config.json (section "limits")."""
    max_file_bytes: int = 256 * 2**20
    """Largest input file on disk (a graph to import or a document to ingest), in bytes."""
    max_parse_bytes: int = 64 * 2**20
    """Largest content parsed as a whole (JSON/GraphML graphs, documents, the parts of a
    .docx), in bytes after decompression; keeps a parse well under 1 GB of memory."""
    max_stream_bytes: int = 2 * 2**30
    """Largest decompressed size of a .gz triples file (read line by line, so memory stays
    bounded); a small archive that inflates beyond this is refused."""
    max_gzip_ratio: int = 20
    """Most a .gz input may inflate, as a multiple of its size on disk (FB15k-237's triples: 6.9x; graphs and
    text compress 5-15x; a stream of one repeated line, 350-1,000x): a bomb is refused after reading ratio x
    its size, in seconds."""
    max_line_chars: int = 1_000_000
    """Longest line of a TSV/CSV/JSONL graph or of a document's text, in characters."""
    max_json_depth: int = 100
    """Deepest nesting of JSON arrays and objects (graphs and documents)."""
    max_document_chars: int = 5_000_000
    """Most text one document may yield (about 4,000 chunks at the default chunk size)."""
    max_edges: int = 10_000_000
    """Most distinct edges a streamed triples import may hold: about 3 GB of memory while reading, and past
    the default index budget anyway (``index.max_paths`` = 20M oriented paths is about 10M edges at l = 1); a
    1 GiB stream of distinct triples is refused at this count instead of filling memory for minutes."""


@dataclass
class SgragConfig:
    embed: EmbedConfig = field(default_factory=EmbedConfig)
    gnn: GNNConfig = field(default_factory=GNNConfig)
    index: IndexConfig = field(default_factory=IndexConfig)
    query: QueryConfig = field(default_factory=QueryConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    answer: AnswerConfig = field(default_factory=AnswerConfig)
    llm: LLMConfig = field(default_factory=LLMConfig)
    extract: ExtractConfig = field(default_factory=ExtractConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    ranking: RankingConfig = field(default_factory=RankingConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from sgrag's defaults (inside a dict such as ``ranking.weights``, the keys that
        differ): what a workspace's config.json keeps, and what ``from_dict`` lays over the defaults again."""
        defaults, out = SgragConfig().to_dict(), {}
        for section, values in self.to_dict().items():
            changed = {}
            for key, value in values.items():
                default = defaults[section][key]
                if isinstance(value, dict) and isinstance(default, dict):
                    value = {k: v for k, v in value.items() if default.get(k) != v}
                    if value:
                        changed[key] = value
                elif value != default:
                    changed[key] = value
            if changed:
                out[section] = changed
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "SgragConfig":
        """Build from a (possibly partial or older) dict; unknown keys are ignored."""
        cfg = cls()
        for section in dataclasses.fields(cls):
            values = (data or {}).get(section.name) or {}
            target = getattr(cfg, section.name)
            names = {f.name: f.type for f in dataclasses.fields(target)}
            for key, value in values.items():
                if key in names:
                    setattr(target, key, _typed(getattr(target, key), value, f"{section.name}.{key}"))
        return cfg

    def index_hash(self) -> str:
        """Hash of everything that changes the built index (to know when to rebuild)."""
        part = {"embed": dataclasses.asdict(self.embed), "gnn": dataclasses.asdict(self.gnn),
                "index": dataclasses.asdict(self.index)}
        return hashlib.sha256(json.dumps(part, sort_keys=True).encode()).hexdigest()[:16]


def _typed(default: Any, value: Any, where: str) -> Any:
    """``value`` as the type of ``default``: a dict merges into the default one (a partial "weights" keeps the
    other weights), a list must be a list (a bare string would read as its characters)."""
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise ConfigError(f"config.json: {where} must be an object, not {value!r}")
        unknown = sorted(set(value) - set(default))
        if unknown:
            raise ConfigError(f"config.json: {where} has unknown key(s) {', '.join(map(repr, unknown))} "
                              f"(known: {', '.join(default)})")
        return {k: type(v)(value.get(k, v)) for k, v in default.items()}
    if isinstance(default, list):
        if not isinstance(value, list):
            raise ConfigError(f"config.json: {where} must be a list, not {value!r}")
        return list(value)
    return type(default)(value) if default is not None else value


def api_key_from_env() -> str:
    """The LLM API key, from the environment only (never from a workspace file)."""
    return os.environ.get("SGRAG_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or ""
