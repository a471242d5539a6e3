"""An ability activation explained by the method of 400.8, read off the model's :class:`AbilityOutcome`.

400.8-1 the lines and their kinds; 400.8-2 the lanes and the resolution order; then each
line where it resolves: 400.8-3 its amount and "per" count, 400.8-4 its condition, 400.8-5
each recipient's gates, 400.8-6 the keyword's rule, 400.8-7 the pipeline (a hit's
waterfall and what answers it; recovery's capacity then Maim); last, the answer.

:func:`ability_from_json` reads the JSON form ``referee explain`` accepts::

    {"caster": "c", "targets": ["t"], "numbers": {"power": 30},
     "lines": [{"effect": "damage", "amount": "{power}", "kind": "keyword", "lane": "hit"}, ...]}
"""

from __future__ import annotations

from typing import Any

from referee.model.combat.abilities import (AbilityOutcome, LineOutcome, compute_per_pool, has_counted_status,
                                            is_counted, resolve_ability_outcome)
from referee.model.combat.ability_text import Ability, Line, has_bloodletting_cost, place_line
from referee.model.combat.damage import DamageInstance, resolve_damage
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog

from .activation import clears_at_start, explain_activation, explain_speed_cleared
from .answers import explain_answers
from .costs import explain_bloodletting_step
from .damage import explain_instance
from .steps import Step, Steps

#: Why an activation stopped (``AbilityOutcome.stopped``), the clause that stops it, and any words it needs.
STOP_CLAUSES = {"aborted": "800.4k", "failed": "800.4d", "caster_dead": "400.8b"}
STOP_WORDS = {"caster_dead": ": the line killed the caster, which is gone (dead_caster_activation = stops, INT-213)"}
VERBS = {"damage": "Deal {a} damage", "burn": "Burn {a}", "venom": "Venom {a}", "maim": "Maim {a}", "cull": "Cull {a}",
         "crush": "Crush {a}", "restore": "Restore {a} vitality", "bloodletting": "Bloodletting {a}"}
PER_WORDS = {"burning_enemy": "Burning enemy", "venomed_enemy": "Venomed enemy", "maimed_enemy": "Maimed enemy",
             "enemy": "enemy", "ally": "ally"}
TO_WORDS = {"target": "", "caster": " to itself", "allies": " to allies", "enemies": " to enemies"}


def line_text(line: Line) -> str:
    """The printed line, as a card would word it."""
    text = VERBS[line.effect].format(a=line.amount) + TO_WORDS[line.to]
    if line.per:
        text += f" per {PER_WORDS[line.per]}"
    if line.condition:
        text = f"if {line.condition.replace('_', ' ')}: {text}"
    return text


def ability_from_json(path: str, data: Any) -> tuple[str, tuple[str, ...], Ability, tuple[bool, ...]]:
    """``(caster, targets, ability, riposte_rolls)`` from the JSON form; a ValueError names the place.

    The ability itself (``name``, ``numbers``, ``lines``) is decoded by the combat codec, as an
    ``ability`` action's is (``referee.rulebooks.combat.codec.ability_from_json``).
    """
    from referee.rulebooks.combat.codec import ABILITY_FIELDS
    from referee.rulebooks.combat.codec import ability_from_json as decode_ability

    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected an object")
    unknown = sorted(set(data) - {"caster", "targets", "riposte_rolls", *ABILITY_FIELDS})
    if unknown:
        raise ValueError(f"{path}.{unknown[0]}: unknown ability field")
    ability = decode_ability(path, {k: v for k, v in data.items() if k in ABILITY_FIELDS})
    caster, targets = data.get("caster"), data.get("targets", [])
    if not isinstance(caster, str) or not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise ValueError(f"{path}: expected 'caster' (a uid) and 'targets' (a list of uids)")
    rolls = tuple(bool(r) for r in data.get("riposte_rolls", ()))
    return caster, tuple(targets), ability, rolls


