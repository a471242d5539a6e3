"""JUnit XML for CI: one ``testcase`` per theorem (``referee prove``) or per divergence group of a check
(:func:`render_check_junit`, from the report model), a ``failure`` for anything not passing.

Every text that goes into a report passes :func:`xml_text` first: XML 1.0 cannot carry most
control characters (an engine's stderr is full of them: ANSI colours, NULs), even escaped, and
one of them makes the whole file unreadable to CI. They are shown as ``\\xNN`` instead, and a
text longer than :data:`MAX_TEXT` keeps its head and tail.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

#: The longest text kept in one element of a report (its head and tail are kept).
MAX_TEXT = 64 * 1024
#: Characters XML 1.0 does not allow (tab, newline and carriage return are allowed).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` made safe for XML 1.0 (disallowed characters as ``\\xNN``) and at most about ``limit`` long."""
    text = _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)
    if len(text) > limit:
        half = limit // 2
        text = f"{text[:half]}\n[... {len(text) - 2 * half:,} characters left out ...]\n{text[-half:]}"
    return text


def write_junit(path: str | Path, suite_name: str, cases: list[dict[str, Any]], seconds: float) -> None:
    """Write ``cases`` (``name``, ``classname``, ``seconds``, ``failure`` or ``None``, ``output``, ``skipped``)."""
    Path(path).write_text(junit_xml(suite_name, cases, seconds), encoding="utf-8")


def junit_xml(suite_name: str, cases: list[dict[str, Any]], seconds: float) -> str:
    """The JUnit XML of ``cases``: a ``failure`` for each with one, ``skipped`` for each with a reason to skip it."""
    failures = sum(1 for c in cases if c.get("failure"))
    skipped = sum(1 for c in cases if c.get("skipped") and not c.get("failure"))
    suite = ET.Element(
        "testsuite",
        name=suite_name,
        tests=str(len(cases)),
        failures=str(failures),
        errors="0",
        skipped=str(skipped),
        time=f"{seconds:.3f}",
    )
    for case in cases:
        element = ET.SubElement(
            suite, "testcase", name=xml_text(case["name"], 1000), classname=xml_text(case["classname"], 1000),
            time=f"{case['seconds']:.3f}",
        )
        if case.get("failure"):
            failure = ET.SubElement(element, "failure", message=xml_text(case["failure"].splitlines()[0], 1000))
            failure.text = xml_text(case["failure"])
        elif case.get("skipped"):
            ET.SubElement(element, "skipped", message=xml_text(case["skipped"], 1000))
        if case.get("output"):
            ET.SubElement(element, "system-out").text = xml_text(case["output"])
    root = ET.Element("testsuites", name=suite_name, tests=str(len(cases)), failures=str(failures))
    root.append(suite)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def render_check_junit(report: Any, suite: str = "referee check") -> str:
    """A ``referee check`` report (a model, a ``CheckReport`` or a merged JSON report: ``referee.report.model``)
    as JUnit XML: one test case per divergence group (a known one skipped), and one for the run itself when no
    group says why it did not pass (a fault, an error, an interruption, a stale known entry) or when it passed."""
    from .model import report_model

    model = report_model(report)
    cases = [_group_case(model, group) for group in model.groups]
    if not any(case.get("failure") for case in cases) and (not model.ok or not cases):
        cases.append(_run_case(model))
    return junit_xml(suite, cases, model.seconds)


def _group_case(model: Any, group: Any) -> dict[str, Any]:
    """One divergence group: its first divergence, scenario and replay; skipped when a known entry matched it."""
    case = {"name": f"{model.engine} [{group.key}]", "classname": "referee.check", "seconds": 0.0}
    if group.known is not None:
        return {**case, "skipped": f"known: {group.known}"}
    lines = [group.first or group.key, f"group: {group.key} ({group.count} scenarios)",
             f"scenario: {json.dumps(group.scenario)}"]
    if group.explain:
        lines.append(f"at fault: [{group.explain[-1].get('clause')}] {group.explain[-1].get('text', '')}")
    if group.clauses:
        lines.append(f"clauses applied: {', '.join(group.clauses)}")
    return {**case, "failure": "\n".join([*lines, f"replay: {group.replay}"])}


def _run_case(model: Any) -> dict[str, Any]:
    """The run as one test case: failed with its verdict, fault or error, scenario and replay, unless it passed."""
    case = {"name": f"{model.engine} [{model.kinds}]", "classname": "referee.check", "seconds": model.seconds}
    if model.ok:
        return case
    lines = [f"{model.verdict} ({model.status})", *([model.fault] if model.fault else []),
             *([model.error] if model.error else []),
             *(f"stale known divergence (matched nothing): {e['what']}: {e['reason']} ({e['source']})" for e in model.stale)]
    scenario = model.json.get("scenario")
    if scenario is not None:
        lines.append(f"scenario: {json.dumps(scenario)}")
    lines.append(f"checked: {model.scenarios_run} scenarios (seed {', '.join(map(str, model.seeds))})")
    if model.replay:
        lines.append(f"replay: {model.replay}")
    return {**case, "failure": "\n".join(lines)}
