"""Text folding shared by linking and lookups: case, diacritics, punctuation, CJK width.

Folding maps surface variants ("Beyoncé", "beyonce", "BEYONCÉ!") to one key while keeping
CJK characters intact (they carry the meaning and have no case).
"""
from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

_SPACE = re.compile(r"\s+")
_CJK_RANGES = (
    (0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
    (0xAC00, 0xD7AF), (0x20000, 0x2FA1F),
)


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def fold(text: str) -> str:
    """Case/diacritics/punctuation-insensitive key; NFKC first so full-width forms unify.

    >>> fold("  Beyoncé  Knowles!")
    'beyonce knowles'
    >>> fold("（心肌梗死）")
    '心肌梗死'
    """
    text = unicodedata.normalize("NFKC", text)
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch):
            continue
        cat = unicodedata.category(ch)
        if cat[0] in "PS":
            out.append(" ")
        else:
            out.append(ch.lower())
    return _SPACE.sub(" ", "".join(out)).strip()


def fold_with_offsets(text: str) -> tuple[str, list[int]]:
    """Fold ``text`` character by character and map each folded char back to its offset.

    Used by the linker to report mention spans in the original question. Multi-char
    expansions map every produced char to the source offset; whitespace runs collapse.
    """
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        piece = unicodedata.normalize("NFKC", ch)
        for sub in unicodedata.normalize("NFKD", piece):
            if unicodedata.combining(sub):
                continue
            cat = unicodedata.category(sub)
            c = " " if (cat[0] in "PS" or sub.isspace()) else sub.lower()
            if c == " " and (not chars or chars[-1] == " "):
                continue
            chars.append(c)
            offsets.append(i)
    while chars and chars[-1] == " ":
        chars.pop()
        offsets.pop()
    return "".join(chars), offsets


def tokens(text: str) -> list[str]:
    """Word tokens of folded text; CJK characters become single-char tokens."""
    out: list[str] = []
    for word in fold(text).split():
        buf = ""
        for ch in word:
            if is_cjk(ch):
                if buf:
                    out.append(buf)
                    buf = ""
                out.append(ch)
            else:
                buf += ch
        if buf:
            out.append(buf)
    return out


_IE_PLURALS = frozenset({"series", "species", "movies", "cookies", "zombies", "rookies", "calories", "prairies",
                         "pies", "ties", "lies", "dies", "goalies", "hippies", "brownies", "selfies", "freebies"})
"""Words in "-ies" that are no plural of a "-y" word: a singular ("series") or the plural of an "-ie" word."""


def singular(word: str) -> str:
    """A crude singular for matching words ("films" ~ "film", "counties" ~ "county"; "class" stays)."""
    if len(word) > 4 and word.endswith("ies") and word.lower() not in _IE_PLURALS:
        return word[:-3] + "y"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


_STEMMER = snowballstemmer.stemmer("english")
_STEM_LOCK = threading.Lock()  # a Snowball stemmer keeps state between calls


_IRREGULAR: dict[str, str] = {}
for _base, _forms in (("win", "won"), ("write", "wrote written"), ("lead", "led"), ("begin", "began begun"),
                      ("take", "took taken"), ("give", "gave given"), ("make", "made"), ("sing", "sang sung"),
                      ("become", "became"), ("hold", "held"), ("build", "built"), ("buy", "bought"), ("sell", "sold"),
                      ("meet", "met"), ("run", "ran"), ("teach", "taught"), ("fight", "fought"), ("draw", "drew drawn"),
                      ("grow", "grew grown"), ("know", "knew known"), ("go", "went gone"), ("come", "came"),
                      ("choose", "chose chosen"), ("speak", "spoke spoken"), ("drive", "drove driven"),
                      ("ride", "rode ridden"), ("keep", "kept"), ("send", "sent"), ("bring", "brought"),
                      ("catch", "caught"), ("tell", "told"), ("stand", "stood"), ("throw", "threw thrown"),
                      ("wear", "wore worn"), ("swim", "swam"), ("strike", "struck"), ("sink", "sank sunk"),
                      ("freeze", "froze frozen"), ("withdraw", "withdrew withdrawn"), ("overthrow", "overthrew overthrown"),
                      ("steal", "stole stolen"), ("fly", "flew flown"), ("flee", "fled"), ("seek", "sought"),
                      ("swear", "swore sworn"), ("break", "broke broken"), ("forget", "forgot forgotten"),
                      ("hide", "hid hidden"), ("shoot", "shot"), ("hang", "hung"), ("feed", "fed"), ("deal", "dealt"),
                      ("undertake", "undertook undertaken")):
    for _form in _forms.split():
        _IRREGULAR[_form] = _base
"""Past forms of irregular verbs -> their base form ("won" -> "win"): a relation read from prose says "won", a
question with "did" asks "win". Only forms that are no other word ("found", "left", "born", "saw", "lay" stay)."""


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English Snowball stem ("released", "release" -> "releas"), irregular past forms at their base ("won" ->
    "win"): a verb in a question meets the noun or the past form of a relation name."""
    with _STEM_LOCK:
        return _STEMMER.stemWord(_IRREGULAR.get(word, word))


SUPERLATIVE = re.compile(r"(?:larg|bigg|small|old|young|high|low|long|short|tall|great|deep|wide|fast|rich|poor|clos|"
                         r"near|busi|heavi|light|hott|cold|earli|new)est|(?:north|south|east|west)ernmost", re.I)
"""Superlative words ("largest", "northernmost"): a comparison no single fact states (``SUPERLATIVE.fullmatch``)."""


MAKING = re.compile(r"(?:releas|publish|found|establish|form|buil|open|launch|creat|produc|writ|wrote|compos|record|"
                    r"design|construct|complet|premier|introduc|issu|develop|direct)\w*")
"""Verbs of making: in the active voice, the date of the act is its object's ("Tor published Mistborn in 2006");
a thing's own year ("the 2001 film") is when it was made, released, founded."""
