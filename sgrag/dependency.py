"""ε offline for English prose: spaCy parses -> canonical entities and relations with evidence.

A whole document is parsed at once (``sgrag.nlp.english``), so "he", "the band" and a surname
reach the entity first named in another sentence or chunk:

* **Entities** are NER spans and proper-noun runs (whole names: "Marks & Spencer", "Tom
  Jones–Smith", "J. R. R. Tolkien"), without determiners or a possessive "'s". Dates and
  quantities become value nodes (only ever the target of an edge). One entity, one node: a
  surname or first name (of anyone the text shows a person, whatever NER calls them), the name with a
  title ("Emperor Xuanzong" of Xuanzong of Tang), an acronym
  ("U.S." of "United States"), a company's name without its legal form ("Bigpoint" of "Bigpoint
  GmbH"), the article's subject without its first words ("the Ski Museum" of the Holmenkollen Ski
  Museum) or the title's short form resolves to the full name first mentioned, and so does the
  title written out ("Badanaval Venkatasubba Sreekantan" under "B. V. Sreekantan"; a title inside
  a longer name is that name's: "Dollar General Corporation"), and a work's subtitle is its short name
  ("The Fellowship of the Ring" of "The Lord of the Rings: The Fellowship of the Ring"); every surface form
  is kept as an alias.
  A person's name, "and the" and a plural name are one group's ("Tommy James and the Shondells"); a quoted
  nickname is in a person's name (Jamie "El Russo" Gosis), a foreign article begins a name ("Os Amigos"), as does a
  capital "The" inside a sentence, over a title's small words ("his play The Days of the Turbins"), a year
  after an event's name ends it ("the Eurovision Song Contest 1977"), and a quoted title's translation in a
  parenthesis after it is a name of it ("Portugal no coração" ("Portugal in my heart")), and so is a name after
  "also known as", "also spelled" ("Bambi II, also known as Bambi and the Great Prince of the Forest,"; "Zarir (also
  spelled Zarih)"), after "or" ("Vasa (or Wasa)", "The Neue Bachgesellschaft, or New Bach Society,"), each name in
  another language in brackets ("Kotor (Montenegrin Cyrillic: Котор; Italian: Cattaro)", with its romanisation after a
  comma) and a bracketed name a word of the name begins ("the Bay of Kotor (Boka Kotorska)"); the series a title
  "Series, Words: Subtitle" continues is one name across its comma where the text writes it ("Crouching Tiger, Hidden
  Dragon"); a work's title before its year or translation in brackets keeps its small words ("Pretty on the Inside
  (1991)"). A
  description NER's span holds before a name is no part of it ("the eleventh ministry of the Government
  of ..."), nor is a title "of" a known place before a person's name ("Prosecutor General of Ukraine
  Viktor Pshonka"), nor a title NER types apart ("Bishop Abel Muzorewa": Abel Muzorewa); a colon parts
  two names ("Asher: Mishal"), "on/in/at the" two places, and "and"/"&" two names of two or more
  capitalised words each that make no one name ("Lynsey de Paul & Mike Moran"; not "Procter & Gamble",
  "Institute of State and Law").
  A name held in a longer one after "of the" is an entity too, which the longer one is "of"
  (``nested``: "General Congregation of the Society of Jesus" -[of]-> Society of Jesus; not after
  one word, "Battle of the Bulge", nor in a work's title); a person's role before it is no name
  ("the thirtieth Superior General of the Society of Jesus", "the Ambassador of Russia": the
  copula or apposition then reads "general of", "ambassador of"). The rule reader's
  findings join the parse's entity of their name's clean form ("Italy's" -> Italy, "Lost One" -> The Lost One,
  "General Nikolai Yudenich" -> Nikolai Yudenich) or the one name the parse read it inside ("Brownlow", "Governor
  William G" of William G. Brownlow, "Kiev Physics" of the Kiev Physics and Mathematics School; not one of a
  list the parse took for one name, "Juárez" of "Juárez and Susupuato"); a name ending in a possessive that the
  parse does not know names nothing.
* **Coreference** by agreement, then salience: he/she only ever reaches a person of that gender
  (or none known yet; a class noun may say it: "his mother"), and she a ship too; it/its never a person or a
  nationality, they/their only a group (an organisation, a band, a plural name); among those, the
  subject of the pronoun's own sentence before it, then the article's subject (the title entity, or a longer
  form of the title as the first subject), then (a possessive) the latest agreeing name of its own sentence ("by The Sisters of Mercy,
  from *their* album"), then the latest subject of the two sentences before; two subjects of that
  sentence, or none that agrees, leave the pronoun unresolved. A possessive in a phrase fronted before its
  clause's subject means that subject ("In addition to *its* headquarters in Hamburg, Bigpoint ..."). "the <class noun>" -> the entity
  of that class (the title entity first, whose name's head noun is a class too: "the county" of
  "Olesno County").
* **Relations** follow the shortest dependency path between two mentions of a sentence (none through a
  denied verb: "is not considered part of", "never won"), one shape per construction (``how``): ``svo``
  subject-verb-object and prepositional objects of the verb ("born in"), ``passive`` with its agent reversed ("X was
  founded by Y" is "Y founded X"), ``copula`` ("X is the capital of Y"), ``apposition`` ("X, the capital of Y"),
  ``clause`` (relative and participial clauses: "a band formed in Leeds"), ``possessive``
  ("Y, X's son"; a possessor's noun and its preposition: "*its* headquarters in Hamburg", "*his* role in Titanic";
  a class noun before the possessed name names the relation: "*their* album Vision Thing" is an "album of" them), ``modifier`` (a name in a prepositional phrase of another: "Kherson in
  Ukraine"; a year or a place in brackets right after a name: "Spawn (1997)", "Olduvai Gorge (Tanzania)"), ``name-place`` (an organisation, building or event whose name holds a place's name
  is in it: "Moscow State University"), ``performed-with`` (a performer right before "with" and a quoted title:
  "by Edsilia Rombley with "On Top of the World"", read from the words; the clause's own subject then gets no edge
  to that work), ``member-from`` (people listed right before "from" or "of" and an organisation are its members: "guest
  musicians Jerry Garcia and Bill Kreutzmann from the Grateful Dead", read from the words), ``object-as`` (a
  verb's object holds the role its "as" names, of that role's possessor: "replaced Garcia as the New Riders'
  guitar player" gives ``Garcia -[player of]-> New Riders``), ``cast-as`` (a list after "stars"/"features" whose
  names take roles: "The film stars Ben Newmark as the IDF soldier, Noureen DeWulf as ...": each is starred, the
  names inside a role relate to nobody; read from the words; and, list or not, a name starred as a named character
  played it: "stars Toshiro Mifune as the bandit Tajōmaru"), ``event-date`` (an event's name and a date after
  prepositions of one verb: "wounded at the Battle of Cold Harbor in June 1864": the battle took place in June
  1864), ``team-in`` (the organisation one plays for is in
  the one one plays in: "played in the National Basketball Association as a member of the Toronto Huskies, ..."),
  ``place-chain`` ("Kroonstad, Free State", "Temagami, in the Nipissing District", "Opole Voivodeship, south-western
  Poland": each in the next), ``place-of`` ("the Scarborough district of North Yorkshire", "the Mexican state of
  Michoacán", "Thailand's Tak Province"), ``contains-list`` ("The county contains three other towns: Praszka, ...,
  and Gorzów Śląski": each in the county), ``document-place`` (a place the text does not place is in the outermost
  place most of its located-in statements end in; none when no place ends most), ``contained`` (what is in a place
  is in every place that contains it, over the whole document and both readers: "he died there" of the palace, and
  the palace "in Warsaw", give died in Warsaw, a step less sure). Coordinated subjects and
  objects each get the edge, however long the list (a name the parser makes an apposition of the one before,
  though the list goes on, counts as listed); a name in apposition to its clause's subject, a common noun, is that
  subject ("A sequel, Änglagård–andra sommaren, was produced in 1994"); a participle coordinated with another says its
  thing of the same noun, and coordinated verbs share an agent ("written and directed by X"); a fact about a thing
  the subject owns ("Its
  mascot, created by A") is not the subject's. Relation names are the verb's past participle or lemma with its
  particle, noun and preposition ("born in", "capital of"), the words a question uses.
* **Nationalities**: "X is a German developer", "X, an American singer," give ``X -[from]-> German``
  (``nationality``); each of a list before the class noun too, read from the words where the parser takes the
  adjectives for nouns ("a Soviet, Ukrainian, and Russian mathematician"; ``nationality-list``).
* **Classes**: "X is a Russian military leader" / "X, an American singer," give
  ``X -[is a]-> military leader`` and ``leader``, and a year or date in that class's words is X's ("X is a *1948*
  Hindi film": ``X -[year]-> 1948``; ``class-date``); so do a class noun right before a name ("the
  musical Carousel", "the Sasanian shah Yazdegerd II") and a definite one the name is in
  apposition to ("their debut album, Get Your Mood On,"), a clause's subject a name is in apposition to ("A
  sequel, Änglagård–andra sommaren, was produced"), "X, which is a city", and a noun and the names it is called
  ("a band called Arcadia", "brothers named Balash and Peroz I"), and a capitalised class after "a"/"an" ("Lake
  Tanganyika is an African Great Lake": ``is a -> african great lake``, no name); NER persons ``is a -> person``.
* **Examples**: names given as examples of a plural noun take what the sentence says of it ("club teams in Brazil
  such as Flamengo": Flamengo ``located in`` Brazil, and the subject "played team for" it; ``example``).
* **Coarse kinds**: every name ``is a`` person, organization, place, work, event, product or law
  when its stated class, its name's head noun or most of its NER labels say so (how "ner", 0.5;
  ``sgrag.kinds``).

Each relation keeps the sentence span, the character span of the words that state it (inside
the sentence), how it was read and a confidence (``CONFIDENCE``, lowered when an end was
reached through coreference). Text that is not English (by script) goes to the rule-based
``OfflineExtractor`` instead, per document.
"""
from __future__ import annotations

import dataclasses
import functools
from collections import Counter
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .extract import ChunkExtraction, ExtractedEntity, ExtractedRelation
from .io.documents import Chunk, Document
from .coref import is_person_noun, name_kind
from .kinds import (EVENT, EVENT_NAME_ENDS, LAW, NER_HOW, NER_KINDS, ORGANIZATION, PLACE, base_kinds,
                    country_named, majority_kind, name_head, named_kind, noun_kind, stated_kind)
from .offline import IS_A, NAME_CLASSES, PERSON, OfflineExtractor, class_names
from .spelling import is_english_word
from .textnorm import MAKING, fold, singular

CONFIDENCE = {"copula": 0.9, "apposition": 0.85, "svo": 0.85, "passive": 0.85, "clause": 0.75,
              "possessive": 0.75, "modifier": 0.6, "class": 0.9, "class-date": 0.85, "dates": 0.8, "place-chain": 0.85, "place-list": 0.75,
              "contained": 0.7, "place-of": 0.7, "contains-list": 0.7, "nationality": 0.8, "nationality-list": 0.75,
              "performed-with": 0.7, "member-from": 0.7, "object-as": 0.7, "cast-as": 0.8, "team-in": 0.6,
              "name-place": 0.6, "document-place": 0.5, "sentence": 0.35, "clause-subject": 0.5, "document": 0.3,
              "rules": 0.8, "nominal": 0.6, "nested": 0.7, "event-date": 0.7, "example": 0.7, NER_HOW: 0.5}
"""How sure an edge read by each construction is (fitted by eye on Re-DocRED dev)."""
_POST_NOMINAL = re.compile(r"[A-Z]{2,4}|Jr\.?|Sr\.?|I{2,3}|IV|Ph\.?D\.?")
"""Letters after a person's name: honours ("AO", "OBE"), degrees ("PhD"), generations ("Jr.", "III")."""
_TIME_FRAME = {"after", "before", "since", "until", "following", "during", "upon"}
"""Prepositions whose event noun frames a clause in time rather than naming what its subject did."""
CONTAINMENT_FLOOR = 0.55
"""The least confidence a reading needs to take part in ``_contained_across`` (a document's outermost place, 0.5, and
co-occurrences do not)."""
INFERRED_FACTOR = 0.9
"""A containment read through a chain of places ("A in B, B in C": A in C) is a little less sure per step."""
DOCUMENT_LEAD_SENTENCES = 8
"""The article's subject is "mentioned with" the names of its first sentences only (title line
included). On Re-DocRED the weak reading is right for 63% of names in the first sentence, 30% by
the sixth and 10-20% past the ninth (``bench/extraction_breakdown.py`` and RESULTS §15)."""
COREF_FACTOR = 0.85
"""An edge one of whose ends was a pronoun, description or short name is less sure."""
PRONOUN_REACH = 2
"""Sentences back that a pronoun reaches for a subject when the article's subject does not fit."""
MAX_PATH = 4
"""Most tokens on the dependency path between two mentions (ends excluded)."""
_ENTITY_NER = {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}
_VALUE_NER = {"DATE", "QUANTITY", "MONEY", "PERCENT", "CARDINAL"}
_DETS = {"the", "a", "an", "this", "that", "these", "those"}
_DEFINITE = {"the", "his", "her", "its", "their", "our", "my"}
"""Words that make a class noun name one thing ("their debut album, X,"), not a class X is one of."""
_NAME_INNER = {"of", "de", "del", "della", "des", "du", "la", "le", "von", "van", "der", "den", "da", "di", "&",
               "-", "–", "the", "y", "upon"}
"""Lower-case words a proper-noun run may hold between two capitalised words ("Marks and Spencer")."""
_ARTICLES = {"Os", "Los", "Las", "El", "La", "Le", "Les", "Il", "Lo", "Gli", "Der", "Die", "Das", "Den",
             "Het", "De"}
"""Definite articles of Romance and Germanic languages, which begin a name ("Os Amigos", "Die Zeit")."""
_EDITIONED = EVENT_NAME_ENDS | {"Games"}
"""Last words of names of events held again and again, besides the lexicon's event nouns ("Contest", "Festival"):
the coarse kinds' (``kinds.EVENT_NAME_ENDS``) and, right before an edition's year, "Games" ("the Commonwealth Games
2014"), which alone also ends companies' names."""
_HONORIFICS = {"General", "Gen.", "Admiral", "Colonel", "Captain", "Major", "Lieutenant", "Sergeant", "President",
               "Senator", "Governor", "Mayor", "Judge", "Justice", "Sir", "Dame", "Lord", "Lady", "Dr.", "Dr",
               "Professor", "Prof.", "Mr.", "Mrs.", "Ms.", "Rev.", "Reverend", "Bishop", "Pope", "Saint",
               "Chancellor", "Premier", "Minister", "Coach", "Marshal", "Field", "Prime", "Count", "Countess",
               "Baron", "Baroness", "Duke", "Duchess", "Earl", "Viscount", "Marquis", "Emperor", "Empress", "King",
               "Queen", "Prince", "Princess", "Crown", "Generalfeldmarschall", "Generaloberst", "Archbishop",
               "Cardinal", "Rabbi", "Sheikh", "Chief", "Commander", "Brigadier", "Ambassador", "Secretary", "Vice",
               "Inspector", "Detective", "Drummer", "Guitarist", "Bassist", "Singer", "Vocalist", "Producer",
               "Director", "Representative", "Congressman", "Congresswoman", "Councillor", "Councilman",
               "Co-Producer", "Chairman", "Chairwoman", "Commissioner", "Deputy", "Rear"}
"""Titles before a person's name that are no part of it ("U.S. President Franklin D. Roosevelt")."""
_SHARED_ROLES = frozenset({"member", "partner", "ally", "rival", "winner", "champion", "recipient", "owner",
                           "shareholder", "sponsor", "affiliate"})
"""Nouns for people that organisations and countries are too ("a member of the EPP"): no person where NER names
another kind."""
_NO_CLASS_TITLES = frozenset({"Gen.", "Sir", "Dame", "Lord", "Lady", "Dr.", "Dr", "Prof.", "Mr.", "Mrs.", "Ms.", "Rev.",
                              "Reverend", "Saint", "Field", "Prime", "Crown", "Vice", "Chief", "Deputy", "Rear",
                              "Generalfeldmarschall", "Generaloberst", "Co-Producer", "Secretary", "Justice"})
"""Titles that say no class the person is of ("Sir", "Saint") or only part of one ("Field Marshal", "Vice President"):
every other title right before a name does ("Marshal Michel Ney" is a marshal, "King Gustavus Adolphus" a king)."""
_DEMONYM_NOUNS = frozenset("""Frenchman Frenchwoman Englishman Englishwoman Irishman Irishwoman Scotsman Scotswoman
                             Welshman Welshwoman Dutchman Dutchwoman Finn Swede Dane Pole Briton Scot Turk Serb Croat
                             Spaniard Icelander Norseman""".split())
"""Nouns for a person of a nation, which the parse takes into the name that follows ("beaten by Frenchman Joseph
Guillemot")."""
_MALE, _FEMALE = {"he", "him", "his", "himself"}, {"she", "her", "hers", "herself"}
_NEUTER, _PLURAL = {"it", "its", "itself"}, {"they", "them", "their", "theirs"}
_GENDERED = {**dict.fromkeys("""mother wife daughter sister grandmother granddaughter aunt niece stepmother stepdaughter
                              queen princess empress duchess countess baroness actress businesswoman sportswoman
                              woman girl lady widow nun abbess heiress goddess""".split(), "f"),
             **dict.fromkeys("""father husband son brother grandfather grandson uncle nephew stepfather stepson king
                              prince emperor duke baron businessman sportsman man boy widower monk""".split(), "m")}
"""Class nouns that say a person's gender ("His mother, Funmilayo, ...": no later "he" or "his" is hers)."""
_VESSELS = frozenset("""ship warship vessel boat liner frigate submarine yacht carrier battleship cruiser destroyer
                       galleon schooner steamship steamer icebreaker tanker freighter corvette sloop clipper""".split())
"""Class nouns of ships, which English calls "she"."""
_GROUP_NOUNS = {"band", "group", "team", "family", "duo", "trio", "club", "company", "dynasty", "party", "people"}
"""Class nouns of things "they" may stand for (besides organisations and plural names)."""
_AGENT_ENDINGS = ("er", "or", "ist", "ast", "ian", "ant", "ent", "man", "woman", "ess")
"""Endings of class nouns for people ("footballer", "broadcaster", "leader"): with NER's PERSON,
enough to call the entity a person; a class "palace" or "song" is not."""
_NAMED_BEFORE_NOUNS = frozenset({"team", "club", "side", "squad", "band", "label", "company", "firm", "party"})
"""Class nouns of organisations a name before them names ("the *Flandria team* directed by Peter Post", "the
*Ferrari team*"): the name is the team, as a work noun's name is not the work ("the Beatles song" is theirs)."""
_DEFINITE = frozenset({"the", "his", "her", "their", "its"})
"""Before a name and the team it names: "*the* Flandria team"; not "a Bundesliga club", "the only NHL team"."""
_NOT_NAMING_TEAMS = frozenset({"GPE", "LOC", "FAC", "NORP", "LANGUAGE", "VALUE"})
"""Kinds of a name before "team" that is not the team: "the Liverpool team", "the English club"."""
_MODIFIER = {"amod", "nummod", "compound", "npadvmod", "nmod", "poss"}
"""Roles of a modifier inside a noun phrase ("the *1997* film", "*American* band")."""
_SUBJ = {"nsubj", "nsubjpass", "csubj", "expl"}
_PLACE = {"GPE", "LOC"}
"""Kinds that contain other things: the right-hand names of "Oslo, Norway"."""
_LOCATED = {"GPE", "LOC", "FAC", "ORG", "PROPN"}
"""Kinds that can be located in a place ("Stanford University, California")."""
_CHAINED = _PLACE | {"PROPN", "PERSON"}
"""Kinds inside a place chain: NER calls some regions persons ("Andhra Pradesh")."""
_COMPASS = re.compile(r"(?:north|south|east|west|central)")
"""A point of the compass that may qualify the next place of a chain after "in" ("..., in south-western Poland")."""
_CHAIN_GAP = re.compile(r"^(?:\s+[a-z]+){0,2}\s*,\s*"
                        r"(?:(?:in|within)\s+(?:the\s+)?)?(?:(?!(?:the|an?|and|or)\s)[a-z][a-z-]*[a-z]\s+)?$")
"""Between two names of a place chain: a comma, after at most two lower-case words ("Gollaprolu mandal, ..."), then
"in (the)"/"within (the)" and one lower-case word ("..., south-western Poland", "..., in south-western Poland")."""
LOCATED_IN = "located in"
_CONTAINS = {"contain", "include", "comprise"}
"""Verbs whose place subject holds the places its object lists ("The county contains three towns: ...")."""
_DIVISION_GAP = re.compile(r"\s+(?:[a-z]+\s+){1,2}of\s+(?:the\s+)?")
"""Between a name and the place it is a division of: one or two nouns and "of" ("the Scarborough *district of*
North Yorkshire")."""
_FEATURE_NAMING = {"lake", "river", "mount", "mountain", "mountains", "island", "islands", "isle", "isla", "bay", "gulf",
                   "sea", "ocean", "strait", "cape", "valley", "desert", "glacier", "peninsula", "falls", "creek",
                   "lagoon", "volcano", "peak", "hill", "hills", "forest", "of", "the", "de", "del", "la", "el"}
"""Words that with a place's name make the name of a natural feature ("Lake Titicaca", "Amazon River"): the
feature takes the name, it does not lie in the place."""
_NAMED_IN = {"ORG", "FAC", "EVENT", "PROPN", "PRODUCT"}
"""Kinds of names that hold the name of the place they are in ("Moscow State University"); a place's name holding
another's says nothing of which holds which ("Regional Municipality of Waterloo")."""
_COOCCURRING = {frozenset(p) for p in (("GPE", "ORG"), ("NORP", "PERSON"), ("NORP", "ORG"), ("GPE", "LOC"),
                                         ("PERSON", "WORK_OF_ART"))}
"""Kinds of names that, named in one sentence, are mostly related even where the parse finds no
relation (a place and an organisation, a nationality and a person, a person and a work)."""
_DOCUMENT_PLACED = {"GPE", "LOC", "FAC", "ORG"}
"""Kinds the document's outermost place contains when the text says no more."""
_LIFECYCLE = re.compile(r"\b(?:born|birth|die[sd]?|death|found(?:ed|s)?|establish\w*|form(?:ed|s)?|creat\w*|"
                        r"releas\w*|publish\w*|issu\w*|debut\w*|premier\w*|originat\w*|launch\w*|incorporat\w*|"
                        r"dissolv\w*|abolish\w*|start\w*|began|begun|end(?:ed|s)?|built|open(?:ed|s)?|clos(?:ed|es)|"
                        r"inaugurat\w*|complet\w*|sign(?:ed|s)?|held|hold|took place|occur\w*|happen\w*|air(?:ed|s)?|"
                        r"broadcast|year|date|related to)\b")
"""Relations that date a thing itself (its start, end, publication, or an event's taking place). Any other verb dates an
event the thing took part in ("appointed on 30 May 2016", "listed in 1985"): a time of that
event, not a fact about the thing, so no edge to the date."""
_BORN = re.compile(r"^\s*\((?:[^()]*?[;,]\s*)?born\s+([^()]*?)\)")
"""A life's bracket that gives only the birth: "X (; born 14 December 1964 in Kyiv)"."""
_DATE_RANGE = re.compile(r"^\s*\(([^()]*?)\s*(?:[–—]|(?<![^\W\d_])-|-(?![^\W\d_]))\s*([^()]*?)\)")
"""A life's bracket: born, dash, died; not a hyphen between two letters ("born Olufela Ransome-Kuti; 15 October 1938 –
2 August 1997": the hyphen of a name)."""
_ABBREV = re.compile(r"[^A-Za-z]")
_WORDED = re.compile(r"[^\W\d_]{2}")
"""A relation name needs a word of two letters or more (any script)."""
_NON_LATIN_SHARE = 0.5
_LEGAL_FORM = re.compile(r"(?<=\w),?\s+(?:GmbH|AG|KG|SE|Inc\.?|Incorporated|Ltd\.?|Limited|LLC|L\.L\.C\.|[Pp][Ll][Cc]|"
                         r"Corp\.?|Corporation|Co\.|S\.A\.?|S\.p\.A\.?|N\.V\.|B\.V\.|Pty\.?(?: Ltd\.?)?|AB|ASA|Oy|"
                         r"S\.L\.|SARL|S\.A\.S\.)$")
"""A company's legal form after its name ("Bigpoint GmbH", "Toon City Animation, Inc.", "Dollar General Corp.")."""
_BAND = re.compile(r"(.+?) (?:and|&) the (.+)")
"""A group named after its leader ("Tommy James and the Shondells")."""
_LISTED_AFTER, _LISTED_BEFORE = re.compile(r"(?:,|\band|&|[-–—/])\s*$"), re.compile(r"\s*(?:,|and\b|&|[-–—/:])")
"""A separator of listed names right before or right after a name ("Juárez *and* Susupuato"); a series before the
colon of its work's title ("Lord of the Rings" of "The Lord of the Rings: The Fellowship of the Ring")."""
_ENDS_POSSESSIVE = re.compile(r"\w['’]s?$")
"""A name ending in a possessive ("Italy's", "Sneaker Pimps'")."""


@dataclass
class _Entity:
    label: str
    kind: str
    """NER label ("PERSON", "ORG", ... "PROPN" for an untyped name, "VALUE" for dates and numbers)."""
    aliases: set[str] = field(default_factory=set)
    classes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Mention:
    start: int
    """Token index of the first token (document-wide)."""
    end: int
    entity: int
    via: str = ""
    """"" for a name; "pronoun", "description" or "alias" when resolved by coreference."""


