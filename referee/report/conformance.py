"""``referee report conformance``: an engine's conformance, per feature and per clause, from its two reports.

It reads the JSON report of ``referee check --json`` and of ``referee vectors run --json`` (and, when given, the
engine's declaration, ``referee.toml``) and writes ``conformance.json``, ``conformance.html`` and ``badge.json``.
Every clause of the catalogue (``referee.specs.catalogue``) gets one status, derived from the reports alone:

* ``not run``: the profile's action kinds draw nothing of the clause's rulebook;
* ``left out``: every feature naming the clause is left out of the profile (``without``, or not in ``features``);
* ``not run`` too: the check counted its coverage (``--stats``) over the profile, and the clause is none it can reach
  (none its scenarios exercised or it warned were rare, none a vector applied: ``damage`` alone never reaches a
  Bloodletting clause);
* ``fail``: the vectors run fails a vector at it (its row is ``FAIL``), or the check found a divergence placed at it
  (a group's key names it, else its model step at fault does: the attribution ``vectors run`` uses) that no known
  divergence matched;
* ``known``: a known divergence (a check group a known entry matched, a vector the vectors run reports ``known``);
* ``pass``: its vectors ran and passed, taking every branch of it (the row is ``ok``), and the check passed over it:
  its verdict placed no failure there, its profile held the clause, and, when it counted coverage (``--stats``),
  some scenario exercised it;
* ``not covered``: any other clause of the profile, with the reason (no vector exercised it, the vectors run says
  ``not covered``, its vectors did not run, the check never exercised it or ended in an engine fault...).

A feature's status is its clauses' (``left out`` / ``not run`` by the profile; else ``fail`` if one fails, ``known``
if one is known, ``pass`` if all pass, else ``not covered``). The verdict and the badge (:func:`badge`) follow from
them. A report that is not what it says, or of another protocol than this referee's, is a
:class:`ConformanceError` naming the file and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The format of ``conformance.json``.
FORMAT = "referee-conformance/1"
#: Every status a clause or a feature can have, in the order the pages count them.
STATUSES = ("pass", "fail", "known", "not covered", "left out", "not run")
#: The statuses outside the profile: not counted in the badge's total.
OUTSIDE = ("left out", "not run")
#: Check verdicts whose scenarios ran to a verdict that places its failures at clauses (others pass over none).
CHECK_PLACED = ("pass", "mismatch", "stale-known")
#: The fields of a ``vectors run --json`` report this verb reads.
VECTORS_REQUIRED = ("compared", "vectors", "not_run", "interrupted", "failed", "clauses")
#: What a comparison is (``compared`` of both reports, which must agree).
COMPARED_KEYS = ("fields", "events", "fields_off", "events_off", "event_fields", "event_order")
#: The files written in ``--out``.
FILES = ("conformance.json", "conformance.html", "badge.json")


class ConformanceError(ValueError):
    """An input that cannot be read as what it should be; the message names the file and the field."""


# --------------------------------------------------------------------------------------
# Reading the inputs
# --------------------------------------------------------------------------------------


def read_json(path: Path) -> Any:
    """A JSON file named on the command line (a regular file within the input limit)."""
    from ..input_files import InputFileError, read_input_text

    try:
        return json.loads(read_input_text(path))
    except InputFileError as error:
        raise ConformanceError(str(error)) from None
    except UnicodeDecodeError as error:
        raise ConformanceError(f"{path}: not UTF-8 text: {error.reason}") from None
    except (ValueError, RecursionError) as error:
        raise ConformanceError(f"{path}: not valid JSON: {str(error)[:200]}") from None


def require_field(path: Path, ok: bool, field_name: str, problem: str) -> None:
    """A ConformanceError naming the file and the field unless ``ok``."""
    if not ok:
        raise ConformanceError(f"{path}: {field_name}: {problem}")


def _check_protocol(path: Path, data: dict[str, Any], required: bool) -> None:
    """The report's ``protocol`` is this referee's (``required``: it must say one)."""
    from ..wire import PROTOCOL

    if "protocol" not in data and not required:
        return
    said = data.get("protocol")
    require_field(path, said == PROTOCOL, "protocol", f"{json.dumps(said)} is not this referee's protocol {PROTOCOL}: "
             "a report of another protocol is checked against other rules")


def load_check(path: Path) -> dict[str, Any]:
    """A ``referee check --json`` report (or a merged one), checked field by field."""
    from .merge import ReportError, load_report

    try:
        data = load_report(path)
    except ReportError as error:
        raise ConformanceError(str(error)) from None
    _check_protocol(path, data, required=True)
    features = data.get("features")
    require_field(path, isinstance(features, dict) and isinstance(features.get("without", []), list)
             and (features.get("allowed") is None or isinstance(features.get("allowed"), list)), "features",
             "expected {\"allowed\": null or a list, \"without\": a list}")
    kinds = data["action_kinds"]
    require_field(path, isinstance(kinds, list) and all(isinstance(k, str) for k in kinds),
             "action_kinds", "expected a list of action kinds")
    stats = data.get("stats")
    require_field(path, stats is None or (isinstance(stats, dict) and isinstance(stats.get("clauses"), dict)
                                     and isinstance(stats.get("features"), dict)), "stats",
             "expected null or --stats coverage with clauses and features")
    require_field(path, isinstance(data["compared"], dict), "compared", "expected the comparison (an object)")
    for n, group in enumerate(data["groups"]):
        require_field(path, isinstance(group, dict) and isinstance(group.get("key"), str), f"groups[{n}]",
                 "expected a group with its key")
    return data


def load_vectors(path: Path) -> dict[str, Any]:
    """A ``referee vectors run --json`` report, checked field by field."""
    data = read_json(path)
    missing = [key for key in VECTORS_REQUIRED if key not in data] if isinstance(data, dict) else list(VECTORS_REQUIRED)
    if missing:
        raise ConformanceError(f"{path}: not a referee vectors run report (written by `referee vectors run --json`): "
                               f"no {', '.join(missing)}")
    _check_protocol(path, data, required=False)
    require_field(path, isinstance(data["vectors"], int) and isinstance(data["not_run"], int), "vectors",
             "expected counts (vectors, not_run: whole numbers)")
    require_field(path, isinstance(data["compared"], dict), "compared", "expected the comparison (an object)")
    require_field(path, isinstance(data["clauses"], dict), "clauses", "expected the per-clause table (an object)")
    for clause, row in data["clauses"].items():
        require_field(path, isinstance(row, dict) and isinstance(row.get("status"), str), f"clauses.{clause}",
                 "expected a row with its status")
    require_field(path, isinstance(data["failed"], list), "failed", "expected a list")
    for n, item in enumerate(data["failed"]):
        require_field(path, isinstance(item, dict) and isinstance(item.get("status"), str)
                 and isinstance(item.get("failed_clauses", []), list), f"failed[{n}]",
                 "expected a result with its status and failed_clauses")
    return data


def check_alike(paths: tuple[Path, Path], check: dict[str, Any], vectors: dict[str, Any]) -> None:
    """The two reports were held to the same comparison (and, where the vectors report says, protocol and referee)."""
    for key in ("protocol", "referee"):
        if key in vectors and vectors[key] != check.get(key):
            raise ConformanceError(f"{paths[1]}: {key}: {json.dumps(vectors[key])} differs from {paths[0]}'s "
                                   f"{json.dumps(check.get(key))}: the two runs must be of one referee and protocol")
    ours = {k: check["compared"].get(k) for k in COMPARED_KEYS}
    theirs = {k: vectors["compared"].get(k) for k in COMPARED_KEYS}
    differ = [k for k in COMPARED_KEYS if ours[k] != theirs[k]]
    if differ:
        raise ConformanceError(f"{paths[1]}: compared.{differ[0]}: {json.dumps(theirs[differ[0]])[:120]} differs from "
                               f"{paths[0]}'s {json.dumps(ours[differ[0]])[:120]}: the two runs compared different "
                               "things (run both under the engine's one declaration)")


def load_declaration(path: Path) -> dict[str, Any]:
    """The engine's declaration (the top level of its ``referee.toml``), every key checked; its protocol this one's."""
    from ..check.config import ConfigError, load_declaration as load_file

    try:
        config = load_file(path)
    except ConfigError as error:
        raise ConformanceError(str(error)) from None
    values = dict(config.values)
    if "protocol" in values:
        _check_protocol(path, values, required=True)
    return values


# --------------------------------------------------------------------------------------
# The profile and the catalogue
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """What the engine declares it implements: action kinds, features (``None``: all), readings; and from where."""

    source: str
    kinds: tuple[str, ...]
    features: frozenset[str] | None
    ruleset: dict[str, Any] | None = None

    @property
    def rulebooks(self) -> set[str]:
        """The rulebooks the action kinds draw from."""
        from ..rulebooks import ACTION_KINDS

        return {ACTION_KINDS[k].rulebook for k in self.kinds if k in ACTION_KINDS}

    def keeps(self, feature: str) -> bool:
        """Whether the profile holds ``feature``."""
        return self.features is None or feature in self.features

    def to_json(self) -> dict[str, Any]:
        """The profile as ``conformance.json`` has it (``without``: every feature it does not hold)."""
        from ..rulebooks import all_features

        without = sorted(f for f in all_features() if not self.keeps(f))
        return {"source": self.source, "kinds": list(self.kinds),
                "features": None if self.features is None else sorted(self.features), "without": without,
                "ruleset": self.ruleset}


def profile_of(declaration: dict[str, Any] | None, declared_at: Path | None, check: dict[str, Any]) -> Profile:
    """The declaration's profile (its kinds, features, without, ruleset; a declaration naming no features declares
    them all), else, with no declaration, the check's."""
    from ..check.config import Config
    from ..rulebooks import resolve_features

    config = Config(declaration or {})
    kinds = config.words("kinds")
    named, without = config.words("features"), config.words("without")
    if declaration is None:
        allowed = check["features"].get("allowed")
        features = None if allowed is None else frozenset(allowed)
    else:
        try:
            features = resolve_features(named, without)
        except ValueError as error:
            raise ConformanceError(f"{declared_at}: features: {error}") from None
    ruleset = (declaration or {}).get("ruleset") or check.get("ruleset") or None
    source = f"the declaration {declared_at}" if declaration is not None else "the check report (no declaration given)"
    return Profile(source, tuple(kinds if kinds is not None else check["action_kinds"]), features, ruleset)


