"""Hypothesis strategies for damage scenarios, aimed at the boundaries where rules go wrong.

Armor is drawn from perfect squares (and their neighbours) and damage from exact multiples
of ``sqrt(A) + 20`` as often as from anything else, because a wrong rounding shows only
there (DESIGN: about 1 pair in 2,000 otherwise). Shield, Insurance, caps and Vitality are
pulled onto the values the instance creates (exactly lethal, exactly 25 per point).
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from referee.model.combat.damage import DAMAGE_KINDS, DamageInstance
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit

#: The board every generated scenario uses: "a" is hit; "b" is its redirector, "c" its
#: interceptor, "t" a Tool, all on side 0; "e" the attacker on side 1.
UIDS = ("a", "b", "c", "t", "e")


@st.composite
def armor_values(draw: Any) -> int:
    """Perfect squares and their neighbours, small values, and negative Armor."""
    root = draw(st.integers(0, 20))
    return draw(
        st.one_of(
            st.just(root * root),
            st.just(root * root + 1),
            st.just(max(root * root - 1, 0)),
            st.integers(-400, 400),
            st.just(-(root * root)),
        )
    )


@st.composite
def amounts(draw: Any, armor: int) -> int:
    """Exact multiples of ``sqrt(A) + 20`` when A is a square, else anything from -5 to 300."""
    if armor >= 0 and math.isqrt(armor) ** 2 == armor and draw(st.booleans()):
        return draw(st.integers(1, 6)) * (math.isqrt(armor) + 20)
    return draw(st.integers(-5, 300))


@st.composite
def units(draw: Any, uid: str, side: int, col: int, **fixed: Any) -> Unit:
    """A unit with every field the pipeline reads, valid domains, boundary-heavy values."""
    alive = draw(st.booleans().map(lambda b: b or draw(st.booleans())))  # mostly alive
    vitality = draw(st.integers(1, 150)) if alive else 0
    fields: dict[str, Any] = dict(
        alive=alive,
        vitality=vitality,
        max_vitality=max(vitality, 150),
        dormant=draw(st.integers(0, 5)) == 0,
        entrapped=draw(st.integers(0, 7)) == 0,
        ignore_charges=draw(st.sampled_from([0, 0, 0, 1, 2])),
        armor=draw(armor_values()),
        has_cap=draw(st.booleans()),
        cap=draw(st.integers(0, 120)),
        subrogated=draw(st.integers(0, 3)),
        insurance=draw(st.integers(0, 4)),
        shield=draw(st.sampled_from([0, 0, 1, 5, 25, 50]) | st.integers(0, 200)),
        defy_death=draw(st.booleans()),
        shield_multiplier=draw(st.sampled_from([1, 1, 2, 3, 4])),
        prismbroken=draw(st.booleans()),
        rune_tick_reduction=draw(st.integers(0, 6)),
        forge_tick_reduction=draw(st.integers(0, 6)),
        redirect_cap=draw(st.integers(0, 60)),
        adrenaline=draw(st.integers(0, 3)),
        bolster=draw(st.integers(0, 3)),
        deathrattle=draw(st.booleans()),
        everlasting=draw(st.booleans()),
        vessels=draw(st.integers(0, 1)),
        is_boss=draw(st.integers(0, 5)) == 0,
    )
    fields.update(fixed)
    return Unit(uid=uid, side=side, row=0, col=col, **fields)


@st.composite
def scenarios(draw: Any, kinds: tuple[str, ...] = DAMAGE_KINDS) -> tuple[Board, DamageInstance, Ruleset]:
    """A five-unit board, one instance at "a" (from "e", or from nobody), and a ruleset."""
    a = draw(units("a", 0, 0, redirect_to=draw(st.sampled_from([None, "b", "e"])),
                   intercept_by=draw(st.sampled_from([None, "c"]))))
    b = draw(units("b", 0, 1))
    c = draw(units("c", 0, 2))
    t = draw(units("t", 0, 3, is_tool=True))
    e = draw(units("e", 1, 0))
    board = Board((a, b, c, t, e))
    kind = draw(st.sampled_from(kinds))
    amount = draw(amounts(a.armor))
    # Pull the recipient onto the instance's boundaries: exactly lethal, exactly its Shield.
    boundary = draw(st.sampled_from(["none", "lethal", "shield", "cap", "points"]))
    if boundary == "lethal" and a.alive:
        board = board.with_unit(_with(a, vitality=max(amount, 1)))
    elif boundary == "shield":
        board = board.with_unit(_with(a, shield=max(amount, 0)))
    elif boundary == "cap":
        board = board.with_unit(_with(a, has_cap=True, cap=max(amount // 2, 0)))
    elif boundary == "points":
        board = board.with_unit(_with(a, insurance=max(amount, 0) // 25))
    source = None if kind == "overtime" else draw(st.sampled_from(["e", "e", "e", "b", None]))
    instance = DamageInstance("a", amount, source, kind, allows_dormant=draw(st.booleans()))
    ruleset = Ruleset(
        negative_armor=draw(st.sampled_from(["mirror", "reciprocal"])),
        shield_multiplier_rounding=draw(st.sampled_from(["ceil", "floor"])),
        redirect_cap_moves=draw(st.sampled_from(["up_to_cap", "excess_over_cap"])),
        defy_death_leaves=draw(st.sampled_from([1, 1, 3])),
        reflect_entry=draw(st.sampled_from(["skip_armor_only", "below_armor"])),
        lethal_redirect_test=draw(st.sampled_from(["would_kill", "raw_amount"])),
    )
    return board, instance, ruleset


def _with(unit: Unit, **changes: Any) -> Unit:
    from dataclasses import replace

    return replace(unit, **changes)
