"""CPU-time benchmarks quoted in the README and issue notes, dpsym next to its peers.

Usage (peers are timed when importable; install dpsym into the peers' virtualenv)::

    python scripts/bench.py            # RDP grids, PLD time vs width, import time
    python scripts/bench.py --quick    # fewer repeats, no dps 200

Every time is the minimum over repeats of ``time.process_time()`` differences, measured
side by side in this one process.  Tables are printed as Markdown.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from fractions import Fraction

warnings.filterwarnings("ignore")

OPACUS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
DP_ACCOUNTING = [1 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512,
                                                                               1024]
SETTINGS = [("0.01", "1"), ("0.04", "1.5"), (str(Fraction(256, 60000)), "1.1")]
RUNS = [("0.01", "1", 1000), ("0.04", "1.5", 2250), (Fraction(256, 60000), "1.1", 14063)]


def cpu(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def peer_rdp() -> dict[str, Callable]:
    out: dict[str, Callable] = {}
    try:
        import dp_accounting as dpa

        def dpacc(q: float, s: float, orders: list) -> object:
            acc = dpa.rdp.RdpAccountant(orders=orders)
            acc.compose(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)))
            return acc._rdp

        out[f"dp-accounting {version('dp-accounting')}"] = dpacc
    except ImportError:
        pass
    try:
        from opacus.accountants.analysis.rdp import compute_rdp

        out[f"opacus {version('opacus')}"] = lambda q, s, orders: compute_rdp(
            q=q, noise_multiplier=s, steps=1, orders=orders)
    except ImportError:
        pass
    return out


def bench_rdp(repeats: int, dps_list: list[int]) -> None:
    from dpsym.rdp import poisson_gaussian_rdp_curve
    from dpsym.rdp.arb_series import poisson_rdp_enclosures

    peers = peer_rdp()
    print("\n### RDP of the Poisson-subsampled Gaussian over a default grid (CPU ms)\n")
    head = ["grid", "q", "sigma", *(f"dpsym dps={d}" for d in dps_list), *peers,
            *(f"ratio dps={d} / {next(iter(peers)).split()[0]}" for d in dps_list[:2] if peers),
            "min digits at dps=40 (all certified)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for gname, grid in (("Opacus (151)", OPACUS), ("dp-accounting (156)", DP_ACCOUNTING)):
        for q, s in SETTINGS:
            ours = [cpu(lambda d=d, q=q, s=s, g=grid: poisson_gaussian_rdp_curve(q, s, g, dps=d),
                        repeats) for d in dps_list]
            theirs = [cpu(lambda f=f, q=q, s=s, g=grid: f(float(Fraction(q)), float(s), g),
                          max(repeats, 5)) for f in peers.values()]
            ratios = [o / theirs[0] for o in ours[:2]] if theirs else []
            encs = poisson_rdp_enclosures(q, s, grid, dps=40)
            low = min(e.correct_digits() for e in encs)
            digits = f"{low:.1f} ({all(e.certified for e in encs)})"
            row = [gname, q if len(q) < 10 else "256/60000", s,
                   *(f"{1e3 * t:.1f}" for t in ours), *(f"{1e3 * t:.1f}" for t in theirs),
                   *(f"{r:.1f}x" for r in ratios), digits]
            print("| " + " | ".join(row) + " |")


def bench_pld(repeats: int) -> None:
    from dpsym.pld import Factor, PoissonSubsampledGaussianPair, certify_epsilon

    print("\n### PLD: eps(1e-5) interval width against CPU time (seconds)\n")
    try:
        from prv_accountant import PoissonSubsampledGaussianMechanism, PRVAccountant
        have_prv = True
    except ImportError:
        have_prv = False
    print("| run | target width | dpsym width | dpsym interval | dpsym s | "
          "prv-accountant width (2 eps_error) | prv s | prv/dpsym |")
    print("|---|---|---|---|---|---|---|---|")
    for q, s, steps in RUNS[:1] if repeats == 1 else RUNS:
        scen = [[Factor(PoissonSubsampledGaussianPair(Fraction(q), Fraction(s), d), steps)]
                for d in ("remove", "add")]
        widths = [1e-2, 3e-3, 1e-3, 5e-4] if steps <= 1000 else [1e-2, 1e-3]
        for w in widths:
            res: list = []
            t = cpu(lambda w=w, r=res, sc=scen: r.append(certify_epsilon(sc, "1e-5", width=w)), 1)
            iv = res[-1]
            if have_prv:
                def prv(w=w, q=q, s=s, steps=steps) -> object:
                    acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(
                        noise_multiplier=float(s), sampling_probability=float(Fraction(q)))],
                        max_self_compositions=[steps], eps_error=w / 2, delta_error=1e-10)
                    return acc.compute_epsilon(delta=1e-5, num_self_compositions=[steps])
                tp = cpu(prv, 1) if not (steps > 5000 and w < 1e-3) else float("nan")
                ptxt, ratio = f"{tp:.2f}", f"{tp / t:.1f}x"
            else:
                ptxt, ratio = "-", "-"
            print(f"| q={q if len(str(q)) < 10 else '256/60000'}, sigma={s}, T={steps} | {w:g} "
                  f"| {float(iv.width):.2e} | [{float(iv.lower):.5f}, {float(iv.upper):.5f}] "
                  f"| {t:.2f} | {w:g} | {ptxt} | {ratio} |")


def bench_import() -> None:
    code = "import time; t=time.process_time(); import dpsym; print(time.process_time()-t)"
    ts = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=True).stdout) for _ in range(5)]
    code2 = ("import time; t=time.process_time(); from dpsym import poisson_gaussian_rdp; "
             "print(time.process_time()-t)")
    ts2 = [float(subprocess.run([sys.executable, "-c", code2], capture_output=True, text=True,
                                check=True).stdout) for _ in range(5)]
    print(f"\n`import dpsym`: {1e3 * min(ts):.1f} ms CPU (min of 5); "
          f"`from dpsym import poisson_gaussian_rdp`: {1e3 * min(ts2):.0f} ms")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", choices=("rdp", "pld", "import"), default=None)
    args = p.parse_args()
    repeats = 1 if args.quick else 3
    dps_list = [30, 40, 100] if args.quick else [30, 40, 100, 200]
    if args.only in (None, "import"):
        bench_import()
    if args.only in (None, "rdp"):
        bench_rdp(repeats, dps_list)
    if args.only in (None, "pld"):
        bench_pld(repeats)


if __name__ == "__main__":
    main()
