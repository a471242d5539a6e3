"""``referee query --action play_card``: the play rulebook's process of playing a card (350-359), searched by Z3.

The space is the one the play theorems quantify over (``proofs/play/scenario.py``), so a
verdict here and a theorem there speak of the same states: the seed's worked card (a printed
cost, the mandatory additional cost "kill a friendly unit and discard a unit" of 357.2, the
optional "exhaust a friendly unit" of 414.4, each with its own Energy and Power; one cost
increase; Ezreal's "[1] or [A] less" on optional additional costs, 356.4.c; two discounts on
the whole cost), with **every number a variable** (each cost part, increase and discount, the
pool, the location chosen) and **every object's zone, location, readiness and Might a
variable** (the cast of seven objects: the card, two Basic Runes, a friendly unit, a foe, a
unit in hand, a spell in the trash), whether the optional cost is paid a free choice, under
**each payment plan** of ``PLANS`` (structure: a cell each) and **every reading** of the play
rules' options not fixed (``either_discount``, ``component_discount_scope``...: a solver variable
each, ``proofs/readings.py``, so one run covers them all). Legal means the theorems' well-formedness: no negative
pool, cost, increase or discount, every zone one that exists, every location ``>= 0``.

The model's ``process_play`` is single-source (``and_``/``or_``/``select_state`` over
:mod:`referee.model.arith`), so one symbolic run per cell covers every value; a witness is
replayed through the play rulebook (``referee.rulebooks.play``) as ``referee check`` runs a play
scenario, and its condition evaluated again on the concrete run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.model.arith import and_, not_, or_, symbolic
from referee.model.events import EventLog

#: The one play action kind a query takes.
PLAY_ACTION = "play_card"
#: The additional costs of the queried card, by their index in the total (``PayCost(index)``).
NONSTANDARD_NAMES = ("kill", "discard", "exhaust")
#: The outcome events of a play, as the play rulebook reports them (one per action).
PLAY_EVENTS = ("played", "play_cancelled")
#: The checks of step 5, by clause (358.2 and the zone and location checks of 354, 355.2; 399 for an activation).
CHECKS = {"354": "zone_ok", "355.2": "location_ok", "358.2": "costs_paid", "399": "source_ok"}
#: The other play action a query takes: activating an ability (399), its cost before the colon (403.1.a).
ACTIVATE_ACTION = "activate"
#: The outcome events of an activation.
ACTIVATE_EVENTS = ("activated", "activation_cancelled")
#: What ``first`` (the activation) exposes: field -> (type, note).
ACTIVATE_FIELDS = {
    "activated": ("Bool", "the ability was activated: every check passed (399, 358.2)"),
    "cancelled": ("Bool", "a check failed and the activation was undone (358.5)"),
    "source_ok": ("Bool", "its source is the player's own (399)"),
    "costs_paid": ("Bool", "its cost was paid (358.2): resources and its action (414.4, 416.3, 203.3)"),
    "resources_paid": ("Bool", "its Energy and Power were paid (357.1)"),
    "effect_happened": ("Bool", "its linked effect happened (202, 203)"),
    "total": ("resources", "its total cost (403.1.a)"),
    "cost_owed": ("Bool", "its non-standard cost (exhaust, recycle) is owed"),
    "cost_paid": ("Bool", "its non-standard cost was paid"),
}


def resource_fields() -> dict[str, str]:
    from referee.model.play.state import DOMAINS

    return {"energy": "Int", "any_power": "Int", "power": "Int", **{d: "Int" for d in DOMAINS}}


def object_fields() -> dict[str, str]:
    return {"zone": "Int", "in_hand": "Bool", "on_chain": "Bool", "on_board": "Bool", "in_trash": "Bool",
            "in_rune_deck": "Bool", "location": "Int", "exhausted": "Bool", "might_bonus": "Int"}


#: What ``first`` (the play) exposes: field -> type, with its note for docs/query.md.
PLAY_FIELDS = {
    "played": ("Bool", "the card was played: every check of step 5 passed (350.1)"),
    "cancelled": ("Bool", "a check failed and the whole process was undone (358.5)"),
    "zone_ok": ("Bool", "it was played from its controller's hand (354)"),
    "location_ok": ("Bool", "a unit was given a location that exists (355.2)"),
    "costs_paid": ("Bool", "every cost was paid (358.2): resources and each owed non-standard cost"),
    "resources_paid": ("Bool", "the combined Energy and Power were paid (357.1; declined: 444.2.a)"),
    "declined": ("Bool", "the plan never pays resources (444.2.a)"),
    "pay_optional": ("Bool", "the player chose to pay the optional additional cost (355.1.a)"),
    "location": ("Int", "the location chosen (355.2)"),
    "total": ("resources", "the total cost of step 3 (356.2-356.6): `energy`, `any_power`, `power` (all domains), per domain"),
    "printed": ("resources", "the printed cost"),
    "mandatory": ("resources", "the resources of the mandatory additional cost (kill and discard)"),
    "optional": ("resources", "the resources of the optional additional cost (exhaust a friendly unit)"),
    "increase": ("resources", "the cost increase (356.3)"),
    "ezreal": ("discount", "Ezreal's discount on optional additional costs, `energy` or `power` (356.4.c)"),
    "discount_a": ("discount", "a discount on the whole cost, both parts (356.4)"),
    "discount_b": ("discount", "a discount on the whole cost, one part or the other (356.4, PLAY-003)"),
    **{f"{n}_owed": ("Bool", f"the {n} cost is owed (the optional one only when chosen)") for n in NONSTANDARD_NAMES},
    **{f"{n}_paid": ("Bool", f"the {n} cost was paid (414.4, 416.3, 203.3)") for n in NONSTANDARD_NAMES},
}


def pool_fields() -> dict[str, str]:
    from referee.model.play.state import DOMAINS

    return {"energy": "Int", "power": "Int", **{d: "Int" for d in DOMAINS}}


def cast_ids() -> tuple[str, ...]:
    from referee.proofs.play.scenario import CAST

    return tuple(entry[0] for entry in CAST)


def play_schema(kind: str = PLAY_ACTION) -> Any:
    """The names a play condition may use: ``before``, ``after`` (pool and objects) and ``first`` (the action)."""
    from .types import Schema

    state = {"pool": "pool", **{oid: "object" for oid in cast_ids()}}
    fields = PLAY_FIELDS if kind == PLAY_ACTION else ACTIVATE_FIELDS
    records = {"play_state": state, "pool": pool_fields(), "object": object_fields(), "resources": resource_fields(),
               "discount": {"energy": "Int", "power": "Int"}, f"action:{kind}": {k: t for k, (t, _) in fields.items()}}
    names = {"before": "play_state", "after": "play_state", "first": f"action:{kind}"}
    notes = {"before": "the play state before the action: `pool` and each object of the cast (`before.card.zone`...)",
             "after": "the play state after it (the state before, exactly, when it was cancelled)",
             "first": f"the action (`actions[0]`, a `{kind}`)"}
    events = PLAY_EVENTS if kind == PLAY_ACTION else ACTIVATE_EVENTS
    return Schema(names, records, events=events, units=cast_ids(), actions=1, notes=notes)


# --------------------------------------------------------------------------------------
# One cell: a payment plan and a reading, run once on symbols (or on a witness's values)
# --------------------------------------------------------------------------------------


@dataclass
class PlayRun:
    """One run of the play: the inputs the witness's JSON needs and the namespace a condition reads."""

    state: Any
    result: Any
    legal: Any
    namespace: dict[str, Any]
    #: The action's protocol form, on a witness's values (``referee.rulebooks.play.codec``).
    action_json: Any


