"""Tables 5 and 6 of Bok, Su & Altschuler 2024 (App. D.2) on MNIST: NoisyCGD and NoisySGD,
lambda in {0.002, 0.004}, accuracy after 50, 100 and 200 epochs over 10 seeds, and the time.

Usage::

    DPSYM_MNIST_DIR=/path/to/idx python scripts/bok2024_mnist_training.py [--seeds N]

The folder holds the four IDX files (``train-images-idx3-ubyte`` etc., optionally gzipped);
nothing is downloaded.  Hours on 2 cores with the paper's 10 seeds.  The paper's numbers are
printed next to each cell as the reference (another machine's runs).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from dpsym.papers.bok2024 import noisysgd_training as training
from dpsym.papers.bok2024 import printed


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mnist-dir", default=os.environ.get("DPSYM_MNIST_DIR"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--lambdas", default="0.002,0.004")
    a = ap.parse_args(argv)
    if not a.mnist_dir:
        print("set DPSYM_MNIST_DIR or --mnist-dir to a folder of MNIST IDX files", file=sys.stderr)
        return 2
    lambdas = tuple(float(x) for x in a.lambdas.split(","))
    t0 = time.perf_counter()
    out = training.mnist_tables_5_6(a.mnist_dir, seeds=tuple(range(a.seeds)), lambdas=lambdas)
    col = {("NoisyCGD", 0.002): 0, ("NoisyCGD", 0.004): 1, ("NoisySGD", 0.002): 2,
           ("NoisySGD", 0.004): 3}
    for (alg, lam), r in out.items():
        for kind, table in (("train", printed.TABLE_5), ("test", printed.TABLE_6)):
            for E, (m, s) in r[kind].items():
                ref = table[E][col[(alg, lam)]].value if (alg, lam) in col else "-"
                print(f"{alg} lambda={lam} {kind} E={E}: {m:.2f} ± {s:.2f}   (paper: {ref})")
    print(f"wall time: {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
