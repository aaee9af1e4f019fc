"""The shape of the package: dependencies point papers -> concepts -> numerics.

Layers, lowest first (a module may import its own layer and the layers below):

1. ``dpsym.errors``, ``dpsym.numerics``, ``dpsym.papers.registry`` (metadata only);
2. concept modules: everything that is not a paper, the ledger, the CLI or a report;
3. ``dpsym.claims`` and ``dpsym.figures`` (the registries papers register into);
4. ``dpsym.papers.<id>`` (a paper may not import another paper);
5. ``dpsym.report``, ``dpsym.cli`` and the facade ``dpsym`` (``__init__``).

The test parses every module (imports inside functions included), so a lazy import cannot
hide a backward dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "dpsym"
BASE = {"dpsym.errors", "dpsym.numerics", "dpsym.papers.registry"}
REGISTRIES = {"dpsym.claims", "dpsym.figures"}
TOP = ("dpsym.report", "dpsym.cli")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(mod: str) -> int:
    if mod == "dpsym":  # the facade re-exports; only the top layer may import it
        return 5
    if mod in BASE:
        return 1
    if mod in REGISTRIES:
        return 3
    if mod.startswith(TOP):
        return 5
    if mod.startswith("dpsym.papers.") or mod == "dpsym.papers":
        return 4
    return 2


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.startswith("dpsym")]
        elif (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
              and node.module.startswith("dpsym")):
            out.append(node.module)
            # ``from dpsym.papers import registry`` imports a module, not a package
            for a in node.names:
                if f"{node.module}.{a.name}" in BASE:
                    out[-1] = f"{node.module}.{a.name}"
    return out


def _paper_of(mod: str) -> str | None:
    parts = mod.split(".")
    if len(parts) >= 3 and parts[1] == "papers" and parts[2] != "registry":
        return parts[2]
    return None


MODULES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", MODULES, ids=[_module(p) for p in MODULES])
def test_dependencies_point_down(path):
    mod = _module(path)
    bad = []
    for imp in _imports(path):
        if _layer(imp) > _layer(mod):
            bad.append(imp)
        elif _layer(mod) == 4 and _paper_of(imp) not in (None, _paper_of(mod)):
            bad.append(f"{imp} (another paper)")
    assert not bad, f"{mod} (layer {_layer(mod)}) imports upwards: {bad}"


def test_no_ledger_package_left():
    """Claims live in the paper packages; ``dpsym/ledger`` was removed."""
    assert not (ROOT / "ledger").exists()


def _package(mod: str) -> str:
    return mod.rsplit(".", 1)[0]


def test_no_private_names_across_packages():
    """A private name (``_x``) is imported only inside its own package.

    Anything another package needs is public, documented and tested: a leading underscore
    promises that the name may change without notice.
    """
    bad = []
    for path in MODULES:
        mod = _module(path)
        home = mod if path.name == "__init__.py" else _package(mod)
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                    and node.module.startswith("dpsym")):
                continue
            private = [a.name for a in node.names
                       if a.name.startswith("_") and not a.name.startswith("__")]
            if private and not (node.module == home or node.module.startswith(home + ".")
                                or _package(node.module) == home):
                bad.append(f"{mod}: from {node.module} import {', '.join(private)}")
    assert not bad, "\n".join(bad)