def run_play_cell(v: Any, rules: Any, plan: Any) -> PlayRun:
    """The proofs' scenario (``proofs/play/scenario.py``) played under ``plan``: ``process_play`` (350-359)."""
    from referee.model.play.legal import is_legal_play_state
    from referee.model.play.process import process_play
    from referee.proofs.play.scenario import is_well_formed_card, symbolic_card, \
        symbolic_choices, symbolic_state

    state = symbolic_state(v)
    text, modifiers = symbolic_card(v)
    choices = symbolic_choices(v)
    result = process_play(state, "card", text, choices, plan, modifiers, rules)
    legal = and_(is_legal_play_state(state), is_well_formed_card(text, modifiers))
    return PlayRun(state, result, legal, play_namespace(state, text, modifiers, choices, result),
                   lambda: play_action_json(text, modifiers, choices, plan))


def activation_entries() -> dict[str, tuple[str, Any, tuple[Any, ...]]]:
    """The abilities the linked-effect theorem activates (``proofs/play/process_theorems.py``): source, ability, plan."""
    from referee.model.play.payment import PayCost, PayResources, UseRune
    from referee.model.play.process import get_basic_rune_ability
    from referee.proofs.play.process_theorems import PAID_BUFF, VI_DESTRUCTIVE

    return {"exhaust": ("rune_a", get_basic_rune_ability("exhaust"), (PayCost(0),)),
            "recycle": ("rune_b", get_basic_rune_ability("recycle"), (PayCost(0),)),
            "vi": ("ally", VI_DESTRUCTIVE, (PayCost(0, ("trash_card",)),)),
            "buff": ("ally", PAID_BUFF, (UseRune("rune_b", "exhaust"), PayResources(), PayCost(0)))}


