"""Rules as named parts: every linking pass, ranking feature, narrowing and relaxing rule, registered by name.

Like spaCy's registered pipeline components, each rule is declared once, next to the code it switches, with
its stage and a one-line description (``X = register("name", "linking", "...")``); the code asks
``rules.on(X)`` where the rule acts. ``registered()`` lists them all (``python -m sgrag rules``, the README's
rule table), and a workspace switches rules off in its config.json::

    {"rules": {"disabled": ["demonyms", "likelihood"]}}

A rule switched off acts as if it did not exist: a linking pass leaves the mentions as they were, a ranking
feature weighs nothing, a narrowing rule keeps the whole exact set. Every rule has a contract test
(``tests/test_rule_contracts.py``): a question where switching it off changes the outcome, and one where
it does not.
"""
from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from typing import Iterable

from .errors import ConfigError

STAGES = ("linking", "ranking", "narrowing", "relaxing", "extraction")
"""The stages a rule acts in, in the order a question goes through them."""

# The modules that register rules; ``registered()`` imports them so the table is complete however
# sgrag was imported.
_RULE_MODULES = ("linking", "spelling", "stated", "ranking", "narrowing", "relax")


@dataclass(frozen=True)
class Rule:
    """One named rule: what it does in a line, and the stage it acts in."""
    name: str
    stage: str
    description: str
    module: str
    """The module that registered it (where its code lives)."""


_REGISTRY: dict[str, Rule] = {}


def register(name: str, stage: str, description: str, module: str = "") -> Rule:
    """Declares a rule (once per name; a module imported twice under one name re-registers the same rule).
    ``module``: where its code lives (default: the calling module)."""
    module = (module or sys._getframe(1).f_globals.get("__name__", "")).rsplit(".", 1)[-1]
    if stage not in STAGES:
        raise ValueError(f"rule {name!r}: unknown stage {stage!r} (one of {', '.join(STAGES)})")
    rule = Rule(name, stage, description, module)
    old = _REGISTRY.get(name)
    if old is not None and old != rule:
        raise ValueError(f"rule {name!r} is registered twice ({old.module} and {module})")
    _REGISTRY[name] = rule
    return rule


def registered() -> list[Rule]:
    """Every registered rule, by stage, then in the order the code declares them."""
    for module in _RULE_MODULES:
        importlib.import_module(f".{module}", __package__)
    order = {s: i for i, s in enumerate(STAGES)}
    return sorted(_REGISTRY.values(), key=lambda r: order[r.stage])


@dataclass(frozen=True)
class RuleSwitches:
    """Which rules are off (all are on by default); stages ask ``on(rule)`` where the rule acts."""
    disabled: frozenset[str] = frozenset()

    def on(self, rule: Rule) -> bool:
        return rule.name not in self.disabled


ALL_ON = RuleSwitches()


def switches(disabled: Iterable[str]) -> RuleSwitches:
    """The switches for a workspace's ``rules.disabled`` list; an unknown name is a clear error (a typo would
    otherwise leave the rule on without a word)."""
    names = list(disabled or ())
    known = {r.name for r in registered()}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ConfigError(f"unknown rule name(s) in rules.disabled: {', '.join(map(repr, unknown))} "
                          "(`python -m sgrag rules` lists the rules)")
    return RuleSwitches(frozenset(names))


def rule_table(rules: RuleSwitches = ALL_ON) -> list[dict]:
    """The rule table: name, stage, on/off, description, module (what `sgrag rules --json` prints)."""
    return [{"name": r.name, "stage": r.stage, "on": rules.on(r), "description": r.description, "module": r.module}
            for r in registered()]


def markdown_table() -> str:
    """The README's rule table, generated from the registry (a test checks the README holds it as is)."""
    lines = ["| rule | stage | what it does | module |", "|---|---|---|---|"]
    lines += [f"| `{r.name}` | {r.stage} | {r.description} | `{r.module}` |" for r in registered()]
    return "\n".join(lines) + "\n"
