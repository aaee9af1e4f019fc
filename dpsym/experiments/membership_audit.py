"""Empirical privacy auditing of DP-SGD by membership inference, at CPU scale (numpy only).

A loss-threshold membership-inference attack turned into a *lower* bound on epsilon,
to be read next to a theoretical *upper* bound for the same run.

Mechanism.  DP-SGD with per-example clipping and, optionally, projection onto a ball
(DPSGD-GC / DPSGD-DC of Liang et al. 2025, eq. (7)):

    theta_{t+1} = Pi_K( theta_t - eta ( (1/b) sum_{i in B_t} clip_C(grad l_i(theta_t)) + zeta_t ) ),
    zeta_t ~ N(0, sigma^2 I),  B_t Poisson with rate q = b/n,

K = R^d (GC) or the ball of diameter D centred at theta_0 (DC).  The model is the
one-hidden-layer tanh network on scikit-learn's bundled 8x8 digits of
:mod:`dpsym.experiments.dpsgd_proxy` (its data, initialisation and per-example
gradients are reused); theta_0 is a fixed seeded initialisation, the same in every run.

Audit (the hypothesis-testing view of DP, Kairouz, Oh & Viswanath 2015).  Fix a dataset
D of n training points and a canary x.  Train ``runs`` models on D ("out") and ``runs``
on D' = D u {x} ("in"), each with fresh sampling/noise seeds; the sampling rate q = b/n
is the same in both worlds.  The attack says "in" when the canary's loss at the last
iterate is below a threshold tau.  Any (eps, delta)-DP mechanism has, for every test,

    FPR + e^eps FNR >= 1 - delta   and   e^eps FPR + FNR >= 1 - delta,

so ``eps >= max(log((1 - delta - FPR)/FNR), log((1 - delta - FNR)/FPR))`` (eq. (24) of
Liang et al., who apply it to attack-model rates).  The threshold is chosen on one half
of the runs and the rates are measured on the other half, with Clopper-Pearson intervals
(each at confidence 1 - (1 - conf)/2, a union bound over the two rates); the lower end of
the resulting interval for eps is a lower bound that holds with probability >= conf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import beta as beta_dist

from dpsym.errors import require, require_integer
from dpsym.experiments.dpsgd_proxy import (
    Data,
    class_probabilities,
    clip_factors,
    init_params,
    load_data,
    per_example_gradients,
)

__all__ = [
    "AuditConfig",
    "AuditResult",
    "RunConfig",
    "audit",
    "audit_from_losses",
    "canary",
    "clopper_pearson",
    "epsilon_from_rates",
    "per_example_losses",
    "project_ball",
    "run_losses",
    "subset",
    "train",
]

_REF = "dpsym membership audit"


def epsilon_from_rates(fpr: float, fnr: float, delta: float) -> float:
    """The epsilon a test with these error rates certifies (Kairouz et al. 2015, Thm 2.1):
    ``max(log((1 - delta - FPR)/FNR), log((1 - delta - FNR)/FPR), 0)``.

    A zero rate with a positive numerator gives ``inf`` (the data cannot bound eps).

    >>> round(epsilon_from_rates(0.1, 0.3, 1e-5), 6)
    1.945896
    """
    require(0 <= fpr <= 1 and 0 <= fnr <= 1, "fpr", (fpr, fnr), "rates in [0, 1]", _REF)
    require(0 <= delta < 1, "delta", delta, "0 <= delta < 1", _REF)
    best = 0.0
    for num, den in ((1 - delta - fpr, fnr), (1 - delta - fnr, fpr)):
        if num <= 0:
            continue
        best = max(best, math.inf if den == 0 else math.log(num / den))
    return best


def clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval for a binomial proportion (k successes of n)."""
    k = require_integer("k", k, _REF, minimum=0)
    n = require_integer("n", n, _REF, minimum=1)
    require(k <= n, "k", k, f"k <= n = {n}", _REF)
    require(0 < confidence < 1, "confidence", confidence, "0 < confidence < 1", _REF)
    a = 1 - confidence
    lo = 0.0 if k == 0 else float(beta_dist.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta_dist.ppf(1 - a / 2, k + 1, n - k))
    return lo, hi


# --- the mechanism -----------------------------------------------------------------------------

