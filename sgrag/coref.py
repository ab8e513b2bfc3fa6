"""Who "he", "its", "the firm" and "Serafin" are: rule-based coreference within one text.

A ``Discourse`` remembers the entities a text has mentioned so far (with what is known of
them: person or not, gender, class nouns, where they were last mentioned and whether as a
subject) and resolves the next anaphoric mention to the most recent *compatible* entity:

* he/she/his/her/him -> a person (or an entity that may be one) of a compatible gender;
* it/its -> something that is not a person, place or year;
* they/their -> left unresolved (which members of a group act is not guessed);
* "the company", "the university", "the acquirer" -> an entity whose class or name has that
  head noun (company ~ firm ~ business), or for role nouns the agent of the last such event;
* a lone surname or name word -> the one entity it can abbreviate.

When two candidates are equally good (two people both just mentioned, a surname shared by
two people), the mention stays unresolved: a missed fact costs less than a wrong one, since
answers are verified against the graph and shown as exact. Example::

    >>> d = Discourse()
    >>> d.mention("Lena Ortiz", 0, subject=True); d.mark_person("Lena Ortiz")
    >>> d.resolve_pronoun("she", 1)
    'Lena Ortiz'
    >>> d.mention("Marcus Feld", 1, subject=False); d.mention("Jonas Feld", 1, subject=False)
    >>> d.resolve_alias("Feld") is None      # two people called Feld: unresolved
    True
"""
from __future__ import annotations

from dataclasses import dataclass, field

ORG_WORDS = frozenset("""labs lab group company companies corporation corp inc ltd llc plc gmbh holdings partners
capital bank university college institute school academy museum foundation fund ventures lines freight
health robotics materials dynamics energy games analytics mills systems technologies industries logistics
airlines airways motors software media studios press records trust agency association council society
club hospital ministry department committee party church limited co""".split())
"""Last words that make a name an organisation, never a person ("Halvard *Group*")."""

PERSON_NOUNS = frozenset("""person man woman chemist engineer economist physicist biologist scientist
mathematician founder co-founder cofounder entrepreneur executive director officer chairman
chairwoman chair president rector professor lecturer teacher author writer poet novelist journalist
painter artist architect actor actress singer composer musician politician lawyer banker doctor physician
surgeon nurse student researcher historian philosopher designer programmer manager trader analyst
broker consultant accountant adviser advisor employee
brother sister son daughter wife husband father mother child heir widow minister mayor governor king queen
prince princess emperor explorer inventor athlete player coach diplomat economist""".split())
"""Head nouns of classes whose members are people ("a British *chemist*", "its chief *executive*")."""


def is_person_noun(noun: str) -> bool:
    """A class noun for people: listed, or a "-ist"/"-ician"/"-ologist" (geologist, pianist)."""
    noun = noun.split()[-1].lower() if noun.split() else ""
    return noun in PERSON_NOUNS or noun.endswith(("ist", "ician", "eer")) and len(noun) > 5

PERSON_VERBS = frozenset({"born", "died", "studied", "married", "graduated", "taught", "teach", "teaches",
                          "retired", "grew"})
"""Verbs whose subject is a person ("X was born in", "X studied at")."""

_SYNONYMS = {"company": {"company", "firm", "business", "start-up", "startup", "enterprise", "corporation"},
             "group": {"group", "company", "firm", "conglomerate"}}
for _w in ("firm", "business", "start-up", "startup", "enterprise", "corporation"):
    _SYNONYMS[_w] = _SYNONYMS["company"]

ROLE_NOUNS = {"acquirer": "acquired", "buyer": "acquired", "purchaser": "acquired", "founder": "founded",
              "creator": "created", "builder": "built", "architect": "designed", "designer": "designed",
              "author": "wrote", "director": "directed", "owner": "owned"}
"""Role nouns that name the agent of an event told just before ("The *acquirer* is ...")."""

CREATED = {"founded", "acquired", "owned", "built", "designed", "created", "merged", "started", "sold",
           "staged", "published", "released", "rebuilt", "produced", "directed", "wrote", "listed"}
"""Verbs whose object is never a person."""
_MALE = {"he", "him", "his", "himself"}
_FEMALE = {"she", "her", "hers", "herself"}
_NEUTER = {"it", "its", "itself"}
_PLURAL = {"they", "them", "their", "theirs", "themselves"}
PRONOUNS = _MALE | _FEMALE | _NEUTER | _PLURAL
_WINDOW = 3
"""Sentences back that a pronoun may reach."""


