"""The native vector runner: replay a referee vector release through the engine, in-process, with the standard
library alone (it never imports ``referee``).

A *release folder* is what ``referee vectors export vectors --release`` writes: ``manifest.json``, one JSON file
per vector (``{"scenario", "expected", ...}``) and ``release.json``, the receipt holding the SHA-256 of every file.
The run (``run_release``) follows the rules every kit's runner follows (``referee vectors run`` is the reference):

1. verify the receipt (format, protocol, every file's SHA-256, every vector listed);
2. select: ``REFEREE_FEATURES=a,b`` (only vectors whose features all lie in the list; the others' unit fields and
   events are left out of the comparison), ``REFEREE_EXCLUDE_FEATURES=a,b`` (skip vectors tagged with any),
   ``REFEREE_KINDS=a,b`` (only vectors whose kinds all lie in the list); an empty value is no filter;
3. run each scenario (``"id": "v<index>"`` added) through the engine; a raise, an answer that is not a JSON
   object, or an ``unsupported`` answer is a fault for that vector;
4. compare with the vector's ``expected``: the events (filtered, normalized to their five fields, in order),
   the final combat board (field by field, JSON types exact: ``true`` is not ``1``, ``1`` is not ``1.0``) or
   the final play state (the pool, then each object by ``oid``);
5. ``REFEREE_EXPECTED_FAILURES=FILE`` (one vector path a line, ``#`` comments): a listed vector that fails is
   ``known``; one that passes is ``stale`` and fails the run;
6. report a per-clause table, each failure, and one summary line; ``REFEREE_VERDICTS=FILE`` writes every
   vector's verdict as JSON.

The run fails on any failure, fault or stale entry, or when no vector ran at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROTOCOL = "referee/2"
RELEASE_FORMAT = "referee-vectors-release/1"
VERDICTS_FORMAT = "referee-native-verdicts/1"
RELEASE_FILE = "release.json"
MANIFEST_FILE = "manifest.json"
EVENT_DEFAULTS = {"name": None, "unit": None, "amount": 0, "other": None, "detail": None}
#: The verdicts a vector may come to, in the order the summary counts them.
STATUSES = ("pass", "fail", "fault", "known", "stale", "skipped")

Engine = Callable[[dict], Any]


class ReleaseError(Exception):
    """A release folder, receipt or setting the runner refuses: the message names the file, line or variable."""


class Fault(Exception):
    """An answer the comparison cannot judge (a missing field, a wrong shape): the vector's fault."""


# --------------------------------------------------------------------------------------
# The release folder and its receipt
# --------------------------------------------------------------------------------------


def find_release(folder: Path) -> Path:
    """The release folder: ``folder`` when it holds ``release.json``, else its one sub-folder that does."""
    if not folder.is_dir():
        raise ReleaseError(f"{folder}: not a folder (REFEREE_VECTORS names the release folder; "
                           "`referee vectors export vectors --release` writes one)")
    if (folder / RELEASE_FILE).is_file():
        return folder
    found = sorted(sub for sub in folder.iterdir() if sub.is_dir() and (sub / RELEASE_FILE).is_file())
    if len(found) == 1:
        return found[0]
    if not found:
        raise ReleaseError(f"{folder}: holds no {RELEASE_FILE}, nor one sub-folder holding it "
                           "(write one with `referee vectors export vectors --release`)")
    raise ReleaseError(f"{folder}: holds {len(found)} releases ({', '.join(s.name for s in found)}); "
                       "point REFEREE_VECTORS at one of them")


