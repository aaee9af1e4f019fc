"""The book (``make book``): every chapter page shows its figures as images and its math.

``test_book_builds`` renders the whole book (nbconvert, no browser) and checks the HTML;
``test_book_in_browser`` opens every page in headless Chromium and checks that MathJax
typeset the math without errors. It runs when Chromium is installed
(``apt-get install chromium``, see the README) and is skipped otherwise.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

pytest.importorskip("nbconvert")
pytest.importorskip("jupyter_server_mathjax")

import build_book  # noqa: E402

IMG = re.compile(r'<img[^>]*src="data:image/png;base64,')


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book")
    pages = build_book.build(out)
    return out, pages


def _stored_images(notebook: Path) -> int:
    cells = json.loads(notebook.read_text())["cells"]
    return sum("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", []))


def test_book_builds(book):
    out, pages = book
    index = (out / "index.html").read_text()
    chapters = [p for p in pages if p.name != "index.html"]
    notebooks = [nb for _, _, chs in build_book.sections() for nb in chs]
    assert len(chapters) == len(notebooks) > 0
    problems = []
    for nb, page in zip(notebooks, chapters, strict=True):
        html = page.read_text()
        rel = page.relative_to(out).as_posix()
        if f"href='{rel}'" not in index and f'href="{rel}"' not in index:
            problems.append(f"{rel}: not linked from the front page")
        if "<Figure size" in html or "&lt;Figure size" in html:
            problems.append(f"{rel}: a figure stored as text")
        want = _stored_images(nb)
        got = len(IMG.findall(html))
        if got != want:
            problems.append(f"{rel}: {got} images in the page, {want} in the notebook")
        if re.search(r'<script[^>]*src="https?://', html):
            problems.append(f"{rel}: loads a script from the network")
        if "../mathjax/MathJax.js" not in html:
            problems.append(f"{rel}: no local MathJax")
    assert (out / "mathjax" / "MathJax.js").exists()
    assert not problems, "\n".join(problems)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which(
    "google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install "
                                             "chromium)")
def test_book_in_browser(book, tmp_path):
    out, pages = book
    problems = []
    for page in pages:
        dom = subprocess.run(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
             "--virtual-time-budget=30000", "--dump-dom", page.as_uri()],
            capture_output=True, text=True, timeout=120).stdout
        rel = page.relative_to(out).as_posix()
        if not dom:
            problems.append(f"{rel}: Chromium returned no DOM")
            continue
        if "<Figure size" in dom:
            problems.append(f"{rel}: a figure shown as text")
        if page.name == "index.html":
            continue
        source = page.read_text()
        if len(IMG.findall(dom)) != len(IMG.findall(source)):
            problems.append(f"{rel}: images lost in the browser")
        # The MathJax configuration (a <script>) spells the delimiters out: look at the text.
        text = re.sub(r"<script.*?</script>", "", source, flags=re.S)
        has_math = re.search(r"\$[^$\n]+\$|\\\(|\\\[", text) is not None
        typeset = dom.count('class="MathJax"') + dom.count('class="MathJax_Display"')
        if has_math and typeset == 0:
            problems.append(f"{rel}: math was not typeset")
        if "Math Processing Error" in dom or "MathJax_Error" in dom.split("</style>")[-1]:
            problems.append(f"{rel}: MathJax reported an error")
    assert not problems, "\n".join(problems)
