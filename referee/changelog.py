"""The protocol's changelog: every change to what an engine must send or may receive, by version.

Each :class:`Change` says what changed (an event's field, a unit field, an action kind, a
reading, the answer's rules), what it was and what it is, and whether it can make an engine
written to the older version fail (``breaking``). ``docs/protocol-changelog.md`` is generated
from :data:`CHANGELOG`; the error an engine that announces an older version gets
(:func:`older_version_message`) names the breaking changes. A change to the contract
(``specs/protocol/contract.json``, held by ``tests/harness/test_protocol_contract.py``) bumps
``referee.wire.PROTOCOL`` and adds its entries here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    """One change of the contract: its subject, the old and the new, and whether an older engine can fail on it."""

    subject: str
    old: str
    new: str
    breaking: bool = True
    since: str = ""  # the commit or date the change came in, where the history shows it
    #: It narrows a profile written before it: a ``features`` list of the version before now compares less,
    #: silently but for the warning every verb prints (``referee.check.config.upgrade_warnings``).
    narrows: bool = False
    #: The one-line change a declaration of the version before makes to keep what it compared.
    migration: str = ""


_OTHER_SOURCE = "null", "the instance's source (null for an instance with no source)"

#: Every change since ``referee/1``'s first release (2026-11-30, commit 1e853e8), oldest version first.
CHANGELOG: dict[str, tuple[Change, ...]] = {
    "referee/2": (
        # Events whose fields changed meaning
        Change("event insurance_prevented: other", *_OTHER_SOURCE, since="6aee767"),
        Change("event shield_damaged: other", *_OTHER_SOURCE, since="6aee767"),
        Change("event shield_broken: other", *_OTHER_SOURCE, since="6aee767"),
        Change("event defy_death: other", "null",
               "the instance's source, or for a cost the cost's beneficiary (null if none)", since="6aee767"),
        Change("event everlasting_scheduled: amount, other", "amount 0, other null",
               "amount the delay in ms (10000), other the killer it carries (500.9k)", since="326339e"),
        Change("event stagger", "declared, never emitted",
               "emitted when a direct damage instance deals damage to a boss (500.6g, INT-401)", since="326339e"),
        Change("event phasebreak_check", "emitted only for a retaliation cost into a boss",
               "also for a damage instance that moves a boss's Vitality (500.6g)", since="326339e"),
        Change("event vessel_batch", "absent", "closes every death and every revival (500.4e, 500.9m), "
               "with --without vessel,everlasting too", since="326339e"),
        Change("events of a Vessel revival", "vessel_revival", "vessel_revival, then the revival channels "
               "(revival_self, revival_ally, revival_focus) and its vessel_batch", since="326339e"),
        Change("events: every field held to its name's contract", "any value of the right JSON type",
               "a field the contract says is null, 0 or one of some words is a schema fault naming "
               "observation.events[i].field", since="832b0ee"),
        # Readings whose default changed
        Change("ruleset damage_event_test (INT-008): what Thorns, Riposte and Retort answer",
               "an instance that entered and spent an Insurance point or left damage after Shield",
               "an instance that entered and spent an Insurance point or took Vitality (a hit the Shield absorbed "
               "whole is not answered); the old reading is damage_event_test = after_shield", since="79d9fba"),
        Change("ruleset reflect_subrogation (INT-114): Subrogated points against a Reflect",
               "the boss pays the payback", "the points are spent, the boss pays nothing; the old reading is "
               "reflect_subrogation = payback", since="79d9fba"),
        # Unit fields: what the final board holds
        Change("unit field charge", "absent", "0 by default; emptied by the unit's death, its activation (an ability "
               "or a bloodletting action, 500.9l, INT-411) and a revival (500.9d)", since="326339e, a900d4e"),
        Change("unit field armor_change", "absent", "the net Armor change made in this life; armor_debuff (Crush, "
               "Repossess) and an ability's crush write it, a revival undoes it (500.9c)", since="326339e"),
        Change("unit fields defy_death_spent, everlasting_life_grant, incarnation", "absent",
               "the revival's bookkeeping (500.9e-g); a spent defy-death rune sets defy_death false and "
               "defy_death_spent true", since="326339e"),
        Change("unit fields hears_phylactery_revival, hears_everlasting_revival, hears_ally_revival, "
               "revival_aims_killer, reliquary, reliquary_speed", "absent", "revival listeners and the Reliquary rune "
               "(500.9h-l)", since="326339e, a900d4e"),
        Change("unit fields maim, forge_core_recovery, exalt", "absent", "recovery (500.3)", since="83cabe0"),
        Change("unit fields burn, venom, untargetable", "absent", "statuses and the recipient gate of abilities "
               "(400.8-5, 400.8-6)", since="34443be"),
        Change("a Vessel revival's unit", "alive, full Vitality, one Vessel spent",
               "the shared revival body: also Armor back to battle start, no status (Entrapped, Prismbroken, "
               "Dormant, Burn, Venom, Maim), charge 0, defy-death re-armed, a life-long Everlasting grant gone, "
               "incarnation + 1, Reliquary Speed granted (500.9c-l)", since="326339e, bb58d3f"),
        # The scenario
        Change("scenario ruleset", "8 options", "also damage_event_test, reflect_subrogation, reflect_lanes, "
               "stagger_lanes, everlasting_slot_order, tick_share_rounding, tick_feast_shares (the harness sends "
               "every option spelled out)", since="79d9fba, 83cabe0, 326339e"),
        Change("scenario rulebook", "absent", "optional: combat (the default) or play", breaking=False, since="4b0a1e9"),
        Change("scenario board", "any unit", "only units inside the input domain (proofs/combat/assumptions.py); "
               "a dead unit holds no cell (INT-403)", breaking=False, since="67869bf, bb58d3f"),
        Change("scenario: a legal state (model/combat/legal.py, issue 20)", "units inside the input domain; printed "
               "caps, multipliers and counts left free", "one definition of a legal state, each field's range in "
               "referee schema: no negative cap, redirect cap, Maim-like count or Burn or Venom stacks, every unit "
               "inside its half's 8 x 8 "
               "grid, an overtime tick with no source (500.1c), no hit, Tremor or AoE from a dead unit, no overtime "
               "hit in a Bloodletting activation and no dead Bloodletting caster; an illegal scenario is refused "
               "naming the unit, the field and the clause", breaking=False),
        Change("scenario: every integer within +-(2^53 - 1) (issue 25)", "any integer, 10^300 included",
               "every integer of a scenario, whatever its field or rulebook, within -(2^53 - 1)..2^53 - 1 "
               "(9,007,199,254,740,991, JavaScript's Number.MAX_SAFE_INTEGER), a field's own legal range narrower; "
               "referee schema states the bound on every integer; one outside is refused naming the field. Not "
               "breaking: it narrows what an engine may receive (the harness never drew such values) and changes "
               "nothing an engine sends (an answer is compared exactly at any size, a scenario at the edge may have "
               "results outside the range); only a hand-written scenario or vector holding one is now refused",
               breaking=False),
        Change("play scenario: a legal play state (model/play/legal.py, issue 20)", "an object on the board at any "
               "location >= 0", "an object on the board at one of the board's locations, below location_count "
               "(355.2, 359.2.c); a scenario's state outside it is refused naming the object's field and the clause. "
               "Not breaking: it narrows what an engine may receive (the harness never drew such a state)",
               breaking=False),
        Change("play scenario: a use_rune step (164.2.a, 164.2.b)", "any object of the play state, a unit "
               "exhausted for [1] as if it were a rune", "a rune only; a step naming another object is refused naming "
               "the step's rune field. Not breaking: it narrows what an engine may receive (the harness never drew "
               "such a step)", breaking=False),
        Change("play: a rune recycled from the trash (416.3, PLAY-007)", "to the main deck", "to the rune deck, as "
               "'Recycle this' sends a rune and as PLAY-007 reads it (found by the sweep of the play rules). Not "
               "breaking: the harness never drew a rune in the trash; only a hand-written scenario holding one changes",
               breaking=False),
        Change("a Vessel revival at 0 maximum Vitality (INT-120)", "the unit revived at 0 of 0, alive",
               "a unit whose maximum Vitality an Interest payment took to 0 stays dead and keeps its Vessel (the "
               "default reading, zero_maximum_revival = stays_dead)"),
        Change("scenario ruleset option zero_maximum_revival (INT-120)", "absent", "stays_dead (the default) or "
               "returns_at_one: a unit an Interest payment took to a maximum of 0 with a Vessel or Everlasting ahead "
               "has its maximum floored at 1 and returns at 1 of 1 (the harness sends every option spelled out)"),
        Change("scenario ruleset option rider_on_revived_target (INT-412)", "absent", "lands (the default, the "
               "model's reading before the option) or refused: a recipient an activation killed and a Vessel revived "
               "at once is refused by the activation's later lines as dead (line_refused, dead). Not breaking: its "
               "default is the behaviour before it, and the option is sent only spelled out in the ruleset",
               breaking=False),
        Change("scenario ruleset option reliquary_clear_point (INT-411)", "absent", "start (the default, the model's "
               "reading before the option), after_cost or end: when in its next activation a unit's Reliquary Speed is "
               "cleared (reliquary_cleared): as it begins, once its Bloodletting cost is paid (a failed ability clears "
               "nothing), or once it has resolved. Not breaking: its default is the behaviour before it, and the option "
               "is sent only spelled out in the ruleset", breaking=False),
        Change("play scenario rules option leave_board_resets (PLAY-025)", "absent", "exhausted_only (the default, the "
               "model's reading before the option) or all_board_state: an object that changes zone (to the chain, the "
               "trash or a deck) keeps its location and Might bonus, or has them set to 0 as a new object. Not "
               "breaking: its default is the behaviour before it, and the option is sent only spelled out in the "
               "rules", breaking=False),
        Change("play scenario rules option component_discount_scope (PLAY-020)", "absent", "each_component (the "
               "default, the model's reading before the option) or once: a discount on a component of the cost (356.4.c, "
               "Ezreal's) lowers every paid component it applies to, or the first one only. Not breaking: its default "
               "is the behaviour before it, and the option is sent only spelled out in the rules", breaking=False),
        Change("scenario ruleset option bloodletting_reduction_scope (INT-122)", "absent", "caster_only (the default, "
               "the model's reading before the option), side_sum or side_largest: the Bloodletting reduction that lowers "
               "a cost is the caster's rune, or every living unit's on the caster's side, summed or the largest. Not "
               "breaking: its default is the behaviour before it, and the option is sent only spelled out in the "
               "ruleset", breaking=False),
        Change("scenario ruleset option dead_carrier_answers (INT-116)", "absent", "answers (the default, the model's "
               "reading before the option) or silent: a unit a damage instance killed (a Vessel revival or not) "
               "answers it with no Thorns, Riposte (and makes no roll), Retort or Reflect. Not breaking: its default "
               "is the behaviour before it, and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option reflect_basis (INT-111)", "absent", "vitality_lost (the default, the model's "
               "reading before the option) or after_shield: a boss Reflect sends back 5% of the Vitality the boss lost, "
               "or of what its Shield left of the instance (before the ally redirect, the defy-death rune and the "
               "Vitality clamp: overkill counts). Not breaking: its default is the behaviour before it, and the option "
               "is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option answer_order (INT-110)", "absent", "per_attacker (the default, the model's "
               "reading before the option) or per_kind: a carrier answers the several attackers of one event (a tick "
               "several units applied) with every Thorns, then every Riposte, then every Retort, rather than each "
               "attacker in turn; an ally applier's refusal comes with the Thorns. Not breaking: its default is the "
               "behaviour before it, and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option dead_unit_cell (INT-403)", "absent", "freed (the default, the model's "
               "reading before the option) or held: a dead unit keeps holding its last cell until it revives or the "
               "battle ends, so an Everlasting revival's slot search (everlasting_revival's cell, everlasting_delayed) "
               "passes over it as it does a living unit's. Not breaking: its default is the behaviour before it, and "
               "the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option delayed_revival_killer (INT-413)", "absent", "kept (the default, the model's "
               "reading before the option) or dropped: an Everlasting revival a full board delayed past its first try "
               "(10 s after the death) carries no killer, so everlasting_revival's other is null and a listener aimed at "
               "the killer falls back to its Focus roll (revival_focus). Not breaking: its default is the behaviour "
               "before it, and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option shield_gain_cap (INT-302)", "absent", "none (the default, the model's reading "
               "before the option) or max_vitality: a Shield gain (500.3c) is capped at the room the unit's Shield "
               "has below its maximum Vitality, after the Forge Core bonus and before Exalt and Maim. Not breaking: "
               "its default is the behaviour before it, and the option is sent only spelled out in the ruleset",
               breaking=False),
        Change("scenario ruleset option maim_lanes (INT-306)", "absent", "every_lane (the default, the model's "
               "reading before the option) or heals_only: Maim meets a recover action's heal only, and a Shield gain "
               "or a Tool's repair passes it untouched (no maim_consumed). Not breaking: its default is the behaviour "
               "before it, and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option ability_restore_bonuses (INT-211)", "absent", "capacity_and_maim_only (the "
               "default, the model's reading before the option) or full_recovery_ledger: an ability's Restore line "
               "runs the whole recovery ledger of a recover action, so the recipient's Forge Core bonus is added to a "
               "positive amount before the cap (Exalt meets no heal). Not breaking: its default is the behaviour "
               "before it, and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option friendly_damage_credit (INT-357)", "absent", "credited (the default, the "
               "model's reading before the option) or enemies_only: damage a unit deals to itself or an ally (a shared "
               "tick's friendly applier's share included) is credited to nobody and feeds no Feast (no credit, no "
               "feast); the death's killer is unchanged. Not breaking: its default is the behaviour before it, and the "
               "option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option boss_feast_exclusion (INT-123)", "absent", "retaliation_only (the default, the "
               "model's reading before the option) or all_boss_vitality: Vitality a hit or a tick takes from a boss is "
               "credited but feeds no Feast (no feast event), as a retaliation into a boss already does. Not breaking: "
               "its default is the behaviour before it, and the option is sent only spelled out in the ruleset",
               breaking=False),
        Change("scenario ruleset option dead_source_credit (INT-355)", "absent", "full (the default, the model's "
               "reading before the option) or kill_only: the source of a damage instance other than a Burn or Venom "
               "tick (a self-destruct's blast) that is dead as the instance is credited is credited no damage and fed no "
               "Feast (no credit, no feast), and stays the death's killer. Not breaking: its default is the behaviour "
               "before it, and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option allies_include_caster (INT-205)", "absent", "excluded (the default, the "
               "model's reading before the option) or included: an ability line printed 'to allies' reaches the "
               "caster too, at its own place in reading order. Not breaking: its default is the behaviour before it, "
               "and the option is sent only spelled out in the ruleset", breaking=False),
        Change("scenario ruleset option per_count_units (INT-203)", "absent", "legal_recipients (the default, the "
               "model's reading before the option) or living_targetable_only: a 'per' count, and the enemy_burning "
               "condition that reads it, counts every living unit that is not untargetable, Entrapped and Dormant "
               "units too. Not breaking: its default is the behaviour before it, and the option is sent only spelled "
               "out in the ruleset", breaking=False),
        Change("scenario ruleset option cull_line_test (INT-209)", "absent", "threshold (the default, the model's "
               "reading before the option) or unconditional: a 'Cull N' line destroys the recipient its gates let "
               "through whatever its Vitality (a line that resolved to 0 or less still destroys nothing). Not "
               "breaking: its default is the behaviour before it, and the option is sent only spelled out in the "
               "ruleset", breaking=False),
        Change("scenario ruleset option dead_caster_activation (INT-213)", "absent", "continues (the default, the "
               "model's reading before the option) or stops: once a line ends with its caster dead (a Thorns, Retort "
               "or payback answering its hit), having lived when the line began, no later line of the activation "
               "resolves; a caster its own Bloodletting payment killed still continues (800.4j). Not breaking: its "
               "default is the behaviour before it, and the option is sent only spelled out in the ruleset",
               breaking=False),
        Change("scenario ruleset option unlaned_rider_lane (INT-201)", "absent", "after_hit (the default, the "
               "model's reading before the option) or hit: an ability line other than damage that prints no lane "
               "resolves in the hit lane with the damage, in printed order, rather than after the hit (Crush, Maim, "
               "Cull and Bloodletting keep their forced lanes). Not breaking: its default is the behaviour before it, "
               "and the option is sent only spelled out in the ruleset", breaking=False),
        Change("a Burn or Venom tick of a dead applier (INT-356)", "unrecorded", "the tick keeps running and its "
               "share is credited to the dead applier, as before (now a register entry)", breaking=False),
        Change("action kinds", "damage, hit, bloodletting, cost", "also armor_debuff, ability, recover, cull, tick, "
               "advance, end_combat, and the play rulebook's play_card and activate (sent only when chosen)",
               breaking=False, since="9efe919, 1ea66b4, 500b25c, 4b0a1e9"),
        Change("event names", "35", "also line_resolved, condition_failed, line_refused, status_applied, culled, "
               "vitality_restored, recovery_refused, maim_consumed, healed, shield_gained, everlasting_revival, "
               "everlasting_delayed, everlasting_lapsed, revival_self, revival_ally, revival_focus, reliquary_cleared, "
               "played, play_cancelled, activated, activation_cancelled (each from a new kind or field)",
               breaking=False),
        # The answer under a profile
        Change("an observation under a profile (--without, --features)", "every unit field and every event",
               "only the fields and events of the features the profile keeps (referee features lists each "
               "feature's); the others may be left out and are not compared", breaking=False),
        Change("features: 13 split out of what referee/1 always compared", "the fields and events of credit, "
               "macabre, vessel_batch, charge, armor_change, revival_bookkeeping, statuses, untargetable, costs, "
               "bloodletting, ability_lines, cull, recovery compared under every profile",
               "each a feature of its own: a `features = [...]` list written for referee/1 leaves them out, so "
               "cost_paid, bloodletting_paid, credit, feast, macabre, vessel_batch, ... are neither drawn nor "
               "compared; every verb warns of each one such a list leaves out until it says `protocol = \"referee/2\"`",
               breaking=False, narrows=True, since="63edf4a",
               migration='add the new features the engine has to `features` and write `protocol = "referee/2"` in '
                         "referee.toml (or list none of them and write the protocol, to say the narrower list is meant)"),
        Change("--events", "a,b (only those)", "also -a,-b (every event but those)", breaking=False),
        Change("a blank line among an engine's answers", "a garbage fault", "skipped (a JSON-lines engine may "
               "print an empty line between answers)", breaking=False),
        Change("an answer refusing an action kind (issue 36)", "absent: an engine that does not implement a kind "
               "could only crash on it", '{"protocol", "id", "unsupported": {"kind", "reason"}} in place of an '
               "observation, naming one of the scenario's action kinds: an `unsupported` engine fault that says what to "
               "build next; `referee check` under kinds = [] probes every kind and passes on such refusals. Not "
               "breaking: nothing an engine receives changes, and an engine that never refuses is unaffected",
               breaking=False),
        Change("protocol", '"referee/1"', '"referee/2" in every scenario and observation; an engine that answers '
               '"referee/1" is refused with this list'),
    ),
}


def breaking_changes(version: str) -> tuple[Change, ...]:
    """The changes up to ``version`` that can make an engine of the version before fail."""
    return tuple(c for c in CHANGELOG[version] if c.breaking)


def older_version_message(announced: str, current: str) -> str:
    """What an engine that announces ``announced`` is told: the versions differ, and what changed."""
    if current not in CHANGELOG:
        return f"expected {current!r}, got {announced!r}"
    changed = "; ".join(c.subject for c in breaking_changes(current))
    return (f"the engine speaks {announced!r}, this referee {current!r}, which changed: {changed}. Update the engine (every change, old -> new: docs/protocol-changelog.md)")