class ParseExtractor:
    """English documents through spaCy's parser; other scripts through the rule-based extractor.

    Args:
        known_labels: labels of the existing graph, passed to the rule-based fallback.
    """

    VERSION = "spacy-v99"
    """Part of the extractor's name, which keys the chunk cache: raised whenever what it reads changes, so that a
    re-ingest reads every document again (v4: coarse kinds, "there", event nouns, place lists; v9: titles before
    brackets, event dates, "also known as", no sentence break inside a bracket)."""

    def __init__(self, known_labels: Iterable[str] = ()):
        self.rules = OfflineExtractor(known_labels)
        from .nlp import MODEL_PACKAGE, MODEL_VERSION
        digest = hashlib.sha256(self.rules.name.encode()).hexdigest()[:8]
        self.name = f"{self.VERSION}:{MODEL_PACKAGE}-{MODEL_VERSION}:{digest}"

    # ---- entry points ------------------------------------------------------------------------
    def extract(self, chunk: Chunk) -> ChunkExtraction:
        """One chunk on its own (the LLM extractor's fallback); documents use ``extract_document``."""
        if not is_english(chunk.text):
            return self.rules.extract(chunk)
        found = self.extract_text(chunk.text)
        return self._with_rules(dataclasses.replace(found, chunk_id=chunk.chunk_id, doc_id=chunk.doc_id), chunk, 0)

    def extract_document(self, doc: Document, chunks: Sequence[Chunk]) -> list[ChunkExtraction]:
        """Every page parsed whole; each relation is filed under the chunk holding its sentence,
        with spans relative to that chunk's text (the provenance ``edge_source`` records)."""
        if not is_english(doc.text[:20000]):
            return [self.rules.extract(c) for c in chunks]
        out: list[ChunkExtraction] = []
        for page_no, page in enumerate(doc.pages):
            page_chunks = [c for c in chunks if c.page == page_no]
            if not page_chunks:
                continue
            title = doc.title if page_no == 0 else ""
            ents, rels = self._extract(page, title)
            placed = [(c, page.find(c.text, c.start)) for c in page_chunks]
            per_chunk: dict[str, list[ExtractedRelation]] = {c.chunk_id: [] for c in page_chunks}
            ent_chunk: dict[str, str] = {}
            for r in rels:
                best = max(placed, key=lambda p: _overlap(p[1], p[1] + len(p[0].text), r.start, r.end))
                chunk, off = best
                lo, hi = max(r.start - off, 0), min(r.end - off, len(chunk.text))
                fs, fe = max(r.fact_start - off, lo), min(r.fact_end - off, hi)
                per_chunk[chunk.chunk_id].append(dataclasses.replace(r, start=lo, end=hi, fact_start=fs,
                                                                     fact_end=max(fe, fs)))
                ent_chunk.setdefault(r.source, chunk.chunk_id)
                ent_chunk.setdefault(r.target, chunk.chunk_id)
            first = page_chunks[0].chunk_id
            for c, off in placed:
                mine = tuple(e for e in ents if ent_chunk.get(e.label, first) == c.chunk_id)
                out.append(self._with_rules(ChunkExtraction(c.chunk_id, c.doc_id, mine, tuple(per_chunk[c.chunk_id]),
                                                            self.name), c, off))
        return _contained_across(out)

    def extract_text(self, text: str, title: str = "") -> ChunkExtraction:
        """Entities and relations of one text (one discourse); spans are offsets into ``text``."""
        ents, rels = self._extract(text, title)
        return ChunkExtraction("", "", tuple(ents), tuple(rels), self.name)

    # ---- the work ----------------------------------------------------------------------------
    def _extract(self, text: str, title: str) -> tuple[list[ExtractedEntity], list[ExtractedRelation]]:
        from .nlp import english
        lead = len(text) - len(text.lstrip())
        line_end = text.find("\n", lead)
        headed = bool(title) and line_end >= 0 and text[lead:line_end].strip() == title.strip()
        body = text[line_end + 1:] if headed else text  # (a first line that only begins with the title is prose:
        #                                                  "Marie Curie was a physicist." in Marie_Curie.txt)
        # the title line is parsed as blanks (offsets kept): run into the first sentence, it breaks the parse of
        # that sentence ("Elias Brown\n\nElias Brown (May 9, 1793–July 7, 1857) was ..." splits at each word)
        doc = english()(re.sub(r"\S", " ", text[:len(text) - len(body)]) + body if headed else text)
        name = _title_name(title)
        if name and fold(name) not in fold(body) and not _named_in_full(name, body):
            name = ""  # a headline ("Sable University and its economists"), not the name of the article's subject
        reader = _Reader(doc, name)
        reader.headline = _title_name(title)
        reader.read()
        self._canonical = {k: reader.ents[i].label for k, i in (reader.roles | reader.by_key).items()}
        # a word capitalised only where it begins a sentence, and no proper noun there ("Though definitions vary",
        # "Notable alumni include"): no name, whatever the rule reader, which reads capitals, makes of it
        mid_capitals = {t.text for t in doc if not t.is_sent_start and t.text[:1].isupper()}
        self._sentence_words = {t.text for t in doc if t.is_sent_start and t.is_alpha and t.text[:1].isupper()
                                and t.pos_ != "PROPN" and t.ent_type_ in ("", "ORDINAL")} - mid_capitals  # "First"
        self._named_at = [(doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1]), reader.ents[m.entity].label)
                          for m in reader.mentions if m.via in ("", "alias", "nested")
                          and reader.ents[m.entity].kind != "VALUE"]
        # names that say they are no person ("General Congregation of ...": the rule reader guesses people from
        # capitals and took "his" for it), and places by NER that nothing in the text shows a person (a he or she,
        # a person noun, "born": "Rivera was born in Valparaiso", though NER calls Tomas Rivera a place)
        self._not_people = frozenset(fold(n) for i, e in enumerate(reader.ents) if i not in reader.people and (
            named_kind(e.label, None) not in (None, PERSON) or e.kind in ("GPE", "LOC")) for n in {e.label, *e.aliases})
        self._people = frozenset(e.label for i, e in enumerate(reader.ents) if reader._person(i))
        # the words the parse read as common nouns: a rule-reader class must be one ("the up until Benedict XVI": no)
        self._nouns = {t.lower_ for t in doc if t.pos_ == "NOUN"}
        # where each relative pronoun is, and the noun in apposition the parse hangs its clause on ("the Medellín
        # Metro, the first metro system in Colombia, which ...": of the metro, which the noun restates)
        self._relatives = {t.idx: (v.head.idx, v.head.idx + len(v.head)) for t in doc
                           if t.tag_ in ("WDT", "WP") and (v := t.head).dep_ == "relcl" and v.head.dep_ == "appos"}
        return reader.entities(), list(reader.relations.values())

    def _with_rules(self, found: ChunkExtraction, chunk: Chunk, offset: int) -> ChunkExtraction:
        """The parse's findings plus what the rule-based extractor reads in the same chunk (its
        business-prose verbs, records and role nouns), with names mapped to the parse's entities.
        A relation both find keeps the parse's reading. ``offset``: where the chunk's text starts in the parsed one."""
        canon = getattr(self, "_canonical", {})
        named_at = getattr(self, "_named_at", [])
        relatives = getattr(self, "_relatives", {})
        sentence_words = getattr(self, "_sentence_words", set())

        def alone(label: str) -> bool:
            """Whether the parse names ``label`` in this chunk somewhere without a possessive after it."""
            return any(l == label and a >= offset and not re.match(r"['’]s\b", chunk.text[b - offset:b - offset + 3])
                       for a, b, l in named_at)

        @functools.cache  # the rule reader names the same few names in many findings
        def inside(name: str) -> str | None:
            """The parse's one name every occurrence of ``name`` in the chunk lies inside ("Brownlow" in "William G.
            Brownlow", where the rule reader cut at the initial's period; "Kiev Physics" in "Kiev Physics and
            Mathematics School"), or None; not as one of names the parse took for one ("Juárez" of "Juárez and
            Susupuato", "Lumding" of "Lumding–Badarpur")."""
            held: set[str] = set()
            for m in re.finditer(_as_word(name), chunk.text):
                s, e = offset + m.start(), offset + m.end()
                around = {label for a, b, label in named_at if a <= s and e <= b and (_coordinated_name(label) or not
                          _LISTED_AFTER.search(chunk.text[max(a - offset, 0):m.start()]) and not
                          _LISTED_BEFORE.match(chunk.text[m.end():b - offset]))}
                if not around:
                    return None
                held |= around
            return held.pop() if len(held) == 1 else None

        rules = self.rules.extract(chunk)
        not_people = getattr(self, "_not_people", frozenset())
        nouns = getattr(self, "_nouns", None)
        values = {fold(e.label) for e in found.entities if e.description == "value"} | \
            {fold(e.label) for e in rules.entities if re.fullmatch(r"\d[\d,.]*", e.label)}
        have = {(r.source, r.relation, r.target) for r in found.relations}
        dates = {fold(e.label) for e in found.entities if e.description == "value" and not e.label[:1].isdigit()}
        resolved: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (relation, object) -> where the parse read
        # the ends of the parse's readings with an end from a pronoun (spans in the chunk, as the rule reader's)
        pronouns: list[tuple[int, int, set[str]]] = []
        lives: dict[str, list[tuple[str, str]]] = {}  # name -> (verb, date) of the parse's readings of its life's bracket
        doers: dict[tuple[int, str], set[str]] = {}  # (sentence start, verb) -> the names the parse joins by that
        for r in found.relations:                       # verb there, either way
            if r.how == "dates" and fold(r.target) in values:
                lives.setdefault(r.source, []).append((r.relation.split()[0], fold(r.target)))
            if r.how.endswith("+pronoun"):
                resolved.setdefault((r.relation, r.target), []).append((r.start, r.end))
                pronouns.append((r.start, r.end, {r.source, r.target}))
            if r.relation != IS_A and r.how.split("+")[0] in ("svo", "passive") and fold(r.target) not in values:
                doers.setdefault((r.start, _verb_stem(r.relation.split()[0])), set()).update((r.source, r.target))
        people = {r.source for r in found.relations if r.relation == IS_A and r.target == PERSON}
        known_people = getattr(self, "_people", frozenset())
        parse_names = [e.label for e in found.entities if e.description not in ("value", "class")]
        labels_found = set(parse_names)

        @functools.cache
        def joins_names(label: str) -> bool:
            """Whether a rule-reader name runs over two of the parse's names joined by one small word ("Mark Gustafson
            for Netflix", "Roger Taylor of Duran Duran")."""
            if label in labels_found:
                return False
            at = sorted((m.start(), m.end()) for x in parse_names if x != label
                        for m in re.finditer(_as_word(x), label))
            return any(_JOINING.fullmatch(label[a[1]:b[0]]) for a, b in zip(at, at[1:]) if a[1] <= b[0])

        def holder(label: str | None, a: int, b: int) -> str | None:
            """The one other name of the parse that each occurrence of the parse's ``label`` (what a rule-reader name
            stands for) in chunk[a:b] lies inside ("Lisbon" of "the 1755 Lisbon earthquake"), else None."""
            if label is None:
                return None
            at = [(offset + a + m.start(), offset + a + m.end())
                  for m in re.finditer(_as_word(label), chunk.text[a:b])]
            around = [{h for x, y, h in named_at if x <= s and e <= y and h != label} for s, e in at]
            held = set().union(*around)
            return held.pop() if at and all(around) and len(held) == 1 else None

        @functools.cache
        def language_label(label: str) -> bool:
            """Whether the chunk names ``label`` only as the language of a name in brackets ("Kotor (Montenegrin
            Cyrillic: Котор; Italian: Cattaro)"), which the parse reads as no name."""
            at = list(re.finditer(_as_word(label), chunk.text))
            return bool(at) and all(re.match(r"\s*:", chunk.text[m.end():]) and
                                    re.search(r"[(;]\s*$", chunk.text[:m.start()]) for m in at)

        rels = list(found.relations)
        for r in rules.relations:
            src, dst = _rule_label(r.source, canon, inside, alone), _rule_label(r.target, canon, inside, alone)
            # the rule reader's "1755 Lisbon" of "The 1755 Lisbon earthquake ... impacted Portugal" is the earthquake
            src, dst = holder(src, r.start, r.end) or src, holder(dst, r.start, r.end) or dst
            if src is None or dst is None or {src, dst} & (sentence_words | _MONTHS) or \
                    any(x[:1].isalpha() and re.search(rf"\b{re.escape(fold(x))}\b", v)
                        for x in (src, dst) for v in dates):
                continue  # "Italy's", "CNN's Los Angeles": no name the parse knows; "on 2 February", "on Christmas
                #           Day 1066": a part of a date
            life = r.relation.split()[-1]
            if life in ("born", "died") and lives.get(src):
                verbs = {v for v, d in lives[src] if re.search(_as_word(fold(dst)), d)}
                if verbs and life not in verbs:
                    continue  # "(born Olufela Ransome-Kuti; 15 October 1938 – 2 August 1997)": the second date is
                    #           the death's
            if (src, r.relation, dst) not in have and fold(src) not in fold(chunk.text[r.start:r.end]) and \
                    any(a < r.end and r.start < b for a, b in resolved.get((r.relation, dst), [])):
                continue  # the parse read the pronoun doing it as another ("In 1835 she married William King": the
                #           parse's "she", not the rule reader's latest woman)
            verb = r.relation.split()[-1] if fold(dst) in values else r.relation.split()[0]
            others = doers.get((r.start, _verb_stem(verb)), set())
            if others and not any(set(x.split()) <= set(src.split()) for x in others):
                continue  # "it is one of the most successful team in Europe, having won two EuroLeague
                #           Championships": the parse says the club won them, the rule reader its latest name (a
                #           name the parse kept apart, "Rivera", is the rule reader's "Tomas Rivera")
            said = chunk.text[r.start:r.end]
            if _denied(said, src, dst):
                continue  # "it is not considered part of the Cascade Range": the text says it is not so
            if _another_relative(said, src, dst, parse_names) or \
                    any(_relative_elsewhere(said, x, offset + r.start, relatives) for x in (src, dst)):
                continue  # "The Danube ends in the Danube Delta, most of which ... was designated a UNESCO World
                #           Heritage Site": the clause is the delta's, not the Danube's; "the Medellín Metro in
                #           1995, the first metro system in Colombia, which was followed in 2004 by ...": the
                #           system's, which the parse sees, not the name right before "which"
            read_as = set().union(*(x for a, b, x in pronouns if a < r.end and r.start < b))
            if any(_misread_pronoun(x, said, x in people, x in known_people, read_as) for x in (src, dst)):
                continue  # "He married Kim Morgan": a he the rule reader gave a film, the parse a person; "It was
                #           produced by Albert S. Ruddy": an "it" it gave the film's star, the parse the film
            if joins_names(src) or joins_names(dst) or language_label(src) or language_label(dst):
                continue  # "made with Mark Gustafson for Netflix": two names the parse read apart, not one
            if src[:1].islower() or dst[:1].islower() and r.relation != IS_A:
                continue  # "the society" left as a word: a class node, not the thing the sentence is about
            if r.relation == IS_A and dst == PERSON and fold(src) in not_people:
                continue  # the rule reader took "his" for an organisation, which its name says it is
            if r.relation == IS_A and nouns is not None and dst not in _SYNTHETIC_CLASSES and \
                    fold(dst).split()[-1] not in nouns:
                continue  # "thirty-sixth", "until", "called": the parse read no noun there, so it names no class
            if not _WORDED.search(r.relation) or re.search(r"\d", r.relation):
                continue  # "5505", "n e": the text between two names was no words, so it says no relation; "rebuilt in
                #           1990 s of", "3 ds": words and a number, the rule reader's run over a date or a count
            if values & {fold(src), fold(dst)} and not dates_thing(r.relation, "rules"):
                continue
            if (src, r.relation, dst) not in have and fold(src) != fold(dst):
                have.add((src, r.relation, dst))
                rels.append(dataclasses.replace(r, source=src, target=dst, how="rules",
                                                confidence=CONFIDENCE["rules"], fact_start=r.start,
                                                fact_end=r.end))
        labels = {e.label for e in found.entities}
        ents = list(found.entities)
        classes = {r.target for r in rels if r.relation == IS_A}
        for e in rules.entities:
            label = _rule_label(e.label, canon, inside, alone)
            if e.description == "class" and label not in classes:
                continue  # "founded", "called": a class whose every reading was dropped names nothing the text says
            if label is not None and label not in labels and label not in sentence_words | _MONTHS and \
                    not joins_names(label) and not language_label(label):
                labels.add(label)
                ents.append(dataclasses.replace(e, label=label))
        return dataclasses.replace(found, entities=tuple(ents), relations=tuple(rels))


def _as_word(name: str) -> str:
    """A pattern finding ``name`` as whole words (not inside a longer word)."""
    return rf"(?<!\w){re.escape(name)}(?!\w)"


def _another_relative(said: str, src: str, dst: str, names: Sequence[str]) -> bool:
    """Whether ``dst`` stands in a relative clause ("which", "who", "whom") that another name between ``src`` and it
    heads: the rule reader's reading of a clause about that name as one about ``src``."""
    a = re.search(_as_word(src), said)
    b = re.search(_as_word(dst), said[a.end():]) if a is not None else None
    if a is None or b is None:
        return False
    between = said[a.end():a.end() + b.start()]
    rel = list(re.finditer(r"\b(?:which|who|whom)\b", between))
    if not rel:
        return False
    before = between[:rel[-1].start()]
    return any(x not in (src, dst) and re.search(_as_word(x), before) for x in names)


def _foreign_words_go_on(doc: Any, j: int, end: int) -> bool:
    """Whether doc[j] begins lowercase words no English text would use (no stop word, at most three) that end at a
    bracket, at a name's particle before a capitalised word, or (none an English word) at a comma or the sentence's
    end: the rest of a title in another language after its article ("La Dame aux camélias (1852)", "La plaça del
    Diamant", "Los ricos también lloran."), not English words after a name ("Das Boot director Wolfgang Petersen",
    "La Scala opened today.")."""
    k = j
    while k < end and k - j < 3 and doc[k].is_lower and doc[k].is_alpha and not doc[k].is_stop:
        k += 1
    if k == j or k >= end:
        return False
    if doc[k].text == "(" or doc[k].text in (".", ",", ";") and \
            not any(is_english_word(t.text) for t in doc[j:k]):  # "the 1979 telenovela Los ricos también lloran."
        return True
    inner = doc[k - 1].lower_ in _NAME_INNER and k - 1 > j
    return inner and doc[k].is_title and doc[k].pos_ == "PROPN"


def _event_or_law_head(tok: Any) -> bool:
    """Whether a capitalised word heads an event's or a law's name before "of (the)" ("Treaty", "Battle", "Siege")."""
    return tok.is_title and noun_kind(tok.lower_) in (EVENT, LAW)


def _with_compounds_children(noun: Any) -> list[Any]:
    """A noun's children and its compounds' ("the *sixth* studio album": the parse hangs the ordinal on "studio")."""
    kids = list(noun.children)
    return kids + [g for c in kids if c.dep_ == "compound" for g in c.children]


def _model_number(word: str) -> bool:
    """A number that goes on a name ("Falcon 9", "Nokia 3310"): up to three digits, or more if no year's."""
    return bool(re.fullmatch(r"\d{1,3}", word) or re.fullmatch(r"\d{4,5}", word) and not 1000 <= int(word) <= 2099)


def _relative_elsewhere(said: str, name: str, at: int, relatives: dict[int, tuple[int, int]]) -> bool:
    """Whether ``said`` (starting at ``at`` in the parsed text) has ``name`` right before a relative pronoun whose
    clause the parse hangs on a noun in apposition outside that name (``relatives``): the rule reader's antecedent,
    not the text's."""
    for m in re.finditer(_as_word(name) + r",?\s+(which|who|whom)\b", said):
        where = relatives.get(at + m.start(1))
        if where is not None and not (at + m.start() <= where[0] and where[1] <= at + m.start() + len(name)):
            return True
    return False


def _past_conjuncts(side: list) -> int:
    """Where a path side leaves the names joined by "and" it starts in ("the Breg" of "the Brigach and the Breg")."""
    return next((k for k, (_, dep) in enumerate(side) if dep != "conj"), 0)


def _nicknamed(label: str) -> tuple[str, ...]:
    """A person's nickname in quotes inside the name, alone and with the surname (Delphine "Delphi" Greenlaw: Delphi,
    Delphi Greenlaw), or none."""
    m = re.fullmatch(r"\S.*?\s[\"“]([^\"”]+)[\"”]\s+(\S+(?:\s\S+)*)", label)
    return (m.group(1), f"{m.group(1)} {m.group(2)}") if m else ()


def _verb_stem(word: str) -> str:
    """A verb's letters without its ending, so that the parse's lemma and the rule reader's word meet ("lie"/"lies",
    "designate"/"designated")."""
    return re.sub(r"(?:e?s|e?d|ing)$", "", word).rstrip("e") or word


