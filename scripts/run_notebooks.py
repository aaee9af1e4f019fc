"""Execute notebooks top to bottom in place, storing their outputs (``make notebooks``).

Usage: python scripts/run_notebooks.py [PATH ...]   (default: notebooks/)
Stored outputs are nbval's reference: review the diff after running this.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def run(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    elapsed = time.perf_counter() - t0
    nbformat.write(nb, path)
    return elapsed


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("notebooks")]
    paths = sorted(p for r in roots for p in ([r] if r.is_file() else r.rglob("*.ipynb"))
                   if ".ipynb_checkpoints" not in p.parts)
    for p in paths:
        print(f"{p}: {run(p):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