def catalogue_rows() -> list[dict[str, Any]]:
    """Every clause of the catalogue, in its order: id, rulebook, section, title."""
    from ..specs.catalogue import load_catalogue

    return [{"id": str(cid), "rulebook": cid.rulebook, "section": c.section, "title": c.title}
            for cid, c in load_catalogue().items()]


def feature_table() -> list[dict[str, Any]]:
    """Every feature of every rulebook (a rulebook's always-on core first): name, rulebook, summary, clauses."""
    from ..rulebooks import RULEBOOKS

    rows = []
    for book in RULEBOOKS.values():
        core = getattr(book, "core_feature", None)
        for f in ([core] if core is not None else []) + list(book.features.values()):
            rows.append({"name": f.name, "rulebook": book.name, "always_on": f is core, "summary": f.summary,
                         "clauses": list(f.clauses)})
    return rows


# --------------------------------------------------------------------------------------
# What each report says of each clause
# --------------------------------------------------------------------------------------


@dataclass
class Evidence:
    """What the two reports say, by clause."""

    check: dict[str, Any]
    vectors: dict[str, Any]
    #: clause -> the check's divergence keys placed at it (no known entry matched them).
    check_failed: dict[str, list[str]] = field(default_factory=dict)
    #: clause -> the reasons of the known divergences placed at it (the check's groups, the vectors run's).
    known: dict[str, list[str]] = field(default_factory=dict)
    #: Failures of either run placed at no clause (an engine fault, a model error, a divergence no step places).
    unplaced: list[str] = field(default_factory=list)
    #: The clauses the profile can reach (:func:`reach_of`); None when the reports do not tell.
    reach: set[str] | None = None


