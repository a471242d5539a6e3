"""JUnit XML for CI: one ``testcase`` per theorem, a ``failure`` for anything not passing.

Every text that goes into a report passes :func:`xml_text` first: XML 1.0 cannot carry most
control characters (an engine's stderr is full of them: ANSI colours, NULs), even escaped, and
one of them makes the whole file unreadable to CI. They are shown as ``\\xNN`` instead, and a
text longer than :data:`MAX_TEXT` keeps its head and tail.
"""

from __future__ import annotations

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
            suite, "testcase", name=xml_text(case["name"], 1000), classname=xml_text(case["classname"], 1000),
            time=f"{case['seconds']:.3f}",
        )
        if case.get("failure"):
            failure = ET.SubElement(element, "failure", message=xml_text(case["failure"].splitlines()[0], 1000))
            failure.text = xml_text(case["failure"])
        if case.get("output"):
            ET.SubElement(element, "system-out").text = xml_text(case["output"])
    root = ET.Element("testsuites", name=suite_name, tests=str(len(cases)), failures=str(failures))
    root.append(suite)
    ET.indent(root)
    Path(path).write_text(ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n", encoding="utf-8")
