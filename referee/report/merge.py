"""``referee report merge A.json B.json ...``: the JSON reports of many ``referee check`` runs as one.

A CI matrix runs ``referee check --json`` on each machine (each with its own ``--seed``: the streams are
disjoint by construction, ``referee.check.streams``); this module reads their reports and merges them the way
``--workers`` merges its processes' reports (``referee.check.workers``): the groups merged by their key (the fault key
of ``referee.check.grouping.keys``: one group per bug), the counts and the scenarios added, ``--stats`` coverage added,
the first failure the earliest in time any run met (its seconds and scenarios), and the verdict the worst any
run reached (a failed run fails the merge). Reports that cannot be merged are refused, naming the file: not a
check report, written under another protocol or by another referee, or comparing other things.

One run given twice is refused too, naming both files (:func:`check_distinct`): merged, it would be counted twice
(its scenarios, its groups' counts, its seed). A report is known by its ``run_id`` (``referee check --json`` writes
one; a merged report lists every run it holds in ``run_ids``, so merging it again with one of its own runs is
refused as well); a report written before run ids existed is known by a digest of its content.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..check.workers import SEVERITY

#: Fields every ``referee check --json`` report holds (what a merge reads).
REQUIRED = ("status", "engine", "seed", "action_kinds", "compared", "groups", "scenarios_run", "seconds")
#: Fields that must be equal in every report merged (what the runs were held to).
SAME = ("protocol", "referee", "engine", "action_kinds", "compared")


class ReportError(ValueError):
    """A report that cannot be merged; the message names the file."""


def load_report(path: Path) -> dict[str, Any]:
    """One ``referee check --json`` report, checked (a regular file within the input limit, JSON, a check report)."""
    from ..input_files import InputFileError, read_input_text

    try:
        data = json.loads(read_input_text(path))
    except InputFileError as error:
        raise ReportError(str(error)) from None
    except UnicodeDecodeError as error:
        raise ReportError(f"{path}: not UTF-8 text: {error.reason}") from None
    except (ValueError, RecursionError) as error:
        raise ReportError(f"{path}: not valid JSON: {str(error)[:200]}") from None
    missing = [key for key in REQUIRED if key not in data] if isinstance(data, dict) else list(REQUIRED)
    if missing:
        raise ReportError(f"{path}: not a referee check report (written by `referee check --json`): "
                          f"no {', '.join(missing)}")
    if not isinstance(data["groups"], list) or data["status"] not in SEVERITY:
        raise ReportError(f"{path}: not a referee check report: groups must be a list and status one of "
                          f"{', '.join(SEVERITY)}")
    return data


def check_alike(paths: list[Path], reports: list[dict[str, Any]]) -> None:
    """Refuse reports of runs held to different things (protocol, referee version, engine, action kinds, comparison)."""
    first = reports[0]
    for path, report in zip(paths[1:], reports[1:]):
        for key in SAME:
            if report.get(key) != first.get(key):
                said = (lambda v: json.dumps(v)[:120])
                raise ReportError(f"{path}: {key} {said(report.get(key))} differs from {paths[0]}'s "
                                  f"{said(first.get(key))}: runs held to different things do not merge")


def runs_of(report: dict[str, Any]) -> list[str]:
    """The runs a report holds: a merged report's ``run_ids``, a check report's ``run_id``, else (a report written
    before run ids) a digest of its content."""
    if isinstance(report.get("run_ids"), list) and report["run_ids"]:
        return [str(run) for run in report["run_ids"]]
    if isinstance(report.get("run_id"), str) and report["run_id"]:
        return [report["run_id"]]
    text = json.dumps(report, sort_keys=True, separators=(",", ":"))
    return ["content:" + hashlib.sha256(text.encode()).hexdigest()[:32]]


def check_distinct(paths: list[Path], reports: list[dict[str, Any]]) -> None:
    """Refuse one run given twice (the same report twice, or a merged report and one of the runs it holds)."""
    seen: dict[str, Path] = {}
    for path, report in zip(paths, reports):
        for run in runs_of(report):
            if run in seen:
                said = "the same content: written before reports had a run id" if run.startswith("content:") \
                    else f"run id {run}"
                raise ReportError(f"{path} and {seen[run]} hold the same run ({said}): merged, it would be counted "
                                  "twice; give each run's report once")
            seen[run] = path


def merge(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One report of many (see the module docstring); the worst run's report is the base."""
    from ..check.harness import new_run_id

    base = min(reports, key=lambda r: SEVERITY.index(r["status"]))
    merged = {**base, "groups": _merged_groups(reports), "stats": _summed_stats(reports)}
    merged["distinct_divergences"] = len(merged["groups"])
    merged["known_divergences"] = sum(1 for g in merged["groups"] if g.get("known"))
    merged["scenarios_run"] = sum(r["scenarios_run"] for r in reports)
    merged["seconds"] = round(sum(r["seconds"] for r in reports), 3)
    merged["workers"] = sum(r.get("workers") or 1 for r in reports)
    merged["seeds"] = [r["seed"] for r in reports]
    merged["merged_reports"] = len(reports)
    merged["run_ids"] = [run for r in reports for run in runs_of(r)]
    merged["run_id"] = new_run_id()
    firsts = [(r.get("first_failure_seconds"), r["first_failure_after"]) for r in reports
              if r.get("first_failure_after") is not None]  # the earliest in time, as --workers keeps it
    earliest = min(firsts, key=lambda f: (float("inf") if f[0] is None else f[0], f[1])) if firsts else (None, None)
    merged["first_failure_seconds"], merged["first_failure_after"] = earliest
    return merged


