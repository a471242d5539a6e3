"""The readings a theorem is proved under: every reading at once, or the ones an engine declares.

The model reads its ruleset options (``ruleset.negative_armor``, ``rules.either_discount``) through
:func:`~referee.model.readings.by_reading`. While a theorem is encoded, the rulesets it does not name
(the model functions' ``DEFAULT`` and ``DEFAULT_PLAY_RULES``, and any ruleset it builds with
:meth:`~referee.proofs.core.Vars.ruleset`) answer each option not pinned with a solver variable
``reading.<option>`` over the option's readings, so one obligation speaks for every reading: the
family-based analysis of a product line, readings playing the part of features. While a
counterexample is replayed, the same rulesets are the concrete readings of its ``reading.*``
values, so the replay runs the concrete model under exactly the readings the solver chose.

``defy_death_leaves`` (INT-004) is an integer option: its variable ranges over its declared domain,
every integer at least 1, an assumption every obligation that reads it carries.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import Iterator
from typing import Any

from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.play.rules import DEFAULT_PLAY_RULES, PlayRules
from referee.model.readings import READING_PREFIX, SymbolicReading, reading_variable, word_options

#: The integer options and the least value of each one's domain.
INTEGER_OPTIONS = {"defy_death_leaves": 1}


#: Every word option of the combat ruleset and the play rules, each with its readings, the default first.
COMBAT_OPTIONS = word_options(Ruleset)
PLAY_OPTIONS = word_options(PlayRules)
OPTIONS = {**COMBAT_OPTIONS, **PLAY_OPTIONS}
#: The options of each rulebook's ruleset class.
OWNERS = {Ruleset: (*COMBAT_OPTIONS, *INTEGER_OPTIONS), PlayRules: tuple(PLAY_OPTIONS)}


def defaults() -> dict[str, Any]:
    """Every option of both rulebooks at its default reading."""
    return {**DEFAULT.to_json(), **{name: getattr(DEFAULT_PLAY_RULES, name) for name in PLAY_OPTIONS}}


class SymbolicRuleset:
    """A ruleset (combat or play) whose options not pinned are solver variables over their readings."""

    def __init__(self, cls: type, pinned: dict[str, Any], v: Any) -> None:
        object.__setattr__(self, "_cls", cls)
        object.__setattr__(self, "_pinned", pinned)
        object.__setattr__(self, "_v", v)

    def __getattr__(self, name: str) -> Any:
        pinned = object.__getattribute__(self, "_pinned")
        if name in pinned:
            return pinned[name]
        v = object.__getattribute__(self, "_v")
        if name in INTEGER_OPTIONS:
            return v.int(READING_PREFIX + name)
        if name not in OPTIONS:
            return getattr(object.__getattribute__(self, "_cls")(), name)
        return symbolic_option(v, name)

    def __repr__(self) -> str:
        return f"SymbolicRuleset({object.__getattribute__(self, '_cls').__name__})"


def symbolic_option(v: Any, name: str) -> SymbolicReading:
    """The word option ``name`` as a variable of ``v`` over its readings (:func:`reading_variable`)."""
    return reading_variable(v, name, OPTIONS[name])


def reading_constant(name: str) -> Any:
    """The solver constant of option ``name``'s reading (``reading.<name>``), of its sort."""
    import z3

    if name in INTEGER_OPTIONS or len(OPTIONS[name]) > 2:
        return z3.Int(READING_PREFIX + name)
    return z3.Bool(READING_PREFIX + name)


def reading_values(values: dict[str, Any]) -> dict[str, Any]:
    """The readings a counterexample's values name (``reading.*``); an option it does not name is absent."""
    out: dict[str, Any] = {}
    for name, readings in OPTIONS.items():
        if READING_PREFIX + name in values:
            out[name] = readings[int(values[READING_PREFIX + name])]
    for name in INTEGER_OPTIONS:
        if READING_PREFIX + name in values:
            out[name] = int(values[READING_PREFIX + name])
    return out


def ruleset_for(cls: type, v: Any, pinned: dict[str, Any]) -> Any:
    """The ``cls`` ruleset of one theorem run: symbolic while proving, the counterexample's readings while replaying.

    ``pinned`` fixes options (a theorem stated under one reading, or an engine's declared readings); every other
    option is a variable while proving, and while replaying the reading the counterexample gives it (its default
    when the counterexample does not name it).
    """
    mine = {k: value for k, value in pinned.items() if k in OWNERS[cls]}
    if v.symbolic:
        return SymbolicRuleset(cls, mine, v)
    chosen = {k: value for k, value in reading_values(v.values).items() if k in OWNERS[cls]}
    return cls(**{**chosen, **mine})


def domain(v: Any) -> Any:
    """The declared domain of every option the run read: an integer option's least value (``defy_death_leaves >= 1``),
    and a word option of three readings or more (an Int index, ``reliquary_clear_point``) one of its indices."""
    from referee.model.arith import and_

    least = [v.created[READING_PREFIX + name] >= low for name, low in INTEGER_OPTIONS.items()
             if READING_PREFIX + name in v.created]
    indexed = [and_(v.created[READING_PREFIX + name] >= 0, v.created[READING_PREFIX + name] < len(readings))
               for name, readings in OPTIONS.items() if len(readings) > 2 and READING_PREFIX + name in v.created]
    return and_(True, *least, *indexed)


#: The sites found, and how many modules were loaded when they were (a module loaded since: look again).
_SITES: tuple[int, list[tuple[Any, str, Any]]] = (-1, [])


