"""Declared readings: ``--ruleset name=value`` pairs (or ``referee.toml``'s ``ruleset`` table) fixed in scenarios.

``vectors export`` fixes them in every vector (:func:`referee.vectors.suite.read_under`) and ``referee exhaust`` in
every scenario of a tier (:mod:`referee.vectors.exhaust`): each declared option replaces the scenario's own reading,
the options not declared keep theirs. The pairs are checked as ``check`` checks ``--ruleset``
(``referee.rulebooks.parse_rule_words``). One module both import, so neither imports the other.
"""

from __future__ import annotations

from typing import Any

from .. import rulebooks

#: The readings a declaration fixes, by rulebook: ``{"combat": {"damage_event_test": "after_shield"}}``.
Readings = dict[str, dict[str, Any]]


def declared_readings(pairs: list[str] | None) -> Readings:
    """``name=value`` pairs to the readings each rulebook fixes, spelled as its scenarios spell them; validated
    as ``check`` validates ``--ruleset`` (a ValueError names the unknown option or value)."""
    rules = rulebooks.parse_rule_words(pairs)
    names = [item.partition("=")[0].strip() for item in pairs or []]
    out: Readings = {}
    for book in rulebooks.RULEBOOKS.values():
        spelled = book.rules_to_json(rules[book.name])
        fixed = {name: spelled[name] for name in names if name in book.rule_options()}
        if fixed:
            out[book.name] = fixed
    return out


def with_readings(scenario: dict[str, Any], readings: Readings) -> dict[str, Any]:
    """The scenario with its rulebook's declared readings over its own (the readings not declared unchanged)."""
    fixed = readings.get(rulebooks.of_scenario(scenario).name)
    if not fixed:
        return scenario
    key = next((k for k in ("ruleset", "rules") if k in scenario), None)
    if key is None:  # every vector and every family's build writes its rulebook's readings field, empty or not
        raise ValueError(f"a {rulebooks.of_scenario(scenario).name} scenario has no readings field")
    return {**scenario, key: {**scenario[key], **fixed}}


def readings_text(ruleset: dict[str, Any]) -> str:
    """Declared readings as ``name=value, name=value`` (a report's words)."""
    return ", ".join(f"{name}={value}" for name, value in ruleset.items())