def run_activate_cell(v: Any, rules: Any, entry: tuple[str, Any, tuple[Any, ...]]) -> PlayRun:
    """The proofs' cast, one ability activated (399, 403.1.a): ``process_activate``."""
    from referee.model.play.legal import is_legal_play_state
    from referee.model.play.process import process_activate
    from referee.proofs.play.scenario import symbolic_state

    source, ability, plan = entry
    state = symbolic_state(v)
    result = process_activate(state, source, ability, plan, rules=rules)
    legal = is_legal_play_state(state)
    return PlayRun(state, result, legal, activate_namespace(state, source, result),
                   lambda: activate_action_json(source, ability, plan))


def activate_namespace(state: Any, source: str, result: Any) -> dict[str, Any]:
    """``before``, ``after``, ``first`` (the activation) and its outcome event's guards."""
    record: dict[str, Any] = {CHECKS[name]: passed for name, passed in result.checks if name in CHECKS}
    record.update(activated=result.legal, cancelled=not_(result.legal), effect_happened=result.effect_happened,
                  resources_paid=result.payment.resources_paid, total=resources(result.total.resources),
                  cost_owed=result.total.nonstandard[0].owed, cost_paid=result.payment.costs_paid[0])
    return {"before": play_state(state), "after": play_state(result.state), "first": record,
            "__logs__": [outcome_log(result, source, ACTIVATE_EVENTS)]}


def outcome_log(result: Any, unit: str, names: tuple[str, str]) -> EventLog:
    """The one outcome event of a play action: done, or cancelled naming its first failing check (358.5)."""
    log = EventLog()
    log.emit(names[0], when=result.legal, unit=unit)
    failing: Any = False
    for name, passed in result.checks:
        log.emit(names[1], when=and_(not_(failing), not_(passed)), unit=unit, detail=name)
        failing = or_(failing, not_(passed))
    return log


def activate_action_json(source: str, ability: Any, plan: Any) -> dict[str, Any]:
    """The ``activate`` action of the witness, in the protocol's form."""
    return {"kind": ACTIVATE_ACTION, "source": source,
            "ability": {"cost": component_json(ability.cost),
                        "effect": {"kind": ability.effect.kind, "amount": ability.effect.amount}},
            "modifiers": {"increases": [], "discounts": []}, "plan": [step_json(step) for step in plan]}


def play_namespace(state: Any, text: Any, modifiers: Any, choices: Any, result: Any) -> dict[str, Any]:
    """``before``, ``after``, ``first`` and the outcome event's guards, the same on symbols and on values."""
    checks = dict(result.checks)
    record: dict[str, Any] = {CHECKS[name]: passed for name, passed in checks.items() if name in CHECKS}
    record.update(played=result.legal, cancelled=not_(result.legal), resources_paid=result.payment.resources_paid,
                  declined=result.payment.declined, pay_optional=choices.pay_optional[1], location=choices.location,
                  total=resources(result.total.resources), printed=resources(text.cost.resources),
                  mandatory=resources(text.additional[0].resources), optional=resources(text.additional[1].resources),
                  increase=resources(modifiers.increases[0]))
    for name, discount in zip(("ezreal", "discount_a", "discount_b"), modifiers.discounts):
        record[name] = {"energy": discount.energy, "power": discount.power}
    for name, owed, paid in zip(NONSTANDARD_NAMES, result.total.nonstandard, result.payment.costs_paid):
        record[f"{name}_owed"], record[f"{name}_paid"] = owed.owed, paid
    return {"before": play_state(state), "after": play_state(result.state), "first": record,
            "__logs__": [outcome_log(result, "card", PLAY_EVENTS)]}


