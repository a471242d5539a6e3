"""Theorems of 500.1 and 500.2 over the whole damage pipeline, run symbolically.

Every theorem runs the model's own :func:`~referee.model.combat.damage.resolve_damage` on symbolic
units (DESIGN, proofs/ way (a)): a recipient ``r`` on one half and the instance's source
``s`` on the other, every number and flag of both a variable, and a symbolic amount. The
pipeline is called through its module, so a mutant patched into ``referee.model.combat.damage``
(or into the module a helper comes from) is what runs. Structure stays concrete: no
redirect ally is on the board, so the lethal and the ally redirect do not take part here.

Where a theorem speaks of several kinds of instance it runs each kind on the same state
and claims the property for all of them. Where it needs a quantity the rules define (an
adjusted tick, a legal payer) it writes that quantity from the rule text rather than
reading the model's helper, so a mutant of the helper cannot move both sides at once.

Comparing two hits through two symbolic Armor values is beyond Z3 within the rlimit (the
squared square-root tests of both runs together; measured: unknown after 20M rlimit, and
170 s even with the Armor step's order assumed). So :func:`more_armor_never_means_more_damage`
and :func:`negative_armor_never_reduces_pipeline_damage` leave the squared tests
uninterpreted (``abstract=``) and reason from the Armor step's monotonicity, proved in
``armor_theorems`` and instantiated (``lemmas=``) at the very term the pipeline hands its
Armor step (:func:`compute_armor_input`). Without those instances the same query has a
spurious counterexample, so the lemmas are what the proof rests on. Their mutants are
judged on the exact encoding and are pipeline bugs, since a bug in the Armor step itself
would also falsify the lemma instances; the Armor step's own bugs are refuted in
``armor_theorems``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from referee.model.combat import attribution, damage
from referee.model.arith import and_, ceildiv, floordiv, ite, max_, min_, not_, or_
from referee.model.combat.damage import DamageInstance, DamageOutcome
from referee.model.events import EventLog
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit

from . import armor_theorems
from referee.model.combat.legal import is_legal_board
from ..core import Mutant, Obligation, Vars, all_of, theorem
from .symbolic import QUIET, pinned, symbolic_unit

#: The Unit fields that are state (numbers and flags); identity and redirect links are structure.
STATE_FIELDS = tuple(f.name for f in fields(Unit) if isinstance(f.default, (bool, int)) and f.name not in ("side", "row", "col"))
#: One instance kind per path through the pipeline: a direct hit (Armor applies), a tick
#: (no Armor, adjusted first, reaches a Dormant unit), a Reflect (no Armor, no fanout).
KINDS = ("hit", "burn", "reflect")
TICKS = ("burn", "venom")
FLOOR_SHIELD = Ruleset(shield_multiplier_rounding="floor")


# --------------------------------------------------------------------------------------
# Helpers shared by the damage theorems
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One symbolic resolution: the board before and after, the events, the outcome."""

    before: Board
    after: Board
    log: EventLog
    out: DamageOutcome

    def r(self) -> tuple[Unit, Unit]:
        return self.before.unit("r"), self.after.unit("r")

    def s(self) -> tuple[Unit, Unit]:
        return self.before.unit("s"), self.after.unit("s")


def damage_board(v: Vars, source: dict[str, Any] | None = None, **recipient: Any) -> Board:
    """The recipient ``r`` and the source ``s`` on the other half (some fields of either optionally replaced)."""
    r, s = symbolic_unit(v, "r", side=0), symbolic_unit(v, "s", side=1)
    return Board((replace(r, **recipient), replace(s, **(source or {}))))


def run_damage(v: Vars, kind: str, board: Board | None = None, ruleset: Ruleset = DEFAULT) -> Run:
    """``s`` deals the symbolic ``amount`` to ``r`` as one instance of ``kind``."""
    before = damage_board(v) if board is None else board
    instance = DamageInstance("r", v.int("amount"), "s", kind, allows_dormant=v.bool("allows_dormant"))
    after, log, out = damage.resolve_damage(before, instance, ruleset)
    return Run(before, after, log, out)


def is_same_unit(a: Unit, b: Unit, *, ignoring: tuple[str, ...] = ()) -> Any:
    """Every state field of ``a`` equals that of ``b`` (but those ``ignoring``)."""
    return and_(True, *[getattr(a, f) == getattr(b, f) for f in STATE_FIELDS if f not in ignoring])


def is_same_board(a: Board, b: Board) -> Any:
    """The two boards hold the same units in the same state."""
    return and_(True, *[is_same_unit(u, b.unit(u.uid)) for u in a.units])


def emits_only(log: EventLog, allowed: tuple[str, ...]) -> Any:
    """No event outside ``allowed`` can be emitted."""
    return and_(True, *[not_(g.when) for g in log.entries if g.event.name not in allowed])


def amounts_when(log: EventLog, name: str, unit: str, claim: Any) -> Any:
    """``claim(amount)`` holds for every event ``name`` on ``unit`` that is emitted."""
    return and_(True, *[or_(not_(g.when), claim(g.event.amount)) for g in log.entries
                        if g.event.name == name and g.event.unit == unit])  # fmt: skip


def emitted(log: EventLog, name: str, unit: str) -> Any:
    """Whether an event ``name`` on ``unit`` is emitted."""
    return or_(False, *[g.when for g in log.entries if g.event.name == name and g.event.unit == unit])


def is_revived(before: Unit, after: Unit) -> Any:
    """A Vessel was spent: the unit died and came back at full Vitality (500.4d)."""
    return after.vessels < before.vessels


def compute_vitality_left(before: Unit, after: Unit) -> Any:
    """The Vitality that left the unit, read off the state: all of it when the unit died (500.4b)."""
    return ite(or_(is_revived(before, after), not_(after.alive)), before.vitality, before.vitality - after.vitality)