def _group_clause(group: dict[str, Any]) -> str | None:
    """The clause a check group is placed at: the one the check named (``clause_at_fault``), else its key's, else its
    model step at fault's (``vectors run``'s rule)."""
    from ..check.grouping.groups import clause_of_key

    named = group.get("clause_at_fault") or clause_of_key(group["key"])
    if named:
        return named
    explain = group.get("explain") or []
    return explain[-1].get("clause") if explain and isinstance(explain[-1], dict) else None


def _first_group(check: dict[str, Any]) -> dict[str, Any] | None:
    """A run stopped at its first divergence, as the group ``--keep-going`` would have filed it under."""
    if not check.get("divergences") or check.get("scenario") is None:
        return None
    from ..check.grouping.api import group_key_of
    from ..rulebook import Divergence

    divergences = [Divergence(d.get("where", ""), d.get("path", ""), d.get("model"), d.get("engine"))
                   for d in check["divergences"]]
    try:
        key = group_key_of(check["scenario"], divergences)
    except Exception:  # a scenario the model cannot run again: placed by its explain steps, if any
        key = check["divergences"][0].get("path", "")
    return {"key": key, "explain": check.get("explain") or [], "known": None,
            "clause_at_fault": check.get("clause_at_fault")}


def _check_groups(check: dict[str, Any]) -> list[dict[str, Any]]:
    """Every divergence the check found: its groups (a group's ``merged_with`` are one bug with it by the check's own
    reckoning, placed at its key), or its first failure."""
    if check["groups"]:
        return list(check["groups"])
    first = _first_group(check)
    return [first] if first else []