@dataclass
class Referent:
    """One entity of the discourse and what the text has said about it so far."""
    label: str
    person: bool | None = None
    """True: a person; False: certainly not one (organisation, place, year); None: unknown."""
    place: bool = False
    gender: str = ""
    classes: set[str] = field(default_factory=set)
    last: tuple[int, int] = (-1, 0)
    """(sentence, character) of the latest mention."""
    subject_at: int = -1
    """Latest sentence in which it was the subject."""


def _head(phrase: str) -> str:
    return phrase.split()[-1].lower() if phrase.split() else ""


def name_kind(label: str) -> bool | None:
    """False for a name that reads as an organisation or a number, else None (undecided)."""
    words = label.split()
    if not words or label[:1].isdigit() or words[-1].lower() in ORG_WORDS or \
            any(w.lower() in ("university", "bank", "museum", "institute", "college") for w in words):
        return False
    return None


class Discourse:
    """The entities mentioned so far in one text, for resolving the next anaphor."""

    def __init__(self) -> None:
        self.entities: dict[str, Referent] = {}
        self._aliases: dict[str, set[str]] = {}
        self._first_names: dict[str, set[str]] = {}
        self._events: dict[str, str] = {}  # verb -> agent label of its latest mention
        self._works: dict[str, list[str]] = {}  # agent -> what it founded, acquired, ... (in order)

    # ---- what the text says ------------------------------------------------------------------
    def mention(self, label: str, sentence: int, subject: bool, pos: int = 0) -> None:
        ref = self.entities.get(label)
        if ref is None:
            ref = self.entities[label] = Referent(label, name_kind(label))
            self._add_aliases(label)
        ref.last = max(ref.last, (sentence, pos))
        if subject:
            ref.subject_at = max(ref.subject_at, sentence)

    def _add_aliases(self, label: str) -> None:
        words = label.split()
        if len(words) < 2 or not label[:1].isupper():
            return
        org = name_kind(label) is False
        # people are called by their surname, organisations by their first word ("Nuvola")
        part = words[0] if org else words[-1]
        if part[:1].isupper() and part.lower() not in ORG_WORDS:
            self._aliases.setdefault(part, set()).add(label)
        if not org and words[0][:1].isupper():  # "Serafin" for Serafin Quispe, once known a person
            self._first_names.setdefault(words[0], set()).add(label)

    def mark_person(self, label: str, gender: str = "") -> None:
        ref = self.entities.get(label)
        if ref is not None and ref.person is not False:
            ref.person = True
            ref.gender = ref.gender or gender

    def mark_place(self, label: str) -> None:
        ref = self.entities.get(label)
        if ref is not None and not ref.person:
            ref.person, ref.place = False, True

    def add_class(self, label: str, cls: str) -> None:
        ref = self.entities.get(label)
        if ref is None:
            return
        ref.classes.add(cls)
        if is_person_noun(cls):
            self.mark_person(label)
        elif ref.person is None:
            ref.person = False

    def event(self, verb: str, agent: str, patient: str | None = None) -> None:
        """Remember ``agent`` did ``verb`` (to ``patient``): "the acquirer" is the latest agent
        of an acquisition, "his company" what he founded, owned or acquired. What is founded
        or acquired is an organisation (or a thing), never a person."""
        self._events[verb] = agent
        if patient:
            self._works.setdefault(agent, []).append(patient)
            ref = self.entities.get(patient)
            if ref is not None and ref.person is None and verb in CREATED:
                ref.person = False

    def resolve_possessed(self, owner: str | None, noun: str, sentence: int, before: int | None = None) -> str | None:
        """ "his company": the latest fitting thing ``owner`` founded or acquired, else as "the company"."""
        for label in reversed(self._works.get(owner or "", [])):
            ref = self.entities.get(label)
            if ref is not None and not ref.person and (not ref.classes or self._fits(ref, noun)):
                return label
        return self.resolve_description(noun, sentence, before)

    def _fits(self, r: Referent, noun: str) -> bool:
        heads = _SYNONYMS.get(noun, {noun})
        return bool({_head(c) for c in r.classes} & heads
                    or (len(noun) > 3 and any(_head(c).endswith(noun) for c in r.classes))  # bookshop
                    or {w.lower() for w in r.label.split()} & heads
                    or (noun in ("company", "firm") and r.person is False and not r.place
                        and r.label.split()[-1].lower() in ORG_WORDS))

    # ---- resolving -----------------------------------------------------------------------
    def resolve_alias(self, word: str) -> str | None:
        """The one entity ``word`` (a surname, a first name word) abbreviates, else None."""
        labels = self._aliases.get(word, set())
        people = [x for x in labels if self.entities[x].person is not False]
        if len(people) == 1:
            return people[0]  # "Sable" is Edwin Sable rather than Sable University
        if labels:
            return next(iter(labels)) if len(labels) == 1 else None
        named = [x for x in self._first_names.get(word, ()) if self.entities[x].person]
        return named[0] if len(named) == 1 else None

    def is_alias(self, word: str) -> bool:
        return word in self._aliases or any(self.entities[x].person for x in self._first_names.get(word, ()))

    def resolve_pronoun(self, word: str, sentence: int, before: int | None = None) -> str | None:
        """The antecedent of a personal pronoun, or None when none or two fit equally."""
        w = word.lower()
        if w in _PLURAL:
            return None  # "they" is a group: which members, and whether all, is not guessed
        if w in _MALE or w in _FEMALE:
            gender = "m" if w in _MALE else "f"
            fits = [r for r in self._recent(sentence, before) if r.gender in ("", gender) and
                    (r.person or (r.person is None and len(r.label.split()) > 1))]  # "Rotterdam": no
            if not fits:
                return None
            latest = max(r.last[0] for r in fits)
            known = [r for r in fits if r.last[0] == latest and r.person]
            fits = known or [r for r in fits if r.last[0] == latest]
            if len(fits) != 1:
                return None  # two people just mentioned: "he" could be either
            self.mark_person(fits[0].label, gender)
            return fits[0].label
        fits = [r for r in self._recent(sentence, before) if not r.person and not r.place
                and not r.label[:1].isdigit()]
        return self._best(fits)

    def resolve_description(self, noun: str, sentence: int, before: int | None = None) -> str | None:
        """The antecedent of "the <noun>": role nouns name an event's agent, class nouns match
        an entity's class head or name word (company ~ firm)."""
        noun = noun.lower()
        if noun in ROLE_NOUNS and ROLE_NOUNS[noun] in self._events:
            return self._events[ROLE_NOUNS[noun]]
        fits = [r for r in self.entities.values()
                if r.last < (sentence, before if before is not None else 10**9) and self._fits(r, noun)]
        # a description reaches further back than a pronoun, but the latest fit wins; what the
        # sentence itself already named is rarely meant ("Andes Capital acquired the startup")
        earlier = [r for r in fits if r.last[0] < sentence]
        fits = earlier or fits
        if not fits:
            return None
        fits.sort(key=lambda r: r.last, reverse=True)
        if len(fits) > 1 and fits[0].last[0] == fits[1].last[0] and \
                (fits[0].subject_at == fits[0].last[0]) == (fits[1].subject_at == fits[1].last[0]):
            return None  # two equally recent fits
        if len(fits) > 1 and fits[0].last[0] == fits[1].last[0] and fits[1].subject_at == fits[1].last[0]:
            return fits[1].label
        return fits[0].label

    def nouns(self) -> set[str]:
        """Nouns a definite description may use for a known entity: class heads ("the
        publisher") and the lowercase words of organisation names ("the press")."""
        out = {_head(c) for r in self.entities.values() for c in r.classes}
        out |= {w.lower() for r in self.entities.values() if r.person is False and not r.place
                for w in r.label.split()[1:] if w[:1].isupper()}
        return out - {"person"}

    def _recent(self, sentence: int, before: int | None) -> list[Referent]:
        limit = (sentence, before if before is not None else 10**9)
        return [r for r in self.entities.values() if sentence - _WINDOW <= r.last[0] and r.last < limit]

    @staticmethod
    def _best(fits: list[Referent]) -> str | None:
        """The antecedent of "it": an organisation or thing before an undecided name, then the
        latest subject (the topic: "X is based in Lisbon. Its CEO studied at Y. It was ..."
        is X, not Y), then the latest mention; a tie is ambiguous."""
        if not fits:
            return None

        def rank(r: Referent) -> tuple:
            return (r.person is False, r.subject_at, r.last[0])

        fits = sorted(fits, key=rank, reverse=True)
        if len(fits) > 1 and rank(fits[0]) == rank(fits[1]):
            return None
        return fits[0].label