@dataclass(frozen=True)
class RunConfig:
    """One DP-SGD run in the paper's symbols: n (size of D; q = b/n), b, eta, C, sigma
    (sigma_DP, on the averaged gradient), T, D (diameter of the ball K; None: DPSGD-GC),
    hidden units and the initialisation seed (theta_0, common to all runs)."""

    n: int
    b: int
    eta: float
    C: float
    sigma: float
    T: int
    D: float | None = None
    hidden: int = 16
    init_seed: int = 0

    def __post_init__(self) -> None:
        require_integer("n", self.n, _REF, minimum=1)
        require_integer("b", self.b, _REF, minimum=1)
        require(self.b <= self.n, "b", self.b, f"b <= n = {self.n}", _REF)
        require_integer("T", self.T, _REF, minimum=1)
        require(self.eta > 0, "eta", self.eta, "eta > 0", _REF)
        require(self.C > 0, "C", self.C, "C > 0", _REF)
        require(self.sigma > 0, "sigma", self.sigma, "sigma > 0", _REF)
        require(self.D is None or self.D > 0, "D", self.D, "D > 0 or None", _REF)


def project_ball(theta: np.ndarray, centre: np.ndarray, D: float | None) -> np.ndarray:
    """Projection onto the closed ball of diameter D centred at ``centre`` (None: identity)."""
    if D is None:
        return theta
    r = float(np.linalg.norm(theta - centre))
    return theta if r <= D / 2 else centre + (theta - centre) * (D / 2 / r)


def per_example_losses(theta: np.ndarray, X: np.ndarray, y: np.ndarray,
                       hidden: int = 16) -> np.ndarray:
    """Cross-entropy of each example under the proxy network (:mod:`.dpsgd_proxy`)."""
    p = class_probabilities(theta, X, hidden)
    return -np.log(np.maximum(p[np.arange(len(y)), y], 1e-300))


def train(cfg: RunConfig, X: np.ndarray, y: np.ndarray, seed: int,
          rate_n: int | None = None) -> np.ndarray:
    """theta_T of DPSGD-GC/DC (eq. (7)) on (X, y), Poisson rate q = b / rate_n (default n).

    ``rate_n`` fixes q across the two worlds of an audit (D and D u {x} share q = b/n).
    """
    rng = np.random.default_rng(seed)
    theta0 = init_params(cfg.hidden, cfg.init_seed)
    theta = theta0.copy()
    m = len(y)
    q = cfg.b / (cfg.n if rate_n is None else rate_n)
    for _ in range(cfg.T):
        idx = np.flatnonzero(rng.random(m) < q)
        total = np.zeros_like(theta)
        if idx.size:
            G = per_example_gradients(theta, X[idx], y[idx], cfg.hidden)
            total = clip_factors(G, cfg.C) @ G
        noise = rng.normal(0.0, cfg.sigma, size=theta.size)
        theta = project_ball(theta - cfg.eta * (total / cfg.b + noise), theta0, cfg.D)
    return theta


def subset(n: int, seed: int = 0, data: Data | None = None) -> tuple[np.ndarray, np.ndarray]:
    """n training points of the digits (seeded choice)."""
    data = load_data() if data is None else data
    require(1 <= n <= len(data.y_train), "n", n, f"1 <= n <= {len(data.y_train)}", _REF)
    idx = np.random.default_rng(seed).choice(len(data.y_train), size=n, replace=False)
    return data.X_train[idx], data.y_train[idx]


def canary(kind: str = "blank_pixels", data: Data | None = None,
           value: float = 20.0) -> tuple[np.ndarray, int]:
    """The audited point x (with its label).

    ``"blank_pixels"``: zero except ``value`` on the pixels that are constant over the whole
    training set (3 corner/edge pixels of the digits), label 0.  No training point moves
    the first-layer weights of those pixels, so the canary's own gradient is the only
    signal there: a strong, if artificial, membership signal (the usual choice when an
    audit is meant to approach the worst case).  ``"mislabeled"``: a held-out test digit
    with its label shifted by 1.  ``"outlier"``: a test digit scaled by 4.
    """
    data = load_data() if data is None else data
    require(kind in ("blank_pixels", "mislabeled", "outlier"), "kind", kind,
            "'blank_pixels', 'mislabeled' or 'outlier'", _REF)
    if kind == "blank_pixels":
        const = np.flatnonzero(np.all(data.X_train == data.X_train[0], axis=0))
        require(const.size > 0, "kind", kind, "a pixel constant over the training set", _REF)
        x = np.zeros(data.X_train.shape[1])
        x[const] = value
        return x, 0
    x, lab = data.X_test[0].copy(), int(data.y_test[0])
    if kind == "mislabeled":
        return x, (lab + 1) % 10
    return 4 * x, lab