def _file_check(evidence: Evidence) -> None:
    """The check's divergences, each at its clause (failed, or known), and its failures placed nowhere."""
    check = evidence.check
    for group in _check_groups(check):
        clause = _group_clause(group)
        known = group.get("known")
        if clause is None:
            evidence.unplaced.append(f"check: divergence {group['key']} is placed at no clause")
        elif known:
            evidence.known.setdefault(clause, []).append(f"check: {known.get('reason') or group['key']}"
                                                         if isinstance(known, dict) else f"check: {group['key']}")
        else:
            evidence.check_failed.setdefault(clause, []).append(group["key"])
    if check["status"] not in CHECK_PLACED:
        said = (check.get("fault") or {}).get("message") if isinstance(check.get("fault"), dict) else None
        evidence.unplaced.append(f"check: {check['status']}" + (f" ({said})" if said else "")
                                 + (f": {check['error']}" if check.get("error") else ""))


def _file_vectors(evidence: Evidence) -> None:
    """The vectors run's known failures (``--expected-failures``: a row ``known``, or a result ``known`` at fault
    at a clause) and its engine faults (placed nowhere)."""
    vectors = evidence.vectors
    known: dict[str, int] = {}
    for item in vectors["failed"]:
        for clause in (item.get("failed_clauses") or []) if item["status"] == "known" else ():
            known[clause] = known.get(clause, 0) + 1
    for clause, row in vectors["clauses"].items():
        if row["status"].lower() == "known":
            known[clause] = row["known"] if isinstance(row.get("known"), int) else known.get(clause, 0)
    for clause, count in known.items():
        evidence.known.setdefault(clause, []).append(f"vectors: known failure ({count or '?'} vector(s), listed by "
                                                     "--expected-failures)")
    faults = [item for item in vectors["failed"] if item["status"] == "fault"]
    if faults:
        evidence.unplaced.append(f"vectors: {len(faults)} engine fault(s), first at {faults[0].get('path', '?')}")