def resources(cost: Any) -> dict[str, Any]:
    from referee.model.play.state import DOMAINS

    return {"energy": cost.energy, "any_power": cost.any_power, "power": sum(cost.power, 0),
            **dict(zip(DOMAINS, cost.power))}


def play_state(state: Any) -> dict[str, Any]:
    """A play state as a condition reads it: ``pool`` and each object by id."""
    from referee.model.play.state import BOARD, CHAIN, DOMAINS, HAND, RUNE_DECK, TRASH

    out: dict[str, Any] = {"pool": {"energy": state.pool.energy, "power": sum(state.pool.power, 0),
                                    **dict(zip(DOMAINS, state.pool.power))}}
    for o in state.objects:
        out[o.oid] = {"zone": o.zone, "in_hand": o.zone == HAND, "on_chain": o.zone == CHAIN, "on_board": o.zone == BOARD,
                      "in_trash": o.zone == TRASH, "in_rune_deck": o.zone == RUNE_DECK, "location": o.location,
                      "exhausted": o.exhausted, "might_bonus": o.might_bonus}
    return out


# --------------------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------------------


@dataclass
class PlayCell:
    """One payment plan (or ability), run once on symbols, the play options not ``pinned`` solver variables."""

    name: str  # the payment plan of a play, the ability of an activation
    pinned: dict[str, str]
    build: Any  # (variables, rules) -> PlayRun: the same run on symbols and on a witness's values
    variables: Any
    run: PlayRun
    side_conditions: list[Any]

    def read(self) -> set[str]:
        """The play options this cell's run read and left open (each one a ``reading.*`` variable of the run)."""
        from referee.model.readings import READING_PREFIX

        from .types import PLAY_OPTIONS

        return {name for name in PLAY_OPTIONS if READING_PREFIX + name in self.variables.created}

    def label(self) -> str:
        pins = ", ".join(f"{o}={r}" for o, r in sorted(self.pinned.items()) if o in self.read() or len(self.pinned) < 3)
        return f"{self.name}, {pins}" if pins else self.name


def build_cell(name: str, pinned: dict[str, str], build: Any) -> PlayCell:
    """One cell, run once on symbols; the options' domains among its side conditions."""
    from referee.proofs.core import Vars
    from referee.proofs.readings import domain

    v = Vars(pinned=pinned)
    with symbolic() as context:
        run = build(v, v.play_rules())
    return PlayCell(name, pinned, build, v, run, [*context.side_conditions, domain(v)])


def play_cells(pinned: dict[str, str]) -> list[PlayCell]:
    """Every payment plan of the space, each over every reading not pinned."""
    from functools import partial

    from referee.proofs.play.scenario import PLANS

    return [build_cell(f"plan {name}", pinned, partial(run_play_cell, plan=plan)) for name, plan in PLANS.items()]


