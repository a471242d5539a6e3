"""Worked ``referee explain`` examples, rendered into ``docs/generated/explain-examples.md`` by ``referee docs``.

The page is generated from these scenarios and the explain library, so the outputs shown in
the docs are exactly what ``referee explain`` prints today (``tests/test_docs_generated.py``).
"""

from __future__ import annotations

import json
from typing import Any

EXAMPLES: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    (
        "reflect",
        "A hit on a boss with a Reflect rune (500.7h-k)",
        "The attacker `a` hits a boss for 80. The boss's Armor 25 leaves exactly 64 (a perfect square: the "
        "exact value is rational), its flat reduction 5 leaves 59, and 59 lands. The Reflect sends back 5% of "
        "59, rounded down: 2, as real damage with its own waterfall: it skips `a`'s Armor (500.7j) and is met "
        "by `a`'s Insurance point (500.7i).",
        {"protocol": "referee/2",
         "board": [{"uid": "a", "armor": 10, "insurance": 1},
                   {"uid": "boss", "side": 1, "is_boss": True, "reflect": True, "armor": 25,
                    "vitality": 1000, "max_vitality": 1000}],
         "actions": [{"kind": "hit", "target": "boss", "amount": 80, "source": "a"}]},
    ),
    (
        "bloodletting",
        "A Bloodletting activation (800.4)",
        "The caster `c` stands in row 1; row 0 holds a dead unit and an ally `p` with 5 Vitality and 3 "
        "Shield. The reduction rune lowers the cost 12 to 10; `d` is skipped, `p` pays, its Shield is never "
        "asked (500.8a), the price is clamped to its 5 Vitality and it dies; the activation goes on to its "
        "hit, which `e`'s Retort answers as a Vitality cost.",
        {"protocol": "referee/2",
         "board": [{"uid": "d", "alive": False, "vitality": 0}, {"uid": "p", "col": 1, "vitality": 5, "shield": 3},
                   {"uid": "c", "row": 1, "bloodletting_reduction": 2}, {"uid": "e", "side": 1, "retort": 2}],
         "actions": [{"kind": "bloodletting", "caster": "c", "cost": 12, "hits": [{"target": "e", "amount": 30}]}]},
    ),
    (
        "worked-example",
        "The worked example of 400.8",
        "\"Deal {power} damage / Burn {burn_amount} / Restore {heal_amount} vitality to allies per Burning "
        "enemy\", both riders after the hit, killing its only target with no other enemy Burning. The short "
        "form `{\"board\", \"ability\"}` is accepted until the protocol carries an `ability` action.",
        {"board": [{"uid": "c"}, {"uid": "a", "col": 1, "vitality": 50}, {"uid": "t", "side": 1, "vitality": 20}],
         "ability": {"caster": "c", "targets": ["t"], "name": "the worked example",
                     "numbers": {"power": 30, "burn_amount": 4, "heal_amount": 6},
                     "lines": [{"effect": "damage", "amount": "{power}", "kind": "keyword", "lane": "hit"},
                               {"effect": "burn", "amount": "{burn_amount}", "kind": "rider", "lane": "after_hit"},
                               {"effect": "restore", "amount": "{heal_amount}", "kind": "rider", "lane": "after_hit",
                                "to": "allies", "per": "burning_enemy"}]}},
    ),
)


def compact(scenario: dict[str, Any]) -> str:
    """The scenario with one line per unit and per action."""
    out = ["{"]
    keys = list(scenario)
    for i, key in enumerate(keys):
        value, comma = scenario[key], "," if i < len(keys) - 1 else ""
        if isinstance(value, list):
            items = [f"  {json.dumps(v)}" for v in value]
            out.append(f" {json.dumps(key)}: [\n" + ",\n".join(items) + f"\n ]{comma}")
        else:
            out.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    out.append("}")
    return "\n".join(out)


def render_examples(header: str) -> str:
    """The generated page: each example's scenario and its ``referee explain`` output."""
    from . import explain_actions
    from .render import render_text

    lines = [header.rstrip("\n"), "# `referee explain`: worked examples", "",
             "Each block below is the scenario file and what `referee explain <file>` prints for it, regenerated "
             "by `referee docs` from `referee/explain/examples.py`. The reading guide is [explain](../explain.md).", ""]
    for name, title, note, scenario in EXAMPLES:
        lines += [f"## {title}", "", note, "", f"`{name}.json`:", "", "```json", compact(scenario), "```", "",
                  f"`referee explain {name}.json`:", "", "```text", *render_text(explain_actions(scenario)), "```", ""]
    return "\n".join(lines)