def gather(check: dict[str, Any], vectors: dict[str, Any]) -> Evidence:
    """What the two reports say, by clause (:class:`Evidence`)."""
    evidence = Evidence(check, vectors)
    _file_check(evidence)
    _file_vectors(evidence)
    return evidence


# --------------------------------------------------------------------------------------
# Statuses
# --------------------------------------------------------------------------------------


def _owners(features: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each clause and the features naming it."""
    owners: dict[str, list[dict[str, Any]]] = {}
    for feature in features:
        for clause in feature["clauses"]:
            owners.setdefault(clause, []).append(feature)
    return owners


def _outside(clause: dict[str, Any], owners: list[dict[str, Any]], profile: Profile) -> tuple[str, str] | None:
    """``not run`` / ``left out`` when the profile does not hold the clause, with why; None when it does."""
    if clause["rulebook"] not in profile.rulebooks:
        return "not run", (f"the profile's action kinds ({', '.join(profile.kinds) or 'none'}) draw nothing of the "
                           f"{clause['rulebook']} rulebook")
    if owners and not any(f["always_on"] or profile.keeps(f["name"]) for f in owners):
        return "left out", "its features are left out: " + ", ".join(f["name"] for f in owners)
    return None


def reach_of(check: dict[str, Any], vectors: dict[str, Any], profile: Profile) -> set[str] | None:
    """The clauses the profile can reach, when the check counted them (``--stats`` over at least the profile): those
    its scenarios exercised, those it warned were rare (every reachable clause under 0.5%, never seen included), and
    those a vector of the run applied. None when it cannot be told (no ``--stats``, or a narrower check)."""
    stats = check.get("stats")
    rare = (stats or {}).get("rare")
    if not isinstance(rare, dict) or not isinstance(rare.get("clauses"), list):
        return None
    allowed = check["features"].get("allowed")
    wider = allowed is None or (profile.features is not None and profile.features <= set(allowed))
    if not (set(profile.kinds) <= set(check["action_kinds"]) and wider):
        return None
    return set(stats["clauses"]) | set(rare["clauses"]) | set(vectors["clauses"])


def _vectors_gap(row: dict[str, Any] | None) -> str | None:
    """Why the vectors do not pass the clause (None: its row is ``ok``)."""
    if row is None:
        return "no vector exercised it"
    if row["status"] == "ok":
        return None
    if row["status"] == "not run":
        return f"its vectors did not run ({row.get('not_run', '?')} not run)"
    if row.get("branches"):
        return (f"the vectors run: not covered ({row.get('branches_exercised', '?')} of {row['branches']} branches "
                "taken by passing vectors)")
    return f"the vectors run: {row['status']}"


def _check_gap(clause: str, owners: list[dict[str, Any]], check: dict[str, Any]) -> str | None:
    """Why the check did not pass over the clause (None: it did)."""
    from ..rulebooks import ACTION_KINDS

    if check["status"] not in CHECK_PLACED:
        return f"the check ended in {check['status']}: it passed over no clause"
    rulebook = clause.split(":", 1)[0]
    if rulebook not in {ACTION_KINDS[k].rulebook for k in check["action_kinds"] if k in ACTION_KINDS}:
        return f"the check drew nothing of the {rulebook} rulebook (action kinds {', '.join(check['action_kinds'])})"
    allowed = check["features"].get("allowed")
    if owners and allowed is not None and not any(f["always_on"] or f["name"] in allowed for f in owners):
        return "the check left out its features: " + ", ".join(f["name"] for f in owners)
    stats = check.get("stats")
    if stats is not None and not (stats["clauses"].get(clause) or {}).get("scenarios"):
        return f"the check never exercised it ({stats.get('scenarios', '?')} scenarios, --stats)"
    return None


def _failed(clause: str, row: dict[str, Any] | None, evidence: Evidence) -> list[str]:
    """Why the clause fails (empty: it does not)."""
    why = [f"vectors: {row.get('failed', '?')} vector(s) fail here"] if row and row["status"] == "FAIL" else []
    return why + [f"check: divergence {key}" for key in evidence.check_failed.get(clause, [])]


def _passed(row: dict[str, Any], clause: str, check: dict[str, Any]) -> str:
    """Why a clause passes: its vectors' count and branches, and the check's scenarios over it."""
    branches = f", every one of its {row['branches']} branches taken" if row.get("branches") else ""
    stats = check.get("stats")
    over = f" ({stats['clauses'][clause]['scenarios']} of {stats['scenarios']} scenarios)" if stats else \
        " (its coverage not counted: run it with --stats)"
    return f"{row.get('passed', '?')} vector(s) passed{branches}; the check passed over it{over}"


def clause_status(clause: dict[str, Any], owners: list[dict[str, Any]], profile: Profile,
                  evidence: Evidence) -> tuple[str, str]:
    """One clause's status and why (the module docstring's rules, in its order)."""
    outside = _outside(clause, owners, profile)
    if outside:
        return outside
    if evidence.reach is not None and clause["id"] not in evidence.reach:
        return "not run", ("the profile's action kinds and features reach it by no scenario (the clauses the check's "
                           "--stats counts as reachable)")
    row = evidence.vectors["clauses"].get(clause["id"])
    failed = _failed(clause["id"], row, evidence)
    if failed:
        return "fail", "; ".join(failed)
    if clause["id"] in evidence.known:
        return "known", "; ".join(evidence.known[clause["id"]])
    gap = _vectors_gap(row) or _check_gap(clause["id"], owners, evidence.check)
    if gap:
        return "not covered", gap
    return "pass", _passed(row, clause["id"], evidence.check)


def clause_rows(profile: Profile, evidence: Evidence, features: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every clause of the catalogue with its features, status, why and what each report says of it."""
    owners = _owners(features)
    stats = evidence.check.get("stats")
    rows = []
    for clause in catalogue_rows():
        mine = owners.get(clause["id"], [])
        status, why = clause_status(clause, mine, profile, evidence)
        rows.append({**clause, "features": [f["name"] for f in mine], "status": status, "why": why,
                     "vectors": evidence.vectors["clauses"].get(clause["id"]),
                     "check_scenarios": (stats["clauses"].get(clause["id"]) or {}).get("scenarios", 0) if stats
                     else None})
    return rows


