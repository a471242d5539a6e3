"""The ``ability`` action (400.8): a caster activates a printed ability at its targets.

Its JSON form::

    {"kind": "ability", "caster": "c", "targets": ["t"],
     "ability": {"name": "Searing Mend", "numbers": {"power": 30, "burn_amount": 4, "heal_amount": 6},
                 "lines": [{"effect": "damage", "amount": "{power}", "kind": "keyword", "lane": "hit"},
                           {"effect": "burn", "amount": "{burn_amount}", "lane": "after_hit"},
                           {"effect": "restore", "amount": "{heal_amount}", "lane": "after_hit",
                            "to": "allies", "per": "burning_enemy"}]},
     "riposte_rolls": [true]}

The nested ability is decoded by :func:`..codec.ability_from_json` (the model's
:class:`~referee.model.combat.ability_text.Ability`); the model entry is
:func:`~referee.model.combat.abilities.resolve_ability`. The draw aims at the three wrong
answers of 400.8a-c: lines in random lanes, a power that kills its target mid-activation,
statuses a death removes from a "per" count. The vectors are hand-written
(``BOUNDARY_CASES``): the resolution is structural (which line, which recipient), so the Z3
templates of the arithmetic kinds do not apply.
"""

from __future__ import annotations

from typing import Any

from referee.model.combat.abilities import resolve_ability
from referee.model.combat.ability_text import CONDITIONS, EFFECTS, LANES, LINE_KINDS, PER_COUNTS, RECIPIENTS, Ability
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog

from ....rulebook import ActionKind, Field
from ....wire import ProtocolError, check_known, check_value, require, require_list, require_object
from ..codec import LINE_FIELDS, ability_from_json, canonical_ability
from ..strategies import draw_ability

FIELDS = (
    Field("caster", "unit", "uid of the unit activating the ability"),
    Field("targets", "units", "uids of the ability's targets, in order (a line's recipients 'target')", ()),
    Field("ability", "ability", "the printed ability: its name, its card numbers and its lines (400.8-1)"),
    Field("riposte_rolls", "booleans", "Riposte's 50% rolls; each hit of the ability reads them from the start (500.7b)", ()),
)


_KNOWN = frozenset(("kind", *(f.name for f in FIELDS)))


def decode(path: str, data: Any, board: Any) -> dict[str, Any]:
    """Check an ability action; ``ability`` stays JSON, in its canonical form (``codec.ability_to_json``)."""
    data = require_object(path, data)
    if not _KNOWN.issuperset(data):  # the quick tests first: a path is built only for an error
        check_known(path, data, ("kind", *(f.name for f in FIELDS)), "'ability' action")
    caster = require(path, data, "caster")
    if type(caster) is not str:
        check_value(f"{path}.caster", caster, "string")
    targets = data.get("targets", [])
    if type(targets) is not list:
        require_list(f"{path}.targets", targets)
    if not (board.has(caster) and all(type(t) is str and board.has(t) for t in targets)):
        for where, uid in [(f"{path}.caster", caster), *((f"{path}.targets[{i}]", t) for i, t in enumerate(targets))]:
            check_value(where, uid, "string")
            if not board.has(uid):
                raise ProtocolError(where, f"no unit with uid {uid!r} on the board")
    rolls = data.get("riposte_rolls", [])
    if type(rolls) is not list or not all(type(roll) is bool for roll in rolls):
        rolls = require_list(f"{path}.riposte_rolls", rolls)
        for i, roll in enumerate(rolls):
            check_value(f"{path}.riposte_rolls[{i}]", roll, "boolean")
    ability = canonical_ability(f"{path}.ability", require(path, data, "ability"))
    return {"kind": "ability", "caster": caster, "targets": list(targets), "ability": ability, "riposte_rolls": list(rolls)}


def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: the ability's lines resolved in order, each where it resolves (400.8)."""
    ability = action["ability"]
    if not isinstance(ability, Ability):
        ability = ability_from_json("action.ability", ability)
    return resolve_ability(board, action["caster"], ability, tuple(action["targets"]), ruleset=ruleset,
                           riposte_rolls=tuple(action.get("riposte_rolls", ())))


