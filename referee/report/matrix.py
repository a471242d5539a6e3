"""``referee report matrix A.json B.json ... --out matrix.html``: many engines' conformance on one page.

The inputs are ``conformance.json`` files (``referee report conformance``) of several engines, or several versions
of one. The page has a row per clause (every clause any input holds, in the first input's catalogue order), a
column per engine in the order given (its name and version as the header; each cell that engine's status), and a
column saying how many of the engines pass the clause ("passed by N of M"). ``matrix.json`` beside the page holds
the same table. Inputs of different protocols are refused, naming both files; so is one engine (name and version)
given twice, and any file that is not a conformance document, naming the file and the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conformance import FORMAT, STATUSES, ConformanceError, read_json, require_field

#: The format of ``matrix.json``.
MATRIX_FORMAT = "referee-conformance-matrix/1"
#: A cell of an engine whose document does not hold the clause (written by another catalogue).
ABSENT = "absent"


def load_conformance(path: Path) -> dict[str, Any]:
    """One ``conformance.json``, checked field by field."""
    data = read_json(path)
    require_field(path, isinstance(data, dict) and data.get("format") == FORMAT, "format",
             f"not a conformance document (written by `referee report conformance`): expected {FORMAT!r}")
    require_field(path, isinstance(data.get("protocol"), str), "protocol", "expected the protocol (a string)")
    engine = data.get("engine")
    require_field(path, isinstance(engine, dict) and isinstance(engine.get("name"), str)
             and (engine.get("version") is None or isinstance(engine.get("version"), str)), "engine",
             "expected {\"name\": a string, \"version\": a string or null}")
    require_field(path, isinstance(data.get("clauses"), list), "clauses", "expected a list")
    for n, clause in enumerate(data["clauses"]):
        require_field(path, isinstance(clause, dict) and isinstance(clause.get("id"), str)
                 and clause.get("status") in STATUSES, f"clauses[{n}]",
                 f"expected a clause with its id and a status (one of {', '.join(STATUSES)})")
    require_field(path, isinstance(data.get("badge"), dict) and isinstance(data.get("summary"), dict), "badge",
             "expected the badge and the summary")
    return data


def heading(document: dict[str, Any]) -> str:
    """An engine's column header: its name, and its version when it has one."""
    engine = document["engine"]
    return engine["name"] + (f" {engine['version']}" if engine.get("version") else "")


def check_comparable(paths: list[Path], documents: list[dict[str, Any]]) -> None:
    """Refuse documents of different protocols (naming both files), and one engine and version given twice."""
    first = documents[0]
    for path, document in zip(paths[1:], documents[1:]):
        if document["protocol"] != first["protocol"]:
            raise ConformanceError(f"{path}: protocol {document['protocol']} differs from {paths[0]}'s "
                                   f"{first['protocol']}: engines held to different protocols are not one matrix")
    seen: dict[str, Path] = {}
    for path, document in zip(paths, documents):
        name = heading(document)
        if name in seen:
            raise ConformanceError(f"{path} and {seen[name]} are both {name!r}: give each engine (and version) once, "
                                   "or set a version (--engine-version, or the declaration's version) to tell them "
                                   "apart")
        seen[name] = path


def _clause_order(documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every clause any document holds: the first document's order, then any others' in theirs."""
    rows: dict[str, dict[str, Any]] = {}
    for document in documents:
        for clause in document["clauses"]:
            rows.setdefault(clause["id"], {"id": clause["id"], "title": clause.get("title", "")})
    return list(rows.values())


def build(paths: list[Path], documents: list[dict[str, Any]]) -> dict[str, Any]:
    """The matrix (``matrix.json``): the engines as given, and per clause each engine's status and the pass count."""
    engines = [{"name": d["engine"]["name"], "version": d["engine"].get("version"), "heading": heading(d),
                "file": str(path), "referee": d.get("referee"), "badge": d["badge"],
                "summary": {k: d["summary"].get(k) for k in ("status", "passed", "in_profile")}}
               for path, d in zip(paths, documents)]
    statuses = [{c["id"]: c["status"] for c in d["clauses"]} for d in documents]
    clauses = []
    for row in _clause_order(documents):
        cells = [by_id.get(row["id"], ABSENT) for by_id in statuses]
        passed = sum(1 for cell in cells if cell == "pass")
        clauses.append({**row, "statuses": cells, "passed_by": passed, "engines": len(cells),
                        "summary": f"passed by {passed} of {len(cells)}"})
    return {"format": MATRIX_FORMAT, "protocol": documents[0]["protocol"], "engines": engines, "clauses": clauses}


def json_twin(out: Path) -> Path:
    """``matrix.json`` beside ``matrix.html`` (the page's name with ``.json``)."""
    return out.with_suffix(".json")


def render_html(matrix: dict[str, Any]) -> str:
    """The matrix as one self-contained page."""
    from .html import environment

    return environment().get_template("matrix.html.j2").render(matrix=matrix)


def write(matrix: dict[str, Any], out: Path) -> list[Path]:
    """Write the page to ``out`` and its JSON twin beside it (both rendered before either is written)."""
    texts = [render_html(matrix), json.dumps(matrix, indent=2) + "\n"]
    paths = [out, json_twin(out)]
    out.parent.mkdir(parents=True, exist_ok=True)
    for path, text in zip(paths, texts):
        path.write_text(text, encoding="utf-8")
    return paths


def summary_line(matrix: dict[str, Any]) -> str:
    """The matrix in one line: engines, clauses, how many every engine passes and how many none does."""
    clauses, m = matrix["clauses"], len(matrix["engines"])
    every = sum(1 for c in clauses if c["passed_by"] == m)
    none = sum(1 for c in clauses if c["passed_by"] == 0)
    return (f"{m} engines ({', '.join(e['heading'] for e in matrix['engines'])}), {len(clauses)} clauses: passed by "
            f"all {every}, by none {none}, by some {len(clauses) - every - none}")