def feature_rows(profile: Profile, clauses: list[dict[str, Any]], features: list[dict[str, Any]],
                 check: dict[str, Any]) -> list[dict[str, Any]]:
    """Every feature with its status (its clauses', or the profile's) and the check's scenarios that used it."""
    by_id = {c["id"]: c for c in clauses}
    stats = check.get("stats")
    rows = []
    for feature in features:
        statuses = [by_id[c]["status"] for c in feature["clauses"] if c in by_id]
        rows.append({**feature, "status": _feature_status(feature, statuses, profile),
                     "check_scenarios": (stats["features"].get(feature["name"]) or {}).get("scenarios", 0)
                     if stats and not feature["always_on"] else None})
    return rows


def _feature_status(feature: dict[str, Any], statuses: list[str], profile: Profile) -> str:
    """A feature's status: ``not run`` / ``left out`` by the profile (or every clause of it out of reach), else its
    clauses': ``fail`` if one fails, ``known`` if one is known, ``pass`` if every one in reach passes."""
    if feature["rulebook"] not in profile.rulebooks:
        return "not run"
    if not (feature["always_on"] or profile.keeps(feature["name"])):
        return "left out"
    reached = [s for s in statuses if s not in OUTSIDE]
    if not reached:
        return "not run" if statuses else "not covered"
    for status in ("fail", "known"):
        if status in reached:
            return status
    return "pass" if all(s == "pass" for s in reached) else "not covered"