_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n['’]t\b", re.I)


def _denied(said: str, src: str, dst: str) -> bool:
    """Whether a negation stands between where ``said`` names ``src`` (its start, if it does not: a pronoun) and
    ``dst``: the rule reader's reading of a denied statement."""
    at = [m.start() for x in (src, dst) if (m := re.search(_as_word(x), said)) is not None]
    lo, hi = (min(at), max(at)) if len(at) == 2 else (0, at[0] if at else len(said))
    return _NEGATION.search(said[lo:hi]) is not None


_PERSONAL = re.compile(r"\b(?:he|she|him|his|her)\b", re.I)
_IMPERSONAL = re.compile(r"\b(?:it|its)\b", re.I)


def _misread_pronoun(name: str, said: str, person: bool, known_person: bool, read_as: set[str]) -> bool:
    """Whether the rule reader's ``name``, not itself in the sentence ``said`` (by its last word: "Oyelaran studied
    ..., and she" keeps Marguerite Oyelaran), stands for a pronoun of the other kind than it is where the parse read
    the pronouns there as others (``read_as``: the ends of its pronoun readings over the sentence): a he or she for a
    name no fact of the sentence's parse makes a ``person``, an it for a name the document shows a person
    (``known_person``)."""
    if not read_as - {name} or re.search(rf"\b{re.escape(fold(name).split()[-1])}\b", fold(said)):
        return False
    if _IMPERSONAL.search(said) and not _PERSONAL.search(said):
        return True
    return not person and bool(_PERSONAL.search(said))


_JOINING = re.compile(r"\s+[a-z]+(?:\s+the)?\s+")
"""What joins two names into no name of its own: one small word ("for", "of the"); not a possessive, which may be
part of a name ("Traveller's Tales")."""

_COORDINATORS = ("and", "or", "&")
_NOT_MADE_BY = frozenset({"PERSON", "GPE", "LOC", "NORP", "VALUE"})
"""Kinds of name that "by" after it gives no maker of ("the village by the lake", "Smith by a length")."""

_WITHIN = ("in", "within")
_AREA_NOUNS = frozenset({"district", "part", "region", "area", "outskirts", "suburbs", "centre", "center", "heart",
                         "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
                         "coast", "shore", "bank", "tip", "end", "side"})
"""Nouns of a part of a place: "a village in the *district* of Gmina Ciężkowice" is a village in Gmina Ciężkowice,
"a town on the east *coast* of the island of Ovalau" on Ovalau."""

_EVENT_NOUNS = frozenset({"massacre", "disaster", "siege", "bombing", "bombings", "earthquake", "riots", "protests",
                          "scandal", "uprising", "shooting", "crisis", "affair", "pogrom", "famine", "laws"})
"""Lower-case nouns that end an event's name after a name ("the Challenger *disaster*", "the Comstock *laws*")."""

_AWARD_OPENERS = {"Best", "Most", "Outstanding"}
"""First words of an award's category ("Best Screenplay", "Outstanding Lead Actor"), which NER may take for a
person's name; no person's name starts with a superlative."""

_SYNTHETIC_CLASSES = {PERSON, "company"} | NAME_CLASSES
"""Classes the rule reader names without a common noun in the text (a person by what they did, a firm's kind, the
last word of a name: "Nordvik Bank" is a bank)."""


def _in_area_of(content: list[Any]) -> bool:
    """Whether a path's words are "is a <place noun> in (or on) the <area noun> of", with any more area or place
    nouns of it ("is a village in the administrative district of Gmina Ciężkowice", "is a town on the east coast of
    the island of Ovalau"): longer than ``MAX_PATH`` allows and as plain a statement of where."""
    words = sorted((t for t in content if t.pos_ not in ("PUNCT", "DET", "CCONJ", "PART", "SPACE")), key=lambda t: t.i)
    if len(words) < MAX_PATH + 1 or words[0].lemma_ != "be" or words[1].dep_ != "attr" or \
            noun_kind(words[1].lemma_.lower()) != PLACE or words[2].lower_ not in _WITHIN + ("on",) or \
            words[-1].lower_ != "of" or words[3].lemma_.lower() not in _AREA_NOUNS:
        return False  # (a direction word modifies its area noun, off the path: "on the *east* coast of")
    return all(t.lower_ == "of" or t.lemma_.lower() in _AREA_NOUNS or
               t.pos_ == "NOUN" and noun_kind(t.lemma_.lower()) == PLACE for t in words[3:])


def _rule_label(name: str, canon: dict[str, str], inside: Callable[[str], str | None] = lambda _: None,
                alone: Callable[[str], bool] = lambda _: False) -> str | None:
    """The parse's entity a rule-reader name stands for (``canon``: folded names -> labels), or None for none.

    The rule reader keeps the capitalised words it saw ("Italy's", "Lost One" for the parse's "The Lost One",
    "Jones," at a comma): such a name stands for the parse's entity of its clean form, with or without its article,
    a company's legal form or a person's titles; a name the parse read only inside a longer one (``inside``:
    "Brownlow", "Governor William G" of "William G. Brownlow") for that one. A single letter names nothing.
    Unknown to the parse, a name keeps its clean form, but one ending in a possessive names nothing (its edge is
    dropped): no label ends in "'s", and what a possessor owns is another thing ("Italy's prime minister"); nor does
    a role ("Superior General of the Society of Jesus": someone the parse reads as its holder). A name after a
    possessive the parse knows as a name of its own (``alone``: named without the possessive too; "Capcom's Mega Man")
    is the name after it ("Mega Man"), and so is one after a year the parse did not read with it ("2001 French")."""
    if fold(name) in canon:
        return canon[fold(name)]
    clean = clean_name(name, keep_article=True)
    for form in (clean, clean_name(clean), _without_legal_form(clean), _untitled(clean), _OPENING_WORD.sub("", clean)):
        for key in (fold(form), "the " + fold(form)):
            if key in canon:
                return canon[key]
    for form in (clean, _untitled(clean)):
        held = inside(form)
        if held is not None:
            return held
    dated = re.match(r"\d{4} (\S.*)$", clean)
    if dated:  # "the 1992 National Heritage Fellowship": the year is no part of the name the parse read after it;
        #        "a 2001 French film", "the 1975 European championships": a nationality qualifies, names nothing
        return None if country_named(dated.group(1)) else _rule_label(dated.group(1), canon, inside, alone)
    owned = re.match(r"(.+?)['’]s (\S.*)$", clean)
    country = owned or re.match(r"(.+?s)['’] (\S.*)$", clean)  # "the Netherlands' Mouth & MacNeal"
    if country and fold(country.group(2)) in canon and country_named(country.group(1)):
        return _rule_label(country.group(2), canon, inside, alone)
    if owned and fold(owned.group(1)) in canon and alone(canon[fold(owned.group(1))]):
        return _rule_label(owned.group(2), canon, inside, alone)  # "Capcom's Mega Man": the owner is a name of its
        #                     own, written without "'s" too, and what it owns another (not "Traveller's Tales"); a
        #                     country owns no name the parse knows ("Italy's Gigliola Cinquetti"), whatever is after it
    role = re.match(r"(.+?) of the [A-Z]\S*(?: (?:of |de |the |and )*[A-Z]\S*)+$", clean)  # as _Reader._nested reads
    return None if _ENDS_POSSESSIVE.search(name.strip()) or role and _role(role.group(1)) or len(clean) < 2 or \
        _HONORIFIC.fullmatch(clean) else clean  # ("created by Dr", cut at the period of "Dr. Thomas Light")


_OPENING_WORD = re.compile(r"^(?:Under|In|On|At|After|With|From|By|For|During|Since|Before|Following|Through|As|"
                           r"When|While|Despite|Against|Among|Between|Without|Within|Upon|Unlike|Like) (?=\S)")
"""A sentence's capitalised first word that the rule reader runs into the name after it ("Under Jorma Ollila, chief
executive from 1992 to 2006, Nokia ...")."""
_HONORIFIC = re.compile(r"(?:Dr|Mr|Mrs|Ms|Mme|Prof|St|Sr|Jr|Gen|Col|Capt|Lt|Sgt|Rev|Hon|Gov|Sen|Rep|Pres|Adm|Maj)\.?")
"""A title's abbreviation alone: the rule reader cut a name at its period; no name by itself."""


def _named_class_apposition(tok: Any) -> bool:
    """Whether a name stands right after its class noun, itself in apposition to another noun ("its image, *the poster
    Den Tørstige Mand*,") or coordinated with a name ("defeating Pachuca and *the Brazilian club Internacional*"):
    the name is what that noun is."""
    noun = tok.head
    return tok.dep_ == "appos" and tok.pos_ == "PROPN" and noun.pos_ == "NOUN" and \
        (noun.dep_ == "appos" and noun.head.pos_ == "NOUN" or noun.dep_ == "conj" and noun.head.pos_ == "PROPN") and \
        tok.left_edge.i == noun.i + 1 and \
        all(c.dep_ in ("det", "amod", "compound", "punct") or c.i == tok.i for c in noun.children)


_IDENTITY_NOUNS = frozenset({"city", "town", "village", "hamlet", "municipality", "commune", "county", "province",
                             "state", "island", "borough", "parish", "township", "oblast", "canton", "prefecture",
                             "governorate", "port", "suburb", "settlement", "peninsula"})
"""Place nouns that "the ... of" a name names rather than relates ("the town of Hvidovre" is Hvidovre; "a borough
of New York City", "the largest city of Norway" and "the capital of France" are not; nor is "the south polar
region of Enceladus", so no region or district)."""


_SINGLING_OUT = frozenset({"main", "chief", "principal", "only", "capital", "same", "largest", "biggest", "major"})
"""Words that single a place noun out among others of a name's ("the *main* island of Madeira")."""


def _superlative(word: Any) -> bool:
    """Whether a modifier ranks its noun: a superlative ("largest", "southernmost", which the parse may tag a noun)
    or an ordinal ("second", "third")."""
    return word.tag_ in ("JJS", "RBS") or word.ent_type_ == "ORDINAL" or word.lower_ in _ORDINAL_WORDS or \
        len(word.lower_) > 4 and word.lower_.endswith("most")


def _identity_noun(name: Any) -> Any:
    """The place noun a name is "the ... of" ("born in *the village of* Vivar", "the smaller inhabited *island of*
    Porto Santo"), which the name is (``_IDENTITY_NOUNS``), else None: a definite singular noun with no possessor and
    no superlative, ordinal or "main" to single it out among others of the name's."""
    of = name.head
    noun = of.head
    if name.dep_ != "pobj" or name.pos_ != "PROPN" or of.lower_ != "of" or of.dep_ != "prep" or \
            noun.pos_ != "NOUN" or noun.tag_ != "NN" or not noun.is_lower or noun.lower_ not in _IDENTITY_NOUNS or \
            name.left_edge.i != of.i + 1:
        return None
    said = list(noun.children)
    if not any(c.dep_ == "det" and c.lower_ == "the" for c in said) or \
            any(c.dep_ == "poss" or _superlative(c) or c.lower_ in _SINGLING_OUT for c in said) or \
            sum(c.dep_ == "prep" for c in said) != 1:
        return None
    if noun.dep_ == "attr" and any(c.dep_ in _SUBJ and c.pos_ in ("PROPN", "PRON") for c in noun.head.children):
        return None  # "Islay is the island of ...": the noun says what the subject is
    return noun


def _ner_vote(doc: Any, start: int, kind: str) -> str:
    """The kind a name's mention votes for (``majority_kind``): NER's label, but no person's after "the" ("the
    Volga", "the Azores"), and a place's after a bearing ("60 km south of Marrakesh")."""
    before = doc[start - 1].lower_ if start else ""
    if before == "the" and kind == "PERSON":
        return "PROPN"
    if before == "of" and start >= 2 and doc[start - 2].lower_ in _BEARINGS and kind != "VALUE":
        return "LOC"
    return kind


_BEARINGS = frozenset({"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
                       "north-east", "north-west", "south-east", "south-west"})


def _qualifying_clause(name: Any, chain: list) -> list | None:
    """``chain`` (another mention's, up to the root) up to ``name``, when ``name`` is in apposition to a common noun
    that ``chain`` reaches through a clause on it ("the song "Waterloo", *performed by ABBA*"), or names the
    organisation noun right after it ("the TI–Raleigh team *directed by Peter Post*"): the clause says of the
    name what it says of the noun, so the name stands at its end; else None."""
    noun = name.head
    if not (name.dep_ == "appos" and name.pos_ == "PROPN" and noun.pos_ == "NOUN" or _names_noun_after(name)):
        return None
    at = next((k for k, (t, _) in enumerate(chain) if t.i == noun.i), None)
    if at is None or at < 2 or chain[at - 1][1] not in ("acl", "relcl") or chain[at - 1][0].pos_ != "VERB":
        return None
    return chain[:at] + [(name, chain[at][1])]


def _names_noun_after(name: Any, start: int | None = None) -> bool:
    """Whether ``name`` (a mention's root; ``start``: its first token, else the parse's) is the modifier right before
    an organisation noun it names ("the Flandria team", "the TI–Raleigh team")."""
    noun = name.head
    between = name.doc[name.i + 1:noun.i]  # the rest of a dashed name the parse hung on the noun too
    after = name.doc[noun.i + 1] if noun.i + 1 < len(name.doc) else None
    start = name.left_edge.i if start is None else start
    before = name.doc[start - 1] if start > 0 else None
    return name.dep_ in ("compound", "amod") and noun.i > name.i and noun.pos_ == "NOUN" and \
        before is not None and before.lower_ in _DEFINITE and \
        noun.lower_ in _NAMED_BEFORE_NOUNS and name.text[:1].isupper() and name.ent_type_ not in _NOT_NAMING_TEAMS \
        and all(t.head.i == noun.i and (t.text == "–" or t.text[:1].isupper()) for t in between) and \
        not (after is not None and after.pos_ == "PROPN")  # "the Premier League side Tottenham": the noun is
    #                                                      the next name's class


def dates_thing(relation: str, how: str) -> bool:
    """Whether an edge to a date or number says something of its source (see ``_LIFECYCLE``);
    a number read as a modifier or in brackets ("the 1997 film", "Spawn (1997)") does, and so
    does a date of a sentence about the article's subject (the weak "mentioned with")."""
    return how in ("dates", "modifier", "document", "class-date") or bool(_LIFECYCLE.search(relation)) or \
        bool(MAKING.fullmatch(relation.split(" ", 1)[0]))  # "produced in 1994": when it was made


def _named_in_full(name: str, body: str) -> bool:
    """Whether the body names the title's subject in full: its words in order with at most two
    more between, an initial standing for a word ("Gary Allan Anderson" for "Gary Anderson", "Badanaval
    Venkatasubba Sreekantan" for "B. V. Sreekantan")."""
    words = [re.escape(w) + (r"\w*" if len(w) == 1 else "") for w in fold(name).split()]
    if len(words) < 2:
        return False
    return re.search(r"\b" + r"(?:\s+\S+){0,2}?\s+".join(words) + r"\b", fold(body)) is not None


def _expands(short: str, full: str) -> bool:
    """Whether ``full`` is ``short`` written out: the same first and last word (letters after a name aside),
    ``short``'s words in order with more between, or an initial ("B.") standing for a word it begins ("Gary Allan
    Anderson" of "Gary Anderson", "Badanaval Venkatasubba Sreekantan" of "B. V. Sreekantan"; not "Samarinda
    Seberang" of "Samarinda")."""
    s, f = short.split(), full.split()
    if len(f) < len(s) or f == s or not _same_word(s[0], f[0]) or not _same_word(s[-1], _given_names(full)[-1]):
        return False
    it = iter(f)
    return all(any(_same_word(w, x) for x in it) for w in s)


def _same_word(word: str, other: str) -> bool:
    """A word, the last part of a double name ("Curie" of "Skłodowska-Curie"), or an initial of it ("B." of
    "Badanaval")."""
    return word == other or "-" in other and other.rsplit("-", 1)[1] == word or \
        bool(re.fullmatch(r"[A-Z]\.?", word)) and other[:1] == word[0] and len(other) > 2


def is_english(text: str) -> bool:
    """Whether a text is (mostly) written in Latin script: the English pipeline reads it."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return True
    latin = sum(c.isascii() or "\u00c0" <= c <= "\u024f" for c in letters)
    return latin / len(letters) >= _NON_LATIN_SHARE


def _overlap(a: int, b: int, c: int, d: int) -> int:
    return min(b, d) - max(a, c)


def _noun_and_prep_object(noun: Any, side_a: list, side_b: list, a: _Mention, b: _Mention, role: str):
    """Two mentions joined through a common noun, one right on it in ``role`` ("*its* headquarters", "teams such
    as *Flamengo*") and the other the object of a preposition of it ("headquarters *in Hamburg*") -> (the one on
    the noun, the object, the preposition), or None."""
    if sorted((len(side_a), len(side_b))) != [2, 3] or not noun.lemma_.isalpha():
        return None
    (on, on_side), (obj, obj_side) = ((a, side_a), (b, side_b)) if len(side_a) == 2 else ((b, side_b), (a, side_a))
    prep = obj_side[1][0]
    if on_side[0][1] != role or obj_side[0][1] != "pobj" or prep.dep_ != "prep":
        return None
    return on, obj, prep


_EXAMPLE_PREPS = frozenset({"as", "including", "like"})
"""Words before the names given as examples of a plural noun ("such *as*", "*including*", "*like*")."""


def _own_subject(verb: Any) -> bool:
    """Whether a clause's verb has a subject of its own, not a relative pronoun ("where *he* studied English") nor a
    part of one ("the Danube Delta, *most of which* lies in Romania": the clause is of the delta)."""
    return any(c.dep_ in _SUBJ and c.tag_ not in ("WDT", "WP") and not _part_of_relative(c) for c in verb.children)


_PORTIONS = frozenset({"most", "much", "all", "part", "parts", "half", "majority", "bulk", "portion", "some"})
"""Words for a share of the whole a relative pronoun stands for ("most of which"), unlike a pick of one of a list
("the Inn, the Drava and the Sava, *the last of which* joins it at Belgrade")."""


def _part_of_relative(tok: Any) -> bool:
    """Whether a clause's subject is a share of its relative pronoun ("*most* of which")."""
    return tok.lower_ in _PORTIONS and any(p.lower_ == "of" and any(o.dep_ == "pobj" and o.tag_ in ("WDT", "WP")
                                                                    for o in p.children) for p in tok.children)


def _object_relative(verb: Any) -> bool:
    """Whether a clause's relative pronoun is its verb's object ("Blue Sky, *which* they recorded in Paris")."""
    return any(c.dep_ == "dobj" and c.tag_ in ("WDT", "WP") for c in verb.children)


def _adverbial_clause(verb: Any) -> bool:
    """A relative clause with a subject of its own whose relative pronoun hangs on a preposition ("the festival,
    *following which the film played* in Canada"): what it says is of that subject, not of the noun it follows."""
    return _own_subject(verb) and any(t.tag_ in ("WDT", "WP") and t.dep_ == "pobj" and t.head.head.i == verb.i
                                      for t in verb.subtree)


def _as_written(text: str, title: str) -> str:
    """The title's name as the prose spells it where only spacing differs ("IBM Research–Brazil" under the title
    "IBM Research – Brazil"): a reader, and anyone asking, copies the text, not the headline."""
    return text if text.split() != title.split() and "".join(text.split()) == "".join(title.split()) else title


def _title_name(title: str) -> str:
    """The article's subject from its title: "Poison (band)" -> "Poison"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title or "").strip()


def clean_name(text: str, keep_article: bool = False) -> str:
    """A mention's text as a node label: no leading determiner (unless written as part of the name,
    "the film The Showdown"), no trailing possessive or punctuation."""
    text = re.sub(r"\s+", " ", text).strip()
    while True:  # "Corp 's 's": every trailing possessive, so that a clean name stays clean
        cut = re.sub(r"(?:['’]s|s['’]|['’])$", lambda m: "s" if m.group().startswith("s") else "", text).strip()
        if cut == text:
            break
        text = cut
    words = text.split(" ")
    while not keep_article and len(words) > 1 and words[0].lower() in _DETS:
        words = words[1:]
    text = " ".join(words).strip(" ,;:-–—\"“”'‘’()")
    return text


def _given_names(label: str) -> list[str]:
    """A person's name without the letters after it ("Alan Belford Jones AO" -> Alan Belford Jones; "Patton Jr."):
    honours, degrees and generations are no part of how the text calls the person for short."""
    words = label.split()
    while len(words) > 2 and _POST_NOMINAL.fullmatch(words[-1].rstrip(",")):
        words = words[:-1]
    return words


def _paternal_surname(given: list[str]) -> tuple[str, ...]:
    """The surname before "y" or "de" in an Iberian name ("Portales" of "Diego José Pedro Víctor Portales y
    Palazuelos", "Machado" of "Joaquim Maria Machado de Assis"), which the text calls the person by."""
    return tuple(given[i - 1] for i in range(2, len(given) - 1)
                 if given[i] in _SURNAME_LINKS and given[i - 1].lower() not in _SURNAME_LINKS)[:1]


def _coordinated_name(label: str) -> bool:
    """Whether a name joining words with "and" is one name: an "of"-phrase's ("Institute of State and Law") or one
    head noun after both ("Kiev Physics and Mathematics School"); not two names, each with its head ("Harvard
    University and Rutgers University") or none ("Juárez and Susupuato")."""
    m = re.search(r"\s(?:and|&)\s", label)
    if m is None:
        return False
    left, right = label[:m.start()].split(), label[m.end():].split()
    if not left or not right:
        return False
    return bool({"of", "on", "for"} & set(left)) or \
        noun_kind(left[-1]) is None and noun_kind(right[-1]) in (ORGANIZATION, PLACE, EVENT)


def _without_legal_form(label: str) -> str:
    """A company's name without its legal form, which no text repeats when naming it for short ("Bigpoint GmbH",
    "Toon City Animation, Inc." -> Bigpoint, Toon City Animation); any other name as it is."""
    return _LEGAL_FORM.sub("", label) or label


def _subtitle(label: str) -> str:
    """What a title "Series: Subtitle" is called for short ("The Fellowship of the Ring", "Sword of Destiny"), or ""
    (a subtitle that is a class noun names no one work: "Pokémon: The Series")."""
    m = re.fullmatch(r"[^:]+:\s+([A-Z][^:]*)", label)
    if m is None:
        return ""
    words = clean_name(m.group(1)).split()
    return m.group(1) if len(words) > 1 or noun_kind(words[0].lower()) is None else ""


def _untitled(label: str) -> str:
    """A name without the titles before it ("Emperor Xuanzong" -> Xuanzong, "General Nikolai Yudenich")."""
    words = label.split()
    while len(words) > 1 and words[0] in _HONORIFICS:
        words = words[1:]
    return " ".join(words)


def _personal_name(label: str) -> bool:
    """Whether a label reads like a person's name: 2-4 capitalised words, no digits, no connector
    ("Georg Riedel", "Joh Keun-shik"; not "Bank of America")."""
    words = label.split()
    return 2 <= len(words) <= 4 and all(w[:1].isupper() and not any(c.isdigit() for c in w) for w in words)


def _acronym(label: str) -> str:
    """"U.S." -> "US"; "" unless the label is all capitals and dots (2-6 letters)."""
    letters = _ABBREV.sub("", label)
    return letters if 2 <= len(letters) <= 6 and letters.isupper() and " " not in label.strip() else ""


_THING_PARTICIPLES = frozenset({"hold", "locate", "situate", "base", "found", "establish", "build", "open", "stage",
                                "release", "publish", "broadcast", "film", "record", "produce", "direct", "design",
                                "compose", "write", "name"})
"""Verbs whose passive participle after a thing's name and a comma says something of that thing, not of the clause's
subject ("He won the race at the Championships, held in Giavera")."""
_RELATIONAL_NOUNS = frozenset({"part", "one", "home", "site"})
"""Nouns that say how a thing relates to another ("part of the Venera programme", "home to"), no class of it."""
_SURNAME_JOINERS = {"y", "e", "i"}
"""Words joining a father's and a mother's surname in Spanish, Portuguese and Catalan names."""
_SURNAME_PARTICLES = {"de", "da", "do", "dos", "das", "del"}
"""Particles before a last surname in Iberian names."""
_SURNAME_LINKS = frozenset(_SURNAME_JOINERS | _SURNAME_PARTICLES)


def _writes_out(title: list[str], name: list[str]) -> bool:
    """Whether the lead's subject ``name`` writes out the title (folded words): with more names around it ("Ferit
    Orhan Pamuk" under "Orhan Pamuk", "Guillermo del Toro Gómez", "Basílica de la Sagrada Família") or its
    abbreviation in full ("Arsenal Women Football Club" under "Arsenal Women F.C.") or with middle names between its
    first and last word ("Nadia Elena Comăneci" under "Nadia Comăneci")."""
    n = len(title)
    if any(name[j:j + n] == title for j in range(len(name) - n + 1)):
        return True
    if 2 <= n < len(name) <= n + 2 and name[0] == title[0] and name[-1] == title[-1]:
        rest = iter(name[1:-1])
        if all(w in rest for w in title[1:-1]):  # the title's inner words in the name's order
            return True
    if 2 <= n < len(name) <= n + 6 and name[0] == title[0] and name[-1] != title[-1] and title[-1] in name[1:-1] \
            and name[name.index(title[-1], 1) + 1] in _SURNAME_JOINERS:
        rest = iter(name[1:])  # "Diego José Pedro Víctor Portales y Palazuelos" under "Diego Portales": a surname
        return all(w in rest for w in title[1:])  # joined to another by "y", "e" or "i"
    k = next((i for i, w in enumerate(title) if len(w) == 1), n)
    return 0 < k < n and name[:k] == title[:k] and all(len(w) == 1 for w in title[k:]) and \
        [w[0] for w in name[k:]] == title[k:]


def _initials(label: str) -> str:
    return "".join(w[0] for w in label.split() if w[:1].isupper())


class _Reader:
    """One parsed text: mentions -> canonical entities -> classes and relations."""

    def __init__(self, doc: Any, title: str):
        self.doc, self.title, self.text = doc, title, doc.text
        self.ents: list[_Entity] = []
        self.by_key: dict[str, int] = {}
        self.mentions: list[_Mention] = []
        self.token_mention: dict[int, _Mention] = {}
        self.relations: dict[tuple[str, str, str], ExtractedRelation] = {}
        self.title_entity: int | None = None
        self.gender: dict[int, str] = {}
        """"m" or "f" once a he/she has resolved to the entity."""
        self.sent_starts = [s.start for s in doc.sents]
        """The first token of each sentence, in order."""
        self.headline = ""
        """The title as given, even when the text does not write it so (``title`` is then "")."""
        self.ner_labels: dict[int, Counter] = {}
        """Per entity, the NER labels of its name mentions (its coarse kind is their majority)."""
        self.roles: dict[str, int] = {}
        """A role NER read with the name it is of (folded "Rebbe of Chabad") -> that name's entity: what the rule
        reader finds of the whole is the name's."""
        self.merged: dict[int, int] = {}
        """Entities found to be another's name ("known as") -> that one: their mentions are its."""
        self.people: set[int] = set()
        """Entities a he/she, a person noun ("a singer") or "born"/"died" shows to be people (NER's
        PERSON alone is not enough: it calls bands and albums persons)."""
        self.coordinated: set[frozenset[int]] = set()
        """Pairs of names sharing a plural class noun ("Tyrrell and Washington Counties"): two of a kind, unrelated."""

    # ---- entities ---------------------------------------------------------------------------
    def entities(self) -> list[ExtractedEntity]:
        used = {r.source for r in self.relations.values()} | {r.target for r in self.relations.values()}
        out = []
        for i, e in enumerate(self.ents):
            if i in self.merged:
                continue
            out.append(ExtractedEntity(e.label, "value" if e.kind == "VALUE" else "",
                                       tuple(sorted(a for a in e.aliases if a != e.label))))
        out += [ExtractedEntity(c, "class") for c in sorted(used - {e.label for e in self.ents})]
        return out

    def _entity(self, label: str, kind: str, placed: bool = False) -> int:
        """The entity a name stands for: an earlier one it abbreviates, or a new one. ``placed``: a place NER read
        after "in", "at" or "near" ("based in Bologna"), no one's surname."""
        key = fold(label)
        bare = key[4:] if key.startswith("the ") else "the " + key
        if key not in self.by_key and bare in self.by_key:
            key = bare  # "The Showdown" and "Showdown": one entity
        if key in self.by_key and fold(_without_legal_form(self.ents[self.by_key[key]].label)) != key and \
                kind != "VALUE" and not (self.by_key[key] == self.title_entity and key == fold(self.title)):
            # (not the article's own name, nor a company's without its legal form: "Solvay" of "Solvay S.A.")
            later = self._short_form(label, kind)  # a short form read before its person was named:
            if later is not None and self.ents[later].label.split()[-len(label.split()):] == label.split():
                self.ents[self.by_key[key]].aliases.discard(label)  # "Burns" is Mr. Burns once he is named
                self.by_key[key] = later
                self.ents[later].aliases.add(label)
        if key in self.by_key:
            known = self.ents[self.by_key[key]]
            if known.kind == "PROPN" and kind not in ("PROPN", "VALUE"):
                known.kind = kind  # the title line had no type; its first sentence does
            return self.by_key[key]
        idx = self._full_title_name(label, kind)
        if idx is None:
            idx = self._short_form(label, kind, placed)
        idx = self.merged.get(idx, idx)  # ("Lovelace" of a "Countess of Lovelace" found to be Ada King's title)
        bare = fold(_without_legal_form(label))
        if idx is None and bare != key and bare in self.by_key and kind != "VALUE":
            idx = self.by_key[bare]  # "Dollar General", then "Dollar General Corporation": one company
        if idx is None:
            idx = len(self.ents)
            self.ents.append(_Entity(label, kind))
        self.ents[idx].aliases.add(label)
        self.by_key[key] = idx
        for short in (_subtitle(label), _without_legal_form(label), *_nicknamed(label)):  # "The Lord of the Rings:
            if short and short != label and fold(short) not in self.by_key:  # The Fellowship of the Ring", "Solvay
                self.ents[idx].aliases.add(short)  # S.A." (before any Solvay of the text, whose surname it is not),
                self.by_key[fold(short)] = idx     # Leon Bismark "Bix" Beiderbecke's "Bix" and "Bix Beiderbecke"
        return idx

    def _full_title_name(self, label: str, kind: str) -> int | None:
        """The article's subject named in full ("Gary Allan Anderson" under the title "Gary Anderson"):
        the title entity, now labelled with the full name (the title stays an alias) unless an edge
        already carries its label; a new entity, the title's, when the text has not named the title yet (the title
        line is not read). A title with an initial is a person's name, whatever NER calls its full form."""
        t = self.title_entity
        named = ("PERSON", "PROPN") if not re.search(r"\b[A-Z]\.", self.title) else ("PERSON", "PROPN", "ORG")
        if not self.title or kind not in named or t is not None and self.ents[t].kind not in named:
            return None
        if not _expands(self.ents[t].label if t is not None else self.title, label):
            return None
        if t is None:
            self.title_entity = len(self.ents)
            self.ents.append(_Entity(label, kind, {self.title}))
            self.by_key[fold(self.title)] = self.title_entity
            return self.title_entity
        old = self.ents[t].label
        if self.ents[t].kind == "PROPN":
            self.ents[t].kind = kind  # the title line had no type; the full name has
        if not any(old in (r.source, r.target) for r in self.relations.values()):
            self.ents[t].aliases.add(old)
            self.ents[t].label = label
        return t

    def _short_form(self, label: str, kind: str, placed: bool = False) -> int | None:
        """An earlier, longer entity this name is a short form of (unique, or the first mentioned):
        a surname or first name of a person (also of a group named after them; "Xuanzong" of "Xuanzong of Tang"),
        with a title ("Emperor Xuanzong"), an acronym, the name without its last words or its legal form, the
        article's subject without its first words. A ``placed`` name ("based in Bologna") is no one's surname."""
        if kind == "VALUE":
            return None
        bare = _untitled(label)
        if bare != label and kind in ("PERSON", "PROPN"):
            k = self.by_key.get(fold(bare))
            k = self._short_form(bare, kind) if k is None else k
            if k is not None and self.ents[k].kind != "VALUE" and self._person(k):
                return k  # "Emperor Xuanzong" of Xuanzong (of Tang); not "Captain America" of America
        words = label.split()
        acro = _acronym(label)
        t = self.title_entity
        if t is not None and len(words) == 1 and kind in ("PERSON", "PROPN", "ORG", "GPE"):
            given = _given_names(self.ents[t].label)
            # the name without its accents too ("Raicevic" of Ljiljana Raičević), which NER, not knowing it, may
            # call an organisation or a place
            ends = (given[0], given[-1], *_paternal_surname(given))
            spelt = label in ends if kind in ("PERSON", "PROPN") else \
                label not in given and fold(label) in {fold(w) for w in ends}
            if _personal_name(" ".join(given)) and spelt and \
                    named_kind(self.ents[t].label, None) in (None, PERSON) and \
                    not any(noun_kind(c) not in (None, PERSON) for c in self.ents[t].classes):
                # not "Holmenkollen" of "... Ski Museum", nor "Bambi" of the film "Bambi II"
                return t  # "Riedel", "Joh" in the article on Georg Riedel, Joh Keun-shik; "Jones" of "Alan Jones AO"
        if t is not None and len(words) == 1 and name_head(self.ents[t].label) == (label, True):
            return t  # "The Peace extended ..." in the article on the Peace of Westphalia
        if t is not None and len(words) >= 2 and kind not in _PLACE | {"NORP", "PERSON"} and \
                self.ents[t].kind != "PERSON" and self.ents[t].label.split()[-len(words):] == words:
            return t  # "the Ski Museum" in the article on the Holmenkollen Ski Museum
        if kind in ("PERSON", "PROPN", "ORG", "GPE", "NORP") and words[-1][:1].isupper() and not placed:
            # people: NER's, unless their classes or name say not, and those the text shows so
            # (compared without accents: "Raicevic" is Ljiljana Raičević)
            folded = [fold(w) for w in words]
            people = [(i, [x for w in given for x in fold(w).split()]) for i, e in enumerate(self.ents)
                      if self._person(i) and len(given := _given_names(e.label)) > len(words)]  # ("Curie" of
            #                                                                           "Skłodowska-Curie": a part)
            for i, ew in people:  # a surname first ("Burns" is Mr. Burns, not "Burns Verkaufen der Kraftwerk"),
                if ew[-len(words):] == folded or len(words) == 1 and folded == list(_paternal_surname(ew)):
                    return i  # (or the first of two: "Machado" of Joaquim Maria Machado de Assis)
            for i, ew in people:  # then a first name ("Ann" is Ann Savoy; "Larry King" is a whole name, not
                if len(words) == 1 and ew[:1] == folded:  # the show "Larry King Live" NER calls a person)
                    return i
        band = _BAND.fullmatch(label)
        for i, e in enumerate(self.ents):
            if e.kind == "VALUE" or len(e.label) <= len(label):
                continue
            other = _BAND.fullmatch(e.label) if band else None
            if other and other.group(2) == band.group(2) and \
                    band.group(1).split() in (other.group(1).split()[-1:], other.group(1).split()[:1]):
                return i  # "James and the Shondells" of "Tommy James and the Shondells"
            ew = e.label.split()
            if acro and _initials(e.label) == acro or _without_legal_form(e.label) == label:
                return i  # "U.S." of "United States"; "Bigpoint" of "Bigpoint GmbH"
            if kind != "PERSON" and e.kind != "PERSON" and len(words) < len(ew) and ew[:len(words)] == words \
                    and len(words) >= 2 and not (kind in _PLACE and ew[len(words)][:1].isupper()) and \
                    not (ew[len(words)][:1].isupper() and noun_kind(ew[-1]) in (ORGANIZATION, PLACE, EVENT)) and \
                    not re.fullmatch(r"\d{4}", " ".join(ew[len(words):])) and ew[len(words)][:1] not in "–—-":
                return i  # "Legal faculty of St Petersburg University" ... "Legal faculty"; a name naming
                #           a longer one's organisation or place ("Northern Territory" of "Northern Territory Force")
                #           is that name's own thing; a place naming
                #           a longer name ("North Carolina" of "North Carolina State Park") is the place, an event
                #           its edition's ("Eurovision Song Contest" of "Eurovision Song Contest 1977") the event,
                #           and a name before a dash the whole of its unit ("IBM Research" of "IBM Research – Brazil")
        return None

    def _spans(self, sent: Any, glosses: dict[tuple[int, int], int]) -> list[tuple[int, int, str]]:
        """(first token, end token, kind) of the names and values of a sentence, longest first (``glosses``: the
        sentence's ``_glosses``, whole names too)."""
        doc = self.doc
        spans: list[tuple[int, int, str]] = []
        cut: set[int] = set()  # where a span NER read as one was cut into two names: no proper-noun run goes on over it
        for ent in sent.ents:
            kind = ent.label_
            if kind in _VALUE_NER:
                if kind == "CARDINAL" and not any(_counted(t) for t in ent) or not _valued(ent):
                    continue  # "two", "one of": no node; nor "the thirty-sixth", which NER calls a date
                start = ent.start
                if ent[0].text in _MONTHS and start > sent.start and re.fullmatch(r"\d{1,2}", doc[start - 1].text):
                    start -= 1  # "13 April 1941": NER often leaves the day out
                if start - 2 >= sent.start and _season_dash(doc, start - 1):
                    start -= 2  # "the 1990–91 season": one season, which NER cuts at its dash
                spans += [(a, b, "VALUE") for a, b in _parts(doc[start:ent.end], _RANGE_SEP)]
                for k, dash in ((start - 2, start - 1), (ent.end + 1, ent.end)):  # "(1941–1944)": NER may
                    if sent.start <= k < sent.end and doc[dash].text in ("–", "—", "-") and \
                            re.fullmatch(r"\d{3,4}", doc[k].text):  # type one end of a range only
                        spans.append((k, k + 1, "VALUE"))
            elif kind in _ENTITY_NER:
                if len(ent) == 1 and ent.start == sent.start and ent[0].pos_ == "NOUN":
                    continue  # "Guest star Leland Orser ...": a common noun capitalised by the sentence
                if kind in ("ORG", "PERSON", "GPE", "NORP") and len(ent) > 1 and re.fullmatch(r"\d{4}", ent[0].text) and \
                        not _event_word(ent[-1].text):
                    spans.append((ent.start, ent.start + 1, "VALUE"))  # "the NFL champion 1957 Lions": a team's
                    ent = doc[ent.start + 1:ent.end]                   # season, not an edition; "a 2001 French film"
                named = doc[ent.start + (ent[0].lower_ == "the"):ent.end]  # (NER's organisation may take "the")
                if kind in ("PERSON", "ORG") and len(named) > 2 and named[0].text in _DEMONYM_NOUNS:
                    ent, kind = named[1:], "PERSON"  # "his fellow Finn Ville Ritola", "the Frenchman René Caillié"
                    #                                  (NER's organisation): a Finn, a Frenchman, named ...
                first = doc[ent.start - 1] if ent.start > sent.start else None
                if kind == "PERSON" and first is not None and first.ent_type_ == "GPE" and first.ent_iob_ == "B" and \
                        first.pos_ == "PROPN" and first.dep_ == "compound" and ent.start <= first.head.i < ent.end:
                    spans = [x for x in spans if x[:2] != (first.i, first.i + 1)]  # "France Prešeren": a first name
                    ent = doc[first.i:ent.end]  # NER took for a country, whose word the name's parse holds
                if kind in ("ORG", "EVENT", "FAC") and ent.start > sent.start and \
                        re.fullmatch(r"\d+(?:st|nd|rd|th)", doc[ent.start - 1].text):
                    ent = doc[ent.start - 1:ent.end]  # "the 2nd SS Panzer Division": NER's ORDINAL is the name's
                seps = _PLACE_SEP if kind in ("GPE", "LOC", "FAC") else {":", ";"} if kind == "ORG" else set()
                end = ent.end
                while end - 1 > ent.start and doc[end - 1].is_lower and doc[end - 1].pos_ in ("ADP", "DET", "CCONJ"):
                    end -= 1  # "the Cabinet Office of Tony Blair": NER's ORG ends in "of" where the person begins
                opened = [t.i for t in ent if t.text == "("]
                if opened and opened[-1] > ent.start and not any(t.text == ")" for t in doc[opened[-1]:end]):
                    end = opened[-1]  # "the Vasa Museum (Vasamuseet)": NER's ORG took the bracket, not its close
                ent = doc[ent.start:end]
                while end - 1 > ent.start and doc[end - 1].text == ",":
                    end -= 1  # "Born at Statfold, Staffordshire, Pipe-Wolferstan ...": NER's ORG took the comma
                if end < ent.end and kind == "ORG" and not _LEGAL_FORM.search(doc[ent.start:end].text):
                    ent, seps = doc[ent.start:end], {",", ":", ";"}  # and is two places
                for a, b in _parts(ent, seps):  # "Athens, Ohio", "Asher: Mishal": two
                    two = _two_names(doc[a:b])
                    spans += [(x, y, kind if len(two) == 1 else "PROPN") for x, y in two]
                    cut |= {two[0][1]} if len(two) == 2 else set()
        for t in sent[1:-1]:  # "The Horn Blows at Midnight (1945)": a bracketed year NER left untyped
            if doc[t.i - 1].text == "(" and doc[t.i + 1].text == ")" and re.fullmatch(r"1\d{3}|20\d{2}", t.text) and \
                    not any(a <= t.i < b for a, b, _ in spans):
                spans.append((t.i, t.i + 1, "VALUE"))
        quoted = [(a, b, "WORK_OF_ART") for a, b in _quoted_titles(sent) + _dashed_titles(sent) + list(glosses)]
        quoted += [(a, b, "PROPN") for a, b in _the_titles(sent) if not any(a < y and x < b for x, y, _ in quoted)]
        quoted += [(a, b, "WORK_OF_ART") for a, b in _bracketed_titles(sent)
                   if not any(a < y and x < b for x, y, _ in quoted)]
        for a, b, _ in list(quoted):  # Jamie "El Russo" Gosis: a nickname between a person's names is in the name
            if b + 1 < sent.end and self._nickname(a, b):
                first = a - 2
                while first - 1 >= sent.start and doc[first - 1].pos_ == "PROPN" and doc[first - 1].is_title:
                    first -= 1  # (with every given name before it: Leon Bismark "Bix" Beiderbecke)
                quoted[quoted.index((a, b, "WORK_OF_ART"))] = (first, b + 2, "PERSON")
        typed = list(spans)
        i = sent.start
        while i < sent.end:  # proper-noun runs (whole names NER may cut)
            if doc[i].pos_ != "PROPN" or self._describes_name(i, sent.end) or \
                    doc[i].is_lower and doc[i].lower_ not in _NAME_INNER and i + 1 < sent.end and \
                    doc[i + 1].text in _ARTICLES or \
                    i == sent.start and not doc[i].ent_type_ and i + 1 < sent.end and \
                    doc[i + 1].text == "," and doc[i].dep_ in ("advcl", "advmod", "npadvmod"):
                i += 1  # "Downstream, the river passes ...": an adverb the small model tags as a name
                continue
            j = i + 1
            article = int(j + 1 < sent.end and doc[j + 1].lower_ == "the")
            of_the = j + 1 + article < sent.end and doc[j].lower_ == "of" and doc[j + 1 + article].pos_ == "PROPN" \
                and doc[j + 1 + article].is_title and _event_or_law_head(doc[i])
            j += 1 + article if of_the else 0  # "the Treaty of the Pyrenees", "the Battle of Quatre Bras"
            foreign = series = owned = False  # a title in a language written in sentence case: "La Dame aux
            #                                   camélias"; a series' work; a title with a possessive
            while j < sent.end:
                t = doc[j]
                if doc[i].text in _ARTICLES and j - i <= 5 and _foreign_words_go_on(doc, j, sent.end):
                    j, foreign = j + 1, True
                elif t.pos_ == "PROPN" and not (t.is_lower and t.is_alpha and doc[j - 1].ent_type_ == "NORP") or \
                        (t.text in (".", "'") and doc[j - 1].is_upper and len(doc[j - 1]) <= 2) or \
                        re.fullmatch(r"[dl]['’][A-ZÀ-Þ]\w*", t.text):  # "Ballon d'Or": an elided particle and word
                    j += 1
                elif t.text == ":" and j + 1 < sent.end and doc[j + 1].is_title and self._series_so_far(i, j):
                    j, series = j + 1, True  # "followed by The Legend of Zelda: Majora's Mask", under a title of
                    #                          that series: one work, whatever NER made of its two parts
                elif series and t.tag_ == "POS" and j + 1 < sent.end and doc[j + 1].pos_ == "PROPN":
                    j += 1
                elif t.tag_ == "POS" and j + 1 < sent.end and doc[j + 1].is_title and doc[j + 1].is_alpha and \
                        i - 1 > sent.start and doc[i - 1].text == "The":  # "The Shepherd's Calendar": a capital
                    j, owned = j + 2, True  # "The" mid-sentence begins a title, whose possessive is in it
                elif t.lower_ in _NAME_INNER and j + 1 < sent.end and doc[j + 1].pos_ == "PROPN" \
                        and doc[j + 1].text[:1].isupper() and t.whitespace_ and t.lower_ != "and" and j not in cut:
                    j += 1
                elif t.text == "/" and j + 1 < sent.end and len(doc[j - 1]) == len(doc[j + 1]) == 1 and \
                        doc[j - 1].is_upper and doc[j + 1].is_upper:  # "Novo Nordisk A/S"
                    j += 2
                elif t.text in ("-", "–", "&") and j + 1 < sent.end and doc[j + 1].pos_ == "PROPN" \
                        and doc[j + 1].ent_type_ not in _VALUE_NER and j not in cut:  # not "Ohio–December 3, 1912"
                    j += 1
                elif t.text == "–" and j + 1 < sent.end and not doc[j - 1].whitespace_ and not t.whitespace_ and \
                        doc[j + 1].text[:1].isupper() and doc[j + 1].is_alpha and doc[j + 1].text not in _MONTHS and \
                        doc[j + 1].ent_type_ != "NORP" and j not in cut:  # "the TI–Raleigh team": a dashed name's
                    j += 2  # last part, which the parse may tag as an adjective (not "a Soviet–North Korean airline")
                elif _model_number(t.text) and not (j + 1 < sent.end and doc[j + 1].lower_ in
                                                     ("to", "-", "–", "—", ":", "and", "or")):
                    # "Billboard Hot 100", "Falcon 9", "Xbox 360", "Nokia 3310"; not a score ("Great Britain 11 to
                    # 1") nor a year ("Nokia 1998")
                    j += 1
                    break
                else:
                    break
            # "the Five Mile Point Lighthouse": a capitalised number word mid-sentence begins the name; so does a
            # foreign article ("performed by Os Amigos"), at the sentence's start where the parse puts it in the name
            before = doc[i - 1] if i > sent.start else None
            first = i - 1 if before is not None and (before.is_title and before.like_num and before.is_alpha and
                                                     i - 1 > sent.start or before.text in _ARTICLES and
                                                     (i - 1 > sent.start or i <= before.head.i < j)) else i
            h = i
            while h < j - 1 and doc[h].text in _HONORIFICS:
                h += 1
            if j + 4 < sent.end and doc[j].is_lower and doc[j].pos_ == "NOUN" and doc[j + 1].text == "(" and \
                    doc[j + 2].lower_ == doc[j].lower_ and doc[j + 3].lower_ == "of" and doc[j + 4].is_title and \
                    len({k for a, b, k in typed if a < j and b > i}) < 2:
                # "the Sistine chapel (chapel of Nativity)": a noun the parenthesis restates, as the noun of another
                # name, heads the name ("the Chicago area (area code 312)" is no name); NER's
                spans = [x for x in spans if not i <= x[0] < j] + [(first, j + 1, "PROPN")]  # type was the modifier's
            elif of_the or foreign or series or owned:  # one name, whatever kinds NER gave its parts
                if first == i and i > sent.start and doc[i - 1].text == "The" and \
                        (owned or series and fold(self.title).startswith("the ")):
                    first = i - 1  # the title's own capital "The"
                spans = [x for x in spans if not (x[0] < j and x[1] > i)] + \
                    [(first, j, "WORK_OF_ART" if foreign or series or owned else "PROPN")]  # (a work's title)
            elif len({k for a, b, k in typed if a < j and b > i}) < 2:  # "Confederate General J. Johnston
                spans.append((first, j, "PROPN"))  # Pettigrew" spans an ORG and a PERSON: those two, not one name
            elif h > i and {k for a, b, k in typed if a < j and b > h} == {"PERSON"}:  # "Bishop Abel Muzorewa",
                spans = [x for x in spans if not i <= x[0] < h] + [(h, j, "PERSON")]  # NER's "Bishop" an ORG
            else:  # "Roger Taylor of Duran Duran": two names, each whole where NER cut it ("Duran")
                cuts = [i] + [k + 1 for k in range(i, j) if doc[k].lower_ in _NAME_INNER and doc[k].is_lower] + [j + 1]
                for a, b in zip(cuts, cuts[1:]):
                    if b - 1 - a >= 2 and len({k for x, y, k in typed if x < b - 1 and y > a}) == 1:
                        spans.append((a, b - 1, "PROPN"))
            i = j
        for a, b in _hyphened_names(sent):  # "Carrick-on-Shannon", whose halves NER typed apart: one place
            kinds = {k for x, y, k in spans if a <= x and y <= b}
            spans = [x for x in spans if not (a <= x[0] and x[1] <= b)] + \
                [(a, b, next(iter(kinds)) if len(kinds) == 1 else "GPE" if kinds & _PLACE else "PROPN")]
        spans = [(a, b, k) for a, b, k in spans if not (  # "(Italian: Il Gattopardo)", "(...; Italian: Cattaro)": the
            a > sent.start and doc[a - 1].text in ("(", ";") and b < sent.end and doc[b].text == ":" and b - a <= 2)]
        merged: list[tuple[int, int, str]] = list(quoted)  # a quoted title is whole, whatever NER cut in it
        for s, e, kind in sorted(spans, key=lambda x: (x[0], -(x[1] - x[0]))):
            over = [m for m in merged if s < m[1] and e > m[0]]
            if not over:
                merged.append((s, e, kind))
                continue
            m = over[0]
            if "VALUE" in (kind, m[2]) or len(over) > 1:
                continue
            if "PROPN" in (kind, m[2]):  # a name NER cut short, or a run NER typed: the whole, NER's type
                merged[merged.index(m)] = (min(s, m[0]), max(e, m[1]), kind if m[2] == "PROPN" else m[2])
        return self._event_names(self._band_names(self._year_names(sorted(merged))), sent.end)

    def _describes_name(self, i: int, end: int) -> bool:
        """Whether token ``i`` only describes the name after it, which the parse runs into one proper noun: a nation's
        noun or a person noun before a name NER reads as a person ("Frenchman Joseph Guillemot", "the Swiss
        *Esperantist* Hector Hodler"), a nationality NER reads apart before two or more capitalised words ("the
        *Algerian* Noureddine Morceli"; not "Swiss Re", "the Scottish Premier League")."""
        doc = self.doc
        if i + 1 >= end or doc[i + 1].pos_ != "PROPN":
            return False
        if doc[i].text in _DEMONYM_NOUNS:
            if doc[i].text.endswith(("man", "woman")) and i + 2 < end and doc[i + 2].pos_ == "PROPN":
                return True  # no name begins with "Frenchman" (as one may with "Finn" or "Scot")
            if doc[i].ent_type_ in ("PERSON", "ORG") and doc[i + 1].ent_iob_ == "I" and (
                    doc[i].ent_iob_ == "B" or i > 0 and doc[i - 1].ent_iob_ == "B" and doc[i - 1].lower_ == "the"):
                k = i + 1
                while k < len(doc) and doc[k].ent_iob_ == "I":
                    k += 1
                if k - i > 2:
                    return True  # NER's organisation or person of both ("his fellow Swede Gunder Hägg")
        if doc[i + 1].ent_type_ == "PERSON" and (doc[i].text in _DEMONYM_NOUNS or is_person_noun(doc[i].lower_)
                                                  and doc[i].text not in _HONORIFICS | _PEERAGE):
            return True  # (a title stays: "Emperor Xuanzong" is read as the emperor's name elsewhere)
        nationality = doc[i].ent_type_ == "NORP" and doc[i].ent_iob_ == "B" and doc[i + 1].ent_type_ != "NORP" or \
            not doc[i].ent_type_ and country_named(doc[i].text) is not None
        last = i + 1
        while last + 1 < end and doc[last + 1].pos_ == "PROPN" and doc[last + 1].text[:1].isupper():
            last += 1
        return nationality and last > i + 1 and doc[i + 1].ent_type_ in ("", "PERSON") and \
            noun_kind(doc[last].lower_) is None  # a person's name, not "the Scottish Premier League"

    def _event_names(self, spans: list[tuple[int, int, str]], end: int) -> list[tuple[int, int, str]]:
        """"the Beslan school massacre", "the Challenger disaster", "Iranian election protests", "the Comstock laws": a
        name and the lower-case nouns it modifies, ending in an event noun (or "laws"), are one name, of an event (a
        law). ``end``: where the sentence ends."""
        doc, out = self.doc, []
        for k, (s, e, kind) in enumerate(spans):
            j = e
            while j < min(e + 2, end) and doc[j].is_lower and doc[j].pos_ == "NOUN" and \
                    doc[j].lower_ not in _EVENT_NOUNS:
                j += 1
            if kind != "VALUE" and j < end and doc[j].is_lower and doc[j].lower_ in _EVENT_NOUNS and \
                    doc[j].pos_ == "NOUN" and e <= doc[e - 1].head.i <= j and \
                    not (j + 1 < end and doc[j + 1].pos_ in ("NOUN", "PROPN")) and \
                    (k + 1 == len(spans) or spans[k + 1][0] > j):
                out.append((s, j + 1, "LAW" if doc[j].lower_ in ("law", "laws") else "EVENT"))
            else:
                out.append((s, e, kind))
        return out

    def _band_names(self, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        """"Tommy James and the Shondells", "Bob Marley & the Wailers": a person's name, "and the" and a plural name
        (not a country's nor a people's: "Canada and the United States", "Hitler and the Nazis"; nor after a plural:
        "the 2006 Colts and the 2015 Broncos") are one group's name, unless a list runs into it ("A, B and the Cs")."""
        doc, out = self.doc, []
        for s, e, kind in spans:
            joined = [t.lower_ for t in doc[out[-1][1]:s]] if out else []
            if out and doc[out[-1][1] - 1].lower_ in ("and", "&"):  # NER may keep the "&" ("Bob Marley &")
                joined.insert(0, doc[out[-1][1] - 1].lower_)
            if out and kind not in ("GPE", "NORP", "VALUE") and doc[s].text[:1].isupper() and \
                    (out[-1][2] == "PERSON" or out[-1][2] == "PROPN" and not doc[out[-1][1] - 1].lower_.endswith("s")) \
                    and joined in (["and", "the"], ["&", "the"]) and re.fullmatch(r"[A-Z]\w*[^s\W]s", doc[e - 1].text) \
                    and not (out[-1][0] > 0 and doc[out[-1][0] - 1].text == ","):
                s = out.pop()[0]
                kind = "ORG"
            out.append((s, e, kind))
        return out

    def _year_names(self, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        """"the 2004 Summer Olympics", "the 1985 World Cup": a year between "the" and an event's name is part
        of the name (the edition), not a date of it (a team's season is not: "the 1957 Lions"); so is a year right
        after an event's name ("the Eurovision Song Contest 1977")."""
        doc, out = self.doc, []
        for s, e, kind in spans:
            if out and kind == "VALUE" and out[-1][0] < s and e <= out[-1][1]:
                continue  # the edition year the name before took
            if kind != "VALUE" and e < len(doc) and not doc[e].is_sent_start and _edition_year(doc[e], kind):
                e += 1
            if out and kind != "VALUE" and out[-1][1] == s and s >= 2 and \
                    re.fullmatch(r"\d{4}", doc[s - 1].text) and doc[s - 2].lower_ == "the" and \
                    out[-1][0] >= s - 2 and doc[s].text[:1].isupper() and \
                    (_event_word(doc[e - 1].text, kind) or doc[e - 1].text in ("Census", "Budget", "Report")):
                out.pop()
                s -= 1
            out.append((s, e, kind))
        return out

    def _mention(self, start: int, end: int, kind: str) -> None:
        doc = self.doc
        shared = kind != "VALUE" and end - start >= 2 and doc[end - 1].tag_ == "NNPS" and start >= 2 and \
            doc[start - 1].lower_ in _COORDINATORS and noun_kind(singular(doc[end - 1].lower_)) == PLACE
        if shared:  # "Tyrrell and Washington Counties": two counties, the last named "Washington" (``_shared_heads``);
            end -= 1  # the head stays in its mention, which the parse's paths reach through it
        article = doc[start].text == "The" and not doc[start].is_sent_start and kind != "VALUE" and end - start > 1
        while not article and start < end and (doc[start].lower_ in _DETS or doc[start].is_punct or
                                               kind == "VALUE" and doc[start].pos_ in ("ADP", "ADV", "CCONJ")):
            start += 1
        cut = next((t.i for t in doc[start + 1:end] if t.lower_ in ("and", "&", ",") and
                    (t.i + 1 >= end or not doc[t.i + 1].text[:1].isupper()) and
                    not (kind == "ORG" and doc[t.i + 1].lower_ == "the")), end)  # not "Tommy James and the Shondells"
        end = cut if kind not in ("VALUE", "WORK_OF_ART") else end  # "Sable University and its economists"
        if kind == "VALUE":  # "December 3, 1912 in Alhambra, California": the date only
            end = next((t.i for t in doc[start + 1:end] if t.pos_ == "ADP" and t.lower_ in ("in", "at", "near")), end)
            core = [t.i for t in doc[start:end] if _value_word(t)]
            if not core:
                return  # "the same year", "recent years": no value to keep
            start = core[0]  # "more than 100 years later", "the early 1930s", "spring 2003": the value itself
            if start > 0 and doc[start - 1].tag_ == "$" and doc[start - 1].ent_type_ == "MONEY":
                start -= 1  # "$30 million", "US$5 million": the currency is part of the amount
            while end - 1 > core[-1] and (doc[end - 1].pos_ in ("ADV", "ADJ", "PUNCT", "CCONJ") or
                                          doc[end - 1].lower_ in _AFTER_VALUE):  # (not "1983 and")
                end -= 1
        if kind == "ORG":  # "Generalfeldmarschall Erwin Rommel", "Co-Producer Keiji Inafune": NER's organisation
            k = start    # is a person after a title
            while k < end - 2:
                word = next((j for j in range(k, end) if doc[j].whitespace_ or j == end - 1), k)
                if doc[k:word + 1].text not in _HONORIFICS:
                    break
                k = word + 1
            if start < k <= end - 2 and all(t.text[:1].isupper() and t.pos_ == "PROPN" and noun_kind(t.text) is None
                                            or t.is_lower and t.lower_ in _NAME_INNER and k < t.i < end - 1
                                            for t in doc[k:end]) and name_kind(doc[k:end].text) is not False:
                start, kind = k, "PERSON"  # not "King Edward College", "Major League Baseball"
        if kind in ("PERSON", "PROPN"):  # "General Nikolai Yudenich", "Confederate General J. Johnston Pettigrew",
            titles = [t.i for t in doc[start:max(start, min(start + 4, end - 2))]  # "prince Li Mao": the name
                      if t.text in _HONORIFICS or t.is_lower and t.lower_ not in _NAME_INNER  # after the title; not
                      and not _hyphened(doc, t.i)]  # the particle of "Neuilly-sur-Seine"
            if titles and doc[titles[-1] + 1].lower_ == "of":  # "Prosecutor General of Ukraine Viktor Pshonka": the
                k = titles[-1] + 2                                # person after the place the title is of, if known
                known = [j for j in range(end - 1, k, -1) if fold(doc[k:j].text) in self.by_key or
                         all(t.ent_type_ in _PLACE for t in doc[k:j])]
                titles = [known[0] - 1] if known else []
            start = titles[-1] + 1 if titles else start
        elif kind not in ("VALUE", "WORK_OF_ART"):  # "the eleventh ministry of the Government of ...", "the zarzuelas
            k = start                                # El barberillo de Lavapiés": the name after its description
            while k < end and doc[k].is_lower and doc[k].is_alpha and doc[k].lower_ not in _NAME_INNER:
                k += 1
            while start < k < end and doc[k].lower_ in ("of", "the"):
                k += 1
            start = k if k < end and doc[k].text[:1].isupper() else start
        while end > start and (doc[end - 1].tag_ == "POS" or doc[end - 1].is_punct and
                               not (kind == "VALUE" and doc[end - 1].text == "%")):  # "90%" is no 90
            end -= 1
        role = start if kind != "VALUE" and start > 0 and end - start > 2 and doc[start + 1].lower_ == "of" and \
            doc[start - 1].text not in _QUOTES and (_coordinated_role(doc[start]) or doc[start - 1].pos_ == "ADJ" and
                                                    doc[start - 1].is_lower and _role(doc[start].text)) else None
        if role is not None:  # "the founder and first Rebbe of Chabad", "a former Minister of Internal Affairs" (not
            # "the Duke of Wellington"): the role NER read with the name is someone's
            start, kind = start + 2, "PROPN" if kind == "WORK_OF_ART" else kind
        inner = self._nested(start, end, kind)
        while inner is not None and _role(doc[start:inner - 2].text):  # "the Superior General of the Society of Jesus":
            start, inner = inner, self._nested(inner, end, kind)    # a role of the name, no name of its own
        if start >= end or kind not in ("VALUE", "WORK_OF_ART", "PERSON") and end < len(doc) and \
                doc[end].lower_ == "of" and all(t.text[:1].isupper() for t in doc[start:end]) and \
                _role(doc[start:end].text):
            return  # "the Ambassador of Russia": a role, said of someone
        label = clean_name(doc[start:end].text, keep_article=article)
        if not label or not any(c.isalnum() for c in label) or (kind != "VALUE" and label.islower()):
            return
        if kind != "VALUE" and self.title and self.title_entity is None and fold(label) == fold(self.title):
            self.title_entity = self._entity(_as_written(label, self.title), kind)
        placed = kind == "GPE" and start > 0 and doc[start - 1].lower_ in ("in", "at", "near")
        idx = self._entity(label, kind, placed)
        if role is not None:
            self.roles[fold(doc[role:end].text)] = idx
        self.ner_labels.setdefault(idx, Counter())[_ner_vote(doc, start, kind)] += 1
        via = "alias" if fold(self.ents[idx].label) != fold(label) else ""
        if shared and doc[end].tag_ == "NNPS":
            end += 1
        m = _Mention(start, end, idx, via)
        self.mentions.append(m)
        for t in range(start, end):
            self.token_mention[t] = m
        if inner is not None:
            self._inner_name(m, inner)
        if kind != "VALUE" and end - start > 1 and _edition_year(doc[end - 1], kind):
            year = doc[end - 1].text  # "the Eurovision Song Contest 1977": held in 1977
            self._add(self.ents[idx].label, "year", self.ents[self._entity(year, "VALUE")].label, "modifier",
                      doc[start:end], doc[start].sent)

    def _gloss(self, start: int, end: int, title: _Mention) -> None:
        """A quoted title's translation is a name of that title ("Portugal no coração" ("Portugal in my heart") was
        ...), as is a name given with "also known as": a mention of its entity, where the parser may find the clause's
        subject, and a name later mentions of it are read by."""
        idx = title.entity
        alias = clean_name(self.doc[start:end].text)
        self.ents[idx].aliases.add(alias)
        self.by_key.setdefault(fold(alias), idx)  # "also known as AFC Ajax or simply Ajax": a later "Ajax" is the club
        m = _Mention(start, end, idx, "alias")
        self.mentions.append(m)
        for t in range(start, end):
            self.token_mention[t] = m

    def _nested(self, start: int, end: int, kind: str) -> int | None:
        """Where a name held in a longer one starts: after the first "of the" followed by two or more capitalised
        words ("General Congregation of *the Society of Jesus*", "Faculty of Journalism and Politics of *the
        University of Warsaw*"); None for a value, a work's title ("Return of the Jedi") or a name of one word after
        "of the" ("Battle of the Bulge", "Order of the Garter")."""
        if kind in ("VALUE", "WORK_OF_ART"):
            return None
        doc = self.doc
        for j in range(start + 1, end - 2):
            if doc[j].lower_ == "of" and doc[j + 1].lower_ == "the" and doc[j - 1].text[:1].isupper():
                words = [t for t in doc[j + 2:end] if t.is_alpha and t.lower_ not in _NAME_INNER]
                if len(words) >= 2 and all(t.text[:1].isupper() for t in words) and doc[j + 2].text[:1].isupper():
                    return j + 2
                return None
        return None

    def _inner_name(self, outer: _Mention, start: int) -> None:
        """A name held in a longer one is an entity too, which the longer one is "of" ("General Congregation of the
        Society of Jesus" -[of]-> Society of Jesus), and so on inward; a mention of it for the lead's and the
        sentence's weaker readings, read "nested" (its words are the longer name's)."""
        doc = self.doc
        inner = self._nested(start, outer.end, "PROPN")
        kinds = Counter(t.ent_type_ for t in doc[start:outer.end] if t.ent_type_ in _ENTITY_NER)
        kind = kinds.most_common(1)[0][0] if kinds else "PROPN"
        label = clean_name(doc[start:outer.end].text)
        idx = self._entity(label, kind)
        if idx == outer.entity:
            return
        self.ner_labels.setdefault(idx, Counter())[kind] += 1
        m = _Mention(start, outer.end, idx, "nested")
        self.mentions.append(m)
        sent = doc[outer.start].sent
        self._add(self.ents[outer.entity].label, "of", label, "nested", doc[outer.start:outer.end], sent)
        if inner is not None:
            self._inner_name(m, inner)

    # ---- coreference ------------------------------------------------------------------------
    def _resolve(self, sent: Any) -> None:
        """Pronouns and "the <class noun>" of a sentence -> entities (mentions with ``via``); a
        pronoun no entity agrees with, or that two could equally mean, stays unresolved."""
        title = self.title_entity
        for t in sent:
            if t.i in self.token_mention:
                continue
            low = t.lower_
            target = None
            if (t.pos_ == "PRON" or t.tag_ in ("PRP", "PRP$")) and t.text in (low, low.capitalize()):  # not "ITS"
                agree = "m" if low in _MALE else "f" if low in _FEMALE else "n" if low in _NEUTER else \
                    "p" if low in _PLURAL else ""
                target = self._antecedent(t, agree) if agree else None
                if target is not None and agree in ("m", "f") and not set(self.ents[target].classes) & _VESSELS:
                    self.people.add(target)  # (a ship is "she" and stays a thing)
                    self.gender.setdefault(target, agree)
                via = "pronoun"
            elif low == "there" and t.dep_ == "advmod" and t.head.pos_ == "VERB":  # "died there": not "there are"
                target, via = self._place_before(t), "pronoun"
            elif t.pos_ == "NOUN" and t.i > 0 and self.doc[t.i - 1].lower_ in ("the", "this") and \
                    t.dep_ not in ("compound", "amod") and not self._titles_name(t):
                nouns = {t.lemma_.lower(), t.lower_}
                if title is not None and nouns & (set(self.ents[title].classes) | self._head_noun(title)):
                    target = title
                else:
                    target = next((k for k in range(len(self.ents) - 1, -1, -1)  # (or whose name says it: "the
                                   if nouns & (set(self.ents[k].classes) | self._head_noun(k))), None)  # earthquake")
                if target is None and self.doc[t.i - 1].lower_ == "this" and t.dep_ in _SUBJ and \
                        self._topic_before(sent) and noun_kind(t.lemma_.lower()) in (
                            None, stated_kind(self.ents[title].classes)):
                    target = title  # "Laurentides was an electoral district ... *This riding* was created in 1987"
                if target is None and title is not None and t.dep_ in _SUBJ | {"poss"} and \
                        noun_kind(t.lemma_.lower()) is not None and \
                        noun_kind(t.lemma_.lower()) == (stated_kind(self.ents[title].classes) or
                                                        NER_KINDS.get(self.ents[title].kind)):
                    target = title  # "The company's headquarters are in Stockholm": the article's company
                via = "description"
            if target is not None:
                m = _Mention(t.i, t.i + 1, target, via)
                self.mentions.append(m)
                self.token_mention[t.i] = m

    def _titled_chain(self, m: _Mention, root: Any) -> list[tuple[Any, str]]:
        """The mention's chain (``_chain``); a name right after "the" and a class noun that the parse hung elsewhere
        ("the sister of the painter *Peter Ilsted*" read as a clause of the verb) stands in that noun's place."""
        doc = self.doc
        noun = doc[m.start - 1] if m.start >= 2 else None
        if noun is not None and noun.pos_ == "NOUN" and doc[m.start - 2].lower_ in _DETS and \
                noun.i not in self.token_mention and root.head.i != noun.i and root.dep_ in ("ccomp", "dep", "npadvmod"):
            return [(root, noun.dep_)] + self._chain(noun)[1:]
        return self._chain(root)

    def _titles_name(self, noun: Any) -> bool:
        """Whether a class noun stands right before a name it describes ("the sister of *the painter* Peter Ilsted")
        or in apposition after one ("Ida Ilsted, *the sister* of ..."): it says what that name is, no description of
        someone named before."""
        after = self.token_mention.get(noun.i + 1)
        if after is not None and not after.via and self.doc[noun.i + 1].pos_ == "PROPN":
            return True
        owner = self.token_mention.get(noun.head.i)
        return noun.dep_ == "appos" and owner is not None and not owner.via

    def _lead_title(self, sent: Any) -> None:
        """A title the lead's subject writes out ("Spotify" over "Spotify Technology S.A. is a Swedish ... provider")
        is that subject for short: its later mentions ("Spotify acquired Anchor FM") are the company's. In the first
        sentence naming anything, also a person's or a name with more words around the title, or the title's
        abbreviation written out (``_writes_out``: "Ferit Orhan Pamuk" under "Orhan Pamuk")."""
        if not self.title or self.title_entity is not None or not sent.text.strip():
            return
        key = fold(self.title).split()
        lead = not any(m.start < sent.start for m in self.mentions)  # the first sentence naming anything
        subject = None
        for m in self.mentions:
            if not sent.start <= m.start < sent.end or m.via or not self._subject(m) or \
                    self.ents[m.entity].kind == "VALUE":
                continue
            words = fold(self.ents[m.entity].label).split()
            prefix = self.ents[m.entity].kind != "PERSON" and words[:len(key)] == key and \
                sent.start in self.sent_starts[:2]  # (later, "Diego Portales University" is named after him)
            if words != key and (prefix or lead and _writes_out(key, words)):
                subject = m
                break
        if subject is not None and self.by_key.get(fold(self.title), subject.entity) == subject.entity:
            self.title_entity = subject.entity  # (the title may be the subject's name without its legal form)
            self.ents[subject.entity].aliases.add(self.title)
            self.by_key[fold(self.title)] = subject.entity

    def _headline_subject(self) -> None:
        """A title the text never writes ("Ada Lovelace" over "Augusta Ada King, Countess of Lovelace was an English
        mathematician") names the subject of the first sentence when it looks like a name and shares a word with it:
        an alias, so that questions naming it as the title does find it."""
        words = self.headline.split()
        if self.title or self.title_entity is not None or not 1 < len(words) <= 6 or \
                not all(w[:1].isupper() or w in _NAME_INNER for w in words) or not self.sent_starts:
            return
        first = next(iter(self.doc.sents))
        first = first if first.text.strip() else next(iter(list(self.doc.sents)[1:]), None)
        subject = next((m for m in self.mentions if first is not None and first.start <= m.start < first.end and
                        not m.via and self._subject(m) and self.ents[m.entity].kind != "VALUE"), None)
        if subject is None:
            return
        e = self.ents[subject.entity]
        held = {w for name in e.aliases | {e.label} for w in fold(name).split()}
        if held & set(fold(self.headline).split()) - {"of", "the", "and", "de", "von", "van"}:
            e.aliases.add(self.headline)
            self.by_key.setdefault(fold(self.headline), subject.entity)

    def _named_as(self, sent: Any) -> None:
        """"He is also known as the "Baal HaTanya"", "Mori is known in Italy as the "Iron Prefect"", "X was nicknamed
        Y", "The Rhodesian Bush War—also called the Second Chimurenga and the Zimbabwe War of Liberation—", "Virtus
        Bologna, known for sponsorship reasons as Virtus Segafredo Bologna,": the name is another name of the
        subject or the name before, not a thing of its own, when the text names it here first (its mentions become
        the subject's), or when it is the article's title ("Amsterdamsche Football Club Ajax, also known as AFC Ajax"
        under "AFC Ajax"). Not after a description ("the southern-most section of the *municipality*, known as
        Avedøre Holme": which noun it names is unsure)."""
        for t in sent:
            also = t.i - 2 >= sent.start and self.doc[t.i - 1].lower_ == "also" and \
                self.doc[t.i - 2].text in ("—", "–", "-", ",", "(")  # "X—also called Y—", however it is parsed
            if t.lower_ not in ("known", "called", "nicknamed", "dubbed") or t.tag_ != "VBN" and not also:
                continue
            subject = next((c for c in t.children if c.dep_ in (("nsubjpass", "nsubj") if also else ("nsubjpass",))),
                           None)
            if subject is None and t.dep_ == "acl":  # "Virtus Bologna, known for sponsorship reasons as Virtus ..."
                subject = t.head
            x = self.token_mention.get(subject.i) if subject is not None else None
            names = _names_given(t)
            for name in names + [c for n in names for c in n.conjuncts]:  # "the Second Chimurenga and the ..."
                y = self.token_mention.get(name.i)
                t_ent = self.title_entity
                if x is not None and y is not None and t_ent not in (None, x.entity) and not x.via and \
                        f" {fold(self.title)} " in f" {fold(self.doc[y.start:y.end].text)} ":
                    self._merge(t_ent, x.entity)  # "Amsterdamsche Football Club Ajax, also known as AFC Ajax or
                    self.title_entity = x.entity  # simply Ajax," under the title "AFC Ajax": the title's entity
                    continue
                if x is None and y is not None and subject is not None and subject.lower_ in _MALE | _FEMALE | _NEUTER:
                    x = self._pronoun_besides(subject)  # "He is known as X": X is no one "he" could be
                if x is None or y is None or y.via or x.via == "description" or x.entity == y.entity or \
                        "VALUE" in (self.ents[y.entity].kind, self.ents[x.entity].kind) or self._named_before(y):
                    continue
                self._merge(y.entity, x.entity)

    def _pronoun_besides(self, tok: Any) -> _Mention | None:
        """The subject pronoun ``tok`` resolved as if the names after it in its sentence were not there (the names
        it is known as), as a mention, or None."""
        low = tok.lower_
        agree = "m" if low in _MALE else "f" if low in _FEMALE else "n"
        after = [m for m in self.mentions if tok.i < m.start < tok.sent.end]
        self.mentions = [m for m in self.mentions if not tok.i < m.start < tok.sent.end]
        target = self._antecedent(tok, agree)
        self.mentions += after
        if target is None:
            return None
        m = _Mention(tok.i, tok.i + 1, target, "pronoun")
        self.mentions.append(m)
        self.token_mention[tok.i] = m
        return m

    def _titled_as(self, sent: Any) -> None:
        """"Augusta Ada King, Countess of Lovelace (1815–1852) was ...", "Rupert I, Elector Palatine,": a rank of
        nobility or a throne "of" a place set off after a person's name is that person's title, another name of them
        (merged when first named here)."""
        named = sorted((m for m in self.mentions if sent.start <= m.start < sent.end and not m.via),
                       key=lambda m: m.start)
        for a, b in zip(named, named[1:]):
            words = self.ents[b.entity].label.split()
            if words[0] in _PEERAGE and (len(words) >= 3 and words[1] == "of" or len(words) == 2 and
                                         words[1] in _PLACE_TITLES) and self._person(a.entity) and \
                    self.text[self._end_char(a):self.doc[b.start].idx].strip() == "," and not self._named_before(b):
                self._merge(b.entity, a.entity)
                rank = words[0].lower()  # and of that rank: "Which elector founded ...?"
                self.ents[a.entity].classes.append(rank)
                self._add(self.ents[a.entity].label, IS_A, rank, "class", self.doc[b.start:b.start + 1], sent)

    def _named_before(self, m: _Mention) -> bool:
        """Whether the text named ``m``'s entity before ``m``: then it is a thing of its own, not another name."""
        return any(x.entity == m.entity and x.start < m.start for x in self.mentions)

    def _merge(self, old: int, into: int) -> None:
        """Entity ``old`` is another name of ``into``: its mentions and names become ``into``'s."""
        label = self.ents[old].label
        self.ents[into].aliases |= self.ents[old].aliases | {label}
        for k, i in list(self.by_key.items()):
            if i == old:
                self.by_key[k] = into
        for n, m in enumerate(self.mentions):
            if m.entity == old:
                self.mentions[n] = new = _Mention(m.start, m.end, into, m.via)  # (a name as written)
                for i in range(m.start, m.end):
                    if self.token_mention.get(i) is m:
                        self.token_mention[i] = new
        self.merged[old] = into

    def _topic_before(self, sent: Any) -> bool:
        """Whether the article's subject was the subject of the sentence before ``sent``."""
        k = self.sent_starts.index(sent.start)
        if self.title_entity is None or not k:
            return False
        start = self.sent_starts[k - 1]
        return any(m.entity == self.title_entity and start <= m.start < sent.start and self._subject(m)
                   for m in self.mentions)

    def _head_noun(self, k: int) -> set[str]:
        """A name's last word when the kinds lexicon knows it as a noun: "the county" of "Olesno County", "the
        lake" of "Liangzi Lake"."""
        words = self.ents[k].label.split()
        last = (words[words.index("of", 1) - 1] if "of" in words[1:-1] else words[-1]).lower()  # "Battle of Hastings"
        return {last} if len(words) > 1 and last in base_kinds() else set()

    def _antecedent(self, tok: Any, agree: str) -> int | None:
        """Who a pronoun means, by salience among the entities that agree with it ("m"/"f": a person of
        that gender or none known; "n": a thing; "p": a group): the subject of its own sentence before it
        ("Piazzolla augmented his quintet"; for "it" only as a possessor: "X bought it" is not X), then
        the article's subject (``_topic``), then the latest subject of the previous ``PRONOUN_REACH``
        sentences. For he/she a person already known to be of that gender goes first ("Xuanzong planted
        trees around her palace": Consort Mei's). Unsure means unresolved: two subjects of one sentence,
        or a latest subject from before while the pronoun's own sentence names another that agrees."""
        sent = tok.sent
        ahead = self._fronted_for(tok, agree)
        if ahead is not None:
            return ahead
        here = [m.entity for m in self.mentions if sent.start <= m.start < tok.i and self._subject(m)
                and self._agrees(m.entity, agree)]
        ranked: list[int] = []
        if here and (agree in ("m", "f") or tok.dep_ == "poss"):
            ranked.append(here[-1])
        topic = self._topic()
        if topic is not None and self._agrees(topic, agree):
            ranked.append(topic)
        if agree in ("m", "f"):
            known = [k for k in ranked if self.gender.get(k) == agree]
            ranked = known[:1] + [k for k in ranked if k not in known[:1]]
        if ranked:
            return ranked[0]
        if tok.dep_ == "poss":  # "by Meat Loaf for *his* album", "by The Sisters of Mercy, from *their* album"
            named = {m.entity for m in self.mentions if sent.start <= m.start < tok.i and not m.via
                     and self._agrees(m.entity, agree)}
            latest = next((m.entity for m in reversed(self.mentions) if sent.start <= m.start < tok.i
                           and m.entity in named), None)
            if latest is not None:
                return latest
        k = self.sent_starts.index(sent.start)
        reach = self.sent_starts[max(k - PRONOUN_REACH, 0)]
        before = [m for m in self.mentions if reach <= m.start < sent.start and self._subject(m)
                  and self._agrees(m.entity, agree)]
        if not before:
            return None
        latest = self.doc[before[-1].start].sent.start
        last = {m.entity for m in before if self.doc[m.start].sent.start == latest}
        if len(last) != 1:
            return None  # two subjects of that sentence: either could be meant
        found = last.pop()
        rivals = {m.entity for m in self.mentions if sent.start <= m.start < tok.i and m.entity != found
                  and self._agrees(m.entity, agree)}
        return None if rivals else found

    def _fronted_for(self, tok: Any, agree: str) -> int | None:
        """A possessive in a phrase fronted before its clause's subject means that subject ("In addition to *its*
        headquarters in Hamburg, Bigpoint maintains offices ...", "In *his* youth, Smith ..."), if it agrees."""
        verb = tok.sent.root
        if tok.dep_ != "poss" or not tok.i < verb.i or verb.pos_ not in ("VERB", "AUX"):
            return None
        subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        m = self.token_mention.get(subj.i) if subj is not None and subj.i > tok.i else None
        if m is None or m.via not in ("", "alias") or not self._agrees(m.entity, agree):  # a name, short or not
            return None
        if any(t.dep_ in ("nsubj", "nsubjpass") for t in self.doc[tok.i:subj.i]):
            return None  # a clause of its own comes first
        return m.entity

    def _place_before(self, tok: Any) -> int | None:
        """The place a locative "there" stands for: the latest thing named as where a verb's action happened
        ("lived *in the palace* until he died there", "was resident *at Statfold Hall* ... and died there"), in
        its own sentence, else in the one before; a place qualifying another ("at the Institute *in Moscow*") is
        not one."""
        here = tok.sent.start
        k = self.sent_starts.index(here)
        for start, end in [(here, tok.i)] + ([(self.sent_starts[k - 1], here)] if k else []):
            where = [m for m in self.mentions if start <= m.start and m.end <= end
                     and self._where(self.doc[m.start:m.end].root)]
            if where:
                return where[-1].entity
        return None

    def _where(self, root: Any) -> bool:
        """Whether a mention's head is the object of "in"/"at" that does not qualify another mention."""
        prep = root.head
        return root.dep_ == "pobj" and prep.lower_ in ("in", "at") and prep.head.i not in self.token_mention \
            and self.ents[self.token_mention[root.i].entity].kind != "VALUE"

    def _topic(self) -> int | None:
        """The article's subject: the title entity, else the text's first subject when it holds every
        word of the title ("Alan Belford Jones AO" under "Alan Jones (radio broadcaster)"); a headline
        naming no entity ("Northern shipping") gives none."""
        if self.title_entity is not None:
            return self.title_entity
        words = set(fold(self.headline).split())
        first = next((m.entity for m in self.mentions if not m.via and self._subject(m)), None)
        if not words or first is None or not words <= set(fold(self.ents[first].label).split()):
            return None
        return first

    def _root(self, m: _Mention) -> Any:
        """The mention's head word. Where the parser split a name of common words ("*Howard* the *Duck* is a film":
        "Howard" an attribute, "Duck" the subject), the part that is the clause's subject stands for the name."""
        span = self.doc[m.start:m.end]
        heads = [t for t in span if not m.start <= t.head.i < m.end]
        subject = next((t for t in heads if t.dep_ in _SUBJ), None) if len(heads) > 1 else None
        return subject or span.root

    def _subject(self, m: _Mention) -> bool:
        tok = self._root(m)
        return tok.dep_ in _SUBJ or tok.dep_ in ("appos", "compound", "conj") and tok.head.dep_ in _SUBJ

    def _person(self, k: int) -> bool:
        """Whether an entity is a person: a he/she, a person noun or "born" said so, or NER calls it one
        and neither its classes ("a palace", "a song") nor its name ("... Records") say otherwise."""
        e = self.ents[k]
        if k in self.people:
            return True
        if e.kind == "PROPN" and e.classes and name_kind(e.label) is not False:  # "Fela Anikulapo Kuti ... was a
            # Nigerian bandleader, composer and political activist": NER named no kind; not "a developer and publisher"
            return any(_person_class(c) for c in e.classes) and all(
                _person_class(c) or c.endswith(_AGENT_ENDINGS) and noun_kind(c) in (None, PERSON) for c in e.classes)
        if e.kind != "PERSON" or name_kind(e.label) is False or named_kind(e.label, None) not in (None, PERSON):
            return False  # (nor a name whose head noun says a treaty, a battle: NER's PERSON "Peace of Münster")
        return not e.classes or any(_personal_class(c) for c in e.classes)

    def _agrees(self, k: int, agree: str) -> bool:
        e = self.ents[k]
        if e.kind == "VALUE":
            return False
        if agree == "f" and set(e.classes) & _VESSELS:
            return True  # "Vasa is a Swedish warship ... She was ordered by King Gustavus Adolphus"
        if agree in ("m", "f"):
            said = {_GENDERED.get(c) for c in e.classes} - {None}
            return self._person(k) and self.gender.get(k, next(iter(said)) if len(said) == 1 else agree) == agree
        if self._person(k) or e.kind == "NORP":  # "it" is never a person nor "American"
            return False
        if agree == "n":
            return True
        return e.kind == "ORG" or bool(set(e.classes) & _GROUP_NOUNS) or \
            bool(re.search(r"[^s]s$", e.label)) and e.kind not in ("GPE", "LOC", "FAC")  # "the Sneaker Pimps"

    # ---- reading ----------------------------------------------------------------------------
    def read(self) -> None:
        for sent in self.doc.sents:
            before = len(self.mentions)
            if self.title:  # the title as written, even where NER missed or cut it
                self._original_name(sent)
                self._title_in(sent)
                self._series_title_in(sent)
            glosses = _glosses(sent)
            for s, e, kind in self._spans(sent, glosses):
                if _named_class(self.doc, s, e, kind):
                    continue  # read by ``_classes``
                if (s, e) in glosses and glosses[s, e] in self.token_mention:
                    self._gloss(s, e, self.token_mention[glosses[s, e]])
                elif not any(t in self.token_mention for t in range(s, e)):
                    self._mention(s, e, kind)
            self._classes(sent)
            self._resolve(sent)
            self._named_as(sent)
            self._titled_as(sent)
            self._lead_title(sent)
            self._dates(sent)
            mine = sorted(self.mentions[before:], key=lambda m: m.start)
            self._relations(sent, mine)
        self._headline_subject()
        self._contained()
        self._document_place()
        self._named_places()
        self._document_subject()
        for i in sorted(self.people):
            self._add(self.ents[i].label, IS_A, PERSON, "class", None, None)
        self._coarse_kinds()

    def _coarse_kinds(self) -> None:
        """Each name's coarse kind (``sgrag.kinds``): the one its stated class names ("a novel"), else the one its
        name's head noun names ("Battle of ...", "... Ministry"), else the NER label most of its mentions carry;
        filed as a less sure ``is a`` edge (how "ner") with the sentence of its first mention. Not "person" for a
        known person (its class edge says more), nor for a person by NER whose classes or name say otherwise ("a
        song", "... Records"), nor another kind for a name a person noun describes."""
        first = self._first_mentions()
        for i, e in enumerate(self.ents):
            ner = majority_kind(self.ner_labels.get(i, Counter()))
            said = [k for k in map(noun_kind, e.classes) if k is not None]
            first_said = said[0] if said and said[0] != PERSON and i not in self.people else None
            kind = stated_kind(e.classes) or first_said or named_kind(e.label, ner) or ner
            if kind is None or e.kind == "VALUE" or i not in first or i in self.people and kind == PERSON:
                continue  # (a person by a he/she whose name NER calls a team or a place keeps both: contested)
            personal = any(_personal_class(c) for c in e.classes)
            if kind == PERSON and (name_kind(e.label) is False or e.classes and not personal or
                                   e.label.split()[0] in _AWARD_OPENERS) or \
                    kind != PERSON and first_said is None and \
                    any(_person_class(c) and c not in _SHARED_ROLES for c in e.classes):
                continue  # (what the text first said a name is stands over a person noun said of it later: "Madeira
                #           is a Portuguese archipelago ... a major producer of sugar")
            m = first[i]
            self._add(e.label, IS_A, kind, NER_HOW, self.doc[m.start:m.end], self.doc[m.start].sent)

    def _document_subject(self) -> None:
        """The article's subject (its title entity) relates to every name its lead mentions
        (``DOCUMENT_LEAD_SENTENCES``) that no clause relation reached ("mentioned with", least sure)."""
        t = self.title_entity
        if t is None:
            return
        label = self.ents[t].label
        near = {k for r in self.relations.values() for k in (r.source, r.target)
                if label in (r.source, r.target)}
        by_sent: dict[int, list[_Mention]] = {}
        for m in self.mentions:
            by_sent.setdefault(self.doc[m.start].sent.start, []).append(m)
        person = self.ents[t].kind == "PERSON" or t in self.people  # a life's dates are its own events
        lead = set(self.sent_starts[:DOCUMENT_LEAD_SENTENCES])
        for start, ms in by_sent.items():
            if start not in lead:
                continue  # past the lead, an article's sentences are about other things
            about = any(m.entity == t for m in ms) and not person
            for m in ms:
                e = self.ents[m.entity]
                if e.kind == "VALUE" and not about:
                    continue  # a date of a sentence about something else (or in a life) dates an event
                if m.entity != t and e.label not in near:
                    near.add(e.label)
                    sent = self.doc[m.start].sent
                    self._add(label, "mentioned with", e.label, "document", self.doc[m.start:m.end], sent, m.via)

    def _series_title_in(self, sent: Any) -> None:
        """The work a title "Series, Words: Subtitle" continues, whole where the text names it ("a sequel to the 2000
        film Crouching Tiger, Hidden Dragon"): NER cuts a name at its comma, and the title shows where it ends."""
        series = self.title.split(": ", 1)[0] if ": " in self.title else ""
        if "," not in series or len(series.split()) < 3:
            return
        words = series.split()
        for t in sent:
            end = t.i + len(words) + series.count(",")
            if end > sent.end or t.text != words[0] or any(x in self.token_mention for x in range(t.i, end)):
                continue
            if self.doc[t.i:end].text == series and (end == sent.end or self.doc[end].text != ":"):
                m = _Mention(t.i, end, self._entity(series, "WORK_OF_ART"))
                self.mentions.append(m)
                for x in range(t.i, end):
                    self.token_mention[x] = m

    def _original_name(self, sent: Any) -> None:
        """"A Pál utcai fiúk (The Paul Street Boys) is a youth novel" under the title "The Paul Street Boys": a lead
        opening with a name and the title in brackets names the subject in its own language first. That name is the
        entity's label (the text's first), the title an alias, both mentions of it, whatever NER made of the words
        ("Pál" an organisation)."""
        words = [t for t in sent if not t.is_space]
        if self.title_entity is not None or not words or sent.start not in self.sent_starts[:2] or \
                not words[0].text[:1].isupper():
            return
        start, key = words[0].i, fold(self.title)
        bracket = next((t.i for t in self.doc[start + 1:min(start + 10, sent.end)] if t.text == "("), None)
        if bracket is None or any(t.text in ",;:" for t in self.doc[start:bracket]):
            return
        close = next((t.i for t in self.doc[bracket + 1:min(bracket + 14, sent.end)] if t.text == ")"), None)
        if close is None or fold(self.doc[bracket + 1:close].text) != key:
            return
        name = clean_name(self.doc[start:bracket].text, keep_article=True)
        if not name or fold(name) == key:
            return
        idx = self.title_entity = self._entity(name, "PROPN")
        self.ents[idx].aliases.add(self.title)
        self.by_key[key] = idx
        for a, b in ((start, bracket), (bracket + 1, close)):
            m = _Mention(a, b, idx, "" if a == start else "alias")
            self.mentions.append(m)
            for x in range(a, b):
                self.token_mention[x] = m

    def _title_in(self, sent: Any) -> None:
        key = fold(self.title)
        n = len(self.title.split())
        for t in sent:
            if self.title_entity is None and t.is_lower and t.pos_ == "NOUN" and t.dep_ in _SUBJ and \
                    t.i == self.doc[t.i].sent.start + 1 and self.doc[t.i - 1].lower_ == "the" and \
                    fold(t.text) == key and t.i not in self.token_mention:  # "The quokka (Setonix brachyurus)
                self.title_entity = self._entity(self.title, "PROPN")    # is a small marsupial", under "Quokka"
                m = _Mention(t.i, t.i + 1, self.title_entity)
                self.mentions.append(m)
                self.token_mention[t.i] = m
                continue
            if not t.text[:1].isupper() or t.i in self.token_mention or self._opens_nickname(t, sent) or \
                    t.ent_iob_ == "I" and self.doc[t.i - 1].lower_ not in _DETS or self._named_after(t):
                continue  # (nor inside a longer name NER read: "the University of *Tromsø*", nor "the Treaty of the
                #          *Pyrenees*", nor a nickname's: Leon Bismark "*Bix*" Beiderbecke under "Bix Beiderbecke")
            span = self.doc[t.i:min(t.i + n + 3, sent.end)]
            for k in range(1, len(span) + 1):
                after = self.doc[t.i + k] if t.i + k < sent.end else None
                longer = after is not None and (after.pos_ == "PROPN" and after.text[:1].isupper() or
                                                _model_number(after.text))  # "Dollar General Corporation", "the
                #                                                             Nokia 3310": a longer name
                if fold(span[:k].text) == key and not longer and \
                        not any(x in self.token_mention for x in range(t.i, t.i + k)):
                    kind = "PERSON" if any(x.ent_type_ == "PERSON" for x in span[:k]) else "PROPN"
                    self.title_entity = self._entity(_as_written(span[:k].text, self.title), kind)
                    m = _Mention(t.i, t.i + k, self.title_entity)
                    self.mentions.append(m)
                    for x in range(t.i, t.i + k):
                        self.token_mention[x] = m
                    break

    def _series_so_far(self, i: int, j: int) -> bool:
        """Whether doc[i:j] is the series the article's title "Series: Subtitle" names: a name of that series
        goes on after its colon."""
        series = fold(self.title.split(": ", 1)[0]) if ": " in self.title else ""
        words = fold(self.doc[i:j].text)
        return bool(series) and words in (series, series.removeprefix("the "))

    def _opens_nickname(self, tok: Any, sent: Any) -> bool:
        """Whether ``tok`` begins a quoted nickname between a person's names (``_nickname``; its closing quote within
        four tokens)."""
        close = next((k for k in range(tok.i + 1, min(tok.i + 5, sent.end)) if self.doc[k].text in _QUOTES), None)
        return close is not None and close + 1 < sent.end and self._nickname(tok.i, close)

    def _nickname(self, a: int, b: int) -> bool:
        """Whether the quoted words doc[a:b] (b: the closing quote) are a nickname between a person's names: a given
        name and a surname around them, NER's person on either side or the title naming the person by the nickname
        (Delphine "Delphi" Greenlaw under "Delphi Greenlaw")."""
        doc = self.doc
        if a - 2 < 0 or b + 1 >= len(doc) or doc[a - 1].text not in _QUOTES or doc[b].text not in _QUOTES:
            return False
        given, surname = doc[a - 2], doc[b + 1]
        if not (given.pos_ == surname.pos_ == "PROPN" and given.is_title and surname.is_title):
            return False
        return "PERSON" in (given.ent_type_, surname.ent_type_) or \
            bool(self.title) and fold(self.title) == fold(f"{doc[a:b].text} {surname.text}")

    def _named_after(self, tok: Any) -> bool:
        """Whether ``tok`` ends an event's or a law's name after "of (the)": "the Treaty of the Pyrenees", "the Siege
        of Leningrad" (the ``of_the`` names of ``_spans``), where NER read the two apart."""
        k = tok.i - 1 - (self.doc[tok.i - 1].lower_ == "the")
        return k >= 1 and self.doc[k].lower_ == "of" and _event_or_law_head(self.doc[k - 1])

    def _classes(self, sent: Any) -> None:
        """"X is a Russian military leader", "X, an American singer,", "X, which is a city": X is a (military) leader;
        "X is Y's eighth studio album": X is a (studio) album (a class noun the lexicon knows, after a possessor)."""
        for t in sent:
            if t.pos_ == "PROPN" and t.dep_ == "attr" and t.i not in self.token_mention and \
                    self.doc[t.left_edge.i].lower_ in ("a", "an"):  # "Lake Tanganyika is an African Great Lake"
                subject = next((c for c in t.head.children if c.dep_ in _SUBJ), None)
                m = self.token_mention.get(subject.i) if subject is not None else None
                if m is not None and self.ents[m.entity].kind != "VALUE":
                    phrase = " ".join(w.lower_ for w in self.doc[t.left_edge.i + 1:t.i + 1])
                    for cls in class_names(phrase):
                        self.ents[m.entity].classes.append(cls.split()[-1])
                        self._add(self.ents[m.entity].label, IS_A, cls, "class", self.doc[t.i:t.i + 1], sent, m.via)
                continue
            if t.pos_ != "NOUN" or t.dep_ not in ("attr", "appos") or t.i in self.token_mention:
                continue
            if not any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in t.children) and not (
                    noun_kind(t.lemma_.lower()) is not None and (
                        any(c.dep_ == "poss" for c in t.children) or any(
                            c.dep_ == "amod" and (_superlative(c) or any(g.lower_ == "most" for g in c.children))
                            or c.dep_ == "compound" and _superlative(c)  # ("the southernmost island", tagged a noun)
                            for c in _with_compounds_children(t)))):
                continue  # "X is Y's eighth studio album", "X is his second film", "X is the eleventh episode of
                #           Y", "X is the largest city in Y": of a class, as "an album" (but "the capital of Y" is
                #           no class)
            head = t.head if t.dep_ == "appos" else next((c for c in t.head.children if c.dep_ in _SUBJ), None)
            if head is not None and head.tag_ in ("WDT", "WP") and t.head.dep_ == "relcl":
                head = t.head.head  # "Charlottesville, which is an independent city"
            m = self.token_mention.get(head.i) if head is not None else None
            if m is None or self.ents[m.entity].kind == "VALUE":
                continue
            self._class_of(m, t, sent)
            self._class_dates(m, t, sent)
            for conj in t.conjuncts:  # "a singer and songwriter"; not "a spacecraft and *part* of the programme"
                if conj.pos_ == "NOUN" and conj.lemma_.lower() not in _RELATIONAL_NOUNS:
                    self.ents[m.entity].classes.append(conj.lower_)
                    self._add(self.ents[m.entity].label, IS_A, conj.lower_, "class", self.doc[conj.i:conj.i + 1],
                              sent, m.via)
        self._classes_before_names(sent)
        self._classes_after_names(sent)
        self._classes_called(sent)
        self._classes_of_identity(sent)
        self._classes_said_first(sent)
        self._shared_heads(sent)
        self._plural_classes_before_names(sent)

    def _classes_after_names(self, sent: Any) -> None:
        """A name right before an organisation noun ("rode for *the Flandria team*", "the TI–Raleigh team"): the
        name's entity is one (not a place's: "the Liverpool team" is a club, not the city); once per name, whichever
        of its words the parse hung on the noun ("TI" and "Raleigh")."""
        named: set[int] = set()
        for t in sent:
            m = self.token_mention.get(t.i)
            if m is None or id(m) in named or m.end >= sent.end or not _names_noun_after(t, m.start) or \
                    t.head.i != m.end or m.end in self.token_mention or self.ents[m.entity].kind in _NOT_NAMING_TEAMS:
                continue
            named.add(id(m))
            self._class_of(m, t.head, sent)

    def _classes_of_identity(self, sent: Any) -> None:
        """A name a place noun is "the ... of" ("the town of Hvidovre", "the smaller inhabited island of Porto
        Santo"): the name is one of that class (``_identity_noun``)."""
        for t in sent:
            m = self.token_mention.get(t.i)
            if m is not None and not m.via and self._root(m).i == t.i and self.ents[m.entity].kind != "VALUE" and \
                    (noun := _identity_noun(t)) is not None and \
                    all(noun_kind(c) in (None, PLACE) for c in self.ents[m.entity].classes):
                self._class_of(m, noun, sent)  # (not "[Nokia, a company,] took its name from the town of Nokia")

    def _classes_said_first(self, sent: Any) -> None:
        """A class noun the subject of "be" and a name its complement ("The range's highest peak is Toubkal", "Its
        capital and largest city is Funchal"): the name is one of that class (a noun the kinds lexicon knows,
        singled out by "the", a possessor, a superlative or an ordinal as "X is the largest city" is)."""
        for t in sent:
            m = self.token_mention.get(t.i)
            verb = t.head
            if m is None or m.via or t.dep_ not in ("attr", "acomp") or t.pos_ != "PROPN" or self._root(m).i != t.i or \
                    verb.lemma_ != "be" or self.ents[m.entity].kind == "VALUE":
                continue
            subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
            if subject is None or subject.pos_ != "NOUN" or not subject.is_lower or subject.i in self.token_mention \
                    or subject.tag_ != "NN" or any(c.dep_ == "neg" for c in verb.children):
                continue
            for noun in [subject] + [c for c in subject.conjuncts if c.pos_ == "NOUN" and c.tag_ == "NN"]:
                if noun_kind(noun.lower_) is not None and any(
                        c.dep_ == "poss" or c.dep_ == "det" and c.lower_ == "the" or _superlative(c)
                        for c in noun.children):
                    self._class_of(m, noun, sent)

    def _plural_classes_before_names(self, sent: Any) -> None:
        """A plural noun for people right before names joined by "and" ("accompanied by *saxophonists* John Coltrane
        and Cannonball Adderley, *pianists* Bill Evans and Wynton Kelly"): each name is one of them."""
        doc = self.doc
        for t in sent:
            if not (t.tag_ == "NNS" or t.tag_ == "VBZ" and t.lower_.endswith(("ists", "ians"))) or not t.is_lower or \
                    t.i + 1 >= sent.end or not _person_class(singular(t.lower_)):
                continue  # (the small model tags "pianists" before a name as a verb, which no "-ist" is; "The film
                #           *stars* Donnie Yen and Michelle Yeoh" is one)
            named, at = [], t.i + 1
            while (m := self.token_mention.get(at)) is not None and m.start == at and not m.via and \
                    self.ents[m.entity].kind != "VALUE":
                named.append(m)
                if doc[at - 1].lower_ == "and" or m.end + 1 >= sent.end or doc[m.end].lower_ not in (",", "and"):
                    break  # the name after "and" ends the list
                at = m.end + 1
            if len(named) >= 2 and doc[named[-1].start - 1].lower_ == "and":
                for x in named:
                    self.people.add(x.entity)
                    self.ents[x.entity].classes.append(singular(t.lower_))
                    self._add(self.ents[x.entity].label, IS_A, singular(t.lower_), "class", doc[t.i:t.i + 1], sent)

    def _shared_heads(self, sent: Any) -> None:
        """A plural place noun right after names joined by "and" ("in Tyrrell and Washington Counties", "between the
        Rhine and Main rivers"): each name is one of that class (a place noun of the kinds lexicon)."""
        doc = self.doc
        for t in sent:
            noun = singular(t.lower_)
            if t.tag_ not in ("NNS", "NNPS") or noun == t.lower_ or noun_kind(noun) != PLACE:
                continue  # (places only: "Columbia and Reprise Records" are labels, "Beatles and Stones albums" no albums)
            last = self.token_mention.get(t.i)  # the head kept in the last name's mention (``_mention``)
            if last is not None:
                last = last if last.end == t.i + 1 and last.start < t.i and \
                    not fold(self.ents[last.entity].label).endswith(fold(t.text)) else None
            else:
                last = self.token_mention.get(t.i - 1)
                last = last if last is not None and last.end == t.i else None
            if last is None or last.via or last.start < 2 or doc[last.start - 1].lower_ not in _COORDINATORS:
                continue
            named, p = [last], last.start - 1
            while p > sent.start and (doc[p].lower_ in _COORDINATORS or doc[p].text == ","):
                prev = self.token_mention.get(p - 1)
                if prev is None or prev.via or prev.end != p or self.ents[prev.entity].kind == "VALUE":
                    break
                named.append(prev)
                p = prev.start - 1
            if len(named) < 2:
                continue
            self.coordinated |= {frozenset((a.entity, b.entity)) for a in named for b in named if a.entity != b.entity}
            for m in named:
                self.ents[m.entity].classes.append(noun)
                self._add(self.ents[m.entity].label, IS_A, noun, "class", doc[t.i:t.i + 1], sent, m.via)

    def _classes_called(self, sent: Any) -> None:
        """A class noun and the name it is called ("a band *called* Arcadia", "a company named Bigpoint"): the name is
        one of that class (a noun the kinds lexicon knows)."""
        for t in sent:
            if t.dep_ != "acl" or t.head.pos_ != "NOUN" or t.head.i in self.token_mention or \
                    noun_kind(t.head.lemma_.lower()) is None:
                continue
            if t.lower_ not in _NAMING:  # (not "known as": "the section of the municipality, known as Avedøre
                continue                  # Holme", which noun it names is unsure)
            for name in _names_given(t):
                m = self.token_mention.get(name.i)
                if m is not None and not m.via and self.ents[m.entity].kind != "VALUE":
                    self._class_of(m, t.head, sent)

    def _classes_before_names(self, sent: Any) -> None:
        """A class noun or a title right before a name ("the musical Carousel", "Guest star Leland Orser", "the Sasanian
        shah Yazdegerd II", "cavalry officer Count Alexei Vronsky", "Marshal Michel Ney") or a name in apposition to a
        definite one ("their debut album, Get Your Mood On,"), or to a clause's subject ("A sequel, Änglagård–andra
        sommaren, was produced in 1994"): the name is one of that class. The apposition is read from the words, since
        the parse of a title made of common words ("Get Your Mood On") is no guide."""
        doc = self.doc
        for m in {id(m): m for m in self.token_mention.values()}.values():
            if m.via or not sent.start <= m.start < sent.end or self.ents[m.entity].kind == "VALUE":
                continue
            p = m.start - 1
            if p >= sent.start and doc[p].text in _HONORIFICS and doc[p].text not in _NO_CLASS_TITLES and \
                    self.ents[m.entity].kind in ("PERSON", "PROPN") and p not in self.token_mention:
                self._class_of(m, doc[p], sent)  # "Marshal Michel Ney": a marshal, and a person
                self.people.add(m.entity)
            while p >= sent.start and doc[p].text in _HONORIFICS:
                p -= 1
            noun = doc[p] if p >= sent.start and p not in self.token_mention else None
            root = next((t for t in doc[m.start:m.end] if not m.start <= t.head.i < m.end), doc[m.start])
            if noun is not None and noun.is_lower and noun.is_alpha and \
                    (m.start <= noun.head.i < m.end or root.head.i == noun.i) and \
                    noun.tag_ in ("NN", "JJ") and (noun_kind(noun.lower_) is not None or noun.pos_ == "NOUN" and
                                                      (_person_class(noun.lower_) or
                                                       singular(noun.lower_).endswith(_AGENT_ENDINGS))):
                self._class_of(m, noun, sent)
                self._class_dates(m, noun, sent)
                continue
            noun = doc[m.start - 2] if m.start - 2 >= sent.start and doc[m.start - 1].text == "," else None
            if noun is not None and noun.is_lower and noun_kind(noun.lower_) is not None and \
                    (m.end >= sent.end or doc[m.end].is_punct) and \
                    (any(t.lower_ in _DEFINITE for t in doc[max(sent.start, noun.i - 4):noun.i]) or
                     root.dep_ == "appos" and root.head.i == noun.i and noun.dep_ in _SUBJ):
                self._class_of(m, noun, sent)  # "their debut album, X,"; "A sequel, X, was produced"

    def _class_dates(self, m: _Mention, noun: Any, sent: Any) -> None:
        """A year or date in the words of a class said of a name is the name's ("X is a *1948* Hindi film", "the
        *1951* film The Lost One"); a holiday ("a *Christmas* song") is none (``class-date``)."""
        for v in self.mentions:
            if self.ents[v.entity].kind == "VALUE" and not v.via and noun.left_edge.i <= v.start and v.end <= noun.i \
                    and any(c.isdigit() for c in self.ents[v.entity].label):
                self._add(self.ents[m.entity].label, self._modifier_name(v, []), self.ents[v.entity].label,
                          "class-date", self.doc[v.start:noun.i + 1], sent, m.via)

    def _class_of(self, m: _Mention, t: Any, sent: Any) -> None:
        """The mention's entity is a ``t`` (with the nouns and class adjectives before it: "military leader")."""
        words = [c for c in t.children if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i < t.i and c.is_lower]
        words += [c for c in t.children if c.dep_ == "amod" and c.pos_ == "ADJ" and c.text.islower()
                  and c.i == t.i - 1 and c.lemma_ in _CLASS_ADJ]
        phrase = " ".join([w.lower_ for w in sorted(words, key=lambda w: w.i)] +  # "brothers named A, B": a brother
                          [t.lemma_.lower() if t.tag_ == "NNS" else t.lower_])
        shared = t.lower_ in _SHARED_ROLES and majority_kind(self.ner_labels.get(m.entity, Counter())) not in \
            (None, PERSON)  # "The CDU is a member of the European People's Party": an organisation, NER says
        if _person_class(t.lower_) and not shared and not any(
                noun_kind(c) not in (None, PERSON) for c in self.ents[m.entity].classes):
            self.people.add(m.entity)  # (not "Madeira is a Portuguese archipelago ... became a major *producer* of
            #                            sugar": what the text first said it is stands)
        for cls in class_names(phrase):
            self.ents[m.entity].classes.append(cls.split()[-1])
            self._add(self.ents[m.entity].label, IS_A, cls, "class", self.doc[t.i:t.i + 1], sent, m.via)

    def _dates(self, sent: Any) -> None:
        """"X (July 15, 1895 – July 28, 1938)": born on the first date, died on the second; a place
        after either ("September 5, 1893 in Zhitomir") or set off from it by a comma ("Pavia, December 22, 1871")
        is where. Every name of the sentence with such a bracket ("cousin of A (1812–1870), son to B (1819–1898)")."""
        for m in [m for m in self.mentions if sent.start <= m.start < sent.end and not m.via]:
            e = self.ents[m.entity]
            if e.kind not in ("PERSON", "PROPN") or m.end >= sent.end:
                continue
            base = self._end_char(m)
            after = self.text[base:sent.end_char]
            empty = re.match(r"^\s*\(\s*\)", after)
            if empty:
                base, after = base + empty.end(), after[empty.end():]
            r = _DATE_RANGE.match(after)
            b = None if r else _BORN.match(after)
            parts = [(r, 1, "born"), (r, 2, "died")] if r else [(b, 1, "born")] if b else []
            for found, group, verb in parts:
                part = found.group(group)  # "December 3, 1912 in Alhambra", "Pavia, December 22, 1871"
                pieces = re.split(r"\s+(?:in|at|near)\s|,\s*(?=[^\W\d_])|;\s*", part.strip())  # "née Byron; ..."
                date = next((p.rstrip(",;") for p in pieces if re.search(r"\d{3,4}", p)), "")
                # the date ends at its year ("December 15, 1812 O.S. /18 Elul 5505": the other calendar's is none)
                date = re.match(r".*?\d{3,4}(?:\s+(?:BC|BCE|AD|CE)\b)?", date).group(0) if date else ""
                if date:
                    if fold(date) not in self.by_key:  # one node per date, however often it is read
                        self.ents.append(_Entity(date, "VALUE", {date}))
                        self.by_key[fold(date)] = len(self.ents) - 1
                    target = self.ents[self.by_key[fold(date)]].label
                    self._add(e.label, f"{verb} on", target, "dates", self.doc[m.start:m.end], sent)
                    if e.kind == "PERSON":
                        self.people.add(m.entity)
                where = re.search(r"\b(?:in|at|near)\s", part)
                if where is None and not date:
                    continue
                lo, hi = base + found.start(group) + (where.end() if where else 0), base + found.end(group)
                # a place set off by a comma only is one by NER and a whole piece ("née Petrović" is none)
                kinds = _CHAINED | {"FAC"} if where else _PLACE | {"FAC"}
                place = min((x for x in self.mentions if not x.via and lo <= self.doc[x.start].idx < hi
                             and self.ents[x.entity].kind in kinds and (where or self._end_char(x) <= hi and
                                 re.search(r"(?:^|,)\s*$", self.text[lo:self.doc[x.start].idx]))),
                            key=lambda x: x.start, default=None)
                if place is not None:  # "(November 8, 1833 in Cardington, Ohio – ...)", "(Pavia, December 22, 1871 – ...)"
                    self._add(e.label, f"{verb} in", self.ents[place.entity].label, "dates",
                              self.doc[m.start:place.end], sent)

    def _relations(self, sent: Any, mentions: list[_Mention]) -> None:
        performers = self._performed_with(sent, mentions)
        related = {frozenset((m.entity, work.entity)) for work in mentions if id(work) in performers
                   for m in mentions if m.entity not in (work.entity, performers[id(work)].entity)}
        cast, roles, played = self._cast_as(sent, mentions)
        related |= {frozenset((m.entity, r.entity)) for r in roles for m in mentions if m.entity != r.entity}
        for who, role in played:  # "it stars Toshiro Mifune as the bandit Tajōmaru": he played the bandit
            related.add(frozenset((who.entity, role.entity)))
            self._add(self.ents[who.entity].label, "played", self.ents[role.entity].label, "cast-as",
                      self.doc[who.start:role.end], sent, who.via or role.via)
        named = [c[0] for c in cast[:1]] + [c[2] for c in cast]  # the work and its cast: read by the list alone
        related |= {frozenset((x.entity, y.entity)) for x in named for y in named if x.entity != y.entity}
        blocked = related | self.coordinated  # "performed, following Lordi with "Hard Rock Hallelujah"": the work is
        #                                         Lordi's; "Albemarle and Goochland counties": two of a kind, no relation
        holders = self._role_holders(mentions)
        for i, a in enumerate(mentions):
            for b in mentions[i + 1:]:
                if a.entity == b.entity or frozenset((a.entity, b.entity)) in blocked:
                    continue
                found = self._path_relation(a, b)
                if found is None:
                    continue
                src, rel, dst, how, span = found
                related.add(frozenset((a.entity, b.entity)))
                ends = [(src, dst)]
                if id(src) in holders or id(dst) in holders:  # the office's holder did it too
                    ends.append((holders.get(id(src), src), holders.get(id(dst), dst)))
                for x, y in ends:
                    for said in [rel] + _shared_by_coordination(rel, span):
                        self._add(self.ents[x.entity].label, said, self.ents[y.entity].label, how, span, sent,
                                  a.via or b.via)
        for a, b in zip(mentions, mentions[1:]):  # "Paradise Lost (1667)", ""Karma Police" (1997)"
            ka, kb = self.ents[a.entity].kind, self.ents[b.entity].kind
            if ka == "VALUE" or not re.fullmatch(r"[\"”’']?\s*\(\s*", self._between(a, b)):
                continue
            if kb != "VALUE" and (kb not in ("GPE", "LOC", "NORP") or ka in _PLACE or
                                  not re.match(r"\s*\)", self.text[self._end_char(b):sent.end_char]) or
                                  fold(self.ents[a.entity].label)[:4] == fold(self.ents[b.entity].label)[:4]):
                continue  # "Olduvai Gorge (Tanzania)" is from Tanzania; "Jephté (Jephtha)" is another name
            related.add(frozenset((a.entity, b.entity)))
            self._add(self.ents[a.entity].label, self._modifier_name(b, []), self.ents[b.entity].label, "modifier",
                      self.doc[a.start:b.end], sent, a.via)
        self._place_chains(sent, mentions)
        self._place_lists(sent, mentions)
        self._places_of(sent, mentions)
        self._contained_lists(sent, mentions)
        related |= self._nationality_lists(sent, mentions)
        related |= self._members_from(sent, mentions)
        for work, verb, who in cast:
            related.add(frozenset((work.entity, who.entity)))
            self._add(self.ents[work.entity].label, _verb(verb), self.ents[who.entity].label, "cast-as",
                      self.doc[verb.i:who.end], sent, work.via)
        for work, who in [(m, performers[id(m)]) for m in mentions if id(m) in performers]:
            related.add(frozenset((who.entity, work.entity)))
            self._add(self.ents[who.entity].label, "performed", self.ents[work.entity].label, "performed-with",
                      self.doc[who.start:work.end], sent)
        for event, date, verb in self._event_dates(sent, mentions):
            related.add(frozenset((event.entity, date.entity)))
            self._add(self.ents[event.entity].label, "took place in", self.ents[date.entity].label, "event-date",
                      self.doc[min(event.start, date.start, verb.i):max(event.end, date.end, verb.i + 1)], sent,
                      event.via)
        for i, a in enumerate(mentions):  # the weakest reading: named together
            for b in mentions[i + 1:]:
                ka, kb = self.ents[a.entity].kind, self.ents[b.entity].kind
                if frozenset((ka, kb)) in _COOCCURRING and frozenset((a.entity, b.entity)) not in related \
                        and not a.via and not b.via:
                    related.add(frozenset((a.entity, b.entity)))
                    self._add(self.ents[a.entity].label, "mentioned with", self.ents[b.entity].label, "sentence",
                              self.doc[a.start:b.end], sent)
        for subj in mentions:  # the sentence's subject relates to what the rest of its clause names
            root = self._root(subj)
            if root.dep_ not in ("nsubj", "nsubjpass") or root.head.dep_ not in ("ROOT", "conj") or \
                    self.ents[subj.entity].kind == "VALUE" or any(c.dep_ == "neg" for c in root.head.children):
                continue  # (nor of a clause the text denies: "X is not considered part of Y")
            for b in mentions:
                if b.entity == subj.entity or frozenset((subj.entity, b.entity)) in related:
                    continue
                found = self._clause_relation(root.head, b)
                if found is not None:
                    rel, span = found
                    related.add(frozenset((subj.entity, b.entity)))
                    self._add(self.ents[subj.entity].label, rel, self.ents[b.entity].label, "clause-subject",
                              self.doc[min(root.i, span.start):max(root.i + 1, span.end)], sent, subj.via or b.via)

    def _event_dates(self, sent: Any, mentions: list[_Mention]) -> list[tuple[_Mention, _Mention, Any]]:
        """(event, date, verb) where one verb has an event's name and a date each after a preposition of its own
        ("was mortally wounded *at the Battle of Cold Harbor in June 1864*", "won gold at the 2008 Olympics in
        August 2008"): the date is when the event took place, whatever the verb did there."""
        at: dict[int, tuple[list[_Mention], list[_Mention]]] = {}
        for m in mentions:
            if not sent.start <= m.start < sent.end:
                continue
            root = self._root(m)
            while root.dep_ == "conj" and root.head.i != root.i:  # "at A and B in 1999": two events, none dated
                root = root.head
            prep = root.head
            if root.dep_ != "pobj" or prep.dep_ != "prep" or prep.head.pos_ not in ("VERB", "AUX"):
                continue
            e = self.ents[m.entity]
            events, dates = at.setdefault(prep.head.i, ([], []))
            if e.kind == "VALUE":
                if prep.lower_ in ("in", "on", "during") and re.search(r"\b\d{4}\b", e.label):
                    dates.append(m)
            elif e.kind == "EVENT" or named_kind(e.label, NER_KINDS.get(e.kind)) == EVENT:
                events.append(m)
        return [(events[0], dates[0], self.doc[v]) for v, (events, dates) in at.items()
                if len(events) == 1 and len(dates) == 1]

    def _clause_relation(self, verb: Any, b: _Mention):
        """How a clause's verb reaches a mention of it: (the verb's word and the mention's preposition, span),
        or None when the mention belongs to another clause with a subject of its own."""
        chain = [t for t, _ in self._titled_chain(b, self._root(b))]
        if verb not in chain:
            return None
        toks = chain[:chain.index(verb) + 1]
        if len(toks) > MAX_PATH + 2 or toks[0].dep_ in _SUBJ or toks[0].dep_ in _MODIFIER:
            return None
        for t in toks[1:-1]:
            if t.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJ for c in t.children):
                return None
            if t.dep_ == "appos" and t.pos_ == "NOUN" and self.token_mention.get(t.head.i) not in (None, b):
                return None  # "born in Ogidi, a town in Nigeria": the town is in Nigeria, not the subject
        if _in_time_frame(toks):
            return None
        near = next((t for t in toks[1:] if t.pos_ in ("VERB", "AUX", "NOUN")), verb)
        if self.ents[b.entity].kind == "VALUE" and near.pos_ == "VERB" and _dates_its_object(near):
            return None  # the date of making is the made thing's
        prep = next((t for t in toks if t.dep_ in ("prep", "agent", "dative")), None)
        word = _verb(near) if near.pos_ in ("VERB", "AUX") else near.lemma_.lower()
        if near.pos_ == "AUX" and word in ("be", "was", "is", "were", "been"):
            word = ""
        name = " ".join(w for w in (word, prep.lower_ if prep is not None else "") if w)
        return (name or "related to"), self.doc[min(t.i for t in toks):max(t.i for t in toks) + 1]

    # ---- dependency paths -------------------------------------------------------------------
    def _chain(self, tok: Any) -> list[tuple[Any, str]]:
        """``tok`` and its ancestors up to the root, each with the role it plays there; a nominal
        conjunct stands in its head's place and role ("A and B founded C": B is a subject too), and so does a
        participle coordinated with another ("a song written by A and *produced* by B": produced what the song is)."""
        out = [(tok, tok.dep_)]
        t, listed = tok, True
        while t.head.i != t.i:
            h = t.head
            if listed and (t.dep_ == "conj" and t.pos_ not in ("VERB", "AUX") or _listed_apposition(t)):
                out[-1] = (out[-1][0], h.dep_)  # "A, B, C and D": each is where A is
            elif _coordinated_participle(t) or self._named_subject(t):
                out[-1] = (t, h.dep_)
            elif (named := self._participle_of_name_before(t)) is not None:
                out[-1] = (t, "acl")  # "at the UCI Road World Championships, *held* that year in Giavera": what
                out.append((named, named.dep_))  # was held is the name before the comma, not the clause's subject
                t, listed = named, False
                continue
            elif listed and self._named_by_participle(t):  # "A film adaptation, also titled Rising Damp, was
                out[-1] = (out[-1][0], h.head.dep_)           # directed by": the name is the subject noun's
                t = h.head
                continue
            elif (noun := _identity_noun(t)) is not None and noun.dep_ != "appos":  # "born in the village of
                out[-1] = (out[-1][0], noun.dep_)  # Vivar": born in Vivar, the name standing where its noun does
                t = noun
                continue
            elif _named_class_apposition(t):  # "Its image, the poster Den Tørstige Mand, was painted": the name
                if h.dep_ == "conj":          # stands where its class noun does, in apposition to the subject;
                    out.append((h, h.dep_))   # a coordinated class noun stays on the path, its modifiers the name's
                t = h
                continue
            elif self._example_of(t) is not None:  # "club teams in Brazil such as *Flamengo*": an apposition of
                out[-1] = (out[-1][0], "example")   # the noun it exemplifies, "as" left out of the path
                t = h
                continue
            else:
                listed = False
                out.append((h, h.dep_))
            t = h
        return out

    def _participle_of_name_before(self, verb: Any) -> Any:
        """The root token of the thing's name right before a comma that a passive participle of placing or making
        follows, which the parse hung on the main verb ("..., *held* in Giavera", "..., *based* in Oslo"), or None."""
        if verb.dep_ != "advcl" or verb.tag_ != "VBN" or verb.lemma_.lower() not in _THING_PARTICIPLES or \
                verb.i < 2 or self.doc[verb.i - 1].text != "," or any(c.dep_ in _SUBJ for c in verb.children):
            return None
        m = self.token_mention.get(verb.i - 2)
        if m is None or m.end != verb.i - 1 or self.ents[m.entity].kind in ("PERSON", "VALUE") or \
                m.entity in self.people:
            return None
        root = self._root(m)  # not a name the participle's own clause holds ("At the Olympics in Mexico City, held
        #                       weeks after ...": the chain from it leads back up to the participle, round and round)
        return root if root.i < verb.i and all(a.i != verb.i for a in root.ancestors) else None

    def _example_of(self, tok: Any) -> Any:
        """The plural common noun a name is given as an example of ("teams *such as* Flamengo", "artists *including*
        Amir Haddad", "cities *like* Berlin"), or None: what the sentence says of the noun it says of each example."""
        h = tok.head
        if tok.dep_ != "pobj" or h.dep_ != "prep" or h.lower_ not in _EXAMPLE_PREPS or tok.pos_ != "PROPN":
            return None
        if h.lower_ == "as" and not (h.i > 0 and self.doc[h.i - 1].lower_ == "such"):
            return None
        noun = h.head
        return noun if noun.pos_ == "NOUN" and noun.tag_ == "NNS" and noun.i not in self.token_mention else None

    def _modifier_of_named_subject(self, a: _Mention, ta: Any, b: _Mention, tb: Any):
        """"*The Scottish* explorer Alexander Gordon Laing reached ...": a modifier of the subject noun a name stands for
        (``_named_subject``) is the name's, as it is where the noun is no subject ("by the German geographer Hans
        Meyer") -> (name, "from", modifier, "modifier", span) (or a year, a date), or None."""
        for (low, tl), (top, tt) in (((a, ta), (b, tb)), ((b, tb), (a, ta))):
            noun = tt.head
            if tl.head.i == noun.i and tl.dep_ in _MODIFIER and tl.i < noun.i and self._named_subject(tt) and \
                    self.ents[top.entity].kind != "VALUE":
                name = self._modifier_name(low, [noun])  # a nationality, a place, a year; not the noun's own
                if name in ("from", "year", "date"):     # name ("Sangiran area is divided between 2 regencies:
                    return top, name, low, "modifier", self.doc[min(tl.i, tt.i):max(tl.i, tt.i) + 1]  # Sragen")
        return None

    def _named_subject(self, tok: Any) -> bool:
        """A name in apposition to its clause's subject, a common noun ("*A sequel*, Änglagård–andra sommaren, was
        produced in 1994"): what the clause says of the subject it says of the name."""
        h = tok.head
        return tok.dep_ == "appos" and tok.pos_ == "PROPN" and h.pos_ == "NOUN" and h.dep_ in _SUBJ and \
            h.i not in self.token_mention and not any(c.dep_ == "poss" for c in h.children)  # "Lutsenko's wife
        #                                                                         Iryna" is read as a possessive

    def _named_by_participle(self, tok: Any) -> bool:
        """A name a naming participle gives its clause's subject, a common noun ("A film adaptation, *titled* Rising
        Damp, was directed by ..."): what the clause says of the subject it says of the name."""
        verb = tok.head
        noun = verb.head
        return tok.dep_ in ("oprd", "dobj", "attr") and tok.pos_ == "PROPN" and verb.dep_ == "acl" and \
            verb.lower_ in _NAMING and noun.pos_ == "NOUN" and noun.dep_ in _SUBJ and noun.i not in self.token_mention

    def _made_object_date(self, verb: Any, one: tuple, other: tuple):
        """"X released *their debut album, Y,* on 4 December 2006": a verb of making dates its object, not its
        subject -> (Y, "released on", the date, "svo"), or None."""
        if not MAKING.match(_verb(verb)) or any(c.dep_ == "nsubjpass" for c in verb.children):
            return None
        (m, role, side), (n, _, n_side) = (one, other) if self.ents[other[0].entity].kind == "VALUE" else (other, one)
        if role != "dobj" or self.ents[n.entity].kind != "VALUE" or self.ents[m.entity].kind == "VALUE":
            return None
        preps = [t for t, _ in n_side if t.dep_ == "prep"]
        if len(side) > 3 or len(preps) != 1 or preps[0].head.i != verb.i:
            return None
        return m, _name([verb], preps[0]), n, "svo"

    def _role_holders(self, mentions: list[_Mention]) -> dict[int, _Mention]:
        """A name of an office and the name set off after it by a comma ("the *Archbishop of Santiago*, *Mariano
        Casanova*"): id of the office's mention -> the holder's, who did what the office did in that clause."""
        out = {}
        for m, n in zip(mentions, mentions[1:]):
            head, _ = name_head(self.ents[m.entity].label)
            root = self._root(n)
            if head is not None and _person_class(head.lower()) and not m.via and not n.via and \
                    self.ents[n.entity].kind in ("PERSON", "PROPN", "ORG") and \
                    re.fullmatch(r"\s*,\s*", self._between(m, n)) and root.dep_ == "appos" and \
                    m.start <= root.head.i < m.end:
                out[id(m)] = n
        return out

    def _path_relation(self, a: _Mention, b: _Mention):
        """(source, relation, target, how, evidence span) for two mentions of one sentence, or None."""
        doc = self.doc
        ta, tb = self._root(a), self._root(b)
        described = self._modifier_of_named_subject(a, ta, b, tb)
        if described is not None:
            return described
        ca, cb = self._titled_chain(a, ta), self._titled_chain(b, tb)
        ids_b = {t.i: k for k, (t, _) in enumerate(cb)}
        lca_k = next((k for k, (t, _) in enumerate(ca) if t.i in ids_b), None)
        if lca_k is None:
            return None
        lca = ca[lca_k][0]
        side_a, side_b = ca[:lca_k + 1], cb[:ids_b[lca.i] + 1]
        for end, other in ((ta, side_b), (tb, side_a)):
            if end.dep_ == "conj" and end.head.dep_ == "appos" and end.head.head.i == lca.i and lca.tag_ == "NN" \
                    and len(other) == 2 and other[0][1] in ("amod", "compound"):
                return None  # "the German geographer Hans Meyer and (the Austrian mountaineer) Ludwig Purtscheller":
                #              one geographer, German; the name listed after him is not what the noun's words say
        for tx, cy, swap in ((ta, cb, False), (tb, ca, True)):
            clause = _qualifying_clause(tx, cy)
            if clause is not None and tx.head.i not in self.token_mention:  # a name standing for its noun, which
                lca, side_x = tx, [(tx, tx.dep_)]                           # a clause qualifies ("the song
                side_a, side_b = (clause, side_x) if swap else (side_x, clause)  # "Waterloo", performed by ABBA")
                break
        inner = [t for t, _ in side_a[1:-1] + side_b[1:-1]] + ([lca] if lca.i not in (ta.i, tb.i) else [])
        if any(c.dep_ == "neg" for t in inner if t.pos_ in ("VERB", "AUX") for c in t.children):
            return None  # "it is not considered part of the Cascade Range", "never won the cup": the text denies it
        content = [t for t in inner if t.pos_ not in ("PUNCT", "DET", "CCONJ", "PART", "SPACE")]
        team = self._team_in_league(lca, side_a, side_b, a, b) if lca.pos_ == "VERB" else None
        if team is not None:
            return team + (doc[min(ta.i, tb.i):max(ta.i, tb.i) + 1],)
        standing = [named[1][0] for side in (side_a, side_b)
                    if len(named := side[_past_conjuncts(side):]) == 3 and
                    named[0][1] == "appos" and named[1][1] in _SUBJ and named[1][0].pos_ == "NOUN" and
                    named[1][0].i not in self.token_mention and self._set_off(named[0][0], named[1][0])]
        #                      "Her daughter, Cecile Richards, served as": the name is the subject, its noun no step of
        #                      the path (as are the names joined to it: "its headstreams, the Brigach and the Breg,")
        if len(content) - len(standing) > MAX_PATH and not _in_area_of(content):
            return None
        for t in inner:
            m = self.token_mention.get(t.i)
            if m is not None and m not in (a, b):
                return None  # another entity in between: the relation is with that one
        span = doc[min(t.i for t in [ta, tb] + inner):max(t.i for t in [ta, tb] + inner) + 1]
        if lca.i in (ta.i, tb.i):  # one end governs the other: apposition, clause, modifier
            top, low, low_side = (a, b, side_b) if lca.i == ta.i else (b, a, side_a)
            if len(low_side) < 2:
                return None
            first = low_side[-2][0]
            toks = [t for t, _ in low_side]
            preps = [t for t in toks if t.dep_ in ("prep", "agent", "dative")
                     and t.i not in self.token_mention]  # not the day NER left out of a date ("born 5 March 1983")
            if first.dep_ == "appos" and first.pos_ == "NOUN" and first.i not in self.token_mention:
                if len(low_side) == 4 and getattr(_identity_noun(toks[0]), "i", None) == first.i:
                    return None  # "the main island of Madeira, the smaller island of Porto Santo": a list the
                    #              parse hung as an apposition; the name is what the noun is (``_classes_of_identity``)
                if len(low_side) == 3 and low_side[0][1] == "poss":  # "Hamnet, William Shakespeare's son"
                    return top, f"{first.lemma_.lower()} of", low, "possessive", span
                if len(low_side) == 3 and self._nationality(low, low_side[0][1]):  # "X, an American singer,"
                    return top, "from", low, "nationality", span
                verbs = [t for t in toks if t.pos_ == "VERB"]
                clause = low_side[-3][1] if len(low_side) >= 3 else ""
                if len(verbs) == 1 and len(toks) >= 4 and toks[-3] is verbs[0] and (clause == "acl" or (
                        clause == "relcl" and self.ents[low.entity].kind == "VALUE")):
                    return top, _name(verbs, preps[0] if preps else None), low, "apposition", span  # "X, a song
                    #    written by A," "a film starring A"; "X, a law he signed in 2010" dates X, whoever "he" is
                if not preps or verbs:
                    return None
                return top, _name([first], preps[-1]), low, "apposition", span
            if low_side[-2][1] in ("relcl", "acl") and first.pos_ == "VERB":  # (or a participle coordinated with one)
                object_relative = _object_relative(first)
                if len(low_side) == 3 and low_side[0][1] in _SUBJ and first.dep_ == "relcl" and object_relative:
                    return low, _verb(first), top, "clause", span  # "Pierre Curie, whom she married": she married him
                where = any(c.lower_ == "where" and c.dep_ == "advmod" for c in first.children) and \
                    first.lemma_ not in ("be", "become")  # ("where he became a professor at ...": no place of his)
                agent = any(t.dep_ == "agent" for t in toks)
                verb_between = any(t.pos_ == "VERB" for t in toks[1:-2])
                if where and len(low_side) <= 4 and (low_side[0][1] == "nsubj" and len(low_side) == 3 or agent) \
                        and not verb_between:
                    # "Ibadan, where he studied English": he studied at Ibadan; "..., where he was taught by
                    # Tupolev": Tupolev taught there
                    at = "in" if self.ents[top.entity].kind in ("GPE", "LOC") else "at"
                    return low, f"{_verb(first)} {at}", top, "clause", span
                if verb_between or low_side[0][1] in _SUBJ or _adverbial_clause(first):
                    return None
                if _own_subject(first) and not object_relative:
                    return None  # "Ibadan, where he studied English": the clause's own subject did it, not Ibadan
                    #              ("Blue Sky, which they recorded in Paris": Blue Sky, its object, was recorded there)
                passive = first.tag_ == "VBN" or any(c.dep_ == "nsubjpass" for c in first.children)
                if passive and agent:
                    return low, _verb(first), top, "clause", span
                nouns = [t for t in toks[1:-2] if t.pos_ == "NOUN"]
                if len(nouns) > 1:
                    return None
                return top, _name([first] + nouns, preps[0] if preps else None), low, "clause", span
            if not any(t.pos_ in ("VERB", "AUX", "ADP") for t in toks) and len(content) <= 2 and \
                    low_side[0][1] in _MODIFIER and self.ents[top.entity].kind not in ("VALUE", "NORP") and \
                    not any(t.dep_ == "conj" and t.head in toks for t in toks[1:-1]):  # not "A and *the Brazilian*
                #                                                                       club B": B's, not A's
                name = self._modifier_name(low, toks)  # "the 1997 film Spawn"; "their album Vision Thing"
                return top, name, low, "possessive" if name.endswith(" of") else "modifier", span
            if first.dep_ == "prep" and (first.lower_ in ("in", "at", "near", "of", "from") or first.lower_ == "by"
                                         and self.ents[top.entity].kind not in _NOT_MADE_BY) and len(content) == 1 \
                    and self.ents[top.entity].kind != "VALUE":  # ("Family Diary *by* Valerio Zurlini": its maker)
                if self.ents[low.entity].kind == "VALUE":
                    return top, first.lower_, low, "modifier", span
                rel = "located " + first.lower_ if first.lower_ in ("in", "at", "near") and \
                    self.ents[low.entity].kind in ("GPE", "LOC", "FAC") else first.lower_
                return top, rel, low, "modifier", span
            return None
        role_a = side_a[-2][1]
        role_b = side_b[-2][1]
        if lca.pos_ in ("VERB", "AUX"):
            role_as = self._object_as(side_a, side_b, a, b)
            if role_as is not None:
                return role_as + (span,)
            for (own, own_side), (name, name_side) in (((a, side_a), (b, side_b)), ((b, side_b), (a, side_a))):
                if len(own_side) == 3 and own_side[0][1] == "poss" and own_side[1][1] in _SUBJ and \
                        own_side[1][0].pos_ == "NOUN" and len(name_side) == 2 and \
                        (name_side[0][1] == "attr" and lca.lemma_ == "be" or
                         name_side[0][1] == "dobj" and lca.lemma_ in ("include", "comprise")) and \
                        self.ents[name.entity].kind != "VALUE":
                    noun = own_side[1][0]  # "Its home ground is Alfheim Stadium": the stadium is its home ground;
                    # "Its main tributaries include the Aare": the Aare is one of its tributaries
                    words = [c.lower_ for c in noun.children if c.dep_ == "compound" and c.is_lower] + [noun.lemma_.lower()]
                    return name, " ".join(words) + " of", own, "possessive", span
                if len(own_side) == 3 and own_side[0][1] == "poss" and own_side[1][1] in _SUBJ and \
                        own_side[1][0].pos_ == "NOUN" and len(name_side) == 3 and name_side[0][1] == "pobj" and \
                        name_side[1][0].lower_ in ("in", "at", "on", "near") and lca.lemma_ == "be":
                    noun = own_side[1][0]  # "Its headquarters are in Stockholm": its headquarters in Stockholm
                    return own, f"{noun.lower_} {name_side[1][0].lower_}", name, "possessive", span
                if len(own_side) == 3 and own_side[0][1] == "poss" and own_side[1][1] == "nsubjpass" and \
                        own_side[1][0].pos_ == "NOUN" and len(name_side) == 3 and name_side[1][1] == "agent" and \
                        self.ents[name.entity].kind != "VALUE" and lca.pos_ == "VERB":
                    noun = own_side[1][0]  # "Its score was composed by Andrew Prahlow": the agent composed its
                    # score, a thing of its own the relation names (not "composed by" said of the owner itself)
                    words = [c.lower_ for c in noun.children if c.dep_ == "compound" and c.is_lower] + [noun.lemma_.lower()]
                    return own, f"{' '.join(words)} {_verb(lca)} by", name, "possessive", span
            if "poss" in (side_a[0][1], side_b[0][1]) and len(side_a) + len(side_b) > 4:
                return None  # "used his concept for X": X is not his
            subj_a, subj_b = role_a in _SUBJ, role_b in _SUBJ
            made = self._made_object_date(lca, (a, role_a, side_a), (b, role_b, side_b))
            if made is not None:
                return made + (span,)
            if subj_a == subj_b:
                return None
            (src, src_side, src_role), (dst, dst_side) = ((a, side_a, role_a), (b, side_b)) if subj_a else \
                ((b, side_b, role_b), (a, side_a))
            named = src_side[_past_conjuncts(src_side):]  # ("A and B": A's)
            if len(src_side) > 2 and src_side[0][1] != "poss" and not (
                    len(named) == 3 and named[0][1] == "appos" and named[1][0].pos_ == "NOUN" and
                    named[1][0].i not in self.token_mention and self._set_off(named[0][0], named[1][0])):
                return None  # the subject of its own clause (but the name the subject's noun is: "The university's
                #              main library, Carolina Rediviva, holds the Codex Argenteus"; "its two headstreams,
                #              the Brigach and the Breg, meet at Donaueschingen")
            toks = [t for t, _ in dst_side]
            for t in toks[1:-1]:  # a clause with a subject of its own relates that subject, not ours
                if t.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJ for c in t.children):
                    return None
            naming = {t.i for t in toks[1:-1] if t.dep_ == "acl" and t.lower_ in _NAMING and t.head.pos_ == "NOUN"}
            naming |= {self.doc[i].head.i for i in naming}  # "formed a band called Arcadia": formed Arcadia
            naming |= {t.i for t in toks[1:2] if t.i + 1 == dst.start and t.pos_ == "NOUN"}  # "the sister of the
            #                                                   *painter* Peter Ilsted": the name's title, no step
            nouns = [t for t in toks[1:-1] if t.pos_ == "NOUN" and t.i not in naming]
            verb = next((t for t in toks[1:] if t.pos_ == "VERB" and t.i not in naming), None)
            attr = [t for t in toks[1:-1] if t.dep_ in ("attr", "acomp")]
            if verb is None and attr and len(toks) == 3 and self._nationality(dst, dst_side[0][1]):
                return src, "from", dst, "nationality", span  # "X is a German developer (of Y)"
            if any(self._owned_by_other(n, (src, dst)) for n in nouns) or _in_time_frame(toks):
                return None  # "after the establishment of X in 1991, Y has ...": 1991 dates X's establishment
            preps = [t for t in toks if t.dep_ in ("prep", "agent", "dative")]
            if verb is None:  # copula: "X is the capital of Y"
                if self.ents[dst.entity].kind != "VALUE" and _in_area_of([lca] + toks[1:-1]):
                    return src, LOCATED_IN, dst, "copula", span  # "X is a village in the district of Gmina Y"
                if self.ents[dst.entity].kind != "VALUE" and not attr and len(toks) == 3 and \
                        toks[1].lower_ in _WITHIN:
                    return src, toks[1].lower_, dst, "copula", span  # "X is (a village ...), within Tarnów County"
                if not attr or not preps or len(nouns) > 1:
                    return None
                return src, _name([attr[-1]], preps[0]), dst, "copula", span
            if src_role == "nsubjpass" and any(t.dep_ == "agent" for t in toks):
                if dst_side[0][1] == "amod" and self.ents[dst.entity].kind == "NORP":
                    return None  # "founded by three *Russian* engineers": the engineers did it, not Russia
                by = next(k for k, t in enumerate(toks) if t.dep_ == "agent")
                if any(t.dep_ == "prep" and t.lower_ != "of" for t in toks[1:by]):
                    return None  # "formed by two brothers ... in *Manchester*": where they were, not who formed it
                return dst, _verb(verb), src, "passive", span
            if src_role == "nsubjpass" and dst_side[-2][1] in ("npadvmod", "appos") and verb.i == lca.i and \
                    self._names_the_agent(toks[-2]):
                return dst, _verb(verb), src, "passive", span  # "by three engineers, Sergey Dmitriev, ...": the
                #                                                names the parse hung on the verb are the agent's
            nouns = [t for t in nouns if toks.index(t) < toks.index(verb)]  # "a band formed in X": not "band"
            preps = [t for t in preps if toks.index(t) < toks.index(verb)] or preps
            if len(nouns) > 1:
                return None
            if self.ents[dst.entity].kind == "VALUE" and _dates_its_object(verb):
                return None  # "X released their album in 2006": the date is the album's
            if self.ents[dst.entity].kind == "VALUE" and not preps:
                return src, _verb(verb), dst, "svo", span
            how = "passive" if src_role == "nsubjpass" else "svo"
            name = _name([verb] + nouns, preps[0] if preps else None)
            if toks[0].lower_ == "there" and not preps:  # "died there": died in the place it stands for
                name += " in"
            return src, name, dst, how, span
        if lca.pos_ == "NOUN" and lca.i not in self.token_mention:
            placed = self._named_place_in(lca, side_a, side_b, a, b)
            if placed is not None:
                return placed + (span,)
            roles = {side_a[0][1] if len(side_a) == 2 else "", side_b[0][1] if len(side_b) == 2 else ""}
            mods = [(m, side) for m, side in ((a, side_a), (b, side_b)) if side[0][1] in _MODIFIER]
            if len(side_a) == 2 and len(side_b) == 2 and len(mods) == 1 and \
                    {side_a[0][1], side_b[0][1]} - {mods[0][1][0][1]} <= {"appos", "compound"}:
                low = mods[0][0]
                top = b if low is a else a
                if self.ents[top.entity].kind != "VALUE":
                    name = self._modifier_name(low, [lca])  # "Lutsenko's wife Iryna": wife of, a possessive
                    return top, name, low, "possessive" if name.endswith(" of") else "modifier", span
            nominal = self._nominal(lca, side_a, side_b, a, b) or self._exemplified(lca, side_a, side_b, a, b)
            if nominal is not None:
                return nominal + (span,)
            owned = self._owned_in(lca, side_a, side_b, a, b)
            if owned is not None:
                return owned + (span,)
            if roles == {"poss", "appos"}:  # "Y, X's son": a possessor and an apposition of the possessed noun
                owner, owned = (a, b) if side_a[0][1] == "poss" else (b, a)
                return owned, f"{lca.lemma_.lower()} of", owner, "possessive", span
        return None

    def _named_place_in(self, noun: Any, side_a: list, side_b: list, a: _Mention, b: _Mention):
        """"the Ullevi stadium in Gothenburg": a name before a place or institution noun of its own names that noun,
        so the noun's "in" place is the name's -> (Ullevi, "located in", Gothenburg, "modifier"), or None."""
        if not noun.is_lower or noun_kind(noun.lemma_.lower()) not in (PLACE, ORGANIZATION):
            return None
        for (name, name_side), (place, place_side) in (((a, side_a), (b, side_b)), ((b, side_b), (a, side_a))):
            if len(name_side) == 2 and name_side[0][1] == "compound" and name_side[0][0].i + 1 == noun.i and \
                    len(place_side) == 3 and place_side[1][1] == "prep" and \
                    place_side[1][0].lower_ in ("in", "at", "near") and place_side[0][1] == "pobj" and \
                    self.ents[place.entity].kind in ("GPE", "LOC", "FAC") and self.ents[name.entity].kind != "VALUE":
                return name, "located " + place_side[1][0].lower_, place, "modifier"
        return None

    def _object_as(self, side_a: list, side_b: list, a: _Mention, b: _Mention):
        """"(who) had replaced Garcia as the New Riders' guitar player", "appointed Smith as the club's coach": the
        verb's object holds the role its "as" names, of that role's possessor -> (Garcia, "player of", New Riders,
        "object-as"), or None."""
        for (obj, obj_side), (owner, owner_side) in (((a, side_a), (b, side_b)), ((b, side_b), (a, side_a))):
            if len(obj_side) == 2 and obj_side[0][1] == "dobj" and len(owner_side) == 4 and \
                    owner_side[0][1] == "poss" and owner_side[1][0].pos_ == "NOUN" and \
                    owner_side[1][1] == "pobj" and owner_side[2][0].lower_ == "as" and \
                    self.ents[obj.entity].kind != "VALUE" and self.ents[owner.entity].kind != "VALUE" and \
                    obj.via in ("", "alias") and owner.via in ("", "alias"):  # not "the song ... as his co-producer"
                return obj, f"{owner_side[1][0].lemma_.lower()} of", owner, "object-as"
        return None

    def _team_in_league(self, verb: Any, side_a: list, side_b: list, a: _Mention, b: _Mention):
        """"played in the National Basketball Association as a member of the Toronto Huskies", "played for X in the
        Y League" (where the parser hangs both on the verb): the organisation one plays for is in the one one plays
        in ->
        (Toronto Huskies, "played in", National Basketball Association, "team-in"), or None."""
        for (team, team_side), (league, league_side) in (((a, side_a), (b, side_b)), ((b, side_b), (a, side_a))):
            words = [t.lower_ for t, _ in team_side[1:-1]]
            if len(league_side) == 3 and league_side[1][0].lower_ == "in" and league_side[0][1] == "pobj" and \
                    team_side[0][1] == "pobj" and words in (["for"], ["of", "member", "as"]) and \
                    self.ents[team.entity].kind == self.ents[league.entity].kind == "ORG" and \
                    _verb(verb) in ("played", "play"):
                return team, "played in", league, "team-in"
        return None

    def _names_the_agent(self, name: Any) -> bool:
        """Whether a name the parse hung on a passive verb comes right after its agent's noun and a comma ("founded by
        three engineers, *Sergey Dmitriev*, ..."): it names that agent."""
        doc = self.doc
        while name.dep_ == "conj":  # "..., Valentin Kipiatkov and Eugene Belyaev": the list's first name
            name = name.head
        start = min(t.i for t in name.subtree)
        agents = [g for c in name.head.children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
        return start > 1 and doc[start - 1].text == "," and any(
            g.pos_ == "NOUN" and g.i not in self.token_mention and g.i == start - 2 for g in agents)

    def _set_off(self, name: Any, noun: Any) -> bool:
        """Whether a name (its head token) in apposition to ``noun`` is set off as one, with its article and the names
        joined to it: right after it ("his mother Eva Reyes") or between commas ("the main library, Carolina
        Rediviva, holds", "its two headstreams, the Brigach and the Breg, meet"), not one item of a list the parse
        hung on it."""
        doc = self.doc
        if _named_class_apposition(name) and name.head.head.i == noun.i:
            name = name.head  # "the poster Den Tørstige Mand": set off with its class noun
        a, b = name.left_edge.i, name.right_edge.i + 1
        return a == noun.i + 1 or doc[a - 1].text == "," and b < len(doc) and doc[b].text == ","

    def _owned_by_other(self, noun: Any, ends: tuple[_Mention, _Mention]) -> bool:
        """Whether ``noun`` has an "of" object naming a third entity ("the establishment *of X*")."""
        for prep in noun.children:
            if prep.dep_ == "prep" and prep.lower_ == "of":
                obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
                listed = [self.token_mention.get(t.i) for t in ([obj, *obj.conjuncts] if obj is not None else [])]
                if listed and listed[0] is not None and not any(m in ends for m in listed):
                    return True  # (any name of a list "member of A, B and C" is the noun's own)
        return False

    def _nominal(self, noun: Any, side_a: list, side_b: list, a: _Mention, b: _Mention):
        """An event named by a noun, its "of" object and when or where it happened: "the establishment of X in
        1991", "the opening of X in Paris" -> (X, "establishment in", 1991, "nominal"), or None."""
        if len(side_a) != 3 or len(side_b) != 3 or side_a[0][1] != "pobj" or side_b[0][1] != "pobj":
            return None
        pa, pb = side_a[1][0], side_b[1][0]
        if pa.lower_ == "of" and pb.lower_ in ("in", "on", "at"):
            thing, when, prep = a, b, pb
        elif pb.lower_ == "of" and pa.lower_ in ("in", "on", "at"):
            thing, when, prep = b, a, pa
        else:
            return None
        if self.ents[thing.entity].kind == "VALUE" or not noun.lemma_.isalpha():
            return None
        return thing, f"{noun.lemma_.lower()} {prep.lower_}", when, "nominal"

    def _exemplified(self, noun: Any, side_a: list, side_b: list, a: _Mention, b: _Mention):
        """An example of a noun and where or whose that noun is ("club teams *in Brazil* such as Flamengo", "singers
        *from France* including Alma") -> (Flamengo, "team in", Brazil, "example"), or None."""
        found = _noun_and_prep_object(noun, side_a, side_b, a, b, "example")
        if found is None or self.ents[found[0].entity].kind == "VALUE":
            return None
        item, other, prep = found
        rel = f"{noun.lemma_.lower()} {prep.lower_}"
        if prep.lower_ == "in" and self.ents[other.entity].kind in ("GPE", "LOC", "FAC"):
            rel = LOCATED_IN
        return item, rel, other, "example"

    @staticmethod
    def _owned_in(noun: Any, side_a: list, side_b: list, a: _Mention, b: _Mention):
        """A possessor's noun and where or what it is ("*its* headquarters in *Hamburg*", "*his* role in
        *Titanic*") -> (possessor, "headquarters in", the name, "possessive"), or None."""
        found = _noun_and_prep_object(noun, side_a, side_b, a, b, "poss")
        if found is None:
            return None
        owner, thing, prep = found
        return owner, f"{noun.lemma_.lower()} {prep.lower_}", thing, "possessive"

    def _end_char(self, m: _Mention) -> int:
        """The character offset just after a mention (where the text that follows it starts)."""
        return self.doc[m.start:m.end].end_char

    def _between(self, a: _Mention, b: _Mention) -> str:
        """The text from the end of mention ``a`` to the start of ``b`` (", ", " from the ", " with ")."""
        return self.text[self._end_char(a):self.doc[b.start].idx]

    def _nationality(self, m: _Mention, role: str) -> bool:
        """A nationality or country modifying the class noun said of a name ("a *German* developer")."""
        return role in ("amod", "compound") and self.ents[m.entity].kind in ("NORP", "GPE")

    def _place_chains(self, sent: Any, mentions: list[_Mention]) -> None:
        """"in Gollaprolu mandal, East Godavari district, Andhra Pradesh, India": each name is located
        in the next. A list of places ("France, Switzerland and Italy") is no chain."""
        chain: list[_Mention] = []
        for m in [m for m in mentions if not m.via] + [None]:
            if m is not None and chain and (self.ents[m.entity].kind in _CHAINED or self._place(m.entity) and re.search(
                    r"\b(?:in|within)\b", self._between(chain[-1], m))) and self._comma_between(chain[-1], m):
                # (a polity NER calls a building, said to hold the place: "Hämeenlinna, in the Grand Duchy of Finland")
                chain.append(m)
                continue
            listed = bool(chain) and re.match(r"\s*,?\s*(?:and|or|&)\s+(?:the\s+)?[A-Z]",
                                              self.text[self._end_char(chain[-1]):sent.end_char])
            while chain and not self._place(chain[-1].entity) and not (
                    len(chain) >= 2 and self._place(chain[-2].entity) and chain[-1].entity not in self.people and
                    re.fullmatch(r"\s*[.;)]?\s*", self.text[self._end_char(chain[-1]):sent.end_char])):
                chain.pop()  # a chain ends in a place (by NER or its name's head noun: "Kroonstad, Free State"), or
                #              in a name that ends the sentence after one ("based in Bologna, Emilia-Romagna.",
                #              which NER calls a person)
            if len(chain) >= 2 and not self._place(chain[0].entity) and re.search(
                    r",\s*(?:the\s+)?$", self.text[sent.start_char:self.doc[chain[0].start].idx]):
                listed = True  # "The European Union, the United States Department of State, Canada, human rights
                #                organizations ...": an organisation after a comma is one more item of a list
            if len(chain) >= 2 and not listed:
                for x, y in zip(chain, chain[1:]):
                    self._add(self.ents[x.entity].label, LOCATED_IN, self.ents[y.entity].label, "place-chain",
                              self.doc[x.start:y.end], sent)
            chain = [m] if m is not None and (self.ents[m.entity].kind in _LOCATED or self._placed_name(m) or
                                              self._place(m.entity)) else []

    def _placed_name(self, m: _Mention) -> bool:
        """A name NER calls a person that the text puts where a place goes ("the district *of Gmina Olesno*",
        "*in* Andhra Pradesh"), unless it is known to be a person."""
        return self.ents[m.entity].kind == "PERSON" and m.entity not in self.people and m.start > 0 and \
            self.doc[m.start - 1].lower_ in ("in", "of", "within")

    def _place_lists(self, sent: Any, mentions: list[_Mention]) -> None:
        """"Vancouver, Victoria, Surrey and Richmond in British Columbia", "near Roper and Creswell, North
        Carolina": a list of names followed by "in" or a comma and a place is a list of things in that place."""
        named = [m for m in mentions if not m.via]
        for k, where in enumerate(named):
            if k < 2 or self.ents[where.entity].kind not in _PLACE:
                continue
            if not re.fullmatch(r"\s*(?:,|in)\s*", self._between(named[k - 1], where)) \
                    or re.match(r"\s*(?:,\s*|(?:,\s*)?(?:and|or)\s+)(?:the\s+)?[A-Z]",
                                self.text[self._end_char(where):sent.end_char]):
                continue  # not the list's place, but one more item of a list
            items, joined = [named[k - 1]], False
            for m in reversed(named[:k - 1]):
                gap = self._between(m, items[-1])
                if re.fullmatch(r"\s*,?\s*(?:and|or)\s+", gap) and not joined:
                    joined = True
                elif not (re.fullmatch(r"\s*,\s*", gap) and joined):
                    break
                items.append(m)
            if not joined or any(self.ents[m.entity].kind not in _CHAINED | {"FAC"} for m in items):
                continue
            for m in items:
                self._add(self.ents[m.entity].label, LOCATED_IN, self.ents[where.entity].label, "place-list",
                          self.doc[m.start:where.end], sent)

    def _places_of(self, sent: Any, mentions: list[_Mention]) -> None:
        """"the Scarborough district of North Yorkshire", "the Indonesian province of East Kalimantan", "Thailand's
        Tak Province": a name, a place noun of the kinds lexicon and "of" a place is in that place; a nationality
        so qualifying a place is its country's; a place named before another with "'s" holds it."""
        named = [m for m in mentions if not m.via]
        for a, b in zip(named, named[1:]):
            ka, kb = self.ents[a.entity].kind, self.ents[b.entity].kind
            gap = self._between(a, b)
            between = [t for t in self.doc[a.end:b.start] if t.lower_ not in ("of", "the")]
            if kb in _PLACE and ka in _CHAINED | {"NORP"} and self.doc[a.start - 1].lower_ == "the" and \
                    _DIVISION_GAP.fullmatch(gap) and between and all(t.pos_ == "NOUN" for t in between) and \
                    noun_kind(between[-1].lower_) == PLACE:
                # "the *U.S.* state of Louisiana": a country qualifies the division as its people do
                country = ka == "NORP" or country_named(self.ents[a.entity].label) is not None
                inner, outer = (b, a) if country else (a, b)
                self._add(self.ents[inner.entity].label, LOCATED_IN, self.ents[outer.entity].label, "place-of",
                          self.doc[a.start:b.end], sent)
            elif ka in _PLACE and kb in _PLACE | {"FAC"} and re.fullmatch(r"\s*['’]s\s+", gap):
                self._add(self.ents[b.entity].label, LOCATED_IN, self.ents[a.entity].label, "place-of",
                          self.doc[a.start:b.end], sent)

    def _contained_lists(self, sent: Any, mentions: list[_Mention]) -> None:
        """"The county contains three other towns: Praszka, north of Olesno, Dobrodzień, ...", "It includes the
        towns of Creswell and Roper": the names listed after a plural place noun (of the kinds lexicon) that a
        place contains or includes are in that place; a name after another preposition ("north *of Olesno*") is
        no item."""
        for verb in sent:
            if verb.pos_ != "VERB" or verb.lemma_ not in _CONTAINS:
                continue
            subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
            noun = next((c for c in verb.children if c.dep_ == "dobj"), None)
            holder = self.token_mention.get(subj.i) if subj is not None else None
            if holder is None or noun is None or not self._place(holder.entity) or \
                    noun.tag_ != "NNS" or noun_kind(noun.lower_) != PLACE:
                continue
            for m in mentions:
                before = self.doc[m.start - 1]
                if m.via or m.start <= noun.i or self.ents[m.entity].kind not in _CHAINED | {"FAC", "ORG"}:
                    continue
                if any(t.pos_ in ("VERB", "AUX") for t in self.doc[noun.i + 1:m.start]):
                    break  # the list has ended
                if before.lower_ in (":", ",", "and") or before.lower_ == "of" and before.i == noun.i + 1:
                    self._add(self.ents[m.entity].label, LOCATED_IN, self.ents[holder.entity].label, "contains-list",
                              self.doc[verb.i:m.end], sent, holder.via)

    def _place(self, k: int) -> bool:
        """Whether NER or the head noun of its name ("Olesno County") makes an entity a place."""
        e = self.ents[k]
        return e.kind in _PLACE or named_kind(e.label, None) == PLACE

    def _place_in(self, r: ExtractedRelation) -> bool:
        """Whether a relation says a place is in another: "located in", or a place's "... in" a place read from its
        sentence ("Olesno County is a unit ... in Opole Voivodeship")."""
        return r.relation == LOCATED_IN or r.relation.endswith(" in") and not r.how.startswith("document") and \
            self._place_key(r.source) and self._place_key(r.target)

    def _place_key(self, label: str) -> bool:
        """``_place`` for an entity named by its label (relations hold labels)."""
        k = self.by_key.get(fold(label))
        return k is not None and self._place(k)

    def _nationality_lists(self, sent: Any, mentions: list[_Mention]) -> set[frozenset[int]]:
        """"X was a Soviet, Ukrainian, and Russian mathematician", "X, an American-Canadian and British actor,": X is
        from each nationality of the list before its class noun. Read from the words, since the parser often takes
        a list of adjectives for a list of nouns ("a *Soviet*, *Ukrainian*, and Russian mathematician"); the class
        noun's place in the parse (after its conjuncts: the attribute or apposition of a name) says whose it is."""
        doc, done = self.doc, set()
        named = [m for m in mentions if not m.via]
        k = 0
        while k < len(named):
            run = [named[k]]
            while k + len(run) < len(named) and re.fullmatch(
                    r"\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or)\s+|[-–/])",
                    self._between(run[-1], named[k + len(run)])):
                run.append(named[k + len(run)])
            k += len(run)
            if len(run) < 2 or any(self.ents[m.entity].kind not in ("NORP", "GPE") or m.end - m.start != 1
                                   for m in run) or run[0].start <= sent.start or \
                    doc[run[0].start - 1].lower_ not in _DETS:
                continue
            words = doc[run[-1].end:min(run[-1].end + 4, sent.end)]
            nouns = [t for t in words[:next((i for i, t in enumerate(words)
                                             if not (t.is_lower and t.pos_ in ("ADJ", "NOUN"))), len(words))]
                     if t.pos_ == "NOUN"]
            if not nouns:
                continue
            t, steps = nouns[-1], 0
            while t.dep_ in ("conj", "amod", "compound") and t.head.i >= run[0].start - 1 and steps < 6:
                t, steps = t.head, steps + 1
            if t.dep_ == "attr":
                t = next((c for c in t.head.children if c.dep_ in _SUBJ), None)
            elif t.dep_ == "appos":
                t = t.head
            else:
                continue
            who = self.token_mention.get(t.i) if t is not None else None
            if who is None or self.ents[who.entity].kind == "VALUE" or any(who is m for m in run):
                continue
            for m in run:
                done.add(frozenset((who.entity, m.entity)))
                self._add(self.ents[who.entity].label, "from", self.ents[m.entity].label, "nationality-list",
                          doc[run[0].start:nouns[-1].i + 1], sent, who.via)
        return done

    def _cast_as(self, sent: Any, mentions: list[_Mention]) -> tuple[list[tuple[_Mention, Any, _Mention]],
                                                                      list[_Mention], list[tuple[_Mention, _Mention]]]:
        """"The film stars Ben Newmark as the IDF soldier, Noureen DeWulf as the Palestinian cashier, and Joey Naber
        as his rival": each name of the list is starred (work, verb, name); the names inside an "as" phrase (IDF) are
        roles, related to nobody. Read from the words: the parser hangs each next name on the role before it. And,
        list or not, each (name, character) where the "as" phrase is only the character's name and its nouns ("as the
        bandit Tajōmaru"): who played whom."""
        doc, text = self.doc, self.text
        verb = next((t for t in sent if t.lemma_.lower() in ("star", "feature") and t.i + 1 < sent.end and
                     t.i + 1 in self.token_mention), None)
        work = None
        if verb is not None:
            subj = next((c for c in verb.children if c.dep_ in _SUBJ), None)
            work = self.token_mention.get(subj.i) if subj is not None else None
        if verb is None or work is not None and self.ents[work.entity].kind == "VALUE":
            return [], [], []
        starts = {doc[m.start].idx: m for m in mentions}
        cast, roles, played, pos, with_as = [], [], [], verb.idx + len(verb.text), False
        while True:
            gap = re.match(r"\s*(?:and\s+)?", text[pos:sent.end_char])
            who = starts.get(pos + gap.end())
            if who is None or self.ents[who.entity].kind not in ("PERSON", "PROPN", "ORG"):
                break
            cast.append((work, verb, who))
            pos = self._end_char(who)
            role = re.match(r"\s+as\s+[^,;()]*", text[pos:sent.end_char])
            if role is not None:
                with_as = True
                next_one = re.search(r"\s+and\s+(?=[A-Z][^,;()]*?\s+as\s)", role.group())  # "as Basil Fawlty and
                end = next_one.start() if next_one is not None else role.end()   # Prunella Scales as his wife Sybil"
                inside = [m for m in mentions if pos <= doc[m.start].idx < pos + end]
                roles += inside
                named = [m for m in inside if self.ents[m.entity].kind not in ("NORP", "VALUE") and m.via != "pronoun"]
                if len(named) == 1 and self._end_char(named[0]) == pos + len(role.group()[:end].rstrip(" .")) and \
                        re.fullmatch(r"\s+as\s+(?:(?:the|a|an|his|her|its)\s+)?(?:[A-Za-z-]+\s+){0,3}",
                                     text[pos:doc[named[0].start].idx]):
                    played.append((who, named[0]))
                pos += end
            sep = re.match(r"\s*,\s*(?:and\s+)?|\s+and\s+", text[pos:sent.end_char])
            if sep is None:
                break
            pos += sep.end()
        return (cast, roles, played) if work is not None and with_as and len(cast) > 1 else ([], [], played)

    def _members_from(self, sent: Any, mentions: list[_Mention]) -> set[frozenset[int]]:
        """"guest musicians Jerry Garcia and Bill Kreutzmann from the Grateful Dead", "Le Bon, Rhodes and Taylor of
        Duran Duran": people listed right before "from" or "of" and an organisation are its members. Read from the
        words: the parser hangs "from" on the verb."""
        done = set()
        named = [m for m in mentions if not m.via]
        for k, group in enumerate(named):
            if k == 0 or self.ents[group.entity].kind != "ORG" or not re.fullmatch(
                    r"\s*(?:from|of)\s+(?:the\s+)?", self._between(named[k - 1], group)):
                continue
            people = [named[k - 1]]
            for m in reversed(named[:k - 1]):
                if not re.fullmatch(r"\s*(?:,\s*(?:and\s+)?|and\s+)",
                                    self._between(m, people[-1])):
                    break
                people.append(m)
            if any(self.ents[m.entity].kind != "PERSON" for m in people):
                continue
            for m in people:
                done.add(frozenset((m.entity, group.entity)))
                self._add(self.ents[m.entity].label, "member of", self.ents[group.entity].label, "member-from",
                          self.doc[m.start:group.end], sent)
        return done

    def _performed_with(self, sent: Any, mentions: list[_Mention]) -> dict[int, _Mention]:
        """"succeeded by Edsilia Rombley with "On Top of the World"", "following Finland's Lordi with "Hard Rock
        Hallelujah"": a performer named right before "with" and a quoted title performed that work (id of the
        work's mention -> the performer's). Read from the words: the parser hangs "with" on the clause's verb, whose
        subject is someone else."""
        done: dict[int, _Mention] = {}
        named = [m for m in mentions if not m.via]
        for who, work in zip(named, named[1:]):
            if self.ents[who.entity].kind not in ("PERSON", "ORG", "PROPN") or \
                    self.ents[work.entity].kind != "WORK_OF_ART" or work.end >= sent.end or \
                    self.doc[work.end].text not in _QUOTES or \
                    not re.fullmatch(r"\s*with\s+[\"“]", self._between(who, work)):
                continue
            done[id(work)] = who
        return done

    def _comma_between(self, x: _Mention, y: _Mention) -> bool:
        """Whether a comma links two names of a chain: "Opole Voivodeship, south-western Poland", "Temagami, in the
        Nipissing District"; not a place said to be near another ("United States, in suburban Portland")."""
        gap = self.doc[x.end:y.start]
        if x.start > 1 and self.doc[x.start - 1].lower_ == "of" and _COMPASS.match(self.doc[x.start - 2].lower_) \
                and re.match(r"\s*,\s*(?:and\s+)?(?:north|south|east|west)", self.text[self._end_char(y):]):
            return False  # "Praszka, north of Olesno, Dobrodzień, south of Olesno": a list of bearings, no chain
        said = {t.lower_ for t in gap} & {"in", "within"}
        return bool(_CHAIN_GAP.match(self._between(x, y))) \
            and all(t.is_punct or t.pos_ == "NOUN" or t.pos_ == "ADJ" and (not said or _COMPASS.match(t.lower_))
                    or t.lower_ in ("in", "within", "the") for t in gap)

    def _first_mentions(self) -> dict[int, _Mention]:
        """Each entity's first mention by its own name (not a pronoun or description): where its facts are cited."""
        first: dict[int, _Mention] = {}
        for m in self.mentions:
            if m.via in ("", "nested"):
                first.setdefault(m.entity, m)
        return first

    def _named_places(self) -> None:
        """An organisation, a building or an event whose name holds a place's name is in that place
        ("National Railway Company of Belgium", "Moscow State University", "IBM Research–Brazil")."""
        first = self._first_mentions()
        places = {i: _words(e.label) for i, e in enumerate(self.ents) if e.kind in _PLACE and i in first and
                  i not in self.people and majority_kind(self.ner_labels.get(i, Counter())) == PLACE}
        related = {frozenset((r.source, r.target)) for r in self.relations.values()}
        for i, e in enumerate(self.ents):
            if e.kind not in _NAMED_IN or i not in first:
                continue
            words = _words(e.label)
            for k, place in places.items():
                label = self.ents[k].label
                if k == i or not place or len(place) >= len(words) or frozenset((e.label, label)) in related:
                    continue
                at = next((j for j in range(len(words) - len(place) + 1) if words[j:j + len(place)] == place), None)
                if at is not None and not set(words[:at] + words[at + len(place):]) <= _FEATURE_NAMING:
                    m = first[i]
                    self._add(e.label, LOCATED_IN, label, "name-place", self.doc[m.start:m.end],
                              self.doc[m.start].sent)

    def _contained(self) -> None:
        """What is in a place is in every place that contains it: "X, born in La Crosse" and "La
        Crosse, Wisconsin" give "X born in Wisconsin" (the same relation, a step less sure); a place's "... in"
        another ("a unit of local government in Opole Voivodeship") contains it as "located in" does."""
        inside: dict[str, list[ExtractedRelation]] = {}
        for r in self.relations.values():
            if self._place_in(r):
                inside.setdefault(r.source, []).append(r)
        for _ in range(3):
            added = False
            for r in list(self.relations.values()):
                if not _says_in(r) or r.how.startswith("document"):
                    continue
                for up in inside.get(r.target, ()):
                    new = _read_through(r, up)
                    key = (new.source, new.relation, new.target)
                    if up.target == r.source or (key in self.relations and
                                                 self.relations[key].confidence >= new.confidence):
                        continue
                    self.relations[key] = new
                    if r.relation == LOCATED_IN:
                        inside.setdefault(r.source, []).append(new)
                    added = True
            if not added:
                break

    def _document_place(self) -> None:
        """Where most of a text's statements that a place is in another ("..., Andhra Pradesh, India", "a county in
        North Carolina") end in one outermost place, the other places it names without saying where are taken to be
        in it too (least sure: the text may name a place abroad); where no place ends most of them, nothing is
        read, nor where that place is a country and the text names two more (a river's course). A place said to hold
        another is never placed so. A country is in no place a text names: where the text names one country only
        and the outermost place is none, that place is in the country ("Portland, Oregon" under "in the northwest
        United States")."""
        located = [r for r in self.relations.values() if self._place_in(r)]
        parent: dict[str, str] = {}
        for r in located:
            parent.setdefault(r.source, r.target)
        tops = Counter(_outermost(r.target, parent) for r in located)
        if not tops or 2 * tops.most_common(1)[0][1] <= len(located):
            return
        top = tops.most_common(1)[0][0]
        abroad = {country_named(self.ents[m.entity].label) for m in self.mentions
                  if not m.via and self.ents[m.entity].kind in _DOCUMENT_PLACED} - {None, country_named(top)}
        if country_named(top) is not None and fold(top) not in _CONTINENTS and len(abroad) >= 2:
            return  # a text naming several other countries (a river's course, a war) may place any place in any
        inner = set(parent) | {r.target for r in located}
        countries: dict[str, _Mention] = {}
        for m in self.mentions:
            e = self.ents[m.entity]
            if m.via or e.kind not in _DOCUMENT_PLACED or e.label in inner or m.entity in self.people or \
                    {noun_kind(c) for c in e.classes} - {None, PLACE, ORGANIZATION} or \
                    named_kind(e.label, None) not in (None, PLACE, ORGANIZATION):
                continue  # (nor a person, an award, a league or an event NER calls a place or an organisation)
            country = country_named(e.label)
            if country is not None:
                countries.setdefault(country, m)
                continue
            if fold(e.label) in _CONTINENTS:
                continue
            inner.add(e.label)
            sent = self.doc[m.start].sent
            self._add(e.label, LOCATED_IN, top, "document-place", self.doc[m.start:m.end], sent)
        if len(countries) == 1 and country_named(top) is None:
            (m,) = countries.values()
            self._add(top, LOCATED_IN, self.ents[m.entity].label, "document-place", self.doc[m.start:m.end],
                      self.doc[m.start].sent)

    def _modifier_name(self, low: _Mention, toks: list[Any]) -> str:
        """A modifier's relation: a year or date, where from (a nationality or place), else the noun."""
        kind, label = self.ents[low.entity].kind, self.ents[low.entity].label
        if kind == "VALUE":
            return "year" if re.fullmatch(r"\d{4}", label) else "date"
        if kind in ("NORP", "GPE", "LOC"):
            return "from"
        if any(t.dep_ == "poss" for t in toks[:1]) or self.doc[low.end - 1].dep_ == "poss":
            owned = toks[-1] if toks else None  # "their *album* Vision Thing", "Lutsenko's *wife* Iryna": of theirs
            noun = owned if owned is not None and owned.pos_ == "NOUN" and owned.i not in self.token_mention else \
                next((c for c in owned.children if c.dep_ == "compound" and c.pos_ == "NOUN"
                      and c.i not in self.token_mention), None) if owned is not None else None
            return f"{noun.lemma_.lower()} of" if noun is not None else "of"  # "Milton's Paradise Lost"
        nouns = [t for t in toks if t.pos_ == "NOUN"]
        return nouns[0].lemma_.lower() if nouns else "related to"

    def _add(self, src: str, rel: str, dst: str, how: str, span: Any, sent: Any, via: str = "") -> None:
        if not src or not dst or not rel or fold(src) == fold(dst):
            return
        if rel != IS_A:
            ks, kd = self.by_key.get(fold(src)), self.by_key.get(fold(dst))
            if ks is not None and self.ents[ks].kind == "VALUE":
                if kd is not None and self.ents[kd].kind == "VALUE":
                    return
                src, dst, kd = dst, src, ks  # values are only ever targets
            if kd is not None and self.ents[kd].kind == "VALUE" and not dates_thing(rel, how):
                return
        conf = CONFIDENCE[how] * (COREF_FACTOR if via else 1.0)
        s0, s1 = (sent.start_char, sent.end_char) if sent is not None else (-1, -1)
        f0, f1 = (span.start_char, span.end_char) if span is not None else (s0, s1)
        key = (src, rel, dst)
        old = self.relations.get(key)
        if old is None or old.confidence < conf:
            self.relations[key] = ExtractedRelation(src, dst, rel, sent.text[:300] if sent is not None else "",
                                                    s0, s1, how + ("+" + via if via else ""), round(conf, 3),
                                                    max(f0, s0), min(f1, s1))


_CLASS_ADJ = {"military", "professional", "political", "civil", "royal", "national", "municipal", "rural",
              "urban", "public", "private", "commercial", "administrative", "residential", "fictional",
              "former", "video", "studio", "live", "feature", "television", "animated", "musical"}
"""Adjectives that make a kind of thing ("military leader", "studio album"), unlike "famous"."""


_RANGE_SEP = {"and", "to", "-", "–", "—", "until", "through", "or"}
_MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"}
_AFTER_VALUE = {"later", "earlier", "ago", "old", "long", "before", "after"}
"""Words after a value that place it in time, whatever the tagger calls them ("two days later")."""
_ORDINAL_WORDS = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                  "last", "next"}


