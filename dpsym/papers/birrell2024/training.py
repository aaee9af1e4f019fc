"""Birrell et al. 2024, Sec. 4.3 and App. H on a CPU: fixed-size vs Poisson DP-SGD.

CPU-scale proxies (:mod:`dpsym.experiments.dpsgd_proxy`: scikit-learn's bundled digits,
a 64-16-10 tanh network, numpy DP-SGD) for the paper's CIFAR-10 training figures:

* Figure 4 (bottom): test accuracy per epoch, FSwoR vs Poisson, 5 sampling seeds
  {0, 1364, 2560, 3000, 4111} (the paper's), mean with a 3-standard-deviation band;
* Figure 5: memory; the per-step peak bytes of the per-example gradient buffer
  (tracemalloc) and the batch-size law (Binomial(|D|, q) for Poisson, a point mass for
  FSwoR): a Poisson run must provision for its largest batch;
* Figure 10: final accuracy over sigma in {3, 4.5, 6, 12} (the paper's values) and over
  |B| in {16, 32, 64, 128} (the paper's {50, ..., 200} scaled to |D| = 1400).

The same clipped per-example gradients give the measured minibatch-gradient variance
against the closed forms of Sec. 4.1 (:func:`variance_rows`).  All outputs are
deterministic (seeded); the paper's absolute numbers are not comparable.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import numpy as np

from dpsym.experiments.dpsgd_proxy import (
    ProxyConfig,
    RunResult,
    VarianceAtTheta,
    gradient_variance,
    init_params,
    run_dpsgd,
    run_seeds,
)
from dpsym.papers.birrell2024 import printed
from dpsym.sampling import batch_size_extremes

__all__ = [
    "BASE",
    "FIGURE_4_SEEDS",
    "FIGURE_10_BATCH_SIZES",
    "FIGURE_10_EPOCHS",
    "FIGURE_10_SIGMAS",
    "AccuracySummary",
    "BatchRange",
    "MemorySummary",
    "figure_4_runs",
    "figure_4_summary",
    "figure_5_batch_range",
    "figure_5_runs",
    "figure_5_summary",
    "figure_10_runs",
    "figure_10_summary",
    "nonprivate_accuracy",
    "variance_rows",
]

#: The proxy's base run: sigma = 6 as in the paper; C = 1, |B| = 64 of |D| = 1400
#: (q = 0.0457), learning rate 0.1, 20 epochs of floor(|D|/|B|) = 21 steps.
BASE = ProxyConfig(sampling="fswor", sigma=6.0, C=1.0, batch_size=64, lr=0.1, epochs=20,
                   hidden=16)
#: The paper's five sampling seeds (Figure 4).
FIGURE_4_SEEDS = (0, 1364, 2560, 3000, 4111)
FIGURE_10_SIGMAS = (3.0, 4.5, 6.0, 12.0)
FIGURE_10_BATCH_SIZES = (16, 32, 64, 128)
_FIGURE_10_SEEDS = (0, 1364, 2560)
FIGURE_10_EPOCHS = 8


@cache
def figure_4_runs() -> dict[str, tuple[RunResult, ...]]:
    """The Figure 4 (bottom) proxy runs: BASE under FSwoR and Poisson, 5 seeds each."""
    return {s: tuple(run_seeds(replace(BASE, sampling=s), FIGURE_4_SEEDS))
            for s in ("fswor", "poisson")}


@cache
def figure_5_runs(epochs: int = 3) -> dict[str, RunResult]:
    """Memory-measured runs (tracemalloc on): BASE for ``epochs`` epochs per scheme."""
    return {s: run_dpsgd(replace(BASE, sampling=s, epochs=epochs, measure_memory=True))
            for s in ("fswor", "poisson")}


@cache
def _final_accuracy(sampling: str, sigma: float, batch_size: int) -> tuple[float, float]:
    base = replace(BASE, epochs=FIGURE_10_EPOCHS, sampling=sampling, sigma=sigma,
                   batch_size=batch_size)
    acc = [r.accuracy[-1] for r in run_seeds(base, _FIGURE_10_SEEDS)]
    return float(np.mean(acc)), float(np.std(acc))


def figure_10_runs() -> dict[str, dict[tuple[str, float], tuple[float, float]]]:
    """Final accuracy (mean, sd over 3 seeds, 8 epochs) for the sigma and |B| sweeps."""
    out: dict[str, dict[tuple[str, float], tuple[float, float]]] = {"sigma": {}, "B": {}}
    for s in ("fswor", "poisson"):
        for sig in FIGURE_10_SIGMAS:
            out["sigma"][(s, sig)] = _final_accuracy(s, sig, BASE.batch_size)
        for b in FIGURE_10_BATCH_SIZES:
            out["B"][(s, b)] = _final_accuracy(s, BASE.sigma, b)
    return out


@cache
def variance_rows() -> tuple[VarianceAtTheta, ...]:
    """Clipped-gradient variance at the initialisation and at the end of the seed-0
    FSwoR run of Figure 4: measured (Monte Carlo over batches) and closed form (21)."""
    theta_end = figure_4_runs()["fswor"][0].theta
    return (
        gradient_variance(init_params(BASE.hidden, BASE.init_seed), "initialisation",
                          BASE.batch_size, BASE.C, BASE.hidden, seed=1),
        gradient_variance(theta_end, f"after {BASE.epochs} epochs", BASE.batch_size, BASE.C,
                          BASE.hidden, seed=2),
    )


# --- summaries the claims and chapter 09 share ------------------------------------------


@dataclass(frozen=True)
class AccuracySummary:
    """Final test accuracy of the Figure 4 (bottom) proxy runs, per scheme: per seed, mean
    and standard deviation over the 5 seeds; ``difference`` = FSwoR mean - Poisson mean."""

    final: dict[str, tuple[float, ...]]
    mean: dict[str, float]
    sd: dict[str, float]
    difference: float


def figure_4_summary() -> AccuracySummary:
    """:func:`figure_4_runs` reduced to the numbers Sec. 4.3 prints for CIFAR-10."""
    final = {s: tuple(float(r.accuracy[-1]) for r in rs) for s, rs in figure_4_runs().items()}
    mean = {s: float(np.mean(v)) for s, v in final.items()}
    sd = {s: float(np.std(v)) for s, v in final.items()}
    return AccuracySummary(final, mean, sd, mean["fswor"] - mean["poisson"])


@cache
def nonprivate_accuracy(epochs: int = 20) -> float:
    """Test accuracy of the proxy trained without noise (sigma = 0) and without clipping
    mattering much (C = 1 as in BASE), FSwoR batches, ``epochs`` epochs, seed 0."""
    return float(run_dpsgd(replace(BASE, sigma=0.0, epochs=epochs)).accuracy[-1])


def figure_10_summary() -> tuple[float, float]:
    """(min, max) over the Figure 10 proxy sweeps of (FSwoR - Poisson mean accuracy) in
    units of the larger of the two seed standard deviations."""
    res = figure_10_runs()
    gaps = [(res[k][("fswor", x)][0] - res[k][("poisson", x)][0])
            / max(res[k][("fswor", x)][1], res[k][("poisson", x)][1])
            for k in res for (s, x) in res[k] if s == "fswor"]
    return min(gaps), max(gaps)


@dataclass(frozen=True)
class MemorySummary:
    """Per-step peak bytes of the per-example gradient buffer in :func:`figure_5_runs`:
    fixed size (mean, relative spread) and Poisson (min, max, correlation with the drawn
    batch size, bytes per example from a linear fit)."""

    fixed_mean: float
    fixed_spread: float
    poisson_min: float
    poisson_max: float
    correlation: float
    bytes_per_example: float
    row_bytes: int


def figure_5_summary() -> MemorySummary:
    """The Figure 5 proxy, reduced: fixed size constant, Poisson proportional to the size."""
    runs = figure_5_runs()
    fs = np.array(runs["fswor"].peak_bytes, dtype=float)
    po = np.array(runs["poisson"].peak_bytes, dtype=float)
    sizes = np.array(runs["poisson"].batch_sizes, dtype=float)
    return MemorySummary(float(fs.mean()), float((fs.max() - fs.min()) / fs.mean()),
                         float(po.min()), float(po.max()), float(np.corrcoef(sizes, po)[0, 1]),
                         float(np.polyfit(sizes, po, 1)[0]), 8 * runs["fswor"].theta.size)


@dataclass(frozen=True)
class BatchRange:
    """Poisson batch sizes over a run at the paper's Figure 5 setting and the memory model
    they imply: median smallest/largest batch (``kmin``, ``kmax``), a 99.9% range, and the
    intercept (MB) of the affine memory a + b k through (|B|, fixed-size MB) and
    (``kmax``, the largest Poisson MB printed)."""

    steps: int
    kmin: int
    kmax: int
    lo999: int
    hi999: int
    intercept_mb: float


def _mb(text: str) -> int:
    return int(text.replace(",", ""))


def figure_5_batch_range(N: int = 50000, B: int = 120, epochs: int = 100,
                         dps: int = 30) -> BatchRange:
    """Can Binomial(|D|, q) batch sizes explain Figure 5's Poisson memory range?"""
    steps = epochs * (N // B)
    kmin, kmax = batch_size_extremes(N, Fraction(B, N), steps, "0.5", dps=dps)
    lo, hi = batch_size_extremes(N, Fraction(B, N), steps, "0.999", dps=dps)
    fixed = _mb(printed.MEMORY_FSWOR_MB.value)
    top = _mb(printed.MEMORY_POISSON_MB.value.split(" to ")[1])
    slope = Fraction(top - fixed, kmax - B)
    return BatchRange(steps, kmin, kmax, lo, hi, float(fixed - B * slope))