def explain_ability(
    board: Board, caster: str, ability: Ability, targets: tuple[str, ...], ruleset: Ruleset,
    riposte_rolls: tuple = (), depth: int = 0,
) -> tuple[Board, EventLog, list[Step]]:
    """The activation through the model, then its steps in the order of 400.8."""
    after, log, outcome = resolve_ability_outcome(board, caster, ability, targets, ruleset=ruleset, riposte_rolls=riposte_rolls)
    s = Steps(depth)
    s.say("lines", "400.8-1", f"{caster} activates {ability.name or 'an ability'} at {', '.join(targets) or 'no target'}: "
          + "; ".join(f"line {i + 1} \"{line_text(line)}\" is a {line.kind.replace('_', ' ')}"
                      for i, line in enumerate(ability.lines)) + ".",
          lines=[{"line": i + 1, "text": line_text(line), "kind": line.kind} for i, line in enumerate(ability.lines)])
    has_cost = has_bloodletting_cost(ability)
    explain_activation(s, board, caster, ruleset, has_cost)
    explain_lanes(s, ability, outcome, ruleset)
    for line in outcome.lines:
        explain_line(s, board, caster, line, ruleset, riposte_rolls)
    if outcome.stopped:
        s.say("stopped", STOP_CLAUSES[outcome.stopped], f"the activation stops here ({outcome.stopped}"
              f"{STOP_WORDS.get(outcome.stopped, '')}): no further line resolves.")
    if not clears_at_start(ruleset, has_cost):
        for event in log.events():
            if event.name == "reliquary_cleared" and event.unit == caster:
                explain_speed_cleared(s, event.amount, caster, ruleset.reliquary_clear_point)
    explain_answer(s, board, after, outcome)
    return after, log, s.items


def explain_lanes(s: Steps, ability: Ability, outcome: AbilityOutcome, ruleset: Ruleset) -> None:
    """400.8-2: the lane of each line and the order they resolve in."""
    placed = []
    for i, line in enumerate(ability.lines):
        lane = place_line(line, ruleset)
        forced = " (always, 400.8-2)" if line.effect in ("crush", "maim", "cull") else ""
        placed.append(f"line {i + 1} -> {lane.replace('_', ' ')}{forced}")
    order = [o.index + 1 for o in outcome.lines]
    s.say("lanes", "400.8-2", f"{'; '.join(placed)}. Resolution order (lane by lane, printed order within a lane, "
          f"INT-201): lines {', '.join(map(str, order))}.", chooses=("line_resolved",), order=order,
          passives=[i + 1 for i in outcome.passives])
    if outcome.passives:
        s.say("passive", "400.8-1", f"Passive line(s) {', '.join(str(i + 1) for i in outcome.passives)}: a Passive is a "
              "standing effect, not part of the activation; it does not resolve (400.8-1, INT-202).",
              absent=("line_resolved",), passives=[i + 1 for i in outcome.passives],
              effects=[ability.lines[i].effect for i in outcome.passives])


def explain_line(s: Steps, start: Board, caster: str, o: LineOutcome, ruleset: Ruleset, rolls: tuple) -> None:
    """One line where it resolves: 400.8-3, 400.8-4, then each recipient (400.8-5 .. 400.8-7)."""
    line, number = o.line, o.index + 1
    base = f"{line.amount} = {o.base}" if line.amount.ref else f"{o.base}"
    s.say("line", "400.8-3", f"line {number} \"{line_text(line)}\" resolves in the {o.lane.replace('_', ' ')} lane; "
          f"its amount is {base} (400.2).", () if o.count is not None and o.condition_held is not False
          else ("line_resolved",), line=number, base=o.base, effect=line.effect)
    if line.condition is not None:
        explain_condition(s, start, caster, o, ruleset)
        if not o.condition_held:
            return
    if o.count is not None:
        explain_count(s, start, caster, o, ruleset)
    if o.bloodletting is not None:
        explain_bloodletting_step(s, o.board, caster, o.amount, ruleset, EventLog())
        return
    for d in o.deliveries:
        explain_delivery(s, start, o, d, caster, ruleset, rolls)


def explain_condition(s: Steps, start: Board, caster: str, o: LineOutcome, ruleset: Ruleset) -> None:
    """400.8-4: the condition, read where the line resolves; an "enemy burning" that failed only because its burning
    enemies were gone all along is named by the legal-units rule (:func:`_legal_units`)."""
    condition = o.line.condition
    gone = gone_all_along(start, o.board, caster, "burning_enemy", ruleset) \
        if condition == "enemy_burning" and o.condition_held is False else []
    s.say("condition", "400.8-4", f"the condition \"{condition.replace('_', ' ')}\" is checked now, on the board as it "
          f"is at this point: {'it holds' if o.condition_held else 'it does not hold, so the line does nothing'}"
          f"{_gone_words(gone)}.", ("condition_failed",), absent=("condition_failed",) if o.condition_held else (),
          held=o.condition_held, condition=condition, **_legal_units(gone, "condition[combat:400.8-4]"))


