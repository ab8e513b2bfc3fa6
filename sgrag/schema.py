"""What kind of node a label is, read from the label alone: values (years, dates, numbers) are not things.

A question that asks for a thing ("Which film ...") is never answered by a year or a number that happens
to be joined to every constraint, and one that asks for a date ("In which year ...", "On what date ...")
is answered only by one.
"""
from __future__ import annotations

import re

import numpy as np

from .graph import KnowledgeGraph
from .textnorm import singular, tokens

_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_VALUE = re.compile(
    rf"(?:(?:the )?\d{{1,4}}s"  # "1990s", "the 1930s"
    rf"|(?:\d{{1,2}} )?{_MONTH}(?: \d{{1,2}},?)? \d{{3,4}}"  # "21 February 1992", "February 21, 1992", "May 1990"
    rf"|\d{{4}}-\d{{2}}(?:-\d{{2}})?"  # ISO dates
    rf"|[+-]?\d[\d,.]*(?: ?(?:%|percent|million|billion|thousand|km|kilometres|kilometers|miles|m|metres|meters|"
    rf"feet|ft|kg|tonnes|hectares|acres|people|inhabitants))?)",  # "1990", "3.5 million", "42 km"
    re.I)
VALUE_WORDS = frozenset({"year", "date", "day", "month", "decade", "century", "number", "amount", "population",
                         "age", "height", "length", "area", "size", "count"})
_ASKS_WHEN = re.compile(r"^\s*(?:when\b|(?:in|on|at) (?:what|which) (?:year|date|day|month|decade)\b)", re.I)


def is_value_label(label: str) -> bool:
    """Whether a label is a value (a year, a date, a number with its unit) rather than a thing's name."""
    return bool(_VALUE.fullmatch(label.strip()))


def value_nodes(graph: KnowledgeGraph) -> np.ndarray:
    """Per node: whether it is a value: its label reads as one and the graph only ever points at it (a film
    called "2012" or "300" heads relations of its own, so it is a thing)."""
    heads = np.bincount(graph.src, minlength=graph.num_nodes) > 0
    looks = np.fromiter((is_value_label(x) for x in graph.labels), dtype=bool, count=graph.num_nodes)
    return looks & ~heads


def asks_for_value(question: str, answer_type: str) -> bool:
    """Whether the question asks for a value ("In which year ...", "On what date ...", "When ...")."""
    if _ASKS_WHEN.match(question):
        return True
    words = [singular(w) for w in tokens(answer_type)]
    return bool(words) and words[-1] in VALUE_WORDS


def class_only_nodes(graph: KnowledgeGraph, type_relation: str = "is a") -> np.ndarray:
    """Per node: a class node a document extractor made ("person", "song"): most edges at it are ``is a``
    edges pointing at it (a stray "studied at the university" does not make it a thing). Such a node
    names a kind, so it never answers "Which ..."."""
    n = graph.num_nodes
    rid = graph.relations.index(type_relation) if type_relation in graph.relations else -1
    if rid < 0 or graph.num_edges == 0:
        return np.zeros(n, dtype=bool)
    is_type = graph.rel == rid
    typed_in = np.bincount(graph.dst[is_type], minlength=n)
    incident = np.bincount(graph.src, minlength=n) + np.bincount(graph.dst, minlength=n)
    return (typed_in > 0) & (2 * typed_in >= incident)
