"""The chapters, as a reader meets them: the same scheme for every paper, figures stored as
images, no formula or figure built inline, no private API, citations of the paper only.

nbval (``make nbval``) re-executes the chapters and compares their text outputs; these
tests read the stored notebooks, so they are fast and say *which* rule a chapter breaks.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dpsym.papers import registry

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CHAPTER = re.compile(r"^\d\d_[a-z0-9_]+\.ipynb$")
#: Calls that build a figure (a chapter shows registered figures through ``show``).
INLINE_PLOT = re.compile(r"\bplt\.|\.plot\(|\bsubplots\(|\bnew_figure\(|\bax\.|\.scatter\(")
#: A private name reached from outside its module.
PRIVATE = re.compile(r"(?:\bimport\s+_[a-z]\w*|\b[a-zA-Z]\w*\._[a-z]\w*|,\s*_[a-z]\w*\s*(?:,|$))")
#: What a reader does not have: our working notes and the text copies of the papers.
FOREIGN = re.compile(r"\bdigest\b|\bOCR\b|text copy|garbl", re.IGNORECASE)


def _chapters(folder: str) -> list[Path]:
    return sorted((NOTEBOOKS / folder).glob("*.ipynb"))


ALL = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
PAPERS = [p for p in registry.PAPERS if p.id != "core"]


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


def _src(cell: dict) -> str:
    return "".join(cell.get("source", []))


@pytest.mark.parametrize("paper", PAPERS, ids=[p.id for p in PAPERS])
def test_chapter_scheme(paper):
    names = [p.name for p in _chapters(paper.chapters)]
    assert names, f"notebooks/{paper.chapters}/ has no chapters"
    assert all(CHAPTER.match(n) for n in names), names
    assert names[0] == "00_notation.ipynb", names
    assert names[-1].endswith("_errata_and_summary.ipynb"), names
    numbers = [int(n[:2]) for n in names]
    assert numbers == list(range(len(names))), f"chapters are not numbered 00, 01, ...: {names}"


@pytest.mark.parametrize("paper", PAPERS, ids=[p.id for p in PAPERS])
def test_summary_chapter_is_generated(paper):
    """The errata-and-summary chapter is exactly what the ledger generates (sources)."""
    from dpsym.report import summary_notebook

    path = _chapters(paper.chapters)[-1]
    want = [(c["cell_type"], "".join(c["source"])) for c in summary_notebook(paper.id)["cells"]]
    have = [(c["cell_type"], _src(c)) for c in _cells(path)]
    assert have == want, f"{path.name} differs from the generator: run " \
                         "scripts/make_summary_chapters.py, then make notebooks"


@pytest.mark.parametrize("path", ALL, ids=[str(p.relative_to(NOTEBOOKS)) for p in ALL])
def test_chapter_rules(path):
    cells = _cells(path)
    code = [c for c in cells if c["cell_type"] == "code" and _src(c).strip()]
    assert code, "no code"
    first = code[0]
    assert "versions()" in _src(first) and "nbval-ignore-output" in first.get(
        "metadata", {}).get("tags", []), "the first code cell records the versions"
    problems = []
    for i, c in enumerate(cells):
        src = _src(c)
        if FOREIGN.search(src):
            problems.append(f"cell {i} cites what readers do not have: "
                            f"{FOREIGN.search(src).group(0)!r}")
        if c["cell_type"] != "code":
            continue
        if c.get("execution_count") is None:
            problems.append(f"cell {i} was never executed")
        if INLINE_PLOT.search(src):
            problems.append(f"cell {i} builds a figure inline ({INLINE_PLOT.search(src).group(0)})")
        code_only = "\n".join(line for line in src.splitlines()
                              if not line.lstrip().startswith("#"))
        if PRIVATE.search(code_only):
            problems.append(f"cell {i} uses a private name ({PRIVATE.search(code_only).group(0)})")
        images = sum("image/png" in o.get("data", {}) for o in c.get("outputs", []))
        text = "".join("".join(o.get("data", {}).get("text/plain", "")) + "".join(o.get("text", ""))
                       for o in c.get("outputs", []))
        if "<Figure size" in text or "<Figure with" in text:
            problems.append(f"cell {i} stores a figure as text, not as an image")
        if re.search(r"\bshow\(", src) and not images:
            problems.append(f"cell {i} shows a figure but stores no image")
    assert not problems, "\n".join(problems)
