"""Render every chapter into a static, offline HTML book (``make book``).

Usage::

    python scripts/build_book.py [--out build/book]

Why nbconvert: the chapters are already executed notebooks whose stored outputs are the
reference nbval checks, so the book must show exactly those outputs, not re-run them.
nbconvert's ``lab`` HTML template renders stored outputs faithfully (Markdown, LaTeX,
PNG), is maintained by the Jupyter project, and needs no build system; Jupyter Book and
Sphinx with myst-nb would re-execute or cache notebooks and bring a Sphinx toolchain for
what is a front page and a list of chapters. MathJax comes from the
``jupyter-server-mathjax`` package (MathJax 2.7, copied into the site), so the book builds
and reads without a network.

The front page lists the papers from :mod:`dpsym.papers.registry` with their chapters, the
claim counts by kind and every erratum with its severity, linked to the chapter that shows
it. Counts come from the claims' declared kinds (no claim is run here; ``dpsym verify`` and
the errata chapters run them).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"
#: The packaged MathJax ships only the STIX-Web fonts (as JupyterLab configures it).
MATHJAX_FONTS = ('<script type="text/x-mathjax-config">MathJax.Hub.Config({"HTML-CSS": '
                 '{availableFonts: [], preferredFont: null, webFont: "STIX-Web", '
                 'imageFont: null}});</script>')

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1d1d1f; }
.dpsym-nav { position: sticky; top: 0; z-index: 10; background: #f4f6f8;
             border-bottom: 1px solid #d9dee3; padding: 0.5em 1.5em; font-size: 0.95em; }
.dpsym-nav a { margin-right: 1.2em; text-decoration: none; color: #1b6ca8; }
.dpsym-front { max-width: 62em; margin: 2em auto; padding: 0 1.5em; line-height: 1.5; }
.dpsym-front table { border-collapse: collapse; margin: 0.8em 0; }
.dpsym-front th, .dpsym-front td { border: 1px solid #d9dee3; padding: 0.3em 0.6em;
                                   text-align: left; vertical-align: top; }
.dpsym-front .sev { font-size: 0.85em; padding: 0.05em 0.4em; border-radius: 0.3em;
                    background: #eef1f4; white-space: nowrap; }
"""


def chapter_title(path: Path) -> str:
    """The first Markdown heading of a notebook (its file name if none)."""
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return path.stem


def sections() -> list[tuple[str, str, list[Path]]]:
    """(folder, heading, chapters) for the registry's papers, then any other folder."""
    from dpsym.papers import registry

    out = []
    seen = set()
    for p in registry.PAPERS:
        folder = NOTEBOOKS / p.chapters
        chapters = sorted(folder.glob("*.ipynb"))
        if chapters:
            heading = "Foundations" if p.id == "core" else f"{p.short}: {p.title}"
            out.append((p.chapters, heading, chapters))
            seen.add(p.chapters)
    for folder in sorted(d for d in NOTEBOOKS.iterdir() if d.is_dir()):
        if folder.name not in seen and not folder.name.startswith("."):
            chapters = sorted(folder.glob("*.ipynb"))
            if chapters:
                out.append((folder.name, chapter_title(chapters[0]), chapters))
    return out


def _nav(prefix: str, prev: tuple[str, str] | None, nxt: tuple[str, str] | None) -> str:
    parts = [f'<a href="{prefix}index.html">dpsym book</a>']
    if prev:
        parts.append(f'<a href="{prefix}{prev[0]}">&larr; {html.escape(prev[1])}</a>')
    if nxt:
        parts.append(f'<a href="{prefix}{nxt[0]}">{html.escape(nxt[1])} &rarr;</a>')
    return '<nav class="dpsym-nav">' + "".join(parts) + "</nav>"


def _offline(page: str) -> str:
    """Remove what would reach the network: require.js and the mermaid loader, both from a
    CDN, which no chapter uses (no widgets, no diagrams)."""
    page = re.sub(r'<script src="https://[^"]*require[^"]*"></script>', "", page)
    page = re.sub(r'<script type="module">(?:(?!</script>).)*?mermaid.*?</script>', "", page,
                  flags=re.S)
    return page


def render(path: Path, out: Path, nav: str, depth: int) -> None:
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab")
    exporter.mathjax_url = "../" * depth + f"mathjax/MathJax.js?config={MATHJAX_CONFIG}"
    body, _ = exporter.from_filename(str(path))
    body = re.sub(r'href="([^":]+?)\.ipynb(#[^"]*)?"', r'href="\1.html\2"', body)
    body = body.replace("<body", "<body data-dpsym-chapter", 1)
    body = re.sub(r"(<body[^>]*>)", r"\1" + nav.replace("\\", "\\\\"), body, count=1)
    body = body.replace("</head>", f"<style>{CSS}</style>{MATHJAX_FONTS}</head>", 1)
    out.write_text(_offline(body))


