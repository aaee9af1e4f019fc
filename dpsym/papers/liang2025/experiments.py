"""Liang et al. 2025, Sec. 4: the MIA estimator (24), the experiments' noise level, and a
CPU-scale audit in place of the ResNet-18 / CIFAR-10 experiments.

* eq. (24) is :func:`dpsym.experiments.membership_audit.epsilon_from_rates`;
* at the printed setting (n = 10,000, eta = 0.1, sigma_DP = 0.002, C = 20, delta = 1e-5,
  b in {100, .., 1000}, D in {20, 60, 100}; L is not given) every theorem is vacuous:
  :func:`figure_2_setting` tabulates rho_DC, the crossover T* (in epochs) and the
  (eps, delta) of the combined bound at the plotted epochs -- the plateau Fig. 2's
  estimates are read as starts hundreds of thousands of epochs later than plotted;
* :func:`audit_with_bounds` runs the audit of :mod:`dpsym.experiments.membership_audit`
  (DPSGD-GC and DPSGD-DC on scikit-learn's digits) and puts its eps lower bound next to
  the upper bounds for the same run: the paper's (12) and the combined (12)/(14) (the
  latter needs L, unknown for a neural network, so it is shown at assumed values), the
  refined k-step schedule, and the standard RDP accountant of the whole trajectory
  (Mironov, Talwar & Zhang 2019; valid in both adjacency orders, for any loss);
* :func:`utility_vs_D` is Remark 3.13 tried out: training loss and test accuracy against D.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
from mpmath import mpf

from dpsym.experiments.dpsgd_proxy import load_data, test_accuracy
from dpsym.experiments.membership_audit import (
    AuditConfig,
    AuditResult,
    RunConfig,
    audit,
    epsilon_from_rates,
    per_example_losses,
    train,
)
from dpsym.numerics import nstr, precision, to_mpf
from dpsym.papers.liang2025.closed_forms import dp_epsilon, rho_dc, rho_gc, t_star
from dpsym.papers.liang2025.printed import SEC_4
from dpsym.papers.liang2025.refined import refined_bound
from dpsym.rdp.conversions import rdp_to_epsilon
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp

__all__ = [
    "AUDIT_DC",
    "AUDIT_GC",
    "AUDIT_ORDERS",
    "FIG1_BATCHES",
    "FIG2_BATCHES",
    "FIG2_DIAMETERS",
    "UTILITY_DIAMETERS",
    "UTILITY_SIGMAS",
    "AuditComparison",
    "Fig2Row",
    "UtilityRow",
    "accountant_epsilon",
    "audit_results",
    "audit_with_bounds",
    "eq_24",
    "figure_2_setting",
    "utility_results",
    "utility_vs_D",
]

FIG2_BATCHES = tuple(int(x) for x in SEC_4["b_dc"].value.split(","))
FIG2_DIAMETERS = tuple(int(x) for x in SEC_4["D"].value.split(","))
FIG1_BATCHES = tuple(int(x) for x in SEC_4["b_gc"].value.split(","))


def eq_24(fpr: float, fnr: float, delta: float = 1e-5) -> float:
    """Eq. (24): ``max(log((1 - delta - FPR)/FNR), log((1 - delta - FNR)/FPR))`` (Kairouz et
    al. 2015), evaluated by :func:`dpsym.experiments.membership_audit.epsilon_from_rates`."""
    return epsilon_from_rates(fpr, fnr, delta)


@dataclass(frozen=True)
class Fig2Row:
    """The theory at Fig. 2's setting: b, D, L; ``rho_dc``; ``t_star`` (iterations) and
    ``t_star_epochs``; ``eps_at`` {epochs: eps of the combined bound at delta}; the noise
    multiplier ``b sigma / C``."""

    b: int
    D: int
    L: mpf
    rho_dc: mpf
    t_star: mpf
    t_star_epochs: mpf
    eps_at: dict[int, mpf]
    noise_multiplier: mpf


def figure_2_setting(*, L: str = "0.1", epochs: tuple[int, ...] = (1, 50, 400, 1000),
                     dps: int = 30) -> list[Fig2Row]:
    """The bounds at the experiments' printed parameters (Sec. 4), for an assumed L.

    The combined bound ``min(rho_GC(T), rho_DC)`` with T = ceil(n/b) E is converted by the
    optimised Lemma 2.4 (:func:`dpsym.papers.liang2025.closed_forms.dp_epsilon`).
    """
    n = int(SEC_4["n"].value)
    eta, sigma, C, delta = (SEC_4[k].value for k in ("eta", "sigma", "C", "delta"))
    rows = []
    for b in FIG2_BATCHES:
        per_epoch = math.ceil(n / b)
        for D in FIG2_DIAMETERS:
            kw = dict(n=n, b=b, eta=eta, C=C, L=L, D=D)
            rdc = rho_dc(sigma=sigma, dps=dps, **kw)
            ts = t_star(dps=dps, **kw)
            eps = {}
            for E in epochs:
                rho = min(rho_gc(T=per_epoch * E, n=n, b=b, C=C, sigma=sigma, dps=dps), rdc)
                eps[E] = dp_epsilon(rho, delta, dps=dps)[0]
            with precision(dps):
                rows.append(Fig2Row(b, D, to_mpf(L, "L"), rdc, ts, ts / per_epoch, eps,
                                    b * to_mpf(sigma, "sigma") / to_mpf(C, "C")))
    return rows


#: Orders for the standard accountant (integer orders: exact binomial sums).
AUDIT_ORDERS = (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 96, 128)

#: The audited runs: n = 200 digits, b = 20 (q = 0.1), noise multiplier b sigma/C = 0.6,
#: T = 150 steps, 8 hidden units, 200 runs per world (about 6.5 s of CPU each); DC projects
#: on a ball of diameter 12 around theta_0.
AUDIT_GC = AuditConfig(RunConfig(n=200, b=20, eta=0.5, C=1.0, sigma=0.03, T=150, hidden=8),
                       runs=200)
AUDIT_DC = replace(AUDIT_GC, run=replace(AUDIT_GC.run, D=12.0))


def accountant_epsilon(run: RunConfig, delta: float, dps: int = 20) -> mpf:
    """(eps, delta) of the whole trajectory by the Poisson-subsampled Gaussian RDP
    (MTZ19) composed over T steps, noise multiplier ``b sigma / C``, converted by Balle et
    al. 2020 over :data:`AUDIT_ORDERS` (rounded up).  Valid for both adjacency orders and
    any loss; the projection is post-processing."""
    # exact rationals (floats by their binary value): the accountant converts them itself
    q = Fraction(run.b, run.n)
    z = run.b * Fraction(run.sigma) / Fraction(run.C)
    rdp = [poisson_gaussian_rdp(q, z, a, steps=run.T, dps=dps) for a in AUDIT_ORDERS]
    return rdp_to_epsilon(AUDIT_ORDERS, rdp, delta, dps=dps)[0]


@dataclass(frozen=True)
class AuditComparison:
    """The audit next to the upper bounds for the same run (all at ``result.delta``).

    ``eps_accountant``: standard RDP accountant (valid); ``eps_eq12``: Thm 3.3 (12) with
    the optimal beta and Lemma 2.4 (proved in one adjacency order only); ``eps_combined``
    and ``eps_refined``: {assumed L: eps} of min((12), (14)) and of the k-step refinement
    (DC runs only; L of the network is unknown)."""

    name: str
    result: AuditResult
    eps_accountant: mpf
    eps_eq12: mpf
    eps_combined: dict[str, mpf]
    eps_refined: dict[str, mpf]

    def summary(self) -> str:
        r = self.result
        parts = [f"{self.name}: eps_hat = {r.eps_hat:.3f}, {r.confidence:.0%} CI "
                 f"[{r.eps_lower:.3f}, {r.eps_upper:.3f}] (FP {r.false_pos}/{r.n_out}, "
                 f"FN {r.false_neg}/{r.n_in})",
                 f"  accountant (MTZ19) eps <= {nstr(self.eps_accountant, 5)}",
                 f"  Thm 3.3 (12)       eps <= {nstr(self.eps_eq12, 5)}"]
        for L, v in self.eps_combined.items():
            parts.append(f"  min((12),(14)), L = {L}: eps <= {nstr(v, 5)}; refined: "
                         f"{nstr(self.eps_refined[L], 5)}")
        return "\n".join(parts)


def audit_with_bounds(cfg: AuditConfig, name: str = "audit",
                      L_assumed: tuple[str, ...] = ("1", "10"), dps: int = 20
                      ) -> AuditComparison:
    """Run the audit and evaluate every upper bound for the same run."""
    res = audit(cfg)
    run = cfg.run
    acc = accountant_epsilon(run, cfg.delta, dps=dps)
    g = rho_gc(T=run.T, n=run.n, b=run.b, C=run.C, sigma=run.sigma, dps=dps)
    e12 = dp_epsilon(g, cfg.delta, dps=dps)[0]
    comb, ref = {}, {}
    if run.D is not None:
        for L in L_assumed:
            kw = dict(n=run.n, b=run.b, eta=run.eta, C=run.C, sigma=run.sigma, L=L, D=run.D,
                      dps=dps)
            comb[L] = dp_epsilon(min(g, rho_dc(**kw)), cfg.delta, dps=dps)[0]
            ref[L] = dp_epsilon(refined_bound(T=run.T, **kw).rho, cfg.delta, dps=dps)[0]
    return AuditComparison(name, res, acc, e12, comb, ref)


@dataclass(frozen=True)
class UtilityRow:
    """Remark 3.13 on the proxy: D (None = DPSGD-GC), sigma, mean and sd over seeds of the
    final training loss and test accuracy."""

    D: float | None
    sigma: float
    loss_mean: float
    loss_sd: float
    acc_mean: float
    acc_sd: float


def utility_vs_D(*, sigma: float, diameters: tuple[float | None, ...] = (4, 8, 16, 32, None),
                 seeds: int = 5, T: int = 300, b: int = 64, eta: float = 1.0, C: float = 1.0,
                 hidden: int = 16) -> list[UtilityRow]:
    """Train DPSGD-DC on all 1400 training digits for each D (seeded) and record the final
    training loss and the test accuracy (Remark 3.13: smaller D, better utility?)."""
    data = load_data()
    X, y = data.X_train, data.y_train
    rows = []
    for D in diameters:
        cfg = RunConfig(n=len(y), b=b, eta=eta, C=C, sigma=sigma, T=T, D=D, hidden=hidden)
        losses, accs = [], []
        for s in range(seeds):
            th = train(cfg, X, y, s)
            losses.append(float(per_example_losses(th, X, y, hidden).mean()))
            accs.append(test_accuracy(th, data, hidden))
        rows.append(UtilityRow(D, sigma, float(np.mean(losses)), float(np.std(losses)),
                               float(np.mean(accs)), float(np.std(accs))))
    return rows



@functools.cache
def audit_results() -> tuple[AuditComparison, AuditComparison]:
    """The two audits of the chapter and the ledger, :data:`AUDIT_GC` and :data:`AUDIT_DC`,
    each with its upper bounds (cached: about 6.5 s of CPU each)."""
    return (audit_with_bounds(AUDIT_GC, "DPSGD-GC"), audit_with_bounds(AUDIT_DC, "DPSGD-DC"))


#: Noise levels of the utility study: noise multipliers b sigma / C = 1 and 12.8 at b = 64.
UTILITY_SIGMAS = (0.015625, 0.2)
UTILITY_DIAMETERS = (4.0, 8.0, 16.0, 32.0, None)


@functools.cache
def utility_results() -> tuple[UtilityRow, ...]:
    """:func:`utility_vs_D` at both :data:`UTILITY_SIGMAS`, 3 seeds each (cached)."""
    rows: list[UtilityRow] = []
    for sigma in UTILITY_SIGMAS:
        rows += utility_vs_D(sigma=sigma, diameters=UTILITY_DIAMETERS, seeds=3)
    return tuple(rows)