def compute_armor_input(v: Vars, board: Board, kind: str = "hit", ruleset: Ruleset = DEFAULT) -> Any:
    """The very term the pipeline hands to its Armor step for ``run_damage(v, kind, board)``.

    Built with the pipeline's own gate functions, so that a lemma about the Armor step at this
    term speaks of the same fresh integers as the pipeline (``least_such_that`` is shared within
    one encoding). Should the pipeline change, the terms stop matching and the theorems that
    rely on it fail to prove (an encoding defect), never pass silently.
    """
    r = board.unit("r")
    instance = DamageInstance("r", v.int("amount"), "s", kind, allows_dormant=v.bool("allows_dormant"))
    amount = damage.compute_entering_amount(r, instance)
    entering = ite(damage.is_passing_gates(r, instance, amount), amount, 0)
    return ite(damage.is_ignored(r, instance, entering, ruleset), 0, entering)


def is_reachable_by(r: Unit, kind: str, allows_dormant: Any) -> Any:
    """From the rule text: alive, no Tool or Hub, and not Dormant unless allowed or a tick (500.1-1..3, 500.1i)."""
    tick = kind in TICKS
    return and_(r.alive, not_(r.is_tool), not_(r.is_hub), or_(not_(r.dormant), allows_dormant, tick))


def compute_tick_entering(r: Unit, kind: str, amount: Any) -> Any:
    """From 500.1h: Prismbreak's 50% rounded up, then the rune and the Forge Core reduction (hits unchanged)."""
    if kind not in TICKS:
        return amount
    return ite(r.prismbroken, ceildiv(3 * amount, 2), amount) - r.rune_tick_reduction - r.forge_tick_reduction


# --------------------------------------------------------------------------------------
# Mutants: realistic one-line bugs in the pipeline and its helpers
# --------------------------------------------------------------------------------------

_original = {name: getattr(damage, name) for name in (
    "apply_armor", "apply_incoming_cap", "apply_armor_flat", "compute_points_spent", "compute_points_absorbed",
    "process_subrogation_payback", "is_reachable", "compute_entering_amount", "compute_adjusted_tick",
)}  # fmt: skip


def _points_absorb_whole(damage_left: Any, spent: Any) -> Any:
    """Each spent point absorbs a full 25, even against less (no ``min`` with the damage)."""
    return 25 * spent


def _points_absorb_30(damage_left: Any, spent: Any) -> Any:
    """The wrong constant: a point absorbs up to 30."""
    return min_(damage_left, 30 * spent)


def _points_spent_off_by_one(points: Any, damage_left: Any) -> Any:
    """``floor(d/25) + 1`` for ``ceil(d/25)``: one point too many on an exact multiple of 25."""
    return min_(max_(points, 0), floordiv(damage_left, 25) + 1)


def _spend_defences_refunds_insurance(recipient: Unit, m: Any) -> Unit:
    """A sign slip: plain Insurance points spent are added back."""
    return replace(
        recipient,
        ignore_charges=recipient.ignore_charges - ite(m.ignored, 1, 0),
        subrogated=recipient.subrogated - m.subrogated_spent,
        insurance=recipient.insurance + m.insurance_spent,
        shield=recipient.shield - m.shield_drained,
        defy_death=ite(m.defied, False, recipient.defy_death),
    )


def _spend_defences_refunds_subrogated(recipient: Unit, m: Any) -> Unit:
    """A sign slip: Subrogated points spent are added back."""
    return replace(
        recipient,
        ignore_charges=recipient.ignore_charges - ite(m.ignored, 1, 0),
        subrogated=recipient.subrogated + m.subrogated_spent,
        insurance=recipient.insurance - m.insurance_spent,
        shield=recipient.shield - m.shield_drained,
        defy_death=ite(m.defied, False, recipient.defy_death),
    )


def _shield_drain_forgets_multiplier(shield: Any, multiplier: Any, damage_left: Any) -> Any:
    """The source's Shield multiplier is forgotten when draining the pool."""
    return min_(max_(shield, 0), damage_left)


def _vessel_spent_without_dying(board: Board, uid: str, dies: Any, killer: str | None, log: EventLog,
                                ruleset: Any = None) -> Board:
    """Forgets the death guard on the Vessel: any Vitality loss spends one and restores full Vitality."""
    from referee.model.combat.vitality import announce_macabre, clear_combat_state, revive_from_vessel

    unit = board.unit(uid)
    log.emit("death", when=dies, unit=uid, other=killer)
    dead = ite(dies, clear_combat_state(unit), unit)
    announce_macabre(board, unit, dies, log)
    log.emit("deathrattle", when=and_(dies, unit.deathrattle), unit=uid)
    uses_vessel = unit.vessels > 0
    log.emit("vessel_revival", when=uses_vessel, unit=uid)
    log.emit("everlasting_scheduled", when=and_(dies, not_(uses_vessel), unit.everlasting), unit=uid)
    return board.with_unit(revive_from_vessel(dead, uses_vessel))


def _killed_only_below_zero(before: Unit, after: Unit) -> Any:
    """``< 0`` for ``<= 0``: a unit at exactly 0 Vitality stays alive."""
    return and_(before.alive, after.vitality < 0)


def _armor_with_wrong_sign(recipient: Unit, instance: DamageInstance, damage_left: Any, ruleset: Ruleset) -> Any:
    """The pipeline hands its Armor step the Armor with the wrong sign."""
    from referee.model.combat.armor import apply_armor_flat, apply_armor_percentage

    if damage.is_ignoring_armor(instance):
        return damage_left
    return apply_armor_flat(apply_armor_percentage(damage_left, -recipient.armor, ruleset), recipient.armor)


def _armor_by_magnitude(recipient: Unit, instance: DamageInstance, damage_left: Any, ruleset: Ruleset) -> Any:
    """The pipeline hands its Armor step the size of the Armor, forgetting its sign."""
    from referee.model.combat.armor import apply_armor_flat, apply_armor_percentage

    if damage.is_ignoring_armor(instance):
        return damage_left
    size = max_(recipient.armor, -recipient.armor)
    return apply_armor_flat(apply_armor_percentage(damage_left, size, ruleset), size)


def _cap_discards_everything_above(recipient: Unit, damage_left: Any) -> Any:
    """Misreads 500.1-7: an instance above the cap is discarded whole instead of truncated."""
    return ite(and_(recipient.has_cap, damage_left > max_(recipient.cap, 0)), 0, damage_left)


