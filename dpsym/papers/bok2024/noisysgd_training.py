"""Private training (Sec. 4.4, App. D.2; Tables 2, 5, 6): accuracy at a fixed privacy budget,
with the budget spent according to dpsym's own accounting of each algorithm.

The paper trains regularised logistic regression on MNIST with NoisyCGD and NoisySGD and
reports accuracy after E in {50, 100, 200} epochs (Tables 2, 5, 6), next to the privacy of
each E under each accountant (Tables 1, 3, 4).  Its point: a tighter accountant allows more
epochs for the same (eps, delta), and more epochs give better accuracy.

:func:`budget_table` reproduces that shape: for a budget eps at delta it finds, for each
(algorithm, accountant) pair, the largest number of epochs whose *certified* eps is within the
budget, trains for that long (several seeds) and reports the accuracy.  The accountants:

* NoisyCGD, Thm 4.4 (GDP composition) and Thm 4.5 (shifted interpolation, c = 1 - eta lambda
  from Lemma 2.8 with m = lambda and M the smoothness bound of
  :func:`dpsym.experiments.private_training.smoothness`, eta < 2/M checked);
* NoisySGD, Thm 4.8 (composition of C_p(G(L/(b sigma))), certified interval, upper end used).

The CI configuration (:data:`DIGITS`) runs on scikit-learn's digits in seconds; the paper's
MNIST configuration (:data:`MNIST_TRAINING`) needs the IDX files (``DPSYM_MNIST_DIR``) and
hours (:func:`mnist_tables_5_6`).  The paper's MNIST accuracies are references, not claims.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.experiments.private_training import (
    Dataset,
    TrainingConfig,
    load_dataset,
    smoothness,
    train_runs,
)
from dpsym.fdp import gdp_epsilon
from dpsym.numerics import precision
from dpsym.papers.bok2024.noisycgd import thm_4_4, thm_4_5
from dpsym.papers.bok2024.noisysgd import thm_4_8
from dpsym.papers.bok2024.noisysgd_accounting import noisysgd_epsilon_interval
from dpsym.papers.registry import cite

__all__ = [
    "ACCOUNTANTS",
    "DIGITS",
    "MNIST_TRAINING",
    "BudgetRow",
    "accountant_epsilon",
    "budget_table",
    "epochs_table",
    "max_epochs",
    "mnist_tables_5_6",
]

PAPER = "bok2024"

#: (algorithm, accountant) pairs compared at a fixed budget.
ACCOUNTANTS = (("NoisyCGD", "Thm 4.4"), ("NoisyCGD", "Thm 4.5"), ("NoisySGD", "Thm 4.8"))

#: The CI configuration (ours, on the 1500 training digits): l = 15 batches of b = 100,
#: L/(b sigma) = 0.4 per step, eta < 2/M for M = (C^2 + 1)/2 + lambda = 2.51.
DIGITS = {"config": TrainingConfig(b=100, eta=0.5, sigma=0.05, L=2.0, C=2.0, lam=0.01),
          "budget": "2", "delta": "1e-5", "cap": 100, "seeds": (0, 1, 2, 3, 4),
          "epochs": (5, 10, 25, 50, 100)}

#: App. D.2: MNIST, C = 8, eta = 0.05, b = 1500, sigma = 1/100, L = 10, lambda in {0.002,
#: 0.004}, E in {50, 100, 200}, 10 runs.
MNIST_TRAINING = {"config": TrainingConfig(b=1500, eta=0.05, sigma=0.01, L=10.0, C=8.0,
                                           lam=0.002),
                  "lambdas": (0.002, 0.004), "epochs": (50, 100, 200), "seeds": tuple(range(10))}


def accountant_epsilon(algorithm: str, accountant: str, config: TrainingConfig, n: int, E: int,
                       delta: str = "1e-5", width: float = 1e-2) -> tuple[float, float]:
    """A certified (lower, upper) eps(delta) of ``E`` epochs of ``config`` on n examples.

    GDP bounds are exact curves (lower = upper, Lemma A.3 rounded up); Thm 4.8 is composed
    numerically (:func:`noisysgd_epsilon_interval`, width <= ``width``).
    """
    ref = cite(PAPER, "Sec. 4.4")
    E = require_integer("E", E, ref, minimum=1)
    l = n // config.b
    if (algorithm, accountant) == ("NoisyCGD", "Thm 4.4"):
        mu = thm_4_4(config.L, config.b, config.sigma, E, dps=30)
    elif (algorithm, accountant) == ("NoisyCGD", "Thm 4.5"):
        M = smoothness(config.C, config.lam)
        mu = thm_4_5(config.L, config.b, config.sigma, config.eta, config.lam, M, l, E, dps=30)
    elif (algorithm, accountant) == ("NoisySGD", "Thm 4.8"):
        iv = noisysgd_epsilon_interval(thm_4_8(config.L, config.b, n, config.sigma, l * E),
                                       delta, width=width)
        return iv.lower, iv.upper
    else:
        raise ValueError(f"(algorithm, accountant)={(algorithm, accountant)} violates "
                         f"one of {ACCOUNTANTS} ({ref})")
    eps = gdp_epsilon(mu, delta, dps=30)
    with precision(30):
        up = eps + mpf(10) ** -15
    return float(eps), float(up)


def max_epochs(algorithm: str, accountant: str, config: TrainingConfig, n: int, budget: str,
               delta: str = "1e-5", cap: int = 100) -> int:
    """The largest E <= cap whose certified eps (upper end) is <= budget (0 if none), by
    bisection (eps grows with E for every accountant here)."""
    b = float(budget)

    def ok(E: int) -> bool:
        return accountant_epsilon(algorithm, accountant, config, n, E, delta)[1] <= b

    if not ok(1):
        return 0
    if ok(cap):
        return cap
    lo, hi = 1, cap
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


@dataclass(frozen=True)
class BudgetRow:
    """One (algorithm, accountant) at the budget: epochs allowed, their certified eps, and the
    mean and standard deviation of train/test accuracy over the seeds."""

    algorithm: str
    accountant: str
    epochs: int
    epsilon: tuple[float, float]
    train: tuple[float, float]
    test: tuple[float, float]


def _stats(values: list[float]) -> tuple[float, float]:
    a = np.asarray(values)
    return float(a.mean()), float(a.std(ddof=1)) if a.size > 1 else 0.0


def budget_table(data: Dataset | None = None, setting: dict | None = None) -> list[BudgetRow]:
    """Table 2's shape at a fixed budget: for each pair of :data:`ACCOUNTANTS`, the epochs
    allowed by eps <= budget (certified) and the accuracy after training that long."""
    s = DIGITS if setting is None else setting
    data = load_dataset() if data is None else data
    rows = []
    for alg, acc in ACCOUNTANTS:
        cfg = replace(s["config"], algorithm=alg)
        E = max_epochs(alg, acc, cfg, data.n, s["budget"], s["delta"], s["cap"])
        require(E >= 1, "budget", s["budget"], f"a budget that allows one epoch ({alg}, {acc})",
                cite(PAPER, "Sec. 4.4"))
        eps = accountant_epsilon(alg, acc, cfg, data.n, E, s["delta"])
        runs = train_runs(replace(cfg, epochs=E), data, s["seeds"])
        rows.append(BudgetRow(alg, acc, E, eps, _stats([r.train_accuracy[-1] for r in runs]),
                              _stats([r.test_accuracy[-1] for r in runs])))
    return rows


def epochs_table(data: Dataset | None = None, setting: dict | None = None
                 ) -> dict[str, dict[int, tuple[float, float]]]:
    """Tables 5/6's shape: mean test accuracy (and sd) of NoisyCGD and NoisySGD after each
    E in ``setting["epochs"]`` (one run per seed, recorded along the way)."""
    s = DIGITS if setting is None else setting
    data = load_dataset() if data is None else data
    out = {}
    for alg in ("NoisyCGD", "NoisySGD"):
        cfg = replace(s["config"], algorithm=alg, epochs=max(s["epochs"]))
        runs = train_runs(cfg, data, s["seeds"], record=s["epochs"])
        out[alg] = {E: _stats([r.test_accuracy[i] for r in runs])
                    for i, E in enumerate(runs[0].epochs)}
    return out


def mnist_tables_5_6(mnist_dir: str | None = None, seeds: tuple[int, ...] | None = None,
                     lambdas: tuple[float, ...] | None = None
                     ) -> dict[tuple[str, float], dict[str, object]]:
    """Tables 5 and 6 on MNIST (App. D.2 setting): for each algorithm and lambda, mean and sd
    of training and test accuracy after 50, 100 and 200 epochs over the seeds, and the wall
    time.  Needs the IDX files (argument or ``DPSYM_MNIST_DIR``); hours on 2 cores."""
    s = MNIST_TRAINING
    data = load_dataset(mnist_dir)
    require(data.name.startswith("MNIST"), "mnist_dir", mnist_dir,
            "a directory of MNIST IDX files (or DPSYM_MNIST_DIR)", cite(PAPER, "App. D.2"))
    out = {}
    for alg in ("NoisyCGD", "NoisySGD"):
        for lam in s["lambdas"] if lambdas is None else lambdas:
            cfg = replace(s["config"], algorithm=alg, lam=lam, epochs=max(s["epochs"]))
            runs = train_runs(cfg, data, s["seeds"] if seeds is None else seeds,
                              record=s["epochs"])
            out[(alg, lam)] = {
                "train": {E: _stats([100 * r.train_accuracy[i] for r in runs])
                          for i, E in enumerate(runs[0].epochs)},
                "test": {E: _stats([100 * r.test_accuracy[i] for r in runs])
                         for i, E in enumerate(runs[0].epochs)},
                "seconds": runs[0].seconds}
    return out