# --------------------------------------------------------------------------------------
# The verdict and the badge
# --------------------------------------------------------------------------------------


def summarise(clauses: list[dict[str, Any]], unplaced: list[str]) -> dict[str, Any]:
    """The counts per status, the clauses of the profile, and the verdict: ``fail`` when a clause fails or a run
    failed at no clause, ``pass`` when every clause of the profile passes, else ``incomplete``."""
    counts = {status: sum(1 for c in clauses if c["status"] == status) for status in STATUSES}
    in_profile = sum(n for status, n in counts.items() if status not in OUTSIDE)
    if counts["fail"] or unplaced:
        verdict = "fail"
    else:
        verdict = "pass" if in_profile and counts["pass"] == in_profile else "incomplete"
    return {"status": verdict, "counts": counts, "passed": counts["pass"], "in_profile": in_profile,
            "catalogue": len(clauses), "failures": list(unplaced)}


def badge(summary: dict[str, Any], protocol: str) -> dict[str, Any]:
    """The shields.io endpoint badge. Its rule: red ``failing`` when the verdict is ``fail`` (a clause fails, or a
    run failed at no clause); else ``<passed> / <in profile> clauses``, bright green when every clause of the
    profile passes, yellow when some is not covered or known (clauses outside the profile are not counted)."""
    if summary["status"] == "fail":
        return {"schemaVersion": 1, "label": protocol, "message": "failing", "color": "red"}
    color = "brightgreen" if summary["status"] == "pass" else "yellow"
    return {"schemaVersion": 1, "label": protocol, "message": f"{summary['passed']} / {summary['in_profile']} clauses",
            "color": color}


# --------------------------------------------------------------------------------------
# The document
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inputs:
    """The files read, and what they hold."""

    check_path: Path
    vectors_path: Path
    check: dict[str, Any]
    vectors: dict[str, Any]
    declaration_path: Path | None = None
    declaration: dict[str, Any] | None = None


def load_inputs(check_path: Path, vectors_path: Path, declaration_path: Path | None) -> Inputs:
    """Read and check the two reports and the declaration (a :class:`ConformanceError` names what is wrong)."""
    check, vectors = load_check(check_path), load_vectors(vectors_path)
    check_alike((check_path, vectors_path), check, vectors)
    declaration = load_declaration(declaration_path) if declaration_path is not None else None
    return Inputs(check_path, vectors_path, check, vectors, declaration_path, declaration)


def _runs(inputs: Inputs) -> dict[str, Any]:
    """What each run was: its file, verdict and counts."""
    check, vectors = inputs.check, inputs.vectors
    failed = vectors["failed"]
    count = (lambda status: sum(1 for item in failed if item["status"] == status))
    return {
        "check": {"file": str(inputs.check_path), "status": check["status"], "seed": check["seed"],
                  "scenarios_run": check["scenarios_run"], "seconds": check["seconds"],
                  "action_kinds": check["action_kinds"], "features": check["features"],
                  "stats": check.get("stats") is not None, "run_id": check.get("run_id")},
        "vectors": {"file": str(inputs.vectors_path), "vectors": vectors["vectors"],
                    "passed": vectors.get("passed", vectors["vectors"] - count("mismatch") - count("fault")
                                          - count("known")),
                    "failed": count("mismatch"), "faults": count("fault"), "known": count("known"),
                    "stale": count("stale"),
                    "not_run": vectors["not_run"], "skipped": vectors.get("skipped", 0),
                    "interrupted": bool(vectors["interrupted"]), "stopped": vectors.get("stopped") or ""},
    }


def _engine(inputs: Inputs, version: str | None) -> dict[str, Any]:
    """The engine's name (the declaration's ``name``, else what the check ran) and version (``--engine-version``,
    else the declaration's ``version``, else none)."""
    declared = inputs.declaration or {}
    return {"name": declared.get("name") or inputs.check["engine"], "version": version or declared.get("version"),
            "spec": inputs.check["engine"]}