def _points_spent_floor(points: Any, damage_left: Any) -> Any:
    """``floor`` for ``ceil``: a point is spent only on a full 25, and the rest slips through."""
    return min_(max_(points, 0), floordiv(damage_left, 25))


def _percentage_only(recipient: Unit, instance: DamageInstance, damage_left: Any, ruleset: Ruleset) -> Any:
    """The Armor step applies only the percentage ..."""
    from referee.model.combat.armor import apply_armor_percentage

    return damage_left if damage.is_ignoring_armor(instance) else apply_armor_percentage(damage_left, recipient.armor, ruleset)


def _cap_then_flat(recipient: Unit, damage_left: Any) -> Any:
    """... and the flat reduction is applied after the cap."""
    from referee.model.combat.armor import apply_armor_flat

    return apply_armor_flat(_original["apply_incoming_cap"](recipient, damage_left), recipient.armor)


def _cap_forgotten(recipient: Unit, damage_left: Any) -> Any:
    """The printed cap is never applied."""
    return damage_left


def _armor_after_cap(recipient: Unit, instance: DamageInstance, damage_left: Any, ruleset: Ruleset) -> Any:
    """The cap truncates the pre-Armor amount (500.1-7 says post-Armor); negative Armor then exceeds it."""
    return _original["apply_armor"](recipient, instance, _original["apply_incoming_cap"](recipient, damage_left), ruleset)


def _cap_already_applied(recipient: Unit, damage_left: Any) -> Any:
    return damage_left


def _reachable_forgets_tools_and_hubs(unit: Unit, kind: str, allows_dormant: Any) -> Any:
    """A Tool or Hub is treated as an ordinary target."""
    from referee.model.combat.ticks import is_damage_over_time

    dormancy_shuts = and_(unit.dormant, not_(or_(allows_dormant, is_damage_over_time(kind))))
    return and_(unit.alive, not_(dormancy_shuts))


def _reachable_forgets_hubs(unit: Unit, kind: str, allows_dormant: Any) -> Any:
    """Only Tools discard damage; Hubs are forgotten."""
    from referee.model.combat.ticks import is_damage_over_time

    dormancy_shuts = and_(unit.dormant, not_(or_(allows_dormant, is_damage_over_time(kind))))
    return and_(unit.alive, not_(unit.is_tool), not_(dormancy_shuts))


def _reachable_forgets_alive(unit: Unit, kind: str, allows_dormant: Any) -> Any:
    """A dead recipient is not gated out."""
    from referee.model.combat.ticks import is_damage_over_time

    dormancy_shuts = and_(unit.dormant, not_(or_(allows_dormant, is_damage_over_time(kind))))
    return and_(not_(unit.discards_combat), not_(dormancy_shuts))


def _reachable_dormancy_shuts_ticks(unit: Unit, kind: str, allows_dormant: Any) -> Any:
    """Forgets 500.1i: Dormancy also stops the ticks already running."""
    return and_(unit.alive, not_(unit.discards_combat), not_(and_(unit.dormant, not_(allows_dormant))))


def _reachable_forgets_dormancy(unit: Unit, kind: str, allows_dormant: Any) -> Any:
    """Forgets 500.1-2: a Dormant unit takes every hit."""
    return and_(unit.alive, not_(unit.discards_combat))


def _ignored_on_raw_amount(recipient: Unit, instance: DamageInstance, entering: Any, ruleset: Ruleset) -> Any:
    """Reads the raw amount, not what passed the gates: a charge is spent on a Tool, a dead unit or a prevented tick."""
    if damage.is_entering_below_armor(instance, ruleset):
        return False
    return and_(instance.amount > 0, recipient.ignore_charges > 0)


def _ignored_with_zero_charges(recipient: Unit, instance: DamageInstance, entering: Any, ruleset: Ruleset) -> Any:
    """``>= 0`` for ``> 0``: a recipient with no charge still discards the instance (and goes to -1)."""
    if damage.is_entering_below_armor(instance, ruleset):
        return False
    return and_(entering > 0, recipient.ignore_charges >= 0)


def _venom_meets_armor(instance: DamageInstance) -> bool:
    """Only Burn sets the ignore-Armor flag; Venom is forgotten."""
    return instance.kind in ("burn", "reflect")


def _ticks_meet_armor(instance: DamageInstance) -> bool:
    """Only a Reflect skips Armor; Burn and Venom meet it."""
    return instance.kind == "reflect"


def _tick_floored_at_one(recipient: Unit, tick: Any) -> Any:
    """A reduced tick still deals at least 1."""
    from referee.model.combat.ticks import compute_prismbroken_tick

    return max_(compute_prismbroken_tick(recipient, tick) - recipient.rune_tick_reduction - recipient.forge_tick_reduction, 1)


def _tick_not_adjusted(recipient: Unit, instance: DamageInstance) -> Any:
    """The tick enters unadjusted."""
    return instance.amount


def _discard_reported_for_the_dead(recipient: Unit, amount: Any) -> Any:
    """A dead Tool or Hub still reports the discard (the literal gate order, against INT-016)."""
    return and_(amount > 0, recipient.discards_combat)


def _credit_counts_insurance(board: Board, recipient: Unit, instance: DamageInstance, m: Any, log: EventLog,
                             ruleset: Any = None):
    """The source is credited with what Insurance absorbed too."""
    return _vitality_damage_crediting(board, recipient, instance, m, log,
                                      lambda lost: m.subrogated_absorbed + m.insurance_absorbed + m.shield_absorbed + lost)


def _credit_counts_shield_drained(board: Board, recipient: Unit, instance: DamageInstance, m: Any, log: EventLog,
                                  ruleset: Any = None):
    """The source is credited with the Shield points drained, not the damage Shield absorbed."""
    return _vitality_damage_crediting(board, recipient, instance, m, log, lambda lost: m.shield_drained + lost)


