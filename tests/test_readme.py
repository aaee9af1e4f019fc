"""The README's coverage table is generated from the ledger; it must not fall behind it.

Re-running every claim here would double the ledger's test time (``test_claims`` runs them), so
this test checks what is cheap and still catches a stale table: one row per covered paper, in
the registry's order, with that paper's current number of claims.
"""

from __future__ import annotations

import re
from pathlib import Path

from dpsym.claims import all_claims
from dpsym.papers import registry

README = Path(__file__).resolve().parents[1] / "README.md"


def _table_rows() -> list[list[str]]:
    text = README.read_text()
    block = text[text.index("<!-- coverage:start -->"):text.index("<!-- coverage:end -->")]
    rows = [line for line in block.splitlines()
            if line.startswith("|") and not line.startswith("| **all papers**")][2:]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


STALE = "the README coverage table is stale: run scripts/make_summary_chapters.py --readme-only"


def test_coverage_table_is_current():
    rows = _table_rows()
    papers = [p for p in registry.PAPERS if all_claims(p.id)]
    assert [r[0] for r in rows] == [p.short for p in papers], STALE
    for row, p in zip(rows, papers, strict=True):
        n = len(all_claims(p.id))
        assert int(row[2]) == n, f"{p.id}: README says {row[2]} claims, ledger has {n}; {STALE}"
        if p.arxiv:
            assert re.search(re.escape(p.arxiv), row[1]), f"{p.id}: arXiv id missing from the table"


def test_figure_index_is_current():
    """figures/INDEX.md is generated from the registry's captions (``dpsym figures``)."""
    from dpsym.figures import index_markdown

    index = README.parent / "figures" / "INDEX.md"
    assert index.read_text() == index_markdown() + "\n", \
        "figures/INDEX.md is stale: run `dpsym figures` (it writes the index)"