def run_losses(cfg: RunConfig, runs: int, *, X: np.ndarray, y: np.ndarray,
               x_canary: np.ndarray, y_canary: int, seed: int = 0) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    """Canary losses at theta_T: ``runs`` models trained without it and ``runs`` with it.

    Seeds ``seed + i`` (out) and ``seed + runs + i`` (in) drive sampling and noise.
    """
    runs = require_integer("runs", runs, _REF, minimum=2)
    Xin = np.vstack([X, x_canary[None, :]])
    yin = np.append(y, y_canary)
    out, inn = np.empty(runs), np.empty(runs)
    for i in range(runs):
        th = train(cfg, X, y, seed + i, rate_n=cfg.n)
        out[i] = per_example_losses(th, x_canary[None, :], np.array([y_canary]), cfg.hidden)[0]
        th = train(cfg, Xin, yin, seed + runs + i, rate_n=cfg.n)
        inn[i] = per_example_losses(th, x_canary[None, :], np.array([y_canary]), cfg.hidden)[0]
    return out, inn


# --- from losses to an epsilon lower bound ------------------------------------------------------

@dataclass(frozen=True)
class AuditResult:
    """Outcome of the audit: ``threshold`` (chosen on the selection half), the evaluation
    counts (false positives among ``n_out`` out-runs, false negatives among ``n_in``
    in-runs), the point estimate ``eps_hat`` (eq. (24) at the observed rates) and the
    Clopper-Pearson interval ``(eps_lower, eps_upper)`` at ``confidence``; ``eps_lower`` is
    the certified lower bound."""

    threshold: float
    false_pos: int
    n_out: int
    false_neg: int
    n_in: int
    delta: float
    confidence: float
    eps_hat: float
    eps_lower: float
    eps_upper: float
    losses_out: np.ndarray = field(repr=False)
    losses_in: np.ndarray = field(repr=False)


def _rates(out: np.ndarray, inn: np.ndarray, tau: float) -> tuple[int, int]:
    """(false positives, false negatives) of "member iff loss < tau"."""
    return int(np.sum(out < tau)), int(np.sum(inn >= tau))


def audit_from_losses(losses_out: np.ndarray, losses_in: np.ndarray, *, delta: float = 1e-5,
                      confidence: float = 0.95, split_seed: int = 0) -> AuditResult:
    """Choose tau on a random half of each group (max eq.-(24) estimate, with CP upper rates
    to avoid thresholds with no errors), then count errors on the other half."""
    out, inn = np.asarray(losses_out, float), np.asarray(losses_in, float)
    require(len(out) >= 4 and len(inn) >= 4, "runs", (len(out), len(inn)),
            ">= 4 runs per world", _REF)
    rng = np.random.default_rng(split_seed)
    po, pi = rng.permutation(len(out)), rng.permutation(len(inn))
    so, eo = out[po[: len(out) // 2]], out[po[len(out) // 2:]]
    si, ei = inn[pi[: len(inn) // 2]], inn[pi[len(inn) // 2:]]
    # A two-sided CP interval at `confidence` has one-sided tails (1 - confidence)/2, so the
    # two upper ends hold together with probability >= confidence (union bound).

    def certified(o: np.ndarray, i: np.ndarray, tau: float) -> float:
        fp, fn = _rates(o, i, tau)
        fpr_hi = clopper_pearson(fp, len(o), confidence)[1]
        fnr_hi = clopper_pearson(fn, len(i), confidence)[1]
        return epsilon_from_rates(fpr_hi, fnr_hi, delta)

    cands = np.unique(np.concatenate([so, si]))
    tau = float(max(cands, key=lambda t: certified(so, si, t)))
    fp, fn = _rates(eo, ei, tau)
    fpr_lo, fpr_hi = clopper_pearson(fp, len(eo), confidence)
    fnr_lo, fnr_hi = clopper_pearson(fn, len(ei), confidence)
    return AuditResult(tau, fp, len(eo), fn, len(ei), delta, confidence,
                       epsilon_from_rates(fp / len(eo), fn / len(ei), delta),
                       epsilon_from_rates(fpr_hi, fnr_hi, delta),
                       epsilon_from_rates(fpr_lo, fnr_lo, delta), out, inn)


@dataclass(frozen=True)
class AuditConfig:
    """A complete audit: the run, the number of runs per world, the canary, seeds."""

    run: RunConfig
    runs: int = 100
    canary: str = "blank_pixels"
    data_seed: int = 0
    seed: int = 0
    delta: float = 1e-5
    confidence: float = 0.95


def audit(cfg: AuditConfig) -> AuditResult:
    """Train ``2 cfg.runs`` models and return the audit's epsilon lower bound with its CI."""
    X, y = subset(cfg.run.n, cfg.data_seed)
    xc, yc = canary(cfg.canary)
    out, inn = run_losses(cfg.run, cfg.runs, X=X, y=y, x_canary=xc, y_canary=yc, seed=cfg.seed)
    return audit_from_losses(out, inn, delta=cfg.delta, confidence=cfg.confidence,
                             split_seed=cfg.seed)
