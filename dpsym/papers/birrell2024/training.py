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

from dataclasses import replace
from functools import cache

import numpy as np
from matplotlib.figure import Figure

from dpsym.experiments.dpsgd_proxy import (
    ProxyConfig,
    RunResult,
    VarianceAtTheta,
    gradient_variance,
    init_params,
    load_data,
    run_dpsgd,
    run_seeds,
)
from dpsym.figures import figure, new_figure
from dpsym.sampling import batch_size_law

__all__ = [
    "BASE",
    "FIGURE_4_SEEDS",
    "FIGURE_10_BATCH_SIZES",
    "FIGURE_10_SIGMAS",
    "figure_4_bottom_proxy",
    "figure_4_runs",
    "figure_5_proxy",
    "figure_5_runs",
    "figure_10_proxy",
    "figure_10_runs",
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
_FIGURE_10_EPOCHS = 8
_COLORS = {"fswor": "#1b6ca8", "poisson": "#d1495b", "fswr": "#2e8b57"}
_LABELS = {"fswor": "fixed size (FSwoR)", "poisson": "Poisson", "fswr": "fixed size (FSwR)"}


@cache
def figure_4_runs() -> dict[str, tuple[RunResult, ...]]:
    """The Figure 4 (bottom) proxy runs: BASE under FSwoR and Poisson, 5 seeds each."""
    return {s: tuple(run_seeds(replace(BASE, sampling=s), FIGURE_4_SEEDS))
            for s in ("fswor", "poisson")}


@figure("birrell2024", "figure_4_bottom_proxy",
        "Figure 4 (bottom), CPU proxy: test accuracy of DP-SGD, fixed size vs Poisson")
def figure_4_bottom_proxy() -> Figure:
    """Mean test accuracy per epoch over the 5 seeds with a 3-sd band (as in the paper)."""
    runs = figure_4_runs()
    fig, ax = new_figure(width=5.0, height=3.6)
    for s, rs in runs.items():
        acc = np.array([r.accuracy for r in rs])
        m, sd = acc.mean(axis=0), acc.std(axis=0)
        ep = np.arange(acc.shape[1])
        ax.plot(ep, m, color=_COLORS[s], label=f"{_LABELS[s]}: final {m[-1]:.3f}")
        ax.fill_between(ep, np.clip(m - 3 * sd, 0, 1), np.clip(m + 3 * sd, 0, 1),
                        color=_COLORS[s], alpha=0.15, linewidth=0)
    ax.set_xlabel("epoch")
    ax.set_ylabel("test accuracy")
    ax.set_ylim(0, 1)
    ax.set_title(rf"digits proxy, $\sigma$={BASE.sigma:g}, C={BASE.C:g}, "
                 f"|B|={BASE.batch_size}, 5 seeds")
    ax.legend(loc="lower right")
    return fig


@cache
def figure_5_runs(epochs: int = 3) -> dict[str, RunResult]:
    """Memory-measured runs (tracemalloc on): BASE for ``epochs`` epochs per scheme."""
    return {s: run_dpsgd(replace(BASE, sampling=s, epochs=epochs, measure_memory=True))
            for s in ("fswor", "poisson")}


@figure("birrell2024", "figure_5_proxy",
        "Figure 5, CPU proxy: per-step peak memory of the per-example gradients")
def figure_5_proxy() -> Figure:
    """Left: per-step peak bytes (kB) of the per-example gradient computation (3 epochs).
    Right: the exact batch-size law (Binomial(|D|, q) vs the point mass at |B|) and the
    Poisson sizes drawn in the Figure 4 runs."""
    runs = figure_5_runs()
    fig, (ax, bx) = new_figure(ncols=2, width=4.4, height=3.4)
    for s, r in runs.items():
        kb = np.array(r.peak_bytes) / 1024
        ax.plot(np.arange(1, len(kb) + 1), kb, color=_COLORS[s], marker=".", markersize=3,
                linewidth=1, label=f"{_LABELS[s]}: max {kb.max():.0f} kB")
    ax.set_xlabel("step")
    ax.set_ylabel("peak memory of per-example gradients [kB]")
    ax.set_title("memory per step")
    ax.legend(loc="upper left", fontsize=8)
    N = len(load_data().y_train)
    law = batch_size_law("poisson", N, BASE.batch_size)
    ks = np.arange(BASE.batch_size - 40, BASE.batch_size + 41)
    bx.bar(ks, [float(law[int(k)]) for k in ks], width=1.0, color=_COLORS["poisson"],
           alpha=0.35, label=f"Binomial({N}, {BASE.batch_size}/{N})")
    sizes = np.concatenate([r.batch_sizes for r in figure_4_runs()["poisson"]])
    counts = np.bincount(sizes, minlength=ks.max() + 1)[ks] / len(sizes)
    bx.plot(ks, counts, "o", color=_COLORS["poisson"], markersize=3,
            label=f"Poisson sizes drawn (Figure 4 runs, {len(sizes)} steps)")
    bx.axvline(BASE.batch_size, color=_COLORS["fswor"], label=f"fixed size {BASE.batch_size}")
    bx.set_xlabel("batch size")
    bx.set_ylabel("probability")
    bx.set_title("batch-size law")
    bx.legend(fontsize=7)
    return fig


@cache
def _final_accuracy(sampling: str, sigma: float, batch_size: int) -> tuple[float, float]:
    base = replace(BASE, epochs=_FIGURE_10_EPOCHS, sampling=sampling, sigma=sigma,
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


@figure("birrell2024", "figure_10_proxy",
        "Figure 10, CPU proxy: accuracy sensitivity to sigma and |B|, fixed size vs Poisson")
def figure_10_proxy() -> Figure:
    """Final test accuracy (mean +- sd, 3 seeds, 8 epochs): (a) over sigma at |B| = 64,
    (b) over |B| at sigma = 6."""
    res = figure_10_runs()
    fig, (ax, bx) = new_figure(ncols=2, width=4.2, height=3.4)
    for panel, key, xs, xlabel in ((ax, "sigma", FIGURE_10_SIGMAS, r"noise multiplier $\sigma$"),
                                   (bx, "B", FIGURE_10_BATCH_SIZES, "batch size |B|")):
        for k, s in enumerate(("fswor", "poisson")):
            m = [res[key][(s, x)][0] for x in xs]
            sd = [res[key][(s, x)][1] for x in xs]
            shift = (k - 0.5) * 0.03  # side by side, in log-x units
            panel.errorbar(np.array(xs) * 10**shift, m, yerr=sd, color=_COLORS[s],
                           marker="o", markersize=4, capsize=3, label=_LABELS[s])
        panel.set_xscale("log")
        panel.set_xticks(xs, [f"{x:g}" for x in xs])
        panel.minorticks_off()
        panel.set_xlabel(xlabel)
        panel.set_ylabel(f"test accuracy after {_FIGURE_10_EPOCHS} epochs")
        panel.set_ylim(0, 1)
        panel.legend(loc="lower left", fontsize=8)
    ax.set_title(f"(a) |B| = {BASE.batch_size}")
    bx.set_title(rf"(b) $\sigma$ = {BASE.sigma:g}")
    return fig


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