def _enum(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values), "description": description}


def line_schema() -> dict[str, Any]:
    """One printed line (400.8-1)."""
    return {
        "type": "object",
        "properties": {
            "effect": _enum(EFFECTS, "the keyword the line applies (400.8-6)"),
            "amount": {"type": ["integer", "string"], "pattern": "^\\{[a-z_][a-z0-9_]*\\}$", "default": 0,
                       "description": "a literal, or a card number of the ability's numbers: '{power}' (400.2)"},
            "kind": {**_enum(LINE_KINDS, "keyword, rider, conditional rider (prints a condition) or Passive "
                                         "(a standing effect, not part of the activation)"), "default": "rider"},
            "lane": {"type": ["string", "null"], "enum": [*LANES, None], "default": None,
                     "description": "the lane the card prints (null: the keyword's own); Crush always lands before the "
                                    "hit, Maim and Cull always after, Bloodletting in the activation lane (400.8-2)"},
            "to": {**_enum(RECIPIENTS, "who receives it: the targets, the caster, its allies (the caster excluded) "
                                       "or its enemies, in reading order"), "default": "target"},
            "per": {"type": ["string", "null"], "enum": [*PER_COUNTS, None], "default": None,
                    "description": "a 'per' count, sampled when the line resolves; a count of 0 gives 0 (400.8a, 400.8c)"},
            "condition": {"type": ["string", "null"], "enum": [*CONDITIONS, None], "default": None,
                          "description": "a conditional rider's condition, checked when the line resolves (400.8-4)"},
        },
        "required": ["effect"],
        "additionalProperties": False,
    }


def schema() -> dict[str, Any]:
    """The ``ability`` action's JSON Schema."""
    assert LINE_FIELDS == tuple(line_schema()["properties"])
    return {
        "title": "ability",
        "description": KINDS[0].summary,
        "type": "object",
        "properties": {
            "kind": {"const": "ability"},
            "caster": {"type": "string", "description": FIELDS[0].description},
            "targets": {"type": "array", "items": {"type": "string"}, "default": [], "description": FIELDS[1].description},
            "ability": {
                "type": "object",
                "description": FIELDS[2].description,
                "properties": {
                    "name": {"type": "string", "default": ""},
                    "numbers": {"type": "object", "additionalProperties": {"type": "integer"}, "default": {},
                                "description": "the card's numbers, by name ('{power}' in a line refers to 'power')"},
                    "lines": {"type": "array", "minItems": 1, "items": line_schema(),
                              "description": "the printed lines, in printed order"},
                },
                "required": ["lines"],
                "additionalProperties": False,
            },
            "riposte_rolls": {"type": "array", "items": {"type": "boolean"}, "default": [],
                              "description": FIELDS[3].description},
        },
        "required": ["kind", "caster", "ability"],
        "additionalProperties": False,
    }


# --------------------------------------------------------------------------------------
# Hand-written vectors: one or more per 400.8 clause and per recovery clause a line reaches
# --------------------------------------------------------------------------------------

_CASTER = {"uid": "c", "side": 0, "col": 0}
_ALLY = {"uid": "a", "side": 0, "col": 1, "vitality": 50}
_TARGET = {"uid": "t", "side": 1, "col": 0, "vitality": 30}
_OTHER = {"uid": "u", "side": 1, "col": 1, "vitality": 80}
_WORKED = {"power": 30, "burn_amount": 4, "heal_amount": 6}


def _line(effect: str, amount: Any, lane: str | None = None, **more: Any) -> dict[str, Any]:
    return {"effect": effect, "amount": amount, **({"lane": lane} if lane else {}), **more}


_HIT = _line("damage", "{power}", "hit", kind="keyword")
_BURN = _line("burn", "{burn_amount}", "after_hit")
_HEAL = _line("restore", "{heal_amount}", "after_hit", to="allies", per="burning_enemy")


