"""JUnit XML for CI: one ``testcase`` per theorem, a ``failure`` for anything not passing."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any


def write_junit(path: str | Path, suite_name: str, cases: list[dict[str, Any]], seconds: float) -> None:
    """Write ``cases`` (``name``, ``classname``, ``seconds``, ``failure`` or ``None``, ``output``)."""
    failures = sum(1 for c in cases if c.get("failure"))
    suite = ET.Element(
        "testsuite",
        name=suite_name,
        tests=str(len(cases)),
        failures=str(failures),
        errors="0",
        skipped="0",
        time=f"{seconds:.3f}",
    )
    for case in cases:
        element = ET.SubElement(
            suite, "testcase", name=case["name"], classname=case["classname"], time=f"{case['seconds']:.3f}"
        )
        if case.get("failure"):
            failure = ET.SubElement(element, "failure", message=case["failure"].splitlines()[0])
            failure.text = case["failure"]
        if case.get("output"):
            ET.SubElement(element, "system-out").text = case["output"]
    root = ET.Element("testsuites", name=suite_name, tests=str(len(cases)), failures=str(failures))
    root.append(suite)
    ET.indent(root)
    Path(path).write_text(ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n", encoding="utf-8")
