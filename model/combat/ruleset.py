"""Ruleset options: the readings engines may plausibly differ on.

Where the rules are silent or ambiguous the model picks a reading and records it in
the interpretation register (``docs/interpretations.md``, entries ``INT-nnn``). Where two
readings are both plausible, the reading is a named option here rather than a hidden
constant, and an engine can be checked under the reading it implements.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from typing import Any, Literal

NegativeArmor = Literal["mirror", "reciprocal"]
ShieldMultiplierRounding = Literal["ceil", "floor"]
RedirectCapMoves = Literal["up_to_cap", "excess_over_cap"]
ReflectEntry = Literal["skip_armor_only", "below_armor"]
LethalRedirectTest = Literal["would_kill", "raw_amount"]
BloodlettingDefiedToZero = Literal["fails", "continues"]
RiposteRollOnRefused = Literal["consumed", "kept"]
DamageEventTest = Literal["reached_vitality", "after_shield"]
ReflectSubrogation = Literal["no_payback", "payback"]
ReflectLanes = Literal["hits_and_ticks", "hits_only"]
StaggerLanes = Literal["direct_only", "every_instance"]
EverlastingSlotOrder = Literal["death_cell_first", "reading_order"]
TickShareRounding = Literal["largest_remainder", "remainder_to_first"]
TickFeastShares = Literal["of_credit_share", "of_applied"]
ZeroMaximumRevival = Literal["stays_dead", "returns_at_one"]
RiderOnRevivedTarget = Literal["lands", "refused"]
ReliquaryClearPoint = Literal["start", "after_cost", "end"]
BloodlettingReductionScope = Literal["caster_only", "side_sum", "side_largest"]
DeadCarrierAnswers = Literal["answers", "silent"]
ReflectBasis = Literal["vitality_lost", "after_shield"]
AnswerOrder = Literal["per_attacker", "per_kind"]
DeadUnitCell = Literal["freed", "held"]
DelayedRevivalKiller = Literal["kept", "dropped"]
ShieldGainCap = Literal["none", "max_vitality"]
MaimLanes = Literal["every_lane", "heals_only"]
AbilityRestoreBonuses = Literal["capacity_and_maim_only", "full_recovery_ledger"]
FriendlyDamageCredit = Literal["credited", "enemies_only"]
BossFeastExclusion = Literal["retaliation_only", "all_boss_vitality"]
DeadSourceCredit = Literal["full", "kill_only"]
AlliesIncludeCaster = Literal["excluded", "included"]
PerCountUnits = Literal["legal_recipients", "living_targetable_only"]
CullLineTest = Literal["threshold", "unconditional"]
DeadCasterActivation = Literal["continues", "stops"]
UnlanedRiderLane = Literal["after_hit", "hit"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The selectable readings, each with its register entry."""

    #: INT-001 (500.2a, 500.2d): how negative Armor amplifies.
    negative_armor: NegativeArmor = "mirror"
    #: INT-002 (500.1-10): how much damage a multiplied Shield pool absorbs when it breaks.
    shield_multiplier_rounding: ShieldMultiplierRounding = "ceil"
    #: INT-003 (500.1-11): what the ally redirect cap moves.
    redirect_cap_moves: RedirectCapMoves = "up_to_cap"
    #: INT-004 (500.1-12): the Vitality a defy-death rune leaves.
    defy_death_leaves: int = 1
    #: INT-005 (500.1j, 500.7j): which pipeline steps a boss Reflect passes through.
    reflect_entry: ReflectEntry = "skip_armor_only"
    #: INT-006 (500.1f): when a hit counts as lethal for the lethal-damage redirect.
    lethal_redirect_test: LethalRedirectTest = "would_kill"
    #: INT-103 (800.4d, 800.4h): a Bloodletting payment defy-death brings to 0 fails the ability, or not.
    bloodletting_defied_to_zero: BloodlettingDefiedToZero = "fails"
    #: INT-106 (500.7b, 500.6e): whether Riposte's roll is used up against a refused attacker.
    riposte_roll_on_refused: RiposteRollOnRefused = "consumed"
    #: INT-008 (500.7c, 500.7d): which instances are a damage event Thorns and Riposte answer.
    damage_event_test: DamageEventTest = "reached_vitality"
    #: INT-114 (500.1c, 500.7i, 500.7k): whether a boss pays the Subrogated payback of its own Reflect.
    reflect_subrogation: ReflectSubrogation = "no_payback"
    #: INT-112 (500.7h, 500.7k): whether a Reflect answers Burn and Venom ticks, or hits only.
    reflect_lanes: ReflectLanes = "hits_and_ticks"
    #: INT-401 (500.6g): which damage instances advance a boss's Stagger meter.
    stagger_lanes: StaggerLanes = "direct_only"
    #: INT-404 (500.9a): where an Everlasting revival looks for a free slot first.
    everlasting_slot_order: EverlastingSlotOrder = "death_cell_first"
    #: INT-351 (500.5b, 500.5c): where the points a proportional split of a shared tick leaves over go.
    tick_share_rounding: TickShareRounding = "largest_remainder"
    #: INT-352 (500.5c): what the Vitality portion of a shared tick is divided by, for Feast.
    tick_feast_shares: TickFeastShares = "of_credit_share"
    #: INT-120 (500.8g, 500.9c, 500.4a): what a Vessel or Everlasting revives of a unit Interest took to 0 maximum.
    zero_maximum_revival: ZeroMaximumRevival = "stays_dead"
    #: INT-412 (400.8b, 500.9b, 500.9f): whether an activation's later line reaches a target it killed and revived.
    rider_on_revived_target: RiderOnRevivedTarget = "lands"
    #: INT-411 (500.9l, 800.4a, 800.4j): when in its next activation a unit's Reliquary Speed is cleared.
    reliquary_clear_point: ReliquaryClearPoint = "start"
    #: INT-122 (800.4l): whose Bloodletting reduction runes lower a cost, and how several combine.
    bloodletting_reduction_scope: BloodlettingReductionScope = "caster_only"
    #: INT-116 (500.7a, 500.4b): whether a carrier the damage instance killed still answers it.
    dead_carrier_answers: DeadCarrierAnswers = "answers"
    #: INT-111 (500.7h, 500.7i): which number a boss Reflect takes 5% of.
    reflect_basis: ReflectBasis = "vitality_lost"
    #: INT-110 (500.7a, 500.7e): in what order one carrier answers the several attackers of one event.
    answer_order: AnswerOrder = "per_attacker"
    #: INT-403 (500.9a, 500.9b): whether a dead unit's last cell is free for an Everlasting revival, or held by it.
    dead_unit_cell: DeadUnitCell = "freed"
    #: INT-413 (500.9k, 500.9a): whether an Everlasting revival a full board delayed still carries the killer.
    delayed_revival_killer: DelayedRevivalKiller = "kept"
    #: INT-302 (500.3c): what caps a Shield gain: nothing, or the room its Shield has below the maximum Vitality.
    shield_gain_cap: ShieldGainCap = "none"
    #: INT-306 (500.3a, 500.3d, 500.3e): which recovery lanes Maim meets: every lane, or heals only.
    maim_lanes: MaimLanes = "every_lane"
    #: INT-211 (400.8-7, 500.3b, 500.3f): whether a Restore line runs capacity then Maim only, or the whole 500.3 ledger.
    ability_restore_bonuses: AbilityRestoreBonuses = "capacity_and_maim_only"
    #: INT-357 (500.5a, 500.5c): whether damage a unit deals to itself or an ally is credited and feeds its Feast.
    friendly_damage_credit: FriendlyDamageCredit = "credited"
    #: INT-123 (500.6f, 500.5c, 500.1e): whether only retaliation into a boss feeds no Feast, or any Vitality it loses.
    boss_feast_exclusion: BossFeastExclusion = "retaliation_only"
    #: INT-355 (500.5d, 500.8h): whether a dead source (a self-destruct's blast) is credited its damage and Feast too.
    dead_source_credit: DeadSourceCredit = "full"
    #: INT-205 (400.8-5): whether a line printed 'to allies' reaches the caster too.
    allies_include_caster: AlliesIncludeCaster = "excluded"
    #: INT-203 (400.8-3, 400.8a, 400.8b): which units a "per" count counts.
    per_count_units: PerCountUnits = "legal_recipients"
    #: INT-209 (400.8-6, 500.4a): which recipient a 'Cull N' line destroys.
    cull_line_test: CullLineTest = "threshold"
    #: INT-213 (400.8b, 400.8-5, 800.4j): whether an activation goes on once a line has killed its caster.
    dead_caster_activation: DeadCasterActivation = "continues"
    #: INT-201 (400.8-2): the lane of a line other than damage that prints none.
    unlaned_rider_lane: UnlanedRiderLane = "after_hit"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        """Build a ruleset from JSON, naming any unknown option or bad value."""
        known = {f.name: f for f in fields(cls)}
        for key in data:
            if key not in known:
                raise ValueError(f"ruleset: unknown option {key!r} (known: {', '.join(known)})")
        ruleset = cls(**data)
        ruleset.validate()
        return ruleset

    def validate(self) -> None:
        """Raise ``ValueError`` naming an option whose value is not one of its readings (its ``Literal``), or a
        ``defy_death_leaves`` below 1."""
        for name, allowed in word_choices().items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"ruleset.{name}: {getattr(self, name)!r} is not one of {allowed}")
        leaves = self.defy_death_leaves
        if isinstance(leaves, bool) or not isinstance(leaves, int) or leaves < 1:
            raise ValueError("ruleset.defy_death_leaves: must be an integer >= 1")

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def word_choices() -> dict[str, tuple[str, ...]]:
    """Each option whose readings are words, with the readings its ``Literal`` declares."""
    hints = typing.get_type_hints(Ruleset)
    return {f.name: typing.get_args(hints[f.name]) for f in fields(Ruleset) if typing.get_args(hints[f.name])}


DEFAULT = Ruleset()