def _default_sites() -> list[tuple[Any, str, tuple[Any, ...] | dict[str, Any]]]:
    """Every function default (positional or keyword-only) that is a rulebook's default ruleset, in model and proofs
    (looked up once per set of loaded modules: a replay of a cached answer asks for them hundreds of times)."""
    global _SITES
    if _SITES[0] != len(sys.modules):
        _SITES = (len(sys.modules), _find_default_sites())
    return _SITES[1]


def _find_default_sites() -> list[tuple[Any, str, tuple[Any, ...] | dict[str, Any]]]:
    sites = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(("referee.model", "referee.proofs")) or module is None:
            continue
        for value in list(vars(module).values()):
            for function in [value, *(vars(value).values() if isinstance(value, type) else ())]:
                function = getattr(function, "__func__", function)
                if getattr(function, "__module__", None) != name:
                    continue
                for attribute in ("__defaults__", "__kwdefaults__"):
                    held = getattr(function, attribute, None)
                    items = held.values() if isinstance(held, dict) else (held or ())
                    if any(item is DEFAULT or item is DEFAULT_PLAY_RULES for item in items):
                        sites.append((function, attribute, held))
    return sites


#: The rulesets of the theorem run in progress (combat, play), for :func:`current_reading`.
_CURRENT: contextvars.ContextVar[tuple[Any, Any] | None] = contextvars.ContextVar("referee_proof_readings", default=None)


@contextlib.contextmanager
def ambient(v: Any) -> Iterator[None]:
    """While the theorem runs, every ruleset the model takes by default is this run's (:func:`ruleset_for`)."""
    combat, play = ruleset_for(Ruleset, v, v.pinned), ruleset_for(PlayRules, v, v.pinned)
    swap = {id(DEFAULT): combat, id(DEFAULT_PLAY_RULES): play}
    sites = _default_sites()
    token = _CURRENT.set((combat, play))
    try:
        for function, attribute, held in sites:
            setattr(function, attribute, _swapped(held, swap))
        yield
    finally:
        for function, attribute, held in sites:
            setattr(function, attribute, held)
        _CURRENT.reset(token)


def current_reading(option: str) -> Any:
    """The reading of ``option`` in the theorem run in progress (a solver term while proving over it)."""
    combat, play = _CURRENT.get() or (DEFAULT, DEFAULT_PLAY_RULES)
    return getattr(play if option in PLAY_OPTIONS else combat, option)


def _swapped(held: Any, swap: dict[int, Any]) -> Any:
    if isinstance(held, dict):
        return {key: swap.get(id(value), value) for key, value in held.items()}
    return tuple(swap.get(id(value), value) for value in held)


# --------------------------------------------------------------------------------------
# Regions: the readings a theorem is not claimed under
# --------------------------------------------------------------------------------------


def parse_region(text: str) -> tuple[tuple[str, str, Any], ...]:
    """``"tick_share_rounding=remainder_to_first and defy_death_leaves>=2"``: its atoms ``(option, op, value)``.

    A word option is compared with ``=`` to one of its readings; an integer option with ``=`` or ``>=``.
    An unknown option or reading is refused by name.
    """
    atoms = []
    for atom in (part.strip() for part in text.split(" and ")):
        name, op, value = _split_atom(atom, text)
        if name in OPTIONS:
            if op != "=" or value not in OPTIONS[name]:
                raise ValueError(f"region {text!r}: {name} reads one of {', '.join(OPTIONS[name])}, with '='")
            atoms.append((name, op, value))
        elif name in INTEGER_OPTIONS:
            atoms.append((name, op, int(value)))
        else:
            raise ValueError(f"region {text!r}: unknown ruleset option {name!r}")
    return tuple(atoms)


def _split_atom(atom: str, text: str) -> tuple[str, str, str]:
    for op in (">=", "="):
        if op in atom:
            name, _, value = atom.partition(op)
            return name.strip(), op, value.strip()
    raise ValueError(f"region {text!r}: {atom!r} is not 'option=reading' or 'option>=number'")


def region_term(v: Any, region: tuple[tuple[str, str, Any], ...]) -> Any:
    """The region as a condition on the reading variables."""
    from referee.model.arith import and_

    terms = []
    for name, op, value in region:
        if name in v.pinned:  # a reading this run fixes: the atom is decided here
            terms.append(v.pinned[name] >= value if op == ">=" else v.pinned[name] == value)
        elif name in INTEGER_OPTIONS:
            variable = v.int(READING_PREFIX + name)
            terms.append(variable >= value if op == ">=" else variable == value)
        else:
            terms.append(symbolic_option(v, name).is_reading(value))
    return and_(True, *terms)


def in_region(readings: dict[str, Any], region: tuple[tuple[str, str, Any], ...]) -> bool:
    """Whether concrete readings (every option named) lie in the region."""
    return all(readings[name] >= value if op == ">=" else readings[name] == value for name, op, value in region)


def region_text(region: tuple[tuple[str, str, Any], ...]) -> str:
    return " and ".join(f"{name}{op}{value}" for name, op, value in region)


def region_point(region: tuple[tuple[str, str, Any], ...], pinned: dict[str, Any] | None = None) -> dict[str, Any]:
    """One full reading inside the region: its atoms' readings (the least value of a ``>=``), every other
    option as ``pinned`` fixes it or at its default. An exception is confirmed by a counterexample there."""
    return {**defaults(), **(pinned or {}), **{name: value for name, _, value in region}}
