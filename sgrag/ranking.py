"""γ ranking: order the candidates with explainable evidence (and the answer's kind, stated relations).

Exact matches (every constraint satisfied) outrank partial ones; among equals, the
question's own evidence breaks ties: its answer type ("Which *country*") against the
types the graph gives each candidate, and the words before each constraint ("won medals
in") against the relation text of the edge that satisfies it. A weak degree prior comes
last, favouring specific answers over hubs. Every feature is kept in the trace.

The weights and the other fitted numbers live in ``RankingConfig`` (``sgrag/config.py``; a workspace may
override them, and ``bench/fit_ranker.py --write`` fits its own weights); every feature lies in [0, 1].
Each feature and narrowing rule is a named rule (``sgrag.rules``) a workspace can switch off.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from .config import RankingConfig
from .coref import ROLE_NOUNS, is_person_noun
from .extract import edge_confidence
from .graph import KnowledgeGraph, expand_ranges
from .kinds import (COARSE_KINDS, EVENT, GROUP, LAW, ORGANIZATION, PERSON, PERSON_WORDS, PLACE, PRODUCT, WORK,
                    NodeKinds, coarse_words, country_named, name_head, noun_kind, read_by_ner)
from .linking import IRREGULAR_VERBS, STOPWORDS, answer_type_span, named_type_relations
from .rules import ALL_ON, RuleSwitches, register
from .schema import (ProfileThresholds, SchemaProfile, asked_precision, is_value_label, learn_profile,
                     one_way_relations, value_precision)
from .stated import stated_words
from .textnorm import MAKING, SUPERLATIVE, fold, singular, stem, tokens
from .types import QueryGraph, QueryNode, RankedAnswer

# Answer-type words that ask for anything: "Who is the person ..." is how every "Who" question is put, whatever
# the answer is (a band, a profession). A word the lexicon maps to one of them ("figure" -> person) does name it.
NOT_A_KIND = frozenset({"entity", "one", "individual", "notable", "person", "people", "thing", "item", "name"})
LOCATIVE = frozenset({"in", "on", "at", "into", "within", "inside", "near"})  # "Which bridge *in* Samarinda"
INSIDE = frozenset({"in", "within", "inside"})  # "Which estate *in* Albemarle County": the answer lies inside
LOCATED = frozenset({"located", "situated", "lies", "lie", "lying", "sits", "stands", "based"})
"""Verbs that only say where a thing is ("is *located* in"), unlike "appears in", "took part in"."""
_AUXILIARY = frozenset({"did", "does", "do", "was", "is", "were", "are"})
"""An auxiliary before a question's name puts its verb after it ("Where *did* Ada Lovelace *die*?"; not "has": "Which
party *has* Mehdi Karroubi as a member", a verb of its own)."""
# "issued *both* X and Y" states no relation; nor does a verb of coming beyond its preposition ("comes *from*",
# "came *after*")
FILLER = frozenset({"both", "either", "each", "the", "a", "an", "also", "come", "comes", "came", "coming"})


WEIGHTS = RankingConfig().weights  # the shipped weights (a workspace's may differ: ``Ranker.weights``)
DOCUMENT_WEIGHTS = RankingConfig().document_weights
FEATURES = tuple(WEIGHTS)

# The ranking features and narrowing rules (``sgrag.rules``); a feature switched off weighs nothing.
FEATURE_RULES = {
    "coverage": register("coverage", "ranking", "Ranks by the linking confidence of the constraints a candidate "
                         "satisfies."),
    "soft": register("soft", "ranking", "Ranks first the candidates that also meet the weakly linked (soft) "
                     "constraints."),
    "type": register("type", "ranking", 'Ranks first the candidates whose types fit the answer type ("Which '
                     '*country*"), by embedding and shared words.'),
    "relation": register("relation", "ranking", "Ranks first the candidates whose relation to each constraint fits the "
                         "words stated before it (embedding and word overlap)."),
    "relation_words": register("relation_words", "ranking", "Ranks first the candidates whose joining relations "
                               'contain the question\'s words ("medals won").'),
    "prior": register("prior", "ranking", "Ranks specific candidates (fewer connections) before hubs."),
    "likelihood": register("likelihood", "ranking", "Ranks first the candidates from whose facts the question's "
                           "constraints are likeliest drawn (edges to them / star size)."),
    "kind": register("kind", "ranking", 'On a graph read from documents, ranks first the candidates of the coarse kind '
                     '(person, organization, place, work, event, product, law, nationality or group) the answer type '
                     'asks for ("Which *singer*": a person; "Who": a person first, then an organization), as NER and '
                     'the stated classes typed them.'),
    "document": register("document", "ranking", "On a graph read from documents, ranks first the candidates that one "
                         "document names together with the most firm conditions: a fact its sentences state apart (or "
                         "through a pronoun the reader missed) still lies in the document about it."),
    "sentence": register("sentence", "ranking", "On a graph read from documents, ranks first the candidates that one "
                         "sentence names together with the most firm conditions: a fact the reader did not take apart "
                         "is still stated beside its answer."),
    "passage": register("passage", "ranking", "On a graph read from documents, ranks first the candidates one sentence "
                        "of whose facts says the most of the question at once: its own words and the names of its firm "
                        "conditions (\"In 1865 Fredrik Idestam set up a pulp mill in Tampere\")."),
    "wording": register("wording", "ranking", "On a graph read from documents, ranks first the candidates a sentence "
                        "stating one of their facts says in the question's own words (those beside the names: \"set "
                        "up a *pulp mill*\"): a relation the reader did not name so is still worded there."),
}
PARTIAL_BY_EVIDENCE = register("partial_by_evidence", "ranking", "On a graph read from documents, how many conditions "
                               "a partial match meets counts among its evidence (coverage) instead of first: one more "
                               "condition met through a co-occurrence or a misread pronoun says less than the rest.")
CUT_NAMES_YIELD = register("cut_names_yield", "ranking", 'Among partial matches ranked by their evidence, a name '
                           'inside a longer candidate\'s name ("Dep" in "Le Dep") whose firm conditions met are a strict '
                           'subset of the longer one\'s ranks just below it: the same thing cut short by the extractor.')
WITHIN_FIRST = register("within_first", "ranking", 'Among entities that satisfy every condition of a "Where" question, '
                        'one the graph locates inside another member ranks just before it ("Where was Kofi Annan '
                        'born?": Kumasi, in the Gold Coast, before the Gold Coast): the more precise answer.')
WITHIN_SHOWN = 50
"""Members of an exact set ``within_first`` reorders (the answer shows fewer)."""
NAME_SAYS_TYPE = register("name_says_type", "ranking", 'On a graph read from documents, a candidate whose name\'s '
                          'head noun is the answer type\'s ("Which *university*": *University* of Michigan) fits the '
                          'type as one of that stated class does (the type feature), and, in the document naming the '
                          'conditions, is not put after the names a fact joins to one unless one of those says it too.')
IN_EDGE_DISCOUNT = register("in_edge_discount", "ranking", "In a graph that keeps directions, an edge the candidate "
                            "is only the tail of counts little (questions state facts *about* their answer).")
ANSWER_KIND = register("answer_kind", "narrowing", 'Entities of another kind than the answer type names ("Which '
                       '*award*"), by the graph\'s relation types, are left out.')
RELATION_FIT_RULE = register("relation_fit", "narrowing", 'On readable relation names (schema profile), a constraint '
                             'is met only through relations that fit the phrase stated before it ("born in": place '
                             'of birth), each edge read from the candidate\'s side (its stored inverse, or the answer '
                             'type, when it is the tail; a passive "succeeded by" as its verb: "Who succeeded X?"); '
                             'after an auxiliary, the verb after it ("Where did X *die*?", X the head), where some '
                             'relation states it, or a preposition alone ("Which city is X *in*?", "*In* which city '
                             'is X?"), or a role before "of" ("Who is the *chief executive of* X?"; "founder" as '
                             '"founded"). A bare verb ("Who *recorded* X?") is not met by its place\'s tail ("recorded '
                             'at"). A verb\'s preposition alone fits only a relation that says nothing '
                             'but where ("born in": the parse\'s "in", not "twinned in") or a post held there ("worked '
                             'at": "trader at").')
STATED_RELATION = register("stated_relation", "narrowing", 'A word next to a constraint that names the relation of '
                           'some members\' edges to it ("*released in* Canada") keeps only those members.')
RELATION_SYNONYMS = register("relation_synonyms", "narrowing", 'The lexicon\'s relation words count as the question '
                             'word ("died" states place_of_death).')
COARSE_KIND = register("coarse_kind", "narrowing", 'On a graph read from documents, an entity clearly of another '
                       'coarse kind than the answer type asks for (a person for "Which *league*", an organisation or a '
                       'place for "Which *singer*", what the text calls a party for "Which *city*") is left out of the '
                       'exact set and ranked below the partial matches of the right kind. Only what the text shows (a '
                       'person, a stated class) is left out even when nothing else meets the conditions.')
WHO_NOT_A_THING = register("who_not_a_thing", "narrowing", 'On a graph read from documents, "Who ...?" with no '
                          'kind of its own is not answered by a place, a work, an event, a product or a law by the '
                          'kinds read from the documents ("Who was born in Wadowice?": not Radom), nor by a country or '
                          'its people ("Dutch"); a person, a band or a publisher may answer it.')
NOT_WHO = (PLACE, WORK, EVENT, PRODUCT, LAW)
"""The coarse kinds no "Who" asks for (``who_not_a_thing``)."""
PREDICATE_AFTER = register("predicate_after", "narrowing", 'On a graph read from documents, the predicate after the '
                           'last condition with no condition of its own ("Which stretch of the desert *is littered with '
                           'shipwrecks*?") is a relation the answer must be shown to have: where no edge to that '
                           'condition states it, nothing is proven (the rule unfit_extracted_relation).')
NO_COUNTRY_RULE = register("no_country", "narrowing", 'On a graph read from documents, a country (by name: ISO 3166, '
                           'the lexicon\'s demonyms and aliases) is clearly not a place of a kind no country is ("Which '
                           '*lake* does the Rhine flow through?": not Germany; "Which *city*", "Which *county*").')
NO_COUNTRY = frozenset({"city", "town", "village", "hamlet", "lake", "river", "mountain", "county", "municipality",
                        "district", "province", "suburb", "neighbourhood", "neighborhood", "borough", "sea", "ocean",
                        "bay", "peak", "valley", "street", "building", "stadium", "station", "bridge"})