def build(inputs: Inputs, engine_version: str | None = None) -> dict[str, Any]:
    """The conformance document (``conformance.json``) of the inputs."""
    from .. import __version__
    from ..wire import PROTOCOL

    profile = profile_of(inputs.declaration, inputs.declaration_path, inputs.check)
    evidence = gather(inputs.check, inputs.vectors)
    evidence.reach = reach_of(inputs.check, inputs.vectors, profile)
    features = feature_table()
    clauses = clause_rows(profile, evidence, features)
    summary = summarise(clauses, evidence.unplaced)
    return {"format": FORMAT, "protocol": inputs.check.get("protocol", PROTOCOL),
            "referee": inputs.check.get("referee", __version__), "engine": _engine(inputs, engine_version),
            "profile": profile.to_json(), "compared": inputs.check["compared"].get("description", ""),
            "declaration": None if inputs.declaration_path is None else str(inputs.declaration_path),
            "runs": _runs(inputs), "summary": summary, "badge": badge(summary, PROTOCOL),
            "features": feature_rows(profile, clauses, features, inputs.check), "clauses": clauses,
            "notes": _notes(inputs)}


def _notes(inputs: Inputs) -> list[str]:
    """What a reader should know of the inputs: what they do not record."""
    notes = []
    if "protocol" not in inputs.vectors:
        notes.append(f"{inputs.vectors_path} records no protocol: its vectors were decoded under this referee's")
    ran = inputs.vectors.get("engine")
    if ran is not None and ran != inputs.check.get("engine"):
        notes.append(f"the two runs name different engines: {inputs.check_path} ran {inputs.check.get('engine')!r}, "
                     f"{inputs.vectors_path} ran {ran!r}: one engine's conformance needs both runs of it")
    if inputs.check.get("stats") is None:
        notes.append(f"{inputs.check_path} was run without --stats: which clauses its scenarios exercised is not "
                     "counted, so its pass is taken over every clause of its profile")
    stale = [item.get("path", "?") for item in inputs.vectors["failed"] if item["status"] == "stale"]
    if stale:
        notes.append(f"{inputs.vectors_path}: {len(stale)} vector(s) listed as expected failures pass now (stale: "
                     f"{', '.join(stale[:5])}): counted as passed; remove them from the list")
    catalogue = {c["id"] for c in catalogue_rows()}
    strays = sorted(c for c in inputs.vectors["clauses"] if c not in catalogue and c != "(none)")
    if strays:
        notes.append(f"{inputs.vectors_path} has rows for clauses the catalogue does not hold: {', '.join(strays)}")
    return notes


def summary_line(doc: dict[str, Any]) -> str:
    """The verdict in one line, as the command prints it."""
    engine = doc["engine"]["name"] + (f" {doc['engine']['version']}" if doc["engine"]["version"] else "")
    s, counts = doc["summary"], doc["summary"]["counts"]
    return (f"{s['status'].upper()}: {engine}: {s['passed']} / {s['in_profile']} clauses of the profile pass "
            f"({counts['fail']} fail, {counts['known']} known, {counts['not covered']} not covered; outside the "
            f"profile: {counts['left out']} left out, {counts['not run']} not run; {s['catalogue']} in the catalogue)"
            f"; badge: {doc['badge']['message']} ({doc['badge']['color']})")


def render_html(doc: dict[str, Any]) -> str:
    """``conformance.html``: the document as one self-contained page."""
    from .html import environment

    return environment().get_template("conformance.html.j2").render(doc=doc, statuses=STATUSES)


def write(doc: dict[str, Any], folder: Path) -> list[Path]:
    """Write the three files into ``folder`` (made); every file rendered before the first is written."""
    texts = [json.dumps(doc, indent=2) + "\n", render_html(doc), json.dumps(doc["badge"], indent=2) + "\n"]
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / name for name in FILES]
    for path, text in zip(paths, texts):
        path.write_text(text, encoding="utf-8")
    return paths