_CONTINENTS = {"africa", "antarctica", "asia", "europe", "north america", "south america", "oceania", "americas",
               "latin america", "north africa", "west africa", "east africa", "southern africa", "central asia",
               "east asia", "south asia", "southeast asia", "middle east", "western europe", "eastern europe",
               "central europe", "northern europe", "southern europe", "scandinavia", "caribbean", "central america"}
"""Continents and the world's regions of countries: no document's place holds them."""


def _outermost(label: str, parent: dict[str, str]) -> str:
    """The place a chain of located-in steps from a label ends in."""
    seen = {label}
    while label in parent and parent[label] not in seen:
        label = parent[label]
        seen.add(label)
    return label


def _dates_its_object(verb: Any) -> bool:
    """Whether a verb of making has an object: then a date of the act is the made thing's, not the subject's."""
    return bool(MAKING.match(_verb(verb))) and any(c.dep_ == "dobj" for c in verb.children)


def _listed_apposition(tok: Any) -> bool:
    """A name the parser made an apposition of the name before it though a list goes on from it ("stars
    Donnie Yen, *Michelle Yeoh*, Harry Shum and Jason Scott Lee"); a place after a place is its container."""
    head = tok.head
    return tok.dep_ == "appos" and tok.pos_ == head.pos_ == "PROPN" and tok.ent_type_ not in _PLACE and \
        tok.left_edge.i == head.i + 2 and tok.doc[head.i + 1].text == "," and \
        any(c.dep_ == "conj" for c in tok.children)