def check_play_actions(actions: tuple[str, ...], ruleset: Any) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The kind, the readings and the abilities of a play query: one ``play_card`` or one ``activate[:ability=...]``."""
    from .types import QueryError

    kind, _, rest = actions[0].strip().partition(":") if len(actions) == 1 else ("", "", "")
    if kind not in (PLAY_ACTION, ACTIVATE_ACTION) or (kind == PLAY_ACTION and rest):
        raise QueryError(f"a play query is exactly one --action {PLAY_ACTION} (no slots) or one --action "
                         f"{ACTIVATE_ACTION}[:ability=NAME]; the combat kinds and the play rulebook are not mixed")
    names = tuple(activation_entries()) if kind == ACTIVATE_ACTION else ()
    if rest:
        slot, _, value = rest.partition("=")
        if slot.strip() != "ability" or value.strip() not in names:
            raise QueryError(f"--action {actions[0]!r}: the one slot is ability=NAME ({', '.join(names)})")
        names = (value.strip(),)
    return kind, play_pinned(ruleset), names


def play_pinned(ruleset: Any) -> dict[str, str]:
    """The play options a query fixes: each one ``--ruleset`` names (its reading checked); every one at its default
    under ``--ruleset defaults`` or a declaration of every combat option at its default. The rest stay open: the
    search covers each of their readings in one run. Combat options are accepted and not read."""
    from referee.model.combat.ruleset import DEFAULT
    from referee.model.play.rules import DEFAULT_PLAY_RULES

    from .types import PLAY_OPTIONS, QueryError

    fixed = DEFAULT.to_json() if ruleset == "defaults" else dict(ruleset or {})
    pinned = {}
    for name, readings in PLAY_OPTIONS.items():
        if name in fixed:
            if fixed[name] not in readings:
                raise QueryError(f"--ruleset {name}={fixed[name]}: not one of {', '.join(readings)}")
            pinned[name] = fixed[name]
    if all(fixed.get(k) == v for k, v in DEFAULT.to_json().items()):
        return {**DEFAULT_PLAY_RULES.to_json(), **pinned}
    return pinned


def readings_words(pinned: dict[str, str]) -> str:
    """What a space says of the play options: those fixed (``either_discount=power_first only``), and the others."""
    from .types import PLAY_OPTIONS

    fixed = [f"{o}={r} only" for o, r in pinned.items()]
    free = [o for o in PLAY_OPTIONS if o not in pinned]
    return ", ".join(fixed + ([f"every reading of {', '.join(free)} (the play register's options)"] if free else []))


def play_space(kind: str, pinned: dict[str, str], names: tuple[str, ...]) -> str:
    """The one line an ``impossible`` covers."""
    from referee.proofs.play.scenario import PLANS

    if kind == ACTIVATE_ACTION:
        return (f"over the play theorems' cast (proofs/play/scenario.py: {len(cast_ids())} objects), every pool, "
                f"zone, location, readiness and Might, activating each of the abilities {', '.join(names)} with its "
                "plan (proofs/play/process_theorems.py; no cost modifier, so no play option is read)")
    words = readings_words(pinned)
    return (f"over the play theorems' scenario (proofs/play/scenario.py: the card with a printed cost, a mandatory "
            f"kill-and-discard and an optional exhaust additional cost, one increase, Ezreal's and two whole-cost "
            f"discounts; a cast of {len(cast_ids())} objects), every cost, increase, discount, pool, zone, location, "
            f"readiness and Might, paying the optional cost or not, each of the {len(PLANS)} payment plans "
            f"({', '.join(PLANS)}), {words} (no combat option is read by the play rulebook)")


def query_cells(kind: str, pinned: dict[str, str], names: tuple[str, ...]) -> list[PlayCell]:
    """The cells of a play query: each plan (``play_card``) or each ability (``activate``), every reading open."""
    from functools import partial

    if kind == PLAY_ACTION:
        return play_cells(pinned)
    entries = activation_entries()
    return [build_cell(f"ability {name}", pinned, partial(run_activate_cell, entry=entries[name])) for name in names]


def run_play_query(condition: str, actions: tuple[str, ...], ruleset: Any, rlimit: int, seeds: tuple[int, ...],
                   budget: float, by_reading: bool = False) -> Any:
    """``found`` (a witness replayed through the play rulebook), ``impossible`` over :func:`play_space`, or ``unknown``;
    ``by_reading``: the same for each reading, and the partition of the readings."""
    import time

    from .parser import parse_condition
    from .records import QueryAnswer

    kind, pinned, names = check_play_actions(actions, ruleset)
    typed = parse_condition(condition, play_schema(kind))
    if by_reading:
        return play_by_reading(condition, actions, (kind, pinned, names), rlimit, seeds, budget)
    started = time.monotonic()
    space = play_space(kind, pinned, names)
    cells = query_cells(kind, pinned, names)
    answer = search_play(condition, typed, cells, space, rlimit, seeds, started + budget)
    if answer is None:
        answer = QueryAnswer("impossible", condition, space, cells=len(cells),
                             detail=f"no legal state satisfies the condition {space} ({len(cells)} cells, each proved)")
    answer.seconds = round(time.monotonic() - started, 3)
    return answer


def search_play(condition: str, typed: Any, cells: list[PlayCell], space: str, rlimit: int, seeds: tuple[int, ...],
                deadline: float) -> Any:
    """Each cell asked once (the play is linear: no relaxation needed); ``None`` when every cell is impossible."""
    from .records import QueryAnswer
    from .solve import fewest_changes, solve

    open_cells = []
    for cell in cells:
        formulas = [*cell.side_conditions, cell.run.legal, play_condition(cell.run.namespace, typed)]
        check = solve(formulas, cell.variables, rlimit, seeds, deadline)
        if check.answer == "unsat":
            continue
        if check.answer == "unknown":
            open_cells.append(cell.label())
            continue
        fewer = fewest_changes(formulas, cell.variables, default_value, 2.5)
        answer = play_witness(condition, typed, cell, fewer or check.values, space)
        if answer.status == "found" or fewer is None:
            return answer
        return play_witness(condition, typed, cell, check.values, space)
    if open_cells:
        return QueryAnswer("unknown", condition, space, cells=len(cells),
                           detail=f"Z3 gave no answer within rlimit {rlimit} or the time budget for "
                                  f"{len(open_cells)} of {len(cells)} cells; never a guess\n"
                                  f"cells: {len(cells)} built, {len(cells) - len(open_cells)} decided (proved "
                                  "impossible), " + f"{len(open_cells)} open: " + "; ".join(open_cells),
                           progress={"cells_built": len(cells), "cells_decided": len(cells) - len(open_cells),
                                     "open_cells": open_cells, "more_cells_unbuilt": False, "cheaper": None})
    return None


#: The Boolean variables of the scenario (their default is ``False``; every other default is 0).
BOOL_NAMES = (".exhausted", "pay_optional")


def default_value(name: str) -> Any:
    """What a witness keeps a variable at where it can: ``False``, 0, an option's first (default) reading."""
    from referee.model.readings import READING_PREFIX

    from .types import PLAY_OPTIONS

    if name.startswith(READING_PREFIX):
        return False if len(PLAY_OPTIONS[name[len(READING_PREFIX):]]) == 2 else 0
    return False if name.endswith(BOOL_NAMES) else 0