def explain_count(s: Steps, start: Board, caster: str, o: LineOutcome, ruleset: Ruleset) -> None:
    """400.8a: the "per" count, sampled where the line resolves; one a unit gone all along would change is named by
    the legal-units rule (:func:`_legal_units`)."""
    per = o.line.per
    floor = "; a count of 0 resolves to 0, it is not floored to 1 (400.8c)" if o.count == 0 else ""
    gone = gone_all_along(start, o.board, caster, per, ruleset)
    s.say("count", "400.8a", f"\"per {PER_WORDS[per]}\" is sampled now (not at the start of the activation): "
          f"{o.count} counted ({COUNTED_WORDS[ruleset.per_count_units]}, INT-203; a unit this activation killed no "
          f"longer counts, 400.8b{_gone_words(gone)}), so {o.base} x {o.count} = {o.amount}{floor}.", ("line_resolved",),
          count=o.count, base=o.base, amount=o.amount, **_legal_units(gone, "count[combat:400.8a]"))


#: The units a "per" count counts, in words, by ``per_count_units`` (INT-203).
COUNTED_WORDS = {"legal_recipients": "living, targetable units only",
                 "living_targetable_only": "living units that are not untargetable, Entrapped and Dormant ones too"}
#: The decision of a count or condition that left out a unit gone all along (:func:`gone_all_along`).
GONE = "gone[combat:400.8b]"


def gone_all_along(start: Board, now: Board | None, caster: str, per: str, ruleset: Ruleset) -> list[str]:
    """The units a "per" would count but for being gone (dead, or not countable under ``per_count_units``: Entrapped,
    Dormant or untargetable by default, untargetable under living_targetable_only) both when the activation began and
    when the line resolves (INT-203, 400.8b). A count or condition that left them out is made by the legal-units rule,
    not by its sampling point (400.8a): a count read too early leaves them out too."""
    if now is None or not now.has(caster):
        return []
    return [u.uid for u in compute_per_pool(now, caster, per) if has_counted_status(u, per)
            and not is_counted(u, ruleset) and not (start.has(u.uid) and is_counted(start.unit(u.uid), ruleset))]


def _legal_units(gone: list[str], own: str) -> dict[str, Any]:
    """A count or condition step's ``gone`` units and, where there are any, its decision: the legal-units rule's
    (:data:`GONE`), its ``own`` taken too (``Step.also_takes``: a zero count floored to 1 whose scenario also had a
    gone unit settles on the count's key once that unit is shrunk away, and may merge there)."""
    return {"gone": gone, "decision": GONE, "also_takes": (own,)} if gone else {"gone": gone}


def _gone_words(gone: list[str]) -> str:
    return f"; left out as gone since before the activation: {', '.join(gone)}" if gone else ""


def explain_delivery(s: Steps, start: Board, o: LineOutcome, d: Any, caster: str, ruleset: Ruleset, rolls: tuple) -> None:
    """One recipient: the gates (400.8-5), then the keyword's rule (400.8-6) through its pipeline (400.8-7)."""
    effect, uid = o.line.effect, d.recipient
    if d.refused is not None:
        _explain_refused(s, start, effect, uid, d)
    elif effect == "damage":
        _explain_damage_delivery(s, o, d, uid, caster, ruleset, rolls)
    elif effect == "restore":
        _explain_restore_delivery(s, o, d, uid, ruleset)
    elif effect == "cull":
        what = _cull_words(uid, d, o.amount, ruleset.cull_line_test)
        s.say("keyword", "400.8-6", what + ".", ("culled", "death"), recipient=uid, vitality=d.before.vitality,
              threshold=o.amount)
    else:
        field = "armor" if effect == "crush" else effect
        rule = "lowers Armor, past 0 if need be (500.2e)" if effect == "crush" else "adds its stacks (INT-208)"
        s.say("keyword", "400.8-6", f"{effect.title()} {rule}: {uid}'s {field} {getattr(d.before, field)} -> "
              f"{getattr(d.after, field)}.", ("status_applied",), touches=(f"{uid}.{field}",), recipient=uid,
              before=getattr(d.before, field),
              after=getattr(d.after, field))


def _cull_words(uid: str, d: Any, amount: Any, test: str) -> str:
    """What a Cull line did to a recipient the gates let through, by ``cull_line_test`` (500.4a, INT-209)."""
    if test == "unconditional":
        return (f"Cull destroys {uid} outright whatever its Vitality ({d.before.vitality}) (500.4a, INT-209)"
                if d.amount else f"the line resolved to {amount}: Cull does nothing (400.8c, INT-209)")
    return (f"{uid} has {d.before.vitality} Vitality, at most {amount}: it is destroyed outright (500.4a, INT-209)"
            if d.amount else f"{uid} has {d.before.vitality} Vitality, more than {amount}: Cull does nothing (INT-209)")