"""Place nouns no country is (``no_country``; not "island", "region", "state": Iceland, a state of its own)."""
CONTAINMENT_DIRECTION = register("containment_direction", "narrowing", 'A candidate the question puts *in* a '
                                 'place or thing ("Which estate *in* Albemarle County", "is located *in* Olesno '
                                 'County") does not meet it through an edge that puts that place *in the candidate* '
                                 '("Albemarle County located in Virginia" read from Virginia\'s side): such a '
                                 'condition counts as not met.')
CONVERSE_RELATIONS = register("converse_relations", "ranking", 'On relations named in plain words, an edge the '
                              'candidate is only the tail of reads as English says it from that side: a kinship '
                              'relation naming the head\'s role as its converse ("Zarir *son of* Yazdegerd": Yazdegerd '
                              '"father of" Zarir), a "<work noun> by X" relation as X having made it ("song by": '
                              '"created", "wrote", "performed"; in relation_fit below a relation that states the '
                              'verb: "produced by Trent Reznor"), in the relation feature and relation_fit.')
PASSIVE_DIRECTION = register("passive_direction", "narrowing", '"influenced by X": in a graph that keeps directions, '
                             "a passive _by relation counts only in its own direction.")


def _type_phrases(relation: str) -> tuple[str, str]:
    """(head type, tail type) of a Freebase-style relation path; ("", "") otherwise."""
    if not relation.startswith("/"):
        return "", ""
    segs = [s for s in re.split(r"[/.]", relation) if s]
    if len(segs) < 3:
        return "", ""
    return segs[1].replace("_", " "), segs[-1].replace("_", " ")


@dataclass
class EvidenceModel:
    """Per-node type phrases and embedded relation/type text, built once per index."""
    type_vocab: list[str]
    type_vecs: np.ndarray  # (T, F)
    node_type_ptr: np.ndarray  # CSR over nodes -> type phrase ids
    node_type_ids: np.ndarray
    text_vocab: list[str]  # relation texts (graph.relation_text strings)
    text_vecs: np.ndarray
    edge_text: np.ndarray  # (E,) index into text_vocab

    @classmethod
    def build(cls, graph: KnowledgeGraph, embed, type_relations=()) -> "EvidenceModel":
        heads, tails = {}, {}
        for r, name in enumerate(graph.relations):
            heads[r], tails[r] = _type_phrases(name)
        vocab: dict[str, int] = {}
        pairs: set[tuple[int, int]] = set()
        typing = dict(enumerate(named_type_relations(graph, type_relations).tolist()))  # tail: what the head *is*
        for e, (e_rel, s, t) in enumerate(zip(graph.rel.tolist(), graph.src.tolist(), graph.dst.tolist())):
            for node, phrase in ((s, heads[e_rel]), (t, tails[e_rel])):
                if phrase:
                    pairs.add((node, vocab.setdefault(phrase, len(vocab))))
            if typing[e_rel] and not read_by_ner(graph.edge_sources.get(e, ())):
                # "Actor", "Male", "Drama": what the head node is (a coarse kind from NER ranks as ``kind``)
                pairs.add((s, vocab.setdefault(graph.labels[t].lower(), len(vocab))))
        arr = np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
        ptr = np.zeros(graph.num_nodes + 1, dtype=np.int64)
        np.add.at(ptr, arr[:, 0] + 1, 1)
        np.cumsum(ptr, out=ptr)
        texts: dict[str, int] = {}
        edge_text = np.fromiter((texts.setdefault(graph.relation_text(e), len(texts)) for e in range(graph.num_edges)),
                                dtype=np.int32, count=graph.num_edges)
        type_vocab, text_vocab = list(vocab), list(texts)
        type_vecs = embed(type_vocab) if type_vocab else np.zeros((0, 1), np.float32)
        text_vecs = embed(text_vocab) if text_vocab else np.zeros((0, 1), np.float32)
        return cls(type_vocab, type_vecs, ptr, arr[:, 1].copy(), text_vocab, text_vecs, edge_text)

    def save(self, path: Path) -> None:
        np.savez(path, type_vocab=np.array(self.type_vocab, dtype=str), type_vecs=self.type_vecs,
                 node_type_ptr=self.node_type_ptr, node_type_ids=self.node_type_ids,
                 text_vocab=np.array(self.text_vocab, dtype=str), text_vecs=self.text_vecs, edge_text=self.edge_text)

    @classmethod
    def load(cls, path: Path) -> "EvidenceModel":
        z = np.load(path, allow_pickle=False)
        return cls(z["type_vocab"].tolist(), z["type_vecs"], z["node_type_ptr"], z["node_type_ids"],
                   z["text_vocab"].tolist(), z["text_vecs"], z["edge_text"])


def _noun_and_preposition(relation: str) -> bool:
    """Whether a relation name ends in a noun and its preposition ("album by", "son of", "temple in", "served
    capital of"): the noun is what its head is; not after a preposition of its own ("recorded at studio of": the
    tail is the studio)."""
    words = tokens(relation)
    return len(words) >= 2 and words[-1] in STOPWORDS and words[-2] not in STOPWORDS and \
        not re.search(r"(?:ed|en|wn)$", words[-2]) and words[-2] not in IRREGULAR_VERBS and \
        not (len(words) > 2 and words[-3] in STOPWORDS)  # (a verb is no noun: "developed by", "made by")