def play_condition(namespace: dict[str, Any], typed: Any) -> Any:
    from .evaluate import evaluate

    with symbolic():
        return evaluate(typed, namespace)


def play_witness(condition: str, typed: Any, cell: PlayCell, values: dict[str, Any], space: str) -> Any:
    """The witness run concretely, its condition checked again, and replayed through the play rulebook."""
    from referee.model.play.rules import PlayRules
    from referee.proofs.core import Vars
    from referee.rulebooks.play.codec import encode_observation
    from referee.rulebooks.play.run import decode_scenario, run

    from .evaluate import evaluate
    from .records import QueryAnswer

    rules = witness_rules(cell, values)
    concrete = cell.build(Vars(dict(values), pinned=cell.pinned), rules)
    holds = evaluate(typed, concrete.namespace) is True and concrete.legal is True
    scenario = play_scenario(concrete, rules)
    state, events = run(decode_scenario(scenario))
    own = [g.event for g in concrete.namespace["__logs__"][0].entries if g.when is True]
    agrees = state == concrete.result.state and list(events) == own
    status = "found" if holds and agrees else "encoding-defect"
    detail = "" if status == "found" else \
        "the witness does not satisfy the condition when replayed through the play rulebook (a defect of the encoding)"
    return QueryAnswer(status, condition, space, scenario, encode_observation(state, events, sid=scenario["id"]),
                       detail, cell=witness_label(cell, rules))


def witness_rules(cell: PlayCell, values: dict[str, Any]) -> Any:
    """The play rules a witness runs under: its cell's pins, the readings the solver chose, else the defaults."""
    from referee.model.play.rules import PlayRules
    from referee.proofs.readings import reading_values

    from .types import PLAY_OPTIONS

    chosen = {o: r for o, r in reading_values(values).items() if o in PLAY_OPTIONS}
    return PlayRules(**{**chosen, **cell.pinned})