def parse_json(data: bytes, where: Path | str) -> Any:
    """The JSON value of ``data``; a ReleaseError naming ``where`` when it is not JSON."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReleaseError(f"{where}: not valid JSON ({error})") from None


def read_release(folder: Path) -> dict:
    """``release.json`` of ``folder``, its format and protocol checked."""
    path = folder / RELEASE_FILE
    release = parse_json(path.read_bytes(), path)
    if not isinstance(release, dict):
        raise ReleaseError(f"{path}: not a JSON object")
    if release.get("format") != RELEASE_FORMAT:
        raise ReleaseError(f"{path}: format {release.get('format')!r} is not {RELEASE_FORMAT!r}")
    if release.get("protocol") != PROTOCOL:
        raise ReleaseError(f"{path}: protocol {release.get('protocol')!r} is not this engine's {PROTOCOL!r}")
    if not isinstance(release.get("files"), dict) or MANIFEST_FILE not in release["files"]:
        raise ReleaseError(f"{path}: `files` does not list {MANIFEST_FILE}")
    return release


def verified_bytes(folder: Path, files: Mapping[str, Any]) -> dict[str, bytes]:
    """The bytes of every file ``release.json`` lists, each checked against its SHA-256."""
    out = {}
    for name, digest in files.items():
        path = folder / name
        if Path(name).is_absolute() or ".." in Path(name).parts:
            raise ReleaseError(f"{folder / RELEASE_FILE}: lists {name!r}, a path outside the folder")
        if not path.is_file():
            raise ReleaseError(f"{path}: listed in {RELEASE_FILE} but missing")
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != str(digest).lower():
            raise ReleaseError(f"{path}: its SHA-256 differs from {RELEASE_FILE}'s (the file changed after "
                               "the release was written)")
        out[name] = data
    return out


@dataclass
class Vector:
    """One vector of the release: its manifest entry, its index (the scenario's id is ``v<index>``) and file."""

    index: int
    entry: dict
    scenario: dict
    expected: dict

    @property
    def path(self) -> str:
        """The vector file's path inside the release folder (its name in every report)."""
        return self.entry["path"]

    @property
    def primary(self) -> str:
        """The clause the vector was written for (the first of its ``clauses`` when the manifest names none)."""
        return str(self.entry.get("primary") or (self.entry.get("clauses") or ["(no clause)"])[0])


def read_vectors(folder: Path, release: dict) -> list[Vector]:
    """Every vector the manifest lists, read from the bytes the receipt vouches for."""
    data = verified_bytes(folder, release["files"])
    manifest = parse_json(data[MANIFEST_FILE], folder / MANIFEST_FILE)
    entries = manifest.get("vectors") if isinstance(manifest, dict) else None
    if not isinstance(entries, list):
        raise ReleaseError(f"{folder / MANIFEST_FILE}: no `vectors` list")
    vectors = []
    for index, entry in enumerate(entries):
        path = entry.get("path") if isinstance(entry, dict) else None
        if path not in data or path == MANIFEST_FILE:
            raise ReleaseError(f"{folder / MANIFEST_FILE}: lists vector {path!r}, which {RELEASE_FILE} "
                               "does not vouch for")
        body = parse_json(data[path], folder / path)
        if not isinstance(body, dict) or not isinstance(body.get("scenario"), dict) \
                or not isinstance(body.get("expected"), dict):
            raise ReleaseError(f"{folder / path}: not a vector (an object with `scenario` and `expected`)")
        vectors.append(Vector(index, entry, body["scenario"], body["expected"]))
    return vectors


# --------------------------------------------------------------------------------------
# Settings from the environment
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """What the environment asks of a run (``None``: no such filter)."""

    features: frozenset[str] | None = None
    exclude_features: frozenset[str] = frozenset()
    kinds: frozenset[str] | None = None
    expected_failures: Path | None = None
    verdicts: Path | None = None


def words(env: Mapping[str, str], name: str) -> frozenset[str] | None:
    """The comma-separated words of variable ``name`` (``None`` when it is unset or empty)."""
    value = env.get(name, "").strip()
    if not value:
        return None
    return frozenset(w.strip() for w in value.split(",") if w.strip())


def settings_from(env: Mapping[str, str], release: dict) -> Settings:
    """The run's settings from ``env``; a feature name the release does not know is an error naming the variable."""
    known = set(release.get("features") or {})
    for name in ("REFEREE_FEATURES", "REFEREE_EXCLUDE_FEATURES"):
        unknown = sorted((words(env, name) or frozenset()) - known)
        if unknown:
            raise ReleaseError(f"{name}: unknown feature {', '.join(unknown)} ({RELEASE_FILE} knows: "
                               f"{', '.join(sorted(known)) or 'none'})")
    expected = env.get("REFEREE_EXPECTED_FAILURES", "").strip()
    verdicts = env.get("REFEREE_VERDICTS", "").strip()
    return Settings(features=words(env, "REFEREE_FEATURES"),
                    exclude_features=words(env, "REFEREE_EXCLUDE_FEATURES") or frozenset(),
                    kinds=words(env, "REFEREE_KINDS"),
                    expected_failures=Path(expected) if expected else None,
                    verdicts=Path(verdicts) if verdicts else None)


def read_expected_failures(path: Path, paths: set[str]) -> dict[str, int]:
    """The vector paths listed in ``path`` (line number by path); a path not in the folder names its line."""
    if not path.is_file():
        raise ReleaseError(f"REFEREE_EXPECTED_FAILURES={path}: no such file")
    listed: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        item = line.split("#", 1)[0].strip()
        if not item:
            continue
        if item not in paths:
            raise ReleaseError(f"{path}:{number}: {item!r} is not a vector of this release folder")
        listed.setdefault(item, number)
    return listed


def reason_to_skip(entry: dict, settings: Settings) -> str | None:
    """Why a filter skips the vector of ``entry`` (``None``: it runs)."""
    features = set(entry.get("features") or ())
    kinds = set(entry.get("kinds") or ())
    if settings.features is not None and not features <= settings.features:
        return "uses " + ", ".join(sorted(features - settings.features))
    excluded = features & settings.exclude_features
    if excluded:
        return "excluded feature " + ", ".join(sorted(excluded))
    if settings.kinds is not None and not kinds <= settings.kinds:
        return "kind " + ", ".join(sorted(kinds - settings.kinds)) + " not selected"
    return None


@dataclass(frozen=True)
class Compared:
    """What the comparison leaves out: unit fields, and event keys (``name`` or ``name:detail``)."""

    fields_off: frozenset[str] = frozenset()
    events_off: frozenset[str] = frozenset()

    def keeps(self, event: dict) -> bool:
        """Whether ``event`` (normalized) is compared."""
        return event["name"] not in self.events_off and f"{event['name']}:{event['detail']}" not in self.events_off


def compared_of(release: dict, settings: Settings) -> Compared:
    """The release's ``compared``, plus what each feature outside ``REFEREE_FEATURES`` leaves out."""
    base = release.get("compared") or {}
    fields, events = set(base.get("fields_off") or ()), set(base.get("events_off") or ())
    if settings.features is not None:
        for name, off in (release.get("features") or {}).items():
            if name not in settings.features:
                fields.update(off.get("fields_off") or ())
                events.update(off.get("events_off") or ())
    return Compared(frozenset(fields), frozenset(events))


# --------------------------------------------------------------------------------------
# Running the engine and judging its answer
# --------------------------------------------------------------------------------------


def show(value: Any) -> str:
    """``value`` as JSON text, for a message."""
    return json.dumps(value, ensure_ascii=False)


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal with the same JSON types (``true`` is not ``1``, ``1`` is not ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def call_engine(engine: Engine, scenario: dict) -> dict:
    """The engine's answer to ``scenario`` as a JSON object; a Fault when it raises or answers anything else."""
    try:
        answer = engine(scenario)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - any raise is the vector's fault, never the run's
        raise Fault(f"the engine raised {type(error).__name__}: {error}") from None
    try:
        answer = json.loads(json.dumps(answer, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise Fault(f"the answer is not JSON: {error}") from None
    if not isinstance(answer, dict):
        raise Fault(f"the answer is a {type(answer).__name__}, not a JSON object")
    return answer


def check_envelope(answer: dict, scenario_id: str) -> None:
    """The answer's ``protocol`` and ``id``; an ``unsupported`` answer is a Fault naming the kind it refuses."""
    refused = answer.get("unsupported")
    if refused is not None:
        kind = refused.get("kind") if isinstance(refused, dict) else refused
        reason = refused.get("reason") if isinstance(refused, dict) else ""
        raise Fault(f"the engine refuses action kind `{kind}` by name: {reason} "
                    "(leave that kind out with REFEREE_KINDS)")
    if answer.get("protocol") != PROTOCOL:
        raise Fault(f"answer.protocol: expected {show(PROTOCOL)}, got {show(answer.get('protocol'))}")
    if answer.get("id") != scenario_id:
        raise Fault(f"answer.id: expected {show(scenario_id)}, got {show(answer.get('id'))}")


def normalized_event(event: Any, where: str) -> dict:
    """An event with its five fields, each one left out taking its default; a Fault for any other field."""
    if not isinstance(event, dict):
        raise Fault(f"{where}: not an object")
    if "name" not in event:
        raise Fault(f"{where}.name: missing")
    extra = sorted(set(event) - set(EVENT_DEFAULTS))
    if extra:
        raise Fault(f"{where}.{extra[0]}: not an event field (name, unit, amount, other, detail)")
    return {key: event.get(key, default) for key, default in EVENT_DEFAULTS.items()}


def events_of(observation: dict, side: str, compared: Compared) -> list[dict]:
    """The compared events of one side (``expected`` or ``answer``), normalized and filtered."""
    events = observation.get("events")
    if not isinstance(events, list):
        raise Fault(f"{side}.events: missing" if events is None else f"{side}.events: not an array")
    normalized = [normalized_event(e, f"{side}.events[{i}]") for i, e in enumerate(events)]
    return [e for e in normalized if compared.keeps(e)]


def event_divergence(expected: dict, answer: dict, compared: Compared) -> list[str]:
    """The first differing event of the two filtered sequences (none, or one message)."""
    ours, theirs = events_of(expected, "expected", compared), events_of(answer, "answer", compared)
    for k in range(max(len(ours), len(theirs))):
        mine = show(ours[k]) if k < len(ours) else "no event"
        got = show(theirs[k]) if k < len(theirs) else "no event"
        if k >= len(ours) or k >= len(theirs) or not same_json(ours[k], theirs[k]):
            return [f"events[{k}]: expected {mine}, got {got}"]
    return []


def by_key(items: Any, key: str, where: str) -> dict[str, dict]:
    """The objects of a JSON array by their ``key`` field; a Fault on a wrong shape or a key given twice."""
    if not isinstance(items, list):
        raise Fault(f"{where}: missing" if items is None else f"{where}: not an array")
    out: dict[str, dict] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get(key), str):
            raise Fault(f"{where}[{i}]: not an object with a string `{key}`")
        if item[key] in out:
            raise Fault(f"{where}: {key} {item[key]!r} given twice")
        out[item[key]] = item
    return out


def record_divergences(expected: dict, answer: dict, path: str, skip: frozenset[str]) -> list[str]:
    """Each field of ``expected`` (but ``skip``) that ``answer`` holds differently; a Fault for a missing one."""
    out = []
    for name, value in expected.items():
        if name in skip:
            continue
        if name not in answer:
            raise Fault(f"answer.{path}.{name}: missing")
        if not same_json(value, answer[name]):
            out.append(f"{path}.{name}: expected {show(value)}, got {show(answer[name])}")
    return out


def keyed_divergences(expected: dict[str, dict], answer: dict[str, dict], path: str,
                      skip: frozenset[str]) -> list[str]:
    """Every expected object (by key) missing or differing in ``answer``, then every object it should not hold."""
    out = []
    for key, mine in expected.items():
        if key not in answer:
            out.append(f"{path}.{key}: expected in the answer, got none")
        else:
            out.extend(record_divergences(mine, answer[key], f"{path}.{key}", skip))
    out.extend(f"{path}.{key}: not expected, got {show(answer[key])}" for key in answer if key not in expected)
    return out


def board_divergences(expected: dict, answer: dict, compared: Compared) -> list[str]:
    """The combat board: every expected unit (by ``uid``) and field not left out, and no unit besides."""
    ours = by_key(expected.get("board"), "uid", "expected.board")
    theirs = by_key(answer.get("board"), "uid", "answer.board")
    return keyed_divergences(ours, theirs, "board", compared.fields_off)


def first_difference(path: str, expected: Any, got: Any) -> str | None:
    """The first place two JSON values differ, as ``path: expected X, got Y`` (``None``: they are the same)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(k for k in got if k not in expected)]:
            if key not in expected or key not in got:
                return f"{path}.{key}: expected {show(expected.get(key))}, got {show(got.get(key))}"
            found = first_difference(f"{path}.{key}", expected[key], got[key])
            if found:
                return found
        return None
    return None if same_json(expected, got) else f"{path}: expected {show(expected)}, got {show(got)}"


def state_divergences(expected: dict, answer: dict) -> list[str]:
    """The play state: the pool equal as JSON, each expected object (by ``oid``) equal, and no object besides."""
    ours, theirs = expected.get("state"), answer.get("state")
    if not isinstance(theirs, dict):
        raise Fault("answer.state: missing" if theirs is None else "answer.state: not an object")
    if "pool" not in theirs:
        raise Fault("answer.state.pool: missing")
    pool = first_difference("state.pool", ours.get("pool"), theirs["pool"])
    objects = keyed_divergences(by_key(ours.get("objects", []), "oid", "expected.state.objects"),
                                by_key(theirs.get("objects"), "oid", "answer.state.objects"),
                                "state.objects", frozenset())
    return ([pool] if pool else []) + objects


def divergences(vector: Vector, answer: dict, compared: Compared) -> list[str]:
    """Every divergence of ``answer`` from the vector's ``expected``, events first; a Fault when it cannot be judged."""
    expected = vector.expected
    found = event_divergence(expected, answer, compared)
    if isinstance(expected.get("state"), dict):
        return found + state_divergences(expected, answer)
    return found + board_divergences(expected, answer, compared)


# --------------------------------------------------------------------------------------
# The run and its report
# --------------------------------------------------------------------------------------


@dataclass
class Result:
    """One vector's verdict: ``pass``, ``fail``, ``fault``, ``known``, ``stale`` or ``skipped``, and why."""

    path: str
    primary: str
    status: str
    detail: str = ""


def judge(vector: Vector, engine: Engine, compared: Compared) -> Result:
    """Run one vector through the engine: ``pass``, ``fail`` (with its first divergence) or ``fault``."""
    scenario_id = f"v{vector.index}"
    try:
        answer = call_engine(engine, {**vector.scenario, "id": scenario_id})
        check_envelope(answer, scenario_id)
        found = divergences(vector, answer, compared)
    except Fault as fault:
        return Result(vector.path, vector.primary, "fault", str(fault))
    if found:
        return Result(vector.path, vector.primary, "fail", found[0])
    return Result(vector.path, vector.primary, "pass")


def with_expectation(result: Result, listed: Mapping[str, int], source: Path | None) -> Result:
    """A result under the expected failures: a listed failure or fault is ``known``, a listed pass ``stale``."""
    if result.path not in listed:
        return result
    if result.status == "pass":
        return Result(result.path, result.primary, "stale",
                      f"remove it from {source}: it passes now (line {listed[result.path]})")
    if result.status in ("fail", "fault"):
        return Result(result.path, result.primary, "known", result.detail)
    return result


@dataclass
class Report:
    """A run: one result per vector of the release, in manifest order."""

    results: list[Result]
    folder: Path
    notes: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        """How many vectors came to ``status``."""
        return sum(r.status == status for r in self.results)

    @property
    def ran(self) -> int:
        """How many vectors ran (every one the filters did not skip)."""
        return len(self.results) - self.count("skipped")

    @property
    def passed(self) -> bool:
        """Whether the run passes: something ran, and nothing failed, faulted or went stale."""
        return self.ran > 0 and not any(self.count(s) for s in ("fail", "fault", "stale"))

    def summary(self) -> str:
        """The one summary line."""
        counts = ", ".join(f"{self.count(s)} {word}" for s, word in zip(
            STATUSES, ("passed", "failed", "faults", "known", "stale", "skipped")))
        return (f"referee vectors (native): {'PASS' if self.passed else 'FAIL'} — {counts} "
                f"of {len(self.results)}")

    def text(self) -> str:
        """The whole report: the per-clause table, then :meth:`outcome`."""
        return "\n".join([f"release: {self.folder}", *clause_table(self.results), self.outcome()])

    def outcome(self) -> str:
        """Each failure, fault, known and stale vector, the notes (what was skipped), and the summary line."""
        lines = problem_lines(self.results)
        if self.ran == 0:
            lines.append("no vector ran: the selection is empty (an empty selection is a failure, never a pass)")
        return "\n".join([*lines, *self.notes, self.summary()])

    def verdicts(self) -> dict:
        """The machine-readable verdicts (``REFEREE_VERDICTS``)."""
        return {"format": VERDICTS_FORMAT, "results": {r.path: r.status for r in self.results}}


def clause_row(results: list[Result]) -> tuple[int, int, int, int, str]:
    """One clause's counts (passed, failed, faults, known) and status (``ok``, ``FAIL``, ``known``)."""
    passed = sum(r.status in ("pass", "stale") for r in results)
    failed, faults, known = (sum(r.status == s for r in results) for s in ("fail", "fault", "known"))
    bad = failed or faults or any(r.status == "stale" for r in results)
    return passed, failed, faults, known, "FAIL" if bad else "known" if known else "ok"


def clause_table(results: list[Result]) -> list[str]:
    """The per-clause table: one row per primary clause of the vectors that ran."""
    by_clause: dict[str, list[Result]] = {}
    for result in results:
        if result.status != "skipped":
            by_clause.setdefault(result.primary, []).append(result)
    width = max([len(c) for c in by_clause] + [6])
    lines = [f"  {'clause':<{width}}  passed  failed  faults  known  status"]
    for clause in sorted(by_clause):
        passed, failed, faults, known, status = clause_row(by_clause[clause])
        lines.append(f"  {clause:<{width}}  {passed:>6}  {failed:>6}  {faults:>6}  {known:>5}  {status}")
    return lines


def problem_lines(results: list[Result]) -> list[str]:
    """Each vector that did not simply pass or skip: its verdict, path, primary clause and first divergence."""
    words = {"fail": "FAIL ", "fault": "FAULT", "stale": "STALE", "known": "known"}
    return [f"{words[r.status]} {r.path} [{r.primary}]: {r.detail}" for r in results if r.status in words]


def skip_note(skipped: list[Result]) -> list[str]:
    """One line counting the vectors the filters skipped, by reason."""
    reasons: dict[str, int] = {}
    for result in skipped:
        reasons[result.detail] = reasons.get(result.detail, 0) + 1
    if not reasons:
        return []
    return ["skipped: " + "; ".join(f"{n} {why}" for why, n in sorted(reasons.items(), key=lambda i: -i[1]))]


def run_release(folder: Path, engine: Engine, env: Mapping[str, str]) -> Report:
    """Verify, select, run and judge every vector of the release in ``folder`` (see the module's docstring);
    writes ``REFEREE_VERDICTS`` when set. A ReleaseError when the folder or a setting is refused."""
    root = find_release(folder)
    release = read_release(root)
    vectors = read_vectors(root, release)
    settings = settings_from(env, release)
    listed = (read_expected_failures(settings.expected_failures, {v.path for v in vectors})
              if settings.expected_failures else {})
    compared = compared_of(release, settings)
    results = []
    for vector in vectors:
        reason = reason_to_skip(vector.entry, settings)
        if reason is not None:
            results.append(Result(vector.path, vector.primary, "skipped", reason))
        else:
            results.append(with_expectation(judge(vector, engine, compared), listed, settings.expected_failures))
    report = Report(results, root, skip_note([r for r in results if r.status == "skipped"]))
    if settings.verdicts is not None:
        settings.verdicts.parent.mkdir(parents=True, exist_ok=True)
        settings.verdicts.write_text(json.dumps(report.verdicts(), indent=1) + "\n", encoding="utf-8")
    return report
