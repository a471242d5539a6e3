"""The architecture holds: import-linter's contracts (pyproject.toml) and no import cycle at all.

The source folders are mapped into one ``referee`` namespace by setuptools' ``package-dir``
(``model/`` is ``referee.model``), which an editable install serves through an import hook
that grimp cannot walk. So the test lays the same files out as one package in a temporary
folder and points ``lint-imports`` at that: the graph is the very code under test. The contracts on
the mapped folders are in ``contracts-installed.toml``; pyproject.toml's hold in a plain checkout too,
where ``lint-imports`` run by hand sees only ``referee/`` (tested below, as a user runs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The top-level folders that setuptools maps into ``referee`` (pyproject.toml's package-dir).
MAPPED = {"model": "model", "proofs": "proofs", "specs": "specs", "examples": "examples"}


@pytest.fixture(scope="module")
def package_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``referee/`` laid out as installed: the tools with model/, proofs/, ... inside."""
    root = tmp_path_factory.mktemp("layout")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.json", "*.toml")
    shutil.copytree(ROOT / "referee", root / "referee", ignore=ignore)
    for name, folder in MAPPED.items():
        shutil.copytree(ROOT / folder, root / "referee" / name, ignore=ignore)
    return root


def _lint_imports() -> str:
    """This interpreter's ``lint-imports`` (beside it, else the one on PATH)."""
    beside = Path(sys.executable).with_name("lint-imports")
    return str(beside) if beside.exists() else shutil.which("lint-imports") or str(beside)


def test_import_linter_contracts_hold(package_root: Path):
    lint = _lint_imports()
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    result = subprocess.run([lint, str(ROOT / "pyproject.toml"),
                             str(ROOT / "contracts-installed.toml"), "--no-cache"],
                            cwd=package_root, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout and " kept" in result.stdout
    assert "The model imports neither" in result.stdout and "Layers: the CLI above" in result.stdout


def test_import_linter_passes_by_hand_in_the_checkout():
    """``lint-imports`` with no argument, from the checkout's root, as a user types it."""
    lint = _lint_imports()
    result = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout and "Layers: the CLI above" in result.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_cycle_among_the_projects_modules(package_root: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(package_root))
    for name in [m for m in sys.modules if m == "referee" or m.startswith("referee.")]:
        monkeypatch.delitem(sys.modules, name)
    graph = grimp.build_graph("referee", cache_dir=None)
    assert len(graph.modules) > 100  # the whole tree was read, the mapped folders included
    assert {"referee.model.combat.damage", "referee.proofs.core", "referee.rulebooks.play.codec"} <= graph.modules
    assert _cycles(graph) == []


#: The longest function the code may hold (the standard: small functions named for what they do).
LONGEST_FUNCTION = 40


def test_no_function_of_the_tools_the_model_or_the_proofs_is_over_40_lines():
    import ast

    over = []
    for folder in ("referee", "model", "proofs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > LONGEST_FUNCTION:
                        over.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert not over, over