class Ranker:
    """Scores UNK candidates; all features in [0, 1] so weights are comparable.

    Features are computed column-wise over the candidate arrays (CSR edge lookups, one
    embedding product per distinct relation text or type phrase), and only for the tiers
    that can reach the output: the whole top tier, then lower tiers while the list is short.
    """

    def __init__(self, graph: KnowledgeGraph, model: EvidenceModel, embed, soft_below: float = 0.0,
                 relation_words: dict[str, list[str]] | None = None, kind_words: dict[str, str] | None = None,
                 untyped_namespaces: tuple[str, ...] = (), cfg: RankingConfig | None = None,
                 rules: RuleSwitches = ALL_ON, profile: SchemaProfile | None = None,
                 coarse_kinds: dict[str, str] | None = None, converse_words: dict[str, list[str]] | None = None,
                 maker_verbs: tuple[str, ...] = ()):
        """``relation_words``: question word -> words a relation name says it with ("died" -> "death"; any form of the
        word: "die", "did *lead*" as "led");
        ``kind_words``: answer-type word -> the word the graph's kinds use for it ("place" -> "location");
        ``untyped_namespaces``: relation path prefixes whose paths say nothing of what their ends are;
        ``cfg``: the fitted numbers; ``rules``: which ranking and narrowing rules are on; ``profile``: the graph's
        learned conventions (learned here when not given); ``coarse_kinds``: class noun -> the coarse kind it names
        ("singer" -> "person", ``sgrag.kinds``); ``converse_words``, ``maker_verbs``: how a relation reads from its
        tail's side (``converse_texts``)."""
        self.graph, self.model, self.embed = graph, model, embed
        self.soft_below = soft_below
        self.cfg, self.rules = cfg or RankingConfig(), rules
        self.profile = profile or learn_profile(graph, thresholds=ProfileThresholds.of(self.cfg))
        # the weight of each feature, 0 for one switched off
        # a graph read from documents ranks with the weights fitted on one, unless the workspace fitted its own
        documents = self._read and self.cfg.weights == WEIGHTS
        fitted = self.cfg.document_weights if documents else self.cfg.weights
        shipped = DOCUMENT_WEIGHTS if documents else WEIGHTS  # a feature newer than the workspace's config
        self.weights = {f: fitted.get(f, shipped[f]) if rules.on(FEATURE_RULES[f]) else 0.0 for f in FEATURES}
        self._kind_words = {singular(w.lower()): singular(k.lower()) for w, k in (kind_words or {}).items()}
        self._untyped = tuple(untyped_namespaces)
        self._coarse_words = coarse_words(coarse_kinds or {})
        self._said_as: dict[str, frozenset[str]] = {}  # keyed by the word's stem: "lead" as "led", "marry" as "married"
        for w, xs in (relation_words or {}).items() if rules.on(RELATION_SYNONYMS) else ():
            key = stem(w.lower())
            self._said_as[key] = self._said_as.get(key, frozenset()) | {stem(x.lower()) for x in xs}
        self._converse_words = {w.lower(): tuple(x.lower() for x in xs) for w, xs in (converse_words or {}).items()}
        self._maker_verbs = tuple(maker_verbs)
        self._converse_cache: dict[int, tuple[str, ...]] = {}
        self._log_max_deg = math.log1p(float(graph.degree.max()) if graph.num_nodes else 1.0)
        self._words_cache: dict[int, set[str]] = {}
        self._relation_words_cache: dict[int, frozenset[str]] = {}
        self._sentence_cache: dict[int, tuple[frozenset[str], str]] = {}
        self._relation_stems_cache: dict[int, frozenset[str]] = {}
        self._name_heads: dict[str, frozenset[str]] = {}

    @property
    def likelihood_min_scale(self) -> float:
        """The least the likelihood's log-probabilities are scaled by (``cfg.likelihood_min_neighbours``)."""
        return math.log(self.cfg.likelihood_min_neighbours)

    @cached_property
    def _log_deg(self) -> np.ndarray:
        """log1p(degree) per node."""
        return _log1p_each(self.graph.degree)

    @cached_property
    def _type_phrases_with(self) -> dict[str, np.ndarray]:
        """Singular word -> ids of the type phrases holding it (the word share of ``type``)."""
        out: dict[str, list[int]] = {}
        for i, phrase in enumerate(self.model.type_vocab):
            for w in {singular(w) for w in phrase.split()}:
                out.setdefault(w, []).append(i)
        return {w: np.asarray(ids, dtype=np.int64) for w, ids in out.items()}

    @cached_property
    def _in_edge_weight(self) -> float:
        """How much an edge a node is the tail of counts, against one it heads (1 where directions mean little)."""
        return self.cfg.in_edge_weight if self._directed and self.rules.on(IN_EDGE_DISCOUNT) else 1.0

    @cached_property
    def _log_star(self) -> np.ndarray:
        """log1p of each node's star size, the neighbours it heads no edge to weighted by ``_in_edge_weight``:
        how many facts a question about the node could have been drawn from."""
        g = self.graph
        pairs = np.unique(g.src.astype(np.int64) * g.num_nodes + g.dst)
        heads = np.bincount(pairs // g.num_nodes, minlength=g.num_nodes)
        return _log1p_each(heads + self._in_edge_weight * (g.degree - heads).astype(np.float64))

    @cached_property
    def _ends(self) -> tuple[np.ndarray, np.ndarray]:
        """(node * R + relation) keys where the node is the relation's head, and where it is its tail (the
        end it holds most often; a tie counts as the head), over the relations the graph keeps one way, or over
        all where the graph keeps directions: Punjab heads /location/administrative_division/country, a relation
        some of whose tails are divisions too (England of the United Kingdom), and is an administrative division."""
        keep = self._one_way[self.graph.rel] | self._directed
        return _ends_of(self.graph.src[keep], self.graph.dst[keep], self.graph.rel[keep], len(self.graph.relations))

    @cached_property
    def _path_phrases(self) -> list[tuple[str, str]]:
        """Per relation, the (head type, tail property) phrases of its path (``_type_phrases``)."""
        return [_type_phrases(name) for name in self.graph.relations]

    @cached_property
    def _end_phrases(self) -> list[tuple[str, str]]:
        """``_path_phrases``, but none for a relation in an untyped namespace (Freebase's
        /dataworld/gardening_hint/split_to joins things of any kind)."""
        return [("", "") if self._untyped and name.startswith(self._untyped) else phrases
                for name, phrases in zip(self.graph.relations, self._path_phrases)]

    @cached_property
    def _relation_kinds(self) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
        """Kind phrase -> id, and per relation the kind of its head and of its tail (-1: none).

        A kind is the head type of a relation path (/award/award_category/...: "award category"); a
        relation's tail is of a kind when the path's last word is one, or its plural (the tail of
        /film/film/country is a country). Other tail properties name no kind (.../employment_tenure/company
        makes a country an employer, not a company)."""
        kinds: dict[str, int] = {}
        ends = self._end_phrases
        head = np.array([kinds.setdefault(h, len(kinds)) for h, _ in ends] or [0], dtype=np.int64)
        tail = np.array([kinds.get(t, kinds.get(singular(t), -1)) for _, t in ends] or [-1], dtype=np.int64)
        empty = kinds.pop("", None)
        if empty is not None:
            head[head == empty], tail[tail == empty] = -1, -1
        return kinds, head, tail

    @cached_property
    def _one_way(self) -> np.ndarray:
        """Per relation, whether the graph keeps its direction: few nodes are both its head and its tail (a
        film is never a language), unless both ends are of one kind (sibling, adjoins). Only those type
        nodes: a graph that stores edges either way (the demo's subgraphs run half of them backwards)
        would make countries films."""
        g = self.graph
        n_rel = max(len(g.relations), 1)
        _, head_kind, tail_kind = self._relation_kinds
        stored_back = np.array([x in self.profile.reciprocal for x in g.relations] or [False], dtype=bool)
        return one_way_relations(g, self.cfg.one_way_overlap) \
            | ((head_kind[:n_rel] == tail_kind[:n_rel]) & (head_kind[:n_rel] >= 0)) \
            | stored_back[:n_rel]

    @cached_property
    def _passive(self) -> np.ndarray:
        """Per relation, whether its name ends in "by" ("influenced_by", "followed by": a passive) and the graph
        keeps directions (the schema profile)."""
        passive = self._directed and self.rules.on(PASSIVE_DIRECTION)
        return np.array([passive and re.split(r"[/._\s]+", name.lower().strip())[-1] == "by"
                         for name in self.graph.relations] or [False], dtype=bool)

    @cached_property
    def _directed(self) -> bool:
        """Whether most edges lie in relations kept one way (the schema profile), so their directions can say
        what nodes are."""
        return self.profile.directed

    def _csr_of_ends(self, head_ids: np.ndarray, tail_ids: np.ndarray, width: int,
                     extra: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """CSR node -> ids: ``head_ids[r]`` for each relation r a node is the head of (``_ends``),
        ``tail_ids[r]`` for each it is the tail of (-1: none), plus ``extra`` keys (node * width + id)."""
        n_rel = max(len(self.graph.relations), 1)
        pairs = [] if extra is None else [extra]
        for keys, id_of in zip(self._ends, (head_ids, tail_ids)):
            ids = id_of[keys % n_rel]
            pairs.append(keys[ids >= 0] // n_rel * width + ids[ids >= 0])
        keys = np.unique(np.concatenate(pairs))
        ptr = np.zeros(self.graph.num_nodes + 1, dtype=np.int64)
        np.add.at(ptr, keys // width + 1, 1)
        return np.cumsum(ptr), keys % width

    @cached_property
    def _node_kinds(self) -> tuple[dict[str, list[int]], np.ndarray, np.ndarray]:
        """What kind each node is (``_relation_kinds`` at the ends it holds): singular word -> kind ids, and
        a CSR of node -> kind ids."""
        kinds, head_kind, tail_kind = self._relation_kinds
        words: dict[str, list[int]] = {}
        headed: dict[str, list[int]] = {}  # a kind the word is the head noun of ("film") stands alone: not "film subject"
        for phrase, k in kinds.items():
            noun = singular(phrase.split()[-1])
            for w in {singular(w) for w in phrase.split()}:
                words.setdefault(w, []).append(k)
                if w == noun:
                    headed.setdefault(w, []).append(k)
        by_word = {w: headed.get(w) or ks for w, ks in words.items()}
        return (by_word, *self._csr_of_ends(head_kind, tail_kind, len(head_kind) + 1))

    @cached_property
    def _node_phrases(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR node -> type-phrase ids: the model's phrases, with those of relation ends taken from the end
        each node holds most often (see ``_ends``); class labels ("actor-gb") as the model has them."""
        m = self.model
        vocab = {p: i for i, p in enumerate(m.type_vocab)}
        head_ids, tail_ids = (np.array([vocab.get(p[side], -1) for p in self._end_phrases] or [-1], dtype=np.int64)
                              for side in (0, 1))
        width = max(len(vocab), 1)
        owner = np.repeat(np.arange(self.graph.num_nodes), np.diff(m.node_type_ptr))
        of_paths = [vocab.get(p, -1) for phrases in self._path_phrases for p in phrases]
        labels = ~np.isin(m.node_type_ids, of_paths)
        return self._csr_of_ends(head_ids, tail_ids, width, owner[labels] * width + m.node_type_ids[labels])

    @cached_property
    def _kind_nouns(self) -> frozenset[str]:
        """The head nouns of the graph's kinds ("category" of "award category"): in a question they name
        what something is ("the film"), not how it is related."""
        return frozenset(singular(phrase.split()[-1]) for phrase in self._relation_kinds[0])

    def _relation_stems(self, r: int) -> frozenset[str]:
        """Stems of what relation ``r`` says: its property and head type, not its domain nor kind nouns
        (/film/film/release_date_s./film/film_regional_release_date/film_release_region: releas, date,
        region; /olympics/olympic_participating_country/athletes...: particip, olymp); a property of kind
        nouns only keeps them (/people/deceased_person/place_of_death: place, death); the whole name when it
        is no path ("born in")."""
        words = self._relation_stems_cache.get(r)
        if words is None:
            name = self.graph.relations[r].lower()
            if name.startswith("/"):
                first, *rest = name.split(".")
                name = " ".join(first.split("/")[3:] + rest)
            all_words = _name_words(name)
            words = frozenset(stem(w) for w in all_words if singular(w) not in self._kind_nouns)
            segs = self.graph.relations[r].split("/")
            if len(segs) > 3:
                domain = {singular(w) for w in _name_words(segs[1])}
                if not words:  # place_of_death
                    words = frozenset(stem(w) for w in all_words if singular(w) not in domain) or frozenset(
                        stem(w) for w in _name_words(segs[2]))  # /film/director/film: its head type
                words |= {stem(w) for w in _name_words(segs[2]) if singular(w) not in self._kind_nouns | domain}
            self._relation_stems_cache[r] = words
        return words

    def _edges_to_label(self, nodes: np.ndarray, bound: np.ndarray, labels: tuple[str, ...] = ()
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Edge ids joining ``nodes[i]`` to ``bound[i]`` or to any node of its label, and the i of each.

        A constraint is a label, and ``bound`` holds one of its nodes; a label two nodes share ("Spider-Man"
        the film and the character) must count the edges to both, or "the prequel to Spider-Man" misses
        the edge that states it. ``labels``: every label that meets the constraint when others than its own do
        (``QueryNode.labels``: Netherlands and Dutch), whose nodes' edges all count."""
        g = self.graph
        same = g.nodes_by_label.get(g.labels[int(bound[0])], ()) if bound.size else ()
        if len(labels) > 1:
            same = sorted(int(v) for x in labels for v in g.nodes_by_label.get(x, ()))
        if len(labels) > 1 or (len(same) > 1 and (g.label_id[bound] == g.label_id[same[0]]).all()):
            k = len(same)
            lo, hi = g.edge_slots(np.repeat(nodes, k), np.tile(np.asarray(same, dtype=np.int64), nodes.size))
            slots, pair = expand_ranges(lo, hi)
            return g.slot_edges(slots), pair // k
        lo, hi = g.edge_slots(nodes, bound)
        slots, owner = expand_ranges(lo, hi)
        return g.slot_edges(slots), owner

    def _name_says_type(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per candidate on a document graph, 1 when its name's singular head noun is the answer type's ("Which
        *university*": *University* of Michigan; "Which *lighthouse*": Five Mile Point *Lighthouse*), part of the
        ``type`` feature (rule ``name_says_type``): a document states few classes, a name often says its own."""
        words = tokens(qg.answer_type or "")
        if not words or not self._read or not self.rules.on(NAME_SAYS_TYPE):
            return np.zeros(nodes.size, dtype=np.float64)
        asked, labels = singular(words[-1]), self.graph.labels
        return np.fromiter((asked in self._name_heads_of(labels[v]) for v in nodes.tolist()), dtype=np.float64,
                           count=nodes.size)

    def _name_heads_of(self, label: str) -> frozenset[str]:
        """The name's head noun (``name_head``) lowercased, if singular: a plural head names a company, not one of
        the things ("Hungry Kid *Records*" is no record)."""
        heads = self._name_heads.get(label)
        if heads is None:
            head = (name_head(label)[0] or "").lower()
            heads = self._name_heads[label] = frozenset({head} if head.isalpha() and singular(head) == head else ())
        return heads

    def _date_fit(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per candidate, 1 when it is a date as precise as the question asks ("On what *date*": "4 November 2013",
        not "2014"; "In which *year*": "2013"), part of the ``type`` feature."""
        asked = asked_precision(qg.question, qg.answer_type)
        if asked is None:
            return np.zeros(nodes.size, dtype=np.float64)
        labels = self.graph.labels
        return np.fromiter((value_precision(labels[v]) == asked for v in nodes.tolist()), dtype=np.float64,
                           count=nodes.size)

    def _same_document(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per candidate, the largest share of the firm conditions that one document naming it names too (the
        ``document`` feature; met by an edge or not); 0 on a graph not read from documents."""
        return self._named_with(qg, nodes, self.graph.documents_of)

    def _same_sentence(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per candidate, the largest share of the firm conditions that one sentence naming it names too (the
        ``sentence`` feature; met by an edge or not); 0 on a graph not read from documents."""
        return self._named_with(qg, nodes, self.graph.sentences_of)

    def _sentence_fit(self, qg: QueryGraph, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per candidate, over the sentences stating its edges (on a graph read from documents an edge's description
        is its sentence), the largest share of the question's own words (``own_words``, less the candidate's name)
        one of them holds (the ``wording`` feature), and the largest share of the question one of them says at once:
        those words and its firm conditions, each named there by a label or as the question names it (the
        ``passage`` feature); both 0 on a graph not read from documents."""
        wording, passage = np.zeros(nodes.size, dtype=np.float64), np.zeros(nodes.size, dtype=np.float64)
        if not self._read:
            return wording, passage
        g, words = self.graph, own_words(qg)
        names = [{f" {x} " for x in (*map(fold, c.labels), fold(c.mention.text) if c.mention else "") if x}
                 for c in firm_constraints(qg, self.soft_below)]
        for i, v in enumerate(nodes.tolist()):
            asked = words - self._label_words(v)
            if not asked and not names:
                continue
            for d in np.unique(g.desc[g.incident_edges(v)]).tolist():
                if d < 0:
                    continue
                said, text = self._sentence(d)
                hits = len(asked & said)
                if asked:
                    wording[i] = max(wording[i], hits / len(asked))
                named = sum(any(x in text for x in c) for c in names)
                passage[i] = max(passage[i], (hits + named) / (len(asked) + len(names)))
        return wording, passage

    def _sentence(self, d: int) -> tuple[frozenset[str], str]:
        """Text ``d``'s word stems and its folded form between spaces (a sentence many candidates share)."""
        out = self._sentence_cache.get(d)
        if out is None:
            text = self.graph.texts[d]
            out = self._sentence_cache[d] = (frozenset(stem(w) for w in tokens(text)), f" {fold(text)} ")
        return out

    def _label_words(self, v: int) -> frozenset[str]:
        return frozenset(stem(w) for w in tokens(self.graph.labels[v]))

    def _named_with(self, qg: QueryGraph, nodes: np.ndarray, places: list[frozenset[str]]) -> np.ndarray:
        """Per candidate, the largest share of the firm conditions that one of the places naming it (per node:
        ``places``, its documents or its sentences) names too."""
        out = np.zeros(nodes.size, dtype=np.float64)
        firm = len(firm_constraints(qg, self.soft_below))
        if not self._read or not firm:
            return out
        named = places_naming(self.graph, qg, self.soft_below, places)
        for i, v in enumerate(nodes.tolist()):
            out[i] = max((named.get(p, 0) for p in places[v]), default=0) / firm
        return out

    @property
    def plain_relation_names(self) -> bool:
        """Whether the graph names its relations in plain words ("place of birth"), or by ids described so
        (the schema profile): then a stated phrase can be read against them whole."""
        return self.profile.readable

    @cached_property
    def _relation_text_ids(self) -> np.ndarray:
        """Per relation, the id of its text (description, else name) in the model's text vocabulary."""
        g = self.graph
        out = np.full(max(len(g.relations), 1), -1, dtype=np.int64)
        rels, first = np.unique(g.rel, return_index=True)
        out[rels] = self.model.edge_text[first]
        return out

    @cached_property
    def _reciprocal_ids(self) -> np.ndarray:
        """Per relation, the relation the graph stores its facts in the other way round (-1: none; itself when
        symmetric), from the schema profile."""
        index = {name: r for r, name in enumerate(self.graph.relations)}
        return np.array([index.get(self.profile.reciprocal.get(name, ""), -1) for name in self.graph.relations] or [-1],
                        dtype=np.int64)

    def _fit(self, vec: np.ndarray, words: set[str], texts: np.ndarray, rels: np.ndarray | None = None,
             where: frozenset[str] = frozenset()) -> np.ndarray:
        """How well a phrase (embedding ``vec``, stems ``words``) fits each relation text id of ``texts`` (-1: 0):
        half the embedding cosine, half whether they share a word. ``rels`` (relation ids aligned with ``texts``):
        the shared word is looked for in the relation's name instead; on a graph read from documents the text
        is a sentence that happened to state the first such edge, whose every word would count. ``where``: the
        phrase's locative prepositions, shared words only with a relation that says nothing but where ("in",
        "located in") or a person's post there ("trader at")."""
        out = np.zeros(texts.size, dtype=np.float64)
        ok = texts >= 0
        if not ok.any():
            return out
        tids = texts[ok]
        sem = np.maximum(0.0, (self.model.text_vecs[tids] @ vec).astype(np.float64))
        said = [self.model.text_vocab[t] for t in tids.tolist()] if rels is None else \
            [self.graph.relations[r] for r in rels[ok].tolist()]
        lex = np.array([bool(words & _stems(x)) or bool(where) and _preposition_alone_fits(x, where) for x in said],
                       dtype=float)
        out[ok] = 0.5 * sem + 0.5 * lex
        return out

    @property
    def _read(self) -> bool:
        """Whether edges were read from documents: relation names are the parse's words ("flows into") and an
        edge's text is the sentence that first stated it."""
        return bool(self.graph.edge_sources)

    @property
    def partial_by_evidence(self) -> bool:
        """Whether partial matches are ranked by their evidence, conditions met among it (``partial_by_evidence``)."""
        return self._read and self.rules.on(PARTIAL_BY_EVIDENCE)

    @property
    def partial_tiers(self) -> int | None:
        """How many coverage tiers of partial candidates reach ranking: all where their evidence ranks them (None),
        else the two best."""
        return None if self.partial_by_evidence else 2

    def _name_vecs(self, rels: np.ndarray) -> np.ndarray:
        """The embeddings of relation names (kept in memory by the query embedder's cache)."""
        return self.embed([self.graph.relations[r] for r in rels.tolist()]).reshape(rels.size, -1)

    def converse_texts(self, r: int) -> tuple[str, ...]:
        """What relation ``r`` says read from its tail's side, where English has a converse for it (rule
        ``converse_relations``; none otherwise, or when relation names are not plain words): a relation naming the
        head's kin ("son of", "eldest daughter of", "wife of", "married to") as each converse word of the lexicon's
        ``converse_words`` ("father of", "mother of", "parent of"); a "<work noun> by" relation ("song by", "debut
        album by") as each of the lexicon's ``maker_verbs`` with the noun ("created song", "wrote song")."""
        out = self._converse_cache.get(r)
        if out is None:
            out = ()
            words = tokens(self.graph.relations[r])
            if self.plain_relation_names and self.rules.on(CONVERSE_RELATIONS) and len(words) >= 2:
                *_, role, last = words
                if last in ("of", "to") and role in self._converse_words:
                    out = tuple(f"{w} {last}" for w in self._converse_words[role])
                elif last == "by" and self._coarse_words.get(singular(role)) == WORK:
                    out = tuple(f"{v} {role}" for v in self._maker_verbs)
            self._converse_cache[r] = out
        return out

    def _converse_fit(self, phrase: str, vec: np.ndarray, rels: np.ndarray, lex) -> tuple[np.ndarray, np.ndarray]:
        """(whether relation ``rels[i]`` has a converse reading, how well ``phrase`` fits the best of them: half the
        embedding cosine with ``vec``, half ``lex(text)``, the words they share). A phrase naming kin fits only the
        readings that name the same ("son of" read back is "father of", which no "son of" in the question is; the
        embeddings of kin words are too close to tell)."""
        texts = [self.converse_texts(r) for r in rels.tolist()]
        has = np.array([bool(t) for t in texts], dtype=bool)
        fit = np.zeros(rels.size, dtype=np.float64)
        flat = sorted({x for t in texts for x in t})
        if flat:
            kin = {singular(w) for w in tokens(phrase)} & set(self._converse_words)
            sem = dict(zip(flat, np.maximum(0.0, (self.embed(flat) @ vec).astype(np.float64)).tolist()))
            fit[has] = [max(0.0 if kin and x.split()[0] in self._converse_words and x.split()[0] not in kin
                            else 0.5 * sem[x] + 0.5 * lex(x) for x in t) for t in texts if t]
        return has, fit

    def fitting_relations(self, qg: QueryGraph, nodes: np.ndarray, sat: np.ndarray
                          ) -> list[tuple[int, str, np.ndarray | None]]:
        """Relation-aware matching: (constraint column, the question's phrase for it, mask of ``nodes`` joined
        to it by a relation that fits the phrase) per constraint whose stated phrase ("was born in") fits
        some reading of the edges joining the candidates to it clearly better than others. The phrase is what
        the question says before the constraint, after the answer type (words inside the answer type state no
        relation); the answer is its subject ("Which county *contains* Creswell").

        Each edge is read from the candidate's side: one it heads reads as its relation ("place of birth");
        one it is the tail of reads as the relation the graph stores the other way round, if the schema profile
        knows one ("located in" read back is "contains"), and as the answer type when the relation names the
        tail's role ("Which *publisher* issued X": X's "publisher"). A phrase of locative prepositions only
        ("Which bridge *in* Samarinda") fits relations that say them. The mask is None when no reading fits
        well enough: then any relation counts, and the caller says so; all true for a verb after the name that no
        relation states ("Where does the Douro *rise*?"): unchecked, which the caller says too. Only for graphs whose
        relation names or descriptions are plain words (the schema profile)."""
        if not self.plain_relation_names or not self.rules.on(RELATION_FIT_RULE):
            return []
        g, cfg = self.graph, self.cfg
        out = []
        near, a_end = stated_words(qg, self.rules), answer_type_span(qg.question)[2]
        wanted, inverted = [], set()
        typed = [w for w in tokens(qg.answer_type) if w not in STOPWORDS]
        last_end = max((c.mention.end for c in qg.constraints if c.mention is not None), default=0)
        role = typed if typed and is_person_noun(typed[-1]) and typed[-1] not in PERSON_WORDS else []
        for j, c in enumerate(qg.constraints):
            if c.qid in near and c.mention.start >= a_end and (sat[:, j] >= 0).all():
                said = [w for w in tokens(near[c.qid][0]) if w not in FILLER and not SUPERLATIVE.fullmatch(w)]
                content = {w for w in said if w not in STOPWORDS}  # ("the largest in": a comparison, reported apart)
                after = [w for w in tokens(near[c.qid][1]) if w not in FILLER]
                after_content = {w for w in after if w not in STOPWORDS}
                if not content and (set(said) & _AUXILIARY or not said and c.mention.start == a_end) and after_content:
                    said, content = after, after_content  # "Where did X *die*?", "What was the X *called* ...": X
                    inverted.add(j)                       # heads the relation, and the answer is its tail
                elif not content and set(said) <= _AUXILIARY and after and set(after) <= LOCATIVE:
                    said = after  # "Which city is Celtic Park *in*?", "*In* which city is Celtic Park?": X is in it
                    inverted.add(j)
                elif not content and said == ["of"] and role:
                    said, content = role + said, set(role)  # "Who is the *chief executive of* Nokia?"
                elif not content and set(said) <= {"of"} and after_content and c.mention.end >= last_end and \
                        self._read and self.rules.on(PREDICATE_AFTER):
                    said, content = after, after_content  # "Which stretch of the desert *is littered with
                    #                                       shipwrecks*?": the answer's predicate, which an edge to
                    #                                       the desert must state to prove it
                # "in 2019" says when, not where: a value's preposition alone fits any relation to it
                if content or (set(said) & LOCATIVE and not is_value_label(c.label)):
                    wanted.append((j, " ".join(said)))
        if not wanted:
            return []
        atype = " ".join(w for w in tokens(qg.answer_type) if w not in NOT_A_KIND)
        vecs = self.embed([p for _, p in wanted] + ([atype] if atype else []))
        a_words = {stem(w) for w in tokens(atype) if w not in STOPWORDS}
        text_of, back_of = self._relation_text_ids, self._reciprocal_ids
        read = bool(g.edge_sources)  # read from documents: relation names are the parse's words, texts sentences
        for (j, phrase), vec in zip(wanted, vecs):
            eids, owner = self._edges_to_label(nodes, sat[:, j], qg.constraints[j].labels)
            if not eids.size:
                continue
            said = tokens(phrase)
            content = {w for w in said if w not in STOPWORDS}
            # "stands *in*" as located *in*; the preposition of a verb that says more than where ("born in") fits
            # only a relation that says no more than where (the parse's "in") or a post ("worked at": "trader at"),
            # not another verb's ("twinned in")
            only_where = content <= LOCATED
            words = {stem(w) for w in content} | (set(said) & LOCATIVE if only_where else set())
            words |= {x for w in said for x in self._said_as.get(stem(w), ())}
            words |= {stem(ROLE_NOUNS[w]) for w in said if w in ROLE_NOUNS}  # "the founder of X": who founded X
            where = frozenset() if only_where else frozenset(said) & LOCATIVE
            rels = g.rel[eids].astype(np.int64)
            tail = (g.src[eids] != nodes[owner]) ^ (j in inverted)  # the candidate is the edge's tail: read it back
            keys, inv = np.unique(rels * 2 + tail, return_inverse=True)
            r, back = keys // 2, keys % 2 == 1
            ends_by = np.array([tokens(g.relations[x])[-1:] == ["by"] for x in r.tolist()], dtype=bool)  # "founded by"
            named = r if read else None
            forward = self._fit(vec, words, text_of[r], named, where)
            recip = back_of[r]
            via = np.where(recip >= 0, text_of[np.maximum(recip, 0)], -1)
            # no inverse stored: the phrase is read against the relation itself unless it only says where
            backward = self._fit(vec, words, via, np.maximum(recip, 0) if read else None, where) if content else \
                np.zeros(r.size)
            if content:
                direct = self._fit(vec, words, text_of[r], named, where)
                backward = np.where(recip >= 0, backward, cfg.relation_fit_backward * direct)
                if said[-1] == "by":  # "founded by X": X's own "founded" edge to the answer states it
                    backward = np.maximum(backward, direct)
                elif read:  # "Who succeeded X?": X "succeeded by" the answer states it, X's "succeeded" the opposite
                    backward = np.where(ends_by, np.maximum(backward, direct), backward)
            # "son of" read back is "father of" (the phrase's own words: the lexicon's "child" ~ "father" is Wikidata's
            # tail-role "father", the other way round)
            own = {stem(w) for w in content}
            has, converse = self._converse_fit(phrase, vec, r, lambda x: float(bool(own & _stems(x))))
            # "a song by X" says X made it, not how: read as "produced", it fits at most relation_fit_made, less than
            # a statement of it ("produced by Trent Reznor")
            converse = np.where(ends_by & has, np.minimum(converse, cfg.relation_fit_made), converse)
            backward = np.where(has, converse, backward)
            if atype:  # a relation naming the role of its tail ("publisher"), where the candidate is that tail; a noun
                #        and its preposition alone name the head's ("Rumours *album by* Fleetwood Mac": the band is no
                #        album), not a verb's designation of the tail ("Tagus *passes the city of* Toledo")
                role = self._fit(vecs[-1], a_words, text_of[r], named)
                if j in inverted:  # ("Which county was X created from?": X heads the relation, read forward)
                    forward = np.maximum(forward, role)
                else:
                    role = np.where([_noun_and_preposition(g.relations[x]) for x in r.tolist()], 0.0, role)
                    backward = np.maximum(backward, role)
            # "Who recorded X?": X "recorded at" the candidate makes it where, not who (a bare verb asks its agent or
            # object; a verb with a place's preposition holds a place or a time)
            if content and not set(said) & LOCATIVE:
                placed = np.array([(tokens(g.relations[x]) or [""])[-1] in LOCATIVE for x in r.tolist()], dtype=bool)
                backward = np.where(placed, 0.0, backward)
            fit = np.where(back, backward, forward)
            if read and is_value_label(qg.constraints[j].label) and any(MAKING.fullmatch(w) for w in content):
                # "released in 2001": a thing's own year or date ("the 2001 film", "Spawn (1997)") is when it was made
                own_year = np.array([g.relations[x] in ("year", "date") for x in r.tolist()], dtype=bool)
                fit = np.where(own_year & ~back, 1.0, fit)
            best = float(fit.max())
            if best < cfg.relation_fit_floor:
                # a verb after the name narrows only where a relation states it ("Which college did Jones attend?"
                # read "completed a diploma at"), or, the name the only condition, a less sure one does, which the
                # exact set then misses ("Which province is Chiang Mai the capital of?": "capital of" read from a
                # clause, below exact_edge_confidence; with more conditions that fact's other end may meet none)
                if j not in inverted or len(firm_constraints(qg, self.soft_below)) == 1 and \
                        self._stated_elsewhere(qg.constraints[j], vec, words, where):
                    out.append((j, phrase, None))
                else:  # unchecked, which the answer says: every member, none shown to fit
                    out.append((j, phrase, np.ones(nodes.size, dtype=bool)))
                continue
            good = (fit >= best - cfg.relation_fit_margin)[inv.reshape(-1)]
            mask = np.zeros(nodes.size, dtype=bool)
            mask[owner[good]] = True
            if not mask.all():
                out.append((j, phrase, mask))
        return out

    def _stated_elsewhere(self, c: QueryNode, vec: np.ndarray, words: set[str], where: frozenset[str]) -> bool:
        """Whether an edge the constraint's node heads, of any confidence, fits the phrase (``vec``, ``words``):
        a relation the candidates were not joined by states it."""
        g = self.graph
        heads = [int(e) for x in c.labels for v in g.nodes_by_label.get(x, ()) for e in g.incident_edges(v)
                 if g.labels[int(g.src[e])] == x]
        if not heads:
            return False
        rels = np.unique(g.rel[np.asarray(heads, dtype=np.int64)].astype(np.int64))
        fits = self._fit(vec, words, self._relation_text_ids[rels], rels, where)
        return bool((fits >= self.cfg.relation_fit_floor).any())

    def reversed_containment(self, qg: QueryGraph, nodes: np.ndarray, sat: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(constraint column, mask of ``nodes`` joined to it only the wrong way round) for each constraint the
        question puts the answer in: the words before it (after the answer type) end in "in" or "within" and say
        nothing but where ("in", "is located in", "lies within"; not "appears in"). An edge whose relation puts
        its head inside its tail ("located in", "unit in", "capital of": ``_says_inside``) and whose tail is the candidate puts the constraint in the candidate, the reverse; a candidate joined
        to the constraint more surely by such edges than by any other (a co-occurrence says no direction) does not
        meet it. Only on relations named in plain words (the schema
        profile). Columns without such a candidate are left out."""
        if not self.rules.on(CONTAINMENT_DIRECTION) or not self.plain_relation_names:
            return []  # a path name ("/continents/countries_within") may put its tail inside its head
        g, out = self.graph, []
        near, a_end = stated_words(qg, self.rules), answer_type_span(qg.question)[2]
        for j, c in enumerate(qg.constraints):
            said = tokens(near[c.qid][0]) if c.qid in near and c.mention.start >= a_end else []
            rows = np.flatnonzero(sat[:, j] >= 0)
            # "Which island is the largest *in* Lake Titicaca": a superlative says which, not where (it is reported
            # as not checked)
            relation = {w for w in said if w not in STOPWORDS and w not in FILLER and not SUPERLATIVE.fullmatch(w)}
            if not said or said[-1] not in INSIDE or not rows.size or not relation <= LOCATED:
                continue
            eids, owner = self._edges_to_label(nodes[rows], sat[rows, j], c.labels)
            if not eids.size:
                continue
            says_in = np.array([_says_inside(g.relations[r]) for r in g.rel[eids].tolist()], dtype=bool)
            reversed_ = says_in & (g.dst[eids] == nodes[rows[owner]]) & (g.src[eids] != nodes[rows[owner]])
            sure = np.array([edge_confidence(g.edge_sources.get(e, ())) for e in eids.tolist()])
            wrong, other = np.zeros(rows.size), np.zeros(rows.size)
            np.maximum.at(wrong, owner[reversed_], sure[reversed_])
            np.maximum.at(other, owner[~reversed_], sure[~reversed_])
            mask = np.zeros(nodes.size, dtype=bool)
            mask[rows[wrong > other]] = True
            if mask.any():
                out.append((j, mask))
        return out

    def stated_relations(self, qg: QueryGraph, nodes: np.ndarray, sat: np.ndarray) -> list[tuple[int, str, np.ndarray]]:
        """(constraint column, question word, mask of ``nodes`` joined to that constraint by a relation the
        word names), for each word next to a constraint ("released in Canada") that names the relation of
        some nodes' edges to it but not of all: the question states that relation, not just any link.

        ``sat[i, j]``: the node of constraint j for ``nodes[i]`` (joined to it or not); columns with a -1
        are skipped.
        """
        g = self.graph
        out = []
        if not self.rules.on(STATED_RELATION):
            return out
        near = stated_words(qg, self.rules)
        for j, c in enumerate(qg.constraints):
            if (sat[:, j] < 0).any() or c.qid not in near:
                continue
            before, after = ([w for w in tokens(text) if len(w) > 3 and w not in STOPWORDS
                              and singular(w) not in self._kind_nouns] for text in near[c.qid])
            words = before[-self.cfg.stated_words:] + after
            if not words:
                continue
            said_before = tokens(near[c.qid][0])
            passive = {w for i, w in enumerate(said_before) if "by" in said_before[i + 1:]}  # "executive produced by"
            eids, owner = self._edges_to_label(nodes, sat[:, j], c.labels)
            rels, inv = np.unique(g.rel[eids], return_inverse=True)
            inv = inv.reshape(-1)
            stems = [self._relation_stems(r) for r in rels.tolist()]
            # "influenced by X": the answer heads X's influenced_by edge; X heading one to the answer says the
            # reverse (in a graph that keeps directions: the demo's subgraphs store half their edges backwards)
            wrong_way = self._passive[rels][inv] & (g.src[eids] != nodes[owner])
            for w in dict.fromkeys(words):
                said = {stem(w)} | self._said_as.get(stem(w), frozenset())
                named = np.array([bool(said & s) for s in stems], dtype=bool)[inv]
                if w in passive:
                    named &= ~wrong_way
                mask = np.zeros(nodes.size, dtype=bool)
                mask[owner[named]] = True
                if mask.any() and not mask.all():
                    out.append((j, w, mask))
        return out

    @cached_property
    def _phrase_share(self) -> np.ndarray:
        """Per type phrase, the share of the graph's nodes holding it."""
        held = np.bincount(self._node_phrases[1], minlength=len(self.model.type_vocab))
        return held / max(self.graph.num_nodes, 1)

    def kinds_of(self, v: int) -> list[str]:
        """The kinds node ``v`` is (``_node_kinds``: "film", "country"), for people to read: only kinds some
        relation points at (a namespace such as /user/ktrueman/... heads paths but names no kind); none when the
        graph does not keep edge directions (the demo's half-reversed edges would make a country an artist)."""
        if not self._directed:
            return []
        _, ptr, ids = self._node_kinds
        kinds, _, tail = self._relation_kinds
        named = {int(k) for k in tail if k >= 0}
        names = {k: phrase for phrase, k in kinds.items() if k in named}
        return sorted({names[int(k)] for k in ids[ptr[v]:ptr[v + 1]] if int(k) in names})

    def can_check_kind(self, answer_type: str) -> bool:
        """Whether ``of_answer_kind`` can check the kind the answer type names: the graph keeps directions and
        has a kind its head word names (True when the answer type names no kind: "Who", "Which person")."""
        words = [singular(w) for w in tokens(answer_type)]
        said = words[-1] if words and words[-1] not in NOT_A_KIND else ""
        if not said or not self.rules.on(ANSWER_KIND):
            return True
        return self._directed and self._kind_words.get(said, said) in self._node_kinds[0]

    def of_answer_kind(self, answer_type: str, nodes: np.ndarray) -> np.ndarray | None:
        """Which of ``nodes`` are of the kind the answer type names ("Which *award*"); None when the graph cannot tell.

        A graph without class nodes still types its nodes through its relation paths (the head of
        /film/film/country is a film, its tail a country; ``_relation_kinds``): a node of a kind whose
        phrase holds the answer type's head word is of that kind, and so is one holding a type phrase
        nearly all of those share (a person the graph never calls a celebrity is still a person). So
        "Which award did these films win" keeps the awards and drops the countries the films also link to.
        """
        if not self._directed or not self.rules.on(ANSWER_KIND):
            return None
        words = [singular(w) for w in tokens(answer_type)]
        by_word, kind_ptr, kind_ids = self._node_kinds
        said = words[-1] if words and words[-1] not in NOT_A_KIND else ""
        kinds = by_word.get(self._kind_words.get(said, said)) if said else None
        if kinds is None or nodes.size < 2:
            return None
        pos, owner = expand_ranges(kind_ptr[nodes], kind_ptr[nodes + 1])
        holds = np.zeros(nodes.size, dtype=bool)
        holds[owner[np.isin(kind_ids[pos], kinds)]] = True
        if not holds.any() or holds.all():
            return None
        phrase_ptr, phrase_ids = self._node_phrases
        pos, owner = expand_ranges(phrase_ptr[nodes], phrase_ptr[nodes + 1])
        ids = phrase_ids[pos]
        held_by = np.bincount(ids[holds[owner]], minlength=len(self.model.type_vocab))
        core = np.flatnonzero((held_by >= self.cfg.kind_core_share * holds.sum())
                              & (self._phrase_share < self.cfg.kind_generic_share))
        same = np.zeros(nodes.size, dtype=bool)
        same[owner[np.isin(ids, core)]] = True
        kind = holds | same
        return None if kind.all() else kind

    @cached_property
    def node_kinds(self) -> NodeKinds:
        """Each node's coarse kind and the kinds the graph's class nouns learned (``sgrag.kinds``; none on a graph
        not read from documents)."""
        return NodeKinds.of_graph(self.graph, min_members=self.cfg.kind_class_min_members,
                                  share=self.cfg.kind_class_share)

    def asked_kind(self, qg: QueryGraph) -> str | None:
        """The coarse kind the question's answer type asks for on a graph read from documents (None elsewhere or
        unsure); "person" asks for one only when the question writes it ("Which *person*", not "Who"); a "Where"
        question with no answer type asks for a place."""
        if not self._read:
            return None
        if not qg.answer_type:
            return PLACE if re.match(r"\s*where\b", qg.question, re.I) else None
        return self.node_kinds.asked_kind(qg.answer_type, self._coarse_words, qg.question)

    def asks_who(self, qg: QueryGraph) -> bool:
        """Whether a question on a document graph asks "Who" with no kind of its own (rule ``who_not_a_thing``):
        then a place, a work, an event, a product or a law is no answer, while a person, a band or a publisher
        may be."""
        return self._read and self.rules.on(WHO_NOT_A_THING) and self.asked_kind(qg) is None \
            and re.match(r"\s*(?:who|whom)\b", qg.question, re.I) is not None

    def kind_fit(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per node: 1 of the coarse kind the answer type asks for, 0 of another, 0.5 of none known; for "Who" with no
        kind of its own (``asks_who``) 1 for a person, 0.5 for an organisation or a group (a band, a publisher) or
        none known, 0 for the rest; 0 for every node when it asks for none (the ``kind`` feature)."""
        asked = self.asked_kind(qg) if self.rules.on(FEATURE_RULES["kind"]) else None
        kind = self.node_kinds.kind[nodes]
        if asked is None and nodes.size and self.rules.on(FEATURE_RULES["kind"]) and self.asks_who(qg):
            maybe = (kind < 0) | np.isin(kind, [COARSE_KINDS.index(ORGANIZATION), COARSE_KINDS.index(GROUP)])
            return np.where(kind == COARSE_KINDS.index(PERSON), 1.0, np.where(maybe, 0.5, 0.0))
        if asked is None or not nodes.size:
            return np.zeros(nodes.size, dtype=np.float64)
        return np.where(kind < 0, 0.5, (kind == COARSE_KINDS.index(asked)).astype(np.float64))

    def within_first(self, qg: QueryGraph, ranked: list[RankedAnswer]) -> tuple[list[RankedAnswer], dict[str, str]]:
        """The exact set ``ranked`` with a member the graph locates inside another member just before it, when the
        question asks where (``WITHIN_FIRST``; "Which *county* is X in?": a municipality inside the county is no
        county), and the first member's label -> the member it lies in. Only the first ``WITHIN_SHOWN`` are read."""
        if len(ranked) < 2 or not self.rules.on(WITHIN_FIRST) or not self.plain_relation_names or \
                not qg.question.lstrip().lower().startswith("where"):
            return ranked, {}
        g, head = self.graph, ranked[:WITHIN_SHOWN]
        ids = {r.node_id for r in head}
        inside: dict[str, set[str]] = {}
        for r in head:
            v = g.index_of[r.node_id]
            for e in g.incident_edges(v).tolist():
                s, d = int(g.src[e]), int(g.dst[e])
                if s == v and g.node_ids[d] in ids and d != v and _puts_inside(g.relations[int(g.rel[e])]):
                    inside.setdefault(r.node_id, set()).add(g.node_ids[d])
        if not inside:
            return ranked, {}
        head, within = _within_first(head, inside)
        return head + ranked[WITHIN_SHOWN:], within

    def wrong_kind(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per node: clearly of another coarse kind than the answer type asks for (``COARSE_KIND``). Person against
        the rest is what is sure: for "Which singer" a node NER and its name type an organisation, place, work,
        event, product or law; for any other kind, a node the text shows to be a person (not NER alone), or of
        another kind by the classes the text states ("a political party" for "Which city"); for a place, event, work,
        product or law, a nationality or group ("European" for "In which city": no organisation, which may bear a
        people's name, "the Democrats")."""
        asked = self.asked_kind(qg) if self.rules.on(COARSE_KIND) else None
        nk = self.node_kinds
        if asked is None and nodes.size and self.rules.on(COARSE_KIND) and self.asks_who(qg):
            return np.isin(nk.kind[nodes], [COARSE_KINDS.index(k) for k in NOT_WHO]) | nk.nation[nodes]
        if asked is None or not nodes.size:
            return np.zeros(nodes.size, dtype=bool)
        if asked == PERSON:
            return (nk.kind[nodes] >= 0) & (nk.kind[nodes] != COARSE_KINDS.index(PERSON))
        noun = (tokens(qg.answer_type) or [""])[-1]  # (a "Where" question asks for a place by no noun)
        people = (nk.kind[nodes] == COARSE_KINDS.index(GROUP)) & (asked in NOT_WHO)
        return nk.sure_person[nodes] | nk.stated_other_kind(nodes, asked, noun) | people

    def countries_not_asked(self, qg: QueryGraph, nodes: np.ndarray) -> np.ndarray:
        """Per node: a country (by name), where the answer type is a place no country is (rule ``no_country``:
        "Which *lake* does the Rhine flow through?": not Germany)."""
        words = tokens(qg.answer_type or "")
        if not nodes.size or not words or singular(words[-1]) not in NO_COUNTRY or not self.rules.on(NO_COUNTRY_RULE) \
                or self.asked_kind(qg) != PLACE:
            return np.zeros(nodes.size, dtype=bool)
        labels = self.graph.labels
        return np.fromiter((country_named(labels[v]) is not None for v in nodes.tolist()), dtype=bool, count=nodes.size)

    def surely_not_person(self, nodes: np.ndarray) -> np.ndarray:
        """Per node: a class the text states of it names another kind than a person ("his second *album*"), or its
        name does ("the *Treaty* of Nerchinsk", "England", "Dutch")."""
        nk = self.node_kinds
        if not self.rules.on(COARSE_KIND):
            return np.zeros(nodes.size, dtype=bool)
        return nk.sure_not_person[nodes].copy()

    def _text_words(self, t: int) -> set[str]:
        words = self._words_cache.get(t)
        if words is None:
            words = self._words_cache[t] = {stem(w) for w in tokens(self.model.text_vocab[t])}
        return words

    def _relation_words(self, r: int) -> frozenset[str]:
        words = self._relation_words_cache.get(r)
        if words is None:
            words = self._relation_words_cache[r] = frozenset(stem(w) for w in _name_words(self.graph.relations[r]))
        return words

    def _type_scores(self, type_vec: np.ndarray | None, type_words: set[str], nodes: np.ndarray) -> np.ndarray:
        """Per node, best of: embedding similarity to one of its type phrases, share of type words its types hold."""
        m = self.model
        out = np.zeros(nodes.size, dtype=np.float64)
        if type_vec is None or not nodes.size:
            return out
        pos, owner = expand_ranges(m.node_type_ptr[nodes], m.node_type_ptr[nodes + 1])
        if not pos.size:
            return out
        ids = m.node_type_ids[pos]
        uniq, inv = np.unique(ids, return_inverse=True)
        rows, best = _segment_max((m.type_vecs[uniq] @ type_vec)[inv.reshape(-1)].astype(np.float64), owner)
        if type_words:
            held = np.zeros(nodes.size, dtype=np.int64)
            for w in type_words:
                phrases = self._type_phrases_with.get(w)
                if phrases is not None:
                    held[np.unique(owner[np.isin(ids, phrases)])] += 1
            best = np.maximum(best, held[rows] / len(type_words))
        out[rows] = np.maximum(0.0, best)
        return out

    def _columns(self, qg: QueryGraph, nodes: np.ndarray, sat: np.ndarray, flat: bool = False) -> dict[str, np.ndarray]:
        """The features of candidates ``nodes``; ``sat[i, j]``: node bound to constraint j (-1: none). ``flat``: the
        partial matches of a graph read from documents, whose coverage counts the firm constraints only (a class
        word that gave way counts in "soft", not twice)."""
        g, m = self.graph, self.model
        cons = qg.constraints
        n = nodes.size
        has = sat >= 0
        total_conf = sum(c.confidence for c in cons) or 1.0
        soft_cols = [j for j, c in enumerate(cons) if c.confidence < self.soft_below]
        phrases = dict(zip((c.qid for c in cons), qg.relation_phrases))
        texts = [qg.answer_type] + [phrases.get(c.qid, "") for c in cons]
        vecs = self.embed([t or "-" for t in texts])
        type_vec = vecs[0] if qg.answer_type else None
        type_words = {singular(w) for w in tokens(qg.answer_type)} - {"entity", "one", "individual", "notable"}
        question_words = sorted({stem(w) for w in tokens(qg.question) if len(w) > 2 and w not in STOPWORDS})
        coverage, log_mult, rel_sum = (np.zeros(n, dtype=np.float64) for _ in range(3))
        rel_n = np.zeros(n, dtype=np.int64)
        words_hit = np.zeros((n, len(question_words)), dtype=bool)
        for j, c in enumerate(cons):
            coverage = coverage + np.where(has[:, j], c.confidence, 0.0)
            rows = np.flatnonzero(has[:, j])
            eids, owner = self._edges_to_label(nodes[rows], sat[rows, j], c.labels)
            if not eids.size:
                continue
            heads = g.src[eids] == nodes[rows[owner]]
            drawn = np.bincount(owner, weights=np.where(heads, 1.0, self._in_edge_weight), minlength=rows.size)
            joined = np.flatnonzero(drawn > 0)  # a pair without an edge adds nothing, as if skipped
            log_mult[rows[joined]] += [math.log(x) for x in drawn[joined].tolist()]
            if question_words:  # question words in the relation paths joining the pair
                rels, rinv = np.unique(g.rel[eids], return_inverse=True)
                hits = np.array([[w in self._relation_words(r) for w in question_words] for r in rels.tolist()])
                for w in np.flatnonzero(hits.any(axis=0)):
                    words_hit[rows[np.unique(owner[hits[rinv.reshape(-1), w]])], w] = True
            phrase = phrases.get(c.qid)
            if phrase:  # the constraint's phrase vs the relation texts of its edges (best edge)
                words = {stem(w) for w in tokens(phrase) if len(w) > 2 and w not in STOPWORDS}
                if self._read:  # an edge's text is its sentence: read the relation's name instead
                    tids, tinv = np.unique(g.rel[eids], return_inverse=True)
                    sem = (self._name_vecs(tids) @ vecs[j + 1]).astype(np.float64)
                    said = [self._relation_words(r) for r in tids.tolist()]
                else:
                    tids, tinv = np.unique(m.edge_text[eids], return_inverse=True)
                    sem = (m.text_vecs[tids] @ vecs[j + 1]).astype(np.float64)
                    said = [self._text_words(t) for t in tids.tolist()]
                also = words | {x for w in words for x in self._said_as.get(w, ())}  # "married": "wife"
                lex = np.array([min(1.0, len(also & w) / len(words)) if words else 0.0 for w in said])
                fit = (0.5 * np.maximum(0.0, sem) + 0.5 * lex)[tinv.reshape(-1)]
                back = np.flatnonzero(~heads)  # an edge the candidate is the tail of, read from its side
                if back.size and self.plain_relation_names:
                    rels, rinv = np.unique(g.rel[eids[back]], return_inverse=True)
                    said_back, converse = self._converse_fit(phrase, vecs[j + 1], rels, lambda x: len(
                        words & {singular(w) for w in tokens(x)}) / len(words) if words else 0.0)
                    rinv = rinv.reshape(-1)
                    fit[back] = np.where(said_back[rinv], converse[rinv], fit[back])
                pairs, best = _segment_max(fit, owner)
                rel_sum[rows[pairs]] += best
                rel_n[rows[pairs]] += 1
        lmax = self._log_max_deg
        k = np.maximum(has.sum(axis=1), 1)
        # Specificity: if the question's constraints were drawn from the answer's facts, they are
        # likelier to come from a small star than from a hub's (P(q|x) ~ 1/C(star, k)).
        prior = 1.0 - self._log_deg[nodes] / lmax if lmax else np.zeros(n)
        likelihood = 1.0 + (log_mult - k * self._log_star[nodes]) / (k * max(lmax, self.likelihood_min_scale))
        if flat and len(soft_cols) < len(cons):  # the soft constraints count in "soft" only
            firm = [j for j in range(len(cons)) if j not in soft_cols]
            coverage = sum(np.where(has[:, j], cons[j].confidence, 0.0) for j in firm)
            total_conf = sum(cons[j].confidence for j in firm)
        return {"coverage": coverage / total_conf,
                "soft": has[:, soft_cols].sum(axis=1) / len(soft_cols) if soft_cols else np.ones(n),
                "type": np.maximum.reduce([self._type_scores(type_vec, type_words, nodes), self._date_fit(qg, nodes),
                                           self._name_says_type(qg, nodes)]),
                "relation": np.divide(rel_sum, rel_n, out=np.zeros(n), where=rel_n > 0),
                "relation_words": np.minimum(words_hit.sum(axis=1), 10) / 10,
                "prior": prior,
                "likelihood": np.clip(likelihood, 0.0, 1.0),
                "kind": self.kind_fit(qg, nodes),
                "document": self._same_document(qg, nodes), "sentence": self._same_sentence(qg, nodes),
                **dict(zip(("wording", "passage"), self._sentence_fit(qg, nodes)))}

    def features(self, qg: QueryGraph, candidates: dict[int, dict[str, int]]) -> dict[int, dict[str, float]]:
        """Per candidate: the features ``rank`` weighs (all in [0, 1]).

        coverage: linking confidence of the constraints satisfied; soft: share of the weakly
        linked (soft) constraints satisfied, 1 when there are none; type: answer type vs the
        candidate's types; relation: each constraint's phrase vs the relation text of its edge;
        relation_words: share of the question's words the satisfying relations contain ("medals
        won", "influenced by"); prior: specificity; likelihood: how probable it is to draw these
        constraints from the candidate's star (edges to a constraint / star size, per constraint; in a
        directed graph, edges and neighbours the candidate is only the tail of count ``cfg.in_edge_weight``).
        On a graph read from documents also kind, document, sentence, wording and passage (``FEATURE_RULES``).
        """
        nodes, sat = candidate_arrays(qg, candidates)
        cols = {name: col.tolist() for name, col in self._columns(qg, nodes, sat).items()}
        return {v: {name: cols[name][i] for name in FEATURES} for i, v in enumerate(nodes.tolist())}

    def rank(self, qg: QueryGraph, candidates: dict[int, dict[str, int]], limit: int,
             partial: bool = False) -> list[RankedAnswer]:
        """``candidates``: UNK node -> {constraint qid: bound graph node}; ``partial``: none meets every condition.

        Candidates satisfying more of the firmly linked (hard) constraints always come first,
        so a partial match never loses to one satisfying fewer; the weighted evidence orders
        the rest. Returns the whole top tier (every candidate with the best firm coverage, the
        exact set), then lower tiers up to ``limit`` answers in all; only those are scored.
        Partial matches on a graph read from documents are one tier (``partial_by_evidence``): the
        best ``limit`` by their weighted evidence, conditions met among it.
        """
        if not candidates:
            return []
        g = self.graph
        cons = qg.constraints
        nodes, sat = candidate_arrays(qg, candidates)
        tier = np.zeros(nodes.size, dtype=np.float64)
        flat = partial and self.partial_by_evidence
        for j, c in enumerate(cons):
            if c.confidence >= self.soft_below and not flat:
                tier = tier + np.where(sat[:, j] >= 0, c.confidence, 0.0)
        tier = np.array(_rounded(tier, 6))
        levels = np.unique(tier)[::-1]
        take = tier == levels[0]
        top = count = int(take.sum()) if not flat else min(nodes.size, limit)
        for level in levels[1:]:
            if count >= limit:
                break
            more = tier == level
            take |= more
            count += int(more.sum())
        idx = np.flatnonzero(take)
        nodes, sat, tier = nodes[idx], sat[idx], tier[idx]
        cols = self._columns(qg, nodes, sat, flat)
        score = np.zeros(nodes.size, dtype=np.float64)
        for name in FEATURES:
            score = score + self.weights[name] * cols[name]
        labels = [g.labels[v] for v in nodes.tolist()]
        if flat:  # a partial match clearly of another kind than asked comes after those of the right kind, as
            # does one no fact joins to a condition (``same_document``) unless its document names more conditions
            # than any joined candidate's, or as many and its name says the type asked where no joined name does
            # (``name_says_type``): then the two weigh their evidence together
            joined = (sat >= 0).any(axis=1)
            best = cols["document"][joined].max() if joined.any() else 0.0
            named = self._name_says_type(qg, nodes) > 0  # "Which lighthouse": Five Mile Point Lighthouse
            unjoined = ~joined & (cols["document"] <= best) & ~(named & (cols["document"] >= best) &
                                                                 ~(joined & named).any())
            # NER alone often mistypes a person ("Edsilia Rombley" an organisation): that weighs as the kind
            # feature; only the text's class or the name itself sets apart
            wrong = self.surely_not_person(nodes) if self.asked_kind(qg) == PERSON else self.wrong_kind(qg, nodes)
            wrong = wrong | self.countries_not_asked(qg, nodes)
            tier = tier - wrong - unjoined
        order = np.lexsort((np.array(labels), -score, -tier))[:max(top, limit)]
        if flat and self.rules.on(CUT_NAMES_YIELD):
            firm = np.array([c.confidence >= self.soft_below for c in cons], dtype=bool)
            score = _cut_names_yield(order, labels, (sat >= 0) & firm, score)
            order = np.lexsort((np.array(labels), -score, -tier))[:max(top, limit)]
        if flat and order.size and wrong[order[0]] and not wrong[order].all():  # one clearly of another kind is
            first = int(np.flatnonzero(~wrong[order])[0])  # no answer: the best of the asked kind comes before it,
            order = np.concatenate([order[first:first + 1], order[:first], order[first + 1:]])  # the rest stay
        shown = zip(*(_rounded(cols[name][order], 4) for name in FEATURES))
        missing: dict[tuple[str, ...], tuple[str, ...]] = {}
        out = []
        for r, v, score_r, feats in zip(order.tolist(), nodes[order].tolist(), _rounded(score[order], 6), shown):
            have = tuple(candidates[v])
            if have not in missing:
                missing[have] = tuple(c.qid for c in cons if c.qid not in have)
            out.append(RankedAnswer(g.node_ids[v], labels[r], score_r, have, missing[have], dict(zip(FEATURES, feats))))
        return out



def firm_constraints(qg: QueryGraph, soft_below: float) -> list[QueryNode]:
    """The conditions linked firmly: a class word ("person", soft) is named by every document."""
    return [c for c in qg.constraints if c.confidence >= soft_below]


def documents_naming(graph: KnowledgeGraph, qg: QueryGraph, soft_below: float) -> dict[str, int]:
    """Document id -> how many of the question's firm conditions it names (any label meeting each)."""
    return places_naming(graph, qg, soft_below, graph.documents_of)


def own_words(qg: QueryGraph) -> frozenset[str]:
    """The stems of what a question says besides the names of its conditions ("In which *city* did Fredrik Idestam
    *set up* a *pulp mill* in 1865?"): its relations and its answer type, as a sentence would word them."""
    text = list(qg.question)
    for m in qg.condition_mentions:
        text[m.start:m.end] = " " * (m.end - m.start)
    return frozenset(stem(w) for w in tokens("".join(text)) if len(w) > 2 and w not in STOPWORDS)


def places_naming(graph: KnowledgeGraph, qg: QueryGraph, soft_below: float,
                  places: list[frozenset[str]]) -> dict[str, int]:
    """Place (per node: ``places``, its documents or its sentences) -> how many of the question's firm conditions
    it names (any label meeting each)."""
    by_label = graph.nodes_by_label
    out: dict[str, int] = {}
    for c in firm_constraints(qg, soft_below):
        for p in frozenset().union(*(places[v] for x in c.labels for v in by_label.get(x, ()))):
            out[p] = out.get(p, 0) + 1
    return out


def _within_first(ranked: list, inside: dict[str, set[str]]) -> tuple[list, dict[str, str]]:
    """``ranked`` with each member moved just before the first earlier member it lies in (``inside``: node id -> the
    node ids it lies in); and first member's label -> the member it lies in, for the tie-break."""
    out = list(ranked)
    for r in ranked:
        at = out.index(r)
        before = [k for k, x in enumerate(out[:at]) if x.node_id in inside.get(r.node_id, ())]
        if before:
            out.insert(before[0], out.pop(at))
    first = out[0] if out else None
    container = next((x.label for x in out[1:] if first is not None and x.node_id in inside.get(first.node_id, ())),
                     None)
    return out, ({first.label: container} if container else {})


@lru_cache(maxsize=4096)
def _puts_inside(relation: str) -> bool:
    """Whether a relation named in plain words says where its head lies: "located in", "situated in", "lies within"
    ("located in the administrative territorial entity"), or a place noun's "in" ("town in", "village in"); not "won
    in" or "performed in"."""
    words = tokens(relation)
    return bool(words) and (words[0] in LOCATED and bool(set(words) & INSIDE) or
                            len(words) == 2 and words[1] in INSIDE and noun_kind(words[0]) == PLACE)


@lru_cache(maxsize=4096)
def _says_inside(relation: str) -> bool:
    """Whether a relation named in plain words puts its head inside its tail: it says "in" ("located in", "unit
    in") or is a place noun's "of" ("capital of", "province of": the shipped lexicon's place nouns)."""
    words = tokens(relation)
    return bool(set(words) & INSIDE) or (len(words) >= 2 and words[-1] == "of" and noun_kind(words[-2]) == PLACE)


def _cut_names_yield(order: np.ndarray, labels: list[str], met: np.ndarray, score: np.ndarray) -> np.ndarray:
    """``score`` with each ranked candidate (``order``) whose name's words run inside a longer ranked name, and whose
    conditions met (``met`` rows) are a strict subset of that one's, put just below it."""
    words = {i: tuple(tokens(labels[i])) for i in order.tolist()}
    out = score.copy()
    for i in order.tolist():
        short = words[i]
        for j in order.tolist():
            long = words[j]
            if len(long) > len(short) > 0 and out[i] >= out[j] and bool((met[j] >= met[i]).all()) \
                    and bool((met[j] > met[i]).any()) \
                    and any(long[k:k + len(short)] == short for k in range(len(long) - len(short) + 1)):
                out[i] = np.nextafter(out[j], -np.inf)
    return out


def _log1p_each(values: np.ndarray) -> np.ndarray:
    """log1p per value, by ``math.log1p`` over the distinct values (numpy's may differ in the last bit from the
    one-at-a-time definition the tests hold the features to)."""
    uniq, inv = np.unique(values, return_inverse=True)
    return np.array([math.log1p(float(x)) for x in uniq.tolist()], dtype=np.float64)[inv.reshape(-1)]


def _name_words(name: str) -> list[str]:
    """The words of a relation name or path ("/film/film/release_date_s" -> film, film, release, date), lowercase,
    longer than two letters."""
    return [w for w in re.split(r"[/._\s]+", name.lower()) if len(w) > 2]


def _lookup(keys: np.ndarray, values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """values[i] where keys[i] == wanted (keys sorted), 0 where absent."""
    if not keys.size:
        return np.zeros(wanted.size, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
    return np.where(keys[at] == wanted, values[at], 0)


def _ends_of(src: np.ndarray, dst: np.ndarray, rel: np.ndarray, n_relations: int) -> tuple[np.ndarray, np.ndarray]:
    """(node * R + relation) keys where the node is the relation's head, and where it is its tail: the end it
    holds most often, a tie counting as the head."""
    n_rel = max(n_relations, 1)
    out_keys, out_n = np.unique(src.astype(np.int64) * n_rel + rel, return_counts=True)
    in_keys, in_n = np.unique(dst.astype(np.int64) * n_rel + rel, return_counts=True)
    return out_keys[out_n >= _lookup(in_keys, in_n, out_keys)], in_keys[in_n > _lookup(out_keys, out_n, in_keys)]


def candidate_arrays(qg: QueryGraph, candidates: dict[int, dict[str, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate nodes and, per constraint (column), the node each is bound to (-1: not satisfied)."""
    nodes = np.fromiter(candidates, dtype=np.int64, count=len(candidates))
    sats = list(candidates.values())
    sat = np.empty((nodes.size, len(qg.constraints)), dtype=np.int64)
    for j, c in enumerate(qg.constraints):
        sat[:, j] = [s.get(c.qid, -1) for s in sats]
    return nodes, sat


def _segment_max(values: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Max of ``values`` per run of equal ``owner`` (sorted): (owners, maxima)."""
    if not owner.size:
        return owner, values
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    return owner[starts], np.maximum.reduceat(values, starts)


def _rounded(values: np.ndarray, digits: int) -> list[float]:
    """Python's ``round`` (correctly rounded, unlike ``np.round``) over the distinct values only."""
    uniq, inv = np.unique(values, return_inverse=True)
    done = [round(x, digits) for x in uniq.tolist()]
    return [done[i] for i in inv.reshape(-1).tolist()]


@lru_cache(maxsize=65536)
def _preposition_alone_fits(text: str, prepositions: frozenset[str]) -> bool:
    """Whether a relation name holds one of ``prepositions`` and no word but where ("in", "located in") or a
    person's role there ("trader at": a post held at a firm), not a verb or thing of its own ("twinned in")."""
    toks = tokens(text)
    return bool(prepositions & set(toks)) and all(w in LOCATIVE or w in LOCATED or w in STOPWORDS or
                                                  is_person_noun(w) or noun_kind(w) == PERSON for w in toks)


@lru_cache(maxsize=65536)
def _stems(text: str) -> frozenset[str]:
    """The stems of a relation name or text, and its locative prepositions as they are ("located *in*")."""
    toks = tokens(text)
    return frozenset({stem(w) for w in toks} | (set(toks) & LOCATIVE))