def _in_time_frame(path: list[Any]) -> bool:
    """Whether a dependency path (from a mention up to its verb) passes through an event that only frames the
    clause in time ("*After the fall of the Derg* and the establishment of X in 1991, Y has ..."): what that
    event names is not the subject's."""
    return any(t.dep_ == "prep" and t.lower_ in _TIME_FRAME and k >= 2 and path[k - 1].pos_ == "NOUN"
               for k, t in enumerate(path))


def _valued(ent: Any) -> bool:
    """Whether NER's date or quantity is one: not an ordinal in words ("the *thirty-sixth* General Congregation")."""
    return any(ch.isdigit() for ch in ent.text) or not (
        len(ent) == 3 and ent[1].text == "-" and re.search(r"(?:first|second|third|[^\W\d]th)$", ent[2].lower_))


def _counted(tok: Any) -> bool:
    """A cardinal worth a value node: written in digits ("1,500", "12"). A bare number word ("two
    films", "one of") counts a noun rather than naming a value; dates and quantities keep theirs
    ("two days", "one week")."""
    return any(ch.isdigit() for ch in tok.text) and (tok.like_num or bool(re.fullmatch(r"[\d.,]+", tok.text)))


def _edition_year(tok: Any, kind: str) -> bool:
    """Whether a token is a year right after an event's name, its edition ("the Eurovision Song Contest *1977*",
    "the FIFA World Cup *2014*"): NER's event, or a name whose last word is an event noun."""
    head = tok.doc[tok.i - 1] if tok.i > 0 else tok
    return bool(re.fullmatch(r"\d{4}", tok.text)) and head.text[:1].isupper() and _event_word(head.text, kind)