def witness_label(cell: PlayCell, rules: Any) -> str:
    """The cell, and the readings of the options it read (``plan pay_first, either_discount=power_first``)."""
    read = sorted(cell.read() | {o for o in cell.pinned if len(cell.pinned) < 3})
    return ", ".join([cell.name, *(f"{o}={getattr(rules, o)}" for o in read)])


def play_scenario(concrete: PlayRun, rules: Any) -> dict[str, Any]:
    """The witness as a play-rulebook scenario (``"rulebook": "play"``), replayable by ``referee check``."""
    from referee.rulebooks.play.codec import state_to_json
    from referee.wire import PROTOCOL

    return {"protocol": PROTOCOL, "id": "query-play", "rulebook": "play", "rules": rules.to_json(),
            "state": state_to_json(concrete.state), "actions": [concrete.action_json()]}


def play_action_json(text: Any, modifiers: Any, choices: Any, plan: Any) -> dict[str, Any]:
    """The ``play_card`` action of the witness, in the protocol's form (``referee.rulebooks.play.codec``)."""
    return {"kind": PLAY_ACTION, "card": "card", "cost": component_json(text.cost),
            "additional": [component_json(c) for c in text.additional],
            "pay_optional": list(choices.pay_optional), "location": choices.location,
            "modifiers": {"increases": [cost_json(c) for c in modifiers.increases],
                          "discounts": [{"energy": d.energy, "power": d.power, "either": d.either,
                                         "applies_to": d.applies_to} for d in modifiers.discounts]},
            "plan": [step_json(step) for step in plan]}


def cost_json(cost: Any) -> dict[str, Any]:
    from referee.rulebooks.play.codec import power_to_json

    return {"energy": cost.energy, "power": power_to_json(cost.power), "any_power": cost.any_power}


def component_json(component: Any) -> dict[str, Any]:
    out = {**cost_json(component.resources),
           "nonstandard": [{"kind": n.kind, "count": n.count} for n in component.nonstandard]}
    return {**out, "optional": True} if component.optional else out


def step_json(step: Any) -> dict[str, Any]:
    from referee.model.play.payment import PayCost, UseRune

    if isinstance(step, UseRune):
        return {"step": "use_rune", "rune": step.rune, "ability": step.ability}
    if isinstance(step, PayCost):
        return {"step": "pay_cost", "index": step.index, "targets": list(step.targets)}
    return {"step": "pay_resources", "any_power_from": list(step.any_power_from)}


def play_by_reading(condition: str, actions: tuple[str, ...], query: tuple[str, dict[str, str], tuple[str, ...]],
                    rlimit: int, seeds: tuple[int, ...], budget: float) -> Any:
    """The play question under each reading of the options its cells read (and only those), as one partition
    (``--by-reading``): one search per combination of their readings, the others left open."""
    import itertools
    import time

    from .by_reading import Partition, Region, partition_answer
    from .types import PLAY_OPTIONS

    kind, pinned, names = query
    started = time.monotonic()
    read = sorted(set().union(*(cell.read() for cell in query_cells(kind, pinned, names))))
    partition = Partition(read=set(read))
    for point in itertools.product(*(PLAY_OPTIONS[o] for o in read)):
        readings = dict(zip(read, point))
        left = max(0.0, budget - (time.monotonic() - started))
        answer = run_play_query(condition, actions, {**pinned, **readings}, rlimit, seeds, left)
        partition.cells += answer.cells
        if answer.status == "found":
            partition.regions.append(Region(readings, answer))
        elif answer.status != "impossible":
            partition.open_cells.append(f"{' and '.join(f'{o}={r}' for o, r in readings.items())}: {answer.status}")
    result = partition_answer(_PlaySpace(condition, play_space(kind, pinned, names)), partition)
    result.seconds = round(time.monotonic() - started, 3)
    return result


class _PlaySpace:
    """What :func:`.by_reading.partition_answer` reads of a query: its text and its space line."""

    def __init__(self, text: str, space: str) -> None:
        self.text, self._space = text, space

    def space(self) -> str:
        return self._space