def _vitality_damage_crediting(board, recipient, instance, m, log, credit):
    from referee.model.combat.vitality import lose_vitality

    def announce(lost: Any) -> None:
        log.emit("damage_taken", when=and_(lost > 0, instance.kind != "reflect"), unit=recipient.uid,
                 amount=lost, other=instance.source, detail=instance.kind)
        if instance.source is not None:
            credited = credit(lost)
            log.emit("credit", when=credited > 0, unit=instance.source, amount=credited, other=recipient.uid)
            log.emit("feast", when=lost > 0, unit=instance.source, amount=lost, other=recipient.uid)

    return lose_vitality(board, recipient.uid, m.remainder, instance.source, log, announce)


def _payback_per_point(board, recipient, source, absorbed, ruleset, log, instance_kind="hit"):
    """The source pays 25 per Subrogated point spent, not what the points absorbed."""
    return _original["process_subrogation_payback"](board, recipient, source, 25 * ceildiv(absorbed, 25), ruleset, log,
                                                    instance_kind)


def _payback_as_bloodletting(board, recipient, source, absorbed, ruleset, log, instance_kind="hit"):
    """The payback is charged as a plain cost: a Dormant source is not refused (500.6e)."""
    from referee.model.combat.costs import pay_vitality_cost

    if source is None or source.uid == recipient.uid or source.side == recipient.side:
        return board, 0
    return pay_vitality_cost(board, source.uid, absorbed, "bloodletting", log, channel="subrogation",
                             beneficiary=recipient.uid, ruleset=ruleset, when=absorbed > 0)


def _defy_strict(recipient: Unit, remaining: Any) -> Any:
    """``>`` for ``>=``: an exactly lethal remainder is not defied."""
    return and_(recipient.defy_death, remaining > 0, remaining > recipient.vitality)


def _defy_reads_max_vitality(recipient: Unit, remaining: Any) -> Any:
    """Lethal is tested against maximum Vitality, not the Vitality the unit has."""
    return and_(recipient.defy_death, remaining > 0, remaining >= recipient.max_vitality)


def _break_at_floor_plus_one(shield_pool: Any, multiplier: Any, ruleset: Ruleset = DEFAULT) -> Any:
    """``ceil(S/m)`` written as ``floor(S/m) + 1`` (capped at the pool): one too many on an exact multiple."""
    from referee.model.arith import is_symbolic, least_such_that

    pool = max_(shield_pool, 0)
    if not is_symbolic(multiplier):
        return min_(floordiv(pool, multiplier) + 1, pool)
    return least_such_that(lambda k: or_(k == pool, k * multiplier > pool), 0, pool, "shield_ceil")


D = "referee.model.combat.damage"


def plain_hit(v: Vars, *, armor: int | None = 0, keep: tuple[str, ...] = (), shieldless: bool = False,
              bare: bool = False) -> Any:
    """Where a mutant's kill is looked for: a recipient with no cap and no answer of its own (no defy-death,
    Vessel, Thorns, Riposte, Retort or Reflect) but the fields it ``keep``s, ``armor`` Armor unless ``None``, no
    Shield if ``shieldless``, and no Shield, Insurance or Subrogated points at all if ``bare``. A narrower space
    than the theorem's, for the search only (``Mutant.search_within``)."""
    fields = {name: value for name, value in QUIET.items() if name not in keep}
    fields |= {"shield": 0} if shieldless or bare else {}
    fields |= {"insurance": 0, "subrogated": 0} if bare else {}
    return pinned(v, "r", **fields, **({} if armor is None else {"armor": armor}))


ABSORB_WHOLE = Mutant("point_absorbs_25_even_against_less", f"{D}:compute_points_absorbed", _points_absorb_whole,
                      search_within=plain_hit)  # fmt: skip
ABSORB_30 = Mutant("point_absorbs_up_to_30", f"{D}:compute_points_absorbed", _points_absorb_30,
                   search_within=plain_hit)  # 740 s for 1.1M units in the whole space once  # fmt: skip
SPENT_OFF_BY_ONE = Mutant("extra_point_on_exact_multiple_of_25", f"{D}:compute_points_spent", _points_spent_off_by_one,
                          search_within=plain_hit)  # fmt: skip
REFUNDS_INSURANCE = Mutant("insurance_spent_added_back", f"{D}:spend_defences", _spend_defences_refunds_insurance)
REFUNDS_SUBROGATED = Mutant("subrogated_spent_added_back", f"{D}:spend_defences", _spend_defences_refunds_subrogated)
DRAIN_NO_MULTIPLIER = Mutant("shield_drain_forgets_multiplier", f"{D}:compute_shield_drain", _shield_drain_forgets_multiplier)
VESSEL_WITHOUT_DEATH = Mutant("vessel_spent_without_dying", "referee.model.combat.vitality:process_death", _vessel_spent_without_dying)
KILLED_BELOW_ZERO = Mutant("dies_only_below_zero", "referee.model.combat.vitality:is_killed_by_vitality", _killed_only_below_zero)
ARMOR_SIGN_SLIP = Mutant("pipeline_negates_armor", f"{D}:apply_armor", _armor_with_wrong_sign)
ARMOR_MAGNITUDE = Mutant("pipeline_reads_armor_magnitude", f"{D}:apply_armor", _armor_by_magnitude,
                         search_within=lambda v: plain_hit(v, armor=-25, bare=True))  # fmt: skip
CAP_DISCARDS_ALL = Mutant("cap_discards_the_whole_instance", f"{D}:apply_incoming_cap", _cap_discards_everything_above,
                          search_within=lambda v: plain_hit(v, keep=("has_cap",)))  # fmt: skip
POINTS_SPENT_FLOOR = Mutant("points_spent_only_on_full_25s", f"{D}:compute_points_spent", _points_spent_floor,
                            search_within=lambda v: plain_hit(v))  # fmt: skip
#: The same bug, looked for where no Shield stands in front of the points (the Armor comparison's search).
POINTS_SPENT_FLOOR_UNSHIELDED = replace(POINTS_SPENT_FLOOR, search_within=lambda v: plain_hit(v, shieldless=True))
FLAT_AFTER_CAP = Mutant("flat_reduction_after_the_cap", f"{D}:apply_armor", _percentage_only,
                        also=((f"{D}:apply_incoming_cap", _cap_then_flat),))  # fmt: skip
