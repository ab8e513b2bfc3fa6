"""Entities and coreference of the spaCy document extractor, each rule on a small text.

Values (dates, quantities) are found whole and nothing but the value; he/she/it/they and
"the <noun>" reach the entity a reader would pick, and stay unresolved when none fits.
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgrag.dependency import ParseExtractor, clean_name


@pytest.fixture(scope="module")
def ex():
    return ParseExtractor()


def values(found):
    return {e.label for e in found.entities if e.description == "value"}


def rel(found, src, dst):
    return {r.relation for r in found.relations if r.source == src and r.target == dst}


# ---- values -----------------------------------------------------------------------------------
def test_year_ranges_with_an_en_dash_give_both_years(ex):
    found = ex.extract_text("He was the cousin of Aleksandr Herzen (1812–1870), the writer. "
                            "He played for High Point University (1941–1944).")
    assert {"1812", "1870", "1941", "1944"} <= values(found)
    assert not any("–" in v for v in values(found))


def test_a_date_keeps_its_day_and_loses_the_place(ex):
    found = ex.extract_text("Alan Jones (born 13 April 1941) is a broadcaster. "
                            "Alice Stockham (November 8, 1833 in Cardington, Ohio–December 3, 1912 in Alhambra, "
                            "California) was an obstetrician.")
    vals = values(found)
    assert "13 April 1941" in vals and "April 1941" not in vals
    assert "December 3, 1912" in vals
    assert not any(" in " in v for v in vals)


def test_a_value_is_the_value_not_the_words_around_it(ex):
    found = ex.extract_text("Her views were echoed more than 100 years later. Habitations date to at least the "
                            "11th century. The band split in the second half of the 1920s. "
                            "A new episode aired two days later.")
    vals = values(found)
    assert {"100 years", "11th century", "1920s", "two days"} <= vals
    assert not any(v.split()[0] in ("more", "least", "at", "second") or v.endswith("later") for v in vals)


def test_bare_number_words_and_vague_dates_make_no_node(ex):
    found = ex.extract_text("One of the two trains ran daily that same year. It had 22 carriages.")
    vals = values(found)
    assert "two" not in vals and "One" not in vals and not any("same" in v for v in vals)
    assert "22" in vals


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["In", "the", "early", "1930s", "13", "April", "1941", "more", "than", "100",
                                 "years", "later", "two", "days", "Anna", "was", "born", "(", ")", "–", "1870",
                                 ",", "."]), min_size=3, max_size=25))
def test_values_start_and_end_with_their_value(ex, words):
    found = ex.extract_text(" ".join(words))
    for v in values(found):
        assert v == clean_name(v) and v.split()[0].lower() not in ("in", "the", "more", "early", "than")
        assert not v.endswith(" later")