def _event_word(word: str, kind: str = "") -> bool:
    """Whether a name ending in ``word`` (NER's ``kind``) names an event held again and again: NER's event, a word
    of ``_EDITIONED`` or an event noun of the lexicon ("Contest")."""
    return kind == "EVENT" or word in _EDITIONED or noun_kind(word) == EVENT


def _value_word(tok: Any) -> bool:
    """A word a date or quantity's value is written with: digits, a number word, a month or era name (not a
    capitalised function word the parse calls a name: "In years")."""
    return any(ch.isdigit() for ch in tok.text) or (tok.like_num and tok.lower_ not in _ORDINAL_WORDS) or \
        tok.text in _MONTHS or (tok.pos_ == "PROPN" and tok.text[:1].isupper() and not tok.is_stop)


def _hyphened(doc: Any, i: int) -> bool:
    """Whether the lower-case word ``i`` is joined by hyphens, no space, to the words either side
    ("Neuilly-*sur*-Seine", "Barrow-*in*-Furness"): a particle inside a place's name, not a word before it."""
    return 1 < i < len(doc) - 1 and doc[i].is_lower and doc[i].is_alpha and not doc[i].whitespace_ and \
        doc[i - 1].text == "-" == doc[i + 1].text and not doc[i - 1].whitespace_ and doc[i - 2].text[:1].isupper()