CAP_FORGOTTEN = Mutant("cap_forgotten", f"{D}:apply_incoming_cap", _cap_forgotten)
CAP_BEFORE_ARMOR = Mutant("cap_applied_before_armor", f"{D}:apply_armor", _armor_after_cap,
                          also=((f"{D}:apply_incoming_cap", _cap_already_applied),))  # fmt: skip
REACH_TOOLS = Mutant("tools_and_hubs_take_damage", f"{D}:is_reachable", _reachable_forgets_tools_and_hubs)
REACH_HUBS = Mutant("hubs_take_damage", f"{D}:is_reachable", _reachable_forgets_hubs)
REACH_DEAD = Mutant("dead_recipient_takes_damage", f"{D}:is_reachable", _reachable_forgets_alive)
DORMANT_TICKS = Mutant("dormancy_stops_ticks", f"{D}:is_reachable", _reachable_dormancy_shuts_ticks)
DORMANT_HITS = Mutant("dormancy_forgotten", f"{D}:is_reachable", _reachable_forgets_dormancy,
                      search_within=lambda v: plain_hit(v, keep=("dormant",)))  # fmt: skip
IGNORE_RAW = Mutant("ignore_charge_reads_raw_amount", f"{D}:is_ignored", _ignored_on_raw_amount)
IGNORE_ZERO = Mutant("ignore_with_zero_charges", f"{D}:is_ignored", _ignored_with_zero_charges)
VENOM_ARMOR = Mutant("venom_meets_armor", f"{D}:is_ignoring_armor", _venom_meets_armor)
TICKS_ARMOR = Mutant("ticks_meet_armor", f"{D}:is_ignoring_armor", _ticks_meet_armor,
                     search_within=lambda v: plain_hit(v, armor=25, bare=True))  # fmt: skip
TICK_AT_LEAST_ONE = Mutant("reduced_tick_deals_one", f"{D}:compute_adjusted_tick", _tick_floored_at_one)
TICK_UNADJUSTED = Mutant("tick_enters_unadjusted", f"{D}:compute_entering_amount", _tick_not_adjusted)
DISCARD_LOUD = Mutant("discard_reported_for_a_dead_tool", f"{D}:is_discarded_by_tool_or_hub",
                      _discard_reported_for_the_dead)  # fmt: skip
CREDIT_INSURANCE = Mutant("credit_counts_insurance", f"{D}:process_vitality_damage", _credit_counts_insurance,
                          search_within=plain_hit)  # fmt: skip
CREDIT_DRAINED = Mutant("credit_counts_shield_drained", f"{D}:process_vitality_damage", _credit_counts_shield_drained,
                        search_within=plain_hit)  # fmt: skip
PAYBACK_PER_POINT = Mutant("payback_25_per_point", f"{D}:process_subrogation_payback", _payback_per_point)
PAYBACK_PLAIN_COST = Mutant("payback_as_plain_cost", f"{D}:process_subrogation_payback", _payback_as_bloodletting)
DEFY_STRICT = Mutant("defy_misses_exactly_lethal", f"{D}:is_defied", _defy_strict,
                     search_within=lambda v: plain_hit(v, keep=("defy_death",)))  # fmt: skip
DEFY_MAX = Mutant("defy_reads_max_vitality", f"{D}:is_defied", _defy_reads_max_vitality)
BREAK_FLOOR_PLUS_ONE = Mutant("shield_break_floor_plus_one", "referee.model.combat.shield:compute_damage_to_break",
                              _break_at_floor_plus_one)  # fmt: skip


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.1-13", "combat:500.4d", mutants=[VESSEL_WITHOUT_DEATH])
def vitality_never_rises_or_goes_below_zero(v: Vars) -> Obligation:
    """No damage instance raises a unit's Vitality or leaves it below 0, unless the unit lost all of it and a Vessel revived it at full Vitality."""
    claims = []
    for kind in KINDS:
        run = run_damage(v, kind)
        lost = {"r": run.out.vitality_lost, "s": run.out.subrogation_paid}
        for uid in ("r", "s"):
            before, after = run.before.unit(uid), run.after.unit(uid)
            claims.append(ite(
                is_revived(before, after),
                and_(lost[uid] == before.vitality, after.vitality == after.max_vitality),
                and_(0 <= after.vitality, after.vitality <= before.vitality),
            ))  # fmt: skip
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1-13", "combat:500.4a", mutants=[KILLED_BELOW_ZERO])
def recipient_dies_exactly_when_vitality_reaches_zero(v: Vars) -> Obligation:
    """After any instance a unit is alive exactly when it has Vitality left (a Vessel revival included)."""
    claims = []
    for kind in KINDS:
        run = run_damage(v, kind)
        for uid in ("r", "s"):
            after = run.after.unit(uid)
            claims.append(after.alive == (after.vitality > 0))
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1-8", "combat:500.1-9", mutants=[REFUNDS_INSURANCE, REFUNDS_SUBROGATED])
def insurance_points_never_increase(v: Vars) -> Obligation:
    """Neither Subrogated nor plain Insurance points of any unit increase during a damage instance."""
    claims = []
    for kind in KINDS:
        run = run_damage(v, kind)
        for uid in ("r", "s"):
            before, after = run.before.unit(uid), run.after.unit(uid)
            claims += [after.subrogated <= before.subrogated, after.insurance <= before.insurance]
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1a", "combat:500.1-8", "combat:500.1-9", mutants=[ABSORB_30, SPENT_OFF_BY_ONE, ABSORB_WHOLE])
def insurance_point_absorbs_at_most_25_and_none_spent_needlessly(v: Vars) -> Obligation:
    """Each kind of Insurance absorbs at most 25 per point spent and no more than reached it, spends at most ceil(what reached it / 25) points, and covers all it can."""
    claims = []
    for kind in ("hit", "burn"):
        run = run_damage(v, kind)
        (rb, ra), out = run.r(), run.out
        layers = (
            (rb.subrogated - ra.subrogated, out.subrogated_absorbed, out.after_cap, ra.subrogated),
            (rb.insurance - ra.insurance, out.insurance_absorbed, out.after_cap - out.subrogated_absorbed, ra.insurance),
        )
        for spent, absorbed, reached, left in layers:
            claims += [
                0 <= absorbed, absorbed <= 25 * spent, absorbed <= reached,
                0 <= spent, spent <= ceildiv(max_(reached, 0), 25),
                or_(left == 0, absorbed == max_(reached, 0)),
            ]  # fmt: skip
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1e", "combat:500.1-10", mutants=[DRAIN_NO_MULTIPLIER])
def shield_is_consumed_before_vitality(v: Vars) -> Obligation:
    """When an instance takes any Vitality, the recipient's whole Shield pool was drained by it first (every reading)."""
    claims = []
    for kind in ("hit", "burn"):
        for ruleset in (v.ruleset(),):
            run = run_damage(v, kind, ruleset=ruleset)
            (rb, ra), out = run.r(), run.out
            claims.append(or_(out.vitality_lost <= 0, and_(out.shield_drained == rb.shield, ra.shield == 0)))
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1-7", mutants=[CAP_FORGOTTEN, CAP_BEFORE_ARMOR])
def nothing_above_the_cap_reaches_shield_or_vitality(v: Vars) -> Obligation:
    """With a printed cap, what Insurance, Shield and Vitality take from the instance together never exceeds the cap."""
    claims = []
    for kind in ("hit", "burn"):
        run = run_damage(v, kind)
        rb, out = run.before.unit("r"), run.out
        taken = out.subrogated_absorbed + out.insurance_absorbed + out.shield_absorbed + out.vitality_lost
        claims.append(or_(not_(rb.has_cap), taken <= max_(rb.cap, 0)))
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1-1", mutants=[REACH_TOOLS, REACH_HUBS])
def tools_and_hubs_are_unchanged(v: Vars) -> Obligation:
    """An instance aimed at a Tool or a Hub changes nothing on the board and reports at most its discard (or a tick prevented before it)."""
    claims = []
    for kind in KINDS:
        run = run_damage(v, kind)
        claims += [is_same_board(run.before, run.after), emits_only(run.log, ("damage_discarded", "tick_prevented"))]
    r = run.before.unit("r")
    return Obligation(assume=all_of(is_legal_board(run.before), or_(r.is_tool, r.is_hub)), claim=all_of(*claims))