def _merged_groups(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Groups of every report merged by key: the first report's representative, the counts added."""
    from ..check.grouping.keys import joined

    by_key: dict[str, dict[str, Any]] = {}
    for report in reports:
        for group in report["groups"]:
            if group["key"] not in by_key:
                by_key[group["key"]] = dict(group)
                continue
            head = by_key[group["key"]]
            head["count"] += group["count"]
            head["symptoms"] = list(dict.fromkeys([*head.get("symptoms", []), *group.get("symptoms", [])]))
            head["merged_with"] = list(joined(head.get("merged_with", []), group.get("merged_with", [])))
    return list(by_key.values())


def _summed_stats(reports: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``--stats`` coverage added (None when no report has it); shares over the summed scenarios."""
    parts = [r["stats"] for r in reports if r.get("stats")]
    if not parts:
        return None
    total = {"scenarios": sum(p["scenarios"] for p in parts)}
    for table in ("features", "events", "clauses"):
        counts: Counter = Counter()
        for part in parts:
            counts.update({k: v["scenarios"] for k, v in part[table].items()})
        total[table] = {k: {"scenarios": n, "share": round(n / total["scenarios"], 4) if total["scenarios"] else 0.0}
                        for k, n in sorted(counts.items())}
    return total


def as_check_report(merged: dict[str, Any]) -> Any:
    """The merged report as a :class:`referee.check.harness.CheckReport`: its text, and the words a report model
    (``referee.report.model.model_of_merged``) takes from it."""
    from ..check.harness import CheckReport

    report = CheckReport(merged["status"], merged["engine"], merged["seed"], _comparison(merged["compared"]),
                         scenarios_run=merged["scenarios_run"], seconds=merged["seconds"],
                         first_failure_after=merged["first_failure_after"],
                         first_failure_seconds=merged["first_failure_seconds"] or 0.0,
                         kinds=tuple(merged["action_kinds"]), error=merged.get("error") or "",
                         workers=merged["workers"], groups=[_group(g) for g in merged["groups"]])
    features = (merged.get("features") or {})
    report.features = None if features.get("allowed") is None else frozenset(features["allowed"])
    report.swarm = bool(features.get("swarm"))
    report.stats = _stats(merged["stats"], report.kinds) if merged.get("stats") else None
    _first_failure(report, merged)
    return report


def _first_failure(report: Any, merged: dict[str, Any]) -> None:
    """The worst run's own failure (a run stopped at its first one has no group): scenario, divergences, fault, replay."""
    from ..engines.transports import EngineFault
    from ..rulebook import Divergence

    report.scenario, report.explain = merged.get("scenario"), merged.get("explain") or []
    report.divergences = [Divergence(d.get("where", ""), d.get("path", ""), d.get("model"), d.get("engine"))
                          for d in merged.get("divergences") or []]
    fault = merged.get("fault")
    report.fault = EngineFault(fault.get("kind", ""), fault.get("message", ""), fault.get("scenario"),
                               fault.get("detail") or "", located=fault.get("located")) if fault else None
    report.replay, report.replay_engine = merged.get("replay") or "", merged.get("replay_engine") or ""
    report.stale_known = [_known(e) for e in merged.get("stale_known") or []]


def _comparison(data: dict[str, Any]) -> Any:
    from ..check.compare import Comparison

    return Comparison(fields=None if data.get("fields") is None else tuple(data["fields"]),
                      events=None if data.get("events") is None else frozenset(data["events"]),
                      event_fields=tuple(data["event_fields"]) if data.get("event_fields") else None,
                      event_order=data.get("event_order", "strict"),
                      fields_off=frozenset(data.get("fields_off", ())), events_off=frozenset(data.get("events_off", ())))


def _group(data: dict[str, Any]) -> Any:
    """A merged group as the :class:`referee.check.grouping.groups.Group` it was written from (its text and JSON as a run's)."""
    from ..check.grouping.groups import Group
    from ..rulebook import Divergence

    known = _known(data["known"]) if data.get("known") else None
    sizes = data.get("shrink_sizes")
    return Group(
        data["key"], data["count"], data.get("scenario"),
        [Divergence(d.get("where", ""), d.get("path", ""), d.get("model"), d.get("engine"))
         for d in data.get("divergences", [])],
        clauses=data.get("clauses", []), replay=data.get("replay", ""), known=known,
        reproducible=data.get("reproducible", True), shrink_calls=data.get("shrink_calls", 0),
        explain=data.get("explain", []), shrink_sizes=(tuple(sizes[0]), tuple(sizes[1])) if sizes else None,
        symptoms=tuple(data.get("symptoms", ())), merged_with=tuple(data.get("merged_with", ())),
        behind=data.get("behind"), unsure=tuple(data.get("unsure", ())))


def _known(data: dict[str, Any]) -> Any:
    """A known entry as its JSON has it (``KnownEntry.to_json``)."""
    import datetime

    from ..check.grouping.groups import KnownEntry

    until = datetime.date.fromisoformat(data["until"]) if data.get("until") else None
    return KnownEntry(data.get("reason", ""), data.get("key"), data.get("clause"), until, data.get("issue"),
                      data.get("source", ""))


def _stats(data: dict[str, Any], kinds: tuple[str, ...]) -> Any:
    from ..rulebooks import ACTION_KINDS
    from ..check.stats import Stats

    counts = {table: Counter({k: v["scenarios"] for k, v in data[table].items()})
              for table in ("features", "events", "clauses")}
    return Stats(scenarios=data["scenarios"], rulebooks={ACTION_KINDS[k].rulebook for k in kinds if k in ACTION_KINDS},
                 **counts)