def front_page(secs: list[tuple[str, str, list[Path]]]) -> str:
    from dpsym.claims import SEVERITIES, all_claims
    from dpsym.papers import registry

    esc = html.escape
    rows, details = [], []
    for p in registry.PAPERS:
        sec = next((s for s in secs if s[0] == p.chapters), None)
        if sec is None:
            continue
        claims = all_claims(p.id)
        printed = sum(c.kind in ("table", "text") for c in claims)
        errata = [c for c in claims if c.kind == "erratum"]
        notes = [c for c in claims if c.kind == "note"]
        by_sev = " / ".join(str(sum(c.severity == s for c in errata)) for s in SEVERITIES)
        link = (f'<a href="https://arxiv.org/abs/{p.arxiv}">arXiv:{p.arxiv}</a>'
                if p.arxiv else "")
        name = "Foundations" if p.id == "core" else f"{esc(p.short)}"
        rows.append(f"<tr><td><a href='#{p.id}'>{name}</a></td><td>{link}</td>"
                    f"<td>{len(sec[2])}</td><td>{len(claims)}</td><td>{printed}</td>"
                    f"<td>{by_sev}</td><td>{len(notes)}</td></tr>")
        items = "".join(
            f"<li><a href='{p.chapters}/{ch.stem}.html'>{esc(chapter_title(ch))}</a></li>"
            for ch in sec[2])
        err = "".join(
            f"<li><span class='sev'>{c.severity}</span> <b>{esc(c.ref)}</b>: "
            f"{esc(c.statement)} "
            + (f"(<a href='{p.chapters}/{c.chapter}.html'>{c.chapter}</a>)" if c.chapter
               else "") + "</li>"
            for c in errata)
        title = "Foundations" if p.id == "core" else f"{esc(p.short)}: <i>{esc(p.title)}</i>"
        details.append(
            f"<h2 id='{p.id}'>{title}</h2>"
            + (f"<p>{esc(p.authors)}. {esc(p.venue)} {link}</p>" if p.id != "core" else "")
            + f"<h3>Chapters</h3><ol start='0'>{items}</ol>"
            + (f"<h3>Errata ({len(errata)})</h3><ul>{err}</ul>" if errata else ""))
    for folder, heading, chapters in secs:
        if folder in {p.chapters for p in registry.PAPERS}:
            continue
        items = "".join(f"<li><a href='{folder}/{ch.stem}.html'>{esc(chapter_title(ch))}</a>"
                        f"</li>" for ch in chapters)
        details.append(f"<h2 id='{folder}'>{esc(heading)}</h2><ol start='0'>{items}</ol>")
    sev_head = " / ".join(s.replace("-", " ") for s in SEVERITIES)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dpsym: the book</title>
<style>{CSS}</style></head>
<body data-dpsym-front>
<nav class="dpsym-nav"><a href="index.html">dpsym book</a></nav>
<main class="dpsym-front">
<h1>dpsym: the privacy theory of noisy gradient methods, recomputed</h1>
<p>Every chapter states a result of a paper, derives or computes it at a stated precision
(mpmath, rounded towards more privacy loss), asserts it, and draws it. Each paper ends with
a chapter of its errata, each with the statement as printed, the correction and the
evidence. Read a chapter next to the paper; run it with <code>make lab</code>.</p>
<table><tr><th>paper</th><th>arXiv</th><th>chapters</th><th>claims</th>
<th>printed numbers checked</th><th>errata: {sev_head}</th><th>notes</th></tr>
{''.join(rows)}</table>
{''.join(details)}
</main></body></html>
"""


def build(out: Path) -> list[Path]:
    import jupyter_server_mathjax

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(Path(jupyter_server_mathjax.__file__).parent / "static", out / "mathjax")
    secs = sections()
    flat = [(folder, ch) for folder, _, chapters in secs for ch in chapters]
    pages = []
    for i, (folder, ch) in enumerate(flat):
        (out / folder).mkdir(exist_ok=True)

        def ref(j: int) -> tuple[str, str] | None:
            if 0 <= j < len(flat):
                f, c = flat[j]
                # "Bok, Su & Altschuler 2024 — 03. NoisyGD ..." -> "03. NoisyGD ..."
                return f"{f}/{c.stem}.html", chapter_title(c).split(" — ")[-1]
            return None

        page = out / folder / f"{ch.stem}.html"
        render(ch, page, _nav("../", ref(i - 1), ref(i + 1)), depth=1)
        pages.append(page)
        print(f"{page.relative_to(out)}", flush=True)
    (out / "index.html").write_text(front_page(secs))
    return [out / "index.html", *pages]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "build" / "book"))
    args = ap.parse_args(argv)
    pages = build(Path(args.out))
    print(f"{len(pages)} pages in {args.out} (open index.html)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