#: A gate's reason (``line_refused``'s detail, 400.8-5) in words.
REFUSED_WORDS = {"tool_or_hub": "a Tool or a Hub"}


def _explain_refused(s: Steps, start: Board, effect: str, uid: str, d: Any) -> None:
    """A recipient the gates refuse (400.8-5): dead (killed by this activation?), or not targetable."""
    killed = d.refused == "dead" and start.unit(uid).alive
    why = "; it was killed by this activation, so it is gone for every later clause (400.8b)" if killed else ""
    if effect not in ("damage", "restore") and d.refused == "dead":
        why += "; a status is never applied to a dead unit (700.3)"
    s.say("recipient_gate", "400.8-5", f"{uid} is {REFUSED_WORDS.get(d.refused, d.refused)}: it receives nothing{why}.", ("line_refused",),
          recipient=uid, reason=d.refused, killed_by_this_activation=killed)


def _explain_damage_delivery(s: Steps, o: LineOutcome, d: Any, uid: str, caster: str, ruleset: Ruleset,
                             rolls: tuple) -> None:
    """A damage line's recipient: the damage pipeline (500.1), then what answers the hit."""
    s.say("pipeline", "400.8-7", f"{o.amount} damage at {uid} goes through the damage pipeline (500.1).",
          recipient=uid, amount=o.amount)
    instance = DamageInstance(target=uid, amount=o.amount, source=caster, kind="hit", riposte_rolls=tuple(rolls))
    s.extend(explain_instance(d.board, instance, d.damage, ruleset, s.depth + 1))
    after_hit, log, _ = resolve_damage(d.board, instance, ruleset)
    _, answers = explain_answers(after_hit, instance, d.damage, log, ruleset, s.depth + 1)
    s.extend(answers)


def _explain_restore_delivery(s: Steps, o: LineOutcome, d: Any, uid: str, ruleset: Ruleset) -> None:
    """A Restore line's recipient: recovery capped at the missing Vitality (500.3c), Maim's share (500.3d); under
    ``ability_restore_bonuses = full_recovery_ledger`` the Forge Core bonus first (500.3b, INT-211)."""
    missing = max(d.before.max_vitality - d.before.vitality, 0)
    full = ruleset.ability_restore_bonuses == "full_recovery_ledger" and o.amount > 0
    bonus = max(d.before.forge_core_recovery, 0) if full else 0
    eligible = min(max(o.amount + bonus, 0), missing)
    maim = f"; Maim {d.before.maim} prevents {eligible - d.amount}, consuming {d.consumed} (500.3d)" if d.before.maim \
        and eligible else ""
    forge = f" with its Forge Core bonus {bonus} added first (full_recovery_ledger: 500.3b, INT-211)" if bonus else ""
    s.say("pipeline", "400.8-7", f"Restore {o.amount} at {uid}{forge} goes through recovery: capped at its missing Vitality "
          f"{missing} (500.3c){maim}: {uid} {d.before.vitality} -> {d.after.vitality}.", ("vitality_restored",),
          touches=(f"{uid}.vitality",), recipient=uid, asked=o.amount, missing=missing, restored=d.amount,
          before=d.before.vitality, after=d.after.vitality)
    if maim:
        prevented = eligible - d.amount
        s.say("maim", "500.3d", f"each Maim point prevents 2 recovery: {prevented} prevented, and Maim is consumed by "
              f"half of that, rounded up ({prevented}/2 -> {d.consumed}): {uid}'s Maim {d.before.maim} -> "
              f"{d.after.maim} (500.3d).", touches=(f"{uid}.maim",), prevented=prevented, consumed=d.consumed,
              before=d.before.maim, after=d.after.maim)


def explain_answer(s: Steps, start: Board, after: Board, outcome: AbilityOutcome) -> None:
    """The answer to the question: what Vitality was restored, what the hits took, who died."""
    restored = {}
    for o in outcome.lines:
        if o.line.effect == "restore":
            for d in o.deliveries:
                restored[d.recipient] = restored.get(d.recipient, 0) + d.amount
    parts = []
    if any(o.line.effect == "restore" for o in outcome.lines):
        gained = {uid: n for uid, n in restored.items() if n}
        parts.append("Vitality restored: " + ", ".join(f"{uid} +{n}" for uid, n in gained.items()) if gained
                     else "no Vitality is restored")
    died = [u.uid for u in start.units if u.alive and not after.unit(u.uid).alive]
    if died:
        parts.append(f"died: {', '.join(died)}")
    s.say("answer", "400.8", "answer: " + ("; ".join(parts) if parts else "the activation resolved") + ".",
          restored=restored, died=died)