@theorem("combat:500.1-4", "combat:500.1-3", mutants=[IGNORE_RAW, IGNORE_ZERO])
def ignore_charge_spent_only_on_positive_reachable_instance_and_nothing_else_changes(v: Vars) -> Obligation:
    """A damage-ignore charge is spent, one at a time, exactly when a positive instance reaches a recipient holding one, and then nothing else changes or is reported."""
    claims = []
    for kind in ("hit", "burn"):
        run = run_damage(v, kind)
        (rb, ra), (sb, sa) = run.r(), run.s()
        spends = and_(is_reachable_by(rb, kind, v.bool("allows_dormant")),
                      compute_tick_entering(rb, kind, v.int("amount")) > 0, rb.ignore_charges > 0)  # fmt: skip
        nothing_else = and_(
            is_same_unit(rb, ra, ignoring=("ignore_charges",)), is_same_unit(sb, sa),
            emits_only(run.log, ("ignore_charge_spent",)),
        )  # fmt: skip
        claims.append(ite(spends, and_(ra.ignore_charges == rb.ignore_charges - 1, nothing_else),
                          ra.ignore_charges == rb.ignore_charges))  # fmt: skip
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


#: The Armor step's monotonicity, proved in ``armor_theorems`` (one lemma per sign case).
ARMOR_MONOTONE = (
    armor_theorems.more_armor_never_means_more_damage_when_non_negative,
    armor_theorems.more_armor_never_means_more_damage_when_negative,
    armor_theorems.more_armor_never_means_more_damage_across_zero,
)
#: The squared Armor tests, left uninterpreted in proofs that reason from Armor lemmas only.
ARMOR_TESTS = ("referee.model.combat.armor:covers_with_positive_armor", "referee.model.combat.armor:covers_with_mirrored_negative_armor")


@theorem("combat:500.1-5", "combat:500.1-6", "combat:500.2a", "combat:500.2b", "combat:500.2d",
         mutants=[POINTS_SPENT_FLOOR_UNSHIELDED, CAP_DISCARDS_ALL], lemmas=ARMOR_MONOTONE, abstract=ARMOR_TESTS, unless=["defy_death_leaves>=2"])  # fmt: skip
def more_armor_never_means_more_damage(v: Vars) -> Obligation:
    """Of two recipients differing only in Armor, the one with more never loses more Vitality, Shield or Insurance points to the same hit."""
    low = run_damage(v, "hit")
    more = v.int("more_armor")
    high = run_damage(v, "hit", damage_board(v, armor=more))
    (rl, al), (_, ah) = low.r(), high.r()
    d = compute_armor_input(v, low.before)
    facts = [v.lemma(lemma, damage=d, armor=rl.armor, more_armor=more) for lemma in ARMOR_MONOTONE]
    return Obligation(
        assume=all_of(is_legal_board(low.before), rl.armor <= more, *facts),
        claim=all_of(
            high.out.vitality_lost <= low.out.vitality_lost,
            ah.shield >= al.shield, ah.insurance >= al.insurance, ah.subrogated >= al.subrogated,
        ),  # fmt: skip
    )


@theorem("combat:500.1-5", "combat:500.1-6", mutants=[FLAT_AFTER_CAP])
def armor_matters_only_through_what_it_lets_through(v: Vars) -> Obligation:
    """A hit that enters a recipient with any Armor ends exactly as a hit of what that Armor let through would end on the same recipient at 0 Armor."""
    armored = run_damage(v, "hit")
    bare_board = damage_board(v, armor=0)
    after, _, out = damage.resolve_damage(
        bare_board, DamageInstance("r", v.int("let_through"), "s", "hit", allows_dormant=v.bool("allows_dormant"))
    )
    return Obligation(
        assume=all_of(is_legal_board(armored.before), armored.out.entered, out.entered,
                      out.after_armor == armored.out.after_armor),  # fmt: skip
        claim=all_of(
            is_same_unit(armored.after.unit("r"), after.unit("r"), ignoring=("armor",)),
            is_same_unit(armored.after.unit("s"), after.unit("s")),
            armored.out.vitality_lost == out.vitality_lost,
        ),
    )


