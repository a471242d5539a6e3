"""Bounded-exhaustive scopes: every scenario of a declared family, in a canonical order, with no randomness.

A rulebook declares its exhaustive tiers as :class:`Family` objects (``referee/rulebooks/<name>/exhaust.py``):
a family is one structural shape (who stands where, which action kind) and a list of :class:`Axis`, each a
field of the shape and the finite, named set of values it takes. The values of an axis may depend on the
axes before it (the damage amounts around the lethal line depend on the Vitality chosen), which is how a
boundary set derived from the rules' own thresholds is written: ``lethal - 1, lethal, lethal + 1``.

The scenarios of a family are the product of its axes, taken in axis order (the last axis varies fastest),
each built by the family's ``build``. A build may decline a combination (``None``) where the shape makes it
meaningless (a redirect with nobody to redirect to); that filter is part of the declared scope. Nothing here
draws a random number: the same tier is the same list of scenarios on every machine and every run.

Symmetry (:func:`canonical_key`): two scenarios equal up to renaming units, mirroring the two sides, or
moving units between cells that keep every side's reading order, are one scenario; :func:`enumerate_scope`
keeps the first of each class and counts the candidates it dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: ``values(assignment) -> tuple``: an axis's values, given the values of the axes before it.
Choose = Callable[[dict[str, Any]], tuple[Any, ...]]


@dataclass(frozen=True)
class Axis:
    """One varying field of a family: its name, the named value set it ranges over, how to list it."""

    name: str
    #: The value set's name as the docs list it (``ARMOR_SQUARES``, ``lethal +- 1``).
    set_name: str
    choose: Choose


def fixed(name: str, set_name: str, values: tuple[Any, ...]) -> Axis:
    """An axis whose values do not depend on the others."""
    return Axis(name, set_name, lambda _assignment, values=values: values)


@dataclass(frozen=True)
class Family:
    """One structural shape of a tier: its first action kind, its axes, and how a scenario is built."""

    name: str
    rulebook: str
    kind: str
    axes: tuple[Axis, ...]
    #: ``build(assignment) -> scenario JSON`` (``None``: the combination is outside the shape).
    build: Callable[[dict[str, Any]], dict[str, Any] | None]
    #: Whether cells may be compressed for symmetry (False where absolute cells matter: the revival slot search).
    cells_free: bool = True
    note: str = ""

    def assignments(self) -> Iterator[dict[str, Any]]:
        """Every combination of the axes' values, in axis order (the last axis fastest)."""
        yield from _product(self.axes, {})

    def candidates(self) -> Iterator[dict[str, Any]]:
        """Every scenario the family builds, before symmetry reduction."""
        for assignment in self.assignments():
            scenario = self.build(assignment)
            if scenario is not None:
                yield scenario


def _product(axes: tuple[Axis, ...], assignment: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if not axes:
        yield dict(assignment)
        return
    first, rest = axes[0], axes[1:]
    for value in dict.fromkeys(first.choose(assignment)):  # a value listed twice is one value
        assignment[first.name] = value
        yield from _product(rest, assignment)
    assignment.pop(first.name, None)


@dataclass
class Enumerated:
    """A tier's scenarios after symmetry reduction, each with its family, and the candidate counts."""

    scenarios: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    candidates: int = 0
    by_family: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def reduced(self) -> int:
        return self.candidates - len(self.scenarios)


def enumerate_scope(families: list[Family]) -> Enumerated:
    """Every scenario of the families, in family then axis order, one per symmetry class."""
    out = Enumerated()
    seen: set[str] = set()
    for family in families:
        before, kept = out.candidates, len(out.scenarios)
        for scenario in family.candidates():
            out.candidates += 1
            key = canonical_key(scenario, family.cells_free)
            if key in seen:
                continue
            seen.add(key)
            out.scenarios.append((family.name, scenario))
        out.by_family[family.name] = (out.candidates - before, len(out.scenarios) - kept)
    return out


# --------------------------------------------------------------------------------------
# Symmetry
# --------------------------------------------------------------------------------------


def canonical_key(scenario: dict[str, Any], cells_free: bool = True) -> str:
    """One text for every scenario equal to this one up to unit names, mirrored sides and order-keeping cells."""
    units = scenario.get("board")
    if not isinstance(units, list):  # a play scenario: objects are named by the actions; keep it as it is
        return _text({k: v for k, v in scenario.items() if k != "id"})
    return min(_renamed(scenario, units, mirror, cells_free) for mirror in (False, True))


def _renamed(scenario: dict[str, Any], units: list[dict[str, Any]], mirror: bool, cells_free: bool) -> str:
    """The scenario with sides mirrored (or not), cells ranked within each side, and units renamed in that order."""
    side = (lambda u: 1 - u.get("side", 0)) if mirror else (lambda u: u.get("side", 0))
    placed = sorted(units, key=lambda u: (side(u), u.get("row", 0), u.get("col", 0), u["uid"]))
    names = {u["uid"]: f"u{i}" for i, u in enumerate(placed)}
    cells = _ranked_cells(placed, side) if cells_free else {}
    board = []
    for unit in placed:
        renamed = {**unit, "uid": names[unit["uid"]], "side": side(unit)}
        if cells_free:
            renamed["row"], renamed["col"] = cells[unit["uid"]]
        for link in ("redirect_to", "intercept_by"):
            if renamed.get(link) is not None:
                renamed[link] = names.get(renamed[link], renamed[link])
        board.append(renamed)
    actions = [_rename_action(a, names) for a in scenario.get("actions", [])]
    return _text({**{k: v for k, v in scenario.items() if k not in ("id", "board", "actions")},
                  "board": board, "actions": actions})


def _ranked_cells(placed: list[dict[str, Any]], side: Callable[[dict[str, Any]], int]) -> dict[str, tuple[int, int]]:
    """Each unit's cell as its rank in its side's reading order (row 0, column = rank)."""
    ranks: dict[int, int] = {}
    out = {}
    for unit in placed:  # already in (side, row, col) order
        s = side(unit)
        out[unit["uid"]] = (0, ranks.get(s, 0))
        ranks[s] = ranks.get(s, 0) + 1
    return out


def _rename_action(value: Any, names: dict[str, str]) -> Any:
    """An action (or a part of one) with every unit name replaced; other strings are left alone."""
    if isinstance(value, dict):
        return {k: _rename_action(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename_action(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