def _hyphened_names(sent: Any) -> list[tuple[int, int]]:
    """The (first, end) tokens of the names written as one word with lower-case particles between hyphens
    ("Barrow-in-Furness", "Aix-en-Provence", "Sainte-Agathe-des-Monts")."""
    doc, out, i = sent.doc, [], sent.start
    while i < sent.end:
        j = i
        while j + 2 < sent.end and doc[j + 1].text == "-" and not doc[j].whitespace_ and not doc[j + 1].whitespace_ \
                and doc[j + 2].is_alpha and (doc[j + 2].is_title or _hyphened(doc, j + 2)):
            j += 2
        if j > i and doc[i].is_title and doc[j].is_title and any(_hyphened(doc, k) for k in range(i + 1, j)):
            out.append((i, j + 1))
        i = j + 1
    return out


def _two_names(span: Any) -> list[tuple[int, int]]:
    """A span NER read as one name cut at "and" or "&" when each side is a name of two or more capitalised words and
    the whole is no one name ("Lynsey de Paul & Mike Moran", "Harvard University and Rutgers University"; not "Procter
    & Gamble", "Trinidad and Tobago", "Institute of State and Law")."""
    doc = span.doc
    for t in span:
        if t.lower_ in ("and", "&") and t.i > span.start:
            left, right = doc[span.start:t.i], doc[t.i + 1:span.end]
            if all(sum(w.text[:1].isupper() for w in side) >= 2 and side[-1].text[:1].isupper() and
                   next(w for w in side if w.lower_ not in _DETS).text[:1].isupper() for side in (left, right)) and \
                    not _coordinated_name(span.text):
                return [(span.start, t.i), (t.i + 1, span.end)]
            break
    return [(span.start, span.end)]


