"""Settling the groups at the end of a run: each representative shrunk with its key held, shrunk once more with no
key held to find the group it settles on (kept to what the drift guard allows), chains of settled keys resolved, and
the groups merged (see ``docs/grouping.md``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from .. import interrupts
from ..failure_files import _replay
from ..judging import _public, model_trail
from .attribution import explain_at_fault
from ..outcome import CheckReport
from ...trail import clauses_applied, cut
from .filing import _keys_of, group_key_of
from .keyed_shrink import _shrink, _still_diverges, _store_shrunk


def _report_groups(campaign: Any) -> None:
    """Shrink one representative per group (its key held), merge the groups whose shrunk representatives
    diverge the same way at the same step, match the known divergences, and set the verdict."""
    from .keys import merge_groups
    from .groups import match_known

    options, report = campaign.options, campaign.report
    _merged_count(campaign)
    settled = campaign.settled
    for key, entry in campaign.groups.items():  # scenarios met since a group was shrunk still count
        settled[key][0].count, settled[key][0].symptoms = entry["count"], tuple(entry["symptoms"])
    targets = _resolved_targets(campaign)
    report.groups = merge_groups([group for group, _ in settled.values()], targets)
    say_unsure(report.groups, targets)
    report.stale_known = match_known(report.groups, options.known)
    unknown = [g for g in report.groups if g.known is None]
    if report.status == "interrupted":
        return
    if unknown:
        _report_first_group(report, unknown[0])
    elif report.stale_known and options.strict_known:
        report.status = "stale-known"


def _merged_count(campaign: Any) -> int:
    """How many groups are left after merging (``referee.check.grouping.keys.merge_groups``): every group not shrunk yet is
    shrunk (its key held) and settled now, and kept for the report, so the cap counts bugs, not keys."""
    found, settled = campaign.groups, campaign.settled
    budget = max(200, campaign.options.shrink_budget // max(1, len(found)))
    for key, entry in found.items():
        if key not in settled:
            group = _shrunk_group(campaign, key, entry, budget)
            settled[key] = (group, _settled_key(campaign, group))
    return len(set(_resolved_targets(campaign).values()))


def _resolved_targets(campaign: Any) -> dict[str, str]:
    """Each group's key -> the group it merges into: its settled key, or the end of a chain of settled keys where the
    drift guard allows the end too (``referee.check.grouping.keys.resolve_chains``)."""
    from .keys import resolve_chains

    settled, guards = campaign.settled, {}

    def allowed(key: str, end: str) -> bool:  # each group's guard made once, for every chain end asked of it
        if key not in guards:
            guards[key] = _drift_guard(settled[key][0])
        return guards[key](end)

    return resolve_chains({key: target for key, (_, target) in settled.items()}, allowed)


def _drift_guard(group: Any) -> Callable[[str], bool]:
    """Whether a group may merge into a key (``referee.check.grouping.keys.drift_guard`` of its shrunk representative)."""
    from .keys import drift_guard

    return drift_guard(group.key, group.scenario, group.divergences)


def _settled_key(campaign: Any, group: Any) -> str:
    """The key a group merges into: the key of its shrunk representative shrunk once more with no key held, with the
    whole shrink budget (a part of it does not reach the minimum: a Shield of 625 takes hundreds of calls), where
    the drift guard allows it (``referee.check.grouping.keys.merge_target``); its own key: unshrinkable, or no merge."""
    options = campaign.options
    if not (options.shrink and group.reproducible and group.divergences) or interrupts.received() is not None:
        return group.key
    if group.behind is not None:  # shrunk with no key held, it settles on the first divergence in front of it
        return group.key
    allowed, refused = _drift_guard(group), set()
    smaller, divergences, _ = _shrink(campaign.engine, group.scenario, group.divergences, options, accept=allowed,
                                      refused=refused)
    group.declined = tuple(sorted(refused - {group.key}))
    settled = group_key_of(smaller, divergences) if smaller != group.scenario else group.key
    return settled if allowed(settled) else group.key


def _shrunk_group(campaign: Any, key: str, entry: dict[str, Any], budget: int) -> Any:
    """One group: its representative shrunk with the key held, its clauses and explanation, rekeyed on the
    shrunk scenario (the same key unless nothing could be shrunk and the key was the symptom's)."""
    from .groups import Group

    engine, options = campaign.engine, campaign.options
    scenario, divergences = entry["scenario"], entry["divergences"]
    stopped = interrupts.received() is not None  # stopped by a signal: report the group as found, at once
    reproducible = stopped or _still_diverges(engine, scenario, options)
    calls, sizes = 0, None
    if options.shrink and reproducible and not stopped:
        from ..shrink import size

        before = size(_public(scenario))
        scenario, divergences, calls = _shrink(engine, scenario, divergences, replace(options, shrink_budget=budget),
                                               key, behind=entry.get("behind") is not None)
        sizes = (before, size(_public(scenario)))
        _store_shrunk(campaign, entry["scenario"], scenario, divergences)
    try:
        clauses = clauses_applied(model_trail(scenario))
    except Exception:  # the trail is a courtesy; never lose the group for it
        clauses = []
    explain = explain_at_fault(scenario, divergences[0]) if divergences else []
    group = Group(key, entry["count"], _public(scenario), divergences, clauses,
                  _replay(options, campaign.seed, _public(scenario)), None, reproducible, calls, explain, sizes)
    group.symptoms, group.behind = tuple(entry.get("symptoms", ())), entry.get("behind")
    group.also_shows = _also_shows(key, scenario, divergences)
    return group


def _report_first_group(report: CheckReport, first: Any) -> None:
    """The verdict of a run with an unknown group: the first such group's, as a run that stopped at it."""
    report.status, report.scenario, report.divergences = "mismatch", first.scenario, first.divergences
    report.shrink_calls, report.explain, report.shrink_sizes = first.shrink_calls, first.explain, first.shrink_sizes
    if first.divergences:
        try:  # the first group's trail, as a run that stopped at it would show (empty before)
            at = first.divergences[0]
            report.trail = cut(model_trail(first.scenario), at.event_index if at.where == "events" else None)
        except Exception as error:  # the trail is a courtesy; never lose the report for it
            report.error = f"(clause trail unavailable: {error})"


def say_unsure(groups: list[Any], targets: dict[str, str]) -> None:
    """What the grouping is unsure of, per group (``Group.unsure``, ``docs/grouping.md`` 4): a merge into another
    group the drift guard declined, and another group's decision its representative also shows behind its first
    divergence; each names that group by its key (a merged report numbers its groups anew)."""
    keys = {group.key for group in groups}
    for group in groups:
        notes = []
        for key in getattr(group, "declined", ()):
            other = targets.get(key, key)
            if other in keys and other != group.key:
                notes.append(f"declined to merge into {other}: its representative, shrunk further, showed that "
                             "group's key without taking its decision (one bug or two)")
        for key in group.also_shows:
            other = targets.get(key, key)
            if other in keys and other != group.key:
                notes.append(f"its representative also shows {other} behind its first divergence (two bugs may "
                             "share it)")
        group.unsure = tuple(dict.fromkeys(notes))


def _also_shows(key: str, scenario: dict[str, Any], divergences: list[Any]) -> tuple[str, ...]:
    """The other keys a representative is filed under (:func:`~.filing._keys_of`): differences behind its first that
    the first cannot have caused; empty when it cannot be explained (a courtesy: never lose the group for it)."""
    try:
        return tuple(k for k in _keys_of(scenario, divergences) if k != key) if divergences else ()
    except Exception:  # the note is a courtesy
        return ()