def two_hits_at_zero_armor(v: Vars) -> tuple[Run, Unit, Unit, DamageOutcome]:
    """Hits of ``amount`` and of ``larger`` on the same recipient at 0 Armor: ``(smaller run, r after it, r after
    the larger, the larger's outcome)``."""
    board = damage_board(v, armor=0)
    small = run_damage(v, "hit", board)
    large_after, _, large = damage.resolve_damage(
        board, DamageInstance("r", v.int("larger"), "s", "hit", allows_dormant=v.bool("allows_dormant"))
    )
    return small, small.after.unit("r"), large_after.unit("r"), large


# Vitality and the defences are two theorems: as one, a perturbation of its text used 27% of the
# rlimit (issue 21); apart, each under 8%.
@theorem("combat:500.1-7", "combat:500.1-8", "combat:500.1-9", "combat:500.1-10", "combat:500.1-12", "combat:500.1-13",
         mutants=[CAP_DISCARDS_ALL, POINTS_SPENT_FLOOR], unless=["defy_death_leaves>=2"])  # fmt: skip
def more_damage_past_armor_never_means_less_lost(v: Vars) -> Obligation:
    """Of two hits on the same recipient at 0 Armor, the larger never takes less Vitality."""
    small, _, _, large = two_hits_at_zero_armor(v)
    return Obligation(
        assume=all_of(is_legal_board(small.before), v.int("amount") <= v.int("larger")),
        claim=large.vitality_lost >= small.out.vitality_lost,
    )


@theorem("combat:500.1-7", "combat:500.1-8", "combat:500.1-9", "combat:500.1-10", "combat:500.1-12", "combat:500.1-13",
         mutants=[CAP_DISCARDS_ALL, POINTS_SPENT_FLOOR])  # fmt: skip
def more_damage_past_armor_never_leaves_more_defences(v: Vars) -> Obligation:
    """Of two hits on the same recipient at 0 Armor, the larger never leaves more Shield, Insurance or Subrogated points."""
    small, rs, rl, _ = two_hits_at_zero_armor(v)
    return Obligation(
        assume=all_of(is_legal_board(small.before), v.int("amount") <= v.int("larger")),
        claim=all_of(rl.shield <= rs.shield, rl.insurance <= rs.insurance, rl.subrogated <= rs.subrogated),
    )


@theorem("combat:500.2d", "combat:500.1-5", "combat:500.1-6", mutants=[ARMOR_SIGN_SLIP, ARMOR_MAGNITUDE],
         lemmas=[armor_theorems.more_armor_never_means_more_damage_across_zero], abstract=ARMOR_TESTS, unless=["defy_death_leaves>=2"])  # fmt: skip
def negative_armor_never_reduces_pipeline_damage(v: Vars) -> Obligation:
    """A recipient with negative Armor never loses less Vitality, Shield or Insurance points to a hit than the same recipient at 0 Armor."""
    negative = run_damage(v, "hit")
    zero = run_damage(v, "hit", damage_board(v, armor=0))
    (rn, an), (_, az) = negative.r(), zero.r()
    fact = v.lemma(armor_theorems.more_armor_never_means_more_damage_across_zero,
                   damage=compute_armor_input(v, negative.before), armor=rn.armor, more_armor=0)  # fmt: skip
    return Obligation(
        assume=all_of(is_legal_board(negative.before), rn.armor < 0, fact),
        claim=all_of(
            negative.out.after_armor >= zero.out.after_armor,
            negative.out.vitality_lost >= zero.out.vitality_lost,
            an.shield <= az.shield, an.insurance <= az.insurance, an.subrogated <= az.subrogated,
        ),  # fmt: skip
    )


@theorem("combat:500.1d", mutants=[VENOM_ARMOR, TICKS_ARMOR])
def burn_and_venom_ticks_are_unaffected_by_armor(v: Vars) -> Obligation:
    """A Burn or Venom tick does to a recipient with any Armor exactly what it does to the same recipient at 0 Armor."""
    claims = []
    for kind in TICKS:
        one = run_damage(v, kind)
        other = run_damage(v, kind, damage_board(v, armor=0))
        claims += [
            is_same_unit(one.after.unit("r"), other.after.unit("r"), ignoring=("armor",)),
            is_same_unit(one.after.unit("s"), other.after.unit("s")),
            one.out.vitality_lost == other.out.vitality_lost,
            one.out.after_armor == other.out.after_armor,
        ]
    return Obligation(assume=is_legal_board(one.before), claim=all_of(*claims))


@theorem("combat:500.1h", mutants=[TICK_AT_LEAST_ONE, TICK_UNADJUSTED])
def a_tick_reduced_to_zero_changes_nothing(v: Vars) -> Obligation:
    """A positive Burn or Venom tick that Prismbreak and the tick reductions bring to 0 or below changes nothing and reports at most that it was prevented."""
    claims, assumes = [], []
    for kind in TICKS:
        run = run_damage(v, kind)
        claims += [is_same_board(run.before, run.after), emits_only(run.log, ("tick_prevented",))]
        assumes.append(compute_tick_entering(run.before.unit("r"), kind, v.int("amount")) <= 0)
    return Obligation(assume=all_of(is_legal_board(run.before), v.int("amount") > 0, *assumes), claim=all_of(*claims))


@theorem("combat:500.1-2", "combat:500.1i", mutants=[DORMANT_TICKS, DORMANT_HITS])
def dormant_recipient_discards_direct_hits_but_not_ticks(v: Vars) -> Obligation:
    """A Dormant recipient discards a hit whose source does not allow it, changing nothing, while a Burn or Venom tick does to it exactly what it does to the same unit awake."""
    hit = run_damage(v, "hit")
    r = hit.before.unit("r")
    claims = [is_same_board(hit.before, hit.after), emits_only(hit.log, ("damage_discarded",))]
    for kind in TICKS:
        asleep = run_damage(v, kind)
        awake = run_damage(v, kind, damage_board(v, dormant=False))
        claims += [
            is_same_unit(asleep.after.unit("r"), awake.after.unit("r"), ignoring=("dormant",)),
            is_same_unit(asleep.after.unit("s"), awake.after.unit("s")),
            asleep.out.vitality_lost == awake.out.vitality_lost,
        ]
    return Obligation(
        assume=all_of(is_legal_board(hit.before), r.dormant, not_(v.bool("allows_dormant"))),
        claim=all_of(*claims),
    )