_PLACE_SEP = {",", ":", ";", "on the", "in the", "at the"}
"""What separates two places NER read as one ("Athens, Ohio", "Asher: Mishal", "Mount Kenya in the Kenya Highlands");
names of organisations are cut at a colon or semicolon only ("Committee on the Judiciary")."""


def _season_dash(doc: Any, i: int) -> bool:
    """Whether doc[i] is the dash of a season ("the 1990–91 season"): a year before it, two digits after it and no
    month or number after those ("c. 1445 – 17 May 1510" is a range of two dates)."""
    after = doc[i + 2] if i + 2 < len(doc) else None
    return 0 < i < len(doc) - 1 and doc[i].text in ("-", "–") and \
        re.fullmatch(r"\d{4}", doc[i - 1].text) is not None and re.fullmatch(r"\d{2}", doc[i + 1].text) is not None \
        and (after is None or after.text not in _MONTHS and not after.like_num)


def _parts(ent: Any, seps: set[str]) -> list[tuple[int, int]]:
    """An entity span cut at separators (a word, or a word and "the") when every part holds a capital or a digit
    ("1926 and 1930" -> 1926, 1930; "Athens, Ohio" -> Athens, Ohio)."""
    out, start = [], ent.start
    for t in ent:
        nxt = ent.doc[t.i + 1].lower_ if t.i + 1 < ent.end else ""
        if (t.lower_ in seps or f"{t.lower_} {nxt}" in seps) and t.i > start and not _season_dash(ent.doc, t.i):
            out.append((start, t.i))
            start = t.i + 1
    out.append((start, ent.end))
    doc = ent.doc
    if len(out) == 1 or not all(any(x.text[:1].isupper() or x.text[:1].isdigit() for x in doc[a:b]) for a, b in out):
        return [(ent.start, ent.end)]
    return out


_QUOTES = {'"', "“", "”"}


def _quoted_titles(sent: Any) -> list[tuple[int, int]]:
    """Titles of works written in quotes ("I Don't Need No Doctor", "Willie and the Hand Jive"):
    1-10 words starting with a capital, at least half of them capitalised (a quoted sentence is not
    a title), no sentence break inside."""
    marks = [t.i for t in sent if t.text in _QUOTES]
    out = []
    for a, b in zip(marks[::2], marks[1::2]):
        inner = [t for t in sent.doc[a + 1:b] if t.is_alpha]
        if not inner or len(inner) > 10 or not sent.doc[a + 1].text[:1].isupper():
            continue
        if sum(t.text[:1].isupper() for t in inner) * 2 < len(inner) and len(inner) > 3:
            continue
        if any(t.text in (".", ";", ":") for t in sent.doc[a + 1:b - 1]):
            continue
        end = b - 1 if sent.doc[b - 1].text == "," else b  # "Reason," with the comma inside the quotes
        out.append((a + 1, end))
    return out


def _glosses(sent: Any) -> dict[tuple[int, int], int]:
    """Translations of titles, in quotes in a parenthesis right after the title, perhaps after a language
    ("Portugal no coração" ("Portugal in my heart"), "Paris la nuit" (English: "Paris at night"), La traviata ("The
    Fallen Woman")): each -> its title's first token. A translation is written in sentence case, so it need not look
    like a title."""
    doc, out = sent.doc, {}
    opened = [(a, b + 2) for a, b in _quoted_titles(sent)
              if b + 1 < sent.end and doc[b].text in _QUOTES and doc[b + 1].text == "("]
    opened += [(t.i - 1, t.i + 1) for t in sent[1:]  # La traviata ("The Fallen Woman"): an unquoted name's too
               if t.text == "(" and doc[t.i - 1].is_alpha]  # (its last token: whatever mention holds it)
    for a, q in opened:
        if q + 2 < sent.end and doc[q].text not in _QUOTES and doc[q + 1].text == ":":
            q += 2  # "(English: ..."
        if q >= sent.end or doc[q].text not in _QUOTES:
            continue
        r = next((t.i for t in doc[q + 1:min(q + 12, sent.end)] if t.text in _QUOTES), None)
        if r is not None and r > q + 1 and r + 1 < sent.end and doc[r + 1].text == ")":
            out[q + 1, r] = a
    out.update(_known_as(sent))
    return out


_PLACE_TITLES = frozenset({"Palatine", "Consort", "Regent", "Apostolic"})
"""Words after a rank that stand for its "of" ("Elector Palatine", "Prince Consort")."""
_PEERAGE = frozenset({"Elector", "Electress", "Margrave", "Landgrave", "Count", "Countess", "Baron", "Baroness",
                      "Duke", "Duchess", "Earl", "Viscount", "Viscountess", "Marquis", "Marquess", "Marchioness",
                      "Emperor", "Empress", "King", "Queen", "Prince", "Princess", "Lord", "Lady", "Sultan", "Emir",
                      "Shah", "Khan", "Tsar", "Grand"})
"""Ranks and thrones named "of" a place after a person's name ("..., Countess of Lovelace"): a title of that person."""
_ROMANISED = frozenset({"romanized", "romanised", "transliterated", "translit"})
"""Labels of a name's romanisation in a bracket of names in other languages ("(Russian: Москва, *romanized*:
Moskva)"), which stands where a language's name does."""
_NAMING = frozenset({"called", "named", "titled", "entitled"})
"""Participles that give a class noun's name ("a band *called* Arcadia")."""
_ALSO_NAMED = frozenset({"called", "spelled", "spelt", "written", "romanized", "romanised", "transliterated",
                         "nicknamed"})
"""Verbs that give another name of a thing right after them ("Zarir (also *spelled* Zarih)")."""


def _names_given(participle: Any) -> list[Any]:
    """The names a naming participle gives: the object of "as" after "known" ("known as the Iron Prefect"), else its
    object or predicate ("called Arcadia", "nicknamed Zarih")."""
    if participle.lower_ == "known":
        return [g for c in participle.children if c.dep_ == "prep" and c.lower_ == "as"
                for g in c.children if g.dep_ == "pobj"]
    return [c for c in participle.children if c.dep_ in ("oprd", "attr", "dobj")]


def _known_as(sent: Any) -> dict[tuple[int, int], int]:
    """Another name given with "also known as" / "also called" / "also spelled" after a name and a comma or bracket
    ("Bambi II, also known as Bambi and the Great Prince of the Forest, is ..."): the words up to the next comma,
    bracket or stop, from a capitalised one, at most 10 -> the named thing's last token. So are the names in other
    languages of a bracket ("(Italian: Il Gattopardo)"), those of ``_native_names``, and a name after ", or" that
    names the sentence's first name again ("The Neue Bachgesellschaft, or New Bach Society, is ...")."""
    doc, out = sent.doc, {}
    for t in sent:
        if t.lower_ == "known" and t.i + 1 < sent.end and doc[t.i + 1].lower_ == "as":
            start = t.i + 2
        elif t.lower_ in _ALSO_NAMED or t.lower_ in ("commonly", "abbreviated") and t.i > sent.start and \
                doc[t.i - 1].text == "," and t.i + 1 < sent.end and doc[t.i + 1].text[:1].isupper():
            start = t.i + 1  # "(Spanish: ..., *commonly* PUC or UC)"
        else:
            continue
        k = t.i - 1
        k -= 1 if k >= sent.start and doc[k].lower_ in ("also", "formerly", "better", "commonly", "sometimes") else 0
        if k - 1 < sent.start or doc[k].text not in (",", "(") or not doc[k - 1].text[:1].isupper():
            continue
        end = next((w.i for w in doc[start:sent.end] if w.text in (",", "(", ")", ";", ".", ":") or w.text in _QUOTES),
                   sent.end)
        if start < end <= start + 10 and doc[start].text[:1].isupper():
            cuts = [w.i for w in doc[start:end] if w.lower_ == "or"]  # "AFC Ajax or simply Ajax": two names
            for a, b in zip([start] + [c + 1 for c in cuts], cuts + [end]):
                a += 1 if a < b and doc[a].lower_ in ("simply", "just") else 0
                if a < b and doc[a].text[:1].isupper():
                    out[a, b] = k - 1
    for t in sent:  # "The Leopard (Italian: Il Gattopardo)", "Kotor (Montenegrin: Котор; Italian: Cattaro)": its
        if t.text != "(" or t.i - 1 < sent.start or not doc[t.i - 1].text[:1].isupper():  # names in other languages
            continue
        at = t.i
        while at is not None:
            colon = next((j for j in range(at + 1, min(at + 4, sent.end)) if doc[j].text == ":"), None)
            if colon is None or colon == at + 1 or not all(w.text[:1].isupper() and w.is_alpha or
                                                           w.lower_ in _ROMANISED for w in doc[at + 1:colon]):
                break
            start = colon + 1
            end = next((w.i for w in doc[start:sent.end] if w.text in (",", "(", ")", ";", ".", ":")), sent.end)
            if start < end <= start + 10 and doc[start].text[:1].isupper():
                out[start, end] = t.i - 1
                after = next((w.i for w in doc[end + 1:min(end + 8, sent.end)] if w.text in (",", "(", ")", ";", ":")),
                             None)  # "(Russian: Транссибирская магистраль, Transsibirskaya magistral)": romanised
                if doc[end].text == "," and after is not None and doc[after].text in (")", ";") and \
                        doc[end + 1].text[:1].isupper() and doc[end + 1].is_alpha:
                    out[end + 1, after] = t.i - 1
                    end = after
            at = end if end < sent.end and (doc[end].text == ";" or doc[end].text == "," and end + 2 < sent.end and
                                            doc[end + 1].lower_ in _ROMANISED and doc[end + 2].text == ":") else None
    out.update(_native_names(sent))
    for t in sent:  # "The Neue Bachgesellschaft, or New Bach Society, is ...": the sentence's first name, named again
        if t.lower_ != "or" or t.i - 2 < sent.start or doc[t.i - 1].text != "," or t.i + 1 >= sent.end or \
                not doc[t.i - 2].text[:1].isupper():
            continue
        first = sent.start + (1 if doc[sent.start].lower_ == "the" else 0)
        if not all(w.text[:1].isupper() or w.lower_ in _NAME_INNER for w in doc[first:t.i - 1]):
            continue
        end = next((w.i for w in doc[t.i + 1:min(t.i + 10, sent.end)] if w.text == ","), None)
        if end is not None and end > t.i + 1 and doc[t.i + 1].text[:1].isupper() and \
                all(w.text[:1].isupper() or w.lower_ in _NAME_INNER for w in doc[t.i + 1:end]):
            out[t.i + 1, end] = t.i - 2
    return out


def _named_class(doc: Any, start: int, end: int, kind: str) -> bool:
    """Whether a capitalised span is a class the sentence says its subject is ("Lake Tanganyika is *an African Great
    Lake*", "X is *a National Memorial*"): after "a"/"an", the copula's attribute, ending the span; no name. A place
    NER names in it stays a name, as does a nationality ("a Soviet, Ukrainian, and Russian mathematician")."""
    root = doc[start:end].root
    return kind not in ("VALUE", "WORK_OF_ART", "NORP") and end - start > 1 and start > 0 and \
        doc[start - 1].lower_ in ("a", "an") and \
        root.i == end - 1 and root.dep_ == "attr" and root.head.lemma_ == "be" and \
        not any(e.start >= start and e.end < end for e in doc[start:end].ents)  # "a *North Carolina* State Park"


def _native_names(sent: Any) -> dict[tuple[int, int], int]:
    """A name in brackets right after a name that begins as one of its words does ("the Bay of Kotor (Boka
    Kotorska)", "the Vasa Museum (Vasamuseet)"): the same thing in its own language -> the named thing's last token.
    Not an acronym (read elsewhere), nor a bracket that names something else ("Geoff (Andrew Laing)", "Virtual
    Console (Wii U)", "Zhoukoudian (China)"), which shares no word's beginning. And a bracket's name after "or"
    ("Vasa (or Wasa)")."""
    doc, out = sent.doc, {}
    for t in sent:
        if t.text != "(" or t.i - 1 < sent.start or not doc[t.i - 1].text[:1].isupper():
            continue
        close = next((j for j in range(t.i + 1, min(t.i + 6, sent.end)) if doc[j].text == ")"), None)
        if close is not None and close > t.i + 2 and doc[t.i + 1].lower_ == "or" and \
                all(w.text[:1].isupper() for w in doc[t.i + 2:close]):
            out[t.i + 2, close] = t.i - 1  # "Vasa (or Wasa) is a Swedish warship": another spelling
            continue
        inner = doc[t.i + 1:close] if close is not None else []
        if not inner or inner.text.isupper() or not all(w.is_alpha and (w.text[:1].isupper() or w.lower_ in
                                                                         _NAME_INNER) for w in inner):
            continue
        k = t.i - 1
        while k - 1 >= sent.start and t.i - k < 6 and (doc[k - 1].text[:1].isupper() and doc[k - 1].is_alpha or
                                                       doc[k - 1].lower_ in _NAME_INNER):
            k -= 1
        outer = {fold(w.text)[:4] for w in doc[k:t.i] if len(w) >= 4 and w.text[:1].isupper()}
        if any(fold(w.text)[:4] in outer for w in inner if len(w) >= 4):
            out[t.i + 1, close] = t.i - 1
    return out


_DASHES = {"---", "--", "—", "–"}
_TITLE_INNER = _NAME_INNER | {"a", "an", "in", "on", "at", "to", "for", "from", "with", "by", "out", "into",
                              "through", "over", "under", "en", "con", "y", "el", "los", "las", "och", "und", "i"}
"""Lower-case words a work's title may hold between capitalised ones ("Once in a Summer", "Jugar con fuego")."""


def _bracketed_titles(sent: Any) -> list[tuple[int, int]]:
    """A work's title right before its year or its translation in brackets ("Pretty on the Inside (1991)", "such as
    I Was an Adventuress (1938)", "story De groote boulevards (Les Grands Boulevards)"): capitalised words and the
    small words between them back from the bracket, from a capitalised one; in sentence case (foreign titles) only
    right after a work's noun ("story", "film"). 2-8 words; none with a place or a date after an "in", "at", "of",
    "on" or "from" ("the album Vision Thing in the United States (2001)" is no title)."""
    doc, out = sent.doc, []
    for t in sent:
        if t.text != "(" or t.i + 2 >= sent.end or doc[t.i + 2].text != ")" and not doc[t.i + 1].is_title:
            continue
        inner = doc[t.i + 1]
        if not (re.fullmatch(r"\d{4}", inner.text) and doc[t.i + 2].text == ")" or inner.is_title and
                any(x.text == ")" for x in doc[t.i + 2:min(t.i + 8, sent.end)])):
            continue
        k, capital = t.i - 1, None
        while k >= sent.start and t.i - k <= 8:
            w = doc[k]
            if w.is_alpha and w.text[:1].isupper() and not (k == sent.start and w.lower_ in _DETS):
                capital = k
            elif not (w.lower_ in _TITLE_INNER or w.is_alpha and w.is_lower):
                break
            k -= 1
        if capital is None:
            continue
        start = capital
        lower = [w for w in doc[start:t.i] if w.is_lower and w.lower_ not in _TITLE_INNER]
        if lower and not (start > sent.start and noun_kind(doc[start - 1].lemma_.lower()) == "work"):
            start = next((w.i for w in doc[lower[-1].i + 1:t.i] if w.text[:1].isupper()), t.i)
        if t.i - start < 2 or not doc[t.i - 1].text[:1].isupper() and not (
                start > sent.start and noun_kind(doc[start - 1].lemma_.lower()) == "work"):
            continue
        small = [w.i for w in doc[start:t.i] if w.is_lower]
        if not small and all(w.pos_ == "PROPN" for w in doc[start:t.i]):
            continue  # a name the proper-noun runs read
        if any(doc[i].lower_ in ("in", "at", "from", "of", "on") and
               any(w.ent_type_ in ("GPE", "LOC", "DATE") for w in doc[i + 1:t.i]) for i in small):
            continue
        out.append((start, t.i))
    return out


_THE_TITLE_INNER = frozenset({"of", "the", "a", "an", "upon"})
"""Lower-case words a title after a capital "The" may hold between its capitalised words ("The Lord of the Rings");
"in" and "on" only before "the" ("The Catcher in the Rye"; not "The Beatles in Paris")."""


def _the_titles(sent: Any) -> list[tuple[int, int]]:
    """Names that begin with a capital "The" inside a sentence, which only a name's own article has ("the band *The
    Beatles*", "his play *The Days of the Turbins*": the parse tags "Days" a plural noun and NER took "Turbins"):
    the capitalised words after it, with the lower-case words of a title between them, up to eight. Not after a
    colon, a dash or an opening quote or bracket, where any word takes a capital."""
    doc, out = sent.doc, []
    for t in sent[1:-1]:
        if t.text != "The" or doc[t.i - 1].text in (":", '"', "“", "‘", "'", "(", "—", "–", "-") or \
                not (doc[t.i + 1].is_title and doc[t.i + 1].is_alpha):
            continue
        end = last = t.i + 1
        while end < sent.end and end - t.i <= 8 and (doc[end].is_title and doc[end].is_alpha or
                                                      doc[end].lower_ in _THE_TITLE_INNER and doc[end].is_lower or
                                                      doc[end].lower_ in ("in", "on") and end + 1 < sent.end and
                                                      doc[end + 1].lower_ == "the"):
            last = end if doc[end].is_title else last
            end += 1
        out.append((t.i, last + 1))
    return out


def _dashed_titles(sent: Any) -> list[tuple[int, int]]:
    """A title set off by spaced dashes in running text, written in sentence case as foreign titles are ("made a
    movie in 1977 --- Il prefetto di ferro --- about his fight"): 2-8 words from a capitalised one, a lower-case
    word that joins no name among them, and no verb (not an aside: "--- he said ---")."""
    doc = sent.doc
    marks = [t.i for t in sent if t.text in _DASHES and t.whitespace_ and t.i > sent.start and doc[t.i - 1].whitespace_]
    out = []
    for a, b in zip(marks, marks[1:]):
        inner = doc[a + 1:b]
        if 2 <= len(inner) <= 8 and all(t.is_alpha for t in inner) and inner[0].is_title and \
                inner[0].pos_ not in ("ADP", "ADV", "SCONJ", "CCONJ", "PRON", "DET", "NUM") and \
                not any(t.pos_ in ("VERB", "AUX") for t in inner) and \
                any(t.is_lower and t.lower_ not in _NAME_INNER for t in inner):
            out.append((a + 1, b))
    return out


def _role(words: str) -> bool:
    """Whether capitalised words (before "of") name a person's role ("Superior General", "Associate Justice",
    "Commander-in-Chief") rather than a thing ("General Congregation", "Faculty of Journalism"): their head noun,
    the word before their own "of" or the last, is a title or a person noun."""
    ws = words.split()
    head = ws[ws.index("of", 1) - 1] if "of" in ws[1:] else ws[-1] if ws else ""
    last = head.split("-")[-1]
    return last in _HONORIFICS or _person_class(last.lower())


def _coordinated_role(tok: Any) -> bool:
    """Whether a capitalised word is a role for being coordinated with a lower-case person noun ("the founder and
    first Rebbe", "a Marshal of France and the foremost military engineer"), a title or modified as a noun is."""
    partners = ([tok.head] if tok.dep_ == "conj" else []) + [c for c in tok.children if c.dep_ == "conj"]
    return tok.text[:1].isupper() and any(p.is_lower and _person_class(p.lower_) for p in partners) and \
        (tok.text in _HONORIFICS or any(c.dep_ in ("amod", "det") for c in tok.children))  # not "her uncle
    #   Boniface of Savoy ... and Peter of Savoy": a name, coordinated with the noun the parse hung the first on


def _person_class(noun: str) -> bool:
    """A class noun for people: coreference's list and "-ist"s, or the kinds lexicon's ("shah", "consort")."""
    return bool(noun.split()) and (is_person_noun(noun) or noun_kind(noun) == PERSON)


def _personal_class(noun: str) -> bool:
    """A class noun that, with NER's PERSON, makes a person: ``_person_class`` or an agent's ending ("footballer",
    "broadcaster"), unless the lexicon files the noun as a kind no person is ("river", "tower", "computer"; a
    "broadcaster" may be a company or a presenter)."""
    return _person_class(noun) or noun.endswith(_AGENT_ENDINGS) and noun_kind(noun) in (None, PERSON, ORGANIZATION)


def _words(label: str) -> list[str]:
    """A name's words, folded ("IBM Research–Brazil" -> ibm, research, brazil)."""
    return re.findall(r"\w+", fold(label))


def _contained_across(found: list[ChunkExtraction]) -> list[ChunkExtraction]:
    """What is in a place is in every place that contains it, over all of a document's readings (the parse's and the
    rule reader's, every chunk): "Staszic died there" (the palace) and "the palace, located ... in Warsaw" (read by
    the rules) give "Staszic died in Warsaw", a step less sure, filed with the sentence of the first fact. Only
    sure enough readings take part (``CONTAINMENT_FLOOR``), so a guess never leads to another."""
    rels = [(i, r) for i, f in enumerate(found) for r in f.relations if r.confidence >= CONTAINMENT_FLOOR]
    have = {(r.source, r.relation, r.target) for f in found for r in f.relations}
    inside: dict[str, list[ExtractedRelation]] = {}
    for _, r in rels:
        if r.relation == LOCATED_IN:
            inside.setdefault(r.source, []).append(r)
    added: dict[int, list[ExtractedRelation]] = {}
    for _ in range(3):
        new = []
        for i, r in rels:
            if not _says_in(r) or r.how.startswith(("document", "sentence")):
                continue
            for up in inside.get(r.target, ()):
                made = _read_through(r, up)
                key = (made.source, made.relation, made.target)
                if up.target == r.source or key in have or made.confidence < CONTAINMENT_FLOOR * INFERRED_FACTOR:
                    continue
                have.add(key)
                new.append((i, made))
                added.setdefault(i, []).append(made)
                if r.relation == LOCATED_IN:
                    inside.setdefault(r.source, []).append(made)
        if not new:
            break
        rels += new
    return [dataclasses.replace(f, relations=f.relations + tuple(added[i])) if i in added else f
            for i, f in enumerate(found)]


def _says_in(r: ExtractedRelation) -> bool:
    """Whether a relation puts its source in its target ("in", "born in", "located in"): it holds of every place
    that contains the target too."""
    return r.relation == "in" or r.relation.endswith(" in")


def _read_through(r: ExtractedRelation, up: ExtractedRelation) -> ExtractedRelation:
    """``r`` read through one place containing its target (``up``: the target located in another): the same
    relation to that place, a step less sure (``contained``, ``INFERRED_FACTOR``), with ``r``'s sentence."""
    return dataclasses.replace(r, target=up.target, how="contained",
                               confidence=round(min(r.confidence, up.confidence) * INFERRED_FACTOR, 3))


def _shared_by_coordination(rel: str, span: Any) -> list[str]:
    """The relation also said by the verbs coordinated before the one that names it and sharing its object or
    agent ("written and *directed* by X": written by X too); a verb with an object or agent of its own says
    its own thing ("written by A and produced by B")."""
    out = []
    for w in span:
        if w.pos_ != "VERB" or w.dep_ != "conj" or not rel.startswith(_verb(w) + " ") and rel != _verb(w):
            continue
        v = w.head
        while v.pos_ == "VERB" and not any(c.dep_ in ("agent", "dobj", "prep", "attr") for c in v.children):
            out.append(_verb(v) + rel[len(_verb(w)):])
            if v.dep_ != "conj":
                break
            v = v.head
    return out


def _coordinated_participle(tok: Any) -> bool:
    """A verb coordinated with a participle or relative clause's verb, with no subject of its own: it says something
    of the same noun ("a film written and *directed* by X", "a song written by A and *produced* by B")."""
    h = tok.head
    return tok.dep_ == "conj" and tok.pos_ == "VERB" and h.pos_ == "VERB" and h.dep_ in ("acl", "relcl") \
        and not any(c.dep_ in _SUBJ for c in tok.children)


def _verb(tok: Any) -> str:
    """A verb as a relation word: its past form as written ("born", "founded"), else its lemma."""
    word = tok.lower_ if tok.tag_ in ("VBN", "VBD") else tok.lemma_.lower()
    prt = [c.lower_ for c in tok.children if c.dep_ == "prt"]
    return " ".join([word] + prt)


def _name(words: list[Any], prep: Any) -> str:
    """The relation name: verb (with particle) or noun words, then the preposition of the target."""
    parts = [_verb(w) if w.pos_ in ("VERB", "AUX") else w.lemma_.lower() for w in words]
    if prep is not None:
        parts.append(prep.lower_)
    return " ".join(parts[:4])
