"""Generate each paper's last chapter, ``NN_errata_and_summary.ipynb``, from the ledger, and
the README's coverage table (between its ``coverage`` markers).

Usage::

    python scripts/make_summary_chapters.py [PAPER ...] [--no-execute] [--readme]

Without papers: every paper in the registry. The chapter is numbered after the paper's
other chapters, written from :func:`dpsym.report.summary_notebook` and executed top to
bottom (its outputs are nbval's reference: review the diff). ``--readme`` also rewrites the
coverage table, which needs one run of the whole ledger (about a minute).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from run_notebooks import run  # noqa: E402

from dpsym.papers import registry  # noqa: E402
from dpsym.report import summary_notebook  # noqa: E402

START, END = "<!-- coverage:start -->", "<!-- coverage:end -->"


def write_chapter(paper: str, execute: bool = True) -> Path:
    folder = ROOT / "notebooks" / registry.paper(paper).chapters
    others = sorted(p for p in folder.glob("*.ipynb") if not p.stem.endswith("errata_and_summary"))
    for old in folder.glob("*_errata_and_summary.ipynb"):
        old.unlink()
    path = folder / f"{len(others):02d}_errata_and_summary.ipynb"
    nbformat.write(nbformat.from_dict(summary_notebook(paper)), path)
    if execute:
        print(f"{path.relative_to(ROOT)}: {run(path):.1f} s", flush=True)
    return path


def coverage_table() -> str:
    from dpsym.claims import SEVERITIES, all_claims, count_by_kind, summarize

    head = ("| paper | arXiv | claims | reproduced: printed + derived | notes | errata: "
            "false statement / proof gap / misprint / code-text | unresolved | chapters |")
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for p in registry.PAPERS:
        rows = [(c, c.run(30)) for c in all_claims(p.id)]
        if not rows:
            continue
        v, k = summarize(rows), count_by_kind(rows)
        arxiv = f"[{p.arxiv}]({p.url})" if p.arxiv else "–"
        errata = " / ".join(str(k[s]) for s in SEVERITIES)
        lines.append(f"| {p.short} | {arxiv} | {len(rows)} | {k['printed']} + {k['derived']} | "
                     f"{v['note']} | {errata} | {v['unresolved']} | "
                     f"[`notebooks/{p.chapters}/`](notebooks/{p.chapters}/) |")
    return "\n".join(lines)


def write_readme_table() -> None:
    readme = ROOT / "README.md"
    text = readme.read_text()
    a, b = text.index(START) + len(START), text.index(END)
    readme.write_text(text[:a] + "\n" + coverage_table() + "\n" + text[b:])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("papers", nargs="*")
    ap.add_argument("--no-execute", dest="execute", action="store_false")
    ap.add_argument("--readme", action="store_true")
    args = ap.parse_args(argv)
    for p in args.papers or [p for p in registry.ids() if p != "core"]:
        write_chapter(p, args.execute)
    if args.readme:
        write_readme_table()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