@theorem("combat:500.1-3", mutants=[REACH_DEAD, DISCARD_LOUD])
def dead_recipient_or_non_positive_amount_changes_nothing(v: Vars) -> Obligation:
    """An instance of 0 or less, or one aimed at a dead recipient, changes nothing and reports nothing."""
    claims = []
    for kind in KINDS:
        run = run_damage(v, kind)
        claims += [is_same_board(run.before, run.after), emits_only(run.log, ())]
    r = run.before.unit("r")
    return Obligation(
        assume=all_of(is_legal_board(run.before), or_(not_(r.alive), v.int("amount") <= 0)),
        claim=all_of(*claims),
    )


@theorem("combat:500.1b", "combat:500.5a", mutants=[CREDIT_INSURANCE, CREDIT_DRAINED])
def insured_damage_is_credited_to_nobody(v: Vars) -> Obligation:
    """The source is credited with exactly the damage Shield absorbed plus the Vitality that left the recipient, never what Insurance absorbed
    (under ``dead_source_credit = kill_only`` a source dead as the credit is made is credited nothing, INT-355)."""
    claims = []
    for kind in ("hit", "burn"):
        run = run_damage(v, kind)
        out = run.out
        credited = out.shield_absorbed + out.vitality_lost
        # INT-355: the source as the credit step met it, after its Subrogated payback (nothing moves it later)
        kept = not_(attribution.is_dead_source_withheld(run.after, "s", kind, v.ruleset()))
        claims += [
            amounts_when(run.log, "credit", "s", lambda amount: amount == credited),
            emitted(run.log, "credit", "s") == and_(kept, credited > 0),
            credited <= out.after_cap - out.subrogated_absorbed - out.insurance_absorbed,
        ]
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1-8", "combat:500.7g", mutants=[PAYBACK_PER_POINT, PAYBACK_PLAIN_COST])
def subrogated_payback_equals_subrogated_absorbed(v: Vars) -> Obligation:
    """A legal enemy source loses exactly what the Subrogated points absorbed, clamped to its Vitality and to the Vitality an armed defy-death rune leaves (INT-004); an illegal one loses nothing."""
    claims = []
    for kind in ("hit", "burn"):
        run = run_damage(v, kind)
        (sb, sa), owed = run.s(), run.out.subrogated_absorbed
        legal = and_(sb.alive, not_(sb.entrapped), not_(sb.dormant), not_(sb.is_tool), not_(sb.is_hub))
        defied = and_(sb.defy_death, owed > 0, owed >= sb.vitality)
        leaves = v.ruleset().defy_death_leaves
        expected = ite(legal, ite(defied, max_(sb.vitality - leaves, 0), min_(owed, sb.vitality)), 0)
        claims += [
            run.out.subrogation_paid == expected,
            compute_vitality_left(sb, sa) == expected,
            amounts_when(run.log, "subrogation", "s", lambda amount: amount == expected),
            emitted(run.log, "subrogation", "s") == (expected > 0),
        ]
    return Obligation(assume=is_legal_board(run.before), claim=all_of(*claims))


@theorem("combat:500.1-12", mutants=[DEFY_STRICT, DEFY_MAX])
def defy_death_leaves_the_unit_alive(v: Vars) -> Obligation:
    """A living recipient with an armed defy-death rune survives any single instance with at least 1 Vitality."""
    claims = []
    for kind in KINDS:
        run = run_damage(v, kind)
        ra = run.after.unit("r")
        claims += [ra.alive, ra.vitality >= 1]
    r = run.before.unit("r")
    return Obligation(assume=all_of(is_legal_board(run.before), r.alive, r.defy_death), claim=all_of(*claims))


@theorem("combat:500.1-10", mutants=[BREAK_FLOOR_PLUS_ONE])
def shield_break_encoding_is_functional(v: Vars) -> Obligation:
    """Any k meeting least_such_that's defining conditions for a breaking Shield pool is the model's absorbed damage, under both rounding readings."""
    from referee.model.combat import shield

    pool, m = v.int("shield"), v.int("multiplier")
    ceil_k, floor_k = v.int("ceil_k"), v.int("floor_k")
    is_ceil = lambda k: k * m >= pool  # noqa: E731
    is_floor = lambda k: (k + 1) * m > pool  # noqa: E731
    return Obligation(
        assume=all_of(
            pool >= 0, m >= 1,
            0 <= ceil_k, ceil_k <= pool, is_ceil(ceil_k), or_(ceil_k == 0, not_(is_ceil(ceil_k - 1))),
            0 <= floor_k, floor_k <= pool, is_floor(floor_k), or_(floor_k == 0, not_(is_floor(floor_k - 1))),
        ),  # fmt: skip
        claim=all_of(
            ceil_k == shield.compute_damage_to_break(pool, m, v.ruleset(shield_multiplier_rounding="ceil")),
            floor_k == shield.compute_damage_to_break(pool, m, v.ruleset(shield_multiplier_rounding="floor")),
        ),
    )


@theorem("combat:500.2d", mutants=[armor_theorems.FORGETS_MINIMALITY])
def reciprocal_negative_armor_encoding_is_functional(v: Vars) -> Obligation:
    """Any s meeting least_such_that's defining conditions for negative Armor under the reciprocal reading is the model's amplified damage."""
    from referee.model.combat import armor

    d, a, other = v.int("damage"), v.int("armor"), v.int("other")
    covers = lambda s: armor.covers_with_reciprocal_negative_armor(s, d, a)  # noqa: E731
    high = d + d * max_(-a, 1)
    return Obligation(
        assume=all_of(
            d >= 0, a < 0, d <= other, other <= high, covers(other), or_(other == d, not_(covers(other - 1)))
        ),
        claim=other == armor.compute_surviving_after_negative_armor(d, a, v.ruleset(negative_armor="reciprocal")),
    )