def _act(lines: list[dict[str, Any]], targets: tuple[str, ...] = ("t",), numbers: dict[str, int] | None = None,
         name: str = "") -> dict[str, Any]:
    return {"kind": "ability", "caster": "c", "targets": list(targets),
            "ability": {"name": name, "numbers": dict(_WORKED if numbers is None else numbers), "lines": lines},
            "riposte_rolls": [True]}


BOUNDARY_CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = [
    ("ability-worked-example-kills-target-restores-nothing", [_CASTER, _ALLY, _TARGET],
     [_act([_HIT, _BURN, _HEAL], name="worked example (400.8)")]),
    ("ability-worked-example-second-enemy-burning", [_CASTER, _ALLY, _TARGET, {**_OTHER, "burn": 2}],
     [_act([_HIT, _BURN, _HEAL])]),
    ("ability-worked-example-heal-in-activation-lane", [_CASTER, _ALLY, {**_TARGET, "burn": 1}],
     [_act([_HIT, _BURN, {**_HEAL, "lane": "activation"}])]),
    ("ability-zero-count-is-not-floored", [_CASTER, _ALLY, _TARGET],
     [_act([_line("restore", 10, to="allies", per="venomed_enemy")])]),
    ("ability-condition-checked-when-it-resolves", [_CASTER, _TARGET, _OTHER],
     [_act([_HIT, _line("burn", 3, "after_hit", kind="conditional_rider", condition="target_alive"),
            _line("venom", 2, "activation", kind="conditional_rider", condition="target_alive")])]),
    ("ability-crush-before-maim-cull-after-passive-skipped", [_CASTER, {**_TARGET, "armor": 25, "vitality": 60}],
     [_act([_line("maim", 2, "activation"), _line("crush", 25, "after_hit"), _line("damage", 20, "hit"),
            _line("cull", 45, "before_hit"), _line("burn", 9, kind="passive")])]),
    ("ability-recipient-gates", [_CASTER, {**_TARGET, "entrapped": True}, {**_OTHER, "untargetable": True},
                                 {"uid": "d", "side": 1, "col": 2, "dormant": True}],
     [_act([_line("burn", 2, to="enemies"), _line("damage", 10, "hit", to="enemies")])]),
    ("ability-restore-capped-then-maim", [{**_CASTER, "vitality": 40}, {**_ALLY, "maim": 2}, {"uid": "f", "side": 0,
                                                                                            "col": 2, "maim": 1}],
     [_act([_line("restore", 9, to="allies"), _line("restore", 7, to="caster")], targets=())]),
    ("ability-bloodletting-line-is-the-cost", [{**_CASTER, "vitality": 20}, _ALLY, _TARGET],
     [_act([_line("damage", 5, "hit"), _line("bloodletting", 12)])]),
    ("ability-bloodletting-aborts-the-activation", [{**_CASTER, "entrapped": True}, _TARGET],
     [_act([_line("damage", 5, "hit"), _line("bloodletting", 12)])]),
    ("ability-activation-clears-reliquary-speed-and-spends-the-charge",
     [{**_CASTER, "reliquary_speed": 12, "charge": 40}, {**_ALLY, "reliquary_speed": 5}, _TARGET],
     [_act([_line("damage", 5, "hit")])]),
    ("ability-hit-through-armor-and-shield-answered", [_CASTER, {**_TARGET, "armor": 81, "shield": 5, "thorns": 3}],
     [_act([_line("damage", "{power}", "hit")], numbers={"power": 87})]),
]


KINDS = (
    ActionKind(
        name="ability",
        summary="A caster activates a printed ability at its targets (400.8): the lines resolve lane by lane, each "
        "sampling its count and checking its condition when it resolves, each recipient gated, each amount "
        "through the damage or recovery pipeline.",
        chapters=("combat:400.8",),
        fields=FIELDS,
        run=run,
        draw=draw_ability,
        unit_fields=("alive", "vitality", "max_vitality", "armor", "shield", "insurance", "burn", "venom", "maim", "untargetable", "thorns", "bloodletting_reduction",
                     "reliquary", "reliquary_speed", "charge"),
        rulebook="combat",
        extra={"decode": decode, "schema": schema, "boundary_cases": BOUNDARY_CASES},
    ),
)
